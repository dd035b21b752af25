//! Reading a listed file field by field: one unusable field (a negative size, an md5
//! that is not one, an address that is not a web address) is set aside and noted as a
//! [`Flaw`], never a reason to refuse the whole listing, so the other files stay
//! usable.

use serde::{Deserialize, Serialize};

/// The largest size believed: 2^53 − 1 bytes (about 9 PB), the largest whole number
/// a JSON reader in a browser keeps exactly. Anything larger is no file's size.
pub const MAX_SIZE: u64 = (1 << 53) - 1;

/// The longest part of an unusable value a [`Flaw`] keeps, in characters.
const SENT_CHARS: usize = 60;

/// A field of a listed file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Field {
    FileName,
    Url,
    Size,
    Md5,
    /// A product file's area (its grid square or `GB`).
    Area,
    /// A product file's format.
    Format,
}

/// A field of a listed file the service sent but the app cannot use: the file is kept,
/// with the field unknown (an address, empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flaw {
    pub field: Field,
    /// What was sent, as Rust writes a string or number (`"javascript:x"`, `-5`), cut
    /// short; `None` when it cannot be shown (a list, a fraction, a huge number).
    pub sent: Option<String>,
}

/// Whether `address` may become a link or be fetched: an absolute `http:` or `https:`
/// address with a host, and no space or control character in it. `javascript:`,
/// `data:`, `vbscript:`, relative and other addresses are not.
pub fn is_web_address(address: &str) -> bool {
    let lower = address.get(..8).unwrap_or(address).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &address[8..]
    } else if lower.starts_with("http://") {
        &address[7..]
    } else {
        return false;
    };
    let host_ends = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    host_ends > 0 && !address.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Whether `md5` is one: 32 hexadecimal digits (either case).
pub fn is_md5(md5: &str) -> bool {
    md5.len() == 32 && md5.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Any JSON value of a field, as it came.
#[derive(Debug)]
pub(crate) enum Sent {
    Whole(u64),
    Negative(i64),
    /// A fraction, or a number too large for a `u64`.
    Fraction(f64),
    Text(String),
    /// A list, an object, a boolean or null.
    Other,
}

// Read by hand, not as `#[serde(untagged)]`: that buffers every field and tries each
// kind in turn, code that weighs in the web app's first load.
impl<'de> Deserialize<'de> for Sent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SentVisitor)
    }
}

struct SentVisitor;

