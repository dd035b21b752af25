//! "Download as .zip", in a real browser against the real server: the zip the browser
//! saved is read back with the `zip` crate (not the app's writer) and every entry's md5
//! checked against the catalogue's files. The browser reaches the server through
//! `bulk.rs`'s recording, fault-injecting proxy.
//!
//! No engine-specific call: the zip is what the browser's own download manager saved
//! into the harness's download folder.

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use e2e::demo::{KEY, SECRET};
use e2e::thirtyfour::Key;
use e2e::{Harness, WAIT, md5_hex};
use tokio::sync::Notify;

use crate::bulk::{Fault, PACKAGE_FILES, PACKAGE_VERSION, PRODUCT_FILES, Setup, VERSION_LISTING};

/// What the product page's zip is called (the page's title, as a file name).
const PRODUCT_ZIP: &str = "os-open-toid-2026-01--su--sz--all-formats";
/// How long a small zip may take, retries and a 25 s stall included, on a loaded CI
/// machine (a wait ends as soon as the zip is whole).
const WITHIN: Duration = Duration::from_secs(60);

/// Every entry of a zip (each stored, as the app writes them): name → bytes.
pub(crate) fn entries(bytes: &[u8]) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let mut archive =
        ::zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| e.to_string())?;
    (0..archive.len())
        .map(|i| {
            let mut entry = archive.by_index(i).map_err(|e| e.to_string())?;
            if entry.compression() != ::zip::CompressionMethod::Stored {
                return Err(format!("{} is compressed", entry.name()));
            }
            let mut content = Vec::new();
            entry.read_to_end(&mut content).map_err(|e| e.to_string())?;
            Ok((entry.name().to_owned(), content))
        })
        .collect()
}

/// Clicks "Download as .zip" and reads back the zip `name` the browser saved.
async fn download_zip(s: &Setup, name: &str) -> BTreeMap<String, Vec<u8>> {
    let button = s.h.find(".zip-download .folder-controls .button").await;
    assert_eq!(button.text().await.unwrap(), "Download as .zip");
    button.click().await.expect("click Download as .zip");
    saved_zip(&s.h, name).await
}

/// Every entry of the zip `name` the browser saved, once it is whole: no partial file
/// is left and the zip's own central directory (which lists `checksums.md5`) is there.
/// WebKit writes a download under its final name as the bytes arrive, so an early read
/// could find an inner zip's directory at the end of a first entry.
pub(crate) async fn saved_zip(h: &Harness, name: &str) -> BTreeMap<String, Vec<u8>> {
    let zip = saved_file(
        h,
        |saved| saved == name,
        |bytes| entries(bytes).is_ok_and(|entries| entries.contains_key("checksums.md5")),
    )
    .await;
    entries(&zip).expect("a readable zip")
}

/// The bytes of the file the browser saved whose name `named` picks, once `whole` holds
/// of them and no partial file is left. A file that never comes is reported with what
/// the download folder holds and what the page says.
pub(crate) async fn saved_file(
    h: &Harness,
    named: impl Fn(&str) -> bool,
    whole: impl Fn(&[u8]) -> bool,
) -> Vec<u8> {
    let found = async || {
        let path = h
            .downloaded()
            .into_iter()
            .find(|path| {
                path.file_name()
                    .is_some_and(|n| named(&n.to_string_lossy()))
            })
            .ok_or("not saved yet")?;
        let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
        if whole(&bytes) && !h.downloading() {
            Ok(bytes)
        } else {
            Err("not whole yet".to_owned())
        }
    };
    let explain = async || {
        let page = h
            .js("return document.querySelector('.bulk')?.innerText ?? 'no bulk panel'")
            .await;
        format!(
            "; the download folder has {:?}; the page says {page}",
            h.downloaded()
        )
    };
    e2e::eventually_or(WITHIN, found, explain).await
}

/// Asserts the zip holds `files` (demo catalogue paths under `dir`) with their md5,
/// then `checksums.md5` listing each as `md5sum -c` reads it, and a report saying each
/// was downloaded with its listed md5.
fn assert_holds(s: &Setup, mut zip: BTreeMap<String, Vec<u8>>, dir: &str, files: &[&str]) {
    let checksums =
        String::from_utf8(zip.remove("checksums.md5").expect("checksums.md5")).expect("text");
    let report = String::from_utf8(
        zip.remove("download-report.json")
            .expect("download-report.json"),
    )
    .expect("text");
    let found: BTreeMap<String, String> = zip
        .iter()
        .map(|(name, bytes)| (name.clone(), md5_hex(bytes)))
        .collect();
    let want: BTreeMap<String, String> = files
        .iter()
        .map(|name| (name.to_string(), s.demo_md5(&format!("{dir}/{name}"))))
        .collect();
    assert_eq!(found, want);
    for (name, md5) in &want {
        assert!(
            checksums
                .lines()
                .any(|line| line == format!("{md5}  {name}")),
            "{checksums}"
        );
    }
    let report: serde_json::Value = serde_json::from_str(&report).expect("JSON");
    let report = report.as_array().expect("a list");
    assert_eq!(report.len(), files.len());
    for line in report {
        assert_eq!(line["status"], "downloaded", "{line}");
        let name = line["name"].as_str().unwrap();
        assert_eq!(
            line["received_md5"].as_str(),
            Some(want[name].as_str()),
            "{line}"
        );
        assert_eq!(line["listed_md5"], line["received_md5"], "{line}");
    }
}

