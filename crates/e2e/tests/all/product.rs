//! The product page: the area-grid picker, the merged downloads table, the URL state,
//! checksums of real downloads, images and the 404 page.

use std::collections::BTreeSet;

use download_api::ProductDownload;
use e2e::Harness;
use md5::{Digest, Md5};
use thirtyfour::components::SelectElement;
use thirtyfour::prelude::*;

const PRODUCT: &str = "OpenMapLocal";

/// What the server lists for one area (and format), straight from its JSON.
async fn server_files(h: &Harness, query: &str) -> Vec<ProductDownload> {
    let url = format!(
        "{}/downloads/v1/products/{PRODUCT}/downloads?{query}",
        h.base
    );
    reqwest::get(&url)
        .await
        .expect("list downloads")
        .json()
        .await
        .expect("downloads JSON")
}

/// (file name, size) of every row of the table, once `count` rows are there.
async fn table_rows(h: &Harness, count: usize) -> BTreeSet<(String, u64)> {
    h.wait_for_js(&format!(
        "document.querySelectorAll('.downloads-table tbody tr').length === {count}"
    ))
    .await;
    let rows = h
        .js(
            "return [...document.querySelectorAll('.downloads-table tbody tr')].map(r => \
             [r.dataset.file, Number(r.querySelector('[data-bytes]').dataset.bytes)]);",
        )
        .await;
    serde_json::from_value::<Vec<(String, u64)>>(rows)
        .expect("rows")
        .into_iter()
        .collect()
}

fn files_of(lists: &[Vec<ProductDownload>]) -> BTreeSet<(String, u64)> {
    lists
        .iter()
        .flatten()
        .map(|d| (d.file_name.clone(), d.size.expect("demo files have sizes")))
        .collect()
}

#[tokio::test]
async fn squares_picked_by_click_and_keyboard_list_what_the_server_lists() {
    let h = Harness::start(&[]).await;
    h.goto(&format!("/products/{PRODUCT}")).await;

    // Click SU, then move south with the arrow key and pick SZ with Space.
    h.find("#square-SU").await.click().await.expect("click SU");
    assert!(h.square_is_selected("SU").await);
    h.wait_for_js("document.activeElement && document.activeElement.id === 'square-SU'")
        .await;
    h.press(Key::Down).await;
    h.wait_for_js("document.activeElement.id === 'square-SZ'")
        .await;
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
    h.wait_for_js("document.querySelector('#square-SZ').getAttribute('aria-selected') === 'true'")
        .await;

    let su = server_files(&h, "area=SU").await;
    let sz = server_files(&h, "area=SZ").await;
    assert!(!su.is_empty() && !sz.is_empty());
    let expected = files_of(&[su.clone(), sz]);
    assert_eq!(table_rows(&h, expected.len()).await, expected);

    // Totals: the summary counts every file, and SU shows its own bytes on the map.
    let summary = h.text(".totals").await;
    assert!(
        summary.starts_with(&format!("{} files", expected.len())),
        "{summary}"
    );
    let su_bytes: u64 = su.iter().filter_map(|d| d.size).sum();
    h.wait_for_js(&format!(
        "(document.querySelector('#square-SU .total') || {{}}).textContent === '{}'",
        explorer_logic::format_size(su_bytes)
    ))
    .await;

    // A disabled look for nothing here: OpenMapLocal offers every square.
    assert!(h.find_all(".square[aria-disabled='true']").await.is_empty());
    assert_eq!(h.console_errors().await, Vec::<String>::new());
    h.stop().await;
}

#[tokio::test]
async fn the_url_carries_the_selection_and_a_reload_keeps_it() {
    let h = Harness::start(&[]).await;
    h.goto(&format!("/products/{PRODUCT}")).await;
    let history_before = h.js("return history.length;").await;
    let select = SelectElement::new(&h.find("#format-select").await)
        .await
        .unwrap();
    select.select_by_value("GeoPackage").await.unwrap();
    h.find("#square-TQ").await.click().await.unwrap();
    h.find("#square-SU").await.click().await.unwrap();
    h.wait_for_js("location.search === '?areas=SU,TQ&format=GeoPackage'")
        .await;

    let expected = files_of(&[
        server_files(&h, "area=SU&format=GeoPackage").await,
        server_files(&h, "area=TQ&format=GeoPackage").await,
    ]);
    assert_eq!(table_rows(&h, expected.len()).await, expected);

    h.driver.refresh().await.unwrap();
    assert_eq!(table_rows(&h, expected.len()).await, expected);
    assert!(h.square_is_selected("SU").await && h.square_is_selected("TQ").await);
    assert!(!h.square_is_selected("SZ").await);
    let format = h.find("#format-select").await.prop("value").await.unwrap();
    assert_eq!(format.as_deref(), Some("GeoPackage"));

    // Unpicking updates the address in place (no new history entry per click).
    h.find("#square-TQ").await.click().await.unwrap();
    h.wait_for_js("location.search === '?areas=SU&format=GeoPackage'")
        .await;
    assert_eq!(h.js("return history.length;").await, history_before);
    h.stop().await;
}

#[tokio::test]
async fn typed_codes_are_added_and_codes_not_offered_are_explained() {
    let h = Harness::start(&[]).await;
    h.goto("/products/OpenGreenspace").await;
    let input = h.find("#typed-areas-input").await;
    input.send_keys("su, sz  HW xx\n").await.unwrap();
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
    hw.click().await.unwrap();
    assert!(!h.square_is_selected("HW").await);
    h.stop().await;
}

#[tokio::test]
async fn a_download_link_yields_the_file_whose_md5_matches_the_table() {
    let h = Harness::start(&[]).await;
    h.goto(&format!("/products/{PRODUCT}?areas=SZ&format=GML"))
        .await;
    table_rows(&h, 1).await;
    let row = h.find(".downloads-table tbody tr").await;
    let href = row
        .find(By::Css("a[download]"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .expect("a link");
    let md5 = row
        .find(By::Css("code.md5"))
        .await
        .unwrap()
        .attr("title")
        .await
        .unwrap()
        .expect("the full md5");
    let response = reqwest::get(&href).await.expect("fetch the download");
    assert!(response.status().is_success(), "{}", response.status());
    let body = response.bytes().await.unwrap();
    assert!(!body.is_empty());
    assert_eq!(format!("{:x}", Md5::digest(&body)), md5);
    h.stop().await;
}

#[tokio::test]
async fn images_open_large_and_the_keyboard_drives_the_lightbox() {
    let h = Harness::start(&[]).await;
    h.goto(&format!("/products/{PRODUCT}")).await;
    h.find("#product-image-0").await.click().await.unwrap();
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
    h.wait_for_js("document.activeElement.id === 'product-image-0'")
        .await;
    h.stop().await;
}

#[tokio::test]
async fn an_unknown_product_shows_the_services_message_and_links() {
    let h = Harness::start(&[]).await;
    let url = format!("{}/downloads/v1/products/NoSuchProduct", h.base);
    let response = reqwest::get(&url).await.unwrap();
    assert_eq!(response.status(), 404);
    let body: download_api::ErrorBody = response.json().await.unwrap();

    h.goto("/products/NoSuchProduct").await;
    let panel = h.text(".error-panel").await;
    assert!(panel.contains(&body.message), "{panel}");
    // The way on is the app's gallery, not the service's JSON catalogue.
    h.find(".error-panel a[href='/']").await;
    h.stop().await;
}
