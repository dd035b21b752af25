//! The basket across products, in a real browser against the real server: three
//! products added from their pages, downloaded to a folder with a sub-folder each
//! (Chromium) and as a zip with a folder per product (every engine), every file's md5
//! checked against the catalogue's own files; the basket kept across a reload and
//! opened from its shared link in a fresh browser; axe on its controls and its page.
//! The browser reaches the server through `bulk.rs`'s recording proxy where files are
//! fetched.

use std::collections::BTreeMap;
use std::time::Duration;

use e2e::{Harness, axe, md5_hex};

use crate::bulk::{Setup, folder_md5s};
use crate::zip::saved_zip;

/// Three products, one file each, and where each lands: (product page, demo file
/// under `files/`, the file in the download).
const THREE: [(&str, &str, &str); 3] = [
    (
        "/products/OpenTOID?areas=SU&format=GeoPackage",
        "OpenTOID/optoid_gpkg_su.zip",
        "OpenTOID/optoid_gpkg_su.zip",
    ),
    (
        "/products/OpenGreenspace?areas=SU&format=GeoPackage",
        "OpenGreenspace/opgrsp_gpkg_su.zip",
        "OpenGreenspace/opgrsp_gpkg_su.zip",
    ),
    (
        "/products/BoundaryLine?format=GeoPackage",
        "BoundaryLine/bdline_gpkg_gb.zip",
        "BoundaryLine/bdline_gpkg_gb.zip",
    ),
];
/// The same basket as a shared link, written by hand from the catalogue.
const THREE_LINK: &str = "/basket?items=OpenTOID/2026-01/SU/GeoPackage;\
                          OpenGreenspace/2025-10/SU/GeoPackage;BoundaryLine/2025-05//GeoPackage";
/// What the basket's downloads are called (its title as a file name).
const THREE_STEM: &str = "basket-of-3-products";
/// How long a small download may take on a loaded CI machine.
const WITHIN: Duration = Duration::from_secs(60);

/// Adds the product at `page` (its address holding the choice) to the basket with
/// its button, and waits until the page says it is in.
async fn add_from(h: &Harness, page: &str) {
    h.goto(page).await;
    h.find(".downloads-table tbody tr").await;
    let button = h.find(".add-to-basket button").await;
    assert_eq!(button.text().await.unwrap(), "Add to basket");
    h.click(".add-to-basket button").await;
    h.wait_for_text(".add-to-basket", "In your basket.").await;
}

/// The count the header shows after its basket link (`none` when it shows none), as
/// the browser draws it.
async fn header_count(h: &Harness, want: &str) {
    let script = "return getComputedStyle(\
                  document.querySelector('header nav a[href*=\"/basket\"]'), '::after').content";
    let want = if want == "none" {
        want.to_owned()
    } else {
        format!("\" {want}\"")
    };
    e2e::eventually(e2e::WAIT, async || {
        let shown = h.js(script).await;
        if shown == want.as_str() {
            Ok(())
        } else {
            Err(format!("the header shows {shown}, not {want}"))
        }
    })
    .await;
}

/// Waits for the basket page to list `count` items with their files.
async fn basket_lists(h: &Harness, count: usize) {
    e2e::eventually(e2e::WAIT, async || {
        let items = h.find_all(".basket-items > li details").await.len();
        if items == count {
            Ok(())
        } else {
            Err(format!("{items} items listed, not {count}"))
        }
    })
    .await;
}

/// Each downloaded path and the md5 of the catalogue's file it should be.
fn wanted(s: &Setup) -> BTreeMap<String, String> {
    THREE
        .iter()
        .map(|(_, demo, saved)| (saved.to_string(), s.demo_md5(&format!("files/{demo}"))))
        .collect()
}

