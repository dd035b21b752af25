//! The release build split by route: a fresh load straight into any page works, at the
//! site root and under a static host's sub-path; the gallery loads no page's chunk,
//! going to a product loads the product page's; the page is never blank before the
//! code arrives, and the products request does not wait for the code: it is made
//! first.

use e2e::Harness;
use e2e::thirtyfour::Key;

const PRODUCT: &str = "OpenMapLocal";

/// Every kind of page, by an address of it and a selector only that page matches.
/// Signed out, a data-package page sends the browser to sign in (its chunk's code
/// does that), so the sign-in page shows.
const PAGES: [(&str, &str); 8] = [
    ("/", ".gallery .product-card:not(.skeleton-card)"),
    ("/products/OpenMapLocal", ".product-page h1"),
    ("/packages", ".login-page h1"),
    ("/packages/0040046952", ".login-page h1"),
    ("/packages/0040046952/versions/latest", ".login-page h1"),
    ("/login", ".login-page h1"),
    ("/settings", ".settings h1"),
    ("/no/such/page", "main:not([data-boot]) h1"),
];

/// The app's chunks the page has fetched so far (file names).
async fn chunks_fetched(h: &Harness) -> Vec<String> {
    let names = h
        .js("return performance.getEntriesByType('resource').map(e => e.name);")
        .await;
    serde_json::from_value::<Vec<String>>(names)
        .expect("resource names")
        .into_iter()
        .filter_map(|url| url.rsplit('/').next().map(str::to_owned))
        .filter(|name| name.ends_with(".wasm") && !name.starts_with("download-explorer-"))
        .collect()
}

/// Opens every page straight from its address, each in a fresh document, and checks
/// it shows with no console error and no loading line left.
async fn every_page_loads_straight_from_its_address(h: &Harness) {
    for (path, shown) in PAGES {
        h.goto(path).await;
        h.find(shown).await;
        h.wait_for_js("!document.querySelector('.page-loading:only-child')")
            .await;
        if path == "/no/such/page" {
            let heading = h
                .find("main:not([data-boot]) h1")
                .await
                .text()
                .await
                .expect("heading");
            assert_eq!(heading, "Page not found");
        }
        let errors = h.console_errors().await;
        assert!(errors.is_empty(), "{path}: console errors: {errors:?}");
    }
}

#[tokio::test]
async fn every_page_loads_straight_from_its_address_at_the_site_root() {
    let h = Harness::start(&[]).await;
    every_page_loads_straight_from_its_address(&h).await;
    h.stop().await;
}

#[tokio::test]
async fn every_page_loads_straight_from_its_address_under_a_sub_path() {
    let (h, _) = crate::static_host::start(&[]).await;
    every_page_loads_straight_from_its_address(&h).await;
    h.stop().await;
}

#[tokio::test]
async fn the_gallery_loads_no_page_chunk_and_a_product_loads_its_own() {
    let h = Harness::start_at("/").await;
    let card = h
        .find(&format!(".product-card a[href$='/products/{PRODUCT}']"))
        .await;
    let at_start = chunks_fetched(&h).await;
    assert!(
        at_start.is_empty(),
        "the gallery fetched chunks: {at_start:?}"
    );

    card.click().await.expect("click the product");
    h.find(".product-page h1").await;
    let after = chunks_fetched(&h).await;
    assert!(
        after
            .iter()
            .any(|name| name.starts_with("split_product_chunk")),
        "going to a product fetched {after:?}"
    );
    assert!(
        !after
            .iter()
            .any(|name| name.starts_with("split_account_chunk")
                || name.starts_with("split_data_package_chunk")),
        "going to a product fetched other pages' chunks: {after:?}"
    );
    let errors = h.console_errors().await;
    assert!(errors.is_empty(), "console errors: {errors:?}");
    h.stop().await;
}

#[tokio::test]
async fn the_html_shows_the_header_and_a_skeleton_before_the_code() {
    let h = Harness::start(&[]).await;
    let html = h.html("/").await;
    let body = &html[html.find("<body").expect("a body")..];
    for part in [
        r#"<header class="site-header" data-boot>"#,
        "Download Explorer",
        r#"<p class="boot-heading" data-cy="Cynhyrchion">Products</p>"#,
        "skeleton-card",
        "Loading products…",
    ] {
        assert!(body.contains(part), "index.html's body lacks {part:?}");
    }
    // A deep link gets the same page, which shows a loading line instead.
    assert!(body.contains("Loading the page…"));

    // In the browser, the app's header replaces the skeleton's: one header, one main.
    h.goto("/").await;
    h.find(".gallery .product-card:not(.skeleton-card)").await;
    assert_eq!(h.find_all("header.site-header").await.len(), 1);
    assert_eq!(h.find_all("main").await.len(), 1);
    assert!(h.find_all("[data-boot]").await.is_empty());
    h.stop().await;
}