/// What the version page's zip is called (its title as a file name).
const PACKAGE_ZIP: &str = "data-package-0040046952--version-110012.zip";

async fn on_the_product_page(faults: Vec<Fault>) -> Setup {
    let s = Setup::on_the_product_page(faults).await;
    s.h.find(".zip-download").await;
    s
}

#[tokio::test]
async fn a_product_selection_is_saved_as_one_zip_with_checksums_and_a_report() {
    let s = on_the_product_page(vec![]).await;
    let abilities = s.h.text(".bulk-abilities").await;
    assert!(abilities.contains("as a zip"), "{abilities}");
    let zip = download_zip(&s, &format!("{PRODUCT_ZIP}.zip")).await;
    assert_holds(&s, zip, "files/OpenTOID", &PRODUCT_FILES);
    let summary =
        s.h.wait_for_text_within(".zip-download .bulk-summary", "Done", WITHIN)
            .await;
    assert!(
        summary.contains("4 downloaded, 0 skipped, 0 failed"),
        "{summary}"
    );
    s.h.wait_for_text(".zip-parts", "saved").await;
    // Each file was fetched once, and its line is full.
    assert_eq!(s.requests_for("/files/products/").len(), 4);
    for bar in
        s.h.find_all(".zip-download .bulk-files [role='progressbar']")
            .await
    {
        assert_eq!(
            bar.attr("aria-valuenow").await.unwrap().as_deref(),
            Some("100")
        );
    }
    s.h.assert_no_console_errors().await;
    // The download worker answers the zips' addresses alone: the page loaded again is
    // not its client, so none of its requests pass through the worker.
    s.h.goto(crate::bulk::PRODUCT_PAGE).await;
    s.h.find(".zip-download").await;
    let controlled =
        s.h.js("return navigator.serviceWorker.controller !== null")
            .await;
    assert_eq!(controlled, serde_json::json!(false));
    s.h.stop().await;
}

#[tokio::test]
async fn a_package_version_is_zipped_with_the_session_and_no_secret_in_it() {
    let s = Setup::start(vec![]).await;
    s.goto(&format!("/login?next={PACKAGE_VERSION}")).await;
    s.h.sign_in_with_secret(KEY, SECRET).await;
    s.h.find(".files-table").await;
    s.h.find(".zip-download").await;
    let zip = download_zip(&s, PACKAGE_ZIP).await;
    for bytes in zip.values() {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains(KEY) && !text.contains(SECRET));
        assert!(!text.contains("signature=") && !text.contains("token"));
    }
    assert_holds(&s, zip, "packages/0040046952/110012", &PACKAGE_FILES);
    // Each address was asked for with the session's token in a header, never a URL.
    for head in s.requests_for("/downloads?fileName=") {
        assert!(
            head.to_ascii_lowercase().contains("authorization: bearer "),
            "{head}"
        );
    }
    s.h.stop().await;
}

#[tokio::test]
async fn a_dropped_connection_resumes_into_the_same_entry_with_range() {
    let s = on_the_product_page(vec![Fault::DropHalfway {
        prefix: "/files/products/OpenTOID/optoid_csv_sz.zip",
    }])
    .await;
    let zip = download_zip(&s, &format!("{PRODUCT_ZIP}.zip")).await;
    assert_holds(&s, zip, "files/OpenTOID", &PRODUCT_FILES);
    let asked = s.requests_for("/files/products/OpenTOID/optoid_csv_sz.zip");
    assert_eq!(asked.len(), 2, "tried once, then again: {asked:#?}");
    assert!(!asked[0].to_ascii_lowercase().contains("range:"));
    // The browser may fail the read before handing the half it received to the page
    // (seen under load): then nothing of the entry was written and the file starts
    // over; when some was, the retry asks only for the rest. The zip is whole either
    // way (above).
    let retry = asked[1].to_ascii_lowercase();
    if let Some(range) = retry.split("range: bytes=").nth(1) {
        let from: u64 = range
            .split('-')
            .next()
            .unwrap_or_default()
            .parse()
            .unwrap_or(0);
        assert!(from > 0, "a resume asks for the rest, not all: {retry}");
    }
    s.h.stop().await;
}

