//! The browser half of `cargo xtask bench download` (issue 30's figures), in the engine
//! `E2E_BROWSER` names: for each product of the generated catalogue in
//! `BENCH_CATALOGUE` (`BenchSmall`: 200 small files; `BenchLarge`: one 1 GB file),
//! `BENCH_RUNS` times (3 by default; the small files three times as many), with the
//! medians as the figures and the goals' ratios the median of the runs' own
//! (`BENCH_PRODUCTS=BenchSmall` measures one of them):
//!
//! - the app's "Download as .zip" (the bulk worker fetches, hashes and zips; the
//!   download worker answers the browser's download with it), from the click to the
//!   zip whole on disk; meanwhile the page's longest task (a `longtask` observer, where
//!   the engine has one) and its longest `setTimeout(0)` gap;
//! - the floor: a plain-JS service worker of the bench's own
//!   (`src/bench-floor-worker.js`) fetching the same files 3 at a time and answering one
//!   download with them, no md5, no zip; started by a click and timed as the zip is,
//!   the page's `setTimeout(0)` gap watched as during the zip (the engine's own gaps
//!   while a download streams);
//! - the port floor: the zip's path in plain JS, a dedicated worker
//!   (`src/bench-floor-fetcher.js`) fetching the same files 3 at a time and posting their
//!   bytes through a port to that service worker, which answers the download with them:
//!   what the app's two workers could reach with no md5, CRC or zip format (the page
//!   watched during both floors as during the zip, its timer chain costing the same);
//! - the hashing floor: the floor with each file's md5 and CRC worked out on its service
//!   worker's thread as the chunks pass, by the zip's own code (the bulk worker's wasm):
//!   the least a zip hashed where its bytes pass can take, in engines where a worker
//!   beside is slower (all but Chromium: `explorer_logic::bulk::worker::fetch_beside`);
//! - a plain-JS page fetching the same files 3 at a time and discarding them;
//! - in Chromium, "Download to a folder" (md5 checked, into the origin-private file
//!   system) next to a plain-JS page streaming the same files into the same kind of
//!   folder (both timed in the page, from the folder in hand to done; the app's picker
//!   answers a second after it opens, as a person's does), the same plain code in a
//!   dedicated worker (`src/bench-floor-folder.js`; the app writes a folder from one),
//!   without and with each file's md5 by the folder run's code, and curl from the same
//!   server.
//!
//! The floor's worker is served from the app's origin: a copy of the web root (the
//! tests' one, of symbolic links) with the worker added, served by our server with the
//! catalogue, in this process. It registers with the scope `bench-floor/` (the hashing
//! floor, a registration of its own, `bench-floor-hashing/`), beside the app's own
//! download worker (`download-zip/`), which keeps answering the zip.
//!
//! Each measure starts from rest (its button scrolled to first, then the machine left
//! until nearly idle), so none pays for what the one before left running. One zip goes
//! first, not timed, as the floors' workers are registered before they are timed.
//!
//! Each zip and floor also records the CPU time the whole machine spent meanwhile (both
//! cores, from `/proc/stat`: the browser, its workers and the server): where the zip's
//! md5 and CRC take more than the cores have spare, its time grows by what they cost.
//!
//! Prints the engine's table (markdown). With `BENCH_RESULTS=<folder>` it also saves
//! its figures there (`<engine>.json`); `bench_download --table` then prints one table
//! of every engine saved, which is what xtask ends with. With `BENCH_PROFILE=<folder>`
//! (Chromium) it also saves a CPU profile of the page during each product's first zip.

use std::fs;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use download_api::ProductDownload;
use e2e::bench::{cdp, median};
use e2e::{Engine, Harness, WAIT, our_server};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The floor's service worker, and its name in the served web root.
const FLOOR_WORKER: &str = include_str!("../bench-floor-worker.js");
const FLOOR_FILE: &str = "bench-floor-worker.js";
/// The port floor's fetching worker, and its name in the served web root.
const FETCHER_WORKER: &str = include_str!("../bench-floor-fetcher.js");
const FETCHER_FILE: &str = "bench-floor-fetcher.js";
/// The fetching both floors' workers import, and its name in the served web root.
const LANES_SCRIPT: &str = include_str!("../bench-floor-lanes.js");
const LANES_FILE: &str = "bench-floor-lanes.js";
/// The folder's floors: the plain-JS page's folder code in a dedicated worker, with and
/// without md5, and its name in the served web root.
const FOLDER_FLOOR_WORKER: &str = include_str!("../bench-floor-folder.js");
const FOLDER_FLOOR_FILE: &str = "bench-floor-folder.js";
/// What the floor's download is saved as.
const FLOOR_NAME: &str = "floor.bin";
/// The longest any one download may take (the 1 GB file on a busy machine).
const LONGEST: Duration = Duration::from_secs(1800);
/// How long a download runs before the bench asks the browser, once in each such span,
/// whether it is still there: never during a measure (the longest, a gigabyte in
/// Firefox, takes about 10 s), which a WebDriver call would share the machine with.
const ASK_AFTER: Duration = Duration::from_secs(60);
/// How often a download's end is looked for on disk: a look (the folder listed, a zip's
/// last bytes read) costs microseconds, and looked for every 50 ms the times came in
/// steps of 50 ms, a tenth of the small files' zip.
const LOOK_EVERY: Duration = Duration::from_millis(5);
/// Chromium reports the tasks over this long (issue 30's goal for the page while the
/// zip runs: none).
const LONG_TASK_MS: f64 = 50.0;
/// The page's `setTimeout(0)` chain should never wait longer than this (issue 30's goal).
const LONG_GAP_MS: f64 = 100.0;
/// A machine at rest: under a fifth of a core busy over [`QUIET_SPAN`].
const QUIET_CPU: f64 = 0.2;
const QUIET_SPAN: Duration = Duration::from_millis(250);
/// The longest a measure waits for the machine to rest before it starts anyway.
const QUIET_LIMIT: Duration = Duration::from_secs(10);

