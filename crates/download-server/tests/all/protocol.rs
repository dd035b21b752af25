//! Requests framed against the rules of HTTP/1.1 get a 4xx with the JSON error body.

use crate::common::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends `request` as it is and returns the status and the body of the answer (the
/// request asks for the connection to be closed after it).
async fn exchange(server: &TestServer, request: &str) -> (u16, String) {
    let address = server.origin.strip_prefix("http://").unwrap();
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

/// The `message` of a JSON error body.
fn message(body: &str) -> String {
    let body: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|err| panic!("{err}: {body}"));
    body["message"].as_str().unwrap().to_owned()
}

const PATH: &str = "/downloads/v1/products";

#[tokio::test]
async fn http_1_1_needs_exactly_one_valid_host() {
    let server = TestServer::start(&[]).await;
    for (request, problem) in [
        (
            format!("GET {PATH} HTTP/1.1\r\nConnection: close\r\n\r\n"),
            "needs a Host",
        ),
        (
            format!("GET {PATH} HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n"),
            "only one Host",
        ),
        (
            format!("GET {PATH} HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n"),
            "only one Host",
        ),
        (
            format!("GET {PATH} HTTP/1.1\r\nHost: a b/c\r\nConnection: close\r\n\r\n"),
            "not a host",
        ),
    ] {
        let (status, body) = exchange(&server, &request).await;
        assert_eq!(status, 400, "{request}");
        assert!(message(&body).contains(problem), "{request}: {body}");
    }
    // HTTP/1.0 may leave it out.
    let (status, _) = exchange(&server, &format!("GET {PATH} HTTP/1.0\r\n\r\n")).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn too_many_header_fields_or_a_long_target_answer_json() {
    let server = TestServer::start(&[]).await;
    let fields: String = (0..150).map(|i| format!("X-Field-{i}: {i}\r\n")).collect();
    let request = format!("GET {PATH} HTTP/1.1\r\nHost: a\r\n{fields}Connection: close\r\n\r\n");
    let (status, body) = exchange(&server, &request).await;
    assert_eq!(status, 431);
    assert!(message(&body).contains("at most 100"), "{body}");

    let long = "a".repeat(10_000);
    let request =
        format!("GET {PATH}?fileName={long} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
    let (status, body) = exchange(&server, &request).await;
    assert_eq!(status, 414);
    assert!(message(&body).contains("at most 8192"), "{body}");
}
