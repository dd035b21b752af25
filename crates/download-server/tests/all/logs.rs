//! The binary's log: with `--log-requests` every request is logged, and no key,
//! secret, token or link signature ever is; without it, only start-up and errors.

use std::io::Read;
use std::process::{Child, Command, Stdio};

use crate::common::{BINARY, start_binary};
use reqwest::{RequestBuilder, StatusCode};

const KEY: &str = "alpha-demo-key";
const SECRET: &str = "alpha-demo-secret";

/// The binary with `args`, logging at `info`, and its origin.
fn start(args: &[&str]) -> (Child, String) {
    let mut command = Command::new(BINARY);
    command.env("RUST_LOG", "info").stderr(Stdio::piped());
    start_binary(command, args)
}

/// Stops the server and returns what it logged.
fn stop(mut server: Child) -> String {
    server.kill().unwrap();
    let mut log = String::new();
    server
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    server.wait().unwrap();
    log
}

#[tokio::test]
async fn requests_are_logged_without_credentials_when_asked() {
    let (server, origin) = start(&["--log-requests"]);
    let api = format!("{origin}/downloads/v1");
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();

    let token = json(
        client
            .post(format!("{origin}/oauth2/token/v1"))
            .basic_auth(KEY, Some(SECRET))
            .form(&[("grant_type", "client_credentials")]),
    )
    .await;
    let token = token["access_token"].as_str().unwrap().to_owned();
    let version = json(
        client
            .get(format!("{api}/dataPackages/0040046952/versions/latest"))
            .bearer_auth(&token),
    )
    .await;
    let listed_url = version["downloads"][0]["url"].as_str().unwrap().to_owned();
    let signature = listed_url.rsplit("signature=").next().unwrap().to_owned();
    let by_key = client
        .get(format!("{api}/dataPackages?key={KEY}&expanded"))
        .send()
        .await
        .unwrap();
    assert_eq!(by_key.status(), StatusCode::OK);
    let by_header = client
        .get(format!("{api}/dataPackages"))
        .header("key", KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(by_header.status(), StatusCode::OK);
    let listed = client.get(&listed_url).send().await.unwrap();
    assert_eq!(listed.status(), StatusCode::TEMPORARY_REDIRECT);
    // Credentials under other names, where no endpoint reads them.
    let other_names = client
        .get(format!(
            "{api}/products?client_id={KEY}&client_secret={SECRET}&api_key={KEY}&access_token={token}"
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(other_names.status(), StatusCode::OK);
    let long_path = format!("{api}/{}", "a".repeat(5000));
    let long = client.get(&long_path).send().await.unwrap();
    assert_eq!(long.status(), StatusCode::NOT_FOUND);

    let log = stop(server);
    assert!(log.contains("/downloads/v1/dataPackages"), "{log}");
    assert!(log.contains("key=REDACTED&expanded"), "{log}");
    assert!(log.contains("signature=REDACTED"), "{log}");
    assert!(log.contains("client_id=REDACTED"), "{log}");
    assert!(log.contains("[cut: 5014 bytes in all]"), "{log}");
    assert!(!log.contains(&"a".repeat(600)), "{log}");
    for secret in [KEY, SECRET, &token, &signature] {
        assert!(!log.contains(secret), "`{secret}` is in the log:\n{log}");
    }
}

#[tokio::test]
async fn by_default_only_start_up_and_errors_are_logged() {
    let (server, origin) = start(&[]);
    let response = reqwest::get(format!("{origin}/downloads/v1/products"))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let log = stop(server);
    assert!(log.contains("catalogue loaded"), "{log}");
    assert!(!log.contains("/downloads/v1/products"), "{log}");
}

async fn json(request: RequestBuilder) -> serde_json::Value {
    request.send().await.unwrap().json().await.unwrap()
}
