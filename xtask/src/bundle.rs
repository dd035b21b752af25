//! Building the web app into `dist/`, precompressing it for the server, and measuring
//! what a browser downloads on first load.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use flate2::Compression;
use flate2::write::GzEncoder;

use crate::build_target::size_toolchain;
pub use crate::build_target::{Target, dist};
use crate::exec::{Result, cargo, run};
use crate::split;

/// The standing goal for the gallery's first load (html + js + main wasm + css,
/// brotli; the other pages' chunks load on demand). Not met: split by route it is
/// about 227 kB, of which Leptos, its router and serde_json alone make about 107 kB
/// (a bare app with a router, a fetch and a list, built the same way), so `cargo
/// xtask test` reports the gap instead of failing.
pub const GOAL_BYTES: u64 = 150_000;

/// The most the first load may weigh today: the last measured size plus a small margin,
/// so growth fails CI. Lower it whenever the app shrinks. 222.1 kB: 221.0 kB once the
/// prompt that renews a session in place loaded with the sign-in page (it was 225.8 kB).
/// A Welsh page loads the Welsh build (`cy/`) instead, of about the same size.
pub const LIMIT_BYTES: u64 = 222_100;

/// The files the server sends precompressed: the first load's and the chunks.
const FIRST_LOAD_EXTENSIONS: [&str; 4] = ["html", "js", "wasm", "css"];
/// Data the product page fetches, precompressed too (places: 47 kB raw, about 10 kB
/// brotli), the download worker a zip download registers and the folder's worker (not
/// part of the first load), the stylesheets of pages loaded on demand
/// (`src/stylesheet.rs`), and the catalogues whose words load with their features
/// (`text::later`). Not `config.json`: deployers edit it in place, and a stale `.br`
/// would win.
const ON_DEMAND_DATA: [&str; 8] = [
    "places.json",
    "download-worker.js",
    "folder-worker.js",
    "map.css",
    "bulk.css",
    "pages.css",
    "en.json",
    "cy.json",
];

/// One file of the built app and its size raw, gzip'd and brotli'd.
#[derive(Debug)]
pub struct FileSize {
    /// Path relative to `dist/`.
    pub name: String,
    /// Whether the gallery (`/`) loads it at start; a page's chunk loads on demand.
    pub first_load: bool,
    pub raw: u64,
    pub gzip: u64,
    pub brotli: u64,
}

/// The deployable app for `target.public_url` into `target.dist`: built split by route
/// ([`crate::split`]), a `.br` and a `.gz` next to every html, js, wasm and css file,
/// and `404.html`. Returns every file's sizes.
pub fn build(target: &Target) -> Result<Vec<FileSize>> {
    let first = build_first(target)?;
    build_rest(target, first)
}

/// [`split::build_first`], precompressed: what a server needs for a first page.
pub fn build_first(target: &Target) -> Result<split::FirstBuild> {
    // The standard library's crates too, for `-Zbuild-std`.
    run(cargo().arg("fetch"))?;
    run(size_toolchain(&mut cargo()).args(["fetch", "--target", "wasm32-unknown-unknown"]))?;
    let first = split::build_first(target)?;
    precompress(&target.dist)?;
    Ok(first)
}

/// [`split::build_rest`] beside `first`, precompressed (the files `first` wrote and did
/// not change are not compressed again), and `404.html`. Returns every file's sizes.
pub fn build_rest(target: &Target, first: split::FirstBuild) -> Result<Vec<FileSize>> {
    split::build_rest(target, first)?;
    let sizes = precompress(&target.dist)?;
    write_not_found_page(&target.dist)?;
    Ok(sizes)
}

/// Static hosts (GitHub Pages, Netlify, most buckets behind a CDN) answer an unknown
/// path with the site's `404.html`: as a copy of `index.html` it boots the app, which
/// then shows the route in the address. Written after precompressing, so it is not
/// counted twice in the first load.
fn write_not_found_page(dist: &Path) -> Result {
    fs::copy(dist.join("index.html"), dist.join("404.html"))
        .map_err(|error| format!("cannot write {}/404.html: {error}", dist.display()))?;
    Ok(())
}

fn precompress(dist: &Path) -> Result<Vec<FileSize>> {
    let mut files = Vec::new();
    find_precompressed_files(dist, &mut files)?;
    files.sort();
    if !files
        .iter()
        .any(|file| file.extension() == Some("wasm".as_ref()))
    {
        return Err(format!("the build wrote no .wasm file into {}", dist.display()).into());
    }

    // Brotli at its best quality is most of a cached build's minute: a thread a core.
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let next = AtomicUsize::new(0);
    let compressed: Vec<std::result::Result<Vec<FileSize>, String>> = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                        done.push(compress(dist, file).map_err(|error| error.to_string())?);
                    }
                    Ok(done)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().expect("a compressing thread panicked"))
            .collect()
    });
    let mut sizes = Vec::new();
    for done in compressed {
        sizes.extend(done?);
    }
    // In the order of their paths, as listed.
    sizes.sort_by(|a, b| Path::new(&a.name).cmp(Path::new(&b.name)));
    Ok(sizes)
}

