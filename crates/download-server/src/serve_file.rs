//! Answers a request for one file: conditional requests (304, 412), one byte range
//! (206, 416), and a streamed body that never holds a disk file in memory.

use std::io::Cursor;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum_range::{KnownSize, RangeBody, Ranged};
use download_api::encode_component;
use headers::{HeaderMapExt, Range};

use crate::error::ApiError;
use crate::file::{FileData, Precondition, ServedFile};
use crate::storage::ObjectFile;

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
    if let FileData::Object(object) = &content.data {
        // The store answers ranges, validators and CORS itself.
        return Ok(redirect(object_location(object).await?));
    }
    let validators = &content.validators;
    let mut headers = HeaderMap::new();
    validators.insert(&mut headers);
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    headers.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    match validators.precondition(request) {
        Precondition::Passed => {}
        Precondition::NotModified => {
            return Ok((StatusCode::NOT_MODIFIED, headers).into_response());
        }
        Precondition::Failed => return Err(ApiError::PreconditionFailed),
    }
    headers.insert(header::CONTENT_TYPE, file.content_type.clone());
    headers.insert(
        header::CONTENT_DISPOSITION,
        content_disposition(disposition, &file.file_name),
    );

    if range_beyond_any_file(request) {
        return Err(ApiError::RangeNotSatisfiable { size: content.size });
    }
    let range = validators.range(request);
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
        // Answered above with a redirect.
        FileData::Object(object) => Ok(redirect(object_location(object).await?)),
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

/// Where a 307 to `file` leads: with object storage, a freshly presigned address on the
/// store; otherwise `local`, the server's own address of the file.
pub(crate) async fn redirect_location(
    file: &ServedFile,
    local: impl FnOnce() -> Result<HeaderValue, ApiError>,
) -> Result<HeaderValue, ApiError> {
    match &file.content.data {
        FileData::Object(object) => object_location(object).await,
        FileData::Static(_) | FileData::Disk(_) => local(),
    }
}

async fn object_location(object: &ObjectFile) -> Result<HeaderValue, ApiError> {
    object
        .presigned_location()
        .await
        .map_err(|err| ApiError::Internal(err.to_string()))
}

/// A 307 to `location`.
fn redirect(location: HeaderValue) -> Response {
    (
        StatusCode::TEMPORARY_REDIRECT,
        [(header::LOCATION, location)],
    )
        .into_response()
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

/// Whether `Range` asks only for bytes from positions past what any file can hold
/// (`bytes=18446744073709551616-`, beyond 64 bits): unsatisfiable, not malformed
/// (which would be ignored).
fn range_beyond_any_file(request: &HeaderMap) -> bool {
    let Some(specs) = request
        .get(header::RANGE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().strip_prefix("bytes="))
    else {
        return false;
    };
    specs.split(',').all(|spec| {
        spec.split_once('-').is_some_and(|(first, _)| {
            let first = first.trim();
            !first.is_empty()
                && first.bytes().all(|b| b.is_ascii_digit())
                && first.parse::<u64>().is_err()
        })
    })
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

    #[test]
    fn ranges_past_64_bits_are_unsatisfiable_and_others_ignored() {
        for (value, beyond) in [
            ("bytes=18446744073709551616-", true),
            ("bytes=99999999999999999999-, 18446744073709551616-5", true),
            ("bytes=0-1, 99999999999999999999-", false),
            ("bytes=18446744073709551615-", false),
            ("bytes=-99999999999999999999", false),
            ("lines=99999999999999999999-", false),
            ("bytes=abc-", false),
        ] {
            let headers = HeaderMap::from_iter([(header::RANGE, HeaderValue::from_static(value))]);
            assert_eq!(range_beyond_any_file(&headers), beyond, "{value}");
        }
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
