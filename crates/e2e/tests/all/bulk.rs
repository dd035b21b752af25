//! "Download to a folder" and "Verify files", in a real browser against the real server.
//!
//! The app is handed the browser's origin-private file system in place of the folder
//! picker (`window.__downloadExplorerPickDirectory`), and the tests read the files back
//! from it. The browser reaches the server through a small proxy of this file (shared
//! with `zip.rs`), which records every request and can break one answer off part-way,
//! answer one 429, or hold a request until its signed link has expired, as a flaky
//! network, a busy service or a long queue would.
//!
//! "Download to a folder" needs the File System Access API's `showDirectoryPicker`,
//! which only Chromium has (Firefox and Safari will not ship it): its tests are ignored
//! elsewhere ("no folder picker"); verifying a dropped folder and the zip (`zip.rs`)
//! run everywhere.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use e2e::demo::{KEY, SECRET};
use e2e::{Harness, WAIT, md5_hex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Four small files: OpenTOID's CSV and GeoPackage for SU and SZ.
pub(crate) const PRODUCT_PAGE: &str = "/products/OpenTOID?areas=SU,SZ";
pub(crate) const PRODUCT_FILES: [&str; 4] = [
    "optoid_csv_su.zip",
    "optoid_csv_sz.zip",
    "optoid_gpkg_su.zip",
    "optoid_gpkg_sz.zip",
];
pub(crate) const PACKAGE_VERSION: &str = "/packages/0040046952/versions/110012";
/// The service's address of the package version (its listing).
const VERSION_API: &str = "/downloads/v1/dataPackages/0040046952/versions/110012";
/// A request line that lists the package version.
pub(crate) const VERSION_LISTING: &str = "/versions/110012 ";
/// A request line that asks the token endpoint for a token.
const TOKEN_REQUEST: &str = "/oauth2/token/v1";
pub(crate) const PACKAGE_FILES: [&str; 3] = [
    "SU31_addresses.zip",
    "SU41_addresses.zip",
    "SU42_addresses.zip",
];

/// What the proxy does to the next request whose path starts with `prefix`, once.
#[derive(Debug, Clone)]
pub(crate) enum Fault {
    /// Passes on the answer's head and half its body, then drops the connection.
    DropHalfway { prefix: &'static str },
    /// Passes the request on without its `Range` header, so the service answers with
    /// the whole file, as a service that ignores `Range` does.
    IgnoreRange { prefix: &'static str },
    /// Answers `429 Too Many Requests` with `Retry-After: 1` itself.
    TooManyRequests { prefix: &'static str },
    /// Answers `404 Not Found` itself: a file the service no longer has.
    NotFound { prefix: &'static str },
    /// Holds the request until the signed link it asks for (`expires=` in its query,
    /// seconds since the epoch) has expired, then passes it on.
    HoldUntilExpired { prefix: &'static str },
    /// Holds the request for `time`, then passes it on: a file that keeps a queue waiting.
    Stall {
        prefix: &'static str,
        time: Duration,
    },
    /// Answers `401 Unauthorized` itself to a request for exactly `path`, as a service
    /// does once a session has ended.
    Unauthorized { path: &'static str },
    /// Holds the request until the test notifies `release`, then passes it on: a
    /// download kept running for as long as the test needs.
    Hold {
        prefix: &'static str,
        release: Arc<tokio::sync::Notify>,
    },
}

#[derive(Debug, Default)]
pub(crate) struct ProxyState {
    /// The head of every request, as received.
    pub(crate) requests: Mutex<Vec<String>>,
    /// The paths of stalled requests whose client hung up before the answer came.
    pub(crate) hung_up: Mutex<Vec<String>>,
    faults: Mutex<Vec<Fault>>,
}

/// What the proxy had seen at a point of a test: the version's listings and the token
/// requests.
pub(crate) struct Seen {
    listings: usize,
    tokens: usize,
}

/// The server behind a recording, fault-injecting proxy, and a browser using it.
pub(crate) struct Setup {
    pub(crate) h: Harness,
    /// The proxy's origin: the address the browser uses (and the server's public URL).
    pub(crate) origin: String,
    pub(crate) proxy: Arc<ProxyState>,
    /// The catalogue the server serves: the demo's, unless the test wrote its own.
    demo: PathBuf,
}

impl Setup {
    pub(crate) async fn start(faults: Vec<Fault>) -> Setup {
        Setup::start_with(faults, &[]).await
    }

    /// [`Setup::start`] with `server_args` added to the server's command line.
    pub(crate) async fn start_with(faults: Vec<Fault>, server_args: &[&str]) -> Setup {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        let origin = format!("http://{}", listener.local_addr().unwrap());
        // The server writes the proxy's address into every link it lists.
        let mut args = vec!["--public-url", &origin];
        args.extend(server_args);
        let h = Harness::start(&args).await;
        let upstream: SocketAddr = h.base.trim_start_matches("http://").parse().unwrap();
        let proxy = Arc::new(ProxyState {
            faults: Mutex::new(faults),
            ..ProxyState::default()
        });
        tokio::spawn(serve(listener, upstream, Arc::clone(&proxy)));
        let s = Setup {
            h,
            origin,
            proxy,
            demo: e2e::workspace_root().join("crates/download-server/demo"),
        };
        // The folder hook is kept by the origin the app is served from: the proxy's.
        s.goto(&format!("/{}", e2e::web_root::BLANK_FILE)).await;
        s.h.pick_private_folder().await;
        s
    }

    /// [`Setup::start`] with the server serving the catalogue in `dir` instead.
    pub(crate) async fn start_with_catalogue(faults: Vec<Fault>, dir: &Path) -> Setup {
        let catalogue = dir.display().to_string();
        let mut s = Setup::start_with(faults, &["--catalogue", &catalogue]).await;
        s.demo = dir.to_path_buf();
        s
    }

    /// [`Setup::start`] on the product page, once its files are listed.
    pub(crate) async fn on_the_product_page(faults: Vec<Fault>) -> Setup {
        let s = Setup::start(faults).await;
        s.goto(PRODUCT_PAGE).await;
        s.h.find(".downloads-table tbody tr").await;
        s
    }

    pub(crate) async fn goto(&self, path: &str) {
        self.h
            .driver
            .goto(format!("{}{path}", self.origin))
            .await
            .expect("navigate");
    }

    /// Adds `fault` for the requests still to come.
    pub(crate) fn add_fault(&self, fault: Fault) {
        self.proxy.faults.lock().unwrap().push(fault);
    }

    /// Signed in with key and secret on the package version, its links living 2 s and
    /// the proxy holding the file `held` (a `/files/…` path) until its link has expired,
    /// as a queue longer than a link's life would.
    pub(crate) async fn on_the_version_with_a_link_held_until_expired(held: &'static str) -> Setup {
        let s = Setup::start_with(
            vec![Fault::HoldUntilExpired { prefix: held }],
            &["--link-lifetime", "2"],
        )
        .await;
        s.goto(&format!("/login?next={PACKAGE_VERSION}")).await;
        s.h.sign_in_with_secret(KEY, SECRET).await;
        s.h.find(".files-table").await;
        s
    }

    /// [`Setup::on_the_version_with_a_link_held_until_expired`], with the version's next
    /// listing refused (401) as a service does once a session has ended; and what the
    /// proxy had seen by then.
    pub(crate) async fn with_the_session_ending_mid_queue(held: &'static str) -> (Setup, Seen) {
        let s = Setup::on_the_version_with_a_link_held_until_expired(held).await;
        s.add_fault(Fault::Unauthorized { path: VERSION_API });
        let seen = Seen {
            listings: s.requests_for(VERSION_LISTING).len(),
            tokens: s.requests_for(TOKEN_REQUEST).len(),
        };
        (s, seen)
    }

    /// Asserts that since `before` the version was listed once (refused for the session,
    /// and not again for the page) and a token asked for once (signed in anew).
    pub(crate) fn assert_signed_in_anew(&self, before: Seen) {
        assert_eq!(
            self.requests_for(VERSION_LISTING).len(),
            before.listings + 1,
            "refused for the session, and not listed again for the page"
        );
        assert_eq!(
            self.requests_for(TOKEN_REQUEST).len(),
            before.tokens + 1,
            "signed in anew"
        );
    }

    /// Request heads the proxy saw whose request line contains `needle`.
    pub(crate) fn requests_for(&self, needle: &str) -> Vec<String> {
        self.proxy
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|head| {
                head.lines()
                    .next()
                    .is_some_and(|line| line.contains(needle))
            })
            .cloned()
            .collect()
    }

    /// The md5 of a demo catalogue file, e.g. `files/OpenTOID/optoid_csv_su.zip`.
    pub(crate) fn demo_md5(&self, path: &str) -> String {
        md5_hex(&self.demo_bytes(path))
    }

    pub(crate) fn demo_bytes(&self, path: &str) -> Vec<u8> {
        std::fs::read(self.demo.join(path)).expect("demo file")
    }
}

async fn serve(listener: TcpListener, upstream: SocketAddr, state: Arc<ProxyState>) {
    while let Ok((client, _)) = listener.accept().await {
        tokio::spawn(forward(client, upstream, Arc::clone(&state)));
    }
}

/// One request per connection (`Connection: close`), so each one is seen.
async fn forward(mut client: TcpStream, upstream: SocketAddr, state: Arc<ProxyState>) {
    let Some((head, rest)) = read_head(&mut client).await else {
        return;
    };
    state.requests.lock().unwrap().push(head.clone());
    let path = head
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    let fault = {
        let mut faults = state.faults.lock().unwrap();
        let index = faults.iter().position(|f| match f {
            Fault::DropHalfway { prefix }
            | Fault::IgnoreRange { prefix }
            | Fault::TooManyRequests { prefix }
            | Fault::NotFound { prefix }
            | Fault::HoldUntilExpired { prefix }
            | Fault::Stall { prefix, .. }
            | Fault::Hold { prefix, .. } => path.starts_with(prefix),
            Fault::Unauthorized { path: exactly } => path == *exactly,
        });
        index.map(|i| faults.remove(i))
    };
    if let Some(Fault::HoldUntilExpired { .. }) = fault {
        let expires: u64 = path
            .split(['?', '&'])
            .find_map(|pair| pair.strip_prefix("expires="))
            .and_then(|secs| secs.parse().ok())
            .unwrap_or_else(|| panic!("no expires= in {path}"));
        // Waits for the link's own expiry (checked every 50 ms), as a long queue would.
        let now = || {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |since| since.as_secs())
        };
        while now() <= expires {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    if let Some(Fault::Stall { time, .. }) = fault {
        // A GET sends nothing more: anything read now is the client hanging up.
        let mut byte = [0u8; 1];
        tokio::select! {
            () = tokio::time::sleep(time) => {}
            _ = client.read(&mut byte) => {
                state.hung_up.lock().unwrap().push(path);
                return;
            }
        }
    }
    if let Some(Fault::Hold { release, .. }) = &fault {
        release.notified().await;
    }
    let answer = match fault {
        Some(Fault::TooManyRequests { .. }) => Some(
            "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n",
        ),
        Some(Fault::NotFound { .. }) => Some(
            "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n\
             Content-Length: 31\r\nConnection: close\r\n\r\n{\"message\":\"No such download.\"}",
        ),
        Some(Fault::Unauthorized { .. }) => Some(
            "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\n\
             Content-Type: application/json\r\nContent-Length: 36\r\n\
             Connection: close\r\n\r\n{\"message\":\"The token has expired.\"}",
        ),
        _ => None,
    };
    if let Some(answer) = answer {
        let _ = client.write_all(answer.as_bytes()).await;
        return;
    }
    let Ok(mut server) = TcpStream::connect(upstream).await else {
        return;
    };
    let ignore_range = matches!(fault, Some(Fault::IgnoreRange { .. }));
    let head: String = head
        .split("\r\n")
        .filter(|line| {
            let line = line.to_ascii_lowercase();
            let dropped =
                line.starts_with("connection:") || (ignore_range && line.starts_with("range:"));
            !dropped && !line.is_empty()
        })
        .map(|line| format!("{line}\r\n"))
        .collect::<String>()
        + "Connection: close\r\n\r\n";
    if server.write_all(head.as_bytes()).await.is_err() || server.write_all(&rest).await.is_err() {
        return;
    }
    if let Some(Fault::DropHalfway { .. }) = fault {
        let mut answer = Vec::new();
        let _ = server.read_to_end(&mut answer).await;
        let body_at = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(0, |i| i + 4);
        let cut = body_at + (answer.len() - body_at) / 2;
        let _ = client.write_all(&answer[..cut]).await;
        return; // both connections dropped
    }
    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
}

/// The request head (through the blank line) and any bytes read past it.
async fn read_head(client: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = client.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = buffer.split_off(end + 4);
            return Some((String::from_utf8_lossy(&buffer).into_owned(), rest));
        }
    }
}

/// Every file in the browser's private folder and its sub-folders: path (`a/b.zip`)
/// → md5.
pub(crate) async fn folder_md5s(h: &Harness) -> BTreeMap<String, String> {
    let script = r#"
        const done = arguments[arguments.length - 1];
        (async () => {
          const out = {};
          const walk = async (folder, prefix) => {
            for await (const [name, handle] of folder.entries()) {
              if (handle.kind === 'directory') {
                await walk(handle, prefix + name + '/');
                continue;
              }
              const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
              out[prefix + name] = Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
            }
          };
          await walk(await navigator.storage.getDirectory(), '');
          return out;
        })().then(done, e => done({ error: String(e) }));
    "#;
    let found = h
        .driver
        .execute_async(script, vec![])
        .await
        .expect("read the folder")
        .json()
        .clone();
    let found: BTreeMap<String, String> =
        serde_json::from_value(found.clone()).unwrap_or_else(|_| panic!("{found}"));
    found
        .into_iter()
        .map(|(path, hex)| (path, md5_hex(&from_hex(&hex))))
        .collect()
}

/// The text of a file in the browser's private folder.
async fn folder_text(h: &Harness, name: &str) -> String {
    let script = format!(
        r#"const done = arguments[arguments.length - 1];
        navigator.storage.getDirectory()
          .then(root => root.getFileHandle({name:?}))
          .then(handle => handle.getFile()).then(file => file.text())
          .then(done, e => done('missing: ' + e));"#
    );
    let text = h.driver.execute_async(&script, vec![]).await.expect("read");
    text.json().as_str().unwrap_or_default().to_owned()
}

/// Writes `bytes` as `name` into the browser's private folder.
async fn put_in_folder(h: &Harness, name: &str, bytes: &[u8]) {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let script = format!(
        r#"const done = arguments[arguments.length - 1];
        (async () => {{
          const hex = {hex:?};
          const bytes = new Uint8Array(hex.length / 2);
          for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
          const root = await navigator.storage.getDirectory();
          const file = await root.getFileHandle({name:?}, {{ create: true }});
          const writable = await file.createWritable();
          await writable.write(bytes);
          await writable.close();
          return 'ok';
        }})().then(done, e => done('error: ' + e));"#
    );
    let answer = h
        .driver
        .execute_async(&script, vec![])
        .await
        .expect("write");
    assert_eq!(answer.json(), "ok");
}

fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

async fn download_to_folder(h: &Harness) {
    let button = h.find(".folder-download .folder-controls .button").await;
    assert_eq!(button.text().await.unwrap(), "Download to a folder");
    button.click().await.expect("click Download to a folder");
}

/// Downloads the page's files to the folder: the run's summary once it says "Done",
/// waited for up to `within`.
async fn folder_run_summary(h: &Harness, within: Duration) -> String {
    download_to_folder(h).await;
    h.wait_for_text_within(".bulk-summary", "Done", within)
        .await
}

/// Downloads the page's files to the folder, waiting up to `within` for the run to
/// end with all `files` downloaded.
pub(crate) async fn download_all(h: &Harness, files: usize, within: Duration) {
    let summary = folder_run_summary(h, within).await;
    let all = format!("{files} downloaded, 0 skipped, 0 failed");
    assert!(summary.contains(&all), "{summary}");
}

/// Asserts that the folder holds the run's report and the product's files, each with
/// the md5 of the catalogue's file.
pub(crate) async fn assert_folder_holds_the_product(h: &Harness) {
    let mut found = folder_md5s(h).await;
    assert!(found.remove("download-report.json").is_some(), "no report");
    let demo = e2e::workspace_root().join("crates/download-server/demo/files/OpenTOID");
    let want: BTreeMap<String, String> = PRODUCT_FILES
        .iter()
        .map(|name| {
            let bytes = std::fs::read(demo.join(name)).expect("a demo file");
            (name.to_string(), md5_hex(&bytes))
        })
        .collect();
    assert_eq!(found, want);
}

#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn every_file_lands_with_its_md5_and_a_second_run_downloads_nothing() {
    let s = Setup::on_the_product_page(vec![]).await;
    download_all(&s.h, 4, Duration::from_secs(20)).await;
    assert_folder_holds_the_product(&s.h).await;
    // Progress: one labelled bar per file, all full, and one for the total.
    let bars = s.h.find_all(".bulk-files [role='progressbar']").await;
    assert_eq!(bars.len(), 4);
    for bar in bars {
        assert_eq!(
            bar.attr("aria-valuenow").await.unwrap().as_deref(),
            Some("100")
        );
        assert!(
            bar.attr("aria-label")
                .await
                .unwrap()
                .unwrap()
                .ends_with(".zip")
        );
    }
    let total = s.h.find(".bulk-total [role='progressbar']").await;
    assert_eq!(
        total.attr("aria-valuenow").await.unwrap().as_deref(),
        Some("100")
    );

    let report: serde_json::Value =
        serde_json::from_str(&folder_text(&s.h, "download-report.json").await).unwrap();
    let report = report.as_array().expect("a list");
    assert_eq!(report.len(), 4);
    for line in report {
        assert_eq!(line["status"], "downloaded", "{line}");
        let name = line["name"].as_str().unwrap();
        let md5 = s.demo_md5(&format!("files/OpenTOID/{name}"));
        assert_eq!(line["listed_md5"].as_str().unwrap(), md5, "{line}");
        assert_eq!(line["received_md5"].as_str().unwrap(), md5, "{line}");
    }

    // A second run finds every file in place: no file is asked for again.
    let fetched = s.requests_for("/files/products/");
    assert_eq!(fetched.len(), 4, "{fetched:#?}");
    let fetched = fetched.len();
    download_to_folder(&s.h).await;
    let summary =
        s.h.wait_for_text_within(".bulk-summary", "4 skipped", Duration::from_secs(20))
            .await;
    assert!(summary.contains("0 downloaded"), "{summary}");
    assert_eq!(s.requests_for("/files/products/").len(), fetched);
    s.h.stop_clean().await;
}

/// The bulk worker starts loading as the folder picker opens: a picker the person cancels
/// starts nothing (no fetch, no message), and a folder chosen after a while (the worker
/// ready long before) downloads every file.
#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn a_cancelled_picker_starts_nothing_and_a_folder_chosen_after_a_while_downloads() {
    let s = Setup::on_the_product_page(vec![]).await;
    s.h.js("window.__asked = 0;
         window.__downloadExplorerPickDirectory = () => {
           window.__asked += 1;
           return Promise.reject(new DOMException('The user aborted a request.', 'AbortError'));
         };")
        .await;
    download_to_folder(&s.h).await;
    s.h.wait_for_js("window.__asked === 1").await;
    s.h.js("window.__downloadExplorerPickDirectory = async () => {
           await new Promise((resolve) => setTimeout(resolve, 500));
           return navigator.storage.getDirectory();
         };")
        .await;
    download_all(&s.h, 4, Duration::from_secs(20)).await;
    assert_folder_holds_the_product(&s.h).await;
    // The cancelled pick said nothing and fetched nothing: each file was asked for once.
    assert!(s.h.find_all(".folder-download .notice").await.is_empty());
    assert_eq!(s.requests_for("/files/products/").len(), 4);
    s.h.stop_clean().await;
}

/// A folder run started on a product page goes on while the person goes to the gallery
/// and comes back by the header's link: the panel shows the run under way (not a fresh
/// button), and every file lands once, with its md5.
#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn a_folder_run_goes_on_while_the_person_browses_and_the_header_leads_back() {
    let release = Arc::new(tokio::sync::Notify::new());
    let s = Setup::on_the_product_page(vec![Fault::Hold {
        prefix: "/files/products/OpenTOID/optoid_gpkg_sz.zip",
        release: Arc::clone(&release),
    }])
    .await;
    download_to_folder(&s.h).await;
    let running = ".site-header .running-downloads li";
    s.h.wait_for_text(running, " of ").await;

    s.h.click(".site-header .brand").await;
    s.h.find(".product-card").await;
    s.h.wait_for_text(running, " of ").await;
    s.h.click(".site-header .running-downloads a").await;
    s.h.wait_for_address(|at| at.contains("/products/OpenTOID?"))
        .await;
    let start = s.h.find(".folder-download .folder-controls .button").await;
    assert!(
        !start.is_enabled().await.unwrap(),
        "the running run shows, not a button for a new one"
    );

    release.notify_one();
    let summary =
        s.h.wait_for_text_within(
            ".folder-download .bulk-summary",
            "Done",
            Duration::from_secs(30),
        )
        .await;
    assert!(
        summary.contains("4 downloaded, 0 skipped, 0 failed"),
        "{summary}"
    );
    assert_folder_holds_the_product(&s.h).await;
    assert_eq!(
        s.requests_for("/files/products/").len(),
        4,
        "each file once"
    );
    s.h.stop().await;
}

#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn a_dropped_connection_is_retried_and_a_half_written_file_resumed_with_range() {
    let s = Setup::on_the_product_page(vec![Fault::DropHalfway {
        prefix: "/files/products/OpenTOID/optoid_gpkg_sz.zip",
    }])
    .await;
    // A previous run left half of one file behind.
    let partial = s.demo_bytes("files/OpenTOID/optoid_csv_su.zip");
    let half = partial.len() / 2;
    put_in_folder(&s.h, "optoid_csv_su.zip", &partial[..half]).await;

    download_all(&s.h, 4, Duration::from_secs(30)).await;
    assert_folder_holds_the_product(&s.h).await;

    // The half-written file was asked for from where it stopped, once.
    let resumed = s.requests_for("/files/products/OpenTOID/optoid_csv_su.zip");
    assert_eq!(resumed.len(), 1, "{resumed:?}");
    assert!(
        resumed[0]
            .to_ascii_lowercase()
            .contains(&format!("range: bytes={half}-")),
        "{}",
        resumed[0]
    );
    // The file whose answer broke off was asked for again, from where it broke.
    let retried = s.requests_for("/files/products/OpenTOID/optoid_gpkg_sz.zip");
    assert_eq!(retried.len(), 2, "{retried:?}");
    assert!(!retried[0].to_ascii_lowercase().contains("range:"));
    s.h.stop().await;
}

#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn a_429_with_retry_after_is_waited_out() {
    let s = Setup::on_the_product_page(vec![Fault::TooManyRequests {
        prefix: "/files/products/OpenTOID/optoid_csv_sz.zip",
    }])
    .await;
    download_all(&s.h, 4, Duration::from_secs(30)).await;
    assert_folder_holds_the_product(&s.h).await;
    assert_eq!(
        s.requests_for("/files/products/OpenTOID/optoid_csv_sz.zip")
            .len(),
        2
    );
    s.h.stop().await;
}

/// A file the service answers 404 for fails for good and leaves nothing in the folder
/// (a file is made there only once its answer is in hand); the other files land.
#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn a_file_the_service_no_longer_has_fails_and_leaves_nothing_in_the_folder() {
    let s = Setup::on_the_product_page(vec![Fault::NotFound {
        prefix: "/files/products/OpenTOID/optoid_csv_sz.zip",
    }])
    .await;
    let summary = folder_run_summary(&s.h, Duration::from_secs(30)).await;
    assert!(
        summary.contains("3 downloaded, 0 skipped, 1 failed"),
        "{summary}"
    );
    let found = folder_md5s(&s.h).await;
    let names: Vec<&str> = found.keys().map(String::as_str).collect();
    let mut want: Vec<&str> = PRODUCT_FILES
        .iter()
        .copied()
        .filter(|name| *name != "optoid_csv_sz.zip")
        .chain(["download-report.json"])
        .collect();
    want.sort_unstable();
    assert_eq!(names, want);
    s.h.stop().await;
}

