//! The browser part of `cargo xtask bench web` (issue 11): the app and the plain-JS
//! reference pages (`tools/bench-web/`) measured in headless Chromium, one after the
//! other in each run, against the same servers.
//!
//! xtask starts two servers, both with the built app and the reference pages under
//! `/bench/`: `BENCH_WEB_LARGE` serves the large generated catalogue, `BENCH_WEB_DEMO`
//! the demo catalogue (for the slow-4G first load). `BENCH_WEB_KEY` and
//! `BENCH_WEB_SECRET` sign in to the large one's data package. `BENCH_WEB_RUNS` runs
//! (3 by default) are made; the table shows the medians. With `BENCH_WEB_SLOW_4G_ONLY`
//! set (`cargo xtask bench web --slow-4g`), only the slow-4G rows.
//!
//! Everything is measured inside the page: a frame is "shown" at the first
//! `requestAnimationFrame` whose DOM holds the expected text, and "painted" at the next
//! one (after that frame's style, layout and paint). Elements are found by what users
//! see (texts, headings, `rel` links, the search box), not by how many rows exist.

use std::collections::BTreeMap;
use std::collections::{BTreeSet, HashMap};
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use download_api::{DataPackage, DataPackageVersion, Product, TokenResponse};
use e2e::bench::{cdp, median, open_uncached};
use e2e::{Harness, eventually, get_json, token_answer};
use serde_json::{Value, json};

