//! The binary's request log: every request is logged, and no key, secret, token or
//! link signature ever is.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use reqwest::{RequestBuilder, StatusCode};

const KEY: &str = "alpha-demo-key";
const SECRET: &str = "alpha-demo-secret";

#[tokio::test]
async fn requests_are_logged_without_credentials() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_download-server"))
        .args(["--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    let origin = first_line
        .trim()
        .rsplit(' ')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_owned();
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

    server.kill().unwrap();
    let mut log = String::new();
    server
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    server.wait().unwrap();

    assert!(log.contains("/downloads/v1/dataPackages"), "{log}");
    assert!(log.contains("key=REDACTED&expanded"), "{log}");
    assert!(log.contains("signature=REDACTED"), "{log}");
    for secret in [KEY, SECRET, &token, &signature] {
        assert!(!log.contains(secret), "`{secret}` is in the log:\n{log}");
    }
}

async fn json(request: RequestBuilder) -> serde_json::Value {
    request.send().await.unwrap().json().await.unwrap()
}