/// Watches the page from before the zip's click: its long tasks (where the engine
/// reports them) and the longest gap of a `setTimeout(0)` chain.
const WATCH_PAGE: &str = r#"
const watch = window.__watch = {longest: 0, gap: 0, gapAt: 0, stopped: false, last: performance.now()};
watch.start = watch.last;
watch.observable = (PerformanceObserver.supportedEntryTypes || []).includes('longtask');
if (watch.observable) {
  watch.observer = new PerformanceObserver(list => {
    for (const e of list.getEntries()) watch.longest = Math.max(watch.longest, e.duration);
  });
  watch.observer.observe({type: 'longtask'});
}
const longer = watch.longer = now => {
  if (now - watch.last > watch.gap) {
    watch.gap = now - watch.last;
    watch.gapAt = watch.last - watch.start;
  }
  watch.last = now;
};
const tick = () => {
  longer(performance.now());
  if (!watch.stopped) setTimeout(tick, 0);
};
setTimeout(tick, 0);
"#;

/// Ends [`WATCH_PAGE`]: [whether long tasks are observable, the longest, the longest gap,
/// when it began (ms after the watch began)].
const WATCHED: &str = r#"
const watch = window.__watch;
watch.stopped = true;
watch.longer(performance.now());
if (watch.observer) {
  for (const e of watch.observer.takeRecords()) watch.longest = Math.max(watch.longest, e.duration);
  watch.observer.disconnect();
}
return [watch.observable, watch.longest, watch.gap, watch.gapAt];
"#;

/// Registers the floor's service worker (the script and scope given: the hashing floor
/// is a registration of its own) and waits until it is active.
const REGISTER_FLOOR: &str = r#"
const [script, scope, done] = arguments;
(async () => {
  const here = path => new URL(path, document.baseURI).href;
  const registration = await navigator.serviceWorker.register(
    here(script), {scope: here(scope)});
  while (!registration.active) await new Promise(resolve => setTimeout(resolve, 50));
  return 'ok';
})().then(done, e => done('error: ' + e));
"#;

/// Adds a button that starts the floor's download: the files go to the worker (or, for
/// the port floor, to a dedicated worker that fetches them and posts their bytes to it
/// through a port), and once it is ready a hidden frame asks for the download, as the
/// app's zip does. The button goes once clicked.
const FLOOR_BUTTON: &str = r#"
const [urls, total, name, viaPort, scope, script] = arguments;
const here = path => new URL(path, document.baseURI).href;
const button = document.createElement('button');
button.id = 'bench-floor';
button.textContent = 'Floor';
button.style = 'position: fixed; top: 0; left: 0; z-index: 9999';
document.body.prepend(button);
button.addEventListener('click', () => window.__floor = (async () => {
  button.remove();
  const waited = (promise, ms) =>
    Promise.race([promise, new Promise(resolve => setTimeout(() => resolve(false), ms))]);
  const activeIn = async registration => {
    while (!registration.active) await new Promise(resolve => setTimeout(resolve, 20));
    return true;
  };
  // Firefox answers a registration with no active worker here now and then (it had
  // been active when registered): seen in a run whose zip had just ended, for over 10 s
  // (the bench then waited for WebDriver's 120 s and stopped). The floor waits 5 s for
  // it, then registers its script again, as the app's zip does with its own; and sends
  // its job again when the worker does not answer within 5 s (a new channel each time:
  // a port travels once). Each wait is said in the run's output.
  let waits = 0;
  let registration = await navigator.serviceWorker.getRegistration(here(scope));
  if (!await waited(activeIn(registration), 5000)) {
    waits++;
    registration = await navigator.serviceWorker.register(here(script), {scope: here(scope)});
    if (!await waited(activeIn(registration), 10000)) {
      throw new Error('no active floor worker, even registered again');
    }
  }
  const worker = registration.active;
  const id = 'floor' + Date.now();
  let channel = null;
  while (!channel) {
    if (waits > 4) throw new Error(`the floor worker did not answer (${waits} waits)`);
    const trying = new MessageChannel();
    const ready = new Promise(resolve => { trying.port1.onmessage = () => resolve(true); });
    worker.postMessage({id, urls, length: total, viaPort}, [trying.port2]);
    if (await waited(ready, 5000)) channel = trying;
    else waits++;
  }
  if (viaPort) {
    window.__fetcher = new Worker(here('bench-floor-fetcher.js'));
    window.__fetcher.postMessage({urls, port: channel.port1}, [channel.port1]);
  }
  // As the app's page keeps its download worker alive, but twice as often: the floor's
  // own fetches die with its worker, which Firefox's test profile stops 8 s after the
  // last event (at 10 s a 1 GB floor stalled 4 MB short there).
  setInterval(() => worker.postMessage({type: 'ping'}), 5000);
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = here(scope + id + '/' + name);
  document.body.append(frame);
  return waits === 0 ? 'ok' : `ok, after ${waits} wait${waits > 1 ? 's' : ''} of 5 s (its time counts them)`;
})().catch(e => 'error: ' + e), {once: true});
"#;