/// Writes `file`'s `.gz` and `.br` copies beside it, unless both are newer than it
/// already, and says how big each is.
fn compress(dist: &Path, file: &Path) -> Result<FileSize> {
    let [gz, br] = [".gz", ".br"].map(|suffix| with_suffix(file, suffix));
    let size = |path: &Path| fs::metadata(path).map(|metadata| metadata.len());
    let (raw, gzip, brotli) = if is_newer(&gz, file)? && is_newer(&br, file)? {
        (size(file)?, size(&gz)?, size(&br)?)
    } else {
        let raw = fs::read(file)?;
        let (gzip, brotli) = (gzip(&raw)?, brotli(&raw)?);
        fs::write(gz, &gzip)?;
        fs::write(br, &brotli)?;
        (raw.len() as u64, gzip.len() as u64, brotli.len() as u64)
    };
    let name = file.strip_prefix(dist)?.display().to_string();
    Ok(FileSize {
        // The Welsh build (`cy/`) is a Welsh page's first load, not an English one's.
        first_load: !split::is_chunk(&name)
            && !is_on_demand_data(file)
            && !name.starts_with(&format!("{}/", split::WELSH_DIR)),
        name,
        raw,
        gzip,
        brotli,
    })
}

/// Whether `copy` exists and was written after `original`.
fn is_newer(copy: &Path, original: &Path) -> Result<bool> {
    let modified = |path: &Path| fs::metadata(path).and_then(|metadata| metadata.modified());
    Ok(match modified(copy) {
        Ok(copied) => copied >= modified(original)?,
        Err(_) => false,
    })
}

fn find_precompressed_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result {
    for entry in
        fs::read_dir(dir).map_err(|error| format!("cannot read {}: {error}", dir.display()))?
    {
        let path = entry?.path();
        if path.is_dir() {
            find_precompressed_files(&path, files)?;
        } else if path
            .extension()
            .and_then(|extension| extension.to_str())
            .is_some_and(|extension| FIRST_LOAD_EXTENSIONS.contains(&extension))
            || is_on_demand_data(&path)
        {
            files.push(path);
        }
    }
    Ok(())
}

fn is_on_demand_data(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| ON_DEMAND_DATA.contains(&name))
}

/// `app.wasm` becomes `app.wasm.br`: the names the server looks for.
fn with_suffix(file: &Path, suffix: &str) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn gzip(data: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(data)?;
    Ok(encoder.finish()?)
}

/// Brotli at its best quality (11) with the default 4 MB window.
fn brotli(data: &[u8]) -> Result<Vec<u8>> {
    let mut compressed = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut compressed, 64 * 1024, 11, 22);
        writer.write_all(data)?;
    }
    Ok(compressed)
}

/// Brotli bytes a Welsh page loads at start: the same html and css, and the Welsh build's
/// own js and wasm (`cy/`, not its chunks) instead of the English ones.
fn welsh_first_load(files: &[FileSize]) -> u64 {
    let code = |name: &str| name.ends_with(".js") || name.ends_with(".wasm");
    let welsh = format!("{}/", split::WELSH_DIR);
    files
        .iter()
        .filter(|file| {
            if let Some(name) = file.name.strip_prefix(&welsh) {
                code(name) && !split::is_chunk(name)
            } else {
                file.first_load && !code(&file.name)
            }
        })
        .map(|file| file.brotli)
        .sum()
}

/// The sums of the files the gallery loads at start (`first_load`) or of the others.
fn total(files: &[FileSize], first_load: bool) -> FileSize {
    let files = || files.iter().filter(|file| file.first_load == first_load);
    FileSize {
        name: if first_load {
            "first load"
        } else {
            "on demand"
        }
        .to_string(),
        first_load,
        raw: files().map(|file| file.raw).sum(),
        gzip: files().map(|file| file.gzip).sum(),
        brotli: files().map(|file| file.brotli).sum(),
    }
}