/// Installed before any page script (with [`e2e::WASM_MEMORY_RECORDER`]): long tasks, resource timings kept,
/// and the load marks of [`Watch`] taken frame by frame from the document's start.
const PROBE: &str = r#"
(() => {
  const bench = window.__bench = { longtasks: [], marks: {}, watch: WATCH };
  performance.setResourceTimingBufferSize(100000);
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) bench.longtasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  bench.matches = w => {
    const text = document.body ? document.body.textContent : '';
    const h1 = (document.querySelector('h1') || {}).textContent || '';
    return w.text.every(t => text.includes(t)) && !w.absent.some(t => text.includes(t))
      && (!w.any.length || w.any.some(t => text.includes(t)))
      && h1.includes(w.h1);
  };
  const tick = () => {
    // A search typed as soon as the page has a search box that takes it (the app's
    // own, not its first view's disabled one), when `bench.typeAtOnce` names the text.
    const input = bench.typeAtOnce && bench.marks.typed === undefined
      && document.querySelector("input[type='search']:not([disabled])");
    if (input) {
      input.value = bench.typeAtOnce;
      input.dispatchEvent(new InputEvent('input', { bubbles: true }));
      bench.marks.typed = performance.now();
    }
    for (const [name, w] of Object.entries(bench.watch)) {
      if (bench.marks[name] === undefined && bench.matches(w)) {
        bench.marks[name] = performance.now();
        requestAnimationFrame(() => { bench.marks[name + ' painted'] = performance.now(); });
      }
    }
    if (!bench.stopWatching) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"#;

/// Waits for a `Watch` after an action, then for the frame after, and reports the
/// times and the long tasks from the action to `settle` ms after that frame.
const INTERACT: &str = r#"
const [action, watch, settle] = arguments;
const done = arguments[arguments.length - 1];
const bench = window.__bench;
const t0 = performance.now();
if (action.type !== undefined) {
  const input = document.querySelector(action.selector);
  input.focus();
  input.value = action.type;
  input.dispatchEvent(new InputEvent('input', { bubbles: true }));
} else {
  document.querySelector(action.click).click();
}
const wait = () => {
  if (bench.matches(watch)) {
    const shown = performance.now();
    requestAnimationFrame(() => {
      const painted = performance.now();
      setTimeout(() => done({ shown: shown - t0, painted: painted - t0, ...tasks(t0, painted + settle) }), settle);
    });
  } else if (performance.now() - t0 > 60000) {
    done({ error: 'never shown: ' + JSON.stringify(watch) });
  } else {
    requestAnimationFrame(wait);
  }
};
const tasks = (from, to) => {
  const within = bench.longtasks.filter(([start]) => start >= from - 1 && start < to);
  return {
    longest: Math.max(0, ...within.map(([, d]) => d)),
    blocking: within.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0),
  };
};
requestAnimationFrame(wait);
"#;

/// Scrolls the longest table (or the element carrying `aria-rowcount`) by `step` px a
/// frame for `frames` frames, in whatever scrolls it, timing every frame.
const SCROLL: &str = r#"
const [frames, step] = arguments;
const done = arguments[arguments.length - 1];
const bench = window.__bench;
const rows = el => Number(el.getAttribute('aria-rowcount')) || el.querySelectorAll('tr').length;
const table = [...document.querySelectorAll('[aria-rowcount], table')].sort((a, b) => rows(b) - rows(a))[0];
let scroller = table;
while (scroller && scroller !== document.body && scroller !== document.documentElement) {
  const style = getComputedStyle(scroller);
  if (/(auto|scroll)/.test(style.overflowY) && scroller.scrollHeight > scroller.clientHeight) break;
  scroller = scroller.parentElement;
}
if (!scroller || scroller === document.body || scroller === document.documentElement) {
  scroller = document.scrollingElement;
  scroller.scrollTop = table.getBoundingClientRect().top + scroller.scrollTop;
}
const startTop = scroller.scrollTop;
const times = [];
const frame = now => {
  times.push(now);
  if (times.length > frames) {
    const deltas = times.slice(1).map((t, i) => t - times[i]);
    const within = bench.longtasks.filter(([start]) => start >= times[0] && start < now);
    done({
      fps: 1000 * deltas.length / (now - times[0]),
      worst: Math.max(...deltas),
      longest: Math.max(0, ...within.map(([, d]) => d)),
      moved: scroller.scrollTop - startTop,
    });
    return;
  }
  scroller.scrollTop += step;
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
"#;

/// What the page must show: every `text` in the body, at least one of `any` (when
/// given), no `absent` one, `h1` in the first heading.
#[derive(Debug, Clone)]
struct Watch {
    text: Vec<String>,
    any: Vec<String>,
    absent: Vec<String>,
    h1: String,
}

impl Watch {
    fn text(text: &[&str]) -> Self {
        Watch {
            text: text.iter().map(|t| t.to_string()).collect(),
            any: Vec::new(),
            absent: Vec::new(),
            h1: String::new(),
        }
    }

    fn any_of(any: &[String]) -> Self {
        Watch {
            any: any.to_vec(),
            ..Watch::text(&[])
        }
    }

    fn without(mut self, absent: &str) -> Self {
        self.absent.push(absent.to_owned());
        self
    }

    fn heading(mut self, h1: &str) -> Self {
        self.h1 = h1.to_owned();
        self
    }

    fn json(&self) -> Value {
        json!({ "text": self.text, "any": self.any, "absent": self.absent, "h1": self.h1 })
    }
}

/// The app or its plain-JS reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    App,
    Plain,
}

/// What the large catalogue holds, read from the service as any client would.
#[derive(Debug)]
struct Catalogue {
    large: String,
    demo: String,
    token: String,
    key: String,
    secret: String,
    products: usize,
    /// The names of the demo catalogue's products.
    demo_names: Vec<String>,
    /// A search that matches exactly one of the demo catalogue's products (its id).
    demo_search: String,
    /// Text every product name starts with.
    name_prefix: String,
    /// A search that matches exactly one product (its id).
    search: String,
    package: String,
    latest: DataPackageVersion,
    older: DataPackageVersion,
}

impl Catalogue {
    async fn read() -> Catalogue {
        let var = |name: &str| env::var(name).unwrap_or_else(|_| panic!("{name} is not set"));
        let large = var("BENCH_WEB_LARGE");
        let key = var("BENCH_WEB_KEY");
        let secret = var("BENCH_WEB_SECRET");
        let products: Vec<Product> =
            get_json(&format!("{large}/downloads/v1/products?expanded"), None).await;
        let names: Vec<&str> = products.iter().map(|p| p.name.as_str()).collect();
        let name_prefix = common_prefix(&names);
        let demo = var("BENCH_WEB_DEMO");
        let demo_products: Vec<Product> =
            get_json(&format!("{demo}/downloads/v1/products"), None).await;
        let token: TokenResponse = serde_json::from_str(&token_answer(&large, &key, &secret).await)
            .expect("the token's JSON");
        let token = token.access_token;
        let packages: Vec<DataPackage> =
            get_json(&format!("{large}/downloads/v1/dataPackages"), Some(&token)).await;
        let package = packages.first().expect("a data package").id.clone();
        let versions = format!("{large}/downloads/v1/dataPackages/{package}/versions");
        let latest: DataPackageVersion =
            get_json(&format!("{versions}/latest"), Some(&token)).await;
        let older_url = latest
            .previous_version_url
            .clone()
            .expect("an older version");
        let older: DataPackageVersion = get_json(&older_url, Some(&token)).await;
        let demo_search = demo_products
            .iter()
            .map(|p| p.id.to_lowercase())
            .find(|id| {
                let matches = |p: &&Product| {
                    [&p.id, &p.name, &p.description]
                        .iter()
                        .any(|field| field.to_lowercase().contains(id.as_str()))
                };
                demo_products.iter().filter(matches).count() == 1
            })
            .expect("a demo product whose id only it matches");
        Catalogue {
            demo_search,
            demo_names: demo_products.into_iter().map(|p| p.name).collect(),
            demo,
            large,
            token,
            key,
            secret,
            products: products.len(),
            name_prefix,
            search: products.last().expect("products").id.clone(),
            package,
            latest,
            older,
        }
    }

    fn gallery_all(&self) -> Watch {
        let all = counts(self.products, "products");
        let mut watch = Watch::any_of(&all);
        watch.text.push(self.name_prefix.clone());
        for all in &all {
            watch = watch.without(&format!(" of {all}"));
        }
        watch
    }

    fn version_all(&self, version: &DataPackageVersion) -> Watch {
        let first = &version.downloads[0].file_name;
        let mut watch = Watch::any_of(&counts(version.downloads.len(), "files"));
        watch.text.push(first.clone());
        watch.heading(&format!("Version {}", version.summary.id))
    }

    /// The load marks [`PROBE`] takes.
    fn watches(&self) -> Value {
        json!({
            "first demo name": Watch::any_of(&self.demo_names).json(),
            "demo searched": Watch::text(&[&format!("1 of {} products", self.demo_names.len())]).json(),
            "first name": Watch::text(&[&self.name_prefix]).json(),
            "gallery": self.gallery_all().json(),
            "first file": Watch::text(&[&self.latest.downloads[0].file_name]).json(),
            "version": self.version_all(&self.latest).json(),
        })
    }

    fn gallery_path(&self, side: Side) -> &'static str {
        match side {
            Side::App => "/",
            Side::Plain => "/bench/gallery.html",
        }
    }

    fn version_path(&self, side: Side) -> String {
        let (package, version) = (&self.package, &self.latest.summary.id);
        match side {
            Side::App => format!("/packages/{package}/versions/{version}"),
            Side::Plain => format!("/bench/version.html?package={package}&version={version}"),
        }
    }
}

