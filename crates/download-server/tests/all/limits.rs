//! Slow and idle clients: timeouts for headers, bodies and idle connections, and a cap
//! on connections that makes room by closing the connection idle the longest.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{BINARY, TestServer, start_binary};
use reqwest::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A half-sent request: headers never finished.
const PARTIAL: &[u8] = b"GET /downloads/v1/products HTTP/1.1\r\nHost: x\r\nX-Slow: ";

/// The binary, started under `ulimit -n 256` (so a few hundred connections could
/// exhaust its file descriptors); killed when dropped.
struct Binary {
    child: Child,
    origin: String,
}

impl Binary {
    fn start(args: &[&str]) -> Binary {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(r#"ulimit -n 256 && exec "$0" "$@""#)
            .arg(BINARY)
            .env("RUST_LOG", "error")
            .stderr(Stdio::null());
        let (child, origin) = start_binary(command, args);
        Binary { child, origin }
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn address(origin: &str) -> &str {
    origin.strip_prefix("http://").unwrap()
}

/// Everything the server sends until it closes the connection, if it does so
/// `within` this time.
async fn read_until_closed(stream: &mut TcpStream, within: Duration) -> Option<String> {
    let mut received = Vec::new();
    let read = tokio::time::timeout(within, stream.read_to_end(&mut received)).await;
    match read {
        Ok(Ok(_)) | Ok(Err(_)) => Some(String::from_utf8_lossy(&received).into_owned()),
        Err(_) => None,
    }
}

#[tokio::test]
async fn hundreds_of_slow_clients_do_not_shut_out_others() {
    let server = Binary::start(&["--max-connections", "100", "--header-timeout", "60"]);
    let mut slow = Vec::new();
    for _ in 0..300 {
        let mut stream = TcpStream::connect(address(&server.origin)).await.unwrap();
        stream.write_all(PARTIAL).await.unwrap();
        slow.push(stream);
    }
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    for _ in 0..5 {
        let response = client
            .get(format!("{}/downloads/v1/products", server.origin))
            .send()
            .await
            .expect("an answer within the client's timeout");
        assert_eq!(response.status(), StatusCode::OK);
    }
    // The slow connections idle the longest made room: most are closed.
    let mut closed = 0;
    for stream in &mut slow {
        if read_until_closed(stream, Duration::from_millis(10))
            .await
            .is_some()
        {
            closed += 1;
        }
    }
    assert!(closed >= 200, "only {closed} slow connections were closed");
}

#[tokio::test]
async fn headers_must_arrive_within_the_header_timeout() {
    let server = TestServer::start(&["--header-timeout", "1", "--idle-timeout", "30"]).await;
    let mut slow = TcpStream::connect(address(&server.origin)).await.unwrap();
    let mut quiet = TcpStream::connect(address(&server.origin)).await.unwrap();
    let start = Instant::now();
    slow.write_all(PARTIAL).await.unwrap();
    assert!(
        read_until_closed(&mut slow, Duration::from_secs(4))
            .await
            .is_some()
    );
    assert!(start.elapsed() >= Duration::from_secs(1));
    // A connection that has sent nothing is idle, not late with its headers.
    assert!(
        read_until_closed(&mut quiet, Duration::from_millis(500))
            .await
            .is_none()
    );
}

#[tokio::test]
async fn idle_connections_are_closed_after_the_idle_timeout() {
    let server = TestServer::start(&["--idle-timeout", "1", "--header-timeout", "30"]).await;
    let mut quiet = TcpStream::connect(address(&server.origin)).await.unwrap();
    let mut kept_alive = TcpStream::connect(address(&server.origin)).await.unwrap();
    kept_alive
        .write_all(b"GET /downloads/v1/products HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let start = Instant::now();
    assert!(
        read_until_closed(&mut quiet, Duration::from_secs(4))
            .await
            .is_some()
    );
    let answered = read_until_closed(&mut kept_alive, Duration::from_secs(4))
        .await
        .expect("closed once idle");
    assert!(answered.starts_with("HTTP/1.1 200"), "{answered}");
    assert!(start.elapsed() >= Duration::from_secs(1));
}

#[tokio::test]
async fn a_body_must_arrive_within_the_body_timeout() {
    let server = TestServer::start(&["--body-timeout", "1"]).await;
    let mut stream = TcpStream::connect(address(&server.origin)).await.unwrap();
    stream
        .write_all(
            b"POST /oauth2/token/v1 HTTP/1.1\r\nHost: x\r\n\
              Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n\
              grant_type",
        )
        .await
        .unwrap();
    let mut answer = vec![0; 4096];
    let read = tokio::time::timeout(Duration::from_secs(4), stream.read(&mut answer))
        .await
        .expect("an answer before the client gives up")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..read]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#""error":"invalid_request""#), "{answer}");
}

/// An answer given before the request body was read (a 413) reaches a client that is
/// still sending that body: the server reads and drops the rest before closing, rather
/// than resetting the connection under the client's writes.
#[tokio::test]
async fn an_early_answer_reaches_a_client_still_sending_its_body() {
    let server = TestServer::start(&[]).await;
    let chunk = vec![b'x'; 64 * 1024];
    let chunks = 4;
    let mut stream = TcpStream::connect(address(&server.origin)).await.unwrap();
    let headers = format!(
        "POST /oauth2/token/v1 HTTP/1.1\r\nHost: x\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        chunk.len() * chunks
    );
    stream.write_all(headers.as_bytes()).await.unwrap();
    // Slowly, so that the server has answered and is closing while the body arrives.
    for _ in 0..chunks {
        tokio::time::sleep(Duration::from_millis(50)).await;
        stream
            .write_all(&chunk)
            .await
            .expect("the server reads the body it will not use");
    }
    stream.shutdown().await.unwrap();
    let answer = read_until_closed(&mut stream, Duration::from_secs(4))
        .await
        .expect("closed after the answer");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    // So that a client does not send another request on a connection about to close.
    assert!(answer.contains("connection: close\r\n"), "{answer}");
    assert!(answer.contains(r#""error":"invalid_request""#), "{answer}");
}