/// A connection dropped half-way, and the resume answered with the whole file (a service
/// that ignores `Range`): the bytes the zip holds already are passed over, so the entry
/// holds each byte once (its md5 and the zip's CRC match the listing). Firefox and WebKit
/// hand the half they received to the worker, so the resume asks for the rest; Chromium
/// fails the read first, so there it asks for all (as in the test above).
#[tokio::test]
async fn a_resume_answered_with_the_whole_file_keeps_each_byte_once() {
    const FILE: &str = "/files/products/OpenTOID/optoid_csv_sz.zip";
    let s = on_the_product_page(vec![
        Fault::DropHalfway { prefix: FILE },
        Fault::IgnoreRange { prefix: FILE },
    ])
    .await;
    let zip = download_zip(&s, &format!("{PRODUCT_ZIP}.zip")).await;
    assert_holds(&s, zip, "files/OpenTOID", &PRODUCT_FILES);
    let asked = s.requests_for(FILE);
    assert_eq!(asked.len(), 2, "tried once, then again: {asked:#?}");
    s.h.stop().await;
}

/// Files over a megabyte: Chromium hashes them (md5 and the zip's CRC) in a worker
/// beside the service worker, Firefox and WebKit in the run itself
/// (`explorer_logic::bulk::worker::fetch_beside`). A long file dropped half-way and
/// resumed, between a short one and another long one: each entry holds the catalogue's
/// bytes (the `zip` crate checks each CRC as it reads), and `checksums.md5` and the
/// report give their md5s.
#[tokio::test]
async fn long_files_are_zipped_with_their_md5_and_crc_through_a_resume() {
    const LONG: &str = "/files/products/Long/long_1.bin";
    let dir = tempfile::tempdir().expect("a temporary directory");
    let files = [
        ("long_1.bin", 3_000_000),
        ("short.bin", 10_000),
        ("long_2.bin", 1_500_000),
    ];
    write_product(dir.path(), "Long", &files);
    let s =
        Setup::start_with_catalogue(vec![Fault::DropHalfway { prefix: LONG }], dir.path()).await;
    s.goto("/products/Long?areas=GB").await;
    s.h.find(".zip-download").await;
    let zip = download_zip(&s, "long-2026-01--gb--all-formats.zip").await;
    let names = files.map(|(name, _)| name);
    assert_holds(&s, zip, "files/Long", &names);
    assert_eq!(s.requests_for(LONG).len(), 2, "tried once, then again");
    s.h.stop().await;
}

/// Writes product `id` into the catalogue in `dir`: one download of area GB per file,
/// `(name, length)`, of pseudo-random bytes (no two pieces alike, so a piece in the
/// wrong place shows in the md5).
fn write_product(dir: &std::path::Path, id: &str, files: &[(&str, usize)]) {
    let folder = dir.join("files").join(id);
    std::fs::create_dir_all(&folder).expect("the files' folder");
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut downloads = Vec::new();
    for (i, (name, length)) in files.iter().enumerate() {
        let bytes: Vec<u8> = (0..length.div_ceil(8))
            .flat_map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state.to_le_bytes()
            })
            .take(*length)
            .collect();
        std::fs::write(folder.join(name), bytes).expect("a file");
        downloads.push(serde_json::json!({
            "area": "GB",
            "format": format!("Binary {i}"),
            "path": format!("files/{id}/{name}"),
        }));
    }
    let catalogue = serde_json::json!({"products": [{
        "id": id,
        "name": id,
        "description": "Long files.",
        "version": "2026-01",
        "downloads": downloads,
    }]});
    std::fs::write(dir.join("catalogue.json"), catalogue.to_string()).expect("catalogue.json");
}

/// The zip's first file stalls for longer than Firefox lets an idle service worker live
/// (the harness shortens Firefox's limits to 8 s + 8 s: `Engine::capabilities`): the
/// page's pings keep the download worker, and the zip, alive. Firefox alone lets a test
/// set those limits; elsewhere the stall would have to outlast minutes.
#[tokio::test]
#[cfg_attr(
    not(engine = "firefox"),
    ignore = "only Firefox lets a test shorten how long an idle service worker lives"
)]
async fn a_file_that_stalls_past_the_workers_idle_limit_does_not_end_the_zip() {
    let s = on_the_product_page(vec![Fault::Stall {
        prefix: "/files/products/OpenTOID/optoid_csv_su.zip",
        time: Duration::from_secs(25),
    }])
    .await;
    let zip = download_zip(&s, &format!("{PRODUCT_ZIP}.zip")).await;
    assert_holds(&s, zip, "files/OpenTOID", &PRODUCT_FILES);
    s.h.stop().await;
}

#[tokio::test]
async fn a_429_with_retry_after_is_waited_out() {
    let s = on_the_product_page(vec![Fault::TooManyRequests {
        prefix: "/files/products/OpenTOID/optoid_gpkg_su.zip",
    }])
    .await;
    let zip = download_zip(&s, &format!("{PRODUCT_ZIP}.zip")).await;
    assert_holds(&s, zip, "files/OpenTOID", &PRODUCT_FILES);
    assert_eq!(
        s.requests_for("/files/products/OpenTOID/optoid_gpkg_su.zip")
            .len(),
        2
    );
    s.h.stop().await;
}

