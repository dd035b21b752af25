//! The project's commands, run from anywhere in the checkout as `cargo xtask <command>`
//! (`cargo xtask help` lists them): `run`, `dev`, `build` and `test` are the README's;
//! `size`, `screenshots`, `schemathesis`, `soak`, `bench` and `fuzz` measure and check.

mod bench;
mod bench_download;
mod bench_shapes;
mod bench_storage;
mod bench_web;
mod browser_tests;
mod build_target;
mod bundle;
mod csp;
mod dev;
mod exec;
mod fuzz;
#[cfg(test)]
mod layers;
mod schemathesis;
mod server;
mod soak;
mod split;
mod tools;

use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::thread;

use clap::{Parser, Subcommand};

use exec::{Result, Running, Steps, cargo, command, root, run};

/// The project's commands: `cargo xtask <command>`.
#[derive(Debug, Parser)]
#[command(bin_name = "cargo xtask", about = "The project's commands")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Install missing tools, build the web app and run the server with the demo catalogue
    Run {
        /// Arguments for download-server, e.g. `-- --listen 0.0.0.0:8080`
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        server_args: Vec<String>,
    },
    /// The server on 127.0.0.1:8080 and `trunk serve` (rebuilding on every change) on
    /// http://127.0.0.1:8081/; Ctrl-C stops both
    Dev {
        /// Arguments for download-server
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        server_args: Vec<String>,
    },
    /// The deployable web app (release, precompressed, with 404.html)
    Build {
        /// The path the app is served under: the site root or a sub-path such as /explorer/
        #[arg(long, default_value = "/")]
        public_url: String,
        /// Where to write it, relative to the checkout [default: dist/]
        #[arg(long)]
        dist: Option<PathBuf>,
        /// Keep the wasm's function names, for CPU profiles
        #[arg(long)]
        names: bool,
    },
    /// What CI runs: tools, Cargo.lock, fmt, clippy, unit tests, build, size budget, browser tests
    Test,
    /// Build the web app and print each file's raw/gzip/brotli size
    Size,
    /// Build the web app and save the README's screenshots (docs/screenshots/)
    Screenshots,
    /// The server's OpenAPI document tested against the live server (schemathesis, pinned)
    Schemathesis,
    /// The release server under 256 connections mixing every endpoint; fails on any error or
    /// growing memory
    Soak {
        /// How long, in minutes
        #[arg(default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
        minutes: u64,
    },
    /// Requests/s and CPU per request of the release server next to nginx serving the same
    /// bytes; or the web app's benchmarks
    Bench {
        #[command(subcommand)]
        what: Option<Bench>,
    },
    /// Every cargo-fuzz target in fuzz/ on the pinned nightly
    Fuzz {
        /// How long each target runs, in seconds
        #[arg(default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
        seconds: u64,
    },
}

