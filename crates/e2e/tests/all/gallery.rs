//! The gallery (`/`): every product with its thumbnail, search and filters kept in the
//! address, and the settings page pointing the app at another service and back.

use download_api::Product;
use e2e::thirtyfour::prelude::*;
use e2e::{Harness, get_json};

/// The demo catalogue's products by name (A–Z, case ignored), as the gallery first
/// lists them.
const BY_NAME: [&str; 18] = [
    "250kScaleColourRaster", // 1:250 000 Scale Colour Raster
    "BoundaryLine",
    "CodePointOpen",
    "GBOverviewMaps",
    "MiniScale",
    "BuiltUpAreas", // OS Open Built Up Areas
    "OpenGreenspace",
    "OpenMapLocal", // OS Open Map - Local
    "OpenNames",
    "OpenRivers",
    "OpenRoads",
    "OpenTOID",
    "OpenUPRN",
    "OpenUSRN",
    "OpenZoomstack",
    "Terrain50", // OS Terrain 50
    "VectorMapDistrict",
    "PartnerUKCoastline", // UK Coastal Cells (partner data)
];

/// The catalogue as the server lists it, straight from its JSON.
async fn server_products(h: &Harness) -> Vec<Product> {
    get_json(&h.url("/downloads/v1/products?expanded"), None).await
}

/// The product ids of the cards, in page order, once there are `count` of them.
async fn card_ids(h: &Harness, count: usize) -> Vec<String> {
    h.wait_for_js(&format!(
        "document.querySelectorAll('.product-grid .product-card:not(.skeleton-card)').length === {count}"
    ))
    .await;
    let ids = h
        .js(
            "return [...document.querySelectorAll('.product-grid .card-title a')]
                .map(a => decodeURIComponent(a.getAttribute('href').replace('/products/', '')));",
        )
        .await;
    serde_json::from_value(ids).expect("card ids")
}

/// The app on the gallery, once it lists every product.
async fn open_gallery() -> Harness {
    let h = Harness::start_at("/").await;
    card_ids(&h, BY_NAME.len()).await;
    h
}

/// What the app keeps in localStorage for the service address (null when nothing).
async fn saved_address(h: &Harness) -> serde_json::Value {
    h.js("return localStorage.getItem('download-explorer.service');")
        .await
}

async fn result_line(h: &Harness) -> String {
    h.find(".result-count")
        .await
        .text()
        .await
        .expect("result line")
}

/// Selects all of an input's text and types `text` over it, as a user would.
async fn retype(input: &WebElement, text: &str) {
    input.click().await.expect("focus");
    input
        .send_keys(Key::Control + "a")
        .await
        .expect("select all");
    input.send_keys(Key::Backspace).await.expect("delete");
    input.send_keys(text).await.expect("type");
}

#[tokio::test]
async fn gallery_shows_every_product_with_its_thumbnail_decoded() {
    let h = Harness::start(&[]).await;
    let products = server_products(&h).await;
    assert_eq!(products.len(), BY_NAME.len(), "the demo catalogue");
    // Layout shifts are recorded from the first paint, skeletons included.
    h.preload("layoutShift", serde_json::json!(true)).await;
    h.goto("/").await;

    let shown = card_ids(&h, products.len()).await;
    assert_eq!(shown, BY_NAME, "every product, by name");
    assert_eq!(
        result_line(&h).await,
        format!("{} products", products.len())
    );

    // Each card's image is lazy: bring it into view, then it must really decode.
    let cards = h
        .find_all(".product-grid .product-card:not(.skeleton-card)")
        .await;
    let with_images = products.iter().filter(|p| p.image_count.unwrap_or(0) > 0);
    assert_eq!(
        h.find_all(".product-grid .card-thumb img").await.len(),
        with_images.count()
    );
    for (card, id) in cards.iter().zip(&shown) {
        card.scroll_into_view().await.expect("scroll to card");
        let Ok(image) = card.find(By::Css(".card-thumb img")).await else {
            card.find(By::Css(".thumb-placeholder"))
                .await
                .unwrap_or_else(|_| panic!("{id}: neither an image nor a placeholder"));
            continue;
        };
        assert_eq!(
            image.attr("loading").await.unwrap().as_deref(),
            Some("lazy")
        );
        let alt = image.attr("alt").await.unwrap().unwrap_or_default();
        assert!(alt.contains(&products.iter().find(|p| &p.id == id).unwrap().name));
        let src = image.attr("src").await.unwrap().unwrap_or_default();
        assert!(
            src.ends_with(&format!("/downloads/v1/products/{id}/images/0")),
            "{src}"
        );
        h.wait_for_js(&format!(
            "(() => {{ const img = [...document.querySelectorAll('.product-grid .card-thumb img')]
                 .find(i => i.closest('.product-card').querySelector('.card-title a')
                     .getAttribute('href') === '/products/{id}');
               return img.complete && img.naturalWidth > 0; }})()"
        ))
        .await;
    }

    // Every card has the same height, and nothing jumped while images arrived.
    let heights = h
        .js("return [...document.querySelectorAll('.product-grid .product-card:not(.skeleton-card)')]
                .map(c => Math.round(c.getBoundingClientRect().height));")
        .await;
    let heights: Vec<i64> = serde_json::from_value(heights).unwrap();
    assert!(heights.windows(2).all(|w| w[0] == w[1]), "{heights:?}");
    // Only Chromium reports layout shifts (the Layout Instability API).
    if h.engine == e2e::Engine::Chromium {
        let shift = h.js("return window.__shift;").await.as_f64().unwrap();
        assert!(shift < 0.01, "cumulative layout shift {shift}");
    }

    // A card leads to its product page.
    h.js("window.scrollTo(0, 0);").await;
    h.click(".product-grid .card-title a").await;
    h.wait_for_js(&format!("location.pathname === '/products/{}'", BY_NAME[0]))
        .await;
    h.stop_clean().await;
}

