//! Harness of the browser tests: the built web app in a browser engine ([`Engine`]:
//! Chromium, Firefox or WebKit, chosen by `E2E_BROWSER`), served by servers started
//! in-process on free loopback ports: the real server, a static host ([`static_host`])
//! or a second implementation of the service with the real one's quirks
//! ([`quirky_service`]), or a third that sends what a careless or hostile service may
//! ([`hostile_service`]).
//!
//! Needs the built app (`E2E_WEB_ROOT`, default `<workspace>/dist`, and for a sub-path
//! `E2E_EXPLORER_WEB_ROOT`; `cargo xtask test` builds both) and the engine's browser
//! and driver: Debian's `chromium` and `chromedriver`; `firefox-esr` and geckodriver
//! (cargo); `webkit2gtk-driver`, under an X display (`xvfb-run -a`).
//!
//! The tests are built for one engine (`build.rs` makes `E2E_BROWSER` the cfg `engine`):
//! a test that cannot run in an engine is ignored there, with its reason, so each
//! engine's count is what ran:
//!
//! ```ignore
//! #[tokio::test]
//! #[cfg_attr(not(engine = "chromium"), ignore = "only Chromium has showDirectoryPicker")]
//! async fn a_folder_download() { /* … */ }
//! ```
//!
//! A check inside a test that runs everywhere is skipped with [`runs_in`].

pub mod bench;
pub mod hostile_service;
pub mod quirky_service;
pub mod static_host;
pub mod web_root;

mod engine;

pub use engine::{Engine, runs_in};

use std::collections::BTreeSet;
use std::future::pending;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use axum::Router;
use clap::Parser;
use download_server::Config;
use serde::de::DeserializeOwned;
use thirtyfour::components::SelectElement;
use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;

pub use thirtyfour;

pub mod axe;

/// The demo catalogue's project Alpha: its credentials and its first data package.
pub mod demo {
    pub const KEY: &str = "alpha-demo-key";
    pub const SECRET: &str = "alpha-demo-secret";
    /// Southampton Addresses, versions 110012, 118429, 124307 and 131866.
    pub const PACKAGE: &str = "0040046952";
}

/// How long a wait lasts unless told otherwise.
pub const WAIT: Duration = Duration::from_secs(10);

/// Tries `attempt` every 50 ms until it succeeds, for up to `within`, and returns what
/// it found; fails the test with the last attempt's reason. The one way the tests wait:
/// for what they need, never for a fixed time.
pub async fn eventually<T>(within: Duration, attempt: impl AsyncFnMut() -> Result<T, String>) -> T {
    eventually_or(within, attempt, async || String::new()).await
}

