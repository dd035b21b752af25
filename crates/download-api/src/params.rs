//! Reading a query string: [`QueryParams`], the one reader of the service's rule that
//! a parameter given more than once takes the value of its last occurrence; and a
//! component encoded and decoded.
//!
//! Decoding is strict (a value that is not UTF-8 once decoded is an error the service
//! answers with a 400), which is why this is not `form_urlencoded`, whose decoding
//! replaces such bytes silently.

use std::borrow::Cow;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

use crate::{ParseError, parse_flag};

/// Everything but RFC 3986's unreserved characters gets encoded, so a value is safe
/// in a path segment and in a query (`ESRI® Shapefile` → `ESRI%C2%AE%20Shapefile`).
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes one path segment or query value.
pub fn encode_component(value: &str) -> Cow<'_, str> {
    utf8_percent_encode(value, COMPONENT).into()
}

/// Decodes one query component: `+` means space, then percent-decoding.
pub fn decode_component(name: &str, value: &str) -> Result<String, ParseError> {
    let spaced = value.replace('+', " ");
    percent_decode_str(&spaced)
        .decode_utf8()
        .map(Cow::into_owned)
        .map_err(|_| ParseError::InvalidEncoding {
            name: name.to_owned(),
        })
}

/// Splits a raw query string (without `?`) into decoded names and values, in order.
///
/// A bare name (`redirect`) has an empty value, which the spec counts as a set
/// boolean. Empty pieces (`a=1&&b=2`) are skipped.
pub fn parse_query(query: &str) -> Result<Vec<(String, String)>, ParseError> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (raw_name, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = decode_component(raw_name, raw_name)?;
            let value = decode_component(&name, raw_value)?;
            Ok((name, value))
        })
        .collect()
}

/// The parameters of a query string, decoded. A parameter given more than once has the
/// value of its last occurrence: `?expanded=false&expanded` is expanded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryParams {
    pairs: Vec<(String, String)>,
}

impl QueryParams {
    /// Reads a raw query string (without `?`); see [`parse_query`].
    pub fn parse(query: &str) -> Result<QueryParams, ParseError> {
        parse_query(query).map(|pairs| QueryParams { pairs })
    }

    /// The value of the last occurrence of `name` (empty for a bare name), if any.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }

    /// Whether `name` occurs at all.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// A boolean parameter as the spec reads it (see [`parse_flag`]), from its last
    /// occurrence: earlier ones do not count, even unreadable ones.
    pub fn flag(&self, name: &str) -> Result<bool, ParseError> {
        parse_flag(name, self.get(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_parsing_decodes_plus_percent_and_bare_names() {
        let pairs = parse_query("format=ESRI%C2%AE+Shapefile&redirect&&large=").unwrap();
        assert_eq!(
            pairs,
            [
                ("format".to_owned(), "ESRI® Shapefile".to_owned()),
                ("redirect".to_owned(), String::new()),
                ("large".to_owned(), String::new()),
            ]
        );
    }

    #[test]
    fn invalid_utf8_in_a_query_is_an_error() {
        assert_eq!(
            parse_query("fileName=%FF"),
            Err(ParseError::InvalidEncoding {
                name: "fileName".into()
            })
        );
        assert!(QueryParams::parse("a=1&fileName=%FF").is_err());
    }

    #[test]
    fn the_last_occurrence_of_a_parameter_wins() {
        let params = QueryParams::parse("key=first&fileName=a.zip&key=second&fileName=").unwrap();
        assert_eq!(params.get("key"), Some("second"));
        assert_eq!(params.get("fileName"), Some(""));
        assert_eq!(params.get("format"), None);
        assert!(params.contains("fileName"));
        assert!(!params.contains("file"));
        assert_eq!(QueryParams::parse("").unwrap().get("key"), None);
    }

    #[test]
    fn flags_are_read_from_their_last_occurrence() {
        let read = |query: &str| QueryParams::parse(query).unwrap().flag("expanded");
        assert_eq!(read(""), Ok(false));
        assert_eq!(read("key=x&expanded=true"), Ok(true));
        assert_eq!(read("expanded&expanded=false"), Ok(false));
        assert_eq!(read("expanded=yes&expanded"), Ok(true));
        assert!(read("expanded&expanded=yes").is_err());
    }
}