#[derive(Debug, Subcommand)]
enum Bench {
    /// The web app's zip in Chromium, Firefox and WebKit next to a plain-JS service worker
    /// (the floor), the same fed by a plain-JS worker through a port (the port floor) and
    /// fetch-and-discard, with the page's longest task meanwhile; its
    /// download to a folder (Chromium) next to a plain-JS page and curl; for 200 small
    /// files and one 1 GB file (`E2E_WEB_ROOT`: an app already built)
    Download,
    /// The server on object storage (Garage): presigned redirects against its own links,
    /// and `publish` against `aws s3 cp --recursive`
    Storage,
    /// Reading a detailed 5 MB boundary file (GeoJSON, KML, GPX, zipped shapefile) in the
    /// app's slices: natively in release, and chosen on a product page in headless
    /// Chromium (total time and long tasks)
    Shapes,
    /// The web app at 1,000 products and 10,000 files, and on slow 4G, next to plain-JS pages
    /// (`E2E_WEB_ROOT`: an app already built)
    Web {
        /// The app alone, once, with CPU profiles of each step (target/bench-web-profile/)
        #[arg(long)]
        profile: bool,
        /// The slow-4G figures alone
        #[arg(long, conflicts_with = "profile")]
        slow_4g: bool,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Run { server_args } => run_product(&server_args),
        Command::Dev { server_args } => dev::dev(&server_args),
        Command::Build {
            public_url,
            dist,
            names,
        } => build_target(&public_url, dist, names).and_then(|target| build(&target)),
        Command::Test => test(),
        Command::Size => size(),
        Command::Screenshots => screenshots(),
        Command::Schemathesis => schemathesis::run_against_server(),
        Command::Soak { minutes } => soak::soak(minutes),
        Command::Bench { what: None } => bench::bench(),
        Command::Bench {
            what: Some(Bench::Download),
        } => bench_download::bench(),
        Command::Bench {
            what: Some(Bench::Storage),
        } => bench_storage::bench(),
        Command::Bench {
            what: Some(Bench::Shapes),
        } => bench_shapes::bench(),
        Command::Bench {
            what: Some(Bench::Web { profile, slow_4g }),
        } => bench_web::bench(profile, slow_4g),
        Command::Fuzz { seconds } => fuzz::fuzz(seconds),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("\nerror: {error}");
            ExitCode::FAILURE
        }
    }
}

