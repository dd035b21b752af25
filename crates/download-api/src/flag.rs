use crate::ParseError;

/// Reads a boolean query parameter as the spec defines it.
///
/// `value` is `None` when the parameter is absent. Present with no value
/// (`?expanded` or `?expanded=`) counts as set; `true` and `false` are understood
/// in any case; anything else is an error rather than a silent guess.
pub fn parse_flag(name: &str, value: Option<&str>) -> Result<bool, ParseError> {
    match value {
        None => Ok(false),
        Some(v) if v.is_empty() || v.eq_ignore_ascii_case("true") => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
        Some(v) => Err(ParseError::InvalidFlag {
            name: name.to_owned(),
            value: v.to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_is_unset_and_bare_is_set() {
        assert_eq!(parse_flag("redirect", None), Ok(false));
        assert_eq!(parse_flag("redirect", Some("")), Ok(true));
    }

    #[test]
    fn true_and_false_are_understood() {
        assert_eq!(parse_flag("large", Some("true")), Ok(true));
        assert_eq!(parse_flag("large", Some("TRUE")), Ok(true));
        assert_eq!(parse_flag("large", Some("false")), Ok(false));
    }

    #[test]
    fn anything_else_is_an_error_naming_the_parameter() {
        let err = parse_flag("expanded", Some("yes")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "query parameter 'expanded' must be empty, 'true' or 'false', not 'yes'"
        );
    }
}
