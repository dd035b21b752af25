//! The three browser engines the tests run in, one per run of the test binary
//! (`E2E_BROWSER=chromium|firefox|webkit`, Chromium when unset), and how each is
//! started through its WebDriver server.

use std::fmt;
use std::path::Path;

use serde_json::{Value, json};
use thirtyfour::Capabilities;

/// A browser engine and the WebDriver server that drives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Debian's `chromium`, through `chromedriver`.
    Chromium,
    /// Debian's `firefox-esr`, through geckodriver (built with cargo).
    Firefox,
    /// WebKitGTK's MiniBrowser (Safari's engine), through `WebKitWebDriver`; it needs an
    /// X display (`xvfb-run -a`).
    Webkit,
}

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

const MINIBROWSER: &str = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

impl Engine {
    /// The engine this run tests: the one the tests were built for (`E2E_BROWSER` when
    /// built, Chromium when unset; see `build.rs`), which decides which tests are
    /// ignored. Panics when `E2E_BROWSER` now names another: the binary was run without
    /// cargo, which would have rebuilt it for that engine.
    pub fn current() -> Engine {
        let built = match env!("E2E_BUILT_FOR") {
            "firefox" => Engine::Firefox,
            "webkit" => Engine::Webkit,
            _ => Engine::Chromium,
        };
        let asked = match std::env::var("E2E_BROWSER") {
            Ok(name) if !name.is_empty() => name,
            _ => "chromium".to_owned(),
        };
        assert_eq!(
            asked,
            built.name(),
            "E2E_BROWSER={asked}, but these tests were built for {built}, and which tests \
             run is decided then: run them with cargo, which builds them for E2E_BROWSER"
        );
        built
    }

    /// Its name, as `E2E_BROWSER` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Chromium => "chromium",
            Engine::Firefox => "firefox",
            Engine::Webkit => "webkit",
        }
    }

    /// The WebDriver server's command, told to listen on `port`.
    pub(crate) fn driver_command(self, port: u16) -> (&'static str, Vec<String>) {
        match self {
            Engine::Chromium => ("/usr/bin/chromedriver", vec![format!("--port={port}")]),
            Engine::Firefox => (
                "geckodriver",
                vec![
                    "--port".into(),
                    port.to_string(),
                    "--host".into(),
                    "127.0.0.1".into(),
                    // Scripts in Firefox's own window: its page zoom, for a phone's
                    // width (`Harness::set_phone_viewport`).
                    "--allow-system-access".into(),
                ],
            ),
            Engine::Webkit => ("/usr/bin/WebKitWebDriver", vec![format!("--port={port}")]),
        }
    }

    /// What to install when its driver is missing.
    pub(crate) fn install_hint(self) -> &'static str {
        match self {
            Engine::Chromium => "apt-get install chromium chromium-driver",
            Engine::Firefox => {
                "apt-get install firefox-esr; cargo install --locked geckodriver (cargo xtask test does both)"
            }
            Engine::Webkit => "apt-get install webkit2gtk-driver xvfb, and run under xvfb-run -a",
        }
    }

    /// A new session's capabilities: headless where the engine can be, a 1280x900
    /// window, and downloads saved into `downloads` without asking.
    pub(crate) fn capabilities(self, downloads: &Path) -> Capabilities {
        let caps = match self {
            Engine::Chromium => json!({
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": "/usr/bin/chromium",
                    "args": CHROME_ARGS,
                    "prefs": {
                        "download.default_directory": downloads,
                        "download.prompt_for_download": false,
                    },
                },
            }),
            Engine::Firefox => json!({
                "browserName": "firefox",
                "moz:firefoxOptions": {
                    "binary": "/usr/bin/firefox-esr",
                    "args": ["-headless", "--width=1280", "--height=900"],
                    "prefs": {
                        "browser.download.folderList": 2,
                        "browser.download.dir": downloads,
                        "browser.download.useDownloadDir": true,
                        "browser.download.always_ask_before_handling_new_types": false,
                        "browser.download.manager.showWhenStarting": false,
                        "browser.download.alwaysOpenPanel": false,
                        "browser.helperApps.neverAsk.saveToDisk":
                            "application/zip,application/octet-stream,text/plain,text/x-shellscript,application/json",
                        // No network but loopback: nothing to update or report.
                        "app.update.disabledForTesting": true,
                        "browser.shell.checkDefaultBrowser": false,
                        "datareporting.policy.dataSubmissionEnabled": false,
                        "toolkit.telemetry.enabled": false,
                        // An idle service worker lives 8 s, plus 8 s while an event holds
                        // it (30 s + 30 s by default), so a test can stall a zip past them.
                        "dom.serviceWorkers.idle_timeout": 8000,
                        "dom.serviceWorkers.idle_extended_timeout": 8000,
                    },
                },
            }),
            Engine::Webkit => json!({
                "browserName": "MiniBrowser",
                "webkitgtk:browserOptions": {
                    "binary": MINIBROWSER,
                    "args": ["--automation"],
                },
            }),
        };
        match caps {
            Value::Object(map) => Capabilities::from(map),
            _ => unreachable!("capabilities are an object"),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether this run's engine is one of `engines`; when it is not, says so with `why` (the
/// reason a check cannot run there) so the skip shows in the test's output. For a check
/// inside a test that runs everywhere; a whole test that cannot run in an engine is
/// ignored there instead: `#[cfg_attr(not(engine = "chromium"), ignore = "why")]`.
pub fn runs_in(engines: &[Engine], why: &str) -> bool {
    let engine = Engine::current();
    let runs = engines.contains(&engine);
    if !runs {
        println!("skipped in {engine}: {why}");
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::Engine;

    /// The cfg the tests are ignored by and the engine the harness starts are the same.
    #[test]
    fn the_engine_started_is_the_one_the_tests_were_built_for() {
        let engine = Engine::current();
        assert_eq!(cfg!(engine = "chromium"), engine == Engine::Chromium);
        assert_eq!(cfg!(engine = "firefox"), engine == Engine::Firefox);
        assert_eq!(cfg!(engine = "webkit"), engine == Engine::Webkit);
    }
}