/// The server's own rate limit (`--rate-limit N`: 429 with `Retry-After`), waited out:
/// the minute's allowance is used up first, so every file has to wait its turn.
#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn the_servers_rate_limit_is_waited_out() {
    // 20 a minute: one more every 3 s.
    let h = Harness::start(&["--rate-limit", "20"]).await;
    h.pick_private_folder().await;
    h.goto(PRODUCT_PAGE).await;
    h.find(".downloads-table tbody tr").await;
    let refused = h
        .js("return Promise.all(Array.from({ length: 20 }, () => \
             fetch('/downloads/v1/products').then(r => r.status)))\
             .then(statuses => statuses.filter(s => s === 429).length);")
        .await;
    assert!(
        refused.as_u64().is_some_and(|n| n > 0),
        "the allowance is used up: {refused}"
    );
    download_all(&h, 4, Duration::from_secs(60)).await;
    h.stop().await;
}

#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn package_files_download_for_a_signed_in_user() {
    let s = Setup::start(vec![]).await;
    s.goto(&format!("/login?next={PACKAGE_VERSION}")).await;
    s.h.sign_in_with_secret(KEY, SECRET).await;
    s.h.find(".files-table").await;
    download_all(&s.h, 3, Duration::from_secs(20)).await;

    let mut found = folder_md5s(&s.h).await;
    let report = folder_text(&s.h, "download-report.json").await;
    found.remove("download-report.json");
    let want: BTreeMap<String, String> = PACKAGE_FILES
        .iter()
        .map(|name| {
            let md5 = s.demo_md5(&format!("packages/0040046952/110012/{name}"));
            (name.to_string(), md5)
        })
        .collect();
    assert_eq!(found, want);
    // Each address was asked for with the session's token in a header, never a URL.
    let asked = s.requests_for("/downloads?fileName=");
    assert_eq!(asked.len(), 3, "{asked:?}");
    for head in &asked {
        let lower = head.to_ascii_lowercase();
        assert!(lower.contains("authorization: bearer "), "{head}");
        assert!(lower.contains("accept: application/json"), "{head}");
    }
    for head in s.proxy.requests.lock().unwrap().iter() {
        let line = head.lines().next().unwrap_or_default();
        assert!(!line.contains(KEY) && !line.contains(SECRET), "{line}");
        assert!(!line.to_ascii_lowercase().contains("token="), "{line}");
    }
    assert!(
        !report.contains("signature") && !report.contains("http"),
        "{report}"
    );
    s.h.stop().await;
}

