//! `cargo xtask bench shapes`: a detailed 5 MB boundary of Great Britain read the way the
//! web app's worker reads a dropped file (area-shapes' `Reading`, a slice at a time), as
//! GeoJSON, KML, GPX and a zipped shapefile; the goal is no task of the page over
//! 100 ms.
//!
//! Natively first: `crates/area-shapes/examples/bench.rs`, built and run here in release,
//! which also writes the files. Then in the browser: the release build of the app, served
//! by the release server, with each of those files chosen on a product page in headless
//! Chromium (`crates/e2e/src/bin/bench_shapes.rs`, which prints both side by side).

use crate::bundle;
use crate::exec::{Result, cargo, command, run, target_dir};
use crate::server::start_ours;
use crate::tools;

pub fn bench() -> Result {
    // Removed when dropped, after the server (locals drop in reverse order).
    let files = tempfile::Builder::new()
        .prefix("xtask-bench-shapes-")
        .tempdir()
        .map_err(|error| format!("cannot create a temporary directory: {error}"))?;
    run(cargo()
        .args([
            "run",
            "--release",
            "--quiet",
            "-p",
            "area-shapes",
            "--example",
            "bench",
            "--",
            "--write",
        ])
        .arg(files.path()))?;

    tools::ensure_build_tools()?;
    tools::ensure_browser()?;
    let app = bundle::Target::site_root();
    bundle::build(&app)?;
    run(cargo().args(["build", "--release", "-p", "download-server"]))?;
    run(cargo().args(["build", "-p", "e2e", "--bin", "bench_shapes"]))?;
    let server = start_ours("release", Some(&app.dist), &[])?;
    run(command(target_dir().join("debug/bench_shapes"))
        .env("BENCH_SHAPES_BASE", &server.base)
        .env("BENCH_SHAPES_FILES", files.path()))
}