/// [`eventually`], whose failure also says what `explain` finds then (what the page
/// shows, say): asked once, when the wait is over, not on every attempt.
pub async fn eventually_or<T>(
    within: Duration,
    mut attempt: impl AsyncFnMut() -> Result<T, String>,
    explain: impl AsyncFnOnce() -> String,
) -> T {
    let deadline = Instant::now() + within;
    loop {
        match attempt().await {
            Ok(found) => return found,
            Err(why) if Instant::now() >= deadline => {
                panic!("after {within:?}: {why}{}", explain().await)
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// The JSON `url` answers (with the access token `token`, if any), as any client reads it.
pub async fn get_json<T: DeserializeOwned>(url: &str, token: Option<&str>) -> T {
    let mut request = reqwest::Client::new().get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
        .json()
        .await
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
}

/// The md5 of `bytes` in hex, as the service lists it.
pub fn md5_hex(bytes: &[u8]) -> String {
    use md5::{Digest, Md5};
    format!("{:x}", Md5::digest(bytes))
}

/// The bytes `url` answers, following redirects as a browser does; fails the test on
/// an error status.
pub async fn download(url: &str) -> Vec<u8> {
    let response = reqwest::get(url)
        .await
        .and_then(|r| r.error_for_status())
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    response.bytes().await.expect("the body").to_vec()
}

/// The attribute `name` of the element matching `css` inside `element`.
pub async fn attribute(element: &WebElement, css: &str, name: &str) -> String {
    element
        .find(By::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css:?}: {e}"))
        .attr(name)
        .await
        .unwrap_or_else(|e| panic!("{name} of {css:?}: {e}"))
        .unwrap_or_else(|| panic!("{css:?} has no {name}"))
}

/// The token endpoint's whole answer (JSON text) for a project's key and secret, as
/// another tool would get it from the service at `origin`.
pub async fn token_answer(origin: &str, key: &str, secret: &str) -> String {
    reqwest::Client::new()
        .post(format!("{origin}/oauth2/token/v1"))
        .basic_auth(key, Some(secret))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("grant_type=client_credentials")
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .expect("the token endpoint gives a token")
        .text()
        .await
        .expect("the token answer")
}

/// Keeps every `WebAssembly.Memory` the page instantiates in `window.__memories`, for
/// pages without the harness's preload script (the benchmarks' plain-JS pages, through
/// Chromium's DevTools protocol); the app's pages get the same from
/// `Harness::preload("wasmMemory", true)`. Install it before the page's own scripts.
pub const WASM_MEMORY_RECORDER: &str = r#"
window.__memories = new Set();
for (const name of ['instantiate', 'instantiateStreaming']) {
  const original = WebAssembly[name];
  WebAssembly[name] = function (...args) {
    return original.apply(this, args).then(result => {
      const exports = (result.instance || result).exports || {};
      for (const value of Object.values(exports)) {
        if (value instanceof WebAssembly.Memory) window.__memories.add(value);
      }
      return result;
    });
  };
}
"#;

/// What the preload's memory recorder saw (after `Harness::preload("wasmMemory", true)`),
/// as a script's answer: the memories' bytes in all, `NaN` before the app's wasm started.
pub const WASM_MEMORY_BYTES: &str = "return window.__memories && window.__memories.size \
    ? [...window.__memories].reduce((sum, m) => sum + m.buffer.byteLength, 0) : NaN;";

/// See [`Harness::drop_folder`].
const DROP_FOLDER: &str = r#"
const [css, folderName, files] = arguments;
const later = (done, value) => setTimeout(() => done(value));
const fileEntry = (name, base64) => {
  const file = new File([Uint8Array.from(atob(base64), c => c.charCodeAt(0))], name);
  return { isFile: true, isDirectory: false, name, file: done => later(done, file) };
};
const folderEntry = (name) => {
  const children = [];
  const entry = {
    isFile: false, isDirectory: true, name, children,
    createReader: () => {
      let read = false;
      return { readEntries: done => { later(done, read ? [] : children); read = true; } };
    },
  };
  return entry;
};
const top = folderEntry(folderName);
for (const [path, base64] of files) {
  const parts = path.split('/');
  let folder = top;
  for (const part of parts.slice(0, -1)) {
    let sub = folder.children.find(c => c.isDirectory && c.name === part);
    if (!sub) { sub = folderEntry(part); folder.children.push(sub); }
    folder = sub;
  }
  folder.children.push(fileEntry(parts[parts.length - 1], base64));
}
const item = { kind: 'file', type: '', webkitGetAsEntry: () => top, getAsFile: () => null };
const drop = new Event('drop', { bubbles: true, cancelable: true });
Object.defineProperty(drop, 'dataTransfer', { value: { items: { length: 1, 0: item }, files: [] } });
document.querySelector(css).dispatchEvent(drop);
return true;
"#;

/// The browser on an app and the servers behind it. Dropping it (a failing test
/// included) ends the browser, its WebDriver server and the servers; [`Harness::stop`]
/// first ends the WebDriver session properly.
#[derive(Debug)]
pub struct Harness {
    /// Where the app is: the server's origin, e.g. `http://127.0.0.1:41234`, followed
    /// by the sub-path of an app built for one (`…/explorer`).
    pub base: String,
    /// The browser.
    pub driver: WebDriver,
    /// The engine the browser is.
    pub engine: Engine,
    /// Where the browser saves what it downloads (see [`Harness::wait_for_download`]).
    downloads: tempfile::TempDir,
    /// Only held, to be killed on drop.
    _driver: DriverProcess,
    /// Only held, to be stopped on drop.
    _servers: Vec<Served>,
}

impl Drop for Harness {
    fn drop(&mut self) {
        // A session still open here belongs to a test that failed before `stop`.
        // thirtyfour would end it in its own drop with a blocking request, which hung
        // for two minutes and then left the browser running (the test's runtime, and
        // with it the app's server, is blocked meanwhile); the browser is killed with
        // its driver instead.
        let _ = self.driver.clone().leak();
    }
}

/// A WebDriver server and the browser it started, in a process group of their own:
/// all killed when dropped.
#[derive(Debug)]
struct DriverProcess {
    child: Child,
    /// Firefox's profiles or WebKit's settings (which name its download folder), kept
    /// while the browser runs.
    _home: Option<tempfile::TempDir>,
    /// What the driver and its browser wrote (both write to the driver's output).
    log: tempfile::NamedTempFile,
}

/// How many of the driver's last lines a failed test shows.
const DRIVER_LINES_SHOWN: usize = 20;

impl Drop for DriverProcess {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.wait();
        // A test that failed shows what the browser said last: a crash or a hang of
        // the browser (CI once saw WebKit's "page crash or hang") says more there than
        // in the test's own message.
        if std::thread::panicking() {
            let log = std::fs::read(self.log.path()).unwrap_or_default();
            let log = String::from_utf8_lossy(&log);
            let lines: Vec<&str> = log.lines().filter(|line| !line.trim().is_empty()).collect();
            let last = &lines[lines.len().saturating_sub(DRIVER_LINES_SHOWN)..];
            match last {
                [] => println!("The WebDriver server and its browser wrote nothing."),
                _ => println!(
                    "The WebDriver server's and its browser's last lines:\n{}",
                    last.join("\n")
                ),
            }
        }
    }
}

/// A server running in this process on a free loopback port; stopped when dropped.
#[derive(Debug)]
pub struct Served {
    /// Its origin, e.g. `http://127.0.0.1:41234`.
    pub origin: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `app` on a free loopback port.
pub async fn serve(app: Router) -> Served {
    serve_at_its_origin(|_| app).await
}

/// Serves the app `build` makes for its own origin (a service that writes links to
/// itself), on a free loopback port: bound first, so the origin is known.
pub async fn serve_at_its_origin(build: impl FnOnce(&str) -> Router) -> Served {
    let listener = bind().await;
    let origin = format!("http://{}", listener.local_addr().expect("bound address"));
    let app = build(&origin);
    let task = tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            panic!("a test server stopped: {error}");
        }
    });
    Served { origin, task }
}

/// The spec's 401 for a missing or refused API key, as the fake services answer it.
pub(crate) fn unauthorised() -> axum::response::Response {
    use axum::response::IntoResponse;
    (
        axum::http::StatusCode::UNAUTHORIZED,
        axum::Json(serde_json::json!({ "message": "Missing or unsupported API key provided." })),
    )
        .into_response()
}

/// A fake service's record of the version `version` of its data package `package`,
/// made `created_on` as `release` (the spec's summary of a version).
pub(crate) fn version_summary(
    origin: &str,
    (package, version): (&str, &str),
    created_on: &str,
    release: &str,
) -> serde_json::Value {
    let package_url = format!("{origin}/downloads/v1/dataPackages/{package}");
    serde_json::json!({
        "id": version,
        "url": format!("{package_url}/versions/{version}"),
        "createdOn": created_on,
        "reason": "INITIAL",
        "supplyType": "FULL",
        "productVersion": release,
        "productFormat": "GeoPackage",
        "dataPackageUrl": package_url,
    })
}

/// A fake service's record of its data package `package`, named `name`, made
/// `created_on` from the product `(id, name)`, with the one version `version` (a
/// [`version_summary`]).
pub(crate) fn package_record(
    origin: &str,
    (package, name): (&str, &str),
    created_on: &str,
    (product_id, product_name): (&str, &str),
    version: serde_json::Value,
) -> serde_json::Value {
    serde_json::json!({
        "id": package,
        "name": name,
        "url": format!("{origin}/downloads/v1/dataPackages/{package}"),
        "createdOn": created_on,
        "productId": product_id,
        "productName": product_name,
        "versions": [version],
    })
}

/// Our server with the demo catalogue, writing links for its own origin, with
/// `server_args` added to its command line (e.g. `["--token-ttl", "3"]`).
pub async fn our_server(server_args: &[&str]) -> Served {
    our_server_configured(server_args, |config| config).await
}

/// [`our_server`], its configuration changed by `configure` before it starts (e.g. the
/// object store options of a test's storage engine).
pub async fn our_server_configured(
    server_args: &[&str],
    configure: impl FnOnce(Config) -> Config,
) -> Served {
    let listener = bind().await;
    let addr = listener.local_addr().expect("bound address");
    let origin = format!("http://{addr}");
    let mut args = vec![
        "download-server".to_owned(),
        "--listen".to_owned(),
        addr.to_string(),
    ];
    // A test may put a proxy in front and give its address instead.
    if !server_args.contains(&"--public-url") {
        args.extend(["--public-url".to_owned(), origin.clone()]);
    }
    args.extend(server_args.iter().map(|a| a.to_string()));
    let config = configure(Config::parse_from(args));
    let server = download_server::Server::open(config, listener)
        .await
        .expect("the server starts");
    let task = tokio::spawn(async move {
        if let Err(error) = server.run(pending()).await {
            panic!("the server stopped: {error}");
        }
    });
    Served { origin, task }
}

async fn bind() -> tokio::net::TcpListener {
    tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a loopback port")
}

impl Harness {
    /// Our server serving the built app (see [`web_root`]) with the demo catalogue,
    /// `server_args` added to its command line, and a fresh browser.
    pub async fn start(server_args: &[&str]) -> Harness {
        let web_root = web_root().display().to_string();
        let mut args = vec!["--web-root", &web_root];
        args.extend(server_args);
        let server = our_server(&args).await;
        Harness::open(server.origin.clone(), vec![server]).await
    }

    /// [`Self::start`] with no arguments, the browser opened at the app's `path`.
    pub async fn start_at(path: &str) -> Harness {
        let h = Harness::start(&[]).await;
        h.goto(path).await;
        h
    }

    /// [`Self::start`] with no arguments, signed in with the demo's key and secret on the
    /// way to the app's `path`.
    pub async fn start_signed_in_at(path: &str) -> Harness {
        let h = Harness::start(&[]).await;
        h.sign_in_to(path, demo::KEY, demo::SECRET).await;
        h
    }

    /// A fresh browser (of this run's [`Engine`]) on the app at `base`, served by
    /// `servers`.
    pub async fn open(base: String, servers: Vec<Served>) -> Harness {
        let engine = Engine::current();
        let downloads = tempfile::tempdir().expect("a download folder");
        let mut attempt = 1;
        let (driver_process, driver) = loop {
            let (process, addr) = start_driver(engine, downloads.path()).await;
            let caps = engine.capabilities(downloads.path());
            match WebDriver::new(format!("http://{addr}"), caps).await {
                Ok(driver) => break (process, driver),
                // On a loaded machine a driver has dropped the connection of a new
                // session (WebKitWebDriver, once in a full run): starting the browser is
                // the harness's business, not the test's, so a fresh driver tries again.
                Err(e) if attempt < 3 => {
                    eprintln!("a {engine} session did not start ({e}); trying again");
                    drop(process);
                    attempt += 1;
                }
                Err(e) => panic!("start a {engine} session: {e}"),
            }
        };
        let h = Harness {
            base: base.trim_end_matches('/').to_owned(),
            driver,
            engine,
            downloads,
            _driver: driver_process,
            _servers: servers,
        };
        if engine != Engine::Chromium {
            // Chromium is told its window size on its command line.
            h.set_viewport(1280, 900).await;
        }
        h
    }

    /// The text a person sees in `element`. WebKit's driver leaves out the text of
    /// rows in a scrolling box below the window (the windowed lists' rows), which is
    /// there to see by scrolling: there the page's own `innerText` is read.
    pub async fn text_of(&self, element: &WebElement) -> WebDriverResult<String> {
        if self.engine != Engine::Webkit {
            return element.text().await;
        }
        let text = self
            .driver
            .execute(
                // SVG elements have no innerText: their text content is what shows.
                "const e = arguments[0]; return e.innerText === undefined ? e.textContent : e.innerText;",
                vec![element.to_json()?],
            )
            .await?;
        Ok(text.json().as_str().unwrap_or_default().trim().to_owned())
    }

    /// Turns on `setting` of the harness's preload script (`src/preload.js`) with
    /// `value` for every page of the app this tab opens from now on (e.g.
    /// `("wasmMemory", true)`; the fetch controls also apply at once). Kept in the
    /// sessionStorage of the origin the tab is on; a tab that is on no web page yet is
    /// first taken to an empty page of the app's origin.
    pub async fn preload(&self, setting: &str, value: serde_json::Value) {
        if !self.current_url().await.starts_with("http") {
            self.driver
                .goto(format!("{}/{}", self.base, web_root::BLANK_FILE))
                .await
                .expect("open the app's origin");
        }
        let script = format!(
            "const all = JSON.parse(sessionStorage.getItem('__e2e') || '{{}}'); \
             all[{setting:?}] = {value}; sessionStorage.setItem('__e2e', JSON.stringify(all)); return true;"
        );
        self.js(&script).await;
    }

    /// Sets the page's viewport to `width` by `height` CSS pixels, as a device of that
    /// screen would show it: Chromium emulates the device (and a phone's touch layout
    /// below 600 pixels); the other engines size the window so that the page gets it.
    pub async fn set_viewport(&self, width: u32, height: u32) {
        if self.engine == Engine::Chromium {
            self.driver
                .cdp()
                .send_raw(
                    "Emulation.setDeviceMetricsOverride",
                    serde_json::json!({
                        "width": width,
                        "height": height,
                        "deviceScaleFactor": 1,
                        "mobile": width < 600,
                    }),
                )
                .await
                .expect("set the viewport");
            return;
        }
        self.fit_window(width, height, 1).await;
    }

    /// Sizes the window so that the page, zoomed `zoom` times, gets `width` by `height`
    /// CSS pixels: the window's frame and toolbars take their share (in unzoomed
    /// pixels), so it measures and makes up.
    async fn fit_window(&self, width: u32, height: u32, zoom: i64) {
        let want = (i64::from(width), i64::from(height));
        let (mut outer_w, mut outer_h) = (want.0 * zoom, want.1 * zoom);
        for _ in 0..3 {
            self.driver
                .set_window_rect(0, 0, outer_w as u32, outer_h as u32)
                .await
                .expect("size the window");
            let inner = self
                .js("return [window.innerWidth, window.innerHeight];")
                .await;
            let (w, h) = (
                inner[0].as_i64().unwrap_or(0),
                inner[1].as_i64().unwrap_or(0),
            );
            if (w, h) == want {
                return;
            }
            outer_w += (want.0 - w) * zoom;
            outer_h += (want.1 - h) * zoom;
        }
    }

    /// Sets the page's viewport to a phone's `width` by `height` CSS pixels, in Chromium
    /// and Firefox. Chromium emulates the phone ([`Harness::set_viewport`]). Firefox's
    /// window is never narrower than 500 px, so below that it is made twice the size
    /// and the page zoomed to 200% (Firefox's own zoom, kept for the site until set
    /// again): the page lays out at exactly `width` CSS pixels, at a phone's device
    /// pixel ratio of 2. Call it on a page of the site. WebKit's MiniBrowser can do
    /// neither: its window is as narrow as it goes, 447 px.
    pub async fn set_phone_viewport(&self, width: u32, height: u32) {
        if self.engine != Engine::Firefox {
            return self.set_viewport(width, height).await;
        }
        let zoom: i64 = if width < 500 { 2 } else { 1 };
        self.firefox_chrome_script(&format!("FullZoom.setZoom({zoom});"))
            .await;
        self.fit_window(width, height, zoom).await;
    }

    /// Runs `script` in Firefox's own window (Marionette's chrome context, which
    /// geckodriver allows with `--allow-system-access`), then returns to the page.
    async fn firefox_chrome_script(&self, script: &str) {
        #[derive(Debug)]
        struct Context(&'static str);
        impl thirtyfour::common::command::FormatRequestData for Context {
            fn format_request(&self, session: &thirtyfour::SessionId) -> thirtyfour::RequestData {
                thirtyfour::RequestData::new(
                    http::Method::POST,
                    format!("/session/{session}/moz/context"),
                )
                .add_body(serde_json::json!({ "context": self.0 }))
            }
        }
        self.driver
            .cmd(Context("chrome"))
            .await
            .expect("Firefox's chrome context (geckodriver --allow-system-access)");
        let ran = self.driver.execute(script, vec![]).await;
        self.driver
            .cmd(Context("content"))
            .await
            .expect("back to the page's context");
        ran.unwrap_or_else(|e| panic!("{script} in Firefox's window: {e}"));
    }

    /// The absolute URL of an app path such as `/products/OpenRoads`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The page the server sends for an app path, as text (not run).
    pub async fn html(&self, path: &str) -> String {
        reqwest::get(self.url(path))
            .await
            .and_then(|response| response.error_for_status())
            .unwrap_or_else(|error| panic!("GET {path}: {error}"))
            .text()
            .await
            .expect("the page's text")
    }

    /// Opens an app path in the browser.
    pub async fn goto(&self, path: &str) {
        self.driver.goto(self.url(path)).await.expect("navigate");
    }

    /// The first element matching `css`, waiting up to 10 s for it to appear.
    pub async fn find(&self, css: &str) -> WebElement {
        self.driver
            .query(By::Css(css))
            .wait(Duration::from_secs(10), Duration::from_millis(50))
            .first()
            .await
            .unwrap_or_else(|e| panic!("no element matches {css:?}: {e}"))
    }

    /// The text of the first element matching `css`, waiting up to 10 s for it.
    ///
    /// The app may re-render that element between finding and reading it (a
    /// sign-in swaps the session badge), so a stale element is looked up again.
    pub async fn text(&self, css: &str) -> String {
        eventually(WAIT, async || {
            match self.text_of(&self.find(css).await).await {
                Ok(text) => Ok(text),
                Err(error) => match error.as_inner() {
                    WebDriverErrorInner::StaleElementReference(_) => {
                        Err(format!("text of {css:?}: {error}"))
                    }
                    _ => panic!("text of {css:?}: {error}"),
                },
            }
        })
        .await
    }

    /// From the next page on, the app's folder picker answers the browser's
    /// origin-private file system (the same `FileSystemDirectoryHandle` interface),
    /// which a test can read back; a headless browser has no picker to click through.
    pub async fn pick_private_folder(&self) {
        self.preload("privateFolder", serde_json::json!(true)).await;
    }

    /// Clicks the first element matching `css`, waiting up to 10 s for it to appear.
    ///
    /// Firefox's and WebKit's drivers cannot scroll an SVG group (the map's squares are
    /// `<g>`) into view, and call it not interactable: such an element is scrolled to by
    /// script and clicked at its centre, as a mouse would.
    ///
    /// The app may re-render the element between finding and clicking it (a list
    /// arriving redraws its panel): a stale element is looked up again.
    pub async fn click(&self, css: &str) {
        let clicked = eventually(WAIT, async || match self.find(css).await.click().await {
            Err(error)
                if matches!(
                    error.as_inner(),
                    WebDriverErrorInner::StaleElementReference(_)
                        | WebDriverErrorInner::ElementClickIntercepted(_)
                ) =>
            {
                // Redrawn, or covered for a moment (a line added above moves it):
                // found and clicked again.
                Err(format!("click {css:?}: {error}"))
            }
            clicked => Ok(clicked),
        })
        .await;
        match clicked {
            Ok(()) => {}
            Err(error)
                if matches!(
                    error.as_inner(),
                    WebDriverErrorInner::ElementNotInteractable(_)
                ) && self.engine != Engine::Chromium =>
            {
                let centre = self
                    .js(&format!(
                        "const e = document.querySelector({css:?}); e.scrollIntoView({{block: 'center'}}); \
                         const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];"
                    ))
                    .await;
                let (x, y) = (
                    centre[0].as_f64().unwrap_or(0.0),
                    centre[1].as_f64().unwrap_or(0.0),
                );
                self.driver
                    .action_chain()
                    .move_to(x as i64, y as i64)
                    .click()
                    .perform()
                    .await
                    .unwrap_or_else(|e| panic!("click {css:?} at ({x}, {y}): {e}"));
            }
            Err(error) => panic!("click {css:?}: {error}"),
        }
    }

    /// Drops a folder called `folder` holding `files` (path inside it, with `/` between
    /// sub-folders; bytes) on the element matching `css`, as every engine's entries API
    /// (`webkitGetAsEntry`) gives a dropped folder: `isFile`, `isDirectory`, `name`,
    /// `createReader().readEntries()` in batches ending with an empty one, `file()`.
    /// WebDriver cannot drag from the desktop, so the drop event and its entries are
    /// made in the page.
    pub async fn drop_folder(&self, css: &str, folder: &str, files: &[(String, Vec<u8>)]) {
        use base64::Engine as _;
        let files: Vec<_> = files
            .iter()
            .map(|(path, bytes)| {
                serde_json::json!([
                    path,
                    base64::engine::general_purpose::STANDARD.encode(bytes)
                ])
            })
            .collect();
        let args = vec![
            serde_json::json!(css),
            serde_json::json!(folder),
            serde_json::json!(files),
        ];
        self.driver
            .execute(DROP_FOLDER, args)
            .await
            .unwrap_or_else(|e| panic!("drop a folder on {css:?}: {e}"));
    }

    /// Chooses the option whose value is `value` in the `<select>` matching `css`.
    ///
    /// WebKit's driver clicks an option without choosing it (its popup is the
    /// desktop's), so there the value is set as choosing it does: with `input` and
    /// `change` events.
    pub async fn select(&self, css: &str, value: &str) {
        if self.engine == Engine::Webkit {
            let script = format!(
                "const s = document.querySelector({css:?}); \
                 if (![...s.options].some(o => o.value === {value:?})) return false; \
                 s.value = {value:?}; \
                 s.dispatchEvent(new Event('input', {{bubbles: true}})); \
                 s.dispatchEvent(new Event('change', {{bubbles: true}})); return true;"
            );
            self.find(css).await;
            assert_eq!(
                self.js(&script).await,
                serde_json::json!(true),
                "{css:?} has no option {value:?}"
            );
            return;
        }
        SelectElement::new(&self.find(css).await)
            .await
            .unwrap_or_else(|e| panic!("{css:?} is no select: {e}"))
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{css:?} has no option {value:?}: {e}"));
    }

    /// Every element matching `css` (none is fine; no waiting).
    pub async fn find_all(&self, css: &str) -> Vec<WebElement> {
        self.driver.find_all(By::Css(css)).await.unwrap_or_default()
    }

    /// Waits up to 10 s until the page's JavaScript `condition` is truthy.
    pub async fn wait_for_js(&self, condition: &str) {
        let script = format!("return !!({condition});");
        eventually(WAIT, async || {
            let truthy = self.driver.execute(&script, vec![]).await;
            match truthy.ok().and_then(|r| r.json().as_bool()) {
                Some(true) => Ok(()),
                _ => Err(format!("never true: {condition}")),
            }
        })
        .await
    }

    /// Waits up to 10 s until the element with the id `id` has the focus.
    pub async fn wait_for_focus(&self, id: &str) {
        self.wait_for_js(&format!(
            "document.activeElement && document.activeElement.id === '{id}'"
        ))
        .await;
    }

    /// Waits up to 10 s until the app's address (path and query, after [`Harness::base`])
    /// satisfies `want`, and returns it.
    pub async fn wait_for_address(&self, want: impl Fn(&str) -> bool) -> String {
        eventually(WAIT, async || {
            let url = self.current_url().await;
            let address = url.strip_prefix(&self.base).unwrap_or(&url).to_owned();
            if want(&address) {
                Ok(address)
            } else {
                Err(format!("the app stayed at {address}"))
            }
        })
        .await
    }

    /// Waits up to 10 s until the app's address (path and query) is `want`.
    pub async fn wait_for_path(&self, want: &str) {
        self.wait_for_address(|address| address == want).await;
    }

    /// Waits for the page's next two animation frames: whatever it was told has been
    /// laid out and painted.
    pub async fn next_frames(&self) {
        self.js("return new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));")
            .await;
    }

    /// Runs `script` in the page and returns its JSON result.
    pub async fn js(&self, script: &str) -> serde_json::Value {
        self.driver
            .execute(script, vec![])
            .await
            .expect("run script")
            .json()
            .clone()
    }

    /// Whether the area-grid square `code` is picked (its `aria-selected`).
    pub async fn square_is_selected(&self, code: &str) -> bool {
        self.find(&format!("#square-{code}"))
            .await
            .attr("aria-selected")
            .await
            .expect("read aria-selected")
            .as_deref()
            == Some("true")
    }

    /// Touches the page with one finger along `points` (CSS pixels from the viewport's
    /// corner): down at the first, moved through the others, lifted at the last; one
    /// point is a tap. It is WebDriver's touch pointer: Chromium fires touch and
    /// pointer events as for a finger on a phone, and scrolls the page for it unless
    /// the page says not to (`touch-action`); Firefox fires the same events but never
    /// scrolls for them; WebKitGTK moves a mouse instead (pointerType `mouse`).
    pub async fn touch(&self, points: &[(i64, i64)]) {
        use thirtyfour::common::command::{Actions, Command};
        let (first, rest) = points.split_first().expect("a point to touch");
        let to = |(x, y): &(i64, i64), duration: u64| serde_json::json!({"type": "pointerMove", "origin": "viewport", "x": x, "y": y, "duration": duration});
        let mut steps = vec![
            to(first, 0),
            serde_json::json!({"type": "pointerDown", "button": 0}),
        ];
        steps.extend(rest.iter().map(|point| to(point, 100)));
        steps.push(serde_json::json!({"type": "pointerUp", "button": 0}));
        let finger = serde_json::json!([{
            "type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"}, "actions": steps,
        }]);
        self.driver
            .cmd(Command::PerformActions(Actions::from(finger)))
            .await
            .unwrap_or_else(|e| panic!("touch along {points:?}: {e}"));
    }

    /// Sends `key` to the focused element, as a keyboard user would.
    pub async fn press(&self, key: impl Into<TypingData>) {
        self.driver
            .active_element()
            .await
            .expect("a focused element")
            .send_keys(key)
            .await
            .expect("send keys");
    }

    /// Waits up to 10 s until the first element matching `css` says `needle`; returns
    /// its text.
    pub async fn wait_for_text(&self, css: &str, needle: &str) -> String {
        self.wait_for_text_within(css, needle, Duration::from_secs(10))
            .await
    }

    /// [`Harness::wait_for_text`] for work that takes longer, such as a whole download.
    pub async fn wait_for_text_within(&self, css: &str, needle: &str, within: Duration) -> String {
        eventually(within, async || {
            let text = match self.find_all(css).await.first() {
                Some(element) => self.text_of(element).await.unwrap_or_default(),
                None => String::new(),
            };
            if text.contains(needle) {
                Ok(text)
            } else {
                Err(format!("{css} never said {needle:?}; it says {text:?}"))
            }
        })
        .await
    }

    /// A token for a project's key and secret from the app's service (when that is
    /// our server, at [`Harness::base`]).
    pub async fn fetch_token(&self, key: &str, secret: &str) -> String {
        let answer: serde_json::Value =
            serde_json::from_str(&token_answer(&self.base, key, secret).await)
                .expect("the token answer's JSON");
        answer["access_token"]
            .as_str()
            .expect("access_token")
            .to_owned()
    }

    /// (file name, size) of every row of a product's downloads table, once it has
    /// `count` rows.
    pub async fn downloads_table(&self, count: usize) -> BTreeSet<(String, u64)> {
        self.wait_for_js(&format!(
            "document.querySelectorAll('.downloads-table tbody tr').length === {count}"
        ))
        .await;
        let rows = self
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

    /// Simulated slow 4G, as issue 11 measures a phone: 1.6 Mbit/s down, 750 kbit/s up,
    /// 150 ms round trips. Chromium only (its DevTools protocol): a test using it is
    /// ignored elsewhere (`#[cfg_attr(not(engine = "chromium"), ignore = "why")]`).
    pub async fn slow_4g(&self) {
        let cdp = self.driver.cdp();
        cdp.send_raw("Network.enable", serde_json::json!({}))
            .await
            .expect("enable network");
        cdp.send_raw(
            "Network.emulateNetworkConditions",
            serde_json::json!({
                "offline": false,
                "latency": 150,
                "downloadThroughput": 1_600_000 / 8,
                "uploadThroughput": 750_000 / 8,
            }),
        )
        .await
        .expect("slow the network");
    }

    /// Replaces the text of the field at `css` with `text`, as a user typing would, until
    /// the field shown holds it when looked at again: a form that re-renders as it is
    /// being filled (a sign-in method just chosen) may replace the field typed into.
    pub async fn type_into(&self, css: &str, text: &str) {
        eventually(WAIT, async || {
            let input = self.find(css).await;
            let value = input.prop("value").await.ok().flatten().unwrap_or_default();
            if value == text {
                return Ok(());
            }
            let _ = input.clear().await;
            let _ = input.send_keys(text).await;
            Err(format!("{css} holds {value:?}, not {text:?}"))
        })
        .await;
    }

    /// Picks the sign-in method whose label contains `label` ("API key and secret",
    /// "Access token", …) on the sign-in form shown now.
    pub async fn choose_sign_in_method(&self, label: &str) {
        self.find(".login-form").await;
        // Clicked again until its radio is checked: WebKit, loaded, once let a click
        // on a form redrawn after a refused sign-in go unheard.
        eventually(WAIT, async || {
            for option in self.find_all(".method-option").await {
                if !option.text().await.unwrap_or_default().contains(label) {
                    continue;
                }
                if let Ok(radio) = option.find(By::Css("input[type='radio']")).await
                    && radio.is_selected().await.unwrap_or(false)
                {
                    return Ok(());
                }
                let _ = option.click().await;
                return Err(format!("the sign-in method {label:?} is not chosen yet"));
            }
            Err(format!("no sign-in method labelled {label:?}"))
        })
        .await;
    }

    /// The sign-in form's error message, once it shows one.
    pub async fn sign_in_error(&self) -> String {
        eventually(WAIT, async || {
            let text = match self.find_all(".form-error").await.first() {
                Some(error) => error.text().await.unwrap_or_default(),
                None => String::new(),
            };
            match text.is_empty() {
                true => Err("no message".to_owned()),
                false => Ok(text),
            }
        })
        .await
    }

    /// Sends the sign-in form as it is filled in.
    pub async fn submit_sign_in(&self) {
        self.find(".login-form button[type='submit']")
            .await
            .click()
            .await
            .expect("submit the sign-in form");
    }

    /// Signs in with an API key and secret on the sign-in form shown now.
    pub async fn sign_in_with_secret(&self, key: &str, secret: &str) {
        self.choose_sign_in_method("API key and secret").await;
        self.type_into("#login-key", key).await;
        self.type_into("#login-secret", secret).await;
        self.submit_sign_in().await;
    }

    /// Signs in with an access token (or the token endpoint's whole answer) on the
    /// sign-in form shown now.
    pub async fn sign_in_with_token(&self, token: &str) {
        self.choose_sign_in_method("Access token").await;
        self.type_into("#login-token", token).await;
        self.submit_sign_in().await;
    }

    /// Asserts that no secret or token is in any address the tab visited or fetched,
    /// in its storage meant to outlive the tab, nor in the current address.
    pub async fn assert_no_secrets(&self, secrets: &[&str]) {
        let mut urls = self.visited_urls().await;
        urls.push(self.current_url().await);
        let storage = self
            .js("return JSON.stringify(Object.assign({}, localStorage));")
            .await;
        for secret in secrets {
            for url in &urls {
                assert!(!url.contains(secret), "a secret leaked into {url}");
            }
            assert!(
                !storage.as_str().unwrap_or_default().contains(secret),
                "a secret is in localStorage"
            );
        }
    }

    /// Opens the sign-in page on the way to the app path `next` and signs in there with
    /// an API key and secret.
    pub async fn sign_in_to(&self, next: &str, key: &str, secret: &str) {
        self.goto(&format!("/login?next={next}")).await;
        self.sign_in_with_secret(key, secret).await;
    }

    /// Errors the current page has hit so far, Content-Security-Policy violations
    /// included (recorded by the preload script, `src/preload.js`).
    pub async fn console_errors(&self) -> Vec<String> {
        serde_json::from_value(self.js("return window.__errors || [];").await).unwrap_or_default()
    }

    /// The address the browser is at now.
    pub async fn current_url(&self) -> String {
        self.driver
            .current_url()
            .await
            .expect("current url")
            .to_string()
    }

    /// Every address this tab showed (pushState entries included, as the preload
    /// script records them) and every resource the current page fetched: what a test
    /// checks for leaked secrets.
    pub async fn visited_urls(&self) -> Vec<String> {
        let found = self
            .js(
                "return JSON.parse(sessionStorage.getItem('__e2eVisited') || '[]').concat(\
                 performance.getEntriesByType('resource').map(e => e.name));",
            )
            .await;
        found
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|u| u.as_str().map(str::to_owned))
            .collect()
    }

    /// The folder the browser saves downloads into, empty when the harness starts.
    pub fn download_dir(&self) -> &Path {
        self.downloads.path()
    }

    /// Whether the browser is still writing a download under a partial name
    /// (Chromium's `.crdownload`, Firefox's `.part`). WebKit writes under the final
    /// name as the bytes arrive, and Firefox may show the final name (empty) before its
    /// `.part`: a caller that must know a file is whole checks its content too
    /// ([`Harness::wait_for_whole_download`]).
    pub fn downloading(&self) -> bool {
        self.downloaded().iter().any(|path| {
            path.extension()
                .is_some_and(|ext| ext == "crdownload" || ext == "part")
        })
    }

    /// Every file in the download folder.
    pub fn downloaded(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.download_dir())
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .collect()
    }

    /// The file `name` the browser downloaded, once no partial file is left (see
    /// [`Harness::downloading`]), waiting up to `within` for it.
    pub async fn wait_for_download(&self, name: &str, within: Duration) -> PathBuf {
        let path = self.download_dir().join(name);
        eventually(within, async || {
            if path.is_file() && !self.downloading() {
                Ok(path.clone())
            } else {
                Err(format!(
                    "{name} is not downloaded yet; the folder has {:?}",
                    self.downloaded()
                ))
            }
        })
        .await
    }

    /// The download `name` once `whole` accepts its bytes (or says why not), waiting
    /// up to `within`: WebKit writes a download under its final name as its bytes
    /// arrive, and Firefox may show the final name (empty) first, so a file there may
    /// still be short. A download never whole fails with `whole`'s last reason.
    pub async fn wait_for_whole_download<T>(
        &self,
        name: &str,
        within: Duration,
        mut whole: impl FnMut(&[u8]) -> Result<T, String>,
    ) -> T {
        let path = self.wait_for_download(name, within).await;
        eventually(within, async || {
            let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
            whole(&bytes)
        })
        .await
    }

    /// Closes the browser without blocking the test's runtime, then stops its
    /// driver and the servers (as dropping does).
    pub async fn stop(self) {
        let _ = self.driver.clone().quit().await;
    }

    /// Fails the test if the page has hit an error ([`Self::console_errors`]).
    pub async fn assert_no_console_errors(&self) {
        assert_eq!(self.console_errors().await, Vec::<String>::new());
    }

    /// [`Self::stop`], once the page is seen to have hit no error.
    pub async fn stop_clean(self) {
        self.assert_no_console_errors().await;
        self.stop().await;
    }
}

