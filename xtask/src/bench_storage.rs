//! `cargo xtask bench storage`: the server on object storage (Garage, on this machine)
//! next to the same server on a directory.
//!
//! - Redirects: requests per second and the server's CPU time per request for the
//!   API's 307s, presigned addresses on the store against the server's own `/files/`
//!   addresses (goal: within 10%).
//! - Publishing: `download-server publish` of a directory of large and small files,
//!   against the AWS CLI's `aws s3 cp --recursive` of the same files to the same store
//!   (the usual bulk copy; no MD5 check or skipping), and our publish again with every
//!   file already there.
//!
//! Every process started here is stopped, and the temporary directory removed, on every
//! way out.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::bench::{self, CpuClock, ROUNDS, Target, WrkResult};
use crate::exec::{Result, capture, cargo, root, run, target_dir};
use crate::server::{DEMO_PRODUCT, Server, find_program, free_port};
use crate::tools::{self, apt_install};

// The server's tests' Garage, std only: included rather than building the server here.
// Its CORS rule is for the browser tests.
#[allow(dead_code)]
#[path = "../../crates/download-server/src/testing/garage.rs"]
mod garage;

use garage::Garage;

/// The publish benchmark's files: a few large ones (multipart) and many small ones.
const LARGE_FILES: usize = 2;
const LARGE_SIZE: usize = 64 << 20;
const SMALL_FILES: usize = 64;
const SMALL_SIZE: usize = 2 << 20;

pub fn bench() -> Result {
    tools::ensure_storage_engines()?;
    if find_program("aws").is_none() {
        apt_install(&["awscli"], "the publish benchmark (aws s3 cp --recursive)")?;
    }
    run(cargo().args(["build", "--release", "-p", "download-server"]))?;
    let binary = target_dir().join("release/download-server");
    let work = tempfile::Builder::new()
        .prefix("xtask-bench-storage-")
        .tempdir()
        .map_err(|error| format!("cannot create a temporary directory: {error}"))?;
    let garage_dir = work.path().join("garage");
    fs::create_dir_all(&garage_dir)?;
    let garage = Garage::start(&tools::garage(), &garage_dir)?;
    println!("ok: garage answers at {}", garage.origin());
    let demo = root().join("crates/download-server/demo");

    let published = publish(&binary, &garage, &demo, "demo")?;
    println!(
        "published the demo catalogue in {:.1} s",
        published.as_secs_f64()
    );

    // Redirect throughput, the same catalogue from a directory and from the store.
    let local = start_server(
        &binary,
        &garage,
        &["--catalogue", demo.to_str().unwrap_or("")],
    )?;
    let store_url = garage.storage_url("demo");
    let store = start_server(&binary, &garage, &["--storage", &store_url])?;
    let download = redirect_path(&local.base)?;
    let image = format!("/downloads/v1/products/{DEMO_PRODUCT}/images/0");
    let cpu = CpuClock::new();
    let wrk = find_program("wrk").ok_or("wrk not found")?;
    let mut rows = String::new();
    for path in [download, image] {
        println!("timing {path} ...");
        let target = Target::path(&path);
        let measure =
            |server: &Server| bench::measure(&wrk, &server.base, &target, &cpu, &[server.pid()]);
        let (mut ours_local, mut ours_store) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            ours_local.push(measure(&local)?);
            ours_store.push(measure(&store)?);
        }
        let (local, store) = (median(&ours_local), median(&ours_store));
        let _ = writeln!(
            rows,
            "| `{path}` | {:.0} | {:.0} | {:.0}% | {:.1} µs | {:.1} µs |",
            local.requests_per_sec,
            store.requests_per_sec,
            100.0 * store.requests_per_sec / local.requests_per_sec,
            micros(local.cpu_per_request),
            micros(store.cpu_per_request),
        );
    }
    drop((local, store));
    println!(
        "\nRedirects (307), wrk -t{} -c{} -d{} after a {} warm-up, {ROUNDS} rounds alternating, \
         medians; CPU per request is the server's user+system time over the requests answered:\n",
        bench::WRK_THREADS,
        bench::WRK_CONNECTIONS,
        bench::MEASURE,
        bench::WARM_UP
    );
    println!(
        "| path | directory (own /files/ link) req/s | object storage (presigned) req/s | ratio | CPU/request directory | CPU/request storage |"
    );
    println!("|---|---|---|---|---|---|");
    print!("{rows}");

    // Publish throughput.
    let files = work.path().join("publish");
    let bytes = make_publish_catalogue(&files)?;
    let ours = publish(&binary, &garage, &files, "ours")?;
    let again = publish(&binary, &garage, &files, "ours")?;
    let aws = aws_copy(&garage, &files, "aws")?;
    let megabytes = bytes as f64 / f64::from(1 << 20);
    let rate = |time: Duration| megabytes / time.as_secs_f64();
    println!(
        "\nPublishing {LARGE_FILES} × {} MiB + {SMALL_FILES} × {} MiB ({megabytes:.0} MiB) to Garage on this machine:\n",
        LARGE_SIZE >> 20,
        SMALL_SIZE >> 20
    );
    println!("| how | time | MiB/s |");
    println!("|---|---|---|");
    println!(
        "| `download-server publish` (MD5 check, multipart over 8 MiB, 4 files at once) | {:.1} s | {:.0} |",
        ours.as_secs_f64(),
        rate(ours)
    );
    println!(
        "| `aws s3 cp --recursive` (AWS CLI {}, its defaults) | {:.1} s | {:.0} |",
        aws_version(),
        aws.as_secs_f64(),
        rate(aws)
    );
    println!(
        "| `download-server publish` again (every file already there) | {:.1} s | — |",
        again.as_secs_f64()
    );
    Ok(())
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

