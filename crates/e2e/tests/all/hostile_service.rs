//! The app against a service that sends what a careless or hostile one may (see
//! `e2e::hostile_service`): addresses that are no web addresses, one listing with two
//! files of one name, a tab in a name and unusable fields, and a token no header can
//! carry. The app is on a static host at another origin, as with the quirky service.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

use e2e::hostile_service::{
    self, DOCUMENTATION, ERROR_LINK, HostileService, KEY, PACKAGE, PACKAGE_SAVED, PRODUCT, SAVED,
    SECRET, VERSION,
};
use e2e::{Harness, WAIT, eventually_or, md5_hex, serve, static_host, web_root};

use crate::zip::{entries, saved_file};

/// How long a small zip or a saved file may take on a loaded machine.
const WITHIN: Duration = Duration::from_secs(60);

/// The hostile service, the app on a static host whose `config.json` names it, and
/// the browser on it.
async fn start() -> (Harness, HostileService) {
    let service = HostileService::start().await;
    let host = serve(static_host::router(&web_root(), "", service.config())).await;
    let h = Harness::open(host.origin.clone(), vec![host]).await;
    (h, service)
}

/// The addresses of the page's links that are not `http:` or `https:`.
async fn links_that_are_no_web_addresses(h: &Harness) -> Vec<String> {
    serde_json::from_value(
        h.js("return [...document.querySelectorAll('a[href]')] \
               .filter(a => a.protocol !== 'http:' && a.protocol !== 'https:') \
               .map(a => a.getAttribute('href'));")
            .await,
    )
    .expect("a list")
}

#[tokio::test]
async fn a_service_s_address_becomes_a_link_only_when_it_is_http_or_https() {
    let (h, _service) = start().await;
    h.goto(&format!("/products/{PRODUCT}")).await;
    let shown = h
        .wait_for_text(".product-meta .not-a-link", DOCUMENTATION)
        .await;
    assert!(shown.contains("not a link"), "{shown}");
    assert_eq!(
        links_that_are_no_web_addresses(&h).await,
        Vec::<String>::new()
    );
    e2e::axe::assert_none(&e2e::axe::check_all_looks(&h, "a product").await);

    // An error body's links: the web address is a link, the other is text.
    h.goto("/products/NoSuchProduct").await;
    h.wait_for_text(".error-links", ERROR_LINK).await;
    let links = h.find_all(".error-links a").await;
    assert_eq!(links.len(), 1);
    let href = links[0].attr("href").await.unwrap().unwrap_or_default();
    assert!(
        href.ends_with(&format!("/products/{PRODUCT}/downloads")),
        "{href}"
    );
    h.find(".error-links .not-a-link").await;
    assert_eq!(
        links_that_are_no_web_addresses(&h).await,
        Vec::<String>::new()
    );
    e2e::axe::assert_none(&e2e::axe::check_all_looks(&h, "a missing product").await);
    h.stop_clean().await;
}

/// The product page with every file of the listing in its table.
async fn on_the_listing(h: &Harness) {
    h.goto(&format!("/products/{PRODUCT}?areas=SU,SV")).await;
    let rows = async || {
        let count = h
            .js("return document.querySelectorAll('.downloads-table tbody tr').length;")
            .await;
        if count == hostile_service::listed_count() {
            Ok(())
        } else {
            Err(format!("{count} rows"))
        }
    };
    let explain = async || {
        let page = h
            .js("return document.querySelector('main')?.innerText;")
            .await;
        format!("; the page says {page}")
    };
    eventually_or(WAIT, rows, explain).await;
    // The notes' words load after the table's and push the bulk panel's buttons down
    // when they come: a click before then can land where a button was (WebKit).
    h.wait_for_text(".bulk-renames", "saved under").await;
}

