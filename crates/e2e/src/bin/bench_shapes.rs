//! The browser half of `cargo xtask bench shapes`: each generated 5 MB boundary file
//! chosen in a product page's boundary file box, in headless Chromium, timed from the
//! choice until the status says which squares it touches, with the long tasks meanwhile
//! (the issue's goal: none over 100 ms). Printed beside the native figures of the same
//! files.
//!
//! xtask serves the release build of the app at `BENCH_SHAPES_BASE` and writes the files
//! and the native figures (`native.tsv`) into `BENCH_SHAPES_FILES`, with
//! `crates/area-shapes/examples/bench.rs`. `BENCH_SHAPES_RUNS` runs a file (3 by
//! default), each in a fresh page with the cache off, so each is a first read: the
//! worker's wasm loads after the choice, as it does for a visitor. Long tasks are the
//! page's: the worker's work is off its thread.
//!
//! With `BENCH_SHAPES_PROFILE` set, Chromium's CPU profiler runs through each read and
//! the busiest functions of each long task are printed (function names need an app
//! built with `cargo xtask build --names`).

use std::collections::HashMap;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use e2e::bench::{cdp, median, open_uncached};
use e2e::{Harness, eventually};
use serde_json::{Value, json};

/// The files, in the table's order, and what the table calls them.
const FILES: [(&str, &str); 4] = [
    ("gb.geojson", "GeoJSON"),
    ("gb.kml", "KML"),
    ("gb.gpx", "GPX"),
    ("gb.zip", "zipped shapefile"),
];

/// Chromium reports tasks over this long.
const LONG_TASK_MS: f64 = 50.0;