/// The links of the first view's header: each one's path (its `href` from the site's
/// root) and label, in order.
fn boot_nav_links(body: &str) -> Vec<(String, String)> {
    let header = &body[body.find("data-boot>").expect("a first-view header")..];
    let nav = &header[header.find("<nav").expect("a nav")..header.find("</nav>").expect("its end")];
    nav.split("<a href=\"")
        .skip(1)
        .map(|link| {
            let href = &link[..link.find('"').expect("an href's end")];
            let label = &link[link.find('>').expect("a tag's end") + 1
                ..link.find("</a>").expect("a link's end")];
            (
                format!("/{}", href.trim_start_matches("./")),
                label.to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_first_view_header_is_the_apps_with_the_basket_count() {
    let h = Harness::start(&[]).await;
    let body = h.html("/").await;
    let boot = boot_nav_links(&body);
    // The basket holds one item in another tab: its count shows from the first frame.
    h.goto("/").await;
    h.js("localStorage.setItem('download-explorer.basket-count', '1')")
        .await;
    h.goto("/settings").await;
    h.find(".settings").await;
    let app: Vec<(String, String)> = serde_json::from_value(
        h.js("return [...document.querySelectorAll('header.site-header nav a')]
                .map(a => [new URL(a.getAttribute('href'), document.baseURI).pathname, a.textContent])")
            .await,
    )
    .unwrap();
    assert_eq!(
        boot, app,
        "the first view's header links differ from the app's"
    );
    let count = h
        .js("return getComputedStyle(document.querySelector('header.site-header nav a[href$=\"basket\"]'), '::after').content")
        .await;
    assert_eq!(count, "\" 1\"");
    h.stop().await;
}

#[tokio::test]
#[cfg_attr(
    not(engine = "chromium"),
    ignore = "a slow network is emulated through Chromium's DevTools protocol"
)]
async fn the_products_request_starts_before_the_code_has_arrived() {
    let h = Harness::start(&[]).await;
    // A slow network, as on a phone: on loopback the code would arrive at once.
    h.slow_4g().await;
    h.goto("/").await;
    h.find(".gallery .product-card:not(.skeleton-card)").await;
    let timings = h
        .js("const entries = performance.getEntriesByType('resource'); \
             const find = test => entries.filter(e => test(new URL(e.name).pathname)); \
             return { \
               products: find(p => p.endsWith('/downloads/v1/products')) \
                 .map(e => [e.startTime, e.responseEnd]), \
               wasm: find(p => p.endsWith('_bg.wasm')).map(e => [e.startTime, e.responseEnd]) };")
        .await;
    let products = timings["products"].as_array().expect("products entries");
    let wasm = timings["wasm"].as_array().expect("wasm entries");
    // Asked once: the app took the page's answer instead of asking again.
    assert_eq!(products.len(), 1, "{timings}");
    assert_eq!(wasm.len(), 1, "{timings}");
    let products_start = products[0][0].as_f64().expect("start");
    let wasm_start = wasm[0][0].as_f64().expect("start");
    // The names come first: the 200 kB of code is asked for after them.
    assert!(
        products_start < wasm_start,
        "the wasm was asked for at {wasm_start} ms, before the products at {products_start} ms"
    );
    h.stop().await;
}

/// The titles of the gallery's cards in view, first view or app.
const CARDS_IN_VIEW: &str = "return Array.from(document.querySelectorAll('.product-grid > li'))\
     .filter(card => card.offsetParent !== null)\
     .map(card => card.querySelector('.card-title').textContent.trim());";

/// On a slow network the code comes long after the page: a search typed before it
/// filters the first view's names at once, with the result line in the page's
/// language, and the app, once there, shows the same search and products and takes
/// the typing on where it was. The code is held back until the first view has shown
/// the search, and the demo catalogue has one product whose id is `OpenRoads`.
#[tokio::test]
async fn a_search_typed_before_the_code_arrives_filters_the_first_view_and_the_app_keeps_it() {
    for (language, one_of_all) in [("en", "1 of 18 products"), ("cy", "1 o 18 cynnyrch")] {
        let (h, gate) = crate::static_host::start_holding("_bg.wasm").await;
        h.goto(&format!("/?lang={language}")).await;
        let search = h.find("#boot-search:not([disabled])").await;
        search.send_keys("openROADS").await.unwrap();
        h.wait_for_text(".result-count", one_of_all).await;
        assert_eq!(
            h.js(CARDS_IN_VIEW).await,
            serde_json::json!(["OS Open Roads"])
        );
        // In the address, for the app to take over (and for a reload); Enter, as in
        // any search box, keeps it there rather than loading the page again without it.
        h.press(Key::Enter).await;
        h.wait_for_address(|address| address.contains("q=openROADS"))
            .await;
        assert_eq!(h.text(".result-count").await, one_of_all);
        assert!(
            !h.find_all("[data-boot]").await.is_empty(),
            "the app started before its code was let through"
        );

        gate.open();
        h.find(".gallery .product-card:not(.skeleton-card)").await;
        assert!(h.find_all("[data-boot]").await.is_empty());
        h.wait_for_focus("gallery-search").await;
        assert_eq!(
            h.find("#gallery-search").await.prop("value").await.unwrap(),
            Some("openROADS".to_owned())
        );
        assert_eq!(h.text(".result-count").await, one_of_all);
        assert_eq!(
            h.js(CARDS_IN_VIEW).await,
            serde_json::json!(["OS Open Roads"])
        );
        // Typing goes on in the app's search box: one more letter, no product.
        h.press("x").await;
        h.wait_for_address(|address| address.contains("q=openROADSx"))
            .await;
        h.wait_for_js("document.querySelectorAll('.product-grid > li').length === 0")
            .await;
        h.stop().await;
    }
}
