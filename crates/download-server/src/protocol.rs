//! Checks of a request's framing that hyper leaves to the application, so that these
//! answers carry the JSON error body too (hyper's own refusals have none).

use axum::extract::Request;
use axum::http::uri::Authority;
use axum::http::{Version, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Header fields read in one request; more is a 431.
pub(crate) const MAX_HEADER_FIELDS: usize = 100;
/// hyper's limit, above ours so that ours answers; beyond it hyper refuses the request
/// with an empty 431.
pub(crate) const HYPER_MAX_HEADER_FIELDS: usize = 4 * MAX_HEADER_FIELDS;
/// The longest request target (path and query) read, in bytes; longer is a 414. Past
/// 64 KiB the `http` crate cannot hold a URI and hyper answers an empty 414 itself.
pub(crate) const MAX_TARGET: usize = 8 * 1024;

/// Answers a request that breaks these rules, passes the others on.
pub(crate) async fn check(request: Request, next: Next) -> Response {
    match framing(&request) {
        Ok(()) => next.run(request).await,
        Err(error) => error.into_response(),
    }
}

fn framing(request: &Request) -> Result<(), ApiError> {
    let uri = request.uri();
    let target = uri.path().len() + uri.query().map_or(0, |query| query.len() + 1);
    if target > MAX_TARGET {
        return Err(ApiError::UriTooLong {
            length: target,
            limit: MAX_TARGET,
        });
    }
    let headers = request.headers();
    if headers.len() > MAX_HEADER_FIELDS {
        return Err(ApiError::TooManyHeaderFields {
            count: headers.len(),
            limit: MAX_HEADER_FIELDS,
        });
    }
    // RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host, any request at most
    // one, and its value must be a host (empty when the target has none).
    let mut hosts = headers.get_all(header::HOST).iter();
    let host = hosts.next();
    let bad_host = |why: &str| ApiError::BadRequest(format!("{why} (RFC 9112 §3.2)."));
    if hosts.next().is_some() {
        return Err(bad_host("A request may carry only one Host header field"));
    }
    match host {
        None if request.version() >= Version::HTTP_11 => {
            Err(bad_host("An HTTP/1.1 request needs a Host header field"))
        }
        Some(host) if !host.is_empty() && Authority::try_from(host.as_bytes()).is_err() => Err(
            bad_host("The Host header field is not a host name or address"),
        ),
        _ => Ok(()),
    }
}
