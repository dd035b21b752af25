//! Harness of the browser tests: the built web app in headless Chromium, served by
//! servers started in-process on free loopback ports: the real server, a static host
//! ([`static_host`]) or a second implementation of the service with the real one's
//! quirks ([`quirky_service`]).
//!
//! Needs the built app (`E2E_WEB_ROOT`, default `<workspace>/dist`, and for a sub-path
//! `E2E_EXPLORER_WEB_ROOT`; `cargo xtask test` builds both) and Debian's `chromium` and
//! `chromedriver`.

pub mod quirky_service;
pub mod static_host;

use std::future::pending;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use axum::Router;
use clap::Parser;
use download_server::Config;
use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;

pub use thirtyfour;

pub mod axe;

/// Chromium's flags for a root user on a machine with no network but loopback.
const CHROME_ARGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--window-size=1280,900",
];

/// Collects what a user would see as errors in the developer console: uncaught
/// errors, rejected promises, failed image/script loads and `console.error` calls.
/// Keeps every `WebAssembly.Memory` the page instantiates (the split build's modules
/// share one) in `window.__memories`. Install it before the page's own scripts.
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

/// What [`WASM_MEMORY_RECORDER`] saw, as a script's answer: the memories' bytes in all,
/// `NaN` before the app's wasm started.
pub const WASM_MEMORY_BYTES: &str = "return window.__memories && window.__memories.size \
    ? [...window.__memories].reduce((sum, m) => sum + m.buffer.byteLength, 0) : NaN;";

const ERROR_RECORDER: &str = r#"
window.__errors = [];
window.addEventListener('error', e => {
  const what = e.target && e.target !== window ? (e.target.src || e.target.href || e.target.tagName) : e.message;
  window.__errors.push('error: ' + what);
}, true);
window.addEventListener('unhandledrejection', e => window.__errors.push('rejection: ' + e.reason));
const consoleError = console.error.bind(console);
console.error = (...args) => { window.__errors.push('console: ' + args.join(' ')); consoleError(...args); };
"#;

/// The browser on an app and the servers behind it. Dropping it (a failing test
/// included) ends the browser, chromedriver and the servers; [`Harness::stop`] first
/// ends the WebDriver session properly.
#[derive(Debug)]
pub struct Harness {
    /// Where the app is: the server's origin, e.g. `http://127.0.0.1:41234`, followed
    /// by the sub-path of an app built for one (`…/explorer`).
    pub base: String,
    /// The browser.
    pub driver: WebDriver,
    /// Only held, to be killed on drop.
    _chromedriver: Chromedriver,
    /// Only held, to be stopped on drop.
    _servers: Vec<Served>,
}

impl Drop for Harness {
    fn drop(&mut self) {
        // A session still open here belongs to a test that failed before `stop`.
        // thirtyfour would end it in its own drop with a blocking request, which hung
        // for two minutes and then left the browser running (the test's runtime, and
        // with it the app's server, is blocked meanwhile); the browser is killed with
        // chromedriver instead.
        let _ = self.driver.clone().leak();
    }
}

/// chromedriver and the browser it started, in a process group of their own: all
/// killed when dropped.
#[derive(Debug)]
struct Chromedriver(Child);

impl Drop for Chromedriver {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.wait();
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
    let listener = bind().await;
    let origin = format!("http://{}", listener.local_addr().expect("bound address"));
    serve_on(listener, origin, app)
}

/// Serves `app` on `listener`, bound at `origin` (for an app that must know its own
/// origin before it is built).
fn serve_on(listener: tokio::net::TcpListener, origin: String, app: Router) -> Served {
    let task = tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            panic!("a test server stopped: {error}");
        }
    });
    Served { origin, task }
}

