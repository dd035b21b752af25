//! Signing in and the data-package pages, in a real browser against the real server.
//!
//! Demo credentials: project Alpha (`alpha-demo-key` / `alpha-demo-secret`) owns
//! packages 0040046952 and 0040047411; project Beta owns 0040062213 and 0040071890.

use std::time::Duration;

use e2e::demo::{KEY, PACKAGE, SECRET};
use e2e::thirtyfour::prelude::*;
use e2e::{Harness, attribute, download, md5_hex};

const BETA_PACKAGE: &str = "0040062213";

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
    let h = Harness::start_at("/packages").await;
    // Not signed in: the sign-in page, coming back here afterwards.
    h.wait_for_path("/login?next=/packages").await;
    h.find("#login-key").await;
    h.type_into("#login-key", KEY).await;
    h.type_into("#login-secret", SECRET).await;
    h.submit_sign_in().await;
    h.wait_for_path("/packages").await;

    let names = package_names(&h).await;
    assert_eq!(names, ["Southampton Addresses", "Hampshire Topography"]);
    let rows = h.text(".packages-table tbody tr").await;
    assert!(
        rows.contains("AddressBase")
            && rows.contains("20 January 2021")
            && rows.contains("2 February 2022")
    );

    // The header says who is signed in (the key's start) and the token's time left.
    let badge = h.wait_for_text(".session-badge", "alpha-de…").await;
    assert!(!badge.contains(KEY), "the whole key is shown: {badge}");
    assert!(h.find_all(".session-time").await.len() == 1);

    // The other project's package: not listed, and its address answers not found.
    h.click(&format!("a[href='/packages/{PACKAGE}']")).await;
    h.wait_for_text(".versions-table", "110012").await;
    h.click("a[href='/packages']").await;
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
    h.click(".session-sign-out").await;
    h.wait_for_address(|address| address.starts_with("/login?next=/packages/"))
        .await;
    assert_eq!(
        h.js("return sessionStorage.getItem('download-explorer.session');")
            .await,
        serde_json::Value::Null
    );
    h.assert_no_secrets(&[SECRET, KEY]).await;
    h.stop_clean().await;
}

#[tokio::test]
async fn a_wrong_secret_says_what_to_check() {
    let h = Harness::start_at("/login").await;
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
    h.assert_no_secrets(&["not-the-secret"]).await;

    // A key with the secret pasted into it is caught before sending.
    h.type_into("#login-key", &format!("{KEY}:{SECRET}")).await;
    h.submit_sign_in().await;
    h.wait_for_text(".form-error", "contains ':'").await;
    h.stop().await;
}

#[tokio::test]
async fn a_pasted_token_and_an_api_key_alone_both_sign_in_and_download() {
    let h = Harness::start(&[]).await;
    let token = h.fetch_token(KEY, SECRET).await;
    h.goto(&format!("/login?next=/packages/{PACKAGE}")).await;
    h.sign_in_with_token(&token).await;
    h.wait_for_path(&format!("/packages/{PACKAGE}")).await;
    h.wait_for_text(".versions-table", "131866").await;
    h.wait_for_text(".session-badge", "Access token").await;
    h.goto(&format!("/packages/{PACKAGE}/versions/110012"))
        .await;
    // The token is kept for this tab by default: a full page load stays signed in.
    h.wait_for_address(|address| address.ends_with("/versions/110012"))
        .await;
    check_first_download(&h).await;
    h.assert_no_secrets(&[&token]).await;

    h.click(".session-sign-out").await;
    h.find(".login-form").await;
    h.choose_sign_in_method("API key only").await;
    h.type_into("#login-key", KEY).await;
    h.submit_sign_in().await;
    h.wait_for_address(|address| address.ends_with("/versions/110012"))
        .await;
    h.wait_for_text(".session-badge", "alpha-de…").await;
    assert!(
        h.find_all(".session-time").await.is_empty(),
        "an API key has no expiry"
    );
    check_first_download(&h).await;
    h.assert_no_secrets(&[&token, KEY]).await;
    h.stop().await;
}