#[tokio::test]
async fn one_unusable_field_hides_no_file_and_the_page_says_which_and_why() {
    let (h, _service) = start().await;
    on_the_listing(&h).await;
    let note = h.text(".listing-flaws").await;
    for words in [
        "in 6 files",
        "negative.zip: the size -5 is not a size in bytes",
        "odd.zip: the area 5 is not an area code",
        "odd.zip: the format (not shown) is not the name of a format",
        "huge.zip: the size (not shown) is not a size in bytes",
        "badmd5.zip: the MD5 \"not-an-md5\" is not 32 hexadecimal digits",
        "script.zip: the address \"javascript:alert(1)\" is not an http or https address",
        "data.zip: the address \"data:text/html,",
    ] {
        assert!(note.contains(words), "{words:?} not in {note}");
    }
    // Unusable fields are unknown and marked; files without an address are not offered.
    let cell = async |file: &str, column: &str| {
        h.text(&format!(".downloads-table tr[data-file='{file}'] {column}"))
            .await
    };
    assert!(cell("negative.zip", "td.num").await.contains("unknown"));
    assert!(cell("huge.zip", "td.num").await.contains("unknown"));
    assert!(cell("badmd5.zip", ".md5-cell").await.contains("unknown"));
    for file in ["script.zip", "data.zip"] {
        // Its words load after the table's (`t::flaws`): wait for them.
        h.wait_for_text(
            &format!(".downloads-table tr[data-file='{file}'] td:last-child"),
            "Not offered",
        )
        .await;
        let links = h
            .find_all(&format!(".downloads-table tr[data-file='{file}'] a"))
            .await;
        assert!(links.is_empty(), "{file} has a link");
    }
    assert_eq!(
        h.find_all(".downloads-table a[download]").await.len(),
        SAVED.len()
    );
    assert_eq!(
        links_that_are_no_web_addresses(&h).await,
        Vec::<String>::new()
    );

    // The bulk panel offers the files with an address, and says which are renamed.
    let renames = h.text(".bulk-renames").await;
    for words in [
        "3 files are saved under other names",
        "same.zip is saved as same (SU).zip: 2 files of the list have that name",
        "same.zip is saved as same (SV).zip",
        "\"tab\\there.zip\" is saved as tab_here.zip: its control characters",
    ] {
        assert!(renames.contains(words), "{words:?} not in {renames}");
    }
    let one_by_one = h.text(".bulk-links summary").await;
    assert!(
        one_by_one.contains(&SAVED.len().to_string()),
        "{one_by_one}"
    );
    e2e::axe::assert_none(&e2e::axe::check_all_looks(&h, "a listing with flaws").await);

    // In the basket, which lists no table of files, the same note stands above its
    // downloads, and the files without an address are not offered there either.
    h.click(".add-to-basket button").await;
    h.wait_for_text(".add-to-basket", "In your basket.").await;
    h.goto("/basket").await;
    let note = h
        .wait_for_text(".listing-flaws", "script.zip: the address")
        .await;
    assert!(note.contains("in 6 files"), "{note}");
    let one_by_one = h.text(".bulk-links summary").await;
    assert!(
        one_by_one.contains(&SAVED.len().to_string()),
        "{one_by_one}"
    );
    h.stop_clean().await;
}

