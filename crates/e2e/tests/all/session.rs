//! The session across reloads, sign-out and renewal, in a real browser against the
//! real server. Demo project Alpha owns package 0040046952.

use std::time::{Duration, Instant};

use e2e::Harness;

const KEY: &str = "alpha-demo-key";
const SECRET: &str = "alpha-demo-secret";
const STORED: &str = "return sessionStorage.getItem('download-explorer.session');";
const VERSION_PAGE: &str = "/packages/0040046952/versions/118429";

/// Signs in with the demo key and secret from the sign-in page at `path`,
/// unticking "Keep me signed in on this tab" when `keep` is false.
async fn sign_in(h: &Harness, path: &str, keep: bool) {
    h.goto(&format!("/login?next={path}")).await;
    h.type_into("#login-key", KEY).await;
    h.type_into("#login-secret", SECRET).await;
    let option = h.find("#login-keep").await;
    assert!(option.is_selected().await.unwrap(), "kept by default");
    if !keep {
        option.click().await.unwrap();
    }
    h.submit_sign_in().await;
    wait_for_path(h, path).await;
}

async fn wait_for_path(h: &Harness, want: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let url = h.current_url().await;
        if url.strip_prefix(&h.base) == Some(want) {
            return;
        }
        assert!(Instant::now() < deadline, "never reached {want}; at {url}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn reload(h: &Harness) {
    h.driver.refresh().await.expect("reload");
}

#[tokio::test]
async fn a_reload_keeps_the_user_signed_in_and_sign_out_forgets_it() {
    let h = Harness::start(&[]).await;
    sign_in(&h, "/packages", true).await;
    h.wait_for_text(".packages-table", "Southampton Addresses")
        .await;
    let kept = h.js(STORED).await;
    let kept = kept.as_str().expect("a kept session");
    assert!(kept.contains("token") && !kept.contains(SECRET) && !kept.contains(KEY));

    reload(&h).await;
    h.wait_for_text(".packages-table", "Southampton Addresses")
        .await;
    h.wait_for_text(".session-badge", "alpha-de…").await;
    assert_eq!(h.current_url().await, h.url("/packages"));

    h.find(".session-sign-out").await.click().await.unwrap();
    wait_for_path(&h, "/login?next=/packages").await;
    assert_eq!(h.js(STORED).await, serde_json::Value::Null);
    // Sign-out forgets who it was: not even the key is offered again.
    let key = h.find("#login-key").await.prop("value").await.unwrap();
    assert_eq!(key.as_deref(), Some(""));
    // Signed out for good: a reload does not bring the session back.
    reload(&h).await;
    h.find(".login-form").await;
    h.wait_for_text(".session-badge", "Sign in").await;
    assert_eq!(h.console_errors().await, Vec::<String>::new());
    h.stop().await;
}

#[tokio::test]
async fn unticking_keep_me_signed_in_means_a_reload_signs_out() {
    let h = Harness::start(&[]).await;
    sign_in(&h, "/packages", false).await;
    h.wait_for_text(".packages-table", "Southampton Addresses")
        .await;
    assert_eq!(h.js(STORED).await, serde_json::Value::Null);
    reload(&h).await;
    wait_for_path(&h, "/login?next=/packages").await;
    h.find(".login-form").await;
    h.stop().await;
}

#[tokio::test]
async fn after_a_reload_the_secret_asked_in_place_renews_without_losing_the_page() {
    let h = Harness::start(&["--token-ttl", "5"]).await;
    sign_in(&h, VERSION_PAGE, true).await;
    h.wait_for_text("h1", "Version 118429").await;
    // A reload keeps the token only: the secret is gone, so the header asks for it
    // (the token has less than a minute left).
    reload(&h).await;
    h.wait_for_text("h1", "Version 118429").await;
    h.wait_for_text(".session-reminder", "Enter your API key and secret")
        .await;
    h.js("window.__samePage = true; return true;").await;
    h.type_into("#prompt-key", KEY).await;

    // The token runs out meanwhile: the page and the key typed stay.
    h.wait_for_text(".session-reminder", "has ended").await;
    assert_eq!(h.current_url().await, h.url(VERSION_PAGE));
    let key = h.find("#prompt-key").await.prop("value").await.unwrap();
    assert_eq!(key.as_deref(), Some(KEY));

    // A wrong secret says so by the fields, and keeps the prompt.
    h.type_into("#prompt-secret", "not-the-secret").await;
    h.find(".session-prompt button[type='submit']")
        .await
        .click()
        .await
        .unwrap();
    h.wait_for_text("#session-prompt-error", "did not accept")
        .await;
    let invalid = h
        .find("#prompt-secret")
        .await
        .attr("aria-invalid")
        .await
        .unwrap();
    assert_eq!(invalid.as_deref(), Some("true"));

    h.type_into("#prompt-secret", SECRET).await;
    h.find(".session-prompt button[type='submit']")
        .await
        .click()
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !h.find_all(".session-reminder").await.is_empty() {
        assert!(Instant::now() < deadline, "the reminder stayed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Same page, never reloaded, and the new token works.
    assert_eq!(h.js("return window.__samePage === true;").await, true);
    assert_eq!(h.current_url().await, h.url(VERSION_PAGE));
    h.find("a[rel='next']").await.click().await.unwrap();
    h.wait_for_text("h1", "Version 124307").await;
    // With the secret held again, the app renews by itself past the token's life.
    tokio::time::sleep(Duration::from_secs(6)).await;
    h.find("a[rel='prev']").await.click().await.unwrap();
    h.wait_for_text("h1", "Version 118429").await;
    let kept = h.js(STORED).await;
    assert!(!kept.as_str().unwrap_or_default().contains(SECRET));
    h.stop().await;
}