#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn a_basket_of_three_products_downloads_to_a_folder_with_a_sub_folder_each() {
    let s = Setup::start(vec![]).await;
    for (page, _, _) in THREE {
        s.goto(page).await;
        s.h.find(".downloads-table tbody tr").await;
        s.h.click(".add-to-basket button").await;
        s.h.wait_for_text(".add-to-basket", "In your basket.").await;
    }
    header_count(&s.h, "3").await;
    s.goto("/basket").await;
    basket_lists(&s.h, 3).await;
    let totals = s.h.text(".basket-page > .totals").await;
    assert!(totals.starts_with("3 products · 3 files · "), "{totals}");

    s.h.click(".folder-download .folder-controls .button").await;
    let summary =
        s.h.wait_for_text_within(".bulk-summary", "Done", WITHIN)
            .await;
    assert!(
        summary.contains("3 downloaded, 0 skipped, 0 failed"),
        "{summary}"
    );
    let mut found = folder_md5s(&s.h).await;
    assert!(found.remove("download-report.json").is_some(), "no report");
    assert_eq!(found, wanted(&s));

    // Again into the same folder: every file is there and matches, so none is fetched.
    let fetched = s.requests_for("/files/products/").len();
    s.h.click(".folder-download .folder-controls .button").await;
    s.h.wait_for_text_within(".bulk-summary", "0 downloaded, 3 skipped", WITHIN)
        .await;
    assert_eq!(s.requests_for("/files/products/").len(), fetched);
    s.h.stop_clean().await;
}

#[tokio::test]
async fn a_basket_downloads_as_a_zip_with_a_folder_per_product_and_an_md5_list_to_match() {
    let s = Setup::start(vec![]).await;
    s.goto(THREE_LINK).await;
    basket_lists(&s.h, 3).await;
    s.h.find(".zip-download").await;
    s.h.click(".zip-download .folder-controls .button").await;
    let mut zip = saved_zip(&s.h, &format!("{THREE_STEM}.zip")).await;
    let checksums =
        String::from_utf8(zip.remove("checksums.md5").expect("checksums.md5")).expect("text");
    assert!(zip.remove("download-report.json").is_some(), "no report");
    let found: BTreeMap<String, String> = zip
        .iter()
        .map(|(name, bytes)| (name.clone(), md5_hex(bytes)))
        .collect();
    let want = wanted(&s);
    assert_eq!(found, want);

    // The md5 list names each file in its product's folder, as `md5sum -c` reads it.
    s.h.click(".bulk-export button:nth-of-type(3)").await;
    let lines: Vec<String> = want
        .iter()
        .map(|(path, md5)| format!("{md5}  {path}"))
        .collect();
    s.h.wait_for_whole_download(&format!("{THREE_STEM}.md5"), WITHIN, |bytes| {
        let list = String::from_utf8_lossy(bytes);
        match lines.iter().find(|line| !list.lines().any(|l| l == *line)) {
            Some(line) => Err(format!("{line} not in {list}")),
            None => Ok(()),
        }
    })
    .await;
    for line in &lines {
        assert!(
            checksums.lines().any(|l| l == line),
            "{line} not in {checksums}"
        );
    }
    s.h.stop().await;
}

#[tokio::test]
async fn the_basket_survives_a_reload_and_opens_from_its_link_in_a_fresh_browser() {
    let h = Harness::start(&[]).await;
    add_from(&h, THREE[0].0).await;
    header_count(&h, "1").await;
    // Added again with another choice, the item is updated, not doubled.
    h.goto("/products/OpenTOID?areas=SU,SZ&format=GeoPackage")
        .await;
    h.find(".downloads-table tbody tr").await;
    h.wait_for_text(".add-to-basket button", "Update in basket")
        .await;
    h.click(".add-to-basket button").await;
    h.wait_for_text(".add-to-basket", "OS Open TOID is updated in your basket.")
        .await;

    h.goto("/basket").await;
    basket_lists(&h, 1).await;
    h.driver.refresh().await.expect("reload");
    basket_lists(&h, 1).await;
    header_count(&h, "1").await;
    let summary = h.text(".basket-items details summary").await;
    assert!(summary.starts_with("2 files"), "{summary}");
    let link = h.text(".basket-link").await;
    assert_eq!(
        link,
        format!("{}/basket?items=OpenTOID/2026-01/SU,SZ/GeoPackage", h.base)
    );

    // Another browser, its own profile and empty storage, opens the link (at its own
    // server of the same catalogue, which outlives the first browser).
    let other = Harness::start(&[]).await;
    other.goto(link.strip_prefix(&h.base).unwrap()).await;
    basket_lists(&other, 1).await;
    other
        .wait_for_text(
            ".basket-page > .notice",
            "1 product from the link is in your basket.",
        )
        .await;
    other.wait_for_path("/basket").await;
    assert_eq!(other.text(".basket-items h2").await, "OS Open TOID");
    header_count(&other, "1").await;
    other.driver.refresh().await.expect("reload");
    basket_lists(&other, 1).await;

    // Removed there, it stays removed after a reload; the first browser keeps its own.
    other.click(".basket-items button").await;
    other
        .wait_for_text(".basket-page", "Your basket is empty.")
        .await;
    other.driver.refresh().await.expect("reload");
    other
        .wait_for_text(".basket-page", "Your basket is empty.")
        .await;
    header_count(&other, "none").await;
    other.stop().await;
    h.driver.refresh().await.expect("reload");
    basket_lists(&h, 1).await;
    h.stop().await;
}

