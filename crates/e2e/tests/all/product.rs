//! The product page: the area-grid picker by click, keyboard, typed codes, place and
//! grid reference; the merged downloads table from one request however many squares
//! are picked, kept in the address; checksums of real downloads; images; the loading,
//! failed and missing states; products with GB only; readable map text.

use std::collections::BTreeSet;

use download_api::ProductDownload;
use e2e::thirtyfour::prelude::*;
use e2e::{Harness, attribute, axe, download, get_json, md5_hex};

const PRODUCT: &str = "OpenMapLocal";
/// Twenty squares of England and Wales.
const TWENTY_SQUARES: &str = "SD,SE,SH,SJ,SK,SM,SN,SO,SP,SS,ST,SU,SV,SW,SX,SY,SZ,TA,TF,TG";

/// Holds the page's requests whose URL contains `part` (from the next page on, and in
/// this one) until `window.__release()`: the harness's fetch control, in every engine.
async fn hold_requests(h: &Harness, part: &str) {
    h.preload("fetch", serde_json::json!({ "hold": part }))
        .await;
}

/// Makes the page's requests whose URL contains `part` answer `text` (as JSON).
async fn answer_requests(h: &Harness, part: &str, text: &str) {
    h.preload(
        "fetch",
        serde_json::json!({ "answerMatching": part, "answerText": text }),
    )
    .await;
}

/// Fails (or, with no patterns, lets through) the page's requests to URLs matching
/// `patterns` (`*` for any text), as a lost connection does.
async fn block_urls(h: &Harness, patterns: &[&str]) {
    h.preload("fetch", serde_json::json!({ "fail": patterns }))
        .await;
}

/// Waits until the square `code` is picked or, with `picked` false, not.
async fn wait_for_pick(h: &Harness, code: &str, picked: bool) {
    h.wait_for_js(&format!(
        "document.querySelector('#square-{code}').getAttribute('aria-selected') === '{picked}'"
    ))
    .await;
}

/// What the server lists for `product` with the query `query` (`area=SU`, or "" for
/// the whole list), straight from its JSON.
async fn server_files(h: &Harness, product: &str, query: &str) -> Vec<ProductDownload> {
    let url = h.url(&format!(
        "/downloads/v1/products/{product}/downloads?{query}"
    ));
    get_json(&url, None).await
}

/// (file name, size) of every file in `lists`.
fn files_of(lists: &[Vec<ProductDownload>]) -> BTreeSet<(String, u64)> {
    lists
        .iter()
        .flatten()
        .map(|d| {
            (
                d.file.file_name.clone(),
                d.file.size.expect("demo files have sizes"),
            )
        })
        .collect()
}

/// How many of the product's files are in `squares`.
async fn files_in(h: &Harness, squares: &[&str]) -> usize {
    server_files(h, PRODUCT, "")
        .await
        .iter()
        .filter(|d| squares.contains(&d.area.code()))
        .count()
}

/// The file names the table lists, once it lists `count` rows.
async fn table_files(h: &Harness, count: usize) -> BTreeSet<String> {
    h.downloads_table(count)
        .await
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// How many requests the page has made to URLs containing `part`.
async fn requests_to(h: &Harness, part: &str) -> u64 {
    h.js(&format!(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('{part}')).length;"
    ))
    .await
    .as_u64()
    .expect("a count")
}

#[tokio::test]
async fn squares_picked_by_click_and_keyboard_list_what_the_server_lists() {
    let h = Harness::start_at(&format!("/products/{PRODUCT}")).await;

    // Click SU, then move south with the arrow key and pick SZ with Space.
    h.click("#square-SU").await;
    assert!(h.square_is_selected("SU").await);
    h.wait_for_focus("square-SU").await;
    h.press(Key::Down).await;
    h.wait_for_focus("square-SZ").await;
    assert_eq!(
        h.find("#square-SZ")
            .await
            .attr("tabindex")
            .await
            .unwrap()
            .as_deref(),
        Some("0"),
        "roving tabindex follows the focus"
    );
    h.press(Key::Space).await;
    wait_for_pick(&h, "SZ", true).await;

    let su = server_files(&h, PRODUCT, "area=SU").await;
    let sz = server_files(&h, PRODUCT, "area=SZ").await;
    assert!(!su.is_empty() && !sz.is_empty());
    let expected = files_of(&[su, sz]);
    assert_eq!(h.downloads_table(expected.len()).await, expected);

    // Totals: the summary counts every file, and SU shows its own bytes on the map.
    let summary = h.text(".totals").await;
    assert!(
        summary.starts_with(&format!("{} files", expected.len())),
        "{summary}"
    );
    // SU's four files hold 8,766 bytes.
    h.wait_for_js("(document.querySelector('#square-SU .total') || {}).textContent === '8.77 kB'")
        .await;

    // A disabled look for nothing here: OpenMapLocal offers every square.
    assert!(h.find_all(".square[aria-disabled='true']").await.is_empty());
    h.stop_clean().await;
}

