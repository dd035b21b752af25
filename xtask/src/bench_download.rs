//! `cargo xtask bench download` (issue 30's figures): in each engine (Chromium,
//! Firefox, WebKit), the web app's "Download as .zip" next to a plain-JS service worker
//! fetching the same files and saving them as one download (the floor of a streamed
//! download), the same with the zip's path (a plain-JS dedicated worker fetching, its
//! bytes through a port to that service worker: the port floor), the same service worker
//! hashing each file (md5 and CRC, the zip's own code) as it passes (the hashing floor)
//! and a plain-JS page fetching them and discarding them, with the page's
//! longest task and `setTimeout(0)` gap during the zip; in Chromium also its "Download
//! to a folder" next to a plain-JS page writing the same files into the same kind of
//! folder, the same plain code in a dedicated worker (the app's design) without and with
//! md5 (the folder's floors), and curl; for 200 small files and for one 1 GB file.
//!
//! A temporary catalogue holds the files (incompressible bytes, so neither side gains
//! from compression); the bench binary `crates/e2e/src/bin/bench_download.rs`, built in
//! release and run once per engine, serves it, drives the browser and saves its
//! figures; it then prints one markdown table of all three (of those whose run ended:
//! an engine's run that fails is tried once more, then left out and named at the end).
//! Not a timed test: it measures this machine, as it is at the moment. `BENCH_RUNS` sets
//! the runs (3; the small files three times as many); with `BENCH_PROFILE=<folder>`
//! Chromium also saves a CPU profile of the page during each zip
//! (`zip-<product>.cpuprofile`, for DevTools). With `E2E_WEB_ROOT` set, the app built
//! there is measured instead of building one.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::bundle;
use crate::exec::{Result, cargo, run};
use crate::tools;

const SMALL_FILES: usize = 200;
const SMALL_SIZE: usize = 100 * 1000;
const LARGE_SIZE: usize = 1000 * 1000 * 1000;

/// Builds the web app (unless `E2E_WEB_ROOT` names a built one), writes the catalogue,
/// runs the comparison in each engine and prints the table.
pub fn bench() -> Result {
    tools::ensure_browsers()?;
    let web_root = match std::env::var_os("E2E_WEB_ROOT") {
        Some(built) => built.into(),
        None => {
            tools::ensure_build_tools()?;
            bundle::build(&bundle::Target::site_root())?;
            bundle::dist()
        }
    };
    let work = tempfile::Builder::new()
        .prefix("xtask-bench-download-")
        .tempdir()
        .map_err(|error| format!("cannot create a temporary directory: {error}"))?;
    println!(
        "writing the catalogue: {SMALL_FILES} files of {SMALL_SIZE} bytes and one of {LARGE_SIZE} bytes"
    );
    write_catalogue(work.path())?;
    let results = work.path().join("results");
    fs::create_dir_all(&results)?;
    let bench = ["run", "--release", "-p", "e2e", "--bin", "bench_download"];
    let mut failed = Vec::new();
    for engine in tools::ENGINES {
        let engine_run = || {
            run(tools::cargo_in(engine)
                .args(bench)
                .env("BENCH_CATALOGUE", work.path())
                .env("BENCH_RESULTS", &results)
                .env("E2E_WEB_ROOT", &web_root))
        };
        // A driver's connection can drop in a long run (WebKit's, on a busy machine):
        // one more try, and the other engines' figures are kept either way.
        if let Err(error) = engine_run().or_else(|error| {
            println!("bench download in {engine} failed ({error}); trying once more");
            engine_run()
        }) {
            println!("bench download in {engine} failed again ({error}); left out");
            failed.push(format!("{engine} ({error})"));
        }
    }
    // The binary as the last engine's run built it: `E2E_BROWSER` is part of the build
    // (crates/e2e/build.rs), and the table needs no browser, so no build for another.
    let last = tools::ENGINES[tools::ENGINES.len() - 1];
    run(cargo()
        .args(bench)
        .arg("--")
        .arg("--table")
        .env("E2E_BROWSER", last)
        .env("BENCH_RESULTS", &results))?;
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("no figures for {}", failed.join(", ")).into())
    }
}

/// Products `BenchSmall` (many small files) and `BenchLarge` (one big file).
fn write_catalogue(dir: &Path) -> Result {
    let files = dir.join("files");
    fs::create_dir_all(&files)?;
    let mut bytes = Bytes(0x9e37_79b9_7f4a_7c15);
    let mut small = Vec::new();
    for i in 0..SMALL_FILES {
        let path = format!("files/small_{i:03}.bin");
        bytes.write_file(&dir.join(&path), SMALL_SIZE)?;
        small.push(download(&path));
    }
    bytes.write_file(&dir.join("files/large.bin"), LARGE_SIZE)?;
    let catalogue = format!(
        r#"{{"products": [{}, {}]}}"#,
        product("BenchSmall", &small.join(",")),
        product("BenchLarge", &download("files/large.bin")),
    );
    fs::write(dir.join("catalogue.json"), catalogue)?;
    Ok(())
}

fn product(id: &str, downloads: &str) -> String {
    format!(
        r#"{{"id": "{id}", "name": "{id}", "description": "Benchmark files.", "version": "2026-01", "downloads": [{downloads}]}}"#
    )
}

fn download(path: &str) -> String {
    format!(r#"{{"area": "GB", "format": "Binary", "path": "{path}"}}"#)
}

/// A fast pseudo-random byte source (xorshift64): incompressible test data.
struct Bytes(u64);

impl Bytes {
    fn write_file(&mut self, path: &Path, size: usize) -> Result {
        let mut out = BufWriter::new(File::create(path)?);
        let mut block = [0u8; 64 * 1024];
        let mut left = size;
        while left > 0 {
            for word in block.chunks_exact_mut(8) {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                word.copy_from_slice(&self.0.to_le_bytes());
            }
            let n = left.min(block.len());
            out.write_all(&block[..n])?;
            left -= n;
        }
        out.flush()?;
        Ok(())
    }
}
