//! The built app as the tests serve it: the same files, with the harness's recorders
//! (`preload.js`) as the first script of `index.html` and `404.html`.
//!
//! Why not the browser's own "run this script in every new document" (CDP's
//! `Page.addScriptToEvaluateOnNewDocument`): only Chromium has it; geckodriver and
//! WebKitWebDriver speak plain WebDriver, whose scripts run after the page's. A file the
//! page loads itself works in every engine, and under the app's Content-Security-Policy
//! (`script-src 'self'`) as any same-origin script does.

use std::fs;
use std::io;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use crate::md5_hex;

/// The recorders, served as `<base>/__e2e-preload.js`.
pub const PRELOAD: &str = include_str!("preload.js");
/// The preload script's file name in the prepared web root.
pub const PRELOAD_FILE: &str = "__e2e-preload.js";
/// An empty page of the app's origin, where the harness writes the tab's
/// sessionStorage before the app's first page (see `Harness::preload`).
pub const BLANK_FILE: &str = "__e2e-blank.html";

/// The pages that get the preload script; their compressed copies are left out, so a
/// server sends the changed page in their place.
const PAGES: [&str; 2] = ["index.html", "404.html"];

/// A copy of the built app at `root` with the preload script in its pages: a folder in
/// the system's temporary folder named after what it holds (so every test of a run
/// shares it, and a rebuilt app gets a new one), its files symbolic links to `root`'s.
pub fn prepare(root: &Path) -> io::Result<PathBuf> {
    let mut names = Vec::new();
    list(root, Path::new(""), &mut names)?;
    names.sort();
    let mut key = format!("{}\n{PRELOAD}\n", root.display());
    for page in PAGES {
        key.push_str(&fs::read_to_string(root.join(page)).unwrap_or_default());
    }
    for name in &names {
        key.push_str(&name.display().to_string());
        key.push('\n');
    }
    let prepared = std::env::temp_dir().join(format!("e2e-web-root-{}", md5_hex(key.as_bytes())));
    if prepared.join(BLANK_FILE).is_file() {
        return Ok(prepared);
    }
    // Written aside and renamed into place, so a second test process never sees half.
    let staging = tempfile::Builder::new()
        .prefix("e2e-web-root-staging")
        .tempdir()?;
    for name in &names {
        let file_name = name.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let is_page = |page: &str| {
            name.parent() == Some(Path::new(""))
                && (file_name == page
                    || file_name == format!("{page}.br")
                    || file_name == format!("{page}.gz"))
        };
        if PAGES.iter().any(|page| is_page(page)) {
            continue;
        }
        let target = staging.path().join(name);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        symlink(root.join(name).canonicalize()?, target)?;
    }
    for page in PAGES {
        if let Ok(html) = fs::read_to_string(root.join(page)) {
            fs::write(staging.path().join(page), with_preload(&html))?;
        }
    }
    fs::write(staging.path().join(PRELOAD_FILE), PRELOAD)?;
    fs::write(
        staging.path().join(BLANK_FILE),
        "<!doctype html><html lang=\"en\"><title>e2e</title><link rel=\"icon\" href=\"data:,\"></html>\n",
    )?;
    let staged = staging.keep();
    if fs::rename(&staged, &prepared).is_err() {
        // Another test process got there first with the same files.
        let _ = fs::remove_dir_all(&staged);
    }
    Ok(prepared)
}

/// `html` with the preload script before its first script (after `<base>` and any
/// Content-Security-Policy, so relative to the app's base and under its policy).
pub fn with_preload(html: &str) -> String {
    let tag = format!("<script src=\"{PRELOAD_FILE}\"></script>\n    ");
    match html.find("<script") {
        Some(at) => format!("{}{tag}{}", &html[..at], &html[at..]),
        None => html.replacen("</head>", &format!("{tag}</head>"), 1),
    }
}

/// Every file below `dir` (relative to the web root, as `prefix/name`).
fn list(root: &Path, prefix: &Path, names: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(root.join(prefix))? {
        let entry = entry?;
        let name = prefix.join(entry.file_name());
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if fs::metadata(entry.path())?.is_dir() {
            list(root, &name, names)?;
        } else {
            names.push(name);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::with_preload;

    #[test]
    fn the_preload_comes_before_the_first_script() {
        let html =
            "<head><base href=\"/x/\"><script>go()</script><script src=a.js></script></head>";
        assert_eq!(
            with_preload(html),
            "<head><base href=\"/x/\"><script src=\"__e2e-preload.js\"></script>\n    \
             <script>go()</script><script src=a.js></script></head>"
        );
    }
}