/// The size table: the first-load files and their total against the budget, then
/// the files loaded on demand (the pages' chunks, their data) and theirs.
pub fn print_table(files: &[FileSize]) {
    let (total, chunks) = (total(files, true), total(files, false));
    let width = files
        .iter()
        .map(|file| file.name.len())
        .max()
        .unwrap_or(0)
        .max(total.name.len());
    let row = |file: &FileSize| {
        println!(
            "{:width$}  {:>10}  {:>10}  {:>10}",
            file.name,
            kilobytes(file.raw),
            kilobytes(file.gzip),
            kilobytes(file.brotli)
        );
    };
    println!(
        "{:width$}  {:>10}  {:>10}  {:>10}",
        "file", "raw", "gzip", "brotli"
    );
    for first_load in [false, true] {
        files
            .iter()
            .filter(|file| file.first_load == first_load)
            .for_each(row);
        row(if first_load { &total } else { &chunks });
        println!();
    }
    println!(
        "{} files loaded on demand: {} brotli in all",
        files.iter().filter(|file| !file.first_load).count(),
        kilobytes(chunks.brotli)
    );
    println!(
        "first load (html + js + wasm + css, brotli): {} ({} bytes); goal {}, limit {}",
        kilobytes(total.brotli),
        total.brotli,
        kilobytes(GOAL_BYTES),
        kilobytes(LIMIT_BYTES)
    );
    // Not held to the limit yet: it is over it (docs/performance.md, First load).
    let welsh = welsh_first_load(files);
    println!(
        "Welsh first load (cy/'s js and wasm instead): {} ({welsh} bytes)",
        kilobytes(welsh)
    );
    if total.brotli > GOAL_BYTES {
        println!(
            "note: {} over the {} goal",
            kilobytes(total.brotli - GOAL_BYTES),
            kilobytes(GOAL_BYTES)
        );
    }
}

/// Fails, with the figures, when the first load has grown past the limit.
pub fn check_budget(files: &[FileSize]) -> Result {
    let brotli = total(files, true).brotli;
    if brotli <= LIMIT_BYTES {
        return Ok(());
    }
    let largest = files
        .iter()
        .filter(|file| file.first_load)
        .max_by_key(|file| file.brotli)
        .map(|file| format!("; largest: {} at {}", file.name, kilobytes(file.brotli)))
        .unwrap_or_default();
    Err(format!(
        "first load is {} brotli ({brotli} bytes), {} over the {} limit{largest}",
        kilobytes(brotli),
        kilobytes(brotli - LIMIT_BYTES),
        kilobytes(LIMIT_BYTES)
    )
    .into())
}

/// Decimal kilobytes, as the budget and the app's own size display use.
fn kilobytes(bytes: u64) -> String {
    format!("{:.1} kB", bytes as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, brotli: u64) -> FileSize {
        FileSize {
            name: name.to_string(),
            first_load: !split::is_chunk(name),
            raw: brotli * 3,
            gzip: brotli + 10,
            brotli,
        }
    }

    #[test]
    fn budget_counts_every_first_load_file() {
        let wasm = LIMIT_BYTES - 1_000;
        let within = [
            file("index.html", 1_000),
            file("download-explorer-00ff_bg.wasm", wasm),
        ];
        assert!(check_budget(&within).is_ok());

        // A page's chunk, loaded on demand, is not part of the first load.
        let with_chunk = [
            file("index.html", 1_000),
            file("download-explorer-00ff_bg.wasm", wasm),
            file("split_product_page-00ff.wasm", LIMIT_BYTES),
        ];
        assert!(check_budget(&with_chunk).is_ok());

        let over = [
            file("index.html", 1_001),
            file("download-explorer-00ff_bg.wasm", wasm),
        ];
        let error = check_budget(&over).unwrap_err().to_string();
        let total = LIMIT_BYTES + 1;
        assert!(error.contains(&format!("({total} bytes)")), "{error}");
        assert!(
            error.contains("largest: download-explorer-00ff_bg.wasm"),
            "{error}"
        );
    }

    #[test]
    fn a_welsh_page_loads_the_same_html_and_css_and_its_own_code() {
        let welsh = |name: &str, brotli| FileSize {
            first_load: false,
            ..file(name, brotli)
        };
        let files = [
            file("index.html", 1),
            file("style-00ff.css", 10),
            file("download-explorer-00ff.js", 100),
            file("download-explorer-00ff_bg.wasm", 1_000),
            file("split_product_page-00ff.wasm", 10_000),
            welsh("cy/download-explorer-11ee.js", 200),
            welsh("cy/download-explorer-11ee_bg.wasm", 2_000),
            welsh("cy/split_product_page-11ee.wasm", 20_000),
        ];
        assert_eq!(welsh_first_load(&files), 1 + 10 + 200 + 2_000);
    }

    #[test]
    fn compressed_files_decompress_to_the_original() {
        let data = b"<!doctype html><title>Download Explorer</title>".repeat(50);

        let mut unzipped = Vec::new();
        let gzipped = gzip(&data).unwrap();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(&gzipped[..]),
            &mut unzipped,
        )
        .unwrap();
        assert_eq!(unzipped, data);

        let mut unbrotlied = Vec::new();
        let brotlied = brotli(&data).unwrap();
        brotli::BrotliDecompress(&mut &brotlied[..], &mut unbrotlied).unwrap();
        assert_eq!(unbrotlied, data);
        assert!(brotlied.len() < data.len() / 10);
    }
}