#[tokio::test]
async fn two_files_of_one_name_are_both_kept_in_the_zip_and_the_checklist() {
    let (h, _service) = start().await;
    on_the_listing(&h).await;

    // The zip: an entry each, the closing entries saying which is which.
    h.click(".zip-download .folder-controls .button").await;
    let zip = saved_file(
        &h,
        |name| name.ends_with(".zip"),
        |bytes| entries(bytes).is_ok_and(|entries| entries.contains_key("checksums.md5")),
    )
    .await;
    let mut zip = entries(&zip).expect("a zip");
    let checksums = String::from_utf8(zip.remove("checksums.md5").unwrap()).unwrap();
    let report: serde_json::Value =
        serde_json::from_slice(&zip.remove("download-report.json").unwrap()).unwrap();
    let want: BTreeMap<String, Vec<u8>> = SAVED
        .iter()
        .map(|(name, key)| (name.to_string(), hostile_service::file_bytes(key)))
        .collect();
    assert_eq!(zip, want);
    for (name, bytes) in &want {
        let line = format!("{}  {name}", md5_hex(bytes));
        assert!(
            checksums.lines().any(|l| l == line),
            "{line:?} not in {checksums}"
        );
    }
    assert_eq!(checksums.lines().count(), SAVED.len(), "{checksums}");
    let report: BTreeMap<String, serde_json::Value> = report
        .as_array()
        .expect("a list")
        .iter()
        .map(|line| (line["name"].as_str().unwrap().to_owned(), line.clone()))
        .collect();
    assert_eq!(report.len(), SAVED.len());
    assert_eq!(report["same (SU).zip"]["listed_name"], "same.zip");
    assert_eq!(report["same (SV).zip"]["listed_name"], "same.zip");
    assert_eq!(report["tab_here.zip"]["listed_name"], "tab\there.zip");
    assert!(report["huge.zip"].get("listed_name").is_none());
    assert_eq!(
        report["huge.zip"]["size"],
        serde_json::Value::Null,
        "no bogus size"
    );
    assert_eq!(report["negative.zip"]["size"], serde_json::Value::Null);
    assert_eq!(
        report["badmd5.zip"]["listed_md5"],
        serde_json::Value::Null,
        "no bogus md5"
    );
    for line in report.values() {
        assert_eq!(line["status"], "downloaded", "{line}");
    }

    // The md5 checklist names the files as the zip does: `md5sum -c` checks the zip's
    // files with it. (The script is saved as a `.sh`, which Chromium holds back as
    // dangerous; the native tests run it, names the same.)
    h.click(".bulk-export button:nth-of-type(3)").await;
    let checklist = saved_file(
        &h,
        |name| name.ends_with(".md5"),
        |bytes| bytes.ends_with(b"\n"),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("checklist.md5"), &checklist).unwrap();
    for (name, bytes) in &want {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let check = Command::new("md5sum")
        .args(["-c", "checklist.md5"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let checked = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{checked}");
    // The files listed with their md5 (not the one whose md5 is bogus).
    assert_eq!(checked.lines().count(), SAVED.len() - 1, "{checked}");
    h.stop_clean().await;
}

#[tokio::test]
async fn a_token_no_header_can_carry_is_refused_and_never_sent() {
    let (h, service) = start().await;
    h.sign_in_to("/packages", KEY, SECRET).await;
    let message = h.sign_in_error().await;
    assert!(message.contains("cannot be sent in a request"), "{message}");
    assert!(message.contains("API key only"), "{message}");
    assert_eq!(h.js("return location.pathname;").await, "/login");

    // A pasted token with characters no header carries is refused before it is sent.
    h.sign_in_with_token("tök€n").await;
    h.wait_for_text(".form-error", "ASCII letters, digits and punctuation")
        .await;
    assert_eq!(
        service.authorizations(),
        Vec::<String>::new(),
        "no request went out with the token"
    );
    h.stop_clean().await;
}

#[tokio::test]
async fn what_the_page_says_of_the_listing_is_said_in_welsh() {
    let (h, _service) = start().await;
    h.goto(&format!("/products/{PRODUCT}?areas=SU,SV&lang=cy"))
        .await;
    let note = h
        .wait_for_text(".listing-flaws", "nid yw'r maint -5 yn faint mewn beitiau")
        .await;
    assert!(note.contains("mewn 6 ffeil"), "{note}");
    assert!(
        note.contains("odd.zip: nid yw'r ardal 5 yn god ardal"),
        "{note}"
    );
    let renames = h
        .wait_for_text(
            ".bulk-renames",
            "Mae same.zip yn cael ei chadw fel same (SU).zip",
        )
        .await;
    assert!(
        renames.contains("mae gan 2 ffeil yn y rhestr yr enw hwnnw"),
        "{renames}"
    );
    let documentation = h.text(".product-meta .not-a-link").await;
    assert!(documentation.contains("nid yw'n ddolen"), "{documentation}");
    assert!(
        h.text(".downloads-table tr[data-file='script.zip'] td:last-child")
            .await
            .contains("Ddim ar gael")
    );
    h.stop().await;
}

#[tokio::test]
async fn a_package_version_with_flawed_files_lists_them_all_and_keeps_both_of_one_name() {
    let (h, _service) = start().await;
    h.goto(&format!(
        "/login?next=/packages/{PACKAGE}/versions/{VERSION}"
    ))
    .await;
    h.choose_sign_in_method("API key only").await;
    h.type_into("#login-key", KEY).await;
    h.submit_sign_in().await;
    h.wait_for_js("document.querySelectorAll('.files-table tbody tr').length === 4")
        .await;
    let note = h.text(".listing-flaws").await;
    for words in [
        "in 2 files",
        "broken.zip: the size \"12abc\" is not a size in bytes",
        "broken.zip: the MD5 12345 is not 32 hexadecimal digits",
        "nowhere.zip: the address (not shown) is not an http or https address",
    ] {
        assert!(note.contains(words), "{words:?} not in {note}");
    }
    h.wait_for_text(".files-table tbody", "nowhere.zip (Not offered)")
        .await;
    assert_eq!(h.find_all(".files-table a.download-link").await.len(), 3);
    let renames = h.text(".bulk-renames").await;
    assert!(
        renames
            .contains("parcel.zip is saved as parcel (2).zip: 2 files of the list have that name"),
        "{renames}"
    );
    assert!(!renames.contains("saved as parcel.zip"), "{renames}");

    // The zip keeps both files of one name.
    h.click(".zip-download .folder-controls .button").await;
    let zip = saved_file(
        &h,
        |name| name.ends_with(".zip"),
        |bytes| entries(bytes).is_ok_and(|entries| entries.contains_key("checksums.md5")),
    )
    .await;
    let mut zip = entries(&zip).expect("a zip");
    assert!(zip.remove("checksums.md5").is_some());
    assert!(zip.remove("download-report.json").is_some());
    let want: BTreeMap<String, Vec<u8>> = PACKAGE_SAVED
        .iter()
        .map(|(name, key)| (name.to_string(), hostile_service::file_bytes(key)))
        .collect();
    assert_eq!(zip, want);
    e2e::axe::assert_none(&e2e::axe::check_all_looks(&h, "a version with flaws").await);
    h.stop_clean().await;
}

#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn two_files_of_one_name_are_both_kept_in_a_folder() {
    let (h, _service) = start().await;
    h.pick_private_folder().await;
    on_the_listing(&h).await;
    h.click(".folder-download .folder-controls .button").await;
    let summary = h
        .wait_for_text_within(".folder-download .bulk-summary", "Done", WITHIN)
        .await;
    assert!(
        summary.contains("7 downloaded, 0 skipped, 0 failed"),
        "{summary}"
    );
    let mut found = crate::bulk::folder_md5s(&h).await;
    assert!(found.remove("download-report.json").is_some(), "no report");
    let want: BTreeMap<String, String> = SAVED
        .iter()
        .map(|(name, key)| (name.to_string(), md5_hex(&hostile_service::file_bytes(key))))
        .collect();
    assert_eq!(found, want);
    h.stop_clean().await;
}