/// The workspace's root folder.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The app built for a site root (`E2E_WEB_ROOT`, by default `<workspace>/dist`), as
/// the tests serve it: with the harness's preload script ([`web_root::prepare`]).
pub fn web_root() -> PathBuf {
    prepared(built_app("E2E_WEB_ROOT", "dist", "cargo xtask build"))
}

/// The app built for the sub-path `/explorer/`: `E2E_EXPLORER_WEB_ROOT`, by default
/// `<workspace>/target/e2e-explorer`.
pub fn explorer_web_root() -> PathBuf {
    prepared(built_app(
        "E2E_EXPLORER_WEB_ROOT",
        "target/e2e-explorer",
        "cargo xtask build --public-url /explorer/ --dist target/e2e-explorer",
    ))
}

fn prepared(root: PathBuf) -> PathBuf {
    web_root::prepare(&root).unwrap_or_else(|error| {
        panic!(
            "cannot add the test recorders to the app at {}: {error}",
            root.display()
        )
    })
}

fn built_app(variable: &str, default: &str, build: &str) -> PathBuf {
    let root = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join(default));
    assert!(
        root.join("index.html").is_file(),
        "the built app is missing at {}: run `cargo xtask test` (or `{build}`) first, or point \
         {variable} at a built app",
        root.display()
    );
    root
}

