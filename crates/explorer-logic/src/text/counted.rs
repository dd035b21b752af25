//! A count with its noun, in English (being replaced by the plurals of [`super::t`]).

/// A count with its noun: `1 file`, `3 files`, `0 files`.
pub fn counted(count: usize, one: &str, many: &str) -> String {
    let noun = if count == 1 { one } else { many };
    format!("{count} {noun}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_everything_else_plural() {
        assert_eq!(counted(1, "file", "files"), "1 file");
        assert_eq!(counted(0, "file", "files"), "0 files");
        assert_eq!(
            counted(12, "data package", "data packages"),
            "12 data packages"
        );
    }
}