#[tokio::test]
async fn latest_resolves_versions_link_up_and_compare() {
    let h = Harness::start_signed_in_at(&format!("/packages/{PACKAGE}/versions/latest")).await;
    h.wait_for_text("h1", "Version 131866").await;
    assert_eq!(h.text(".resolved-id").await, "131866");
    assert!(h.current_url().await.ends_with("/versions/latest"));
    assert!(
        h.find_all("a[rel='next']").await.is_empty(),
        "latest has no newer version"
    );

    // Older, older, then newer again: the links the service gave, as app routes.
    h.click("a[rel='prev']").await;
    h.wait_for_text("h1", "Version 124307").await;
    h.click("a[rel='prev']").await;
    h.wait_for_text("h1", "Version 118429").await;
    h.click("a[rel='next']").await;
    h.wait_for_text("h1", "Version 124307").await;
    assert!(
        h.current_url()
            .await
            .ends_with(&format!("/packages/{PACKAGE}/versions/124307"))
    );

    // Totals of the files table: 3,301 + 2,880 + 3,215 + 2,994 bytes.
    let footer = h.wait_for_text(".files-table tfoot", "4 files").await;
    assert!(footer.contains("12.4 kB"), "{footer}");

    // Compare with the first version: SU51 was added since, SU41 and SU42 changed
    // size, SU31 is the same.
    h.select("#compare-select", "110012").await;
    h.wait_for_address(|address| address.ends_with("/versions/124307?compare=110012"))
        .await;
    let counts = h.wait_for_text(".compare-counts", "added").await;
    assert_eq!(counts, "1 added, 0 removed, 2 changed, 1 unchanged");
    assert!(
        h.text(".compare-list.added")
            .await
            .contains("SU51_addresses.zip")
    );
    h.assert_no_secrets(&[SECRET]).await;
    h.stop_clean().await;
}

#[tokio::test]
async fn the_browser_downloads_a_file_whose_md5_matches() {
    let h = Harness::start_signed_in_at(&format!("/packages/{PACKAGE}/versions/110012")).await;
    let row = h.find(".files-table tbody tr").await;
    browser_download(&h, &row).await;
    // The page stayed where it was: the download is the browser's, not a navigation.
    assert!(h.current_url().await.ends_with("/versions/110012"));

    // Two hours later the listed links have expired: a click asks the API (with auth,
    // `Accept: application/json`) for the file's direct address and downloads that.
    // `window.Date`: Firefox runs a test's script with globals of its own.
    h.js("const now = window.Date.now; window.Date.now = () => now() + 2 * 3600 * 1000; return 0;")
        .await;
    let rows = h.find_all(".files-table tbody tr").await;
    let name = browser_download(&h, &rows[1]).await;
    let fetched = h.visited_urls().await;
    assert!(
        fetched
            .iter()
            .any(|u| u.contains("/versions/110012/downloads?fileName=")
                && u.contains(&name)
                && !u.contains("signature")),
        "the app did not ask the API for a direct address: {fetched:?}"
    );
    h.assert_no_secrets(&[SECRET]).await;
    h.stop().await;
}

/// The md5 a row of the files table shows.
async fn md5_of(row: &WebElement) -> String {
    let md5 = row.find(By::Css(".md5 code")).await.expect("an md5");
    md5.text().await.expect("the md5's text")
}

/// The first listed file: its link works with no auth and its bytes match its md5.
async fn check_first_download(h: &Harness) {
    let row = h.find(".files-table tbody tr").await;
    let href = attribute(&row, ".download-link", "href").await;
    assert_eq!(md5_hex(&download(&href).await), md5_of(&row).await);
}

/// Clicks the download link of `row` (of the files table) and checks that the file the
/// browser saves into `dir` has the md5 the row shows; returns the file's name.
async fn browser_download(h: &Harness, row: &WebElement) -> String {
    let link = row.find(By::Css(".download-link")).await.expect("a link");
    let name = link.text().await.expect("the link's text");
    let md5 = md5_of(row).await;
    link.click().await.expect("click the link");
    h.wait_for_whole_download(&name, Duration::from_secs(15), |bytes| {
        match md5_hex(bytes) == md5 {
            true => Ok(()),
            false => Err(format!(
                "{name} ({} bytes) differs from its md5 {md5}",
                bytes.len()
            )),
        }
    })
    .await;
    name
}