/// A file held until its link has expired: the app lists the version again with the
/// session and goes on.
#[tokio::test]
async fn a_link_that_expired_mid_queue_is_listed_anew_and_the_file_goes_on() {
    let held = "/files/packages/0040046952/110012/SU41_addresses.zip";
    let s = Setup::on_the_version_with_a_link_held_until_expired(held).await;
    let listed = s.requests_for(VERSION_LISTING).len();
    let zip = download_zip(&s, PACKAGE_ZIP).await;
    assert_holds(&s, zip, "packages/0040046952/110012", &PACKAGE_FILES);
    assert_eq!(s.requests_for(held).len(), 2, "refused once, then fetched");
    assert_eq!(
        s.requests_for(VERSION_LISTING).len(),
        listed + 1,
        "the version was listed once more"
    );
    s.h.stop().await;
}

/// The session ended while a file waited for a fresh link: the queue waits for a new
/// sign-in (the app's renewal with the held secret) and the zip goes on, whole.
#[tokio::test]
async fn a_session_that_ended_mid_queue_waits_for_sign_in_and_the_zip_goes_on() {
    let held = "/files/packages/0040046952/110012/SU31_addresses.zip";
    let (s, seen) = Setup::with_the_session_ending_mid_queue(held).await;
    let zip = download_zip(&s, PACKAGE_ZIP).await;
    assert_holds(&s, zip, "packages/0040046952/110012", &PACKAGE_FILES);
    // The panel that started the zip is the one that finishes it.
    s.h.wait_for_text_within(".zip-download .bulk-summary", "Done", WITHIN)
        .await;
    s.assert_signed_in_anew(seen);
    s.h.stop().await;
}

/// A data package's zip goes on while the person browses the gallery, through the
/// session ending mid-queue: renewed from the gallery (no panel of the zip's on it), the
/// zip is saved whole there, and the header showed it meanwhile.
#[tokio::test]
async fn a_package_zip_goes_on_in_the_gallery_through_the_session_ending() {
    let held = "/files/packages/0040046952/110012/SU31_addresses.zip";
    let (s, seen) = Setup::with_the_session_ending_mid_queue(held).await;
    s.h.click(".zip-download .folder-controls .button").await;
    let running = ".site-header .running-downloads li";
    s.h.wait_for_text_within(running, " of ", WITHIN).await;
    s.h.click(".site-header .brand").await;
    s.h.find(".product-card").await;
    s.h.wait_for_text(running, " of ").await;

    let zip = saved_zip(&s.h, PACKAGE_ZIP).await;
    assert!(
        s.h.find_all(".zip-download").await.is_empty(),
        "saved while the gallery showed"
    );
    assert_holds(&s, zip, "packages/0040046952/110012", &PACKAGE_FILES);
    s.assert_signed_in_anew(seen);
    s.h.stop().await;
}

#[tokio::test]
async fn a_selection_larger_than_the_part_size_is_saved_as_numbered_parts() {
    let s = on_the_product_page(vec![]).await;
    // A few kB a part: the four small files make several parts.
    let size = s.h.find(".zip-download .part-size").await;
    size.clear().await.unwrap();
    size.send_keys("0.004").await.unwrap();
    s.h.click(".zip-download .folder-controls .button").await;
    let lines =
        s.h.wait_for_text_within(".zip-parts", "part1-of-", WITHIN)
            .await;
    let count = lines.lines().filter(|line| line.contains(".zip")).count();
    assert!(count > 1, "{lines}");
    // Browsers save a page's second file only when the person asks: a click a part.
    for part in 2..=count {
        s.h.wait_for_text_within(".zip-parts", &format!("Save part {part}"), WITHIN)
            .await;
        s.h.click(".zip-parts button").await;
    }
    let summary =
        s.h.wait_for_text_within(".zip-download .bulk-summary", "Done", WITHIN)
            .await;
    assert!(summary.contains("4 downloaded"), "{summary}");
    let lines = s.h.text(".zip-parts").await;
    assert_eq!(
        lines
            .lines()
            .filter(|line| line.ends_with(": saved"))
            .count(),
        count,
        "{lines}"
    );
    let mut all = BTreeMap::new();
    for part in 1..=count {
        let name = format!("{PRODUCT_ZIP}-part{part}-of-{count}.zip");
        let mut zip = saved_zip(&s.h, &name).await;
        assert!(zip.remove("checksums.md5").is_some());
        assert!(zip.remove("download-report.json").is_some());
        all.extend(zip);
    }
    let found: Vec<&str> = all.keys().map(String::as_str).collect();
    assert_eq!(found, PRODUCT_FILES);
    for (name, bytes) in &all {
        assert_eq!(
            md5_hex(bytes),
            s.demo_md5(&format!("files/OpenTOID/{name}"))
        );
    }
    s.h.stop().await;
}

