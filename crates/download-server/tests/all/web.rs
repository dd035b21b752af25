//! Outside the API: the web app from `--web-root`, or a pointer page without it.

use crate::common::{TestServer, header, read_json};
use reqwest::{Method, StatusCode};
use tempfile::TempDir;

const INDEX: &str = "<!doctype html><title>Download Explorer</title>";
const SCRIPT_BR: &[u8] = b"the script, brotli";
const SCRIPT_GZ: &[u8] = b"the script, gzip";
const WASM: &str = "download-explorer-a1d94c14a437f5a8_bg.wasm";

fn script() -> String {
    "console.log('app');".repeat(50)
}

/// A built-app directory: index.html, a script with its brotli and gzip copies (their
/// bytes only need to differ: the server sends them as they are), a hashed wasm file,
/// config.json, a name with a space and a hidden file.
fn web_root() -> TempDir {
    let dir = TempDir::new().unwrap();
    std::fs::create_dir_all(dir.path().join("assets")).unwrap();
    let script = script();
    let files: [(&str, &[u8]); 9] = [
        ("index.html", INDEX.as_bytes()),
        ("index.html.gz", b"index, gzip"),
        ("assets/app-1234.js", script.as_bytes()),
        ("assets/app-1234.js.br", SCRIPT_BR),
        ("assets/app-1234.js.gz", SCRIPT_GZ),
        (WASM, b"\0asm wasm bytes"),
        (
            "config.json",
            br#"{"serviceUrl": "https://api.example.org"}"#,
        ),
        ("notes and more.txt", b"a name with spaces"),
        (".env", b"SECRET=1"),
    ];
    for (path, bytes) in files {
        std::fs::write(dir.path().join(path), bytes).unwrap();
    }
    dir
}

/// A server of a fresh [`web_root`]; the directory is removed with it, even when a
/// test fails.
struct WebApp {
    server: TestServer,
    _root: TempDir,
}

impl WebApp {
    async fn start() -> WebApp {
        let root = web_root();
        let server = TestServer::start(&["--web-root", root.path().to_str().unwrap()]).await;
        WebApp {
            server,
            _root: root,
        }
    }

    /// GET `path` with extra request `headers`.
    async fn get(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut request = self.server.client.get(self.url(path));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.unwrap()
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.origin)
    }
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
    let app = WebApp::start().await;
    for path in [
        "/",
        "/products/OpenRoads",
        "/packages/0040046952/versions/110012",
    ] {
        let response = app.get(path, &[]).await;
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

    let script = app
        .get("/assets/app-1234.js", &[("accept-encoding", "br")])
        .await;
    assert_eq!(script.status(), StatusCode::OK);
    assert!(header(script.headers(), "content-type").contains("javascript"));
    assert_eq!(header(script.headers(), "content-encoding"), "br");

    // A missing asset is a 404, not the app's page.
    let missing = app.get("/assets/app-9999.wasm", &[]).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);

    // The API keeps its own addresses.
    let (status, _) = app.server.json("/products").await;
    assert_eq!(status, StatusCode::OK);
    let body = app.server.not_found("/nothing").await;
    assert!(body["message"].is_string());
}

/// Whether one of the `Vary` headers names `Accept-Encoding` (CORS adds its own).
fn varies_by_encoding(headers: &reqwest::header::HeaderMap) -> bool {
    headers
        .get_all("vary")
        .iter()
        .flat_map(|value| value.to_str().unwrap().split(','))
        .any(|name| name.trim().eq_ignore_ascii_case("accept-encoding"))
}

/// GET `path` with these request headers.
#[tokio::test]
async fn the_precompressed_copy_the_client_accepts_is_sent() {
    let app = WebApp::start().await;
    let script = script();
    let cases: [(Option<&str>, Option<&str>, &[u8]); 6] = [
        (Some("gzip, deflate, br, zstd"), Some("br"), SCRIPT_BR),
        (Some("gzip"), Some("gzip"), SCRIPT_GZ),
        (Some("br;q=0, gzip"), Some("gzip"), SCRIPT_GZ),
        (Some("br;q=0.5, gzip;q=0.9"), Some("gzip"), SCRIPT_GZ),
        (Some("deflate"), None, script.as_bytes()),
        (None, None, script.as_bytes()),
    ];
    for (accept, encoding, body) in cases {
        let headers: Vec<_> = accept.map(|a| ("accept-encoding", a)).into_iter().collect();
        let response = app.get("/assets/app-1234.js", &headers).await;
        assert_eq!(response.status(), StatusCode::OK, "{accept:?}");
        let sent = response.headers().clone();
        assert_eq!(
            sent.get("content-encoding").map(|v| v.to_str().unwrap()),
            encoding,
            "{accept:?}"
        );
        assert!(varies_by_encoding(&sent), "{accept:?}");
        assert!(header(&sent, "content-type").contains("javascript"));
        assert_eq!(header(&sent, "content-length"), body.len().to_string());
        assert_eq!(response.bytes().await.unwrap(), body, "{accept:?}");
    }

    // index.html has a gzip copy only; the app's routes get it too.
    for path in ["/index.html", "/products/OpenRoads"] {
        let response = app.get(path, &[("accept-encoding", "br, gzip")]).await;
        assert_eq!(
            header(response.headers(), "content-encoding"),
            "gzip",
            "{path}"
        );
        assert_eq!(response.bytes().await.unwrap(), &b"index, gzip"[..]);
    }

    // A file without copies goes as it is, and is not compressed on the fly either.
    let response = app
        .get("/config.json", &[("accept-encoding", "br, gzip")])
        .await;
    assert!(response.headers().get("content-encoding").is_none());
    assert!(!varies_by_encoding(response.headers()));
    assert_eq!(
        header(response.headers(), "content-type"),
        "application/json"
    );
    assert!(response.text().await.unwrap().contains("serviceUrl"));
}