#[tokio::test]
async fn the_url_carries_the_selection_and_a_reload_keeps_it() {
    let h = Harness::start_at(&format!("/products/{PRODUCT}")).await;
    let history_before = h.js("return history.length;").await;
    h.select("#format-select", "GeoPackage").await;
    h.click("#square-TQ").await;
    h.click("#square-SU").await;
    h.wait_for_js("location.search === '?areas=SU,TQ&format=GeoPackage'")
        .await;

    let expected = files_of(&[
        server_files(&h, PRODUCT, "area=SU&format=GeoPackage").await,
        server_files(&h, PRODUCT, "area=TQ&format=GeoPackage").await,
    ]);
    assert_eq!(h.downloads_table(expected.len()).await, expected);

    h.driver.refresh().await.unwrap();
    assert_eq!(h.downloads_table(expected.len()).await, expected);
    assert!(h.square_is_selected("SU").await && h.square_is_selected("TQ").await);
    assert!(!h.square_is_selected("SZ").await);
    let format = h.find("#format-select").await.prop("value").await.unwrap();
    assert_eq!(format.as_deref(), Some("GeoPackage"));

    // Unpicking updates the address in place (no new history entry per click).
    h.click("#square-TQ").await;
    h.wait_for_js("location.search === '?areas=SU&format=GeoPackage'")
        .await;
    assert_eq!(h.js("return history.length;").await, history_before);
    h.stop().await;
}

#[tokio::test]
async fn typed_codes_are_added_and_codes_not_offered_are_explained() {
    let h = Harness::start_at("/products/OpenGreenspace").await;
    let input = h.find("#typed-areas-input").await;
    input.send_keys("su, sz  HW xx" + Key::Enter).await.unwrap();
    h.wait_for_js("location.search.startsWith('?areas=SU,SZ')")
        .await;
    let problem = h.text("#typed-areas-problem").await;
    assert!(problem.contains("not offered for HW"), "{problem}");
    assert!(problem.contains("XX is not an area code"), "{problem}");
    assert!(h.square_is_selected("SU").await && h.square_is_selected("SZ").await);
    // HW is drawn but cannot be picked.
    let hw = h.find("#square-HW").await;
    assert_eq!(
        hw.attr("aria-disabled").await.unwrap().as_deref(),
        Some("true")
    );
    // Out from under the sticky header before clicking.
    h.js("document.querySelector('#square-HW').scrollIntoView({block: 'center'}); return null;")
        .await;
    h.click("#square-HW").await;
    assert!(!h.square_is_selected("HW").await);
    h.stop().await;
}

#[tokio::test]
async fn a_download_link_yields_the_file_whose_md5_matches_the_table() {
    let h = Harness::start(&[]).await;
    h.goto(&format!("/products/{PRODUCT}?areas=SZ&format=GML"))
        .await;
    h.downloads_table(1).await;
    let row = h.find(".downloads-table tbody tr").await;
    let href = attribute(&row, "a[download]", "href").await;
    let md5 = attribute(&row, "code.md5", "title").await;
    let body = download(&href).await;
    assert!(!body.is_empty());
    assert_eq!(md5_hex(&body), md5);
    h.stop().await;
}

#[tokio::test]
async fn images_open_large_and_the_keyboard_drives_the_lightbox() {
    let h = Harness::start_at(&format!("/products/{PRODUCT}")).await;
    h.click("#product-image-0").await;
    let image = h.find(".lightbox img").await;
    assert!(
        image
            .attr("src")
            .await
            .unwrap()
            .unwrap()
            .ends_with("/images/0?large")
    );
    h.press(Key::Right).await;
    h.wait_for_js("document.querySelector('.lightbox img').src.endsWith('/images/1?large')")
        .await;
    h.press(Key::Escape).await;
    h.wait_for_js("!document.querySelector('.lightbox')").await;
    h.wait_for_focus("product-image-0").await;
    h.stop().await;
}