/// One engine's figures for one product: medians of the runs, in seconds; the page's
/// watch the worst of any run.
#[derive(Debug, Serialize, Deserialize)]
struct Figures {
    engine: String,
    /// E.g. "200 x 100 kB".
    files: String,
    bytes: u64,
    zip: f64,
    floor: f64,
    /// The zip's throughput as a share of the floor's: the median of the runs' own.
    zip_of_floor: f64,
    /// The port floor: a plain-JS dedicated worker fetching, its bytes through a port to
    /// the service worker answering the download (the zip's path, without its work).
    #[serde(default)]
    port_floor: f64,
    /// The hashing floor: the floor with md5 and CRC on its thread, by the zip's code.
    #[serde(default)]
    hashing_floor: f64,
    discard: f64,
    /// CPU seconds the machine spent during the zip and during the floor (medians).
    #[serde(default)]
    zip_cpu: f64,
    #[serde(default)]
    floor_cpu: f64,
    /// The page's longest task during the zip, ms; `None` where the engine reports none.
    longest_task: Option<f64>,
    /// The page's longest `setTimeout(0)` gap during the zip, ms.
    longest_gap: f64,
    /// The same during the floor: the engine's own gaps while a download streams.
    #[serde(default)]
    floor_gap: f64,
    /// The same during the hashing floor: the engine's gaps while its service worker
    /// hashes as the zip's does. `None` in figures saved before it was measured.
    #[serde(default)]
    hashing_gap: Option<f64>,
    /// How many runs had a gap over [`LONG_GAP_MS`] (the zip's, the floor's and the
    /// hashing floor's), and of how many runs: a single worst gap says little where
    /// runs spread. `None` in figures saved before they were counted.
    #[serde(default)]
    gaps_over: Option<([usize; 3], usize)>,
    /// "Download to a folder" (Chromium).
    folder: Option<Folder>,
}

/// "Download to a folder", the plain-JS page writing the same folder, the same code in a
/// dedicated worker (as the app writes a folder) without and with md5, and curl, seconds.
#[derive(Debug, Serialize, Deserialize)]
struct Folder {
    app: f64,
    plain: f64,
    /// The app's time over the plain page's: the median of the runs' own.
    app_of_plain: f64,
    #[serde(default)]
    worker: f64,
    #[serde(default)]
    worker_md5: f64,
    curl: f64,
}

/// The server runs in this process: on a multi-threaded runtime, and with curl waited
/// for off it, so the server goes on answering while curl runs.
#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let results = std::env::var_os("BENCH_RESULTS").map(PathBuf::from);
    if std::env::args().nth(1).as_deref() == Some("--table") {
        let folder = results.expect("BENCH_RESULTS: the folder of the engines' figures");
        print_tables(&saved_figures(&folder));
        return;
    }
    let figures = bench().await;
    if let Some(folder) = results {
        let path = folder.join(format!("{}.json", Engine::current()));
        fs::write(&path, serde_json::to_string_pretty(&figures).unwrap())
            .unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
    print_tables(&figures);
}

