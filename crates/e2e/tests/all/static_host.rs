//! The app built for `/explorer/` on a static host (files as they are, unknown paths
//! answered with `404.html` and status 404, no rewrites), with our server on another
//! origin as its service, named in the deployer's `config.json`.

use download_api::{Product, ProductDownload};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Json;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;

use e2e::demo::{KEY, PACKAGE, SECRET};
use e2e::{Harness, Served, explorer_web_root, get_json, our_server, serve, static_host};
use serde_json::json;

const PREFIX: &str = "/explorer";
const PRODUCT: &str = "OpenMapLocal";

/// The static host with the `/explorer/` build and our server as the service, and the
/// browser on `…/explorer`. Returns the service too, for the test's own requests.
pub(crate) async fn start(server_args: &[&str]) -> (Harness, String) {
    start_serving(&explorer_web_root(), server_args).await
}

/// [`start`], the host serving the files of `root` (a copy of the `/explorer/` build).
pub(crate) async fn start_serving(root: &Path, server_args: &[&str]) -> (Harness, String) {
    start_hosting(root, server_args, |host| host).await
}

/// [`start_serving`], the host's router made by `host` from the plain one (a test's
/// layer over it).
pub(crate) async fn start_hosting(
    root: &Path,
    server_args: &[&str],
    host: impl FnOnce(axum::Router) -> axum::Router,
) -> (Harness, String) {
    let service = our_server(server_args).await;
    let api = service.origin.clone();
    let config = json!({
        "apiBase": format!("{api}/downloads/v1"),
        "tokenUrl": format!("{api}/oauth2/token/v1"),
    });
    let host = serve(host(static_host::router(root, PREFIX, config))).await;
    let base = format!("{}{PREFIX}", host.origin);
    let servers: Vec<Served> = vec![host, service];
    (Harness::open(base, servers).await, api)
}

/// A gate a test holds closed until it opens it, letting requests through.
pub(crate) struct Gate(Arc<tokio::sync::Semaphore>);

impl Gate {
    /// Lets every request it held, and every later one, through.
    pub(crate) fn open(&self) {
        self.0.add_permits(tokio::sync::Semaphore::MAX_PERMITS / 2);
    }
}

/// [`start`], the host holding back every request whose path ends with `held` (as a slow
/// link would) until the test opens the [`Gate`].
pub(crate) async fn start_holding(held: &'static str) -> (Harness, Gate) {
    let gate = Arc::new(tokio::sync::Semaphore::new(0));
    let closed = Arc::clone(&gate);
    let (h, _) = start_hosting(&explorer_web_root(), &[], |host| {
        host.layer(middleware::from_fn(move |request: Request, next: Next| {
            let closed = Arc::clone(&closed);
            async move {
                if request.uri().path().ends_with(held) {
                    let _open = closed.acquire().await;
                }
                next.run(request).await
            }
        }))
    })
    .await;
    (h, Gate(gate))
}

#[tokio::test]
async fn the_host_answers_as_static_hosts_do() {
    let (h, _) = start(&[]).await;
    let status = |path: &str| {
        let url = h.url(path);
        async move { reqwest::get(&url).await.expect("GET").status().as_u16() }
    };
    assert_eq!(status("/").await, 200);
    assert_eq!(status("/config.json").await, 200);
    assert_eq!(status("/products/OpenMapLocal").await, 404);
    assert_eq!(status("/404.html").await, 200);
    // The 404 page is the app itself, so it boots at any address.
    let page = reqwest::get(h.url("/no/such/page")).await.unwrap();
    let index = reqwest::get(h.url("/index.html")).await.unwrap();
    assert_eq!(page.text().await.unwrap(), index.text().await.unwrap());
    h.stop().await;
}

#[tokio::test]
async fn the_gallery_lists_the_service_s_products_under_the_sub_path() {
    let (h, api) = start(&[]).await;
    let products: Vec<Product> =
        get_json(&format!("{api}/downloads/v1/products?expanded"), None).await;
    h.goto("/").await;
    h.wait_for_js(&format!(
        "document.querySelectorAll('.product-grid .product-card:not(.skeleton-card)').length === {}",
        products.len()
    ))
    .await;
    // Links stay inside the sub-path.
    // The attribute as written (WebKit's driver answers the resolved address).
    let link = h
        .js("return document.querySelector('.product-grid .card-title a').getAttribute('href');")
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(link.starts_with(&format!("{PREFIX}/products/")), "{link}");
    h.click(".product-grid .card-title a").await;
    h.wait_for_js(&format!(
        "location.pathname.startsWith('{PREFIX}/products/')"
    ))
    .await;
    h.find("#format-select").await;
    h.stop_clean().await;
}

