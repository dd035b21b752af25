//! Everything outside the API: the built web app (`--web-root`), or without it a short
//! page pointing at the API.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Html;
use axum::routing::get;
use tower_http::compression::CompressionLayer;

use super::web_root::WebRootHandle;
use super::{api_not_found, get_only};
use crate::state::SharedState;

/// The web app of `web_root` (see [`WebRootHandle`]): its files come with their own
/// brotli and gzip copies, so `compression` only applies to the pointer page.
pub(crate) fn router(
    web_root: Option<WebRootHandle>,
    compression: CompressionLayer,
) -> Router<SharedState> {
    let Some(files) = web_root else {
        return Router::new()
            .route("/", get(api_pointer))
            .method_not_allowed_fallback(get_only)
            .fallback(api_not_found)
            .layer(compression);
    };
    // `get` also answers HEAD (the same headers, no body); other methods get the API's
    // 405 body, and axum adds `Allow`.
    let app = get(move |uri: Uri, headers: HeaderMap| {
        std::future::ready(files.respond(uri.path(), &headers))
    })
    .fallback(get_only);
    Router::new().fallback(app)
}

async fn api_pointer(State(state): State<SharedState>) -> Html<String> {
    let api = state.links.api();
    let products = api.products(false);
    let expanded = api.products(true);
    let packages = api.data_packages();
    let token = state.links.token();
    Html(format!(
        r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Download Service</title><link rel="icon" href="data:,"></head>
<body>
<h1>Download Service</h1>
<p>This server speaks the Download Service API. Start with the open products:
<a href="{products}">{products}</a> (all details: <a href="{expanded}">{expanded}</a>).</p>
<p>Data packages need an API key or an access token: <code>{packages}</code>; tokens come from
<code>POST {token}</code>.</p>
<p>Run the server with <code>--web-root DIR</code> (the built web app) to browse all this in Download Explorer.</p>
</body>
</html>
"#
    ))
}
