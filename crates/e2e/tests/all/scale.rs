//! The app at scale, in a real browser against our server with a large catalogue
//! written into a temporary directory: 1,000 products, and a data package whose
//! versions hold 9,900 and 10,000 files. Long lists are windowed: the page holds only
//! the rows on screen, yet every row can be reached by scrolling, keyboard, filter
//! and sort, and screen readers hear the whole count. What the page costs at this size
//! is `cargo xtask bench web`'s to measure.

use download_api::Area;
use download_server::testing::{
    Gridded, KEY, LargeCatalogue, PACKAGE, SECRET, file_name, file_size, product_id, product_name,
};
use e2e::Harness;
use e2e::thirtyfour::prelude::*;
use tempfile::TempDir;

const PRODUCTS: usize = 1_000;
const FILES: usize = 10_000;
/// The older version lists the first 9,900 of the newer one's files.
const OLDER_FILES: usize = 9_900;
/// More rows than this in the page means the table is not windowed.
const MOST_ROWS: usize = 200;
/// The first product offers each grid square in this many formats: 1,100 downloads.
const FORMATS: usize = 20;

/// The built app on our server with the large catalogue.
async fn start() -> (Harness, TempDir) {
    let dir = tempfile::tempdir().expect("temporary directory");
    LargeCatalogue {
        products: PRODUCTS,
        gridded: Gridded::First,
        formats: FORMATS,
        versions: vec![OLDER_FILES, FILES],
        pictures: None,
    }
    .write(dir.path())
    .expect("write the catalogue");
    let catalogue = dir.path().display().to_string();
    (Harness::start(&["--catalogue", &catalogue]).await, dir)
}

/// From the next document on, keeps in `window.__most` the most elements matching
/// `css` the page ever held at once: a list drawn whole for one frame freezes the tab
/// even when the next frame trims it.
async fn record_most(h: &Harness, css: &str) {
    h.preload("most", serde_json::json!(css)).await;
}

async fn most(h: &Harness) -> usize {
    number(h, "return window.__most;").await as usize
}

async fn count(h: &Harness, css: &str) -> usize {
    let script = format!("return document.querySelectorAll({css:?}).length;");
    h.js(&script).await.as_u64().expect("a count") as usize
}

async fn number(h: &Harness, script: &str) -> f64 {
    h.js(script)
        .await
        .as_f64()
        .unwrap_or_else(|| panic!("{script} gave no number"))
}

const ROWS: &str = ".files-table tbody tr[data-pos]";

/// The file names of the rows in the page, in order.
async fn shown_names(h: &Harness) -> Vec<String> {
    let names = h
        .js("return [...document.querySelectorAll('.files-table tbody tr[data-pos] .download-link')].map(a => a.textContent);")
        .await;
    serde_json::from_value(names).expect("names")
}

/// Scrolls to the end of the page until `condition` holds, as a person presses End
/// again when the page grew: a list that has just measured its rows may be longer than
/// its first guess made it.
async fn scroll_to_end_until(h: &Harness, condition: &str) {
    h.wait_for_js(&format!(
        "(window.scrollTo(0, document.documentElement.scrollHeight), {condition})"
    ))
    .await;
}

/// Asserts that the list of `items`, in a box of its own, is windowed: one to
/// [`MOST_ROWS`] items in the page, each telling screen readers it is one of `total`.
async fn assert_windowed(h: &Harness, items: &str, total: usize) {
    let shown = count(h, items).await;
    assert!(
        (1..=MOST_ROWS).contains(&shown),
        "{shown} of {items} in the page"
    );
    let script = format!("return document.querySelector('{items}').getAttribute('aria-setsize');");
    assert_eq!(h.js(&script).await, total.to_string());
}

/// Scrolls the box `scroller` to its end, as a person drags its scroll bar down, until
/// item `pos` of `items` is drawn.
async fn scroll_box_to_end_until(h: &Harness, scroller: &str, items: &str, pos: usize) {
    h.wait_for_js(&format!(
        "(document.querySelector('{scroller}').scrollTop = 1e9, \
          document.querySelector('{items}[data-pos=\"{pos}\"]'))"
    ))
    .await;
}

async fn open_version(h: &Harness, version: &str) {
    h.sign_in_to(
        &format!("/packages/{PACKAGE}/versions/{version}"),
        KEY,
        SECRET,
    )
    .await;
    h.find(ROWS).await;
}