/// The app built for `/explorer/` on a static host, its service on another origin: the
/// worker is registered from the sub-path and the zip is saved all the same.
#[tokio::test]
async fn a_zip_is_saved_from_a_static_host_under_a_sub_path() {
    let (h, _) = crate::static_host::start(&[]).await;
    h.goto(crate::bulk::PRODUCT_PAGE).await;
    h.find(".downloads-table tbody tr").await;
    h.click(".zip-download .folder-controls .button").await;
    let mut zip = saved_zip(&h, &format!("{PRODUCT_ZIP}.zip")).await;
    assert!(zip.remove("checksums.md5").is_some());
    assert!(zip.remove("download-report.json").is_some());
    let demo = e2e::workspace_root().join("crates/download-server/demo/files/OpenTOID");
    let found: BTreeMap<String, String> = zip
        .iter()
        .map(|(name, bytes)| (name.clone(), md5_hex(bytes)))
        .collect();
    let want: BTreeMap<String, String> = PRODUCT_FILES
        .iter()
        .map(|name| {
            let bytes = std::fs::read(demo.join(name)).expect("demo file");
            (name.to_string(), md5_hex(&bytes))
        })
        .collect();
    assert_eq!(found, want);
    h.stop().await;
}

/// The app was updated while the browser kept the download worker of an earlier
/// version (here one that answers no zip at all): the zip registers the app's own
/// script again and is saved whole, rather than handed to the worker it found active.
#[tokio::test]
async fn a_zip_after_an_update_of_the_app_uses_the_apps_own_download_worker() {
    // A copy of the whole app (no file of it starts so), to put the older worker in.
    let (h, site) = a_host_without("old-download-worker.js").await;
    std::fs::write(
        site.path().join("old-download-worker.js"),
        "self.addEventListener('install', () => self.skipWaiting());\n\
         self.addEventListener('fetch', (event) => event.respondWith(\n\
           new Response('an older worker', {status: 404})));\n",
    )
    .expect("write the older worker");
    h.goto(crate::bulk::PRODUCT_PAGE).await;
    h.find(".downloads-table tbody tr").await;
    let registered = h
        .driver
        .execute_async(
            REGISTER_AT_THE_ZIPS,
            vec![serde_json::json!("old-download-worker.js")],
        )
        .await
        .expect("register the older worker");
    assert_eq!(registered.json(), "old-download-worker.js");
    h.click(".zip-download .folder-controls .button").await;
    let zip = saved_zip(&h, &format!("{PRODUCT_ZIP}.zip")).await;
    assert_eq!(zip.len(), PRODUCT_FILES.len() + 2, "{:?}", zip.keys());
    let active = h
        .driver
        .execute_async(REGISTER_AT_THE_ZIPS, vec![serde_json::json!(null)])
        .await
        .expect("the active worker");
    let active = active.json().as_str().unwrap_or_default().to_owned();
    assert!(active.starts_with("download-worker.js?v="), "{active}");
    h.stop().await;
}

/// Registers the script named by the argument (none: registers nothing) for the zips'
/// addresses and answers the name of the script active there once one is.
const REGISTER_AT_THE_ZIPS: &str = r#"
const [script, done] = arguments;
const here = (path) => new URL(path, document.baseURI).href;
(async () => {
  const scope = here('download-zip/');
  const registration = script
    ? await navigator.serviceWorker.register(here(script), {scope})
    : await navigator.serviceWorker.getRegistration(scope);
  while (!registration.active) await new Promise((resolve) => setTimeout(resolve, 50));
  return registration.active.scriptURL.slice(here('').length);
})().then(done, (error) => done('error: ' + error));
"#;

/// Serves a copy of the built app without the files whose names start with `missing`.
async fn a_host_without(missing: &str) -> (Harness, tempfile::TempDir) {
    let site = tempfile::tempdir().expect("a folder for the site");
    for entry in std::fs::read_dir(e2e::explorer_web_root()).expect("the built app") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_file() && !name.starts_with(missing) {
            std::fs::copy(&path, site.path().join(&name)).expect("copy a file of the app");
        }
    }
    let (h, _) = crate::static_host::start_serving(site.path(), &[]).await;
    (h, site)
}

/// Clicks "Download as .zip" on a host missing a worker: the page says the zip could
/// not start and what works instead, and nothing is saved.
async fn assert_the_zip_does_not_start(h: &Harness) {
    h.goto(crate::bulk::PRODUCT_PAGE).await;
    h.find(".downloads-table tbody tr").await;
    h.click(".zip-download .folder-controls .button").await;
    let notice = h
        .wait_for_text_within(".zip-download .notice", "Could not start the zip", WITHIN)
        .await;
    assert!(notice.contains("Nothing was downloaded"), "{notice}");
    assert!(notice.contains("the script or the URL list"), "{notice}");
    assert!(
        h.find_all(".zip-download .zip-parts li").await.is_empty(),
        "no part was started"
    );
    assert_eq!(h.downloaded(), Vec::<std::path::PathBuf>::new());
}

/// A host that does not serve the download (service) worker.
#[tokio::test]
async fn a_host_without_the_download_worker_says_so_and_saves_nothing() {
    let (h, _site) = a_host_without("download-worker.js").await;
    assert_the_zip_does_not_start(&h).await;
    h.stop().await;
}

