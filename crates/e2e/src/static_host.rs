//! A static host as GitHub Pages, Netlify or a bucket behind a CDN are: the built app's
//! files as they are, at the site root or under a sub-path, with no rewrite to
//! `index.html`; any path with no file gets the site's `404.html` with status 404.

use std::path::Path;

use axum::Router;
use axum::http::{StatusCode, header};
use axum::routing::get;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_status::SetStatus;

/// Serves the files of `dir` under `prefix` (`""` for the site root, or a sub-path
/// such as `/explorer`), and `config` as `<prefix>/config.json`: what a deployer
/// writes there to point the app at a service.
pub fn router(dir: &Path, prefix: &str, config: serde_json::Value) -> Router {
    let not_found = || SetStatus::new(ServeFile::new(dir.join("404.html")), StatusCode::NOT_FOUND);
    let files = ServeDir::new(dir).fallback(not_found());
    let config = config.to_string();
    let router = Router::new().route(
        &format!("{prefix}/config.json"),
        get(|| async move { ([(header::CONTENT_TYPE, "application/json")], config) }),
    );
    if prefix.is_empty() {
        router.fallback_service(files)
    } else {
        // Outside the app's sub-path the host has no file either.
        router
            .nest_service(prefix, files)
            .fallback_service(not_found())
    }
}