/// A file held until its link has expired: the app lists the version again with the
/// session and the file lands all the same.
#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn a_link_that_expired_mid_queue_is_listed_anew_and_the_file_lands() {
    let held = "/files/packages/0040046952/110012/SU42_addresses.zip";
    let s = Setup::on_the_version_with_a_link_held_until_expired(held).await;
    let listed = s.requests_for(VERSION_LISTING).len();
    download_all(&s.h, 3, Duration::from_secs(30)).await;
    let found = folder_md5s(&s.h).await;
    assert_eq!(
        found.get("SU42_addresses.zip"),
        Some(&s.demo_md5("packages/0040046952/110012/SU42_addresses.zip"))
    );
    assert_eq!(s.requests_for(held).len(), 2, "refused once, then fetched");
    assert_eq!(s.requests_for(VERSION_LISTING).len(), listed + 1);
    s.h.stop().await;
}

/// The session ended while a file waited for a fresh link: the listing is refused, the
/// queue waits for a new sign-in (here the app's own renewal with the held secret) and
/// then goes on, every file landing.
#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn a_session_that_ended_mid_queue_waits_for_sign_in_and_the_files_land() {
    let held = "/files/packages/0040046952/110012/SU41_addresses.zip";
    let (s, seen) = Setup::with_the_session_ending_mid_queue(held).await;
    download_all(&s.h, 3, Duration::from_secs(30)).await;
    let found = folder_md5s(&s.h).await;
    for name in PACKAGE_FILES {
        let md5 = s.demo_md5(&format!("packages/0040046952/110012/{name}"));
        assert_eq!(found.get(name), Some(&md5), "{name}");
    }
    assert_eq!(s.requests_for(held).len(), 2, "refused once, then fetched");
    s.assert_signed_in_anew(seen);
    s.h.stop().await;
}

