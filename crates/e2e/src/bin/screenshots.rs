//! The README's screenshots, run by `cargo xtask screenshots`: the built app on the real
//! server with the demo catalogue, in headless Chromium at 1280×900, saved as
//! `gallery.png`, `product.png`, `login.png` and `version.png` in the directory given.
//!
//! ```sh
//! E2E_WEB_ROOT=dist cargo run -p e2e --bin screenshots -- docs/screenshots
//! ```

use std::path::{Path, PathBuf};

use download_api::ProductDownload;
use e2e::demo::{self, PACKAGE};
use e2e::{Harness, get_json};

/// The product page shown with two squares picked.
const PRODUCT: &str = "OpenMapLocal";
/// A demo data package of project Alpha, its newest version and an older one.
const VERSION: &str = "124307";
const OLDER: &str = "110012";

#[tokio::main]
async fn main() {
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .expect("usage: screenshots OUTPUT_DIR");
    std::fs::create_dir_all(&out)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", out.display()));

    let h = Harness::start(&[]).await;
    // Exactly 1280×900 of page, whatever the browser's own frame takes.
    h.driver
        .cdp()
        .send_raw(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await
        .expect("set the viewport");

    gallery(&h, &out).await;
    product(&h, &out).await;
    login_and_version(&h, &out).await;
    h.stop().await;
}

/// The gallery's first screenful, every visible thumbnail decoded.
async fn gallery(h: &Harness, out: &Path) {
    h.goto("/").await;
    h.find(".product-grid .product-card:not(.skeleton-card)")
        .await;
    h.wait_for_js(
        "!document.querySelector('.skeleton-card') && \
         [...document.querySelectorAll('.card-thumb img')] \
           .filter(i => i.getBoundingClientRect().top < innerHeight) \
           .every(i => i.complete && i.naturalWidth > 0)",
    )
    .await;
    save(h, out, "gallery").await;
}

/// A product page with SU and SZ picked, the picker right under the sticky header.
async fn product(h: &Harness, out: &Path) {
    let mut rows = 0;
    for area in ["SU", "SZ"] {
        let url = h.url(&format!(
            "/downloads/v1/products/{PRODUCT}/downloads?area={area}"
        ));
        let files: Vec<ProductDownload> = get_json(&url, None).await;
        rows += files.len();
    }
    h.goto(&format!("/products/{PRODUCT}?areas=SU,SZ")).await;
    h.wait_for_js(&format!(
        "document.querySelectorAll('.downloads-table tbody tr').length === {rows}"
    ))
    .await;
    h.js("const header = document.querySelector('.site-header'); \
          const picker = document.querySelector('#picker-heading'); \
          window.scrollTo(0, picker.getBoundingClientRect().top + scrollY - header.offsetHeight - 16); \
          return null;")
        .await;
    h.wait_for_js("[...document.images].every(i => i.complete)")
        .await;
    save(h, out, "product").await;
}

/// The sign-in form filled in with a demo key and secret; then, signed in, a version
/// compared with an older one.
async fn login_and_version(h: &Harness, out: &Path) {
    h.goto(&format!(
        "/login?next=/packages/{PACKAGE}/versions/{VERSION}"
    ))
    .await;
    h.type_into("#login-key", demo::KEY).await;
    h.type_into("#login-secret", demo::SECRET).await;
    save(h, out, "login").await;

    h.submit_sign_in().await;
    h.wait_for_js(&format!(
        "(document.querySelector('h1') || {{}}).textContent?.includes('Version {VERSION}')"
    ))
    .await;
    h.select("#compare-select", OLDER).await;
    h.wait_for_js(
        "(document.querySelector('.compare-counts') || {}).textContent?.includes('added')",
    )
    .await;
    h.js("document.querySelector('.compare-result').scrollIntoView({block: 'end'}); return null;")
        .await;
    save(h, out, "version").await;
}

async fn save(h: &Harness, out: &Path, name: &str) {
    let file = out.join(format!("{name}.png"));
    h.driver
        .screenshot(&file)
        .await
        .unwrap_or_else(|e| panic!("cannot save {}: {e}", file.display()));
    println!("saved {}", file.display());
}