/// A host that does not serve the bulk worker, which fetches the files: nothing
/// half-starts (no browser download begins).
#[tokio::test]
async fn a_host_without_the_bulk_worker_says_so_and_starts_no_download() {
    let (h, _site) = a_host_without("bulk-worker").await;
    assert_the_zip_does_not_start(&h).await;
    assert!(
        h.text(".zip-download .notice")
            .await
            .contains("the worker that fetches the files"),
        "the notice names what is missing"
    );
    h.stop().await;
}

/// Cancel pressed before the browser has opened the zip's download (here its service
/// worker's script is held back, as on a slow link): the panel offers Cancel from the
/// click, nothing is saved, and nothing is left half-started, so the next zip is saved
/// whole and alone.
#[tokio::test]
async fn a_zip_cancelled_before_the_browser_opens_it_saves_nothing() {
    let (h, gate) = crate::static_host::start_holding("/download-worker.js").await;
    h.goto(crate::bulk::PRODUCT_PAGE).await;
    h.find(".downloads-table tbody tr").await;
    h.click(".zip-download .folder-controls .button").await;
    let cancel = ".zip-download .folder-controls .button.secondary";
    h.wait_for_text(cancel, "Cancel").await;
    // The start button waits while the zip starts.
    h.find(".zip-download .folder-controls .button:not(.secondary):disabled")
        .await;
    h.click(cancel).await;
    let notice = h
        .wait_for_text(".zip-download .notice", "cancelled before")
        .await;
    assert!(notice.contains("Nothing was downloaded"), "{notice}");
    assert!(
        h.find_all(cancel).await.is_empty(),
        "nothing left to cancel"
    );

    // The script comes: a zip started now is saved whole, and is the only file saved.
    gate.open();
    h.click(".zip-download .folder-controls .button").await;
    let name = format!("{PRODUCT_ZIP}.zip");
    let zip = saved_zip(&h, &name).await;
    assert_eq!(zip.len(), PRODUCT_FILES.len() + 2, "{:?}", zip.keys());
    let saved: Vec<String> = h
        .downloaded()
        .iter()
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(saved, [name]);
    h.stop().await;
}

/// Cancel while a file is under way: its fetch ends (the server sees the browser hang
/// up, in the engines that close an aborted request's connection) and the browser's
/// download fails rather than leaving a short zip that looks whole.
#[tokio::test]
async fn a_cancelled_zip_ends_its_fetches_and_is_never_saved_whole() {
    let s = a_zip_under_way_with_a_stalled_file().await;
    s.h.click(".zip-download .folder-controls .button.secondary")
        .await;
    assert_the_cancelled_zip_ended(&s).await;
    s.h.wait_for_text_within(".zip-download .zip-parts", "not saved", WITHIN)
        .await;
    s.h.stop().await;
}

/// The tab reloaded while a file is under way (the person chose to leave at the
/// browser's prompt): the run, which lives in the service worker, ends with the page
/// it belonged to: its fetch ends and the browser's download fails rather than waiting
/// for bytes nobody fetches, or leaving a short zip that looks whole.
#[tokio::test]
async fn a_zip_whose_page_is_reloaded_ends_its_fetches_and_is_never_saved_whole() {
    let s = a_zip_under_way_with_a_stalled_file().await;
    s.h.driver.refresh().await.expect("reload the page");
    assert_the_cancelled_zip_ended(&s).await;
    s.h.stop().await;
}

/// The browser refuses to save the zip (Chromium told to deny downloads, as its settings
/// block a site's downloads): it cancels the download as it starts, before the run has
/// written a byte. The part says the browser cancelled it, not that the zip could not be
/// written, and the files it held count as failed, not downloaded; nothing is lost:
/// allowed again, "Retry" saves the zip whole.
#[tokio::test]
#[cfg_attr(
    not(engine = "chromium"),
    ignore = "only Chromium lets a test make the browser refuse a download (DevTools' Browser.setDownloadBehavior)"
)]
async fn a_zip_the_browser_refuses_to_save_says_so_and_can_be_retried() {
    let s = on_the_product_page(vec![]).await;
    let downloads = async |behavior: &str| {
        let params = serde_json::json!({ "behavior": behavior });
        let cdp = s.h.driver.cdp();
        let set = cdp.send_raw("Browser.setDownloadBehavior", params).await;
        set.expect("set how the browser treats downloads");
    };
    downloads("deny").await;
    s.h.click(".zip-download .folder-controls .button").await;
    let parts =
        s.h.wait_for_text_within(".zip-download .zip-parts", "not saved", WITHIN)
            .await;
    assert!(
        parts.contains("the download was cancelled in the browser"),
        "{parts}"
    );
    // The files it held are not on disk: none counts as downloaded.
    let files = PRODUCT_FILES.len();
    let summary = ".zip-download .bulk-summary";
    let over = s.h.wait_for_text_within(summary, "Done", WITHIN).await;
    assert!(
        over.contains(&format!("0 downloaded, 0 skipped, {files} failed")),
        "{over}"
    );
    assert!(
        !over.contains("report"),
        "no zip, so no report to point to: {over}"
    );
    assert!(s.h.downloaded().is_empty(), "{:?}", s.h.downloaded());

    downloads("default").await;
    s.h.click(".zip-download .zip-parts .button").await;
    let zip = saved_zip(&s.h, &format!("{PRODUCT_ZIP}.zip")).await;
    assert_holds(&s, zip, "files/OpenTOID", &PRODUCT_FILES);
    let done = format!("{files} downloaded, 0 skipped, 0 failed");
    s.h.wait_for_text_within(summary, &done, WITHIN).await;
    s.h.stop().await;
}