#[tokio::test]
async fn twenty_squares_are_listed_from_one_request() {
    let h = Harness::start(&[]).await;
    let squares: Vec<&str> = TWENTY_SQUARES.split(',').collect();
    let expected: BTreeSet<String> = server_files(&h, PRODUCT, "")
        .await
        .into_iter()
        .filter(|d| squares.contains(&d.area.code()))
        .map(|d| d.file.file_name)
        .collect();
    assert!(expected.len() >= 20 * 3, "{} files", expected.len());

    h.goto(&format!("/products/{PRODUCT}?areas={TWENTY_SQUARES}"))
        .await;
    assert_eq!(table_files(&h, expected.len()).await, expected);
    let listed_after_ms = h
        .js("return performance.now() - performance.getEntriesByType('navigation')[0].startTime;")
        .await;
    let requests = requests_to(&h, &format!("/products/{PRODUCT}/downloads")).await;
    println!(
        "20 squares: {requests} downloads request(s), all files listed {listed_after_ms} ms after navigation"
    );
    assert_eq!(requests, 1, "one request for the whole list");
    // Each square still shows its own query, and its size on the map.
    let queries = h.text(".queries summary").await;
    assert_eq!(queries, "Service queries (20)");
    h.find("#square-SU .total").await;
    h.stop_clean().await;
}

#[tokio::test]
async fn the_map_shows_at_once_and_the_list_says_it_is_loading() {
    let h = Harness::start(&[]).await;
    hold_requests(&h, "/OpenMapLocal/downloads").await;
    h.goto(&format!("/products/{PRODUCT}?areas=SU,SZ")).await;
    // The product and its map are there while the files are on their way.
    h.find(".files-loading").await;
    assert!(h.square_is_selected("SU").await && h.square_is_selected("SZ").await);
    let totals = h.text(".totals").await;
    assert!(!totals.contains("0 files"), "{totals}");
    assert_eq!(totals, "Getting the list of files…");
    assert!(h.find_all(".downloads-table").await.is_empty());

    h.js("window.__release(); return null;").await;
    let count = files_in(&h, &["SU", "SZ"]).await;
    table_files(&h, count).await;
    assert!(h.find_all(".files-loading").await.is_empty());
    assert!(
        h.text(".totals")
            .await
            .starts_with(&format!("{count} files"))
    );
    h.stop_clean().await;
}

#[tokio::test]
async fn a_failed_list_shows_one_panel_whose_try_again_lists_the_files() {
    let h = Harness::start(&[]).await;
    block_urls(&h, &["*/OpenMapLocal/downloads*"]).await;
    h.goto(&format!("/products/{PRODUCT}?areas=SU,SZ,TQ")).await;
    let panel = h.text(".files-problem").await;
    assert!(panel.contains("Try again"), "{panel}");
    assert_eq!(
        h.find_all(".error-panel").await.len(),
        1,
        "one panel, not one per square"
    );
    assert_eq!(h.text(".totals").await, "Files not listed");
    // Nothing the user picked is lost.
    assert!(h.square_is_selected("SU").await && h.square_is_selected("TQ").await);

    block_urls(&h, &[]).await;
    h.click(".files-problem button").await;
    let count = files_in(&h, &["SU", "SZ", "TQ"]).await;
    table_files(&h, count).await;
    h.wait_for_js("!document.querySelector('.files-problem')")
        .await;
    h.stop().await;
}

#[tokio::test]
async fn a_product_with_gb_only_lists_its_files_at_once() {
    let h = Harness::start(&[]).await;
    let expected: BTreeSet<String> = server_files(&h, "OpenRoads", "")
        .await
        .into_iter()
        .map(|d| d.file.file_name)
        .collect();
    h.goto("/products/OpenRoads").await;
    assert_eq!(table_files(&h, expected.len()).await, expected);
    assert!(h.text(".whole-area").await.contains("All of Great Britain"));
    // No map, no codes to type, no "pick an area".
    for absent in [
        ".grid-map",
        "#typed-areas-input",
        "#place-input",
        ".empty-state",
        ".area-chip",
    ] {
        assert!(h.find_all(absent).await.is_empty(), "{absent} is shown");
    }
    assert!(h.text(".totals").await.ends_with("1 area"));
    h.stop_clean().await;
}