#[tokio::test]
async fn search_narrows_the_list_and_survives_a_reload() {
    let h = open_gallery().await;
    let history_before = h.js("return history.length;").await;

    let search = h.find("#gallery-search").await;
    search.send_keys("ROAD").await.unwrap();
    // "road" in the id, name or description, whatever its case.
    let expected = [
        "250kScaleColourRaster",
        "MiniScale",
        "OpenMapLocal",
        "OpenNames",
        "OpenRoads",
    ];
    assert_eq!(card_ids(&h, expected.len()).await, expected);
    assert_eq!(
        result_line(&h).await,
        format!("{} of {} products", expected.len(), BY_NAME.len())
    );
    assert!(h.current_url().await.ends_with("/?q=ROAD"));
    // Typing replaces the address: no history entry per keystroke.
    assert_eq!(h.js("return history.length;").await, history_before);

    h.driver.refresh().await.unwrap();
    assert_eq!(card_ids(&h, expected.len()).await, expected);
    let typed = h.find("#gallery-search").await.prop("value").await.unwrap();
    assert_eq!(typed.as_deref(), Some("ROAD"));
    h.stop_clean().await;
}

#[tokio::test]
async fn filters_and_sort_narrow_and_order_the_list_and_clear_restores_it() {
    let h = open_gallery().await;

    h.select("#filter-category", "Mapping").await;
    h.select("#gallery-sort", "newest").await;
    // Versions 2026-04, 2026-01 (two, by name), 2025-12, 2025-11, 2025-06, 2023-01.
    let expected = [
        "OpenMapLocal",
        "MiniScale",
        "OpenTOID",
        "OpenZoomstack",
        "VectorMapDistrict",
        "250kScaleColourRaster",
        "GBOverviewMaps",
    ];
    assert_eq!(card_ids(&h, expected.len()).await, expected);
    assert!(
        h.current_url()
            .await
            .ends_with("/?category=Mapping&sort=newest")
    );

    // An area filter from a shared link: grid squares include Great Britain-wide data.
    h.goto("/?area=SU&format=GeoPackage").await;
    // All cover SU (GB-wide data does); all but the three raster maps have GeoPackage.
    let expected: Vec<&str> = BY_NAME
        .into_iter()
        .filter(|id| !["250kScaleColourRaster", "GBOverviewMaps", "MiniScale"].contains(id))
        .collect();
    assert_eq!(card_ids(&h, expected.len()).await, expected);

    // Nothing matches: the empty state offers a way out.
    h.goto("/?q=no-such-product-anywhere&sort=newest").await;
    let empty = h.find(".empty-state").await;
    assert!(empty.text().await.unwrap().contains("No products match"));
    empty
        .find(By::Css("button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    card_ids(&h, BY_NAME.len()).await;
    assert!(h.current_url().await.ends_with("/?sort=newest"));
    assert_eq!(
        h.find("#gallery-search")
            .await
            .prop("value")
            .await
            .unwrap()
            .as_deref(),
        Some("")
    );
    h.stop_clean().await;
}

#[tokio::test]
async fn settings_point_the_app_elsewhere_and_reset_brings_the_catalogue_back() {
    let h = Harness::start_at("/settings").await;
    h.find(".connection-status.ok").await;
    let api_base = h.find("#settings-api-base").await;
    assert_eq!(
        api_base.prop("value").await.unwrap(),
        Some(format!("{}/downloads/v1", h.base))
    );

    // A typo is caught before anything is saved.
    retype(&api_base, "localhost:8080/downloads/v1").await;
    h.click("form.settings-form button[type=submit]").await;
    let error = h
        .find("#settings-api-base-error")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(error, "Start the address with http:// or https://.");
    assert_eq!(
        api_base.attr("aria-invalid").await.unwrap().as_deref(),
        Some("true")
    );
    assert_eq!(saved_address(&h).await, serde_json::Value::Null);

    // A well-formed address where nothing listens.
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let wrong = format!("http://127.0.0.1:{closed_port}/downloads/v1");
    retype(&api_base, &wrong).await;
    h.click("form.settings-form button[type=submit]").await;
    h.find(".connection .error-panel").await;

    // The gallery says so in words, with a way to try again, even after a reload.
    h.click(".site-header a[href='/']").await;
    let panel = h.find(".gallery .error-panel").await;
    let message = panel.text().await.unwrap();
    assert!(
        message.contains(&format!("Could not read an answer from {wrong}/products")),
        "{message}"
    );
    panel.find(By::Css("button")).await.unwrap();
    h.driver.refresh().await.unwrap();
    h.find(".gallery .error-panel").await;
    assert!(
        h.find_all(".product-grid .product-card:not(.skeleton-card)")
            .await
            .is_empty()
    );

    // Reset: the default address again, and the whole catalogue.
    h.goto("/settings").await;
    h.click("form.settings-form button.secondary").await;
    h.wait_for_js(&format!(
        "document.querySelector('#settings-api-base').value === '{}/downloads/v1'",
        h.base
    ))
    .await;
    h.find(".connection-status.ok").await;
    h.click(".site-header a[href='/']").await;
    card_ids(&h, BY_NAME.len()).await;
    assert_eq!(saved_address(&h).await, serde_json::Value::Null);
    h.stop().await;
}
