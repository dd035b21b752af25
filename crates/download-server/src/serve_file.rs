//! Answers a request for one file: conditional requests (304), one byte range (206,
//! 416), and a streamed body that never holds a disk file in memory.

use std::io::Cursor;
use std::time::SystemTime;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum_range::{KnownSize, RangeBody, Ranged};
use download_api::encode_component;
use headers::{Header, HeaderMapExt, Range};

use crate::catalogue::{FileData, ServedFile};
use crate::error::ApiError;

/// How the browser should present a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Disposition {
    /// Data files: save them.
    Attachment,
    /// Images: show them.
    Inline,
}

/// The response to a GET or HEAD of `file`.
pub(crate) async fn respond(
    file: &ServedFile,
    request: &HeaderMap,
    disposition: Disposition,
    cache_control: &'static str,
) -> Result<Response, ApiError> {
    let content = &file.content;
    let mut headers = HeaderMap::new();
    headers.insert(header::ETAG, content.etag.clone());
    headers.insert(header::LAST_MODIFIED, http_date(content.last_modified));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    headers.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if not_modified(request, &content.etag, content.last_modified) {
        return Ok((StatusCode::NOT_MODIFIED, headers).into_response());
    }
    headers.insert(header::CONTENT_TYPE, file.content_type.clone());
    headers.insert(
        header::CONTENT_DISPOSITION,
        content_disposition(disposition, &file.file_name),
    );

    let range = requested_range(request, &content.etag, content.last_modified);
    if content.size == 0 {
        // Nothing to slice; a range of an empty file is never satisfiable.
        return if range.is_some() {
            Err(ApiError::RangeNotSatisfiable { size: 0 })
        } else {
            Ok((headers, Body::empty()).into_response())
        };
    }
    match &content.data {
        FileData::Static(bytes) => {
            // Embedded bytes: the range arithmetic from axum-range, the body a zero-copy
            // slice of the binary's own data.
            let body = KnownSize::sized(Cursor::new(*bytes), content.size);
            let ranged = try_range(range, body, content.size)?;
            let (start, end) = ranged
                .content_range
                .as_ref()
                .and_then(|r| r.bytes_range())
                .map(|(start, end)| (start as usize, end as usize + 1))
                .unwrap_or((0, bytes.len()));
            let status = if ranged.content_range.is_some() {
                StatusCode::PARTIAL_CONTENT
            } else {
                StatusCode::OK
            };
            if let Some(content_range) = ranged.content_range {
                headers.typed_insert(content_range);
            }
            let body = Bytes::from_static(bytes.get(start..end).unwrap_or_default());
            Ok((status, headers, body).into_response())
        }
        FileData::Disk(path) => {
            let opened = tokio::fs::File::open(path).await;
            let file = opened.map_err(|err| {
                ApiError::Internal(format!("{} cannot be opened: {err}", path.display()))
            })?;
            let length = file.metadata().await.map(|m| m.len()).unwrap_or(u64::MAX);
            if length != content.size {
                // Serving other bytes than the listed size and MD5 would break every
                // client's checksum: refuse until the catalogue is reloaded.
                return Err(ApiError::Internal(format!(
                    "{} changed on disk since the catalogue was loaded: restart the server",
                    path.display()
                )));
            }
            let ranged = try_range(range, KnownSize::sized(file, content.size), content.size)?;
            Ok((headers, ranged).into_response())
        }
    }
}

fn try_range<B: RangeBody + Send + 'static>(
    range: Option<Range>,
    body: B,
    size: u64,
) -> Result<axum_range::RangedResponse<B>, ApiError> {
    Ranged::new(range, body)
        .try_respond()
        .map_err(|_| ApiError::RangeNotSatisfiable { size })
}

/// `Last-Modified` for `time`.
pub(crate) fn http_date(time: SystemTime) -> HeaderValue {
    HeaderValue::try_from(httpdate::fmt_http_date(time))
        .unwrap_or_else(|_| HeaderValue::from_static("Thu, 01 Jan 1970 00:00:00 GMT"))
}

/// Dates on the wire have whole seconds.
fn whole_seconds(time: SystemTime) -> SystemTime {
    httpdate::parse_http_date(&httpdate::fmt_http_date(time)).unwrap_or(time)
}

/// RFC 9110 §13.1.2 and §13.1.3: `If-None-Match` (weak comparison) decides when
/// present, otherwise `If-Modified-Since`.
pub(crate) fn not_modified(request: &HeaderMap, etag: &HeaderValue, modified: SystemTime) -> bool {
    if let Some(value) = request.get(header::IF_NONE_MATCH) {
        let Ok(value) = value.to_str() else {
            return false;
        };
        let ours = opaque_tag(etag.to_str().unwrap_or_default());
        return value
            .split(',')
            .map(str::trim)
            .any(|tag| tag == "*" || opaque_tag(tag) == ours);
    }
    let since = request
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| httpdate::parse_http_date(v).ok());
    since.is_some_and(|since| whole_seconds(modified) <= since)
}