#[tokio::test]
async fn a_version_of_ten_thousand_files_is_windowed_and_every_row_reachable() {
    let (h, _dir) = start().await;
    record_most(&h, ROWS).await;
    open_version(&h, "latest").await;

    let rows = count(&h, ROWS).await;
    assert!((1..=MOST_ROWS).contains(&rows), "{rows} rows in the page");
    let most = most(&h).await;
    assert!(most <= MOST_ROWS, "{most} rows in the page at one moment");
    // The header, 10,000 files and the totals line.
    assert_eq!(
        h.js("return document.querySelector('.files-table').getAttribute('aria-rowcount');")
            .await,
        "10002"
    );
    assert_eq!(shown_names(&h).await[0], file_name(0));
    assert_eq!(
        h.js(&format!(
            "return document.querySelector('{ROWS}').getAttribute('aria-rowindex');"
        ))
        .await,
        "2"
    );

    // Scrolled to the end, the last file shows, with its place in the whole table.
    scroll_to_end_until(
        &h,
        &format!("document.querySelector('{ROWS}[data-pos=\"9999\"]')"),
    )
    .await;
    assert_eq!(shown_names(&h).await.last().unwrap(), &file_name(FILES - 1));
    assert_eq!(
        h.js(&format!(
            "return document.querySelector('{ROWS}[data-pos=\"9999\"]').getAttribute('aria-rowindex');"
        ))
        .await,
        "10001"
    );
    assert!(count(&h, ROWS).await <= MOST_ROWS);

    // Keyboard: from the first row, End reaches the last one and focuses it.
    h.js("window.scrollTo(0, 0); return 0;").await;
    h.wait_for_js(&format!("document.querySelector('{ROWS}[data-pos=\"0\"]')"))
        .await;
    h.js(&format!(
        "document.querySelector('{ROWS}[data-pos=\"0\"]').focus(); return 0;"
    ))
    .await;
    h.press(Key::End).await;
    h.wait_for_js("document.activeElement && document.activeElement.dataset.pos === '9999'")
        .await;
    h.press(Key::Up).await;
    h.wait_for_js("document.activeElement && document.activeElement.dataset.pos === '9998'")
        .await;
    h.press(Key::Home).await;
    h.wait_for_js("document.activeElement && document.activeElement.dataset.pos === '0'")
        .await;
    assert!(count(&h, ROWS).await <= MOST_ROWS);
    h.stop().await;
}

const LINES: &str = ".bulk-files .bulk-file";

#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn downloading_ten_thousand_files_to_a_folder_keeps_the_progress_list_windowed() {
    let (h, _dir) = start().await;
    h.pick_private_folder().await;
    record_most(&h, LINES).await;
    open_version(&h, "latest").await;
    h.click(".folder-download .folder-controls .button").await;

    // Files arrive while the list holds only the lines in its box's view, each
    // telling screen readers its place among all 10,000.
    h.wait_for_js(&format!(
        "[...document.querySelectorAll('{LINES}')].some(l => l.textContent.includes('MD5 checked'))"
    ))
    .await;
    assert_windowed(&h, LINES, FILES).await;
    // The box follows the files under way down the list on its own.
    h.wait_for_js(&format!(
        "document.querySelector('.bulk-files').scrollTop > 0 && \
         [...document.querySelectorAll('{LINES}')].some(l => l.dataset.pos > 20 && \
            / of /.test(l.querySelector('.bulk-file-state').textContent))"
    ))
    .await;
    // Scrolled to the end of its box, the list shows the last file, still waiting,
    // and stays there: the person's scrolling ends the following.
    scroll_box_to_end_until(&h, ".bulk-files", LINES, FILES - 1).await;
    h.wait_for_text(&format!("{LINES}[data-pos=\"9999\"]"), "waiting")
        .await;
    // Files go on arriving (the bytes done grow) while the box stays where it was put.
    let total = h.text(".bulk-total-text").await;
    let done = total.split(" of ").next().unwrap_or_default();
    h.wait_for_js(&format!(
        "!document.querySelector('.bulk-total-text').textContent.startsWith({:?})",
        format!("{done} of ")
    ))
    .await;
    assert!(
        !h.find_all(&format!("{LINES}[data-pos=\"9999\"]"))
            .await
            .is_empty(),
        "the box was pulled back to the files under way"
    );
    assert!(count(&h, LINES).await <= MOST_ROWS);

    h.click(".folder-controls .button.secondary:last-child")
        .await;
    let summary = h.wait_for_text(".bulk-summary", "Done").await;
    assert!(summary.contains("cancelled"), "{summary}");
    let most = most(&h).await;
    assert!(most <= MOST_ROWS, "{most} lines in the page at one moment");
    h.stop().await;
}

