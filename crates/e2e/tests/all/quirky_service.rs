//! The app against a second implementation of the service with the real one's quirks
//! (see `e2e::quirky_service`), the app on a static host at another origin.

use e2e::quirky_service::{self, COAST, ISLANDS, KEY, PACKAGE, QuirkyService, SECRET, VERSION};
use e2e::{Harness, attribute, download, md5_hex, serve, static_host, web_root};

/// The quirky service, the app (built for the site root) on a static host whose
/// `config.json` names the service, and the browser on it.
async fn start(token_cors: bool) -> (Harness, QuirkyService) {
    let service = QuirkyService::start(token_cors).await;
    let host = serve(static_host::router(&web_root(), "", service.config())).await;
    let h = Harness::open(host.origin.clone(), vec![host]).await;
    (h, service)
}

#[tokio::test]
async fn partner_products_show_with_their_odd_areas_versions_and_redirected_pictures() {
    let (h, _service) = start(true).await;
    h.goto("/").await;
    h.wait_for_js(
        "document.querySelectorAll('.product-grid .product-card:not(.skeleton-card)').length === 2",
    )
    .await;
    let grid = h.text(".product-grid").await;
    assert!(grid.contains("Island Paths (partner data)"), "{grid}");
    assert!(grid.contains("UK Coastal Cells (partner data)"), "{grid}");
    // The thumbnail is a 307 to another origin, and decodes.
    h.wait_for_js(
        "[...document.querySelectorAll('.product-grid .card-thumb img')] \
           .some(i => i.complete && i.naturalWidth > 0)",
    )
    .await;
    // No imageCount: a placeholder, not a broken picture.
    assert_eq!(h.find_all(".product-grid .card-thumb img").await.len(), 1);
    h.find(".product-grid .thumb-placeholder").await;

    // A free-form version and an area off the grid are shown as they are.
    h.goto(&format!("/products/{COAST}")).await;
    h.wait_for_js("document.body.textContent.includes('Version 5')")
        .await;
    h.wait_for_js("document.body.textContent.includes('UK')")
        .await;
    h.stop_clean().await;
}

#[tokio::test]
async fn a_download_behind_a_redirect_to_storage_yields_the_listed_file() {
    let (h, _service) = start(true).await;
    h.goto(&format!("/products/{ISLANDS}?areas=GB")).await;
    h.wait_for_js("document.querySelectorAll('.downloads-table tbody tr').length === 1")
        .await;
    let row = h.find(".downloads-table tbody tr").await;
    let href = attribute(&row, "a[download]", "href").await;
    // Followed to the storage origin, as the browser does.
    let body = download(&href).await;
    assert_eq!(&body[..], quirky_service::file_bytes("islpth_gpkg_gb.zip"));
    let md5 = attribute(&row, "code.md5", "title").await;
    assert_eq!(md5_hex(&body), md5);
    h.stop_clean().await;
}

#[tokio::test]
async fn a_bearertoken_with_a_numeric_lifetime_signs_in_and_lists_packages() {
    let (h, _service) = start(true).await;
    h.sign_in_to("/packages", KEY, SECRET).await;
    // The service answers data packages only to `Authorization: Bearer <token>`.
    h.wait_for_js(
        "(document.querySelector('.packages-table') || {}).textContent?.includes('Partner Paths Package')",
    )
    .await;
    h.click(&format!("a[href='/packages/{PACKAGE}']")).await;
    h.click(&format!("a[href='/packages/{PACKAGE}/versions/{VERSION}']"))
        .await;
    h.wait_for_js(
        "(document.querySelector('.files-table') || {}).textContent?.includes('partner_paths_v7.zip')",
    )
    .await;
    h.wait_for_text(".session-badge", "partner-").await;
    h.stop_clean().await;
}

#[tokio::test]
async fn a_token_endpoint_without_cors_is_explained_and_the_api_key_still_works() {
    let (h, service) = start(false).await;
    h.sign_in_to("/packages", KEY, SECRET).await;
    let message = h.sign_in_error().await;
    // The message names the address, the likely cause and the ways that still work.
    for words in [
        service.token_url().as_str(),
        "CORS",
        "paste an access token",
        "API key only",
    ] {
        assert!(message.contains(words), "{words:?} not in {message}");
    }
    assert_eq!(h.js("return location.pathname;").await, "/login");

    // What needs no token endpoint still works: the API key alone.
    h.choose_sign_in_method("API key only").await;
    h.type_into("#login-key", KEY).await;
    h.submit_sign_in().await;
    h.wait_for_js(
        "(document.querySelector('.packages-table') || {}).textContent?.includes('Partner Paths Package')",
    )
    .await;
    h.stop_clean().await;
}