/// The file the cancel tests stall: asked for, never answered.
const STALLED: &str = "/files/products/OpenTOID/optoid_csv_su.zip";

/// The product page's zip started, its first file ([`STALLED`]) asked for and held,
/// and the browser's download of the zip open (the run offers Cancel).
async fn a_zip_under_way_with_a_stalled_file() -> Setup {
    let s = on_the_product_page(vec![Fault::Stall {
        prefix: STALLED,
        time: Duration::from_secs(120),
    }])
    .await;
    s.h.click(".zip-download .folder-controls .button").await;
    e2e::eventually(WITHIN, async || match s.requests_for(STALLED).is_empty() {
        false => Ok(()),
        true => Err(format!("{STALLED} not asked for yet")),
    })
    .await;
    // The first files are fetched while the browser opens the download, which can
    // take a cold engine (WebKit on a fresh machine) longer than a click's wait. Cancel
    // shows from the click; the part being saved, once the browser has the zip.
    s.h.wait_for_text_within(".zip-download .zip-parts", "being saved", WITHIN)
        .await;
    s
}

/// After a cancel: the stalled fetch ended (the server saw the browser hang up, where
/// the engine closes an aborted request's connection), and the browser ended its
/// download: no partial file is left, and whatever it kept is no readable zip.
async fn assert_the_cancelled_zip_ended(s: &Setup) {
    let hung_up = async || {
        let hung_up = s.proxy.hung_up.lock().unwrap().clone();
        match hung_up.iter().any(|path| path.starts_with(STALLED)) {
            true => Ok(()),
            false => Err(format!("the server still serves {STALLED}: {hung_up:?}")),
        }
    };
    let explain = async || {
        let page =
            s.h.js("return document.querySelector('.bulk')?.innerText")
                .await;
        let files = s.requests_for("/files/");
        format!("; the page says {page}; the files asked for: {files:?}")
    };
    // Firefox (ESR 153 here) kept an aborted request's connection open for as long as
    // the test waited (60 s): what the browser does with its sockets is checked where
    // it closes them.
    if e2e::runs_in(
        &[e2e::Engine::Chromium, e2e::Engine::Webkit],
        "Firefox keeps an aborted request's connection open; the rest is checked",
    ) {
        e2e::eventually_or(WITHIN, hung_up, explain).await;
    }
    e2e::eventually(WITHIN, async || match s.h.downloading() {
        false => Ok(()),
        true => Err(format!("still downloading: {:?}", s.h.downloaded())),
    })
    .await;
    let saved = s.h.download_dir().join(format!("{PRODUCT_ZIP}.zip"));
    if let Ok(file) = std::fs::File::open(&saved) {
        assert!(
            ::zip::ZipArchive::new(file).is_err(),
            "a cancelled zip was saved looking whole"
        );
    }
}

/// The last file of the product page's zip, which the tests below hold back to keep the
/// zip running.
const LAST_FILE: &str = "/files/products/OpenTOID/optoid_gpkg_sz.zip";
/// The product page's title, which names its zip in the header.
const PRODUCT_TITLE: &str = "OS Open TOID 2026-01: SU, SZ (all formats)";

/// The product page, its zip's last file held until `release` is notified.
async fn on_the_product_page_holding_the_last_file(release: &Arc<Notify>) -> Setup {
    on_the_product_page(vec![Fault::Hold {
        prefix: LAST_FILE,
        release: Arc::clone(release),
    }])
    .await
}

/// The header's line of the download under way, once it shows one.
async fn header_line(h: &Harness) -> String {
    // Within the zip tests' wait: the header lists a zip once the browser has opened it.
    h.wait_for_text_within(".site-header .running-downloads li", PRODUCT_TITLE, WITHIN)
        .await
}

/// Whether the page would ask before the tab closes: a cancelable `beforeunload`
/// dispatched to it, as the browser's is, is cancelled. (A real one would open the
/// browser's prompt, which WebDriver answers by itself.)
async fn asks_before_leaving(h: &Harness) -> bool {
    h.js("const e = new Event('beforeunload', {cancelable: true}); \
          window.dispatchEvent(e); return e.defaultPrevented;")
        .await
        .as_bool()
        .expect("a boolean")
}

