//! The session across reloads, sign-out, renewal and expiry, in a real browser against
//! the real server. Tests of a token's end wait for the server to refuse the token, not
//! for a time. Demo project Alpha owns package 0040046952.

use e2e::demo::{KEY, PACKAGE, SECRET};
use e2e::{Harness, WAIT, eventually};
use reqwest::StatusCode;

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
    h.wait_for_path(path).await;
}

/// Our server with tokens living `ttl` seconds, and the app signed in with the key
/// and secret (kept on this tab) on the version page.
async fn signed_in_on_the_version_page(ttl: &str) -> Harness {
    let h = Harness::start(&["--token-ttl", ttl]).await;
    sign_in(&h, VERSION_PAGE, true).await;
    h.wait_for_text("h1", "Version 118429").await;
    h
}

async fn reload(h: &Harness) {
    h.driver.refresh().await.expect("reload");
}

/// The token the tab keeps now.
async fn stored_token(h: &Harness) -> String {
    let kept = h.js(STORED).await;
    let kept: serde_json::Value =
        serde_json::from_str(kept.as_str().expect("a kept session")).expect("its JSON");
    kept["token"].as_str().expect("a kept token").to_owned()
}

/// Waits until the tab keeps a token other than `old`, and returns it.
async fn renewed_from(h: &Harness, old: &str) -> String {
    eventually(WAIT, async || match stored_token(h).await {
        token if token != old => Ok(token),
        _ => Err("the app kept the same token".to_owned()),
    })
    .await
}

/// Waits until the server refuses `token`: its life is over.
async fn wait_until_refused(h: &Harness, token: &str) {
    let url = h.url("/downloads/v1/dataPackages");
    eventually(WAIT, async || {
        let response = reqwest::Client::new()
            .get(&url)
            .bearer_auth(token)
            .send()
            .await
            .expect("ask the service");
        match response.status() {
            StatusCode::UNAUTHORIZED => Ok(()),
            status => Err(format!("the service still answers the token {status}")),
        }
    })
    .await
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
    h.assert_no_secrets(&[SECRET]).await;

    h.click(".session-sign-out").await;
    h.wait_for_path("/login?next=/packages").await;
    assert_eq!(h.js(STORED).await, serde_json::Value::Null);
    // Sign-out forgets who it was: not even the key is offered again.
    let key = h.find("#login-key").await.prop("value").await.unwrap();
    assert_eq!(key.as_deref(), Some(""));
    // Signed out for good: a reload does not bring the session back.
    reload(&h).await;
    h.find(".login-form").await;
    h.wait_for_text(".session-badge", "Sign in").await;
    h.stop_clean().await;
}

#[tokio::test]
async fn unticking_keep_me_signed_in_means_a_reload_signs_out() {
    let h = Harness::start(&[]).await;
    sign_in(&h, "/packages", false).await;
    h.wait_for_text(".packages-table", "Southampton Addresses")
        .await;
    assert_eq!(h.js(STORED).await, serde_json::Value::Null);
    reload(&h).await;
    h.wait_for_path("/login?next=/packages").await;
    h.find(".login-form").await;
    h.stop().await;
}

#[tokio::test]
async fn after_a_reload_the_secret_asked_in_place_renews_without_losing_the_page() {
    let h = signed_in_on_the_version_page("5").await;
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
    h.click(".session-prompt button[type='submit']").await;
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
    h.click(".session-prompt button[type='submit']").await;
    h.wait_for_js("!document.querySelector('.session-reminder')")
        .await;
    // Same page, never reloaded, and the new token works.
    assert_eq!(h.js("return window.__samePage === true;").await, true);
    assert_eq!(h.current_url().await, h.url(VERSION_PAGE));
    h.click("a[rel='next']").await;
    h.wait_for_text("h1", "Version 124307").await;
    // With the secret held again, the app renews by itself, and the session outlives
    // the token the secret gave.
    let given = stored_token(&h).await;
    renewed_from(&h, &given).await;
    wait_until_refused(&h, &given).await;
    h.click("a[rel='prev']").await;
    h.wait_for_text("h1", "Version 118429").await;
    let kept = h.js(STORED).await;
    assert!(!kept.as_str().unwrap_or_default().contains(SECRET));
    h.stop().await;
}

#[tokio::test]
async fn an_expired_token_asks_to_sign_in_again_and_returns_to_the_same_page() {
    let h = Harness::start(&["--token-ttl", "3"]).await;
    h.goto(&format!("/login?next={VERSION_PAGE}")).await;
    h.find(".login-form").await;
    // Fetched once the app is up: the token only lives 3 s.
    let token = h.fetch_token(KEY, SECRET).await;
    h.sign_in_with_token(&token).await;
    h.wait_for_path(VERSION_PAGE).await;
    h.wait_for_text("h1", "Version 118429").await;

    // The token dies; with no secret to renew it, the next request sends the user
    // to sign in, keeping their place.
    wait_until_refused(&h, &token).await;
    h.click("a[rel='next']").await;
    let newer = format!("/packages/{PACKAGE}/versions/124307");
    let login = h
        .wait_for_address(|address| address.starts_with("/login?next="))
        .await;
    assert_eq!(login, format!("/login?next={newer}"));
    h.wait_for_text(".session-notice", "Sign in again").await;

    let fresh = h.fetch_token(KEY, SECRET).await;
    h.sign_in_with_token(&fresh).await;
    h.wait_for_path(&newer).await;
    h.wait_for_text("h1", "Version 124307").await;
    h.assert_no_secrets(&[&token, &fresh]).await;
    h.stop().await;
}

#[tokio::test]
async fn a_pasted_token_answer_shows_its_time_left_and_ends_the_session_on_time() {
    // Long enough for the slowest engine to sign in and show the version page before it
    // ends, short enough to see it end.
    let h = Harness::start(&["--token-ttl", "5"]).await;
    h.goto(&format!("/login?next={VERSION_PAGE}")).await;
    h.find(".login-form").await;
    // The token endpoint's whole answer, pasted: the app knows when the token dies.
    let answer = e2e::token_answer(&h.base, KEY, SECRET).await;
    h.sign_in_with_token(&answer).await;
    h.wait_for_path(VERSION_PAGE).await;
    let left = h.text(".session-time").await;
    assert!(left.ends_with(" s left"), "{left}");
    // Without any click, the app asks to sign in again when the token expires.
    let login = h
        .wait_for_address(|address| address.starts_with("/login"))
        .await;
    assert_eq!(login, format!("/login?next={VERSION_PAGE}"));
    h.wait_for_text(".session-notice", "expired").await;
    let token: serde_json::Value = serde_json::from_str(&answer).unwrap();
    h.assert_no_secrets(&[token["access_token"].as_str().unwrap()])
        .await;
    h.stop().await;
}

#[tokio::test]
async fn a_held_secret_renews_the_token_before_it_expires() {
    let h = signed_in_on_the_version_page("3").await;
    // Untouched, the app renews the token on its own; the session outlives the first
    // token.
    let first = stored_token(&h).await;
    renewed_from(&h, &first).await;
    wait_until_refused(&h, &first).await;
    h.click("a[rel='next']").await;
    h.wait_for_text("h1", "Version 124307").await;
    assert!(h.current_url().await.ends_with("/versions/124307"));
    h.wait_for_text(".session-badge", "alpha-de…").await;
    h.assert_no_secrets(&[SECRET]).await;
    h.stop().await;
}
