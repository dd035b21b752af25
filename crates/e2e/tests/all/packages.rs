//! Signing in and the data-package pages, in a real browser against the real server.
//!
//! Demo credentials: project Alpha (`alpha-demo-key` / `alpha-demo-secret`) owns
//! packages 0040046952 and 0040047411; project Beta owns 0040062213 and 0040071890.

use std::path::Path;
use std::time::{Duration, Instant};

use download_api::DataPackageVersion;
use e2e::Harness;
use e2e::thirtyfour::components::SelectElement;
use e2e::thirtyfour::prelude::*;
use md5::{Digest, Md5};

const KEY: &str = "alpha-demo-key";
const SECRET: &str = "alpha-demo-secret";
const PACKAGE: &str = "0040046952";
const BETA_PACKAGE: &str = "0040062213";

/// A token from the service's token endpoint, as another tool would get it.
async fn fetch_token(h: &Harness, key: &str, secret: &str) -> String {
    let response = reqwest::Client::new()
        .post(h.url("/oauth2/token/v1"))
        .basic_auth(key, Some(secret))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("grant_type=client_credentials")
        .send()
        .await
        .expect("token request");
    assert!(response.status().is_success(), "token endpoint refused");
    let body: serde_json::Value = response.json().await.expect("token json");
    body["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned()
}

/// Waits until the browser's address (path and query) satisfies `want`.
async fn wait_for_path(h: &Harness, want: impl Fn(&str) -> bool, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let url = h.current_url().await;
        let path = url.strip_prefix(&h.base).unwrap_or(&url).to_owned();
        if want(&path) {
            return path;
        }
        assert!(Instant::now() < deadline, "never reached {what}; at {path}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn sign_in_with_token(h: &Harness, token: &str) {
    h.find(".login-form").await;
    h.choose_sign_in_method("Access token").await;
    h.type_into("#login-token", token).await;
    h.submit_sign_in().await;
}

/// No secret or token in any address the tab visited or fetched, in its storage
/// meant to outlive the tab, nor in the current address.
async fn assert_no_secrets(h: &Harness, secrets: &[&str]) {
    let mut urls = h.visited_urls().await;
    urls.push(h.current_url().await);
    let history = h.js("return String(window.history.length);").await;
    let storage = h
        .js("return JSON.stringify(Object.assign({}, localStorage));")
        .await;
    for secret in secrets {
        for url in &urls {
            assert!(!url.contains(secret), "a secret leaked into {url}");
        }
        assert!(
            !storage.as_str().unwrap_or_default().contains(secret),
            "a secret is in localStorage"
        );
    }
    assert!(history.as_str().is_some());
}

async fn package_names(h: &Harness) -> Vec<String> {
    h.find(".packages-table tbody tr").await;
    let mut names = Vec::new();
    for link in h.find_all(".packages-table tbody td:first-child a").await {
        names.push(link.text().await.unwrap_or_default());
    }
    names
}

#[tokio::test]
async fn key_and_secret_sign_in_shows_own_packages_only() {
    let h = Harness::start(&[]).await;
    h.goto("/packages").await;
    // Not signed in: the sign-in page, coming back here afterwards.
    wait_for_path(&h, |p| p == "/login?next=/packages", "the sign-in page").await;
    h.find("#login-key").await;
    h.type_into("#login-key", KEY).await;
    h.type_into("#login-secret", SECRET).await;
    h.submit_sign_in().await;
    wait_for_path(&h, |p| p == "/packages", "the package list").await;

    let names = package_names(&h).await;
    assert_eq!(names, ["Southampton Addresses", "Hampshire Topography"]);
    let rows = h.text(".packages-table tbody tr").await;
    assert!(
        rows.contains("AddressBase") && rows.contains("2021-01-20") && rows.contains("2022-02-02")
    );

    // The header says who is signed in (the key's start) and the token's time left.
    let badge = h.wait_for_text(".session-badge", "alpha-de…").await;
    assert!(!badge.contains(KEY), "the whole key is shown: {badge}");
    assert!(h.find_all(".session-time").await.len() == 1);

    // The other project's package: not listed, and its address answers not found.
    h.find(&format!("a[href='/packages/{PACKAGE}']"))
        .await
        .click()
        .await
        .unwrap();
    h.wait_for_text(".versions-table", "110012").await;
    h.find("a[href='/packages']").await.click().await.unwrap();
    h.find(".packages-table").await;
    let beta = format!("/packages/{BETA_PACKAGE}");
    h.driver
        .execute(
            &format!("history.pushState(null, '', '{beta}'); dispatchEvent(new PopStateEvent('popstate'));"),
            vec![],
        )
        .await
        .unwrap();
    h.wait_for_text(".error-panel", "Not found").await;

    // Sign-out forgets everything; the page asks to sign in again.
    h.find(".session-sign-out").await.click().await.unwrap();
    wait_for_path(
        &h,
        |p| p.starts_with("/login?next=/packages/"),
        "the sign-in page",
    )
    .await;
    assert_eq!(
        h.js("return sessionStorage.getItem('download-explorer.session');")
            .await,
        serde_json::Value::Null
    );
    assert_no_secrets(&h, &[SECRET, KEY]).await;
    assert_eq!(h.console_errors().await, Vec::<String>::new());
    h.stop().await;
}

#[tokio::test]
async fn a_wrong_secret_says_what_to_check() {
    let h = Harness::start(&[]).await;
    h.goto("/login").await;
    h.sign_in_with_secret(KEY, "not-the-secret").await;
    let message = h.wait_for_text(".form-error", "did not accept").await;
    assert!(
        message.contains("key") && message.contains("secret"),
        "{message}"
    );
    assert!(message.contains("swapped"), "{message}");
    assert_eq!(h.current_url().await, h.url("/login"));
    // The key field keeps what was typed, so the user can correct it.
    let kept = h
        .find("#login-key")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(kept, KEY);
    assert_no_secrets(&h, &["not-the-secret"]).await;

    // A key with the secret pasted into it is caught before sending.
    h.type_into("#login-key", &format!("{KEY}:{SECRET}")).await;
    h.submit_sign_in().await;
    h.wait_for_text(".form-error", "contains ':'").await;
    h.stop().await;
}

#[tokio::test]
async fn a_pasted_token_and_an_api_key_alone_both_sign_in_and_download() {
    let h = Harness::start(&[]).await;
    let token = fetch_token(&h, KEY, SECRET).await;
    h.goto(&format!("/login?next=/packages/{PACKAGE}")).await;
    sign_in_with_token(&h, &token).await;
    wait_for_path(&h, |p| p == format!("/packages/{PACKAGE}"), "the package").await;
    h.wait_for_text(".versions-table", "131866").await;
    h.wait_for_text(".session-badge", "Access token").await;
    h.goto(&format!("/packages/{PACKAGE}/versions/110012"))
        .await;
    // The token is kept for this tab by default: a full page load stays signed in.
    wait_for_path(&h, |p| p.ends_with("/versions/110012"), "the version").await;
    check_first_download(&h).await;
    assert_no_secrets(&h, &[&token]).await;

    h.find(".session-sign-out").await.click().await.unwrap();
    h.find(".login-form").await;
    h.choose_sign_in_method("API key only").await;
    h.type_into("#login-key", KEY).await;
    h.submit_sign_in().await;
    wait_for_path(&h, |p| p.ends_with("/versions/110012"), "the version").await;
    h.wait_for_text(".session-badge", "alpha-de…").await;
    assert!(
        h.find_all(".session-time").await.is_empty(),
        "an API key has no expiry"
    );
    check_first_download(&h).await;
    assert_no_secrets(&h, &[&token, KEY]).await;
    h.stop().await;
}

#[tokio::test]
async fn the_tab_keeps_the_token_not_the_secret_by_default() {
    let h = Harness::start(&[]).await;
    h.goto("/login").await;
    h.find(".login-form").await;
    h.type_into("#login-key", KEY).await;
    h.type_into("#login-secret", SECRET).await;
    assert!(
        h.find("#login-keep").await.is_selected().await.unwrap(),
        "kept by default"
    );
    h.submit_sign_in().await;
    wait_for_path(&h, |p| p == "/packages", "the package list").await;
    let stored = h
        .js("return sessionStorage.getItem('download-explorer.session') || '';")
        .await;
    let stored = stored.as_str().unwrap();
    assert!(stored.contains("token"), "{stored}");
    assert!(!stored.contains(SECRET) && !stored.contains(KEY));
    // A reload keeps the session on this tab.
    h.goto("/packages").await;
    assert_eq!(
        package_names(&h).await,
        ["Southampton Addresses", "Hampshire Topography"]
    );
    assert_no_secrets(&h, &[SECRET]).await;
    h.stop().await;
}

#[tokio::test]
async fn an_expired_token_asks_to_sign_in_again_and_returns_to_the_same_page() {
    let h = Harness::start(&["--token-ttl", "3"]).await;
    let start = format!("/packages/{PACKAGE}/versions/118429");
    h.goto(&format!("/login?next={start}")).await;
    h.find(".login-form").await;
    // Fetched once the app is up: the token only lives 3 s.
    let token = fetch_token(&h, KEY, SECRET).await;
    sign_in_with_token(&h, &token).await;
    wait_for_path(&h, |p| p == start, "the version").await;
    h.wait_for_text("h1", "Version 118429").await;

    // The token dies; with no secret to renew it, the next request sends the user
    // to sign in, keeping their place.
    tokio::time::sleep(Duration::from_millis(3_500)).await;
    h.find("a[rel='next']").await.click().await.unwrap();
    let newer = format!("/packages/{PACKAGE}/versions/124307");
    let login = wait_for_path(&h, |p| p.starts_with("/login?next="), "the sign-in page").await;
    assert_eq!(login, format!("/login?next={newer}"));
    h.wait_for_text(".session-notice", "Sign in again").await;

    let fresh = fetch_token(&h, KEY, SECRET).await;
    sign_in_with_token(&h, &fresh).await;
    wait_for_path(&h, |p| p == newer, "the page the user was on").await;
    h.wait_for_text("h1", "Version 124307").await;
    assert_no_secrets(&h, &[&token, &fresh]).await;
    h.stop().await;
}

#[tokio::test]
async fn a_pasted_token_answer_shows_its_time_left_and_ends_the_session_on_time() {
    let h = Harness::start(&["--token-ttl", "3"]).await;
    let page = format!("/packages/{PACKAGE}/versions/118429");
    h.goto(&format!("/login?next={page}")).await;
    h.find(".login-form").await;
    // The token endpoint's whole answer, pasted: the app knows when the token dies.
    let answer = reqwest::Client::new()
        .post(h.url("/oauth2/token/v1"))
        .basic_auth(KEY, Some(SECRET))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("grant_type=client_credentials")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    sign_in_with_token(&h, &answer).await;
    wait_for_path(&h, |p| p == page, "the version").await;
    let left = h.text(".session-time").await;
    assert!(left.ends_with(" s left"), "{left}");
    // Without any click, the app asks to sign in again when the token expires.
    let login = wait_for_path(&h, |p| p.starts_with("/login"), "the sign-in page").await;
    assert_eq!(login, format!("/login?next={page}"));
    h.wait_for_text(".session-notice", "expired").await;
    let token: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_no_secrets(&h, &[token["access_token"].as_str().unwrap()]).await;
    h.stop().await;
}

#[tokio::test]
async fn a_held_secret_renews_the_token_before_it_expires() {
    let h = Harness::start(&["--token-ttl", "3"]).await;
    h.goto(&format!("/login?next=/packages/{PACKAGE}/versions/118429"))
        .await;
    h.sign_in_with_secret(KEY, SECRET).await;
    h.wait_for_text("h1", "Version 118429").await;
    // Twice the token's lifetime later the session still works.
    tokio::time::sleep(Duration::from_secs(6)).await;
    h.find("a[rel='next']").await.click().await.unwrap();
    h.wait_for_text("h1", "Version 124307").await;
    assert!(h.current_url().await.ends_with("/versions/124307"));
    h.wait_for_text(".session-badge", "alpha-de…").await;
    assert_no_secrets(&h, &[SECRET]).await;
    h.stop().await;
}

#[tokio::test]
async fn latest_resolves_versions_link_up_and_compare() {
    let h = Harness::start(&[]).await;
    h.goto(&format!("/login?next=/packages/{PACKAGE}/versions/latest"))
        .await;
    h.sign_in_with_secret(KEY, SECRET).await;
    h.wait_for_text("h1", "Version 131866").await;
    assert_eq!(h.text(".resolved-id").await, "131866");
    assert!(h.current_url().await.ends_with("/versions/latest"));
    assert!(
        h.find_all("a[rel='next']").await.is_empty(),
        "latest has no newer version"
    );

    // Older, older, then newer again: the links the service gave, as app routes.
    h.find("a[rel='prev']").await.click().await.unwrap();
    h.wait_for_text("h1", "Version 124307").await;
    h.find("a[rel='prev']").await.click().await.unwrap();
    h.wait_for_text("h1", "Version 118429").await;
    h.find("a[rel='next']").await.click().await.unwrap();
    h.wait_for_text("h1", "Version 124307").await;
    assert!(
        h.current_url()
            .await
            .ends_with(&format!("/packages/{PACKAGE}/versions/124307"))
    );

    // Totals of the files table match the service's listing.
    let token = fetch_token(&h, KEY, SECRET).await;
    let version = api_version(&h, &token, "124307").await;
    let total = explorer_logic::Totals::of(version.downloads.iter().map(|d| d.size));
    let footer = h.text(".files-table tfoot").await;
    assert!(
        footer.contains(&format!("{} files", total.files)),
        "{footer}"
    );
    assert!(
        footer.contains(&explorer_logic::format_size(total.bytes)),
        "{footer}"
    );

    // Compare with the first version: SU51 was added since.
    let select = SelectElement::new(&h.find("#compare-select").await)
        .await
        .unwrap();
    select.select_by_value("110012").await.unwrap();
    wait_for_path(
        &h,
        |p| p.ends_with("/versions/124307?compare=110012"),
        "the comparison",
    )
    .await;
    let older = api_version(&h, &token, "110012").await;
    let expected =
        explorer_logic::versions::Comparison::between(&older.downloads, &version.downloads);
    let counts = h.wait_for_text(".compare-counts", "added").await;
    assert_eq!(
        counts,
        format!(
            "{} added, {} removed, {} changed, {} unchanged",
            expected.added.len(),
            expected.removed.len(),
            expected.changed.len(),
            expected.unchanged
        )
    );
    assert!(
        h.text(".compare-list.added")
            .await
            .contains("SU51_addresses.zip")
    );
    assert_no_secrets(&h, &[SECRET, &token]).await;
    assert_eq!(h.console_errors().await, Vec::<String>::new());
    h.stop().await;
}

#[tokio::test]
async fn the_browser_downloads_a_file_whose_md5_matches() {
    let h = Harness::start(&[]).await;
    let dir = tempfile::tempdir().expect("a download directory");
    h.driver
        .cdp()
        .send_raw(
            "Browser.setDownloadBehavior",
            serde_json::json!({ "behavior": "allow", "downloadPath": dir.path() }),
        )
        .await
        .expect("allow downloads");
    h.goto(&format!("/login?next=/packages/{PACKAGE}/versions/110012"))
        .await;
    h.sign_in_with_secret(KEY, SECRET).await;
    let link = h.find(".files-table .download-link").await;
    let name = link.text().await.unwrap();
    let row = h.find(".files-table tbody tr").await;
    let md5 = row
        .find(By::Css(".md5 code"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    link.click().await.unwrap();
    let file = dir.path().join(&name);
    let bytes = wait_for_file(&file).await;
    assert_eq!(hex_md5(&bytes), md5, "{name} differs from its md5");
    // The page stayed where it was: the download is the browser's, not a navigation.
    assert!(h.current_url().await.ends_with("/versions/110012"));

    // Two hours later the listed links have expired: a click asks the API (with auth,
    // `Accept: application/json`) for the file's direct address and downloads that.
    h.js("const now = Date.now; Date.now = () => now() + 2 * 3600 * 1000; return 0;")
        .await;
    let rows = h.find_all(".files-table tbody tr").await;
    let second = &rows[1];
    let link = second.find(By::Css(".download-link")).await.unwrap();
    let name = link.text().await.unwrap();
    let md5 = second
        .find(By::Css(".md5 code"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    link.click().await.unwrap();
    let bytes = wait_for_file(&dir.path().join(&name)).await;
    assert_eq!(hex_md5(&bytes), md5, "{name} differs from its md5");
    let fetched = h.visited_urls().await;
    assert!(
        fetched
            .iter()
            .any(|u| u.contains("/versions/110012/downloads?fileName=")
                && u.contains(&name)
                && !u.contains("signature")),
        "the app did not ask the API for a direct address: {fetched:?}"
    );
    assert_no_secrets(&h, &[SECRET]).await;
    h.stop().await;
}

/// The first listed file: its link works with no auth and its bytes match its md5.
async fn check_first_download(h: &Harness) {
    let link = h.find(".files-table .download-link").await;
    let href = link.attr("href").await.unwrap().expect("href");
    let row = h.find(".files-table tbody tr").await;
    let md5 = row
        .find(By::Css(".md5 code"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let response = reqwest::get(&href).await.expect("download");
    assert!(
        response.status().is_success(),
        "{href}: {}",
        response.status()
    );
    let bytes = response.bytes().await.unwrap();
    assert_eq!(hex_md5(&bytes), md5);
}

async fn api_version(h: &Harness, token: &str, id: &str) -> DataPackageVersion {
    reqwest::Client::new()
        .get(h.url(&format!(
            "/downloads/v1/dataPackages/{PACKAGE}/versions/{id}"
        )))
        .bearer_auth(token)
        .send()
        .await
        .expect("version request")
        .json()
        .await
        .expect("version json")
}

fn hex_md5(bytes: &[u8]) -> String {
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn wait_for_file(path: &Path) -> Vec<u8> {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        // Chromium writes `<name>.crdownload` first and renames it when complete.
        if let Ok(bytes) = std::fs::read(path) {
            return bytes;
        }
        assert!(
            Instant::now() < deadline,
            "{} was never downloaded",
            path.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
