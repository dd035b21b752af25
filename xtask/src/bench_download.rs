//! `cargo xtask bench download`: in each engine (Chromium, Firefox, WebKit), the web
//! app's "Download as .zip" next to a plain-JS page fetching the same files and
//! discarding them; in Chromium also its "Download to a folder" (streamed to disk, md5
//! checked) next to a plain-JS page writing the same files into the same kind of folder
//! and curl fetching them from the same server; for 200 small files and for one 1 GB
//! file.
//!
//! A temporary catalogue holds the files (incompressible bytes, so neither side gains
//! from compression); the browser test `bench_download` in
//! `crates/e2e/tests/all/bulk.rs`, built in release, serves it, drives both and prints the
//! ratios. Not a timed test: it measures this machine, as it is at the moment.
//! With `BENCH_PROFILE=<folder>` it also saves a CPU profile of the page during each zip
//! (`zip-<product>.cpuprofile`, for DevTools); `BENCH_RUNS` sets the runs (3).

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::bundle;
use crate::exec::{Result, run};
use crate::tools;

const SMALL_FILES: usize = 200;
const SMALL_SIZE: usize = 100 * 1000;
const LARGE_SIZE: usize = 1000 * 1000 * 1000;

/// Builds the web app, writes the catalogue and runs the comparison.
pub fn bench() -> Result {
    tools::ensure_build_tools()?;
    tools::ensure_browsers()?;
    bundle::build(&bundle::Target::site_root())?;
    let work = tempfile::Builder::new()
        .prefix("xtask-bench-download-")
        .tempdir()
        .map_err(|error| format!("cannot create a temporary directory: {error}"))?;
    println!(
        "writing the catalogue: {SMALL_FILES} files of {SMALL_SIZE} bytes and one of {LARGE_SIZE} bytes"
    );
    write_catalogue(work.path())?;
    for engine in tools::ENGINES {
        run(tools::cargo_in(engine)
            .args(["test", "--release", "-p", "e2e", "--test", "all", "--"])
            .args([
                "--ignored",
                "--exact",
                "bulk::bench_download",
                "--nocapture",
            ])
            .env("BENCH_CATALOGUE", work.path())
            .env("E2E_WEB_ROOT", bundle::dist()))?;
    }
    Ok(())
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
