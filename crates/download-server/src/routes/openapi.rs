//! `GET /downloads/v1/openapi.json`: the service's OpenAPI document (see [`crate::openapi`]).

use axum::Router;
use axum::body::Bytes;
use axum::routing::get;

use super::{SharedState, get_only, json};

/// Serves `document`, serialised once at start-up.
pub(crate) fn router(document: Bytes) -> Router<SharedState> {
    Router::new()
        .route(
            "/openapi.json",
            get(move || std::future::ready(json(document.clone()))),
        )
        .method_not_allowed_fallback(get_only)
}