/// A zip started on a product page goes on while the person goes to the gallery and
/// to another product: the header shows it on each with a link back, which leads to
/// the running zip (not a fresh button), and the zip is saved whole.
/// Cancel pressed in the header, on another page than the zip's: the stalled file's
/// fetch ends (the server sees the browser hang up, where the engine closes an aborted
/// request's connection), the header empties and the browser never keeps a zip that
/// looks whole.
#[tokio::test]
async fn a_zip_cancelled_from_the_header_on_another_page_ends_its_fetches() {
    let s = a_zip_under_way_with_a_stalled_file().await;
    // The gallery, through the app's own link: the zip goes on, the header shows it.
    s.h.click(".site-header .brand").await;
    s.h.find(".product-card").await;
    header_line(&s.h).await;
    s.h.click(".site-header .running-downloads button").await;
    e2e::eventually(WITHIN, async || {
        match s
            .h
            .find_all(".site-header .running-downloads li")
            .await
            .is_empty()
        {
            true => Ok(()),
            false => Err("the header still lists the zip".to_owned()),
        }
    })
    .await;
    assert_the_cancelled_zip_ended(&s).await;
    s.h.stop().await;
}

#[tokio::test]
async fn a_zip_goes_on_while_the_person_browses_and_the_header_leads_back() {
    let release = Arc::new(Notify::new());
    let s = on_the_product_page_holding_the_last_file(&release).await;
    assert!(
        s.h.find_all(".site-header .running-downloads li")
            .await
            .is_empty(),
        "no download yet"
    );
    s.h.click(".zip-download .folder-controls .button").await;
    let line = header_line(&s.h).await;
    assert!(line.contains(" of "), "bytes done of all: {line}");

    // The gallery, through the app's own link.
    s.h.click(".site-header .brand").await;
    s.h.find(".product-card").await;
    header_line(&s.h).await;
    // Another product.
    s.h.click(".product-card a[href*='/products/OpenGreenspace']")
        .await;
    s.h.wait_for_address(|at| at.contains("/products/OpenGreenspace"))
        .await;
    header_line(&s.h).await;
    assert!(
        s.h.find_all(".zip-download").await.is_empty(),
        "no selection here"
    );

    // Back to the zip's page by the header's link, from the keyboard.
    let link = s.h.find(".site-header .running-downloads a").await;
    let href = link.attr("href").await.unwrap().unwrap_or_default();
    assert!(href.contains("/products/OpenTOID?"), "{href}");
    s.h.js("document.querySelector('.site-header .running-downloads a').focus(); return true;")
        .await;
    s.h.press(Key::Enter).await;
    s.h.wait_for_address(|at| at.contains("/products/OpenTOID?"))
        .await;
    s.h.wait_for_text(".zip-download .zip-parts", "being saved")
        .await;
    let start = s.h.find(".zip-download .folder-controls .button").await;
    assert!(
        !start.is_enabled().await.unwrap(),
        "the running zip shows, not a button for a new one"
    );
    assert!(
        !s.h.find_all(".zip-download .bulk-files [role='progressbar']")
            .await
            .is_empty()
    );

    release.notify_one();
    let zip = saved_zip(&s.h, &format!("{PRODUCT_ZIP}.zip")).await;
    assert_holds(&s, zip, "files/OpenTOID", &PRODUCT_FILES);
    let summary =
        s.h.wait_for_text_within(".zip-download .bulk-summary", "Done", WITHIN)
            .await;
    assert!(summary.contains("4 downloaded"), "{summary}");
    assert_eq!(
        s.requests_for("/files/products/").len(),
        4,
        "each file once"
    );
    e2e::eventually(WAIT, async || {
        match s
            .h
            .find_all(".site-header .running-downloads li")
            .await
            .len()
        {
            0 => Ok(()),
            n => Err(format!("the header still lists {n} download(s)")),
        }
    })
    .await;
    // Leaving a product page and coming back logs nothing (it once logged a panic).
    s.h.stop_clean().await;
}

/// Closing the tab or reloading asks first only while a zip runs.
#[tokio::test]
async fn the_tab_asks_before_closing_only_while_a_zip_runs() {
    let release = Arc::new(Notify::new());
    let s = on_the_product_page_holding_the_last_file(&release).await;
    assert!(!asks_before_leaving(&s.h).await, "nothing runs yet");
    s.h.click(".zip-download .folder-controls .button").await;
    header_line(&s.h).await;
    assert!(asks_before_leaving(&s.h).await, "the zip runs");

    release.notify_one();
    saved_zip(&s.h, &format!("{PRODUCT_ZIP}.zip")).await;
    s.h.wait_for_text_within(".zip-download .bulk-summary", "Done", WITHIN)
        .await;
    e2e::eventually(WAIT, async || match asks_before_leaving(&s.h).await {
        false => Ok(()),
        true => Err("the finished zip still holds the tab".to_owned()),
    })
    .await;
    s.h.stop().await;
}