async fn bench() -> Vec<Figures> {
    let engine = Engine::current();
    let folder_here = engine == Engine::Chromium;
    let catalogue =
        std::env::var("BENCH_CATALOGUE").expect("BENCH_CATALOGUE: run cargo xtask bench download");
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|runs| runs.parse().ok())
        .unwrap_or(3);
    let web = web_root_with_floor().expect("a web root with the floor's worker");
    let web_path = web.path().display().to_string();
    let server = our_server(&["--web-root", &web_path, "--catalogue", &catalogue]).await;
    let h = Harness::open(server.origin.clone(), vec![server]).await;
    if folder_here {
        h.pick_private_folder().await;
    }
    h.driver
        .set_script_timeout(LONGEST)
        .await
        .expect("script timeout");
    let curl_dir = tempfile::tempdir().expect("a temporary directory");
    let mut all = Vec::new();
    // One zip first, not timed: the floors' workers are registered before they are
    // timed, and the app's download worker is registered by its first zip (a person's
    // first zip pays that once; every run here would otherwise differ from the first).
    ready_to_zip(&h, "BenchSmall").await;
    zip(&h).await;
    let products = std::env::var("BENCH_PRODUCTS").unwrap_or("BenchSmall,BenchLarge".into());
    for product in products.split(',') {
        let listing: Vec<ProductDownload> = e2e::get_json(
            &h.url(&format!("/downloads/v1/products/{product}/downloads")),
            None,
        )
        .await;
        let bytes: u64 = listing.iter().filter_map(|d| d.file.size).sum();
        let urls: Vec<&str> = listing.iter().map(|d| d.file.url.as_str()).collect();
        // Each measure's runs; the goals' ratios too, run by run (the two measures of a
        // run take turns under the same conditions; the ratio of the medians mixes runs:
        // the folder's small files were 1.10x by it and 1.16x run by run).
        let mut times: [Vec<f64>; 14] = Default::default();
        let mut longest_task = Some(0.0_f64);
        // Each run's longest gap: during the zip, the floor and the hashing floor.
        let mut gaps: [Vec<f64>; 3] = Default::default();
        // Small files' single runs spread most (WebKit's zip 59-93% of its floor in
        // five) and take seconds: three times as many of them.
        let runs = if product == "BenchSmall" {
            3 * runs
        } else {
            runs
        };
        for run in 1..=runs {
            ready_to_zip(&h, product).await;
            // The zip and its floors in turn, the other way round every other run, so
            // none is always first after the page loads or always after the others:
            // WebKit's hashing floor of the small files took 0.52-0.62 s when timed
            // first, 0.67-0.78 s after the zip and the port floor.
            let zip_first = run % 2 == 1;
            let mut floors = Floors::default();
            if !zip_first {
                floors
                    .measure(
                        &h,
                        &urls,
                        bytes,
                        [Floor::Plain, Floor::Hashing, Floor::Port],
                    )
                    .await;
                // The page loaded again, as before a zip timed first: the zip's button is
                // clicked by the page's script, and Chromium blocks a script's download on
                // a page that has downloaded already (the floors' buttons are clicked).
                ready_to_zip(&h, product).await;
            }
            let profiling = profile_start(&h, run).await;
            let (zipped, zip_cpu, task, gap, gap_at) = zip(&h).await;
            profile_stop(&h, profiling, &format!("zip-{product}")).await;
            longest_task = longest_task.zip(task).map(|(a, b)| a.max(b));
            if zip_first {
                floors
                    .measure(
                        &h,
                        &urls,
                        bytes,
                        [Floor::Port, Floor::Hashing, Floor::Plain],
                    )
                    .await;
            }
            let (port_floor, _, _) = floors.port;
            let (hashing_floor, hashing_cpu, gap_in_hashing) = floors.hashing;
            let (floor, floor_cpu, gap_in_floor) = floors.plain;
            for (measure, this_run) in gaps.iter_mut().zip([gap, gap_in_floor, gap_in_hashing]) {
                measure.push(this_run);
            }
            let discarded = fetch_and_discard(&h, &urls).await;
            let task = task.map_or("not observable".to_owned(), |ms| format!("{ms:.0} ms"));
            println!(
                "BENCH {engine} {product} run {run}: {} files, {bytes} bytes: zip {} (floor {:.0}%, \
                 the page's longest task {task}, longest setTimeout gap {gap:.0} ms \
                 ({gap_at:.2} s after the click), \
                 CPU {zip_cpu:.1} s); floor {} (CPU {floor_cpu:.1} s, longest setTimeout gap \
                 {gap_in_floor:.0} ms); port floor {} (zip at {:.0}%); \
                 hashing floor {} (zip at {:.0}%, CPU {hashing_cpu:.1} s, longest setTimeout \
                 gap {gap_in_hashing:.0} ms); fetch and discard {}",
                listing.len(),
                time_and_rate(zipped, bytes),
                100.0 * floor / zipped,
                time_and_rate(floor, bytes),
                time_and_rate(port_floor, bytes),
                100.0 * port_floor / zipped,
                time_and_rate(hashing_floor, bytes),
                100.0 * hashing_floor / zipped,
                time_and_rate(discarded, bytes),
            );
            times[0].push(zipped);
            times[1].push(floor);
            times[2].push(discarded);
            times[6].push(zip_cpu);
            times[7].push(floor_cpu);
            times[8].push(port_floor);
            times[9].push(hashing_floor);
            times[12].push(floor / zipped);
            if !folder_here {
                continue;
            }
            // In turn too: the app and the plain page, the two worker floors.
            let (app, plain) =
                in_turn(zip_first, folder(&h, product), plain_folder(&h, &urls)).await;
            let (worker, worker_md5) = in_turn(
                zip_first,
                folder_floor(&h, &urls, false),
                folder_floor(&h, &urls, true),
            )
            .await;
            let curl = curl_fetch(&listing, curl_dir.path()).await;
            println!(
                "BENCH {engine} {product} run {run}: folder {}, plain JS {}, plain JS in a \
                 worker {}, with md5 {}, curl {}",
                time_and_rate(app, bytes),
                time_and_rate(plain, bytes),
                time_and_rate(worker, bytes),
                time_and_rate(worker_md5, bytes),
                time_and_rate(curl, bytes),
            );
            times[3].push(app);
            times[13].push(app / plain);
            times[4].push(plain);
            times[5].push(curl);
            times[10].push(worker);
            times[11].push(worker_md5);
        }
        let [
            zip,
            floor,
            discard,
            app,
            plain,
            curl,
            zip_cpu,
            floor_cpu,
            port_floor,
            hashing_floor,
            worker,
            worker_md5,
            zip_of_floor,
            app_of_plain,
        ] = times.map(|t| median(t).unwrap_or(f64::NAN));
        let longest = |gaps: &[f64]| gaps.iter().copied().fold(0.0, f64::max);
        let over = |gaps: &[f64]| gaps.iter().filter(|&&gap| gap > LONG_GAP_MS).count();
        all.push(Figures {
            engine: engine.to_string(),
            files: files_label(&listing),
            bytes,
            zip,
            floor,
            zip_of_floor,
            port_floor,
            hashing_floor,
            discard,
            zip_cpu,
            floor_cpu,
            longest_task,
            longest_gap: longest(&gaps[0]),
            floor_gap: longest(&gaps[1]),
            hashing_gap: Some(longest(&gaps[2])),
            gaps_over: Some((gaps.each_ref().map(|gaps| over(gaps)), runs)),
            folder: folder_here.then_some(Folder {
                app,
                plain,
                app_of_plain,
                worker,
                worker_md5,
                curl,
            }),
        });
    }
    h.stop().await;
    all
}

/// The app's "Download as .zip" button.
const ZIP_BUTTON: &str = ".zip-download .folder-controls .button";

/// The app's "Download as .zip" on the product page shown (its button in view, the
/// machine at rest): seconds from the click to the zip whole on disk, the machine's CPU
/// seconds meanwhile, and the page's longest task (ms, `None` where not observable) and
/// longest `setTimeout(0)` gap (ms) and when it began (seconds after the click).
async fn zip(h: &Harness) -> (f64, f64, Option<f64>, f64, f64) {
    h.js(WATCH_PAGE).await;
    let cpu = machine_cpu_seconds();
    let started = Instant::now();
    // Clicked by the page's script, as the folder's button is: WebKitWebDriver's click
    // on it, in the middle of the window, was twice "intercepted by another element"
    // (unnamed) in the third of three 1 GB runs.
    h.js(&format!("document.querySelector({ZIP_BUTTON:?}).click()"))
        .await;
    let zip = wait_for_a_zip(h).await;
    let zipped = started.elapsed().as_secs_f64();
    let cpu = machine_cpu_seconds() - cpu;
    let watched = h.js(WATCHED).await;
    let (observable, task, gap, gap_at): (bool, f64, f64, f64) =
        serde_json::from_value(watched.clone()).unwrap_or_else(|_| panic!("{watched}"));
    h.wait_for_text_within(".zip-download .bulk-summary", "Done", WAIT)
        .await;
    fs::remove_file(&zip).expect("remove the zip");
    (
        zipped,
        cpu,
        observable.then_some(task),
        gap,
        gap_at / 1000.0,
    )
}