/// What `build` makes: for `public_url`, into `dist` (relative to the checkout).
fn build_target(public_url: &str, dist: Option<PathBuf>, names: bool) -> Result<bundle::Target> {
    let dist = dist.map_or_else(bundle::dist, |dist| root().join(dist));
    Ok(bundle::Target {
        names,
        ..bundle::Target::new(public_url, dist)?
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
    // The server's release build (minutes: fat LTO) needs none of the web app's tools, so
    // it runs while they install and the app builds (in its own target directory).
    println!("building download-server (release) in the background");
    let server_build = Running::spawn(
        "the release build of download-server",
        cargo().args(["build", "--release", "--quiet", "-p", "download-server"]),
    )?;
    tools::ensure_build_tools()?;
    // What a first page needs is served as soon as it is built; the Welsh build and the
    // workers (minutes more on a fresh machine) follow, and the server reads them in.
    let target = bundle::Target::site_root();
    let first = bundle::build_first(&target)?;
    server_build.finish()?;
    let mut server = Running::spawn(
        "download-server",
        command(exec::target_dir().join("release/download-server"))
            .args(server_args)
            .arg("--web-root")
            .arg(&target.dist)
            .stdout(Stdio::piped()),
    )?;
    let url = forward_first_line(&mut server)?;
    println!(
        "the English app is served; building the Welsh app and the workers (a few minutes \
         more: until then a Welsh page is in English, and reading a shape file or a bulk \
         download fails)"
    );
    let files = bundle::build_rest(&target, first)?;
    bundle::print_table(&files);
    // The server reads its web root again on SIGHUP.
    run(command("kill").args(["-HUP", &server.child.id().to_string()]))?;
    println!("all of the app is served now at {url}; Ctrl-C stops the server");
    server.finish()
}

/// Waits for the server's first line on stdout (`… listening on http://…`), prints it
/// and returns its address, and passes on whatever else the server prints.
fn forward_first_line(server: &mut Running) -> Result<String> {
    let mut stdout = BufReader::new(server.child.stdout.take().ok_or("no stdout")?);
    let mut line = String::new();
    stdout.read_line(&mut line)?;
    if line.is_empty() {
        let status = server.child.wait()?;
        return Err(format!("download-server stopped ({status})").into());
    }
    print!("{line}");
    thread::spawn(move || io::copy(&mut stdout, &mut io::stdout()));
    Ok(line
        .split_whitespace()
        .last()
        .unwrap_or_default()
        .to_owned())
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
    let mut steps = Steps::new();

    steps.run("tools", || {
        tools::ensure_build_tools()?;
        // wasm-bindgen-test-runner, for the component tests.
        tools::ensure_wasm_bindgen()?;
        tools::ensure_browsers()?;
        tools::ensure_storage_engines()
    })?;
    // Before any other cargo command can quietly update it: CI builds what is committed.
    steps.run("Cargo.lock", || {
        run(cargo().args(["fetch", "--locked"]))?;
        // The fuzz targets are a workspace of their own, with their own lock file.
        run(cargo().args(["fetch", "--locked", "--manifest-path", "fuzz/Cargo.toml"]))
    })?;
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
        // Unsplit, as `trunk serve` builds it: `--bin` with no package, so features are
        // resolved over every default member, as trunk's `cargo build` does. Then split by
        // route, as the release does, and the workers.
        for package in [
            &["--bin", "download-explorer", "--features", "trunk"][..],
            &["-p", "download-explorer", "--features", "split"],
            &["-p", "shape-worker"],
            &["-p", "bulk-worker"],
        ] {
            run(cargo()
                .arg("clippy")
                .args(package)
                .args(["--target", "wasm32-unknown-unknown"])
                .args(["--", "-D", "warnings"]))?;
        }
        Ok(())
    })?;
    steps.run("unit tests", || {
        run(cargo()
            .args(["test", "--workspace", "--exclude", "e2e"])
            .envs(tools::storage_test_env()))
    })?;
    steps.run("component tests", || {
        // The web app's components mounted in headless Chromium (src/browser_tests.rs),
        // by wasm-bindgen-test's runner through chromedriver.
        run(cargo()
            .args(["test", "-p", "download-explorer"])
            .args(["--target", "wasm32-unknown-unknown"])
            .env(
                "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
                "wasm-bindgen-test-runner",
            )
            .env("CHROMEDRIVER", "chromedriver"))
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
    // The same app for a sub-path, as on a static host's project site: only the html
    // changes, so cargo's build is reused.
    let explorer = bundle::Target::new("/explorer/", root().join("target/e2e-explorer"))?;
    steps.run("build web app for /explorer/", || {
        bundle::build(&explorer).map(drop)
    })?;
    // The same tests once per engine (crates/e2e's `Engine`), each run built for its
    // engine (`E2E_BROWSER` is a cfg, so cargo rebuilds them): a test that cannot run in
    // an engine is ignored there with its reason, and each engine's count is what ran.
    let mut flaky = Vec::new();
    for (step, engine) in [
        ("browser tests in chromium", "chromium"),
        ("browser tests in firefox", "firefox"),
        ("browser tests in webkit", "webkit"),
    ] {
        steps.run(step, || {
            let names = browser_tests::run_in(engine, &bundle::dist(), &explorer.dist)?;
            flaky.extend(names.into_iter().map(|name| format!("{name} in {engine}")));
            Ok(())
        })?;
    }

    println!("\nxtask test: {}", steps.summary());
    if !flaky.is_empty() {
        println!(
            "flaky (failed, then passed on its own): {}",
            flaky.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::{Bench, Cli, Command};

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn server_arguments_pass_through_with_or_without_a_separator() {
        for args in [
            &["xtask", "run", "--", "--listen", "0.0.0.0:8080"][..],
            &["xtask", "run", "--listen", "0.0.0.0:8080"][..],
        ] {
            let Command::Run { server_args } = Cli::parse_from(args).command else {
                panic!("{args:?} is not `run`");
            };
            assert_eq!(server_args, ["--listen", "0.0.0.0:8080"]);
        }
    }

    #[test]
    fn counts_must_be_whole_and_positive() {
        assert!(Cli::try_parse_from(["xtask", "soak", "0"]).is_err());
        assert!(Cli::try_parse_from(["xtask", "fuzz", "ten"]).is_err());
        assert!(matches!(
            Cli::parse_from(["xtask", "soak"]).command,
            Command::Soak { minutes: 10 }
        ));
        assert!(matches!(
            Cli::parse_from(["xtask", "bench", "web", "--profile"]).command,
            Command::Bench {
                what: Some(Bench::Web {
                    profile: true,
                    slow_4g: false
                })
            }
        ));
    }
}