#[tokio::test]
async fn verifying_a_folder_against_ten_thousand_files_keeps_the_lists_windowed() {
    const HAVE: usize = 300;
    let (h, _dir) = start().await;
    open_version(&h, "latest").await;
    // The folder holds the first 300 files, as the catalogue wrote them; it is dropped
    // on the page, which works in every engine.
    let files: Vec<(String, Vec<u8>)> = (0..HAVE)
        .map(|i| (file_name(i), vec![b'x'; file_size(i)]))
        .collect();
    h.click(".verify-files summary").await;
    h.drop_folder(".verify-files .drop-zone", "mine", &files)
        .await;
    h.wait_for_text(".verify-list.missing h4", "Missing (9700)")
        .await;
    let names = ".verify-list.missing li";
    assert_windowed(&h, names, FILES - HAVE).await;
    scroll_box_to_end_until(
        &h,
        ".verify-list.missing .name-box",
        names,
        FILES - HAVE - 1,
    )
    .await;
    assert_eq!(
        h.text(&format!("{names}[data-pos=\"9699\"]")).await,
        file_name(FILES - 1)
    );
    assert!(
        h.text(".verify-list.matches h4")
            .await
            .contains(&format!("({HAVE})"))
    );
    assert!(count(&h, names).await <= MOST_ROWS);
    h.stop().await;
}

#[tokio::test]
async fn ten_thousand_files_filter_and_sort_by_size() {
    let (h, _dir) = start().await;
    open_version(&h, "latest").await;

    let filter = h.find("#files-filter").await;
    filter.send_keys("FILE_0999").await.expect("type a filter");
    // file_09990 to file_09999.
    h.wait_for_js(&format!(
        "document.querySelectorAll('{ROWS}').length === 10"
    ))
    .await;
    // The filter is kept in the address, so the view can be shared.
    assert!(h.current_url().await.ends_with("?filter=FILE_0999"));
    let names = shown_names(&h).await;
    assert_eq!(names.first().unwrap(), &file_name(9_990));
    assert_eq!(names.last().unwrap(), &file_name(9_999));
    assert_eq!(
        h.js("return document.querySelector('.files-table').getAttribute('aria-rowcount');")
            .await,
        "12"
    );
    assert!(
        h.find(".table-count")
            .await
            .text()
            .await
            .unwrap()
            .contains("10 of 10,000 files")
    );

    // Cleared, then sorted by size: the largest file first.
    filter.send_keys(Key::Control + "a").await.expect("select");
    filter.send_keys(Key::Backspace).await.expect("clear");
    h.wait_for_js(
        "document.querySelector('.files-table').getAttribute('aria-rowcount') === '10002'",
    )
    .await;
    let size_header = "th[aria-sort] .sort-button";
    let headers = h.find_all(size_header).await;
    let size = headers.get(1).expect("a size header");
    assert_eq!(size.text().await.unwrap().trim().to_lowercase(), "size");
    size.click().await.expect("sort by size");
    let largest = (0..FILES).max_by_key(|&i| file_size(i)).unwrap();
    let smallest = (0..FILES).min_by_key(|&i| file_size(i)).unwrap();
    h.wait_for_js(&format!(
        "document.querySelector('{ROWS} .download-link').textContent === '{}'",
        file_name(largest)
    ))
    .await;
    assert_eq!(
        h.js("return document.querySelectorAll('.files-table th')[1].getAttribute('aria-sort');")
            .await,
        "descending"
    );
    assert!(h.current_url().await.ends_with("?sort=-size"));
    // Pressed again: smallest first.
    size.click().await.expect("sort by size again");
    h.wait_for_js(&format!(
        "document.querySelector('{ROWS} .download-link').textContent === '{}'",
        file_name(smallest)
    ))
    .await;
    assert!(count(&h, ROWS).await <= MOST_ROWS);
    h.stop().await;
}

