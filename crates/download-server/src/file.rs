//! One file of the catalogue as it is served: where its bytes are, its size and MD5,
//! the name and media type it is served under, and its validators (`ETag`,
//! `Last-Modified`) with what a request's conditional headers decide from them.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use crate::storage::ObjectFile;
use axum::http::{HeaderMap, HeaderValue, header};
use headers::{
    ETag, HeaderMapExt, IfMatch, IfModifiedSince, IfNoneMatch, IfRange, IfUnmodifiedSince,
    LastModified, Range,
};

/// A file as served: its bytes and how to label them.
#[derive(Debug, Clone)]
pub(crate) struct ServedFile {
    pub content: Arc<FileContent>,
    pub file_name: String,
    pub content_type: HeaderValue,
}

/// One file of the catalogue, measured when the catalogue loads.
#[derive(Debug)]
pub(crate) struct FileContent {
    pub data: FileData,
    pub size: u64,
    /// Lower-case hex MD5 of the bytes.
    pub md5: String,
    pub validators: Validators,
}

/// Where to read a file's bytes when it is served.
#[derive(Debug)]
pub(crate) enum FileData {
    Static(&'static [u8]),
    Disk(PathBuf),
    /// In object storage: served by a redirect to a presigned address.
    Object(ObjectFile),
}

/// What a request's preconditions decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Precondition {
    /// Answer as usual.
    Passed,
    /// 304: the client's copy is current.
    NotModified,
    /// 412: the file is not the one the client expects.
    Failed,
}

/// A representation's validators (RFC 9110 §8.8): sent with it, and compared with a
/// request's conditional headers.
#[derive(Debug, Clone)]
pub(crate) struct Validators {
    /// Strong: the quoted MD5 of the bytes.
    etag: ETag,
    /// Whole seconds, as on the wire.
    last_modified: LastModified,
}

impl Validators {
    /// The validators of bytes with this MD5 (lower-case hex), written at `modified`.
    pub(crate) fn new(md5: &str, modified: SystemTime) -> Validators {
        Validators {
            etag: format!("\"{md5}\"")
                .parse()
                .expect("a quoted hex digest is an entity tag"),
            last_modified: modified.into(),
        }
    }

    /// Adds `ETag` and `Last-Modified` to a response's headers.
    pub(crate) fn insert(&self, headers: &mut HeaderMap) {
        headers.typed_insert(self.etag.clone());
        headers.typed_insert(self.last_modified);
    }

    /// What the request's preconditions decide, in the order of RFC 9110 §13.2.2:
    /// `If-Match` (strong comparison), else `If-Unmodified-Since`, may fail the request;
    /// then `If-None-Match` (weak comparison), else `If-Modified-Since`, may find the
    /// client's copy current. A header that is present decides even when it cannot be
    /// read (then it never matches).
    pub(crate) fn precondition(&self, request: &HeaderMap) -> Precondition {
        let failed = if request.contains_key(header::IF_MATCH) {
            !typed_tags::<IfMatch>(request).is_some_and(|tags| tags.precondition_passes(&self.etag))
        } else {
            // A date that cannot be read is ignored (§13.1.4).
            request
                .typed_get::<IfUnmodifiedSince>()
                .is_some_and(|since| !since.precondition_passes(self.last_modified.into()))
        };
        if failed {
            return Precondition::Failed;
        }
        let current = if request.contains_key(header::IF_NONE_MATCH) {
            typed_tags::<IfNoneMatch>(request)
                .is_some_and(|tags| !tags.precondition_passes(&self.etag))
        } else {
            request
                .typed_get::<IfModifiedSince>()
                .is_some_and(|since| !since.is_modified(self.last_modified.into()))
        };
        if current {
            Precondition::NotModified
        } else {
            Precondition::Passed
        }
    }

    /// The `Range` to honour: none when absent or malformed, or when `If-Range` names
    /// another version of the file (then the whole file is sent).
    pub(crate) fn range(&self, request: &HeaderMap) -> Option<Range> {
        let range = request.typed_get::<Range>()?;
        if request.contains_key(header::IF_RANGE) {
            let if_range = typed_tags::<IfRange>(request)?;
            // RFC 9110 §13.1.5: a tag matches strongly (a weak one never does), a date
            // only when it is exactly Last-Modified. `IfRange::is_modified` would also
            // take any later date, so dates are compared here.
            let current = if_range == IfRange::date(self.last_modified.into())
                || !if_range.is_modified(Some(&self.etag), None);
            if !current {
                return None;
            }
        }
        Some(range)
    }
}