#[tokio::test]
async fn conditional_requests_get_304_and_head_gets_the_length_only() {
    let app = WebApp::start().await;
    let first = app.get("/assets/app-1234.js", &[]).await;
    let etag = header(first.headers(), "etag");
    let last_modified = header(first.headers(), "last-modified");
    assert!(etag.starts_with('"') && etag.len() > 2, "{etag}");
    assert!(!last_modified.is_empty());

    // Each encoding is its own representation, with its own tag.
    let brotli = app
        .get("/assets/app-1234.js", &[("accept-encoding", "br")])
        .await;
    let brotli_etag = header(brotli.headers(), "etag");
    assert_ne!(brotli_etag, etag);

    let again = app
        .get("/assets/app-1234.js", &[("if-none-match", &etag)])
        .await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(header(again.headers(), "etag"), etag);
    assert_eq!(header(again.headers(), "cache-control"), "no-cache");
    assert!(again.bytes().await.unwrap().is_empty());
    let listed = format!("\"other\", {brotli_etag}");
    let again = app
        .get(
            "/assets/app-1234.js",
            &[("if-none-match", &listed), ("accept-encoding", "br")],
        )
        .await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    let changed = app
        .get("/assets/app-1234.js", &[("if-none-match", "\"other\"")])
        .await;
    assert_eq!(changed.status(), StatusCode::OK);
    let dated = app
        .get(
            "/assets/app-1234.js",
            &[("if-modified-since", &last_modified)],
        )
        .await;
    assert_eq!(dated.status(), StatusCode::NOT_MODIFIED);
    // The page of an app route is index.html, with index.html's tag.
    let index = app.get("/index.html", &[]).await;
    let index_etag = header(index.headers(), "etag");
    let route = app
        .get("/products/OpenRoads", &[("if-none-match", &index_etag)])
        .await;
    assert_eq!(route.status(), StatusCode::NOT_MODIFIED);

    let head = app
        .server
        .head_like_get(
            &app.url("/assets/app-1234.js"),
            &[("accept-encoding", "gzip")],
            SCRIPT_GZ.len(),
        )
        .await;
    assert_eq!(header(&head, "content-encoding"), "gzip");
}