/// The first complete zip in the browser's download folder: no partial file left, and
/// its own central directory (listing `checksums.md5`) there, as engines that write
/// under the final name need.
async fn wait_for_a_zip(h: &Harness) -> PathBuf {
    until_saved(h, async || {
        let saved = h.downloaded();
        let zip = saved
            .iter()
            .find(|path| path.extension().is_some_and(|ext| ext == "zip"))
            .filter(|_| !h.downloading());
        let whole = zip.is_some_and(|zip| {
            ends_as_a_zip(zip)
                && fs::File::open(zip)
                    .ok()
                    .and_then(|file| ::zip::ZipArchive::new(file).ok())
                    .is_some_and(|archive| archive.index_for_name("checksums.md5").is_some())
        });
        match zip {
            Some(zip) if whole => Ok(zip.clone()),
            _ => Err(format!("no complete zip yet: {saved:?}")),
        }
    })
    .await
}

/// What `saved` finds once a download is whole on disk, waited for up to [`LONGEST`].
/// These waits look at the disk only, so a browser that died (or its driver) would keep
/// them waiting for all that time: once a download has run [`ASK_AFTER`], the browser
/// is asked each time that span passes whether it is still there, and a run without it
/// fails then (`cargo xtask bench download` tries the engine once more).
async fn until_saved<T>(h: &Harness, mut saved: impl AsyncFnMut() -> Result<T, String>) -> T {
    let started = Instant::now();
    let mut asked = started;
    loop {
        let why = match saved().await {
            Ok(found) => return found,
            Err(why) => why,
        };
        assert!(started.elapsed() < LONGEST, "after {LONGEST:?}: {why}");
        if asked.elapsed() >= ASK_AFTER {
            asked = Instant::now();
            if let Err(error) = h.driver.title().await {
                panic!("the browser is gone ({error}) while waiting: {why}");
            }
        }
        tokio::time::sleep(LOOK_EVERY).await;
    }
}

/// Whether `zip` ends with the end of a central directory, as a whole zip does (the
/// app's zips have no comment): a look at its last bytes. Reading a zip still being
/// written searches all of it for that record, which at every look at WebKit's 1 GB
/// download (written under its final name) took the bench 3.8 s of CPU during the
/// zip, on the two cores the browser shares.
fn ends_as_a_zip(zip: &Path) -> bool {
    const END: &[u8; 4] = b"PK\x05\x06";
    let mut last = [0; 22];
    fs::File::open(zip)
        .and_then(|mut file| {
            file.seek(SeekFrom::End(-(last.len() as i64)))?;
            file.read_exact(&mut last)
        })
        .is_ok_and(|()| last.starts_with(END))
}

/// Which floor: the service worker fetching, the same hashing as it goes, or a
/// dedicated worker fetching and posting to it through a port.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Floor {
    Plain,
    Hashing,
    Port,
}

/// One run's floors: each one's seconds, CPU seconds and the page's longest gap (ms).
#[derive(Default)]
struct Floors {
    plain: (f64, f64, f64),
    hashing: (f64, f64, f64),
    port: (f64, f64, f64),
}

impl Floors {
    /// Times the floors of `urls` (`total` bytes), in `order`.
    async fn measure(&mut self, h: &Harness, urls: &[&str], total: u64, order: [Floor; 3]) {
        for kind in order {
            let measured = floor(h, urls, total, kind).await;
            match kind {
                Floor::Plain => self.plain = measured,
                Floor::Hashing => self.hashing = measured,
                Floor::Port => self.port = measured,
            }
        }
    }
}

/// A floor: seconds from a click on the page to the floor worker's download of `urls`
/// (`total` bytes) whole on disk, the machine's CPU seconds meanwhile, and the page's
/// longest `setTimeout(0)` gap (ms).
async fn floor(h: &Harness, urls: &[&str], total: u64, kind: Floor) -> (f64, f64, f64) {
    let (script, scope) = match kind {
        Floor::Hashing => ("bench-floor-worker.js?hashing", "bench-floor-hashing/"),
        Floor::Plain | Floor::Port => ("bench-floor-worker.js", "bench-floor/"),
    };
    let registered = h
        .driver
        .execute_async(REGISTER_FLOOR, vec![json!(script), json!(scope)])
        .await;
    let registered = registered.expect("register the floor's worker");
    assert_eq!(registered.json(), "ok", "register the floor's worker");
    h.driver
        .execute(
            FLOOR_BUTTON,
            vec![
                json!(urls),
                json!(total),
                json!(FLOOR_NAME),
                json!(kind == Floor::Port),
                json!(scope),
                json!(script),
            ],
        )
        .await
        .expect("the floor's button");
    at_rest(h).await;
    // The page is watched as during the zip: its timer chain takes the page's thread
    // as often there, on the same two cores.
    h.js(WATCH_PAGE).await;
    let cpu = machine_cpu_seconds();
    let started = Instant::now();
    h.click("#bench-floor").await;
    let answer = h
        .driver
        .execute_async("window.__floor.then(arguments[0])", vec![])
        .await
        .expect("the floor's download");
    let answer = answer.json().as_str().unwrap_or_default().to_owned();
    assert!(answer.starts_with("ok"), "the floor's download: {answer}");
    if answer != "ok" {
        println!("{kind:?} floor: {answer}");
    }
    let saved = h.download_dir().join(FLOOR_NAME);
    until_saved(h, async || {
        let length = fs::metadata(&saved).map_or(0, |m| m.len());
        match length == total && !h.downloading() {
            true => Ok(()),
            false => Err(format!("{FLOOR_NAME} has {length} of {total} bytes")),
        }
    })
    .await;
    let time = started.elapsed().as_secs_f64();
    let cpu = machine_cpu_seconds() - cpu;
    let watched = h.js(WATCHED).await;
    let (_, _, gap, _): (bool, f64, f64, f64) =
        serde_json::from_value(watched.clone()).unwrap_or_else(|_| panic!("{watched}"));
    fs::remove_file(&saved).expect("remove the floor's file");
    (time, cpu, gap)
}

