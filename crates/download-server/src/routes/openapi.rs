//! `GET /downloads/v1/openapi.json`: the service's OpenAPI document (see [`crate::openapi`]).

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::routing::get;

use super::negotiate::AcceptEncoding;
use super::{SharedState, get_only};
use crate::prebuilt::PrebuiltJson;

/// Serves `document`, serialised once at start-up.
pub(crate) fn router(document: Bytes) -> Router<SharedState> {
    let document = Arc::new(PrebuiltJson::new(document));
    Router::new()
        .route(
            "/openapi.json",
            get(move |accept: AcceptEncoding| async move { document.respond(&accept).await }),
        )
        .method_not_allowed_fallback(get_only)
}