/// A header of entity tags (or `If-Range`'s date), `None` when it cannot be read. A tag
/// with a space or tab inside its quotes is unreadable (RFC 9110 §8.8.3 allows neither):
/// `headers` reads such a tag only after a debug assertion, so a debug build would
/// panic on it (found by the `serve_file` fuzz target).
fn typed_tags<H: headers::Header>(request: &HeaderMap) -> Option<H> {
    let whitespace_in_quotes = request.get_all(H::name()).iter().any(|value| {
        let mut quoted = false;
        value.as_bytes().iter().any(|&byte| {
            quoted ^= byte == b'"';
            quoted && (byte == b' ' || byte == b'\t')
        })
    });
    if whitespace_in_quotes {
        return None;
    }
    request.typed_get::<H>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    fn request(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| (name.clone(), HeaderValue::try_from(*value).unwrap()))
            .collect()
    }

    const ETAG: &str = "\"0123abcd\"";

    fn modified() -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(1_700_000_000_500)
    }

    fn validators() -> Validators {
        Validators::new("0123abcd", modified())
    }

    #[test]
    fn if_none_match_compares_tags_weakly_and_wins_over_dates() {
        let cases = [
            (ETAG, true),
            ("W/\"0123abcd\"", true),
            ("\"other\", \"0123abcd\"", true),
            ("*", true),
            ("\"other\"", false),
        ];
        for (value, expected) in cases {
            let headers = request(&[(header::IF_NONE_MATCH, value)]);
            let decided = validators().precondition(&headers);
            assert_eq!(decided == Precondition::NotModified, expected, "{value}");
        }
        let both = request(&[
            (header::IF_NONE_MATCH, "\"other\""),
            (header::IF_MODIFIED_SINCE, "Wed, 01 Jan 2100 00:00:00 GMT"),
        ]);
        assert_eq!(validators().precondition(&both), Precondition::Passed);
    }

    #[test]
    fn if_modified_since_uses_whole_seconds() {
        let same_second = httpdate::fmt_http_date(modified());
        let headers = request(&[(header::IF_MODIFIED_SINCE, &same_second)]);
        assert_eq!(
            validators().precondition(&headers),
            Precondition::NotModified
        );
        let earlier = httpdate::fmt_http_date(modified() - Duration::from_secs(5));
        let headers = request(&[(header::IF_MODIFIED_SINCE, &earlier)]);
        assert_eq!(validators().precondition(&headers), Precondition::Passed);
    }

    #[test]
    fn if_match_and_if_unmodified_since_fail_for_another_version() {
        let cases = [
            (header::IF_MATCH, ETAG, Precondition::Passed),
            (
                header::IF_MATCH,
                "\"other\", \"0123abcd\"",
                Precondition::Passed,
            ),
            (header::IF_MATCH, "*", Precondition::Passed),
            (header::IF_MATCH, "\"other\"", Precondition::Failed),
            // Strong comparison: a weak tag never matches.
            (header::IF_MATCH, "W/\"0123abcd\"", Precondition::Failed),
            (header::IF_MATCH, "garbage", Precondition::Failed),
            (
                header::IF_UNMODIFIED_SINCE,
                "Wed, 01 Jan 2100 00:00:00 GMT",
                Precondition::Passed,
            ),
            (
                header::IF_UNMODIFIED_SINCE,
                "Thu, 01 Jan 2015 00:00:00 GMT",
                Precondition::Failed,
            ),
            (
                header::IF_UNMODIFIED_SINCE,
                "yesterday",
                Precondition::Passed,
            ),
        ];
        for (name, value, expected) in cases {
            let headers = request(&[(name.clone(), value)]);
            assert_eq!(
                validators().precondition(&headers),
                expected,
                "{name}: {value}"
            );
        }
        // If-Match decides before If-None-Match could find the copy current.
        let both = request(&[
            (header::IF_MATCH, "\"other\""),
            (header::IF_NONE_MATCH, ETAG),
        ]);
        assert_eq!(validators().precondition(&both), Precondition::Failed);
    }

    #[test]
    fn if_range_with_another_version_drops_the_range() {
        let range = request(&[(header::RANGE, "bytes=0-1")]);
        assert!(validators().range(&range).is_some());
        let current = request(&[(header::RANGE, "bytes=0-1"), (header::IF_RANGE, ETAG)]);
        assert!(validators().range(&current).is_some());
        let stale = request(&[(header::RANGE, "bytes=0-1"), (header::IF_RANGE, "\"old\"")]);
        assert!(validators().range(&stale).is_none());
        let weak = request(&[
            (header::RANGE, "bytes=0-1"),
            (header::IF_RANGE, "W/\"0123abcd\""),
        ]);
        assert!(validators().range(&weak).is_none());
        let garbage = request(&[(header::RANGE, "lines=1-2")]);
        assert!(validators().range(&garbage).is_none());
    }

    /// Found by fuzzing: `headers` asserts (in debug builds) that a tag has no space.
    #[test]
    fn tags_with_spaces_inside_their_quotes_never_match() {
        let spaced = "\" 0123abcd\"";
        let ranged = request(&[(header::RANGE, "bytes=-500"), (header::IF_RANGE, spaced)]);
        assert!(validators().range(&ranged).is_none());
        let if_match = request(&[(header::IF_MATCH, spaced)]);
        assert_eq!(validators().precondition(&if_match), Precondition::Failed);
        let if_none_match = request(&[(header::IF_NONE_MATCH, "\"a\", \"0123 abcd\"")]);
        assert_eq!(
            validators().precondition(&if_none_match),
            Precondition::Passed
        );
        // Spaces between tags, and in If-Range's date, are fine.
        let list = request(&[(header::IF_NONE_MATCH, "\"a\" , \"0123abcd\"")]);
        assert_eq!(validators().precondition(&list), Precondition::NotModified);
    }

    #[test]
    fn if_range_with_a_date_needs_exactly_the_last_modified_one() {
        let with_date = |date: SystemTime| {
            let date = httpdate::fmt_http_date(date);
            validators().range(&request(&[
                (header::RANGE, "bytes=0-1"),
                (header::IF_RANGE, &date),
            ]))
        };
        // Last-Modified is sent in whole seconds: the same second matches.
        assert!(with_date(modified()).is_some());
        assert!(with_date(modified() + Duration::from_secs(60)).is_none());
        assert!(with_date(modified() - Duration::from_secs(60)).is_none());
    }
}