/// Awaits `a` and `b` one after the other, `a` first when `a_first`: measures that take
/// turns, so neither always runs first.
async fn in_turn<A, B>(
    a_first: bool,
    a: impl Future<Output = A>,
    b: impl Future<Output = B>,
) -> (A, B) {
    if a_first {
        let a = a.await;
        (a, b.await)
    } else {
        let b = b.await;
        (a.await, b)
    }
}

/// Seconds "Download to a folder" takes on `product`'s page, timed in the page.
async fn folder(h: &Harness, product: &str) -> f64 {
    h.goto(&format!("/products/{product}?areas=GB")).await;
    h.find(".downloads-table tbody tr").await;
    let button = ".folder-download .folder-controls .button";
    at_rest_with_in_view(h, button).await;
    // The picker answers after a person's choosing, and the run is timed from its
    // answer, as the plain-JS page is timed from the folder in hand.
    h.js(PICKED_AFTER_A_PERSONS_CHOICE).await;
    let app = timed_from_pick(h, button, ".folder-download .bulk-summary", "Done").await;
    let summary = h.text(".folder-download .bulk-summary").await;
    assert!(summary.contains(" 0 failed"), "{summary}");
    clear_folder(h).await;
    app
}

/// Seconds the plain-JS page takes to write `urls` into the same kind of folder.
async fn plain_folder(h: &Harness, urls: &[&str]) -> f64 {
    let plain = plain_js(h, urls, true).await;
    clear_folder(h).await;
    plain
}

/// Seconds the plain-JS page's folder code takes in a dedicated worker (as the app
/// writes a folder; its wasm loaded first, as the app's is while the picker is open),
/// with each file's md5 worked out by the folder run's code when `md5`: timed in the
/// page, from the files sent to the worker until it answers.
async fn folder_floor(h: &Harness, urls: &[&str], md5: bool) -> f64 {
    let loaded = r#"const [file, done] = arguments;
        const worker = new Worker(new URL(file, document.baseURI));
        worker.onmessage = ({data}) => { window.__folderFloor = worker; done(data); };
        worker.onerror = (e) => done('error: ' + e.message);"#;
    let ready = h
        .driver
        .execute_async(loaded, vec![json!(FOLDER_FLOOR_FILE)])
        .await
        .expect("the folder's floor worker");
    assert_eq!(ready.json(), "ready", "the folder's floor worker");
    at_rest(h).await;
    let script = r#"const [urls, md5, done] = arguments;
        const worker = window.__folderFloor;
        const started = performance.now();
        worker.onmessage = () => { worker.terminate(); done(performance.now() - started); };
        worker.postMessage({urls, md5});"#;
    let args = vec![json!(urls), json!(md5)];
    let seconds = timed_in_page(h, script, args, "the folder's floor").await;
    clear_folder(h).await;
    seconds
}

/// The folder picker, answering the private folder a second after it opens (as a
/// person takes time to choose) and noting when it answered (`window.__picked`).
const PICKED_AFTER_A_PERSONS_CHOICE: &str = r#"
    window.__picked = undefined;
    window.__downloadExplorerPickDirectory = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const folder = await navigator.storage.getDirectory();
      window.__picked = performance.now();
      return folder;
    };"#;

/// Seconds from the folder picker's answer ([`PICKED_AFTER_A_PERSONS_CHOICE`]), after
/// a click on `button`, until `shown` says `text`, timed in the page.
async fn timed_from_pick(h: &Harness, button: &str, shown: &str, text: &str) -> f64 {
    let script = r#"const [button, shown, text, done] = arguments;
        const target = document.querySelector(button);
        const says = () => (document.querySelector(shown)?.textContent ?? '').includes(text);
        const observer = new MutationObserver(() => {
          if (says()) { observer.disconnect(); done(performance.now() - window.__picked); }
        });
        observer.observe(document.body, {subtree: true, childList: true, characterData: true});
        target.click();"#;
    let args = vec![json!(button), json!(shown), json!(text)];
    timed_in_page(h, script, args, "a timed folder run").await
}

/// Seconds an asynchronous `script` answers (in milliseconds, as the page timed it);
/// panics with `what` and the answer when it is not a number (the script's error).
async fn timed_in_page(h: &Harness, script: &str, args: Vec<serde_json::Value>, what: &str) -> f64 {
    let answer = h
        .driver
        .execute_async(script, args)
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let millis = answer
        .json()
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: {}", answer.json()));
    millis / 1000.0
}

/// Seconds a plain-JS page takes to fetch `urls`, three at a time, with nothing else
/// (no md5, no existing-file checks, no progress): streamed into the browser's private
/// folder (`keep`) or read and discarded.
async fn plain_js(h: &Harness, urls: &[&str], keep: bool) -> f64 {
    at_rest(h).await;
    let script = r#"const [urls, keep, done] = arguments;
        (async () => {
          const root = keep ? await navigator.storage.getDirectory() : null;
          const started = performance.now();
          let next = 0;
          const lane = async () => {
            while (next < urls.length) {
              const i = next++;
              const response = await fetch(urls[i], {cache: 'no-store'});
              const writable = keep
                ? await (await root.getFileHandle('plain-' + i, {create: true})).createWritable()
                : null;
              const reader = response.body.getReader();
              for (;;) {
                const {done, value} = await reader.read();
                if (done) break;
                if (writable) await writable.write(value);
              }
              if (writable) await writable.close();
            }
          };
          await Promise.all([lane(), lane(), lane()]);
          return performance.now() - started;
        })().then(done, e => done('error: ' + e));"#;
    let args = vec![json!(urls), json!(keep)];
    timed_in_page(h, script, args, "plain JS download").await
}

