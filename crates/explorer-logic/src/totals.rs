/// How many files and bytes a list of downloads holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Number of files.
    pub files: usize,
    /// Sum of the sizes the service gave.
    pub bytes: u64,
    /// Files the service gave no size for (so `bytes` is a lower bound).
    pub unsized_files: usize,
}

impl Totals {
    /// Adds up the files whose sizes these are (`None` for a size the service did not give).
    pub fn of(sizes: impl IntoIterator<Item = Option<u64>>) -> Self {
        sizes.into_iter().fold(Totals::default(), |mut t, size| {
            t.files += 1;
            match size {
                Some(size) => t.bytes = t.bytes.saturating_add(size),
                None => t.unsized_files += 1,
            }
            t
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_sizes_are_counted_apart() {
        assert_eq!(
            Totals::of([Some(10), None, Some(5)]),
            Totals {
                files: 3,
                bytes: 15,
                unsized_files: 1
            }
        );
        assert_eq!(Totals::of([]), Totals::default());
    }

    #[test]
    fn a_sum_too_large_saturates() {
        assert_eq!(Totals::of([Some(u64::MAX), Some(1)]).bytes, u64::MAX);
    }
}
