//! Outside the API: the web app from `--web-root`, or a pointer page without it.

mod common;

use std::path::PathBuf;

use common::{TestServer, header, read_json};
use reqwest::StatusCode;

/// A built-app directory: index.html, a script and its brotli copy.
fn web_root(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("download-server-web-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>Download Explorer</title>",
    )
    .unwrap();
    std::fs::write(
        dir.join("assets/app-1234.js"),
        "console.log('app');".repeat(50),
    )
    .unwrap();
    dir
}

#[tokio::test]
async fn without_a_web_root_the_root_points_at_the_api() {
    let server = TestServer::start(&[]).await;
    let response = server.get(&format!("{}/", server.origin)).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(header(response.headers(), "content-type").starts_with("text/html"));
    let page = response.text().await.unwrap();
    assert!(
        page.contains(&format!("href=\"{}\"", server.api("/products"))),
        "{page}"
    );

    let (status, body) = read_json(
        server
            .get(&format!("{}/products/OpenRoads", server.origin))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["downloadCatalogueUrl"], server.api("/products"));
}

#[tokio::test]
async fn the_web_app_is_served_with_index_html_for_its_routes() {
    let root = web_root("app");
    let server = TestServer::start(&["--web-root", root.to_str().unwrap()]).await;
    for path in [
        "/",
        "/products/OpenRoads",
        "/packages/0040046952/versions/110012",
    ] {
        let response = server.get(&format!("{}{path}", server.origin)).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert!(header(response.headers(), "content-type").starts_with("text/html"));
        assert_eq!(header(response.headers(), "cache-control"), "no-cache");
        assert!(
            response
                .text()
                .await
                .unwrap()
                .contains("<title>Download Explorer")
        );
    }

    let script = server
        .client
        .get(format!("{}/assets/app-1234.js", server.origin))
        .header("accept-encoding", "br")
        .send()
        .await
        .unwrap();
    assert_eq!(script.status(), StatusCode::OK);
    assert!(header(script.headers(), "content-type").contains("javascript"));
    assert_eq!(header(script.headers(), "content-encoding"), "br");

    // A missing asset is a 404, not the app's page.
    let missing = server
        .get(&format!("{}/assets/app-9999.wasm", server.origin))
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);

    // The API keeps its own addresses.
    let (status, _) = server.json("/products").await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = server.json("/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["message"].is_string());
    std::fs::remove_dir_all(root).unwrap();
}