/// The round with the median requests per second.
fn median(rounds: &[WrkResult]) -> WrkResult {
    let mut sorted = rounds.to_vec();
    sorted.sort_by(|a, b| a.requests_per_sec.total_cmp(&b.requests_per_sec));
    sorted[sorted.len() / 2]
}

/// The API address of the demo product's first download, which redirects.
fn redirect_path(base: &str) -> Result<String> {
    let list = capture(Command::new("curl").args([
        "-sS",
        "--fail",
        &format!("{base}/downloads/v1/products/{DEMO_PRODUCT}/downloads"),
    ]))?;
    let url = list
        .split("\"url\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .ok_or("no download url in the demo product's list")?;
    Ok(url.strip_prefix(base).unwrap_or(url).to_owned())
}

/// Our release server with `args`, the store's variables set.
fn start_server(binary: &Path, garage: &Garage, args: &[&str]) -> Result<Server> {
    let port = free_port()?;
    let mut command = Command::new(binary);
    command
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(args)
        .envs(garage.env())
        .env("RUST_LOG", "warn")
        .env("DOWNLOAD_SIGNING_KEY", "xtask")
        .stdout(Stdio::null());
    Server::start(
        "download-server",
        &mut command,
        port,
        "/downloads/v1/products",
        None,
    )
}

/// `download-server publish DIR` to `prefix`; how long it took.
fn publish(binary: &Path, garage: &Garage, dir: &Path, prefix: &str) -> Result<Duration> {
    let started = Instant::now();
    let report = capture(
        Command::new(binary)
            .arg("publish")
            .arg(dir)
            .args(["--storage", &garage.storage_url(prefix)])
            .envs(garage.env()),
    )?;
    let took = started.elapsed();
    println!("{report}");
    Ok(took)
}

/// `aws s3 cp --recursive DIR` to `prefix`; how long it took.
fn aws_copy(garage: &Garage, dir: &Path, prefix: &str) -> Result<Duration> {
    let started = Instant::now();
    capture(
        Command::new("aws")
            .args(["s3", "cp", "--recursive", "--only-show-errors"])
            .arg(dir)
            .arg(garage.storage_url(prefix))
            .args(["--endpoint-url", &garage.origin()])
            .envs(garage.env()),
    )?;
    Ok(started.elapsed())
}

fn aws_version() -> String {
    capture(Command::new("aws").arg("--version"))
        .ok()
        .and_then(|text| {
            text.split_whitespace()
                .next()
                .map(|first| first.trim_start_matches("aws-cli/").to_owned())
        })
        .unwrap_or_default()
}

/// Writes the publish benchmark's catalogue: one product listing every file. Returns
/// the bytes of its files.
fn make_publish_catalogue(dir: &Path) -> Result<u64> {
    fs::create_dir_all(dir.join("files"))?;
    let mut downloads = Vec::new();
    let mut total = 0u64;
    let mut write = |name: String, size: usize, seed: usize| -> Result {
        // Different bytes in every file, so no store can deduplicate them.
        let bytes: Vec<u8> = (0..size)
            .map(|i| (i.wrapping_mul(31).wrapping_add(seed * 7919) % 251) as u8)
            .collect();
        fs::write(dir.join("files").join(&name), bytes)?;
        downloads.push(format!(
            r#"{{"area": "GB", "format": "Binary", "path": "files/{name}"}}"#
        ));
        total += size as u64;
        Ok(())
    };
    for i in 0..LARGE_FILES {
        write(format!("large-{i}.bin"), LARGE_SIZE, i)?;
    }
    for i in 0..SMALL_FILES {
        write(format!("small-{i}.bin"), SMALL_SIZE, LARGE_FILES + i)?;
    }
    fs::write(
        dir.join("catalogue.json"),
        format!(
            r#"{{"products": [{{"id": "Bench", "name": "Bench", "description": "d", "version": "1", "downloads": [{}]}}]}}"#,
            downloads.join(",")
        ),
    )?;
    Ok(total)
}