/// The quoted part of an entity tag, without any weak prefix.
fn opaque_tag(tag: &str) -> &str {
    tag.strip_prefix("W/").unwrap_or(tag)
}

/// The `Range` to honour: none when absent or malformed, or when `If-Range` names
/// another version of the file (then the whole file is sent).
fn requested_range(request: &HeaderMap, etag: &HeaderValue, modified: SystemTime) -> Option<Range> {
    let range = Range::decode(&mut request.get_all(header::RANGE).iter()).ok()?;
    if let Some(if_range) = request.get(header::IF_RANGE) {
        let if_range = if_range.to_str().ok()?;
        let current = if if_range.starts_with('"') {
            // Strong comparison: a weak tag never matches.
            if_range == etag.to_str().unwrap_or_default()
        } else {
            httpdate::parse_http_date(if_range).is_ok_and(|date| date == whole_seconds(modified))
        };
        if !current {
            return None;
        }
    }
    Some(range)
}

/// RFC 6266: the plain name when it is safe ASCII, else an ASCII stand-in plus the
/// exact UTF-8 name in `filename*` (RFC 8187).
fn content_disposition(disposition: Disposition, file_name: &str) -> HeaderValue {
    let kind = match disposition {
        Disposition::Attachment => "attachment",
        Disposition::Inline => "inline",
    };
    let plain = file_name
        .chars()
        .all(|c| c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ');
    let value = if plain {
        format!("{kind}; filename=\"{file_name}\"")
    } else {
        let fallback: String = file_name
            .chars()
            .map(|c| {
                if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!(
            "{kind}; filename=\"{fallback}\"; filename*=UTF-8''{}",
            encode_component(file_name)
        )
    };
    HeaderValue::try_from(value).unwrap_or_else(|_| HeaderValue::from_static("attachment"))
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

    #[test]
    fn if_none_match_compares_tags_weakly_and_wins_over_dates() {
        let etag = HeaderValue::from_static(ETAG);
        let cases = [
            (ETAG, true),
            ("W/\"0123abcd\"", true),
            ("\"other\", \"0123abcd\"", true),
            ("*", true),
            ("\"other\"", false),
        ];
        for (value, expected) in cases {
            let headers = request(&[(header::IF_NONE_MATCH, value)]);
            assert_eq!(
                not_modified(&headers, &etag, modified()),
                expected,
                "{value}"
            );
        }
        let both = request(&[
            (header::IF_NONE_MATCH, "\"other\""),
            (header::IF_MODIFIED_SINCE, "Wed, 01 Jan 2100 00:00:00 GMT"),
        ]);
        assert!(!not_modified(&both, &etag, modified()));
    }

    #[test]
    fn if_modified_since_uses_whole_seconds() {
        let etag = HeaderValue::from_static(ETAG);
        let same_second = httpdate::fmt_http_date(modified());
        let headers = request(&[(header::IF_MODIFIED_SINCE, &same_second)]);
        assert!(not_modified(&headers, &etag, modified()));
        let earlier = httpdate::fmt_http_date(modified() - Duration::from_secs(5));
        let headers = request(&[(header::IF_MODIFIED_SINCE, &earlier)]);
        assert!(!not_modified(&headers, &etag, modified()));
    }

    #[test]
    fn if_range_with_another_version_drops_the_range() {
        let etag = HeaderValue::from_static(ETAG);
        let range = request(&[(header::RANGE, "bytes=0-1")]);
        assert!(requested_range(&range, &etag, modified()).is_some());
        let current = request(&[(header::RANGE, "bytes=0-1"), (header::IF_RANGE, ETAG)]);
        assert!(requested_range(&current, &etag, modified()).is_some());
        let stale = request(&[(header::RANGE, "bytes=0-1"), (header::IF_RANGE, "\"old\"")]);
        assert!(requested_range(&stale, &etag, modified()).is_none());
        let weak = request(&[
            (header::RANGE, "bytes=0-1"),
            (header::IF_RANGE, "W/\"0123abcd\""),
        ]);
        assert!(requested_range(&weak, &etag, modified()).is_none());
        let garbage = request(&[(header::RANGE, "lines=1-2")]);
        assert!(requested_range(&garbage, &etag, modified()).is_none());
    }

    #[test]
    fn content_disposition_keeps_plain_names_and_encodes_others() {
        assert_eq!(
            content_disposition(Disposition::Attachment, "opgrsp_gml3_ss.zip"),
            "attachment; filename=\"opgrsp_gml3_ss.zip\""
        );
        assert_eq!(
            content_disposition(Disposition::Inline, "a b.jpg"),
            "inline; filename=\"a b.jpg\""
        );
        assert_eq!(
            content_disposition(Disposition::Attachment, "straße \"x\".csv"),
            "attachment; filename=\"stra_e _x_.csv\"; filename*=UTF-8''stra%C3%9Fe%20%22x%22.csv"
        );
    }
}
