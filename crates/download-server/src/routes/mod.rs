//! The HTTP routes, one module per resource, and what they share.

pub(crate) mod data_packages;
pub(crate) mod files;
pub(crate) mod openapi;
pub(crate) mod products;
pub(crate) mod token;
pub(crate) mod web;
mod web_root;

pub use web_root::WebRootHandle;

use axum::body::{Body, Bytes};
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;
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
