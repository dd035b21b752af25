//! `GET /downloads/v1/openapi.json`: the service's OpenAPI document (see [`crate::openapi`]).

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::routing::get;

use super::get_only;
use crate::cached_json::CachedJson;
use crate::negotiate::AcceptEncoding;
use crate::state::SharedState;

/// Serves `document`, serialised once at start-up.
pub(crate) fn router(document: Bytes) -> Router<SharedState> {
    let document = Arc::new(CachedJson::new(document));
    Router::new()
        .route(
            "/openapi.json",
            get(move |accept: AcceptEncoding| async move { document.respond(&accept).await }),
        )
        .method_not_allowed_fallback(get_only)
}
