//! `cargo xtask bench web`: the web app at issue 11's sizes (1,000 products, a data
//! package version of 10,000 files) and on a slow network, next to plain-JS pages
//! rendering the same JSON from the same server, in headless Chromium.
//!
//! Builds the app and the release server, writes the large catalogue (the server's
//! `LargeCatalogue`, `crates/download-server/src/testing/catalogue.rs`) into a temporary directory, and starts two servers
//! with the app and the reference pages (`tools/bench-web/*.html`, under `/bench/`): one
//! with the large catalogue, one with the demo catalogue (the slow-4G first load is
//! measured on the catalogue users meet first). The browser part,
//! `crates/e2e/src/bin/bench_web.rs`, measures and prints the table. Not a timed test:
//! it measures this machine as it is at the moment, so it reads ratios, not times.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use crate::bundle;
use crate::exec::{Result, cargo, command, root, run, target_dir};
use crate::server::{Server, start_ours};
use crate::tools;

// The server's test catalogue builder, std only: included rather than building the
// server here. Only the builder and its credentials are used.
#[allow(dead_code)]
#[path = "../../crates/download-server/src/testing/catalogue.rs"]
mod catalogue;

use catalogue::{Gridded, LargeCatalogue};

/// Runs the whole comparison, three runs unless `BENCH_WEB_RUNS` says otherwise; with
/// `--profile`, profiles the app instead (built with its function names); with
/// `slow_4g`, the slow-4G figures alone. The app is built first unless `E2E_WEB_ROOT`
/// names one already built (as when comparing two builds).
pub fn bench(profile: bool, slow_4g: bool) -> Result {
    let profile = profile.then(|| target_dir().join("bench-web-profile"));
    tools::ensure_build_tools()?;
    tools::ensure_browser()?;
    let app = match &profile {
        Some(profile) => bundle::Target {
            dist: profile.join("dist"),
            names: true,
            ..bundle::Target::site_root()
        },
        None => bundle::Target::site_root(),
    };
    let built = match std::env::var_os("E2E_WEB_ROOT") {
        Some(dir) if profile.is_none() => PathBuf::from(dir),
        _ => {
            bundle::build(&app)?;
            app.dist
        }
    };
    run(cargo().args(["build", "--release", "-p", "download-server"]))?;
    run(cargo().args(["build", "-p", "e2e", "--bin", "bench_web"]))?;

    // Removed when dropped, after the servers (locals drop in reverse order).
    let work = tempfile::Builder::new()
        .prefix("xtask-bench-web-")
        .tempdir()
        .map_err(|error| format!("cannot create a temporary directory: {error}"))?;
    let web_root = work.path().join("web");
    copy_dir(&built, &web_root)?;
    let pages = web_root.join("bench");
    fs::create_dir_all(&pages)?;
    for page in ["gallery.html", "gallery.js", "version.html", "version.js"] {
        fs::copy(root().join("tools/bench-web").join(page), pages.join(page))?;
    }
    let large = work.path().join("catalogue");
    // Issue 11's sizes: nine products in ten offer every grid square in three formats.
    let catalogue = LargeCatalogue {
        products: 1000,
        gridded: Gridded::MostOfThem,
        formats: 3,
        versions: vec![9800, 9900, 10_000],
        pictures: Some(root().join("crates/download-server/demo/images")),
    };
    println!(
        "writing the catalogue: {} products, package versions of {:?} files",
        catalogue.products, catalogue.versions
    );
    catalogue.write(&large)?;

    let large = start_server(&web_root, Some(&large))?;
    let demo = start_server(&web_root, None)?;
    let mut browser = command(target_dir().join("debug/bench_web"));
    if let Some(profile) = &profile {
        browser.env("BENCH_WEB_PROFILE", profile);
    }
    if slow_4g {
        browser.env("BENCH_WEB_SLOW_4G_ONLY", "1");
    }
    run(browser
        .env("BENCH_WEB_LARGE", &large.base)
        .env("BENCH_WEB_DEMO", &demo.base)
        .env("BENCH_WEB_KEY", catalogue::KEY)
        .env("BENCH_WEB_SECRET", catalogue::SECRET))
}

/// The release server with the app and reference pages in `web_root`, and `catalogue`
/// (the demo catalogue when `None`).
fn start_server(web_root: &Path, catalogue: Option<&Path>) -> Result<Server> {
    // The benchmark takes minutes; one sign-in must last it.
    let mut args: Vec<&OsStr> = vec!["--token-ttl".as_ref(), "86400".as_ref()];
    if let Some(catalogue) = catalogue {
        args.extend(["--catalogue".as_ref(), catalogue.as_os_str()]);
    }
    start_ours("release", Some(web_root), &args)
}

/// Copies the built app, sub-folders included.
fn copy_dir(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