/// The engine's WebDriver server on a free port, once it answers. WebKit's browser
/// gets a settings folder of its own whose download folder is `downloads`.
async fn start_driver(engine: Engine, downloads: &Path) -> (DriverProcess, SocketAddr) {
    let addr = StdListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("find a free port");
    let (program, args) = engine.driver_command(addr.port());
    let mut command = Command::new(program);
    let log = tempfile::NamedTempFile::new().expect("a file for the driver's output");
    // One open file for both, so their writes follow each other.
    let output = log.reopen().expect("the driver's output file");
    command
        .args(args)
        .process_group(0)
        .stdout(output.try_clone().expect("the driver's output file"))
        .stderr(output);
    let mut home = None;
    if engine == Engine::Firefox {
        // Its profile inside a folder of ours, removed even when the browser is killed.
        let profiles = tempfile::tempdir().expect("a profile folder");
        command.arg("--profile-root").arg(profiles.path());
        home = Some(profiles);
    }
    if engine == Engine::Webkit {
        // MiniBrowser saves into the XDG download folder, read from the user's settings.
        let config = tempfile::tempdir().expect("a settings folder");
        std::fs::write(
            config.path().join("user-dirs.dirs"),
            format!("XDG_DOWNLOAD_DIR=\"{}\"\n", downloads.display()),
        )
        .expect("write user-dirs.dirs");
        command.env("XDG_CONFIG_HOME", config.path());
        home = Some(config);
    }
    let child = command
        .spawn()
        .unwrap_or_else(|error| panic!("start {program} ({error}): {}", engine.install_hint()));
    let child = DriverProcess {
        child,
        _home: home,
        log,
    };
    eventually(WAIT, async || {
        tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|error| format!("{program} did not start: {error}"))
    })
    .await;
    (child, addr)
}
