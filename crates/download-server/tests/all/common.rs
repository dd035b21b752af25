//! A real server on a free port, and a client that does not follow redirects.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use clap::Parser;
use download_server::{Config, Server};
use md5::{Digest, Md5};
use reqwest::header::HeaderMap;
use reqwest::{Client, RequestBuilder, Response, StatusCode, redirect};
use serde_json::Value;

pub const SIGNING_KEY: &str = "test-signing-key";
pub const ALPHA_KEY: &str = "alpha-test-key";
pub const ALPHA_SECRET: &str = "alpha-test-secret";
pub const BETA_KEY: &str = "beta-test-key";
pub const BETA_SECRET: &str = "beta-test-secret";

/// The fixture catalogue (regenerate with `tests/fixtures/make_catalogue.py`).
pub fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/catalogue")
}

/// The server binary cargo built for these tests.
pub const BINARY: &str = env!("CARGO_BIN_EXE_download-server");

/// Runs `command` (the [`BINARY`], perhaps through a shell) with `--listen
/// 127.0.0.1:0` and `args` added; returns the child and the origin it says it serves.
pub fn start_binary(mut command: Command, args: &[&str]) -> (Child, String) {
    let mut child = command
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    let origin = first_line.trim().rsplit(' ').next().unwrap();
    (child, origin.trim_end_matches('/').to_owned())
}

/// One running server.
#[derive(Debug)]
pub struct TestServer {
    /// e.g. `http://127.0.0.1:41234`
    pub origin: String,
    /// `{origin}/downloads/v1`
    pub base: String,
    pub client: Client,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    /// The fixture catalogue with the test signing key, plus `args`.
    pub async fn start(args: &[&str]) -> TestServer {
        let fixture = fixture();
        let mut all = vec![
            "--catalogue",
            fixture.to_str().unwrap(),
            "--signing-key",
            SIGNING_KEY,
        ];
        all.extend_from_slice(args);
        TestServer::start_bare(&all).await
    }

    /// Only `args` (so the embedded demo catalogue unless `--catalogue` is given).
    pub async fn start_bare(args: &[&str]) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let mut argv = vec!["download-server", "--public-url", &origin];
        argv.extend_from_slice(args);
        let config = Config::try_parse_from(argv).expect("valid test arguments");
        // Built here so a broken catalogue fails the test at once.
        let server = Server::new(config, listener).expect("the server starts");
        let task = tokio::spawn(async move {
            server
                .run(std::future::pending())
                .await
                .expect("the server runs");
        });
        TestServer {
            base: format!("{origin}/downloads/v1"),
            origin,
            client: client(),
            task,
        }
    }

    /// `{base}{path}`.
    pub fn api(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn get(&self, url: &str) -> Response {
        self.client.get(url).send().await.unwrap()
    }

    /// GET `url` with these request headers.
    pub async fn get_with(&self, url: &str, headers: &[(&str, &str)]) -> Response {
        with_headers(self.client.get(url), headers)
            .send()
            .await
            .unwrap()
    }

    /// HEAD `url` with these request headers, checked to answer as a GET of `length`
    /// bytes would, without the body: its headers, for more checks.
    pub async fn head_like_get(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        length: usize,
    ) -> HeaderMap {
        let head = with_headers(self.client.head(url), headers)
            .send()
            .await
            .unwrap();
        assert_eq!(head.status(), StatusCode::OK);
        assert_eq!(header(head.headers(), "content-length"), length.to_string());
        let headers = head.headers().clone();
        assert!(head.bytes().await.unwrap().is_empty());
        headers
    }

    /// GET an API path and read its JSON.
    pub async fn json(&self, path: &str) -> (StatusCode, Value) {
        read_json(self.get(&self.api(path)).await).await
    }

    /// GET an API path that answers 404, and read its JSON.
    pub async fn not_found(&self, path: &str) -> Value {
        let (status, body) = self.json(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        body
    }

    /// GET an API path with the API key in the `key` header, and read its JSON.
    pub async fn json_with_key(&self, path: &str, key: &str) -> (StatusCode, Value) {
        read_json(
            self.client
                .get(self.api(path))
                .header("key", key)
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    /// GET an API path with an access token, and read its JSON.
    pub async fn json_with_token(&self, path: &str, token: &str) -> (StatusCode, Value) {
        read_json(
            self.client
                .get(self.api(path))
                .bearer_auth(token)
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    /// A token from the token endpoint.
    pub async fn token(&self, key: &str, secret: &str) -> String {
        let response = self.token_request(key, secret).send().await.unwrap();
        let (status, body) = read_json(response).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["access_token"].as_str().unwrap().to_owned()
    }

    /// The token request of the spec, ready to send.
    pub fn token_request(&self, key: &str, secret: &str) -> RequestBuilder {
        self.client
            .post(format!("{}/oauth2/token/v1", self.origin))
            .basic_auth(key, Some(secret))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("grant_type=client_credentials")
    }

    /// Version `version_id` of Alpha's package 0040046952, as Alpha's key reads it.
    pub async fn alpha_version(&self, version_id: &str) -> Value {
        let path = format!("/dataPackages/0040046952/versions/{version_id}");
        let (status, version) = self.json_with_key(&path, ALPHA_KEY).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        version
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A client that shows redirects instead of following them.
pub fn client() -> Client {
    Client::builder()
        .redirect(redirect::Policy::none())
        .build()
        .unwrap()
}

/// Status and JSON body; fails the test when the body is not JSON.
pub async fn read_json(response: Response) -> (StatusCode, Value) {
    let status = response.status();
    let content_type = header(response.headers(), "content-type");
    let text = response.text().await.unwrap();
    assert_eq!(content_type, "application/json", "{status}: {text}");
    let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, body)
}

fn with_headers(mut request: RequestBuilder, headers: &[(&str, &str)]) -> RequestBuilder {
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request
}

/// A header's value as text ("" when absent).
pub fn header(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

/// The `id` of every item of a JSON list.
pub fn ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect()
}

pub fn md5_hex(bytes: &[u8]) -> String {
    format!("{:x}", Md5::digest(bytes))
}

/// Follows one 307 and returns the final response, checking the hop is a 307.
pub async fn follow(client: &Client, url: &str) -> Response {
    let first = client.get(url).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::TEMPORARY_REDIRECT, "{url}");
    let location = header(first.headers(), "location");
    client.get(&location).send().await.unwrap()
}

/// Fetches the file behind a listed download `url` (one 307 hop) and checks that
/// its bytes have the listed size and MD5.
pub async fn check_download(client: &Client, entry: &Value) {
    let url = entry["url"].as_str().unwrap();
    let response = follow(client, url).await;
    assert_eq!(response.status(), StatusCode::OK, "{url}");
    let bytes = response.bytes().await.unwrap();
    assert_eq!(bytes.len() as u64, entry["size"].as_u64().unwrap(), "{url}");
    assert_eq!(md5_hex(&bytes), entry["md5"].as_str().unwrap(), "{url}");
}
