//! Accessibility checks with axe-core, and the screen sizes and colour schemes they
//! run under.
//!
//! axe-core is the npm package `cargo xtask test` installs (pinned) into the
//! project's `.tools/`; its script is injected into the page on demand.

use std::fmt;
use std::sync::OnceLock;

use serde_json::json;

use crate::{Engine, Harness, workspace_root};

/// A phone's screen, in CSS pixels.
pub const PHONE: Viewport = Viewport {
    width: 390,
    height: 844,
};
/// A laptop's window, in CSS pixels.
pub const DESKTOP: Viewport = Viewport {
    width: 1280,
    height: 900,
};

/// The size of the page's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewport {
    pub width: u32,
    pub height: u32,
}

/// The colour scheme the page is told the user prefers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Light,
    Dark,
}

impl Scheme {
    fn media_value(self) -> &'static str {
        match self {
            Scheme::Light => "light",
            Scheme::Dark => "dark",
        }
    }
}

/// Every combination the accessibility tests cover.
pub const ALL_LOOKS: [(Viewport, Scheme); 4] = [
    (DESKTOP, Scheme::Light),
    (DESKTOP, Scheme::Dark),
    (PHONE, Scheme::Light),
    (PHONE, Scheme::Dark),
];

/// One broken axe rule and the elements that break it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule, e.g. `color-contrast`.
    pub id: String,
    pub impact: Option<String>,
    pub help: String,
    /// CSS selectors of the offending elements, with axe's summary of each.
    pub nodes: Vec<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let impact = self.impact.as_deref().unwrap_or("?");
        writeln!(f, "{} ({impact}): {}", self.id, self.help)?;
        for node in &self.nodes {
            writeln!(f, "    {node}")?;
        }
        Ok(())
    }
}

/// Whether this run's engine can be told the colour scheme a user prefers: only
/// Chromium, through its DevTools protocol (Firefox and WebKit read it from the desktop's
/// settings when they start).
pub fn can_emulate(scheme: Scheme) -> bool {
    scheme == Scheme::Light || Engine::current() == Engine::Chromium
}

/// Shows the page at `viewport` with `scheme` preferred, as a user's device would
/// (outside Chromium, only the light scheme: see [`can_emulate`]).
pub async fn emulate(h: &Harness, viewport: Viewport, scheme: Scheme) {
    h.set_viewport(viewport.width, viewport.height).await;
    if h.engine != Engine::Chromium {
        assert!(
            can_emulate(scheme),
            "{} cannot be shown in {scheme:?}",
            h.engine
        );
        h.next_frames().await;
        return;
    }
    let cdp = h.driver.cdp();
    cdp.send_raw(
        "Emulation.setEmulatedMedia",
        // Reduced motion too: colours are checked as they are, not halfway through a
        // transition from the other scheme.
        json!({ "features": [
            { "name": "prefers-color-scheme", "value": scheme.media_value() },
            { "name": "prefers-reduced-motion", "value": "reduce" },
        ] }),
    )
    .await
    .expect("set the colour scheme");
    // Let the page lay itself out again before anything is measured.
    h.next_frames().await;
}

/// axe-core's script, read once.
fn axe_source() -> &'static str {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let path = workspace_root().join(".tools/node_modules/axe-core/axe.min.js");
        std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!(
                "axe-core is missing at {} ({error}): run `cargo xtask test`, which installs it",
                path.display()
            )
        })
    })
}

/// What axe-core finds wrong on the page as it is now (WCAG 2.x A and AA rules and
/// axe's best practices).
pub async fn violations(h: &Harness) -> Vec<Violation> {
    let loaded = h.js("return typeof window.axe === 'object';").await;
    if loaded != json!(true) {
        h.driver
            .execute(format!("{}\nreturn true;", axe_source()), vec![])
            .await
            .expect("inject axe-core");
    }
    let found = h
        .js(r#"
            return axe.run(document, {
              runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
              // Experimental in axe, so off unless asked: speech users say what they see.
              rules: { 'label-content-name-mismatch': { enabled: true } },
              resultTypes: ['violations'],
            }).then(result => result.violations.map(v => ({
              id: v.id,
              impact: v.impact,
              help: v.help,
              nodes: v.nodes.map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\s+/g, ' ')),
            })));
        "#)
        .await;
    let text = |value: &serde_json::Value| value.as_str().unwrap_or_default().to_owned();
    found
        .as_array()
        .expect("axe-core's answer is a list")
        .iter()
        .map(|v| Violation {
            id: text(&v["id"]),
            impact: v["impact"].as_str().map(str::to_owned),
            help: text(&v["help"]),
            nodes: v["nodes"]
                .as_array()
                .into_iter()
                .flatten()
                .map(text)
                .collect(),
        })
        .collect()
}

/// Checks the page under every [`ALL_LOOKS`] combination this engine can show (see
/// [`can_emulate`]), returning what is wrong as readable lines (empty when nothing is).
/// `page` names the page in them.
pub async fn check_all_looks(h: &Harness, page: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (viewport, scheme) in ALL_LOOKS {
        if !can_emulate(scheme) {
            continue;
        }
        emulate(h, viewport, scheme).await;
        for violation in violations(h).await {
            problems.push(format!(
                "{page} at {}x{} {scheme:?}: {violation}",
                viewport.width, viewport.height
            ));
        }
    }
    emulate(h, DESKTOP, Scheme::Light).await;
    problems
}

/// Opens the app path `path`, waits for `ready` to show, and checks the page under every
/// [`ALL_LOOKS`] combination; `page` names it in the problems found.
pub async fn check_page(h: &Harness, path: &str, ready: &str, page: &str) -> Vec<String> {
    h.goto(path).await;
    h.find(ready).await;
    check_all_looks(h, page).await
}

/// Fails the test with every problem axe-core found, if it found any.
pub fn assert_none(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "axe-core found:\n{}",
        problems.join("\n")
    );
}
