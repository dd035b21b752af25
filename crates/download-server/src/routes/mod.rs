//! The HTTP routes, one module per resource, and what they share.

pub(crate) mod data_packages;
pub(crate) mod files;
pub(crate) mod openapi;
pub(crate) mod products;
pub(crate) mod token;
pub(crate) mod web;
mod web_root;

use axum::body::{Body, Bytes};
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use download_api::{parse_flag, parse_query};
use serde::Serialize;

use crate::error::ApiError;
use crate::state::SharedState;

/// A 200 answer with a JSON body built earlier.
pub(crate) fn json(body: Bytes) -> Response {
    json_with_status(StatusCode::OK, body)
}

/// A 200 answer with `value` as JSON.
pub(crate) fn json_of(value: &impl Serialize) -> Result<Response, ApiError> {
    let body = serde_json::to_vec(value)
        .map_err(|err| ApiError::Internal(format!("cannot write a JSON answer: {err}")))?;
    Ok(json(body.into()))
}

pub(crate) fn json_with_status(status: StatusCode, body: Bytes) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A boolean query parameter as the spec reads it (`?name`, `=true`, `=false`); the
/// last occurrence wins, like every other parameter.
pub(crate) fn flag(query: Option<&str>, name: &str) -> Result<bool, ApiError> {
    let pairs = parse_query(query.unwrap_or_default())?;
    let value = pairs.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v);
    Ok(parse_flag(name, value.map(String::as_str))?)
}

/// The last value of a query parameter.
pub(crate) fn param(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

/// The 405 of the GET routes: JSON, and axum adds the `Allow` header.
pub(crate) async fn get_only(method: Method) -> ApiError {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
        allowed: "GET or HEAD",
    }
}

/// Any other address below the API.
pub(crate) async fn api_not_found(
    State(state): State<SharedState>,
    OriginalUri(uri): OriginalUri,
) -> ApiError {
    ApiError::not_found(
        format!(
            "No endpoint at {}: start from the download catalogue or your data packages.",
            uri.path()
        ),
        state.links.all_links(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values themselves are `parse_flag`'s (download-api); this reads the query.
    #[test]
    fn the_last_occurrence_of_a_flag_wins() {
        assert!(!flag(None, "expanded").unwrap());
        assert!(flag(Some("key=x&expanded=true"), "expanded").unwrap());
        assert!(!flag(Some("expanded&expanded=false"), "expanded").unwrap());
        assert!(flag(Some("expanded=yes&expanded"), "expanded").unwrap());
    }
}