/// The address changing from one product to another in the same page (back and
/// forward) lists the new product's files: the old request is cancelled, never the new.
#[tokio::test]
async fn going_from_product_to_product_in_place_lists_each_ones_files() {
    let h = Harness::start(&[]).await;
    let files = async |product: &str| -> BTreeSet<String> {
        let listed = server_files(&h, product, "").await;
        listed.into_iter().map(|d| d.file.file_name).collect()
    };
    let (roads, names) = (files("OpenRoads").await, files("OpenNames").await);
    assert_ne!(roads, names);
    h.goto("/products/OpenRoads").await;
    assert_eq!(table_files(&h, roads.len()).await, roads);
    // As a link inside the app would: the router follows the address, the page stays.
    h.js("history.pushState({}, '', '/products/OpenNames'); \
          dispatchEvent(new PopStateEvent('popstate'));")
        .await;
    assert_eq!(table_files(&h, names.len()).await, names);
    h.js("history.back();").await;
    assert_eq!(table_files(&h, roads.len()).await, roads);
    assert!(h.find_all(".files-problem").await.is_empty());
    h.stop_clean().await;
}

#[tokio::test]
async fn a_product_that_cannot_be_loaded_says_why_and_offers_ways_on() {
    let h = Harness::start(&[]).await;
    // No answer: the cause in words, Try again, Back to products.
    block_urls(&h, &["*/products/OpenMapLocal"]).await;
    h.goto(&format!("/products/{PRODUCT}")).await;
    let panel = h.text(".product-problem").await;
    assert!(panel.contains("No answer this app may read"), "{panel}");
    assert_eq!(h.text("h1").await, "This product could not be loaded");
    h.find(".product-problem a[href='/']").await;
    block_urls(&h, &[]).await;
    h.click(".product-problem button").await;
    h.wait_for_js("document.querySelector('h1').textContent === 'OS Open Map - Local'")
        .await;
    h.find("#square-SU").await;

    // A missing product: the service's message, and the way back is the gallery.
    let answer = reqwest::get(h.url("/downloads/v1/products/NoSuchProduct"))
        .await
        .unwrap();
    assert_eq!(answer.status(), 404);
    let answer: download_api::ErrorBody = answer.json().await.unwrap();
    h.goto("/products/NoSuchProduct").await;
    assert_eq!(h.text("h1").await, "Product not found");
    let panel = h.text(".product-problem").await;
    assert!(panel.contains("NoSuchProduct"), "{panel}");
    assert!(panel.contains(&answer.message), "{panel}");
    assert!(
        h.find_all(".product-problem button").await.is_empty(),
        "no retry for a 404"
    );
    assert!(
        h.find_all(".product-problem a[href$='/downloads/v1/products']")
            .await
            .is_empty(),
        "no link to the JSON catalogue"
    );
    h.click(".product-problem a[href='/']").await;
    h.wait_for_js("location.pathname === '/'").await;
    h.stop().await;
}

#[tokio::test]
async fn an_unreadable_product_answer_is_named_without_parser_text() {
    let h = Harness::start(&[]).await;
    answer_requests(
        &h,
        "/products/OpenMapLocal",
        r#"{"id": "OpenMapLocal", "name":"#,
    )
    .await;
    h.goto(&format!("/products/{PRODUCT}")).await;
    let panel = h.text(".product-problem").await;
    assert!(panel.contains("could not read"), "{panel}");
    for parser_words in ["EOF", "line 1", "column"] {
        assert!(!panel.contains(parser_words), "{panel}");
    }
    h.find(".product-problem button").await;
    h.stop().await;
}

#[tokio::test]
async fn space_picks_the_square_that_has_the_focus() {
    let h = Harness::start_at(&format!("/products/{PRODUCT}")).await;
    h.click("#square-SZ").await;
    assert!(h.square_is_selected("SZ").await);
    // Focus moved some other way (a screen reader, a script): Space acts on SU.
    h.js("document.querySelector('#square-SU').focus(); return null;")
        .await;
    h.press(Key::Space).await;
    wait_for_pick(&h, "SU", true).await;
    assert!(h.square_is_selected("SZ").await, "SZ stays picked");
    // Tab from the control before the map lands on the square last focused.
    h.js("document.querySelector('.area-chip').focus(); return null;")
        .await;
    h.press(Key::Tab).await;
    h.wait_for_focus("square-SU").await;
    h.press(Key::Space).await;
    wait_for_pick(&h, "SU", false).await;

    // A picked square's name starts with what it shows.
    h.find("#square-SZ .total").await;
    let shown = h
        .js("return document.querySelector('#square-SZ text').textContent.replace(/\\s+/g, ' ').trim();")
        .await;
    let name = h
        .find("#square-SZ")
        .await
        .attr("aria-label")
        .await
        .unwrap()
        .unwrap();
    let shown = shown.as_str().unwrap();
    assert!(
        name.starts_with(shown),
        "{name:?} does not start with {shown:?}"
    );
    h.stop_clean().await;
}