fn common_prefix(names: &[&str]) -> String {
    let first = names.first().copied().unwrap_or_default();
    let mut len = first.len();
    for name in names {
        len = len.min(
            first
                .bytes()
                .zip(name.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    first[..len].to_owned()
}

/// `count` things as either side writes it: the app groups digits (`1,000 files`), the
/// plain-JS pages do not (`1000 files`).
fn counts(count: usize, things: &str) -> Vec<String> {
    let digits = count.to_string();
    let mut grouped = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    vec![format!("{grouped} {things}"), format!("{digits} {things}")]
}

/// One run's figures for one side, by row label.
type Figures = BTreeMap<&'static str, f64>;

/// The table's rows, in order: label and unit.
const ROWS: &[(&str, &str)] = &[
    ("slow 4G (demo catalogue): first product name", "ms"),
    ("slow 4G, Welsh (?lang=cy): first product name", "ms"),
    ("slow 4G: a search typed at once, filtered", "ms"),
    ("first load over the wire: html+js+wasm+css", "kB"),
    ("first load over the wire: wasm", "kB"),
    ("1,000 products: first name shown", "ms"),
    ("1,000 products: all listed, painted", "ms"),
    ("1,000 products: longest task", "ms"),
    ("1,000 products: total blocking time", "ms"),
    ("1,000 products: elements in the page", ""),
    ("search typed (1 of 1,000): painted", "ms"),
    ("search typed: longest task", "ms"),
    ("search cleared (1,000 again): painted", "ms"),
    ("search cleared: longest task", "ms"),
    ("10,000 files: first file shown", "ms"),
    ("10,000 files: all listed, painted", "ms"),
    ("10,000 files: longest task", "ms"),
    ("10,000 files: total blocking time", "ms"),
    ("10,000 files: elements in the page", ""),
    ("\"Older\" (9,900 files): painted", "ms"),
    ("\"Older\": longest task", "ms"),
    ("\"Newer\" (10,000 files): painted", "ms"),
    ("\"Newer\": longest task", "ms"),
    ("table scroll: frames per second", "fps"),
    ("table scroll: worst frame", "ms"),
    ("table scroll: longest task", "ms"),
    ("JS heap after load (after GC)", "MB"),
    ("JS heap after 10x Older/Newer (after GC)", "MB"),
    ("wasm memory after load", "MB"),
    ("wasm memory after 10x Older/Newer", "MB"),
];

#[tokio::main]
async fn main() {
    let catalogue = Catalogue::read().await;
    if let Ok(dir) = env::var("BENCH_WEB_PROFILE") {
        let profiler = Profiler(Some(PathBuf::from(dir)));
        at_scale(&catalogue, Side::App, &profiler).await;
        return;
    }
    // `cargo xtask bench web --slow-4g`: the slow-4G rows alone.
    let slow_4g_only = env::var_os("BENCH_WEB_SLOW_4G_ONLY").is_some();
    let runs: usize = env::var("BENCH_WEB_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    println!(
        "{} products (search {:?}), package {} versions {} ({} files) and {} ({} files)",
        catalogue.products,
        catalogue.search,
        catalogue.package,
        catalogue.older.summary.id,
        catalogue.older.downloads.len(),
        catalogue.latest.summary.id,
        catalogue.latest.downloads.len()
    );
    let mut results: BTreeMap<(Side, &str), Vec<f64>> = BTreeMap::new();
    for run in 0..runs {
        // Alternating who goes first, so neither always meets a warmer machine.
        let order = if run % 2 == 0 {
            [Side::App, Side::Plain]
        } else {
            [Side::Plain, Side::App]
        };
        for side in order {
            let started = Instant::now();
            let mut figures = slow_first_load(&catalogue, side).await;
            figures.extend(slow_welsh_first_load(&catalogue, side).await);
            if !slow_4g_only {
                figures.extend(at_scale(&catalogue, side, &Profiler(None)).await);
            }
            println!(
                "run {} {side:?}: {:.0} s",
                run + 1,
                started.elapsed().as_secs_f64()
            );
            for (label, value) in figures {
                assert!(
                    ROWS.iter().any(|(row, _)| *row == label),
                    "no row for {label:?}"
                );
                results.entry((side, label)).or_default().push(value);
            }
        }
    }
    print_table(&results, runs);
}

fn print_table(results: &BTreeMap<(Side, &str), Vec<f64>>, runs: usize) {
    println!(
        "\nmedians of {runs} runs; ratio = app / plain JS (for fps: plain JS / app, so above 1 is worse)"
    );
    println!(
        "{:<46} {:>10} {:>10} {:>7}",
        "what", "app", "plain JS", "ratio"
    );
    for (label, unit) in ROWS {
        let app = results
            .get(&(Side::App, *label))
            .and_then(|v| median(v.iter().copied()));
        let plain = results
            .get(&(Side::Plain, *label))
            .and_then(|v| median(v.iter().copied()));
        // Rows not measured this time (`--slow-4g`) are left out.
        if app.is_none() && plain.is_none() {
            continue;
        }
        let cell = |v: Option<f64>| {
            v.map_or("-".to_owned(), |v| {
                format!("{v:.1} {unit}").trim_end().to_owned()
            })
        };
        let ratio = match (app, plain) {
            (Some(a), Some(p)) if *unit == "fps" && a > 0.0 => format!("{:.1}x", p / a),
            (Some(a), Some(p)) if p > 0.0 => format!("{:.1}x", a / p),
            _ => "-".to_owned(),
        };
        println!(
            "{label:<46} {:>10} {:>10} {ratio:>7}",
            cell(app),
            cell(plain)
        );
    }
}

/// A fresh browser on `side`'s page of the server at `base`, with the probe in place.
async fn open(catalogue: &Catalogue, base: &str, side: Side) -> Harness {
    let mut probe = e2e::WASM_MEMORY_RECORDER.to_owned();
    probe.push_str(&PROBE.replace("WATCH", &catalogue.watches().to_string()));
    if side == Side::Plain {
        probe.push_str(&format!(
            "window.__benchToken = {};",
            json!(catalogue.token)
        ));
    }
    let h = open_uncached(base.to_owned(), probe).await;
    h.driver
        .set_script_timeout(Duration::from_secs(120))
        .await
        .expect("script timeout");
    h
}

/// Waits up to a minute for the probe's load mark `name` (ms from navigation start).
async fn mark(h: &Harness, name: &str) -> f64 {
    // The page's state comes along, for the message if the mark never comes.
    let script = format!(
        "return [window.__bench && window.__bench.marks[{}], location.href, \
         window.__bench && window.__bench.marks, \
         document.body && document.body.textContent.slice(0, 300), window.__errors];",
        json!(name)
    );
    eventually(Duration::from_secs(60), async || {
        let found = h.js(&script).await;
        let page = &found.as_array().expect("the page's state")[1..];
        found[0]
            .as_f64()
            .ok_or_else(|| format!("never reached the mark {name:?}: {page:?}"))
    })
    .await
}

/// Long tasks from navigation start until `until` ms: the longest and the blocking time.
async fn load_tasks(h: &Harness, until: f64) -> (f64, f64) {
    tokio::time::sleep(Duration::from_millis(300)).await;
    let tasks = h
        .js("window.__bench.stopWatching = true; return window.__bench.longtasks;")
        .await;
    let tasks: Vec<(f64, f64)> = serde_json::from_value(tasks).expect("long tasks");
    let within = tasks.iter().filter(|(start, _)| *start < until + 300.0);
    within.fold((0.0, 0.0), |(longest, blocking), (_, d)| {
        (f64::max(longest, *d), blocking + (d - 50.0).max(0.0))
    })
}

/// A fresh browser on the demo catalogue's server, on simulated slow 4G (cache off).
async fn open_slow(catalogue: &Catalogue, side: Side) -> Harness {
    let h = open(catalogue, &catalogue.demo, side).await;
    h.slow_4g().await;
    // Chromium offers brotli only over https; over http to the loopback it offers
    // gzip unless asked.
    cdp(
        &h,
        "Network.setExtraHTTPHeaders",
        json!({ "headers": { "Accept-Encoding": "br" } }),
    )
    .await;
    h
}

/// The gallery on simulated slow 4G, cache off: the first product name, a search typed
/// as soon as the page takes it until the list shows its one product, and the bytes
/// of the first load (html, js, wasm, css) as the browser received them, brotli asked.
async fn slow_first_load(catalogue: &Catalogue, side: Side) -> Figures {
    let h = open_slow(catalogue, side).await;
    h.driver
        .cdp()
        .page()
        .add_script_to_evaluate_on_new_document(format!(
            "window.__bench.typeAtOnce = {};",
            json!(catalogue.demo_search)
        ))
        .await
        .expect("install the search");
    h.goto(catalogue.gallery_path(side)).await;
    let first = mark(&h, "first demo name").await;
    let searched = mark(&h, "demo searched").await;
    // Whatever loads on idle after the first content counts too.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let bytes = h
        .js(
            "const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
               .filter(e => !new URL(e.name).pathname.startsWith('/downloads/'));
             const sum = list => list.reduce((s, e) => s + e.transferSize, 0);
             return [sum(entries), sum(entries.filter(e => new URL(e.name).pathname.endsWith('.wasm')))];",
        )
        .await;
    let bytes: (f64, f64) = serde_json::from_value(bytes).expect("byte counts");
    h.stop().await;
    Figures::from([
        ("slow 4G (demo catalogue): first product name", first),
        ("slow 4G: a search typed at once, filtered", searched),
        (
            "first load over the wire: html+js+wasm+css",
            bytes.0 / 1000.0,
        ),
        ("first load over the wire: wasm", bytes.1 / 1000.0),
    ])
}

/// The Welsh gallery (`?lang=cy`) on simulated slow 4G, cache off: its first product
/// name (the plain page has no Welsh: the same page again).
async fn slow_welsh_first_load(catalogue: &Catalogue, side: Side) -> Figures {
    let h = open_slow(catalogue, side).await;
    h.goto(&format!("{}?lang=cy", catalogue.gallery_path(side)))
        .await;
    let first = mark(&h, "first demo name").await;
    h.stop().await;
    Figures::from([("slow 4G, Welsh (?lang=cy): first product name", first)])
}

/// Everything at the large catalogue's sizes, in one browser, each step under
/// `profiler`.
async fn at_scale(catalogue: &Catalogue, side: Side, profiler: &Profiler) -> Figures {
    let h = open(catalogue, &catalogue.large, side).await;
    profiler.enable(&h).await;
    let mut figures = Figures::new();

    profiler.start(&h).await;
    h.goto(catalogue.gallery_path(side)).await;
    figures.insert(
        "1,000 products: first name shown",
        mark(&h, "first name painted").await,
    );
    let all = mark(&h, "gallery painted").await;
    figures.insert("1,000 products: all listed, painted", all);
    let (longest, blocking) = load_tasks(&h, all).await;
    profiler.stop(&h, "gallery-load", longest).await;
    figures.insert("1,000 products: longest task", longest);
    figures.insert("1,000 products: total blocking time", blocking);
    figures.insert("1,000 products: elements in the page", elements(&h).await);

    let search = "input[type='search']";
    let narrowed: Vec<String> = counts(catalogue.products, "products")
        .iter()
        .map(|all| format!("1 of {all}"))
        .collect();
    let narrowed = Watch::any_of(&narrowed);
    profiler.start(&h).await;
    let typed = interact(
        &h,
        json!({ "selector": search, "type": catalogue.search }),
        &narrowed,
    )
    .await;
    profiler.stop(&h, "search-typed", typed.longest).await;
    figures.insert("search typed (1 of 1,000): painted", typed.painted);
    figures.insert("search typed: longest task", typed.longest);
    profiler.start(&h).await;
    let cleared = interact(
        &h,
        json!({ "selector": search, "type": "" }),
        &catalogue.gallery_all(),
    )
    .await;
    profiler.stop(&h, "search-cleared", cleared.longest).await;
    figures.insert("search cleared (1,000 again): painted", cleared.painted);
    figures.insert("search cleared: longest task", cleared.longest);

    if side == Side::App {
        sign_in(&h, catalogue).await;
    }
    profiler.start(&h).await;
    h.goto(&catalogue.version_path(side)).await;
    figures.insert(
        "10,000 files: first file shown",
        mark(&h, "first file painted").await,
    );
    let all = mark(&h, "version painted").await;
    figures.insert("10,000 files: all listed, painted", all);
    let (longest, blocking) = load_tasks(&h, all).await;
    profiler.stop(&h, "version-load", longest).await;
    figures.insert("10,000 files: longest task", longest);
    figures.insert("10,000 files: total blocking time", blocking);
    figures.insert("10,000 files: elements in the page", elements(&h).await);
    let heap_loaded = heap_mb(&h).await;
    let wasm_loaded = wasm_mb(&h).await;

    let older = catalogue.version_all(&catalogue.older);
    let newer = catalogue.version_all(&catalogue.latest);
    profiler.start(&h).await;
    let step = interact(&h, json!({ "click": "a[rel='prev']" }), &older).await;
    profiler.stop(&h, "version-older", step.longest).await;
    figures.insert("\"Older\" (9,900 files): painted", step.painted);
    figures.insert("\"Older\": longest task", step.longest);
    profiler.start(&h).await;
    let step = interact(&h, json!({ "click": "a[rel='next']" }), &newer).await;
    profiler.stop(&h, "version-newer", step.longest).await;
    figures.insert("\"Newer\" (10,000 files): painted", step.painted);
    figures.insert("\"Newer\": longest task", step.longest);

    let scroll = h
        .driver
        .execute_async(SCROLL, vec![json!(180), json!(150)])
        .await
        .expect("scroll the table");
    let scroll = scroll.json();
    assert!(
        scroll["moved"].as_f64().unwrap_or(0.0) > 0.0,
        "the table did not scroll: {scroll}"
    );
    figures.insert(
        "table scroll: frames per second",
        scroll["fps"].as_f64().unwrap_or(0.0),
    );
    figures.insert(
        "table scroll: worst frame",
        scroll["worst"].as_f64().unwrap_or(0.0),
    );
    figures.insert(
        "table scroll: longest task",
        scroll["longest"].as_f64().unwrap_or(0.0),
    );

    for _ in 0..10 {
        interact(&h, json!({ "click": "a[rel='prev']" }), &older).await;
        interact(&h, json!({ "click": "a[rel='next']" }), &newer).await;
    }
    figures.insert("JS heap after load (after GC)", heap_loaded);
    figures.insert(
        "JS heap after 10x Older/Newer (after GC)",
        heap_mb(&h).await,
    );
    if side == Side::App {
        figures.insert("wasm memory after load", wasm_loaded);
        figures.insert("wasm memory after 10x Older/Newer", wasm_mb(&h).await);
    }
    let errors = h.console_errors().await;
    if !errors.is_empty() {
        println!("{side:?}: console errors: {errors:?}");
    }
    h.stop().await;
    figures
}

/// An interaction's figures, in ms from the action.
#[derive(Debug)]
struct Step {
    painted: f64,
    longest: f64,
}

async fn interact(h: &Harness, action: Value, watch: &Watch) -> Step {
    let answer = h
        .driver
        .execute_async(INTERACT, vec![action.clone(), watch.json(), json!(300)])
        .await
        .unwrap_or_else(|e| panic!("{action}: {e}"));
    let answer = answer.json();
    assert!(answer["error"].is_null(), "{action}: {answer}");
    Step {
        painted: answer["painted"].as_f64().expect("painted"),
        longest: answer["longest"].as_f64().expect("longest"),
    }
}

/// Signs in on the app's sign-in page with the project's key and secret; the tab
/// keeps the session for the pages loaded after.
async fn sign_in(h: &Harness, catalogue: &Catalogue) {
    h.goto("/login").await;
    h.sign_in_with_secret(&catalogue.key, &catalogue.secret)
        .await;
    h.wait_for_address(|address| !address.starts_with("/login"))
        .await;
}

/// The page's JS heap in use after a full garbage collection.
async fn heap_mb(h: &Harness) -> f64 {
    cdp(h, "HeapProfiler.collectGarbage", json!({})).await;
    let usage = cdp(h, "Runtime.getHeapUsage", json!({})).await;
    usage["usedSize"].as_f64().expect("usedSize") / 1e6
}

/// How many elements the page holds: a windowed list holds the rows on screen alone.
async fn elements(h: &Harness) -> f64 {
    let count = h
        .js("return document.getElementsByTagName('*').length;")
        .await;
    count.as_f64().unwrap_or(0.0)
}

/// The size of every wasm memory the page instantiated.
async fn wasm_mb(h: &Harness) -> f64 {
    let bytes = h.js(e2e::WASM_MEMORY_BYTES).await;
    bytes.as_f64().unwrap_or(0.0) / 1e6
}

/// With `BENCH_WEB_PROFILE=<dir>`, Chromium's CPU profiler around each step of
/// [`at_scale`]: `<dir>/<step>.cpuprofile` (DevTools' Performance panel opens them),
/// and each step's busiest functions printed. Without it, nothing.
struct Profiler(Option<PathBuf>);

impl Profiler {
    async fn enable(&self, h: &Harness) {
        if let Some(dir) = &self.0 {
            fs::create_dir_all(dir).expect("create the profile directory");
            cdp(h, "Profiler.enable", json!({})).await;
            cdp(
                h,
                "Profiler.setSamplingInterval",
                json!({ "interval": 100 }),
            )
            .await;
        }
    }

    async fn start(&self, h: &Harness) {
        if self.0.is_some() {
            cdp(h, "Profiler.start", json!({})).await;
        }
    }

    async fn stop(&self, h: &Harness, name: &str, longest_task: f64) {
        if let Some(dir) = &self.0 {
            stop_profile(h, dir, name, longest_task).await;
        }
    }
}

/// Stops the profiler, saves its profile as `<name>.cpuprofile` and prints the
/// functions that took the most time, on their own and with what they called.
async fn stop_profile(h: &Harness, dir: &Path, name: &str, longest_task: f64) {
    let answer = cdp(h, "Profiler.stop", json!({})).await;
    let profile = &answer["profile"];
    let path = dir.join(format!("{name}.cpuprofile"));
    fs::write(&path, profile.to_string()).expect("write the profile");

    let nodes = profile["nodes"].as_array().expect("profile nodes");
    let mut names = HashMap::new();
    let mut parents = HashMap::new();
    for node in nodes {
        let id = node["id"].as_u64().expect("node id");
        let frame = &node["callFrame"];
        let function = frame["functionName"].as_str().unwrap_or_default();
        let url = frame["url"].as_str().unwrap_or_default();
        let file = url.rsplit('/').next().unwrap_or_default();
        let label = match function {
            "" => format!("(anonymous) {file}"),
            f if f.starts_with('(') => f.to_owned(),
            f => format!("{f} {file}"),
        };
        names.insert(id, label);
        for child in node["children"].as_array().into_iter().flatten() {
            parents.insert(child.as_u64().expect("child id"), id);
        }
    }
    let samples = profile["samples"].as_array().expect("samples");
    let deltas = profile["timeDeltas"].as_array().expect("timeDeltas");
    let mut own: HashMap<&str, f64> = HashMap::new();
    let mut total: HashMap<&str, f64> = HashMap::new();
    // A sample's time is the gap to the next one.
    for (i, sample) in samples.iter().enumerate() {
        let ms = deltas.get(i + 1).and_then(Value::as_f64).unwrap_or(0.0) / 1000.0;
        let mut id = sample.as_u64().expect("sample");
        *own.entry(names[&id].as_str()).or_default() += ms;
        let mut seen = BTreeSet::new();
        loop {
            if seen.insert(names[&id].as_str()) {
                *total.entry(names[&id].as_str()).or_default() += ms;
            }
            match parents.get(&id) {
                Some(parent) => id = *parent,
                None => break,
            }
        }
    }
    let busy: f64 = own
        .iter()
        .filter(|(name, _)| !matches!(**name, "(idle)" | "(program)" | "(root)"))
        .map(|(_, ms)| ms)
        .sum();
    println!(
        "\n== {name}: longest task {longest_task:.0} ms, {busy:.0} ms sampled busy ({})",
        path.display()
    );
    for (title, table) in [("own time", &own), ("with callees", &total)] {
        let mut rows: Vec<_> = table
            .iter()
            .filter(|(name, _)| !matches!(**name, "(idle)" | "(root)"))
            .collect();
        rows.sort_by(|a, b| b.1.total_cmp(a.1));
        println!("-- {title}");
        for (function, ms) in rows.into_iter().take(25) {
            let function: String = function.chars().take(150).collect();
            println!("{ms:>8.1} ms  {function}");
        }
    }
}