#[tokio::test]
async fn hashed_assets_are_cached_for_good_and_the_rest_revalidated() {
    let app = WebApp::start().await;
    let wasm = app.get(&format!("/{WASM}"), &[]).await;
    assert_eq!(wasm.status(), StatusCode::OK);
    assert_eq!(header(wasm.headers(), "content-type"), "application/wasm");
    assert_eq!(
        header(wasm.headers(), "cache-control"),
        "public, max-age=31536000, immutable"
    );
    for path in [
        "/",
        "/index.html",
        "/products/OpenRoads",
        "/config.json",
        "/assets/app-1234.js",
    ] {
        let response = app.get(path, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(
            header(response.headers(), "cache-control"),
            "no-cache",
            "{path}"
        );
    }
}

#[tokio::test]
async fn only_the_web_roots_own_files_are_served() {
    let app = WebApp::start().await;
    let spaced = app.get("/notes%20and%20more.txt", &[]).await;
    assert_eq!(spaced.status(), StatusCode::OK);
    assert_eq!(spaced.text().await.unwrap(), "a name with spaces");

    for path in [
        "/missing.css",
        "/assets/app-1234.js.br",
        "/.env",
        "/assets/..%2Fconfig.json",
        "/index.html%00.js",
    ] {
        let response = app.get(path, &[]).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }

    // Only a path of the map, decoded once: this one is an app route (no dot at the
    // end), so it gets the app's page, never a file outside the web root.
    let outside = app.get("/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd", &[]).await;
    assert_eq!(outside.text().await.unwrap(), INDEX);

    for method in [Method::POST, Method::PUT, Method::DELETE] {
        for path in ["/index.html", "/products/OpenRoads"] {
            let response = app
                .server
                .client
                .request(method.clone(), app.url(path))
                .send()
                .await
                .unwrap();
            assert_eq!(response.headers()["allow"], "GET,HEAD");
            let (status, body) = read_json(response).await;
            assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert!(
                body["message"].as_str().unwrap().contains(method.as_str()),
                "{body}"
            );
        }
    }
}

/// The policy a release build writes into index.html comes back as a header on every
/// answer of the web root, with what only a header can say (`frame-ancestors`), and the
/// browser is told to send no referrer and to trust the content types.
#[tokio::test]
async fn every_web_root_answer_carries_the_apps_security_headers() {
    let root = TempDir::new().unwrap();
    let policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-abc='";
    let index = format!(
        "<!doctype html><head><meta charset=\"utf-8\" />\n    \
         <meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\" /></head>"
    );
    std::fs::write(root.path().join("index.html"), index).unwrap();
    std::fs::write(root.path().join("app-1234.js"), "go()").unwrap();
    let server = TestServer::start(&["--web-root", root.path().to_str().unwrap()]).await;
    for path in ["/", "/products/OpenRoads", "/app-1234.js", "/missing.js"] {
        let answer = server
            .client
            .get(format!("{}{path}", server.origin))
            .send()
            .await
            .unwrap();
        assert_eq!(
            header(answer.headers(), "content-security-policy"),
            format!("{policy}; frame-ancestors 'none'"),
            "{path}"
        );
        assert_eq!(
            header(answer.headers(), "referrer-policy"),
            "no-referrer",
            "{path}"
        );
        assert_eq!(
            header(answer.headers(), "x-content-type-options"),
            "nosniff",
            "{path}"
        );
    }
    // The API keeps its own headers: the policy is the web app's.
    let api = server
        .client
        .get(format!("{}/downloads/v1/products", server.origin))
        .send()
        .await
        .unwrap();
    assert!(api.headers().get("content-security-policy").is_none());
}

/// `kill -HUP` serves the web root as it is now, whole: a new build's page and a file
/// it added (`cargo xtask run` adds the Welsh build and the workers so); a directory
/// that no longer loads leaves the last build serving.
#[cfg(unix)]
#[tokio::test]
async fn a_hangup_serves_the_web_root_as_it_is_now() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};

    let root = web_root();
    let mut command = Command::new(crate::common::BINARY);
    command.env("RUST_LOG", "info").stderr(Stdio::piped());
    let (mut server, origin) =
        crate::common::start_binary(command, &["--web-root", root.path().to_str().unwrap()]);
    let mut log = BufReader::new(server.stderr.take().unwrap()).lines();
    // Each reload logs a line once it is done (or has failed): wait for it.
    let mut hang_up_and_read_log = |expected: &str| {
        let status = Command::new("kill")
            .args(["-HUP", &server.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        log.by_ref()
            .map(Result::unwrap)
            .find(|line| line.contains(expected))
            .unwrap_or_else(|| panic!("the server's log ended before {expected:?}"))
    };
    let client = reqwest::Client::new();
    let get = |path: &str| client.get(format!("{origin}{path}")).send();
    assert_eq!(get("/").await.unwrap().text().await.unwrap(), INDEX);
    assert_eq!(
        get("/cy/app.js").await.unwrap().status(),
        StatusCode::NOT_FOUND
    );

    let built = "<!doctype html><title>Download Explorer, rebuilt</title>";
    std::fs::write(root.path().join("index.html"), built).unwrap();
    std::fs::remove_file(root.path().join("index.html.gz")).unwrap();
    std::fs::create_dir(root.path().join("cy")).unwrap();
    std::fs::write(root.path().join("cy/app.js"), "console.log('Welsh');").unwrap();
    hang_up_and_read_log("files)");
    assert_eq!(get("/").await.unwrap().text().await.unwrap(), built);
    assert_eq!(
        get("/products/OpenRoads")
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
        built
    );
    let welsh = get("/cy/app.js").await.unwrap();
    assert_eq!(welsh.status(), StatusCode::OK);
    assert_eq!(welsh.text().await.unwrap(), "console.log('Welsh');");

    std::fs::remove_file(root.path().join("index.html")).unwrap();
    let warning = hang_up_and_read_log("did not load");
    assert!(warning.contains("no index.html"), "{warning}");
    assert_eq!(get("/").await.unwrap().text().await.unwrap(), built);
    server.kill().unwrap();
    server.wait().unwrap();
}