#[tokio::test]
async fn map_text_stays_readable_on_a_phone_and_a_desktop() {
    let h = Harness::start(&[]).await;
    for (width, height) in [(1280, 900), (390, 844)] {
        h.set_viewport(width, height).await;
        h.goto(&format!("/products/{PRODUCT}?areas=SU")).await;
        h.find("#square-SU .total").await;
        // Font size in map units times the map's scale on screen.
        let px = h
            .js("const svg = document.querySelector('.grid-map'); \
                 const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; \
                 const size = parseFloat(getComputedStyle(document.querySelector('#square-SU .total')).fontSize); \
                 return size * scale;")
            .await
            .as_f64()
            .unwrap();
        assert!(
            px >= 11.0,
            "the size on SU is {px:.1} px at {width} px wide"
        );
    }
    h.stop().await;
}

#[tokio::test]
async fn a_place_or_grid_reference_picks_its_square_and_shows_it_on_the_map() {
    let h = Harness::start_at(&format!("/products/{PRODUCT}")).await;
    h.find("#square-SU").await;
    assert_eq!(
        requests_to(&h, "places.json").await,
        0,
        "loaded on first use only"
    );

    let place = h.find("#place-input").await;
    // Escape closes the suggestions first: WebKit's list of them takes the Enter key.
    place
        .send_keys("southampton" + Key::Escape + Key::Enter)
        .await
        .unwrap();
    wait_for_pick(&h, "SU", true).await;
    let status = h.text("#find-status").await;
    assert!(
        status.contains("Southampton") && status.contains("SU"),
        "{status}"
    );
    assert_eq!(h.text(".grid-map .marker").await, "Southampton");
    assert!(h.text(".credit").await.contains("GeoNames"));
    assert_eq!(requests_to(&h, "places.json").await, 1);

    let grid = h.find("#grid-ref-input").await;
    grid.send_keys("NT 25 73" + Key::Enter).await.unwrap();
    wait_for_pick(&h, "NT", true).await;
    assert_eq!(h.text(".grid-map .marker").await, "NT 25 73");
    h.wait_for_js("location.search === '?areas=NT,SU'").await;

    grid.clear().await.unwrap();
    grid.send_keys("641000,311000" + Key::Enter).await.unwrap();
    wait_for_pick(&h, "TG", true).await;

    grid.clear().await.unwrap();
    grid.send_keys("SU 411 11" + Key::Enter).await.unwrap();
    let problem = h.text("#grid-ref-problem").await;
    assert!(problem.contains("as many digits"), "{problem}");
    h.stop_clean().await;
}

#[tokio::test]
async fn every_state_of_the_product_page_passes_axe_in_every_look() {
    let h = Harness::start(&[]).await;
    let mut problems = Vec::new();
    let mut check = async |path: &str, ready: &str, state: &str| {
        problems.extend(axe::check_page(&h, path, ready, state).await);
    };
    check(
        &format!("/products/{PRODUCT}"),
        ".grid-map",
        "nothing picked",
    )
    .await;
    check(
        &format!("/products/{PRODUCT}?areas=SU,SZ"),
        ".downloads-table",
        "SU and SZ picked",
    )
    .await;
    check(
        "/products/OpenRoads",
        ".downloads-table",
        "a GB-only product",
    )
    .await;
    check(
        "/products/NoSuchProduct",
        ".product-problem",
        "a missing product",
    )
    .await;
    block_urls(&h, &["*/OpenMapLocal/downloads*"]).await;
    check(
        &format!("/products/{PRODUCT}?areas=SU"),
        ".files-problem",
        "a failed list",
    )
    .await;
    hold_requests(&h, "/OpenMapLocal/downloads").await;
    check(
        &format!("/products/{PRODUCT}?areas=SU"),
        ".files-loading",
        "the list loading",
    )
    .await;
    axe::assert_none(&problems);
    h.stop().await;
}
