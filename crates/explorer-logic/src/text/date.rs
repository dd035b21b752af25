//! Dates as people read them: `2024-03-01` is `1 March 2024`, or `1 Mawrth 2024` in Welsh.

use super::t;

/// A service date (`createdOn`, `2024-03-01`) as people read it: `1 March 2024` in
/// English, `1 Mawrth 2024` in Welsh. Anything that is not such a date (a date and
/// time, an empty value, `2024-02-30`) is shown as it came.
pub fn format_date(iso: &str) -> String {
    match parse(iso) {
        Some((year, month, day)) => format!("{day} {} {year}", month_name(month)),
        None => iso.to_owned(),
    }
}

/// `YYYY-MM-DD` as (year, month, day), when it names a day of the calendar.
fn parse(iso: &str) -> Option<(u32, u32, u32)> {
    let bytes = iso.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = iso.get(range)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    };
    (1..=days).contains(&day).then_some((year, month, day))
}

/// The name of month `month` (1 to 12) in the page's language.
fn month_name(month: u32) -> &'static str {
    match month {
        1 => t::packages::month_1(),
        2 => t::packages::month_2(),
        3 => t::packages::month_3(),
        4 => t::packages::month_4(),
        5 => t::packages::month_5(),
        6 => t::packages::month_6(),
        7 => t::packages::month_7(),
        8 => t::packages::month_8(),
        9 => t::packages::month_9(),
        10 => t::packages::month_10(),
        11 => t::packages::month_11(),
        _ => t::packages::month_12(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::in_welsh;
    use super::*;

    #[test]
    fn dates_read_as_day_month_year_in_english() {
        assert_eq!(format_date("2024-03-01"), "1 March 2024");
        assert_eq!(format_date("2021-01-20"), "20 January 2021");
        assert_eq!(format_date("1999-12-31"), "31 December 1999");
        assert_eq!(format_date("2024-02-29"), "29 February 2024");
    }

    #[test]
    fn dates_read_as_day_month_year_in_welsh() {
        let (months, first) = in_welsh(|| {
            let months: Vec<String> = (1..=12)
                .map(|month| format_date(&format!("2024-{month:02}-05")))
                .collect();
            (months, format_date("2024-03-01"))
        });
        assert_eq!(first, "1 Mawrth 2024");
        assert_eq!(
            months,
            [
                "5 Ionawr 2024",
                "5 Chwefror 2024",
                "5 Mawrth 2024",
                "5 Ebrill 2024",
                "5 Mai 2024",
                "5 Mehefin 2024",
                "5 Gorffennaf 2024",
                "5 Awst 2024",
                "5 Medi 2024",
                "5 Hydref 2024",
                "5 Tachwedd 2024",
                "5 Rhagfyr 2024",
            ]
        );
    }

    #[test]
    fn anything_else_is_shown_as_it_came() {
        for odd in [
            "",
            "2024-3-1",
            "2024-02-30",
            "2023-02-29",
            "2024-13-01",
            "2024-00-10",
            "2024-01-00",
            "2024/03/01",
            "2024-03-01T10:00:00Z",
            "+024-03-01",
            "2024-0a-01",
            "yesterday",
            "２０２４-03-01",
        ] {
            assert_eq!(format_date(odd), odd);
        }
    }
}