#[tokio::test]
async fn another_tab_follows_the_basket() {
    let h = Harness::start_at("/basket").await;
    h.wait_for_text(".basket-page", "Your basket is empty.")
        .await;
    let first = h.driver.window().await.expect("this tab");
    let second = h.driver.new_tab().await.expect("a second tab");
    h.driver.switch_to_window(second).await.expect("to it");
    add_from(&h, THREE[0].0).await;
    h.driver.switch_to_window(first).await.expect("back");
    basket_lists(&h, 1).await;
    header_count(&h, "1").await;
    h.stop().await;
}

#[tokio::test]
async fn an_item_says_when_its_product_has_a_new_version() {
    let h = Harness::start_at("/basket?items=OpenTOID/2020-01/SU").await;
    basket_lists(&h, 1).await;
    h.wait_for_text(
        ".basket-items .notice",
        "Version 2026-01 is out; this was added at version 2020-01.",
    )
    .await;
    // A link it cannot read says so and changes nothing.
    h.goto("/basket?items=/2020-01/SU").await;
    h.wait_for_text(
        ".basket-page > .notice",
        "The basket in this link could not be read at “/2020-01/SU”.",
    )
    .await;
    basket_lists(&h, 1).await;
    h.stop().await;
}

#[tokio::test]
async fn a_link_naming_no_version_says_nothing_of_versions() {
    let h = Harness::start_at("/basket?items=OpenTOID//SU").await;
    basket_lists(&h, 1).await;
    let card = h.text(".basket-items > li").await;
    assert!(!card.contains("added at version"), "{card}");
    assert!(h.find_all(".basket-items .notice").await.is_empty());
    // Shared on, the link still names none.
    let link = h.text(".basket-link").await;
    assert!(link.ends_with("/basket?items=OpenTOID//SU"), "{link}");
    // The products are a list of cards, drawn without bullets beside them.
    h.wait_for_js(
        "getComputedStyle(document.querySelector('.basket-items > li')).listStyleType === 'none'",
    )
    .await;
    h.stop().await;
}

#[tokio::test]
async fn a_product_that_did_not_list_comes_with_try_again() {
    let h = Harness::start(&[]).await;
    h.preload(
        "fetch",
        serde_json::json!({ "fail": ["*/OpenGreenspace/downloads*"] }),
    )
    .await;
    h.goto(THREE_LINK).await;
    basket_lists(&h, 2).await;
    let panel = h.text(".basket-items .error-panel").await;
    assert!(panel.contains("Try again"), "{panel}");
    // Its item stays, with the others: nothing of the basket is lost.
    assert_eq!(h.find_all(".basket-items > li").await.len(), 3);

    h.preload("fetch", serde_json::json!({ "fail": [] })).await;
    h.click(".basket-items .error-panel button").await;
    basket_lists(&h, 3).await;
    assert!(h.find_all(".basket-items .error-panel").await.is_empty());
    h.stop().await;
}

#[tokio::test]
async fn the_basket_controls_and_page_pass_axe() {
    let h = Harness::start(&[]).await;
    let mut problems = Vec::new();
    h.goto("/basket").await;
    h.wait_for_text(".basket-page", "Your basket is empty.")
        .await;
    problems.extend(axe::check_all_looks(&h, "/basket, empty").await);
    h.goto(THREE[0].0).await;
    h.find(".add-to-basket button").await;
    problems.extend(axe::check_all_looks(&h, "a product page with Add to basket").await);
    h.click(".add-to-basket button").await;
    h.wait_for_text(".add-to-basket", "In your basket.").await;
    problems.extend(axe::check_all_looks(&h, "a product page, added").await);
    h.goto(THREE_LINK).await;
    basket_lists(&h, 3).await;
    h.find(".basket-page .bulk").await;
    problems.extend(axe::check_all_looks(&h, "/basket with three products").await);
    axe::assert_none(&problems);
    h.stop().await;
}
