//! Catalogues in object storage, on real engines (`engines.rs`): `publish` uploads a
//! catalogue, servers started with `--storage` answer as from a directory, and every
//! file they redirect to comes from the store through a presigned address.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use md5::{Digest, Md5};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use tempfile::TempDir;

use crate::common::{self, BINARY, SIGNING_KEY, client, header, read_json};
use crate::engines::{Azurite, Engine, Garage};

/// The demo catalogue's first project (crates/download-server/demo/README.md).
const ALPHA_KEY: &str = "alpha-demo-key";
const ALPHA_SECRET: &str = "alpha-demo-secret";

fn demo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("demo")
}

/// `download-server publish DIR --storage URL` against `engine`.
fn publish(engine: &dyn Engine, dir: &Path, prefix: &str) -> Output {
    Command::new(BINARY)
        .arg("publish")
        .arg(dir)
        .args(["--storage", &engine.storage_url(prefix), "--jobs", "16"])
        .envs(engine.env())
        .output()
        .unwrap()
}

/// [`publish`], which must succeed; its report line.
fn published(engine: &dyn Engine, dir: &Path, prefix: &str) -> String {
    let output = publish(engine, dir, prefix);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "publish failed: {stdout}\n{stderr}"
    );
    stdout
}

/// A server binary, killed when dropped.
struct Running {
    child: Child,
    origin: String,
}