/// A host whose origin answers products of its own (another service, or an old one
/// left running), with `config.json` naming our server, which it answers late:
/// index.html's script asks the origin for the products while config.json is on its
/// way (most deployments name no other service), and must drop that answer.
#[tokio::test]
async fn config_json_naming_another_service_wins_over_the_origin_s_own_products() {
    const DECOY: &str = "Not the deployer's:";
    let service = our_server(&[]).await;
    let api = service.origin.clone();
    let products: Vec<serde_json::Value> =
        get_json(&format!("{api}/downloads/v1/products?expanded"), None).await;
    let decoys: Vec<serde_json::Value> = products
        .iter()
        .map(|product| {
            let mut decoy = product.clone();
            decoy["name"] = json!(format!("{DECOY} {}", product["name"].as_str().unwrap()));
            decoy
        })
        .collect();
    let asked = Arc::new(AtomicUsize::new(0));
    let counted = asked.clone();
    let config = json!({
        "apiBase": format!("{api}/downloads/v1"),
        "tokenUrl": format!("{api}/oauth2/token/v1"),
    });
    let host = static_host::router(&explorer_web_root(), PREFIX, config)
        .route(
            "/downloads/v1/products",
            get(move || {
                counted.fetch_add(1, Ordering::SeqCst);
                async move { Json(decoys) }
            }),
        )
        .layer(middleware::from_fn(late_config));
    let host = serve(host).await;
    let h = Harness::open(format!("{}{PREFIX}", host.origin), vec![host, service]).await;
    h.preload("sawText", json!(DECOY)).await;

    h.goto("/").await;
    h.wait_for_js(&format!(
        "document.querySelectorAll('.product-grid .product-card:not(.skeleton-card)').length === {}",
        products.len()
    ))
    .await;
    let grid = h.text(".product-grid").await;
    for product in &products {
        let name = product["name"].as_str().unwrap();
        assert!(grid.contains(name), "{name} missing from {grid}");
    }
    // Not even the first view's names, written before the app's code arrives.
    assert_eq!(h.js("return window.__sawText;").await, json!(false));
    // The case this test is for: the origin was asked first.
    assert!(
        asked.load(Ordering::SeqCst) > 0,
        "the origin was never asked"
    );
    h.stop_clean().await;
}

/// Answers `config.json` after the rest, as a slow host would.
async fn late_config(request: Request, next: Next) -> Response {
    if request.uri().path().ends_with("/config.json") {
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    next.run(request).await
}

#[tokio::test]
async fn a_deep_link_to_a_product_with_a_selection_survives_a_reload() {
    let (h, api) = start(&[]).await;
    let mut expected = BTreeSet::new();
    for area in ["SU", "SZ"] {
        let url = format!("{api}/downloads/v1/products/{PRODUCT}/downloads?area={area}");
        let files: Vec<ProductDownload> = get_json(&url, None).await;
        expected.extend(
            files
                .into_iter()
                .map(|d| (d.file.file_name, d.file.size.unwrap())),
        );
    }

    // The host answers 404 with the app, which opens the page the address names.
    h.goto(&format!("/products/{PRODUCT}?areas=SU,SZ")).await;
    assert_eq!(h.downloads_table(expected.len()).await, expected);
    h.driver.refresh().await.unwrap();
    assert_eq!(h.downloads_table(expected.len()).await, expected);
    assert_eq!(
        h.js("return location.pathname + location.search;").await,
        json!(format!("{PREFIX}/products/{PRODUCT}?areas=SU,SZ"))
    );
    h.stop_clean().await;
}

#[tokio::test]
async fn a_version_page_after_sign_in_survives_a_reload() {
    let (h, _) = start(&[]).await;
    let version = format!("/packages/{PACKAGE}/versions/124307");
    h.sign_in_to(&version, KEY, SECRET).await;
    let heading = "(document.querySelector('h1') || {}).textContent?.includes('Version 124307')";
    h.wait_for_js(heading).await;
    assert_eq!(
        h.js("return location.pathname;").await,
        json!(format!("{PREFIX}{version}"))
    );

    h.driver.refresh().await.unwrap();
    h.wait_for_js(heading).await;
    h.find(".files-table tbody tr").await;
    assert_eq!(
        h.js("return location.pathname;").await,
        json!(format!("{PREFIX}{version}"))
    );
    h.stop_clean().await;
}