/// Fetch and discard: the floor of any fetch in this engine, in seconds.
async fn fetch_and_discard(h: &Harness, urls: &[&str]) -> f64 {
    plain_js(h, urls, false).await
}

/// Empties the browser's private folder (the big file would fill the disk twice).
async fn clear_folder(h: &Harness) {
    let script = r#"const done = arguments[arguments.length - 1];
        (async () => {
          const root = await navigator.storage.getDirectory();
          for await (const name of root.keys()) await root.removeEntry(name);
          return 'ok';
        })().then(done, e => done('error: ' + e));"#;
    let answer = h.driver.execute_async(script, vec![]).await.expect("clear");
    assert_eq!(answer.json(), "ok");
}

/// Seconds curl takes to fetch the `listing`'s files into `dir`, three at a time.
async fn curl_fetch(listing: &[ProductDownload], dir: &Path) -> f64 {
    let config: String = listing
        .iter()
        .map(|d| {
            let out = dir.join(&d.file.file_name);
            format!("url = \"{}\"\noutput = \"{}\"\n", d.file.url, out.display())
        })
        .collect();
    let config_path = dir.join("curl.cfg");
    fs::write(&config_path, config).unwrap();
    let (time, status) = tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let status = std::process::Command::new("curl")
            .args([
                "--silent",
                "--no-progress-meter",
                "--show-error",
                "--fail",
                "--location",
            ])
            .args(["--parallel", "--parallel-max", "3", "--config"])
            .arg(&config_path)
            .status()
            .expect("run curl");
        (started.elapsed(), status)
    })
    .await
    .expect("curl's thread");
    assert!(status.success(), "curl failed");
    for d in listing {
        let _ = fs::remove_file(dir.join(&d.file.file_name));
    }
    time.as_secs_f64()
}

/// With `BENCH_PROFILE=<folder>`, starts a CPU profile of the page (Chromium, first
/// run only): where the page's time goes, saved as a `.cpuprofile` DevTools opens.
async fn profile_start(h: &Harness, run: usize) -> Option<PathBuf> {
    let folder = PathBuf::from(std::env::var_os("BENCH_PROFILE")?);
    if run != 1 || h.engine != Engine::Chromium {
        return None;
    }
    cdp(h, "Profiler.enable", json!({})).await;
    cdp(h, "Profiler.setSamplingInterval", json!({"interval": 500})).await;
    cdp(h, "Profiler.start", json!({})).await;
    Some(folder)
}

/// Stops the profile [`profile_start`] began and saves it as `<name>.cpuprofile`.
async fn profile_stop(h: &Harness, folder: Option<PathBuf>, name: &str) {
    let Some(folder) = folder else {
        return;
    };
    let answer = cdp(h, "Profiler.stop", json!({})).await;
    let path = folder.join(format!("{name}.cpuprofile"));
    fs::write(&path, answer["profile"].to_string()).expect("save the profile");
    println!("BENCH profile saved: {}", path.display());
}

/// A copy of the tests' web root (see [`e2e::web_root`]) with the floor's worker
/// added: symbolic links, as the server follows them.
fn web_root_with_floor() -> io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("bench-download-web-")
        .tempdir()?;
    link_tree(&e2e::web_root(), dir.path())?;
    fs::write(dir.path().join(FLOOR_FILE), FLOOR_WORKER)?;
    fs::write(dir.path().join(FETCHER_FILE), FETCHER_WORKER)?;
    fs::write(dir.path().join(LANES_FILE), LANES_SCRIPT)?;
    fs::write(dir.path().join(FOLDER_FLOOR_FILE), FOLDER_FLOOR_WORKER)?;
    Ok(dir)
}

/// Links every file below `from` into `to`, making the folders.
fn link_tree(from: &Path, to: &Path) -> io::Result<()> {
    for entry in fs::read_dir(from)? {
        let path = entry?.path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            fs::create_dir(&target)?;
            link_tree(&path, &target)?;
        } else {
            symlink(path.canonicalize()?, target)?;
        }
    }
    Ok(())
}

/// "200 x 100 kB", "1 x 1 GB": how many files, and their size (the largest's).
fn files_label(listing: &[ProductDownload]) -> String {
    let size = listing
        .iter()
        .filter_map(|d| d.file.size)
        .max()
        .unwrap_or(0) as f64;
    let size = match size {
        s if s >= 1e9 => format!("{} GB", s / 1e9),
        s if s >= 1e6 => format!("{} MB", s / 1e6),
        s => format!("{} kB", s / 1e3),
    };
    format!("{} x {size}", listing.len())
}

/// Waits for the machine to rest, so that each measure starts from the same quiet:
/// WebKitGTK draws its overlay scrollbars in and out for some 3 s after a page loads or
/// scrolls, which here (no GPU) takes up to a core and a half.
async fn at_rest(h: &Harness) {
    let deadline = Instant::now() + QUIET_LIMIT;
    while Instant::now() < deadline {
        let before = machine_cpu_seconds();
        tokio::time::sleep(QUIET_SPAN).await;
        if machine_cpu_seconds() - before < QUIET_CPU * QUIET_SPAN.as_secs_f64() {
            return;
        }
    }
    println!(
        "BENCH {}: the machine did not rest within {QUIET_LIMIT:?}; measuring anyway",
        h.engine
    );
}

/// `product`'s page loaded with its files listed, the zip's button in view and the
/// machine at rest.
async fn ready_to_zip(h: &Harness, product: &str) {
    h.goto(&format!("/products/{product}?areas=GB")).await;
    h.find(".downloads-table tbody tr").await;
    at_rest_with_in_view(h, ZIP_BUTTON).await;
}

