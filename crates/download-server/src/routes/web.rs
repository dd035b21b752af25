//! Everything outside the API: the built web app (`--web-root`), or without it a short
//! page pointing at the API.

use std::path::{Path, PathBuf};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use super::{SharedState, api_not_found, get_only};
use crate::Error;

pub(crate) fn router(web_root: Option<&Path>) -> Result<Router<SharedState>, Error> {
    let Some(root) = web_root else {
        return Ok(Router::new()
            .route("/", get(api_pointer))
            .method_not_allowed_fallback(get_only)
            .fallback(api_not_found));
    };
    let index = root.join("index.html");
    if !index.is_file() {
        return Err(Error::WebRoot {
            path: root.display().to_string(),
            message: "no index.html in it (build the web app first)".into(),
        });
    }
    let app_routes = get(move |uri: Uri, request: Request| app_page(index.clone(), uri, request));
    let files = ServeDir::new(root)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(app_routes);
    Ok(Router::new()
        .fallback_service(files)
        // Asset names change with every build; the page that names them must be fresh.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        )))
}

/// The app's own routes (`/products/X`, `/packages/…`) get index.html, and the app
/// reads the address. A missing asset (a name with an extension) stays a 404.
async fn app_page(index: PathBuf, uri: Uri, request: Request) -> Response {
    let last = uri.path().rsplit('/').next().unwrap_or_default();
    if last.contains('.') {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    }
    match ServeFile::new(index).oneshot(request).await {
        Ok(response) => response.into_response(),
        Err(never) => match never {},
    }
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
