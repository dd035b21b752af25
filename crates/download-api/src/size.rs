/// Formats a byte count for people: `631663` becomes `"632 kB"`.
///
/// Decimal (SI) units, as file managers and the real service's documentation use,
/// with three significant digits so a column of sizes stays easy to scan.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["kB", "MB", "GB", "TB", "PB", "EB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64;
    let mut unit = "B";
    for next in UNITS {
        if value < 999.5 {
            break;
        }
        value /= 1000.0;
        unit = next;
    }
    if value < 9.995 {
        format!("{value:.2} {unit}")
    } else if value < 99.95 {
        format!("{value:.1} {unit}")
    } else {
        format!("{value:.0} {unit}")
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
    }
}