/// A user's copy of the product's files, as a folder with a sub-folder: two as listed
/// (one of them in `more/`), one altered, one missing, and one the listing does not
/// name. (path in the folder, bytes)
fn users_folder(s: &Setup) -> Vec<(&'static str, Vec<u8>)> {
    let mut tampered = s.demo_bytes("files/OpenTOID/optoid_csv_sz.zip");
    tampered[10] ^= 0xff;
    vec![
        (
            "optoid_csv_su.zip",
            s.demo_bytes("files/OpenTOID/optoid_csv_su.zip"),
        ),
        (
            "more/optoid_gpkg_su.zip",
            s.demo_bytes("files/OpenTOID/optoid_gpkg_su.zip"),
        ),
        ("optoid_csv_sz.zip", tampered),
        ("notes.txt", b"mine".to_vec()),
    ]
}

/// The result list names the altered file with both md5s, the two good files (the one
/// in a sub-folder too), the missing one and the one the listing does not name.
async fn assert_verified(s: &Setup, folder: &[(&str, Vec<u8>)]) {
    let tampered = &folder[2].1;
    // Reading and hashing the files is the page's work: a minute, for a browser that
    // shares a loaded machine with another test's (WebKit once took over ten seconds).
    let differs =
        s.h.wait_for_text_within(
            ".verify-list.differs",
            "optoid_csv_sz.zip",
            Duration::from_secs(60),
        )
        .await;
    assert!(differs.contains(&md5_hex(tampered)), "{differs}");
    assert!(
        differs.contains(&s.demo_md5("files/OpenTOID/optoid_csv_sz.zip")),
        "{differs}"
    );
    let matches =
        s.h.wait_for_text_within(".verify-list.matches", "Match (2)", Duration::from_secs(5))
            .await;
    assert!(matches.contains("optoid_csv_su.zip") && matches.contains("optoid_gpkg_su.zip"));
    s.h.wait_for_text_within(
        ".verify-list.missing",
        "optoid_gpkg_sz.zip",
        Duration::from_secs(5),
    )
    .await;
    s.h.wait_for_text_within(
        ".verify-list.not-listed",
        "notes.txt",
        Duration::from_secs(5),
    )
    .await;
    s.h.assert_no_console_errors().await;
}