impl Running {
    fn api(&self, path: &str) -> String {
        format!("{}/downloads/v1{path}", self.origin)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server binary on `engine`'s catalogue under `prefix`, with `args`.
fn serve(engine: &dyn Engine, prefix: &str, args: &[&str]) -> Running {
    let mut command = Command::new(BINARY);
    command.envs(engine.env());
    let storage = engine.storage_url(prefix);
    let mut all = vec!["--storage", &storage, "--signing-key", SIGNING_KEY];
    all.extend_from_slice(args);
    let (child, origin) = common::start_binary(command, &all);
    assert!(origin.starts_with("http://"), "the server did not start");
    Running { child, origin }
}

/// The server binary on a catalogue directory.
fn serve_directory(dir: &Path) -> Running {
    let (child, origin) = common::start_binary(
        Command::new(BINARY),
        &[
            "--catalogue",
            dir.to_str().unwrap(),
            "--signing-key",
            SIGNING_KEY,
        ],
    );
    Running { child, origin }
}

async fn get_json(client: &Client, url: &str) -> Value {
    let (status, body) = read_json(client.get(url).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{url}: {body}");
    body
}

async fn get_json_with_key(client: &Client, url: &str) -> Value {
    let response = client
        .get(url)
        .header("key", ALPHA_KEY)
        .send()
        .await
        .unwrap();
    let (status, body) = read_json(response).await;
    assert_eq!(status, StatusCode::OK, "{url}: {body}");
    body
}

/// Follows one 307 from `url` (which must lead to the store) and checks that the file
/// there has `size` bytes with `md5`.
async fn check_redirect(client: &Client, engine: &dyn Engine, url: &str, size: u64, md5: &str) {
    let response = client.get(url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::TEMPORARY_REDIRECT, "{url}");
    let location = header(response.headers(), "location");
    assert!(
        location.starts_with(&engine.origin()),
        "{url} redirects to {location}, not to the store"
    );
    let file = client.get(&location).send().await.unwrap();
    assert_eq!(file.status(), StatusCode::OK, "{location}");
    let bytes = file.bytes().await.unwrap();
    assert_eq!(bytes.len() as u64, size, "{url}");
    assert_eq!(format!("{:x}", Md5::digest(&bytes)), md5, "{url}");
}

/// The JSON of `path` from `server`, its origin written `ORIGIN` so that two servers'
/// answers compare.
async fn normalised(client: &Client, server: &Running, path: &str) -> String {
    let body = get_json(client, &server.api(path)).await.to_string();
    body.replace(&server.origin, "ORIGIN")
}

/// The demo catalogue published to `engine`: a server on it answers the probes as a
/// server on the directory does, and every redirect leads to the listed bytes on the
/// store.
async fn demo_on(engine: &dyn Engine) {
    let first = published(engine, &demo(), "demo");
    assert!(first.contains("already there"), "{first}");
    // Published again: every file is already there.
    let again = published(engine, &demo(), "demo");
    assert!(again.contains(": 0 files uploaded (0 bytes)"), "{again}");

    let store = serve(engine, "demo", &[]);
    let directory = serve_directory(&demo());
    let client = client();
    for path in [
        "/products",
        "/products?expanded",
        "/products/OpenRoads",
        "/products/OpenRoads/downloads",
        "/products/OpenGreenspace/downloads?format=ESRI%C2%AE+Shapefile",
    ] {
        assert_eq!(
            normalised(&client, &store, path).await,
            normalised(&client, &directory, path).await,
            "{path}"
        );
    }
    let packages = get_json_with_key(&client, &store.api("/dataPackages")).await;
    let same = get_json_with_key(&client, &directory.api("/dataPackages")).await;
    assert_eq!(
        packages.to_string().replace(&store.origin, "ORIGIN"),
        same.to_string().replace(&directory.origin, "ORIGIN")
    );

    // Every product file, through the API's redirect.
    let products = get_json(&client, &store.api("/products?expanded")).await;
    for product in products.as_array().unwrap() {
        let id = product["id"].as_str().unwrap();
        let downloads = get_json(&client, &store.api(&format!("/products/{id}/downloads"))).await;
        for download in downloads.as_array().unwrap() {
            let url = download["url"].as_str().unwrap();
            let size = download["size"].as_u64().unwrap();
            let md5 = download["md5"].as_str().unwrap();
            check_redirect(&client, engine, url, size, md5).await;
        }
        // Its first image, shown inline from the store.
        let image = client
            .get(store.api(&format!("/products/{id}/images/0")))
            .send()
            .await
            .unwrap();
        if image.status() == StatusCode::TEMPORARY_REDIRECT {
            let location = header(image.headers(), "location");
            assert!(location.starts_with(&engine.origin()), "{location}");
            let shown = client.get(&location).send().await.unwrap();
            assert_eq!(shown.status(), StatusCode::OK);
            assert!(header(shown.headers(), "content-type").starts_with("image/"));
        }
    }

    // Every data package file, through the signed links a version lists, which
    // answer with a fresh presigned address.
    for package in packages.as_array().unwrap() {
        let id = package["id"].as_str().unwrap();
        let versions =
            get_json_with_key(&client, &store.api(&format!("/dataPackages/{id}/versions"))).await;
        for version in versions.as_array().unwrap() {
            let version_url = version["url"].as_str().unwrap();
            let version = get_json_with_key(&client, version_url).await;
            for file in version["downloads"].as_array().unwrap() {
                let url = file["url"].as_str().unwrap();
                assert!(
                    url.starts_with(&store.origin),
                    "{url} is the server's own link"
                );
                let size = file["size"].as_u64().unwrap();
                let md5 = file["md5"].as_str().unwrap();
                check_redirect(&client, engine, url, size, md5).await;
            }
        }
    }

    // Ranges and validators come from the store.
    let download = get_json(&client, &store.api("/products/OpenRoads/downloads")).await;
    let url = download[0]["url"].as_str().unwrap();
    let response = client.get(url).send().await.unwrap();
    let location = header(response.headers(), "location");
    let part = client
        .get(&location)
        .header("range", "bytes=0-9")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.bytes().await.unwrap().len(), 10);
}

#[tokio::test]
async fn garage_serves_a_published_catalogue_like_a_directory() {
    let garage = Garage::start().await;
    demo_on(&garage).await;
}

#[tokio::test]
async fn azurite_serves_a_published_catalogue_like_a_directory() {
    let azurite = Azurite::start().await;
    demo_on(&azurite).await;
}

#[tokio::test]
async fn presigned_addresses_expire_at_garage() {
    expiry_on(&Garage::start().await).await;
}

#[tokio::test]
async fn presigned_addresses_expire_at_azurite() {
    expiry_on(&Azurite::start().await).await;
}

/// A presigned address works for `--presign-lifetime`, then the store refuses it.
async fn expiry_on(engine: &dyn Engine) {
    let dir = one_file_catalogue(b"PK expiring");
    published(engine, dir.path(), "expiry");
    let server = serve(engine, "expiry", &["--presign-lifetime", "3"]);
    let client = client();
    let downloads = get_json(&client, &server.api("/products/Big/downloads")).await;
    let url = downloads[0]["url"].as_str().unwrap();
    let response = client.get(url).send().await.unwrap();
    let location = header(response.headers(), "location");
    assert_eq!(
        client.get(&location).send().await.unwrap().status(),
        StatusCode::OK
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let response = client.get(&location).send().await.unwrap();
        let status = response.status();
        if status != StatusCode::OK {
            // The same address worked a moment ago: only its expiry can refuse it now.
            // S3 answers 403 ("Request has expired"), Garage 400 ("Date is too old"),
            // Azurite 403 (AuthorizationFailure).
            let body = response.text().await.unwrap();
            assert!(
                [StatusCode::BAD_REQUEST, StatusCode::FORBIDDEN].contains(&status),
                "{status}: {body}"
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the store still serves {location}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The API hands out a fresh one.
    let again = client.get(url).send().await.unwrap();
    let fresh = header(again.headers(), "location");
    assert_eq!(
        client.get(&fresh).send().await.unwrap().status(),
        StatusCode::OK
    );
}

/// A catalogue directory with one product whose only download is `files/big.bin`.
fn one_file_catalogue(bytes: &[u8]) -> TempDir {
    let dir = TempDir::new().unwrap();
    std::fs::create_dir_all(dir.path().join("files")).unwrap();
    std::fs::write(dir.path().join("files/big.bin"), bytes).unwrap();
    std::fs::write(
        dir.path().join("catalogue.json"),
        r#"{"products": [{"id": "Big", "name": "Big", "description": "d", "version": "1",
            "downloads": [{"area": "GB", "format": "Binary", "path": "files/big.bin"}]}]}"#,
    )
    .unwrap();
    dir
}

/// Large files go up in parts, a changed file is sent again, an unchanged one is not,
/// and a catalogue naming a missing file publishes nothing.
#[tokio::test]
async fn publish_sends_large_files_in_parts_only_when_changed_and_checks_first() {
    let garage = Garage::start().await;
    // 20 MiB: three parts.
    let mut bytes: Vec<u8> = (0..20 << 20).map(|i: u32| (i % 251) as u8).collect();
    let dir = one_file_catalogue(&bytes);
    let report = published(&garage, dir.path(), "big");
    assert!(
        report.contains(": 1 files uploaded (20971520 bytes), 0 already there"),
        "{report}"
    );
    let server = serve(&garage, "big", &[]);
    let client = client();
    let listed = get_json(&client, &server.api("/products/Big/downloads")).await;
    let md5 = format!("{:x}", Md5::digest(&bytes));
    assert_eq!(listed[0]["md5"], md5.as_str());
    let url = listed[0]["url"].as_str().unwrap();
    check_redirect(&client, &garage, url, bytes.len() as u64, &md5).await;

    let again = published(&garage, dir.path(), "big");
    assert!(
        again.contains(": 0 files uploaded (0 bytes), 1 already there"),
        "{again}"
    );
    bytes[12345] ^= 0xff;
    std::fs::write(dir.path().join("files/big.bin"), &bytes).unwrap();
    let changed = published(&garage, dir.path(), "big");
    assert!(
        changed.contains(": 1 files uploaded (20971520 bytes)"),
        "{changed}"
    );

    // A missing file stops the publish before anything is written.
    std::fs::remove_file(dir.path().join("files/big.bin")).unwrap();
    let output = publish(&garage, dir.path(), "broken");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("files/big.bin: No such file"), "{stderr}");
    // So there is no catalogue there for a server to start with.
    let (mut child, origin) = {
        let mut command = Command::new(BINARY);
        command
            .envs(garage.env())
            .stderr(std::process::Stdio::piped());
        common::start_binary(command, &["--storage", &garage.storage_url("broken")])
    };
    assert_eq!(origin, "", "a server started without a catalogue");
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    let _ = child.wait();
    assert!(stderr.contains("catalogue.json"), "{stderr}");
    assert!(stderr.contains("not found"), "{stderr}");
}

/// The web app's "Download to a folder" fetches files from the store across origins:
/// with the rule of docs/server.md, the store lets any page read them and their
/// headers.
#[tokio::test]
async fn the_documented_cors_rule_lets_pages_fetch_from_the_store() {
    let garage = Garage::start().await;
    garage.allow_documented_cors();
    published(&garage, &demo(), "cors");
    let server = serve(&garage, "cors", &[]);
    let client = client();
    let downloads = get_json(&client, &server.api("/products/OpenRoads/downloads")).await;
    let url = downloads[0]["url"].as_str().unwrap();
    let response = client.get(url).send().await.unwrap();
    let location = header(response.headers(), "location");
    let preflight = client
        .request(reqwest::Method::OPTIONS, &location)
        .header("origin", "http://app.example")
        .header("access-control-request-method", "GET")
        .header("access-control-request-headers", "range")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(
        header(preflight.headers(), "access-control-allow-origin"),
        "*"
    );
    let file = client
        .get(&location)
        .header("origin", "http://app.example")
        .send()
        .await
        .unwrap();
    assert_eq!(header(file.headers(), "access-control-allow-origin"), "*");
    let exposed = header(file.headers(), "access-control-expose-headers").to_ascii_lowercase();
    for name in ["etag", "content-length", "content-range"] {
        assert!(exposed.contains(name), "{exposed}");
    }
}

/// A catalogue with one product at `version`, and the demo's project Alpha with one
/// data package.
fn versioned_catalogue(dir: &Path, version: &str) {
    std::fs::create_dir_all(dir.join("files")).unwrap();
    std::fs::write(dir.join("files/a.zip"), format!("PK {version}")).unwrap();
    let demo: Value =
        serde_json::from_str(&std::fs::read_to_string(demo().join("catalogue.json")).unwrap())
            .unwrap();
    let alpha = &demo["projects"][0];
    let catalogue = serde_json::json!({
        "products": [{
            "id": "P", "name": "P", "description": "d", "version": version,
            "downloads": [{"area": "GB", "format": "CSV", "path": "files/a.zip"}]
        }],
        "projects": [{
            "name": "Alpha",
            "keySha256": alpha["keySha256"],
            "secretSha256": alpha["secretSha256"],
            "dataPackages": [{
                "id": "1", "name": "One", "createdOn": "2026-01-01", "productId": "P",
                "productName": "P",
                "versions": [{
                    "id": "1", "createdOn": "2026-01-01", "reason": "INITIAL",
                    "supplyType": "FULL", "productVersion": version, "productFormat": "CSV",
                    "files": ["files/a.zip"]
                }]
            }]
        }]
    });
    std::fs::write(dir.join("catalogue.json"), catalogue.to_string()).unwrap();
}

/// `wrk` on `url` for `seconds`, bounded to a few connections; its report.
fn wrk(url: &str, seconds: u64) -> std::thread::JoinHandle<String> {
    let url = url.to_owned();
    std::thread::spawn(move || {
        let output = Command::new("wrk")
            .args(["-t1", "-c4", &format!("-d{seconds}s"), &url])
            .output()
            .expect("wrk runs (cargo xtask test installs it)");
        assert!(output.status.success());
        String::from_utf8_lossy(&output.stdout).into_owned()
    })
}

/// The product version each server answers.
async fn versions(client: &Client, servers: &[&Running]) -> Vec<String> {
    let mut found = Vec::new();
    for server in servers {
        let product = get_json(client, &server.api("/products/P")).await;
        found.push(product["version"].as_str().unwrap().to_owned());
    }
    found
}

/// Two servers with the same key on one store answer as one: a token from either
/// works on both, and a catalogue published while both are under load is served by
/// both within the poll interval, with no failed request.
#[tokio::test]
async fn two_servers_on_one_store_share_tokens_and_pick_up_a_new_catalogue() {
    let garage = Garage::start().await;
    let dir = TempDir::new().unwrap();
    versioned_catalogue(dir.path(), "v1");
    published(&garage, dir.path(), "shared");
    let poll = ["--catalogue-poll", "1"];
    let (a, b) = (
        serve(&garage, "shared", &poll),
        serve(&garage, "shared", &poll),
    );
    let client = client();

    let token_from_a = {
        let response = client
            .post(format!("{}/oauth2/token/v1", a.origin))
            .basic_auth(ALPHA_KEY, Some(ALPHA_SECRET))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("grant_type=client_credentials")
            .send()
            .await
            .unwrap();
        let (status, body) = read_json(response).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["access_token"].as_str().unwrap().to_owned()
    };
    let on_b = client
        .get(b.api("/dataPackages/1/versions/1"))
        .bearer_auth(&token_from_a)
        .send()
        .await
        .unwrap();
    let (status, version) = read_json(on_b).await;
    assert_eq!(status, StatusCode::OK, "{version}");
    // A link B listed works on A.
    let link = version["downloads"][0]["url"].as_str().unwrap();
    let link_on_a = link.replace(&b.origin, &a.origin);
    let response = client.get(&link_on_a).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::TEMPORARY_REDIRECT);