#[tokio::test]
async fn older_and_newer_move_between_versions_of_ten_thousand_files() {
    let (h, _dir) = start().await;
    open_version(&h, "2").await;
    h.click("a[rel='prev']").await;
    h.wait_for_js("document.querySelector('.files-table') && document.querySelector('.files-table').getAttribute('aria-rowcount') === '9902'")
        .await;
    assert!(count(&h, ROWS).await <= MOST_ROWS);
    h.click("a[rel='next']").await;
    h.wait_for_js("document.querySelector('.files-table') && document.querySelector('.files-table').getAttribute('aria-rowcount') === '10002'")
        .await;
    // Compared with the older version: 100 files added, listed windowed.
    h.select("#compare-select", "1").await;
    h.wait_for_js("document.querySelector('.compare-counts')")
        .await;
    let added = h.find(".compare-list.added").await;
    let items = added.find_all(By::Css("li")).await.expect("added files");
    assert_eq!(
        items.len(),
        100,
        "100 added files, a short list shown whole"
    );
    h.stop().await;
}

#[tokio::test]
async fn a_gallery_of_a_thousand_products_is_windowed_and_searchable() {
    let (h, _dir) = start().await;
    let cards = ".product-grid .product-card:not(.skeleton-card)";
    record_most(&h, cards).await;
    h.goto("/").await;
    h.find(cards).await;
    assert_eq!(h.text(".result-count").await, "1,000 products");
    let shown = count(&h, cards).await;
    assert!(
        (1..=MOST_ROWS).contains(&shown),
        "{shown} cards in the page"
    );
    let most = most(&h).await;
    assert!(most <= MOST_ROWS, "{most} cards in the page at one moment");

    // Scrolled to the end, the last product shows.
    scroll_to_end_until(
        &h,
        &format!(
            "[...document.querySelectorAll('.card-title a')].some(a => a.textContent === '{}')",
            product_name(PRODUCTS - 1)
        ),
    )
    .await;
    assert!(count(&h, cards).await <= MOST_ROWS);

    // Search finds the 999th product.
    h.js("window.scrollTo(0, 0); return 0;").await;
    h.find("#gallery-search")
        .await
        .send_keys("product 0998")
        .await
        .expect("search");
    h.wait_for_js(&format!(
        "document.querySelectorAll('{cards}').length === 1 && document.querySelector('.card-title a').textContent === '{}'",
        product_name(998)
    ))
    .await;
    h.stop().await;
}

#[tokio::test]
async fn a_product_of_eleven_hundred_downloads_asks_once_and_is_windowed() {
    let (h, _dir) = start().await;
    let rows = ".downloads-table tbody tr[data-pos]";
    record_most(&h, rows).await;
    let squares: Vec<String> = Area::all()
        .filter(|a| *a != Area::Gb)
        .map(|a| a.code().to_owned())
        .collect();
    h.goto(&format!(
        "/products/{}?areas={}",
        product_id(0),
        squares.join(",")
    ))
    .await;
    h.find(rows).await;

    let total = squares.len() * FORMATS;
    // The header and every download.
    assert_eq!(
        h.js("return document.querySelector('.downloads-table').getAttribute('aria-rowcount');")
            .await,
        (total + 1).to_string()
    );
    let most = most(&h).await;
    assert!(most <= MOST_ROWS, "{most} rows in the page at one moment");

    // Scrolled to the end, the last square's last format shows.
    let last = format!("{rows}[data-pos=\"{}\"]", total - 1);
    scroll_to_end_until(&h, &format!("document.querySelector('{last}')")).await;
    let cells = h
        .js(&format!(
            "return [...document.querySelector('{last}').cells].slice(1, 3).map(c => c.textContent);"
        ))
        .await;
    assert_eq!(cells, serde_json::json!(["TV", "Format 20"]));
    assert!(count(&h, rows).await <= MOST_ROWS);

    // One request for the whole list, whatever was picked.
    let lists = h
        .visited_urls()
        .await
        .into_iter()
        .filter(|url| url.contains(&format!("/products/{}/downloads", product_id(0))))
        .count();
    assert_eq!(lists, 1, "requests for the downloads list");
    h.stop().await;
}