/// Our server with the demo catalogue, writing links for its own origin, with
/// `server_args` added to its command line (e.g. `["--token-ttl", "3"]`).
pub async fn our_server(server_args: &[&str]) -> Served {
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
    let config = Config::parse_from(args);
    let server = download_server::Server::new(config, listener).expect("the server starts");
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

    /// A fresh browser on the app at `base`, served by `servers`.
    pub async fn open(base: String, servers: Vec<Served>) -> Harness {
        let (chromedriver, driver_addr) = start_chromedriver().await;
        let mut caps = DesiredCapabilities::chrome();
        caps.set_binary("/usr/bin/chromium")
            .expect("set the chromium binary");
        for arg in CHROME_ARGS {
            caps.add_arg(arg).expect("add a chromium flag");
        }
        let driver = WebDriver::new(format!("http://{driver_addr}"), caps)
            .await
            .expect("start a chromium session");
        driver
            .cdp()
            .page()
            .add_script_to_evaluate_on_new_document(ERROR_RECORDER)
            .await
            .expect("install the console error recorder");
        Harness {
            base: base.trim_end_matches('/').to_owned(),
            driver,
            _chromedriver: chromedriver,
            _servers: servers,
        }
    }

    /// The absolute URL of an app path such as `/products/OpenRoads`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
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
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let error = match self.find(css).await.text().await {
                Ok(text) => return text,
                Err(error) => error,
            };
            let stale = matches!(
                error.as_inner(),
                WebDriverErrorInner::StaleElementReference(_)
            );
            assert!(
                stale && Instant::now() < deadline,
                "text of {css:?}: {error}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// From the next page on, the app's folder picker answers the browser's
    /// origin-private file system (the same `FileSystemDirectoryHandle` interface),
    /// which a test can read back; a headless browser has no picker to click through.
    pub async fn pick_private_folder(&self) {
        self.driver
            .cdp()
            .page()
            .add_script_to_evaluate_on_new_document(
                "window.__downloadExplorerPickDirectory = () => navigator.storage.getDirectory();",
            )
            .await
            .expect("install the folder hook");
    }

    /// Every element matching `css` (none is fine; no waiting).
    pub async fn find_all(&self, css: &str) -> Vec<WebElement> {
        self.driver.find_all(By::Css(css)).await.unwrap_or_default()
    }

    /// Waits up to 10 s until the page's JavaScript `condition` is truthy.
    pub async fn wait_for_js(&self, condition: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        let script = format!("return !!({condition});");
        loop {
            let ok = self
                .driver
                .execute(&script, vec![])
                .await
                .ok()
                .and_then(|r| r.json().as_bool())
                .unwrap_or(false);
            if ok {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for: {condition}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
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
        let deadline = Instant::now() + within;
        loop {
            let text = match self.find_all(css).await.first() {
                Some(element) => element.text().await.unwrap_or_default(),
                None => String::new(),
            };
            if text.contains(needle) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{css} never said {needle:?}; it says {text:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Simulated slow 4G, as issue 11 measures a phone: 1.6 Mbit/s down, 750 kbit/s up,
    /// 150 ms round trips.
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

    /// Replaces the text of the field at `css` with `text`, as a user typing would.
    pub async fn type_into(&self, css: &str, text: &str) {
        let input = self.find(css).await;
        input.clear().await.expect("clear field");
        input.send_keys(text).await.expect("type");
    }

    /// Picks the sign-in method whose label contains `label` ("API key and secret",
    /// "Access token", …) on the sign-in form shown now.
    pub async fn choose_sign_in_method(&self, label: &str) {
        self.find(".login-form").await;
        for option in self.find_all(".method-option").await {
            if option.text().await.unwrap_or_default().contains(label) {
                option.click().await.expect("choose sign-in method");
                return;
            }
        }
        panic!("no sign-in method labelled {label:?}");
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

    /// Errors the current page has hit so far (see [`ERROR_RECORDER`]).
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

    /// Every address of this tab's history (pushState entries included) and every
    /// resource the current page fetched: what a test checks for leaked secrets.
    pub async fn visited_urls(&self) -> Vec<String> {
        let history = self
            .driver
            .cdp()
            .send_raw("Page.getNavigationHistory", ())
            .await
            .expect("navigation history");
        let mut urls: Vec<String> = history["entries"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|entry| entry["url"].as_str().map(str::to_owned))
            .collect();
        let resources = self
            .js("return performance.getEntriesByType('resource').map(e => e.name);")
            .await;
        urls.extend(
            resources
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|u| u.as_str().map(str::to_owned)),
        );
        urls
    }

    /// Closes the browser without blocking the test's runtime, then stops
    /// chromedriver and the servers (as dropping does).
    pub async fn stop(self) {
        let _ = self.driver.clone().quit().await;
    }
}

/// The workspace's root folder.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The app built for a site root: `E2E_WEB_ROOT`, by default `<workspace>/dist`.
pub fn web_root() -> PathBuf {
    built_app("E2E_WEB_ROOT", "dist", "cargo xtask build")
}

/// The app built for the sub-path `/explorer/`: `E2E_EXPLORER_WEB_ROOT`, by default
/// `<workspace>/target/e2e-explorer`.
pub fn explorer_web_root() -> PathBuf {
    built_app(
        "E2E_EXPLORER_WEB_ROOT",
        "target/e2e-explorer",
        "cargo xtask build --public-url /explorer/ --dist target/e2e-explorer",
    )
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

async fn start_chromedriver() -> (Chromedriver, SocketAddr) {
    let addr = StdListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("find a free port");
    let child = Command::new("/usr/bin/chromedriver")
        .arg(format!("--port={}", addr.port()))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start /usr/bin/chromedriver (apt-get install chromium-driver)");
    let child = Chromedriver(child);
    let deadline = Instant::now() + Duration::from_secs(10);
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (child, addr)
}
