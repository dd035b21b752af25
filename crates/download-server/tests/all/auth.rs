//! The three authentication schemes and the token endpoint.

use crate::common;
use crate::common::{
    ALPHA_KEY, ALPHA_SECRET, BETA_KEY, BETA_SECRET, SIGNING_KEY, TestServer, header, read_json,
};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use download_api::TokenResponse;
use download_server::signing::Signer;
use reqwest::StatusCode;
use serde_json::Value;

const PACKAGES: &str = "/dataPackages";

#[tokio::test]
async fn every_scheme_gets_the_same_packages() {
    let server = TestServer::start(&[]).await;
    let url = server.api(PACKAGES);
    let token = server.token(ALPHA_KEY, ALPHA_SECRET).await;
    let requests = [
        server.client.get(format!("{url}?key={ALPHA_KEY}")),
        server.client.get(&url).header("key", ALPHA_KEY),
        server.client.get(&url).bearer_auth(&token),
        server
            .client
            .get(&url)
            .header("authorization", format!("bearer {token}")),
    ];
    let mut answers: Vec<Value> = Vec::new();
    for request in requests {
        let (status, body) = read_json(request.send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        answers.push(body);
    }
    assert_eq!(answers[0].as_array().unwrap().len(), 2);
    assert!(answers.iter().all(|a| *a == answers[0]));
}

#[tokio::test]
async fn missing_or_wrong_credentials_are_401_with_a_message() {
    let server = TestServer::start(&[]).await;
    let url = server.api("/dataPackages/0040046952/versions/latest");
    let missing = "Missing or unsupported API key provided.";
    let invalid = "Invalid API key or access token.";
    let cases = [
        (server.client.get(&url), missing),
        (server.client.get(format!("{url}?key=")), missing),
        (
            server
                .client
                .get(&url)
                .basic_auth(ALPHA_KEY, Some(ALPHA_SECRET)),
            missing,
        ),
        (server.client.get(format!("{url}?key=wrong")), invalid),
        (server.client.get(&url).header("key", "wrong"), invalid),
        (server.client.get(&url).bearer_auth("not-a-token"), invalid),
        // The key, sent as if it were a token.
        (server.client.get(&url).bearer_auth(ALPHA_KEY), invalid),
    ];
    for (request, message) in cases {
        let response = request.send().await.unwrap();
        assert!(header(response.headers(), "www-authenticate").starts_with("Bearer"));
        let (status, body) = read_json(response).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["message"], message);
    }
    // Open products need nothing, and a wrong key there is ignored.
    let (status, _) = server.json("/products?key=wrong").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_token_endpoint_answers_the_spec_shape() {
    let server = TestServer::start(&["--token-ttl", "120"]).await;
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let response = server
        .token_request(ALPHA_KEY, ALPHA_SECRET)
        .send()
        .await
        .unwrap();
    assert_eq!(header(response.headers(), "cache-control"), "no-store");
    let (status, body) = read_json(response).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], "120");
    let issued_at: u64 = body["issued_at"].as_str().unwrap().parse().unwrap();
    assert!(issued_at >= before && issued_at < before + 60_000);
    let token: download_api::TokenResponse = serde_json::from_value(body).unwrap();
    assert!(!token.access_token.contains(ALPHA_KEY));

    // Credentials in the form body (RFC 6749 §2.3.1) work too.
    let response = server
        .client
        .post(format!("{}/oauth2/token/v1", server.origin))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "grant_type=client_credentials&client_id={BETA_KEY}&client_secret={BETA_SECRET}"
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn token_errors_use_the_oauth_form_and_say_what_to_fix() {
    let server = TestServer::start(&[]).await;
    let token_url = format!("{}/oauth2/token/v1", server.origin);
    let basic = |credentials: &str| format!("Basic {}", STANDARD.encode(credentials));
    let form = "application/x-www-form-urlencoded";
    // A client-credentials request with this `Authorization` header.
    let with_authorization = |value: &str| {
        server
            .client
            .post(&token_url)
            .header("authorization", value)
            .header("content-type", form)
            .body("grant_type=client_credentials")
    };
    let cases: Vec<(reqwest::RequestBuilder, StatusCode, &str, &str)> = vec![
        (
            server.token_request(ALPHA_KEY, "wrong-secret"),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "separated by a colon",
        ),
        (
            server.token_request("wrong-key", ALPHA_SECRET),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "correct",
        ),
        (
            // Another project's secret.
            server.token_request(ALPHA_KEY, BETA_SECRET),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "correct",
        ),
        (
            server
                .client
                .post(&token_url)
                .header("content-type", form)
                .body("grant_type=client_credentials"),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "Basic",
        ),
        (
            with_authorization(&basic(&format!("{ALPHA_KEY}{ALPHA_SECRET}"))),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "colon",
        ),
        (
            with_authorization("Basic %%%"),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "colon",
        ),
        (
            server
                .token_request(ALPHA_KEY, ALPHA_SECRET)
                .body("grant_type=password"),
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "client_credentials",
        ),
        (
            server.token_request(ALPHA_KEY, ALPHA_SECRET).body(format!(
                "grant_type=client_credentials&padding={}",
                "x".repeat(100_000)
            )),
            StatusCode::PAYLOAD_TOO_LARGE,
            "invalid_request",
            "larger than",
        ),
        (
            server.token_request(ALPHA_KEY, ALPHA_SECRET).body(""),
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "grant_type=client_credentials",
        ),
        (
            server
                .token_request(ALPHA_KEY, ALPHA_SECRET)
                .header("content-type", "application/json")
                .body(r#"{"grant_type":"client_credentials"}"#),
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "form",
        ),
        (
            // Read as forms are (bytes that are not UTF-8 become U+FFFD): not a grant type.
            server
                .token_request(ALPHA_KEY, ALPHA_SECRET)
                .body("grant_type=%FF"),
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "client_credentials",
        ),
        (
            server
                .token_request(ALPHA_KEY, ALPHA_SECRET)
                .body("grant_type=client_credentials&grant_type=password"),
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "form",
        ),
    ];
    for (request, status, error, hint) in cases {
        let response = request.send().await.unwrap();
        assert_eq!(header(response.headers(), "cache-control"), "no-store");
        if status == StatusCode::UNAUTHORIZED {
            // RFC 6749 §5.2: the scheme the client should authenticate with.
            let challenge = header(response.headers(), "www-authenticate");
            assert!(challenge.starts_with("Basic realm="), "{challenge}");
        }
        let (got, body) = read_json(response).await;
        assert_eq!(got, status, "{body}");
        assert_eq!(body["error"], error, "{body}");
        let description = body["error_description"].as_str().unwrap();
        assert!(description.contains(hint), "{description}");
    }

    let response = server.client.get(&token_url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert!(header(response.headers(), "allow").contains("POST"));
    let (_, body) = read_json(response).await;
    assert!(body["message"].as_str().unwrap().contains("POST"));
}

#[tokio::test]
async fn tokens_expire_after_their_lifetime() {
    let server = TestServer::start(&["--token-ttl", "1"]).await;
    let response = server
        .token_request(ALPHA_KEY, ALPHA_SECRET)
        .send()
        .await
        .unwrap();
    let answer: TokenResponse = response.json().await.unwrap();
    assert_eq!(answer.expires_in, 1);
    let (status, _) = server.json_with_token(PACKAGES, &answer.access_token).await;
    assert_eq!(status, StatusCode::OK);

    // Its end, read with the server's key at chosen times rather than waited for.
    let signer = Signer::new(SIGNING_KEY.as_bytes());
    let at = |ms: u64| signer.check_token(&answer.access_token, answer.issued_at + ms);
    assert_eq!(at(999).as_deref(), Ok("Alpha"));
    assert!(at(1000).is_err());
    // What the service says of a token whose time is over.
    let over = signer.issue_token("Alpha", answer.issued_at - 1);
    let (status, body) = server.json_with_token(PACKAGES, &over).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("expired"), "{message}");
    assert!(message.contains("/oauth2/token/v1"), "{message}");
}

#[tokio::test]
async fn servers_sharing_a_signing_key_accept_each_others_tokens() {
    let first = TestServer::start(&[]).await;
    let second = TestServer::start(&[]).await;
    let other_key = TestServer::start_bare(&[
        "--catalogue",
        common::fixture().to_str().unwrap(),
        "--signing-key",
        "another-key",
    ])
    .await;
    let token = first.token(BETA_KEY, BETA_SECRET).await;
    let (status, body) = second.json_with_token(PACKAGES, &token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body[0]["id"], "0040099999");

    let (status, body) = other_key.json_with_token(PACKAGES, &token).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["message"], "Invalid API key or access token.");
}
