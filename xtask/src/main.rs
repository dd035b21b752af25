//! The project's commands, run from anywhere in the checkout:
//!
//! - `cargo xtask run [-- SERVER ARGS]`: install what is missing, build the web app and
//!   serve it, with the demo catalogue, from one server process.
//! - `cargo xtask build [--public-url PATH] [--dist DIR]`: the deployable web app.
//! - `cargo xtask dev [-- SERVER ARGS]`: the server and `trunk serve`, for app work.
//! - `cargo xtask test`: everything CI checks, in order, stopping at the first failure.
//! - `cargo xtask size`: build the web app and print each file's size.
//! - `cargo xtask screenshots`: build the web app and take the README's screenshots.
//! - `cargo xtask schemathesis`: the OpenAPI document tested against the live server.
//! - `cargo xtask soak [MINUTES]`: the release server under a long mixed load.
//! - `cargo xtask bench`: time the release server against nginx serving the same bytes.
//! - `cargo xtask bench download|web`: the app's download to a folder next to curl; the
//!   app at scale and on slow 4G next to plain-JS pages.
//! - `cargo xtask fuzz [SECONDS]`: every fuzz target in `fuzz/` for SECONDS each.

mod bench;
mod bench_download;
mod bench_web;
mod build_target;
mod bundle;
mod dev;
mod exec;
mod fuzz;
mod schemathesis;
mod server;
mod soak;
mod split;
mod tools;

use std::env;
use std::process::ExitCode;

use exec::{Result, Steps, cargo, root, run};

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  run [-- SERVER ARGS]  install missing tools, build the web app and run the server
                        (SERVER ARGS go to download-server, e.g. -- --listen 0.0.0.0:8080)
  dev [-- SERVER ARGS]  the server on 127.0.0.1:8080 and `trunk serve` (rebuilding on every
                        change) on http://127.0.0.1:8081/; Ctrl-C stops both
  build [--public-url PATH] [--dist DIR] [--names]
                        the deployable web app (release, precompressed, with 404.html) for
                        the site root or a sub-path such as /explorer/, into DIR (relative
                        to the checkout; dist/ by default); --names keeps the wasm's
                        function names, for CPU profiles
  test                  what CI runs: tools, Cargo.lock, fmt, clippy, unit tests, build, size budget,
                        browser tests
  size                  build the web app and print each file's raw/gzip/brotli size
  screenshots           build the web app and save the README's screenshots (docs/screenshots/)
                        from headless Chromium
  schemathesis          the server's OpenAPI document tested against the live server
                        (schemathesis from PyPI, pinned, into .tools/)
  soak [MINUTES]        the release server under 256 connections mixing every endpoint for
                        MINUTES (10 by default); fails on any error or growing memory
  bench                 requests/s and latency of the release server next to nginx serving
                        the same bytes (installs nginx-light and wrk when missing)
  bench download        the web app's download to a folder (md5 checked, headless Chromium)
                        next to curl, for 200 small files and one 1 GB file
  bench web [--profile] the web app at 1,000 products and 10,000 files, and on slow 4G, next to
                        plain-JS pages rendering the same JSON (headless Chromium, medians of 3);
                        --profile: the app alone, once, with CPU profiles of each step written
                        to target/bench-web-profile/ and their busiest functions printed
  fuzz [SECONDS]        every cargo-fuzz target in fuzz/ for SECONDS each (60 by default), on
                        the pinned nightly (installs cargo-fuzz when missing)
";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => run_product(server_args(&args[1..])),
        Some("dev") => dev::dev(server_args(&args[1..])),
        Some("build") => build_options(&args[1..]).and_then(|target| build(&target)),
        Some("test") => test(),
        Some("size") => size(),
        Some("screenshots") => screenshots(),
        Some("bench") if args.get(1).is_some_and(|a| a == "download") => bench_download::bench(),
        Some("bench") if args.get(1).is_some_and(|a| a == "web") => bench_web::bench(&args[2..]),
        Some("bench") => bench::bench(),
        Some("schemathesis") => schemathesis::run_against_server(),
        Some("soak") => minutes(&args[1..]).and_then(soak::soak),
        Some("fuzz") => fuzz::fuzz(&args[1..]),
        Some("help" | "-h" | "--help") => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}").into()),
        None => Err(USAGE.into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("\nerror: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask run -- --listen x` reaches us as `run -- --listen x`; both that and
/// `run --listen x` forward `--listen x` to the server.
fn server_args(args: &[String]) -> &[String] {
    match args.first().map(String::as_str) {
        Some("--") => &args[1..],
        _ => args,
    }
}

/// `--public-url PATH` and `--dist DIR`, each optional.
fn build_options(args: &[String]) -> Result<bundle::Target> {
    let mut public_url = "/".to_string();
    let mut dist = bundle::dist();
    let mut names = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{arg} needs a value\n\n{USAGE}"))
        };
        match arg.as_str() {
            "--public-url" => public_url = value()?.clone(),
            "--dist" => dist = root().join(value()?),
            "--names" => names = true,
            other => return Err(format!("unknown option `{other}`\n\n{USAGE}").into()),
        }
    }
    Ok(bundle::Target {
        names,
        ..bundle::Target::new(&public_url, dist)?
    })
}