    assert_eq!(versions(&client, &[&a, &b]).await, ["v1", "v1"]);
    let load = [
        wrk(&a.api("/products/P/downloads?format=CSV&redirect"), 6),
        wrk(&b.api("/products/P"), 6),
    ];
    versioned_catalogue(dir.path(), "v2");
    published(&garage, dir.path(), "shared");
    let published_at = Instant::now();
    while versions(&client, &[&a, &b]).await != ["v2", "v2"] {
        // One poll interval, and time to load the catalogue, on a busy machine.
        assert!(
            published_at.elapsed() < Duration::from_secs(5),
            "not both on v2 yet: {:?}",
            versions(&client, &[&a, &b]).await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for report in load {
        let report = report.join().unwrap();
        assert!(report.contains("requests in"), "{report}");
        assert!(!report.contains("Non-2xx or 3xx"), "{report}");
        assert!(!report.contains("Socket errors"), "{report}");
    }
    // The new file, through the new catalogue's redirect.
    let listed = get_json(&client, &b.api("/products/P/downloads")).await;
    let md5 = format!("{:x}", Md5::digest(b"PK v2"));
    assert_eq!(listed[0]["md5"], md5.as_str());
    let url = listed[0]["url"].as_str().unwrap();
    check_redirect(&client, &garage, url, 5, &md5).await;
}

/// A `catalogue.json` written to the store by other means than `publish`, and broken:
/// the server says so in its log and keeps serving the last good catalogue.
#[tokio::test]
async fn a_broken_catalogue_in_the_store_leaves_the_last_good_one_serving() {
    use object_store::ObjectStoreExt;
    use std::io::{BufRead, BufReader};

    let garage = Garage::start().await;
    let dir = TempDir::new().unwrap();
    versioned_catalogue(dir.path(), "v1");
    published(&garage, dir.path(), "broken-later");
    let mut command = Command::new(BINARY);
    command
        .envs(garage.env())
        .stderr(std::process::Stdio::piped());
    let storage = garage.storage_url("broken-later");
    let (mut child, origin) =
        common::start_binary(command, &["--storage", &storage, "--catalogue-poll", "1"]);
    let stderr = child.stderr.take().unwrap();
    let server = Running { child, origin };

    let mut store = object_store::aws::AmazonS3Builder::new()
        .with_url(format!("s3://{}", crate::engines::BUCKET));
    for (name, value) in garage.env() {
        store = store.with_config(name.to_ascii_lowercase().parse().unwrap(), value);
    }
    let store = store.build().unwrap();
    store
        .put(
            &object_store::path::Path::from("broken-later/catalogue.json"),
            b"{\"products\": [".to_vec().into(),
        )
        .await
        .unwrap();

    // The server's log names the problem within a few polls.
    let warned = tokio::task::spawn_blocking(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .find(|line| line.contains("did not load"))
    });
    let warning = tokio::time::timeout(Duration::from_secs(10), warned)
        .await
        .expect("a warning within 10 s")
        .unwrap()
        .expect("the server logs the broken catalogue");
    assert!(warning.contains("catalogue.json line 1"), "{warning}");
    let client = client();
    let product = get_json(&client, &server.api("/products/P")).await;
    assert_eq!(product["version"], "v1");
}
