//! `--rate-limit N`: N requests a minute for each API key (or token's project), else
//! for each address; beyond it 429 with Retry-After, until the allowance refills.

use std::time::Duration;

use crate::common::{ALPHA_KEY, ALPHA_SECRET, BETA_KEY, TestServer, header, read_json};
use reqwest::StatusCode;

/// 60 a minute: the allowance refills one request a second, so the test waits little.
const PER_MINUTE: usize = 60;

#[tokio::test]
async fn each_key_has_its_own_allowance_that_refills() {
    let server = TestServer::start(&["--rate-limit", &PER_MINUTE.to_string()]).await;
    // A token counts for its project, as its key does.
    let token = server.token(ALPHA_KEY, ALPHA_SECRET).await;
    let packages = server.api("/dataPackages");
    for i in 0..PER_MINUTE {
        let (status, body) = server.json_with_key("/dataPackages", ALPHA_KEY).await;
        assert_eq!(status, StatusCode::OK, "request {i}: {body}");
    }

    let over = server.get_with(&packages, &[("key", ALPHA_KEY)]).await;
    assert_eq!(over.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = header(over.headers(), "retry-after").parse().unwrap();
    assert!((1..=2).contains(&retry_after), "Retry-After: {retry_after}");
    let (_, body) = read_json(over).await;
    assert!(
        body["message"].as_str().unwrap().contains("60 a minute"),
        "{body}"
    );
    let with_token = server
        .client
        .get(&packages)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(with_token.status(), StatusCode::TOO_MANY_REQUESTS);

    // Other projects, and callers without a key, are unaffected.
    let (status, _) = server.json_with_key("/dataPackages", BETA_KEY).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = server.json("/products").await;
    assert_eq!(status, StatusCode::OK);

    tokio::time::sleep(Duration::from_secs(retry_after)).await;
    let (status, body) = server.json_with_key("/dataPackages", ALPHA_KEY).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn without_a_key_the_address_is_limited_and_without_the_flag_nothing_is() {
    let limited = TestServer::start(&["--rate-limit", "2"]).await;
    let products = limited.api("/products");
    for _ in 0..2 {
        assert_eq!(limited.get(&products).await.status(), StatusCode::OK);
    }
    let over = limited.get(&products).await;
    assert_eq!(over.status(), StatusCode::TOO_MANY_REQUESTS);
    // 2 a minute: the next request in 30 s.
    let retry_after: u64 = header(over.headers(), "retry-after").parse().unwrap();
    assert!(
        (29..=30).contains(&retry_after),
        "Retry-After: {retry_after}"
    );
    // A download's redirect was the request that counted: the file it leads to is not
    // counted again, so a client that waited out its 429 gets the file as well.
    let redirect = limited
        .client
        .get(limited.api("/products/CodePointOpen/downloads?format=CSV&redirect"))
        .send()
        .await
        .unwrap();
    assert_eq!(redirect.status(), StatusCode::TOO_MANY_REQUESTS);
    let file = format!(
        "{}/files/products/CodePointOpen/codepo_gb.zip",
        limited.origin
    );
    assert_eq!(limited.get(&file).await.status(), StatusCode::OK);
    // A wrong key is no way around the limit.
    let wrong_key = limited.get_with(&products, &[("key", "not-a-key")]).await;
    assert_eq!(wrong_key.status(), StatusCode::TOO_MANY_REQUESTS);
    // Browsers ask before their requests; the answer must let them read a 429.
    let preflight = limited
        .client
        .request(reqwest::Method::OPTIONS, &products)
        .header("origin", "http://app.example")
        .header("access-control-request-method", "GET")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());

    let unlimited = TestServer::start(&[]).await;
    for _ in 0..20 {
        let response = unlimited.get(&unlimited.api("/products")).await;
        assert_eq!(response.status(), StatusCode::OK);
    }
}