/// Scrolls `button` to the middle of the window (as a person does before clicking it,
/// so its panel shows while the run draws) and waits for the machine to rest; again
/// while the page moved it meanwhile (its lists measure their rows once drawn). Near the
/// page's end the button cannot reach the middle: it is left where it settles.
async fn at_rest_with_in_view(h: &Harness, button: &str) {
    let centre = format!(
        "const e = document.querySelector({button:?}); e.scrollIntoView({{block: 'center'}});"
    );
    // Where it is: `true` in the window's middle half, else its top.
    let placed = format!(
        "const r = document.querySelector({button:?}).getBoundingClientRect(); \
         return r.top >= innerHeight / 4 && r.bottom <= innerHeight * 3 / 4 || r.top;"
    );
    let mut last = None;
    for _ in 0..5 {
        h.js(&centre).await;
        at_rest(h).await;
        let now = h.js(&placed).await;
        if now == json!(true) || last.as_ref() == Some(&now) {
            return;
        }
        last = Some(now);
    }
    println!("BENCH {}: {button} kept moving; measuring anyway", h.engine);
}

/// The CPU time the whole machine has spent busy since it started, in seconds: the first
/// line of `/proc/stat` (user, nice, system, irq, softirq and steal; not idle or iowait),
/// in the kernel's ticks of 1/100 s.
fn machine_cpu_seconds() -> f64 {
    let stat = fs::read_to_string("/proc/stat").expect("/proc/stat (Linux)");
    let ticks: Vec<f64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .filter_map(|field| field.parse().ok())
        .collect();
    let busy: f64 = [0, 1, 2, 5, 6, 7]
        .iter()
        .filter_map(|&i| ticks.get(i))
        .sum();
    busy / 100.0
}

/// "8.73 s (115 MB/s)".
fn time_and_rate(seconds: f64, bytes: u64) -> String {
    format!("{seconds:.2} s ({:.0} MB/s)", bytes as f64 / seconds / 1e6)
}

/// Every engine's figures saved in `folder`, in the engines' order.
fn saved_figures(folder: &Path) -> Vec<Figures> {
    let mut all = Vec::new();
    for engine in [Engine::Chromium, Engine::Firefox, Engine::Webkit] {
        let path = folder.join(format!("{engine}.json"));
        let Ok(text) = fs::read_to_string(&path) else {
            println!("no figures for {engine} ({} is missing)", path.display());
            continue;
        };
        let figures: Vec<Figures> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        all.extend(figures);
    }
    all
}

/// The figures as markdown tables, for `docs/performance.md`.
fn print_tables(all: &[Figures]) {
    let title = |engine: &str| {
        match engine {
            "chromium" => "Chromium",
            "firefox" => "Firefox",
            "webkit" => "WebKit",
            other => other,
        }
        .to_owned()
    };
    println!(
        "\n| engine | files | zip | floor (service worker) | zip / floor (run by run) | port floor (worker, port) \
         | zip / port floor | floor hashing (md5, CRC) | zip / floor hashing | fetch and discard \
         | zip / discard | the page's longest task | longest setTimeout gap: zip / floor / \
         floor hashing | runs with a gap over {LONG_GAP_MS} ms: zip / floor / floor hashing \
         | CPU: zip / floor |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for f in all {
        let hashing_gap = f
            .hashing_gap
            .map_or("-".to_owned(), |ms| format!("{ms:.0}"));
        let over = f
            .gaps_over
            .map_or("-".to_owned(), |([zip, floor, hashing], runs)| {
                format!("{zip} / {floor} / {hashing} of {runs}")
            });
        let task = match f.longest_task {
            None => "not observable".to_owned(),
            Some(ms) if ms < LONG_TASK_MS => format!("none over {LONG_TASK_MS} ms"),
            Some(ms) => format!("{ms:.0} ms"),
        };
        println!(
            "| {} | {} | {} | {} | {:.0}% | {} | {:.0}% | {} | {:.0}% | {} | {:.0}% | {task} \
             | {:.0} / {:.0} / {hashing_gap} ms | {over} | {:.1} s / {:.1} s |",
            title(&f.engine),
            f.files,
            time_and_rate(f.zip, f.bytes),
            time_and_rate(f.floor, f.bytes),
            100.0 * f.zip_of_floor,
            time_and_rate(f.port_floor, f.bytes),
            100.0 * f.port_floor / f.zip,
            time_and_rate(f.hashing_floor, f.bytes),
            100.0 * f.hashing_floor / f.zip,
            time_and_rate(f.discard, f.bytes),
            100.0 * f.discard / f.zip,
            f.longest_gap,
            f.floor_gap,
            f.zip_cpu,
            f.floor_cpu,
        );
    }
    let folders: Vec<(&Figures, &Folder)> = all
        .iter()
        .filter_map(|f| f.folder.as_ref().map(|folder| (f, folder)))
        .collect();
    if folders.is_empty() {
        return;
    }
    println!(
        "\n| {}, \"Download to a folder\" | app | plain JS | app / plain JS (run by run) \
         | plain JS in a worker | plain JS in a worker, md5 | app / worker with md5 | curl |",
        title(&folders[0].0.engine)
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (f, folder) in folders {
        println!(
            "| {} | {} | {} | {:.2}x | {} | {} | {:.2}x | {} |",
            f.files,
            time_and_rate(folder.app, f.bytes),
            time_and_rate(folder.plain, f.bytes),
            folder.app_of_plain,
            time_and_rate(folder.worker, f.bytes),
            time_and_rate(folder.worker_md5, f.bytes),
            folder.app / folder.worker_md5,
            time_and_rate(folder.curl, f.bytes),
        );
    }
}