/// Installed before any page script: long tasks, when a file is chosen (before the app
/// hears of it), when the status first says what the boundary touches, and the frame
/// after that.
const PROBE: &str = r#"
(() => {
  const bench = window.__bench = { longtasks: [] };
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) bench.longtasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  addEventListener('change', e => {
    if (e.target.id === 'shape-file') bench.chosen = performance.now();
  }, true);
  new MutationObserver(() => {
    const status = document.querySelector('#shape-status');
    if (bench.chosen === undefined || bench.read !== undefined || !status) return;
    if (status.textContent.includes(' touches ')) {
      bench.read = performance.now();
      requestAnimationFrame(() => { bench.painted = performance.now(); });
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
"#;

/// One file read in the browser, in ms.
#[derive(Debug, Clone, Copy)]
struct Read {
    total: f64,
    longest_task: f64,
    long_tasks: usize,
}

#[tokio::main]
async fn main() {
    let var = |name: &str| env::var(name).unwrap_or_else(|_| panic!("{name} is not set"));
    let base = var("BENCH_SHAPES_BASE");
    let files = PathBuf::from(var("BENCH_SHAPES_FILES"));
    let runs: usize = env::var("BENCH_SHAPES_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let native = native_figures(&files.join("native.tsv"));

    let h = open_uncached(base, PROBE.to_owned()).await;

    let mut rows = Vec::new();
    for (file, label) in FILES {
        let mut reads = Vec::new();
        for _ in 0..runs {
            reads.push(read_in_page(&h, &files.join(file)).await);
        }
        println!("{label}: {reads:?}");
        rows.push((label, reads, native[file]));
    }
    h.stop().await;
    print_table(&rows, runs);
}

/// Opens the product page, chooses `path` and waits until the status names the squares.
async fn read_in_page(h: &Harness, path: &Path) -> Read {
    h.goto("/products/OpenMapLocal").await;
    let input = h.find("#shape-file").await;
    let profile = env::var_os("BENCH_SHAPES_PROFILE").is_some();
    if profile {
        cdp(h, "Profiler.enable", json!({})).await;
        cdp(
            h,
            "Profiler.setSamplingInterval",
            json!({ "interval": 200 }),
        )
        .await;
        cdp(h, "Profiler.start", json!({})).await;
    }
    input
        .send_keys(path.display().to_string())
        .await
        .expect("choose the file");
    let state = "const b = window.__bench; return [b.chosen, b.read, b.painted, \
                 (document.querySelector('#shape-status') || {}).textContent];";
    let times = eventually(Duration::from_secs(60), async || {
        let found = h.js(state).await;
        match (found[0].as_f64(), found[1].as_f64(), found[2].as_f64()) {
            (Some(chosen), Some(read), Some(painted)) => Ok((chosen, read, painted)),
            _ => Err(format!("the status never said what it touches: {found}")),
        }
    })
    .await;
    let (chosen, read, painted) = times;
    // The observer hears of a task after it ends; and whatever the pick sets off in
    // the frame after counts too.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let tasks = h.js("return window.__bench.longtasks;").await;
    let tasks: Vec<(f64, f64)> = serde_json::from_value(tasks).expect("long tasks");
    if profile {
        // The profile starts just before the choice: its clock is taken as the page's
        // from the choice, near enough to tell tasks of 50 ms and more apart.
        let answer = cdp(h, "Profiler.stop", json!({})).await;
        for (start, duration) in tasks.iter().filter(|(start, _)| *start >= chosen - 1.0) {
            let from = start - chosen;
            println!("-- long task at {from:.0} ms for {duration:.0} ms, busiest:");
            busiest(&answer["profile"], from - 5.0, from + duration + 5.0);
        }
    }
    let within: Vec<f64> = tasks
        .iter()
        .filter(|(start, _)| *start >= chosen - 1.0 && *start < painted + 300.0)
        .map(|(_, duration)| *duration)
        .collect();
    Read {
        total: read - chosen,
        longest_task: within.iter().copied().fold(0.0, f64::max),
        long_tasks: within.len(),
    }
}

/// The native bench's total and longest step of each file, in ms.
fn native_figures(path: &Path) -> HashMap<String, (f64, f64)> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let number = |i: usize| fields[i].parse::<f64>().expect("a number of ms");
            (fields[0].to_owned(), (number(1), number(2)))
        })
        .collect()
}

fn print_table(rows: &[(&str, Vec<Read>, (f64, f64))], runs: usize) {
    println!(
        "\nBrowser: headless Chromium, the release build, from the choice until the status \
         names the squares; median of {runs} runs, longest task the longest of any run \
         (Chromium reports tasks over {LONG_TASK_MS} ms). Native: the same file, release, \
         best of 5, steps and outline."
    );
    println!(
        "\n| file | browser total | longest task | long tasks | native total | native longest step |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (label, reads, (native_total, native_longest)) in rows {
        let longest = reads.iter().map(|r| r.longest_task).fold(0.0, f64::max);
        let longest = if longest > LONG_TASK_MS {
            format!("{longest:.0} ms")
        } else {
            format!("none over {LONG_TASK_MS} ms")
        };
        println!(
            "| {label} | {:.0} ms | {longest} | {} | {native_total:.0} ms | {native_longest:.0} ms |",
            median(reads.iter().map(|r| r.total)).unwrap_or(f64::NAN),
            median(reads.iter().map(|r| r.long_tasks as f64)).unwrap_or(f64::NAN),
        );
    }
}

/// Prints the functions with the most samples of their own from `from` to `to` ms into
/// `profile`.
fn busiest(profile: &Value, from: f64, to: f64) {
    let mut names = HashMap::new();
    for node in profile["nodes"].as_array().expect("profile nodes") {
        let frame = &node["callFrame"];
        let url = frame["url"].as_str().unwrap_or_default();
        let name = format!(
            "{} {}",
            frame["functionName"].as_str().unwrap_or_default(),
            url.rsplit('/').next().unwrap_or_default()
        );
        names.insert(node["id"].as_u64().expect("node id"), name);
    }
    let samples = profile["samples"].as_array().expect("samples");
    let deltas = profile["timeDeltas"].as_array().expect("timeDeltas");
    let mut own: HashMap<&str, f64> = HashMap::new();
    let mut at = 0.0;
    for (i, sample) in samples.iter().enumerate() {
        at += deltas[i].as_f64().unwrap_or(0.0) / 1000.0;
        if (from..to).contains(&at) {
            // A sample's time is the gap to the next one.
            let ms = deltas.get(i + 1).and_then(Value::as_f64).unwrap_or(0.0) / 1000.0;
            let id = sample.as_u64().expect("sample");
            *own.entry(names[&id].as_str()).or_default() += ms;
        }
    }
    let mut rows: Vec<_> = own.into_iter().collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (function, ms) in rows.into_iter().take(10) {
        let function: String = function.chars().take(140).collect();
        println!("{ms:>8.1} ms  {function}");
    }
}