impl<'de> serde::de::Visitor<'de> for SentVisitor {
    type Value = Sent;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_u64<E>(self, n: u64) -> Result<Sent, E> {
        Ok(Sent::Whole(n))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Sent, E> {
        Ok(u64::try_from(n).map_or(Sent::Negative(n), Sent::Whole))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Sent, E> {
        Ok(Sent::Fraction(n))
    }

    fn visit_str<E>(self, text: &str) -> Result<Sent, E> {
        Ok(Sent::Text(text.to_owned()))
    }

    fn visit_string<E>(self, text: String) -> Result<Sent, E> {
        Ok(Sent::Text(text))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Sent, E> {
        Ok(Sent::Other)
    }

    fn visit_unit<E>(self) -> Result<Sent, E> {
        Ok(Sent::Other)
    }

    fn visit_none<E>(self) -> Result<Sent, E> {
        Ok(Sent::Other)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, inner: D) -> Result<Sent, D::Error> {
        Sent::deserialize(inner)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Sent, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Sent::Other)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Sent, A::Error> {
        while map
            .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Sent::Other)
    }
}

impl Sent {
    /// What a [`Flaw`] shows of it.
    fn shown(&self) -> Option<String> {
        match self {
            Sent::Whole(n) => Some(n.to_string()),
            Sent::Negative(n) => Some(n.to_string()),
            Sent::Text(text) => {
                let cut: String = text.chars().take(SENT_CHARS).collect();
                let more = if cut.len() < text.len() { "…" } else { "" };
                Some(format!("{cut:?}{more}"))
            }
            // No `{f}`: float formatting is large in the web app's wasm.
            Sent::Fraction(_) | Sent::Other => None,
        }
    }

    fn flaw(&self, field: Field) -> Flaw {
        Flaw {
            field,
            sent: self.shown(),
        }
    }
}

/// The fields of a listed file as sent, each read on its own.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SentFile {
    #[serde(default)]
    url: Option<Sent>,
    #[serde(default)]
    file_name: Option<Sent>,
    #[serde(default)]
    size: Option<Sent>,
    #[serde(default)]
    md5: Option<Sent>,
}

/// A listed file's usable fields, and what was set aside.
pub(crate) struct ReadFile {
    pub url: String,
    pub file_name: String,
    pub size: Option<u64>,
    pub md5: Option<String>,
    pub flaws: Vec<Flaw>,
}

impl From<SentFile> for ReadFile {
    fn from(sent: SentFile) -> Self {
        let mut flaws = Vec::new();
        let url = match sent.url {
            Some(Sent::Text(url)) if is_web_address(&url) => url,
            sent => {
                flaws.push(sent.map_or(absent(Field::Url), |s| s.flaw(Field::Url)));
                String::new()
            }
        };
        let file_name = match sent.file_name {
            Some(Sent::Text(name)) if !name.is_empty() => name,
            sent => {
                flaws.push(sent.map_or(absent(Field::FileName), |s| s.flaw(Field::FileName)));
                String::new()
            }
        };
        let size = match sent.size {
            None => None,
            Some(Sent::Whole(size)) if size <= MAX_SIZE => Some(size),
            // A whole number written as `1500.0`.
            Some(Sent::Fraction(size))
                if size >= 0.0 && size.fract() == 0.0 && size <= MAX_SIZE as f64 =>
            {
                Some(size as u64)
            }
            Some(sent) => {
                flaws.push(sent.flaw(Field::Size));
                None
            }
        };
        let md5 = match sent.md5 {
            None => None,
            Some(Sent::Text(md5)) if is_md5(&md5) => Some(md5.to_ascii_lowercase()),
            Some(sent) => {
                flaws.push(sent.flaw(Field::Md5));
                None
            }
        };
        ReadFile {
            url,
            file_name,
            size,
            md5,
            flaws,
        }
    }
}

/// `sent` as text, where it is a string; else empty, with a flaw of `field` noted.
pub(crate) fn text_or_flaw(sent: Option<Sent>, field: Field, flaws: &mut Vec<Flaw>) -> String {
    match sent {
        Some(Sent::Text(text)) => text,
        sent => {
            flaws.push(sent.map_or(absent(field), |s| s.flaw(field)));
            String::new()
        }
    }
}

/// A field that is required but was not sent.
fn absent(field: Field) -> Flaw {
    Flaw { field, sent: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> ReadFile {
        ReadFile::from(serde_json::from_str::<SentFile>(json).unwrap())
    }

    #[test]
    fn only_absolute_http_and_https_addresses_are_web_addresses() {
        for good in [
            "http://x",
            "https://x.example/a?b#c",
            "HTTPS://X/a",
            "http://127.0.0.1:8080/files/a.zip?sig=1",
        ] {
            assert!(is_web_address(good), "{good}");
        }
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " javascript:alert(1)",
            "data:text/html,<b>x</b>",
            "vbscript:msgbox(1)",
            "ftp://x/a",
            "/files/a.zip",
            "//x/a",
            "https:///a",
            "https://",
            "http://x/a b",
            "http://x/a\nb",
            "",
        ] {
            assert!(!is_web_address(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_sound_file_is_read_as_sent_with_its_md5_in_lower_case() {
        let file = read(
            r#"{"url":"https://x/a","fileName":"a.zip","size":1500,
                "md5":"0123456789ABCDEF0123456789abcdef"}"#,
        );
        assert_eq!(file.url, "https://x/a");
        assert_eq!(file.file_name, "a.zip");
        assert_eq!(file.size, Some(1500));
        assert_eq!(
            file.md5.as_deref(),
            Some("0123456789abcdef0123456789abcdef")
        );
        assert!(file.flaws.is_empty());
        let no_optional = read(r#"{"url":"https://x/a","fileName":"a.zip","size":null}"#);
        assert_eq!((no_optional.size, no_optional.md5), (None, None));
        assert!(no_optional.flaws.is_empty());
        assert_eq!(
            read(r#"{"url":"http://x","fileName":"a","size":15e2}"#).size,
            Some(1500)
        );
    }

    #[test]
    fn each_unusable_field_is_set_aside_and_named() {
        let file =
            read(r#"{"url":"javascript:alert(1)","fileName":7,"size":-5,"md5":"not an md5"}"#);
        assert_eq!(
            (file.url.as_str(), file.file_name.as_str()),
            ("", ""),
            "nothing unusable is kept"
        );
        assert_eq!((file.size, file.md5), (None, None));
        let sent = |field, sent: &str| Flaw {
            field,
            sent: Some(sent.to_owned()),
        };
        assert_eq!(
            file.flaws,
            [
                sent(Field::Url, r#""javascript:alert(1)""#),
                sent(Field::FileName, "7"),
                sent(Field::Size, "-5"),
                sent(Field::Md5, r#""not an md5""#),
            ]
        );
    }

    #[test]
    fn sizes_past_any_file_and_odd_values_are_no_size() {
        for size in [
            "1e30",
            "18446744073709551615",
            "9007199254740992",
            "1.5",
            "\"12\"",
            "[]",
            "true",
        ] {
            let file = read(&format!(
                r#"{{"url":"https://x","fileName":"a","size":{size}}}"#
            ));
            assert_eq!(file.size, None, "{size}");
            assert_eq!(file.flaws.len(), 1, "{size}");
            assert_eq!(file.flaws[0].field, Field::Size);
        }
        let largest = read(&format!(
            r#"{{"url":"https://x","fileName":"a","size":{MAX_SIZE}}}"#
        ));
        assert_eq!(largest.size, Some(MAX_SIZE));
        let huge = read(r#"{"url":"https://x","fileName":"a","size":1e30}"#);
        assert_eq!(huge.flaws[0].sent, None, "no float is written out");
    }

    #[test]
    fn a_missing_address_or_name_is_a_flaw_and_a_long_value_is_cut() {
        let file = read(r#"{"size":1}"#);
        assert_eq!(file.flaws, [absent(Field::Url), absent(Field::FileName)]);
        let long = format!(r#"{{"url":"{}","fileName":"a"}}"#, "x".repeat(500));
        let flaw = &read(&long).flaws[0];
        let shown = flaw.sent.as_deref().unwrap();
        assert!(shown.len() < 70 && shown.ends_with('…'), "{shown}");
        let md5 = read(r#"{"url":"https://x","fileName":"a","md5":"a\nb"}"#);
        assert_eq!(md5.flaws[0].sent.as_deref(), Some(r#""a\nb""#));
    }
}