/// A folder chosen with the folder input, its sub-folder included. Chromium only:
/// chromedriver hands the input a folder of the disk as the folder dialog would, while
/// geckodriver takes files only ("File not found" for a folder) and WebKitWebDriver hands
/// the folder over as one empty file. The dropped folder (next) is checked everywhere.
#[tokio::test]
#[cfg_attr(
    not(engine = "chromium"),
    ignore = "only chromedriver can hand a folder to <input webkitdirectory>"
)]
async fn verification_of_a_chosen_folder_flags_a_tampered_file_by_name() {
    let s = Setup::on_the_product_page(vec![]).await;
    let folder = users_folder(&s);
    let dir = tempfile::tempdir().expect("a folder");
    for (path, bytes) in &folder {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    s.h.click(".verify-files summary").await;
    s.h.find(".verify-folder-input")
        .await
        .send_keys(dir.path().display().to_string())
        .await
        .expect("choose the folder");
    assert_verified(&s, &folder).await;
    s.h.stop().await;
}

/// In every engine: a folder dropped on the drop zone, read through the entries API
/// recursively (see [`Harness::drop_folder`]).
#[tokio::test]
async fn verification_of_a_dropped_folder_flags_a_tampered_file_by_name() {
    let s = Setup::on_the_product_page(vec![]).await;
    let folder = users_folder(&s);
    let files: Vec<(String, Vec<u8>)> = folder
        .iter()
        .map(|(path, bytes)| (path.to_string(), bytes.clone()))
        .collect();
    s.h.click(".verify-files summary").await;
    s.h.drop_folder(".verify-files .drop-zone", "mine", &files)
        .await;
    assert_verified(&s, &folder).await;
    s.h.stop().await;
}

#[tokio::test]
async fn the_url_list_is_saved_as_a_file_with_one_line_per_listed_file() {
    let s = Setup::on_the_product_page(vec![]).await;
    s.h.click(".bulk-export button:nth-of-type(2)").await;
    let api = "/downloads/v1/products/OpenTOID/downloads";
    let want = [
        format!("{api}?area=SU&format=CSV&redirect"),
        format!("{api}?area=SU&format=GeoPackage&redirect"),
        format!("{api}?area=SZ&format=CSV&redirect"),
        format!("{api}?area=SZ&format=GeoPackage&redirect"),
    ];
    let name = "os-open-toid-2026-01--su--sz--all-formats--urls.txt";
    s.h.wait_for_whole_download(name, WAIT, |bytes| {
        let text = String::from_utf8_lossy(bytes);
        let addresses: Vec<&str> = text
            .lines()
            .map(|url| url.trim_start_matches(&s.origin))
            .collect();
        match addresses == want {
            true => Ok(()),
            false => Err(format!("the URL list is {text:?}")),
        }
    })
    .await;
    s.h.stop().await;
}