fn build(target: &bundle::Target) -> Result {
    tools::ensure_build_tools()?;
    let files = bundle::build(target)?;
    bundle::print_table(&files);
    println!(
        "built {} for {}: deploy its files as they are (docs/deploy.md)",
        target.dist.display(),
        target.public_url
    );
    Ok(())
}

fn run_product(server_args: &[String]) -> Result {
    tools::ensure_build_tools()?;
    let files = bundle::build(&bundle::Target::site_root())?;
    bundle::print_table(&files);
    run(cargo()
        .args([
            "run",
            "--release",
            "-p",
            "download-server",
            "--",
            "--web-root",
        ])
        .arg(bundle::dist())
        .args(server_args))
}

fn size() -> Result {
    tools::ensure_build_tools()?;
    let files = bundle::build(&bundle::Target::site_root())?;
    bundle::print_table(&files);
    Ok(())
}

/// Drives the app the way the browser tests do (crates/e2e's harness: the real server,
/// the demo catalogue, headless Chromium) and saves the pictures the README shows.
fn screenshots() -> Result {
    tools::ensure_build_tools()?;
    tools::ensure_browser()?;
    bundle::build(&bundle::Target::site_root())?;
    run(cargo()
        .args(["run", "-p", "e2e", "--bin", "screenshots", "--"])
        .arg(root().join("docs/screenshots"))
        .env("E2E_WEB_ROOT", bundle::dist()))
}

fn test() -> Result {
    // The browser tests are their own crate; until it exists there is nothing to run.
    let has_e2e = root().join("crates/e2e/Cargo.toml").exists();
    let mut steps = Steps::new();

    steps.run("tools", || {
        tools::ensure_build_tools()?;
        if has_e2e {
            tools::ensure_browser()?;
        }
        Ok(())
    })?;
    // Before any other cargo command can quietly update it: CI builds what is committed.
    steps.run("Cargo.lock", || run(cargo().args(["fetch", "--locked"])))?;
    steps.run("fmt", || {
        run(cargo().args(["fmt", "--all", "--", "--check"]))
    })?;
    steps.run("clippy", || {
        run(cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))
    })?;
    steps.run("clippy wasm", || {
        // Unsplit, as `trunk serve` builds it, and split by route, as the release does.
        for features in [&[][..], &["--features", "split"]] {
            run(cargo()
                .args(["clippy", "-p", "download-explorer"])
                .args(["--target", "wasm32-unknown-unknown"])
                .args(features)
                .args(["--", "-D", "warnings"]))?;
        }
        Ok(())
    })?;
    steps.run("unit tests", || {
        let mut test = cargo();
        test.args(["test", "--workspace"]);
        if has_e2e {
            test.args(["--exclude", "e2e"]);
        }
        run(&mut test)
    })?;
    steps.run("schemathesis", schemathesis::run_against_server)?;
    let mut files = Vec::new();
    steps.run("build web app", || {
        files = bundle::build(&bundle::Target::site_root())?;
        Ok(())
    })?;
    steps.run("size budget", || {
        bundle::print_table(&files);
        bundle::check_budget(&files)
    })?;
    if has_e2e {
        // The same app for a sub-path, as on a static host's project site: only the
        // html changes, so cargo's build is reused.
        let explorer = bundle::Target::new("/explorer/", root().join("target/e2e-explorer"))?;
        steps.run("build web app for /explorer/", || {
            bundle::build(&explorer).map(drop)
        })?;
        steps.run("browser tests", || {
            run(cargo()
                .args(["test", "-p", "e2e"])
                .env("E2E_WEB_ROOT", bundle::dist())
                .env("E2E_EXPLORER_WEB_ROOT", &explorer.dist))
        })?;
    } else {
        println!("\nno crates/e2e yet: no browser tests to run");
    }

    println!("\nxtask test: {}", steps.summary());
    Ok(())
}

/// `soak [MINUTES]`: how long the soak runs, 10 minutes unless given.
fn minutes(args: &[String]) -> Result<u64> {
    match args.first() {
        None => Ok(10),
        Some(value) => value
            .parse()
            .ok()
            .filter(|&minutes| minutes > 0)
            .ok_or_else(|| format!("soak takes a whole number of minutes, not `{value}`").into()),
    }
}
