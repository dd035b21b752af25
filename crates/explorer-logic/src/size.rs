/// Formats a byte count for people: `631663` becomes `"632 kB"`.
///
/// Decimal (SI) units, as file managers and the real service's documentation use,
/// with three significant digits so a column of sizes stays easy to scan.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["kB", "MB", "GB", "TB", "PB", "EB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    // Integer arithmetic on `bytes / scale`: float formatting would add about 15 kB
    // to the web app's wasm for this one function.
    let bytes = u128::from(bytes);
    let mut scale: u128 = 1;
    let mut unit = "B";
    for next in UNITS {
        if 2 * bytes < 1999 * scale {
            break; // below 999.5 units
        }
        scale *= 1000;
        unit = next;
    }
    let rounded = |per_unit: u128| (2 * bytes * per_unit + scale) / (2 * scale);
    if 1000 * bytes < 9995 * scale {
        let hundredths = rounded(100);
        format!("{}.{:02} {unit}", hundredths / 100, hundredths % 100)
    } else if 100 * bytes < 9995 * scale {
        let tenths = rounded(10);
        format!("{}.{} {unit}", tenths / 10, tenths % 10)
    } else {
        format!("{} {unit}", rounded(1))
    }
}

#[cfg(test)]
mod tests {
    use super::format_size;

    #[test]
    fn small_counts_are_plain_bytes() {
        assert_eq!(format_size(0), "0 B");
        assert_eq!(format_size(999), "999 B");
    }

    #[test]
    fn larger_counts_keep_three_significant_digits() {
        assert_eq!(format_size(1_000), "1.00 kB");
        assert_eq!(format_size(631_663), "632 kB");
        assert_eq!(format_size(14_500_000), "14.5 MB");
        assert_eq!(format_size(608_511_751), "609 MB");
        assert_eq!(format_size(3_990_000_000), "3.99 GB");
    }

    #[test]
    fn rounding_up_moves_to_the_next_unit() {
        assert_eq!(format_size(999_999), "1.00 MB");
        assert_eq!(format_size(u64::MAX), "18.4 EB");
        assert_eq!(format_size(9_994_999), "9.99 MB");
        assert_eq!(format_size(9_995_000), "10.0 MB");
        assert_eq!(format_size(99_949_999), "99.9 MB");
        assert_eq!(format_size(99_950_000), "100 MB");
        assert_eq!(format_size(999_499_999), "999 MB");
    }
}
