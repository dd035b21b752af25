//! The large catalogue `cargo xtask bench web` serves (issue 11's sizes): 1,000 products,
//! most with GB plus the 55 grid squares in three formats, and one data package whose
//! versions hold 9,800, 9,900 and 10,000 files.
//!
//! Products share one set of tiny files (a catalogue may name a file several times; the
//! server measures it once), so the catalogue is large while the disk holds little.
//! Included by xtask (`xtask/src/bench_web.rs`), which runs it.

use std::fs;
use std::io;
use std::path::Path;

/// How many products the gallery lists.
pub const PRODUCTS: usize = 1000;
/// Every tenth product has only a GB file in one format; the others the full grid.
const SMALL_PRODUCT_EVERY: usize = 10;
/// Files in each version of the data package, oldest first.
pub const VERSION_FILES: [usize; 3] = [9800, 9900, 10_000];
/// The versions' ids, oldest first.
pub const VERSION_IDS: [&str; 3] = ["900001", "900002", "900003"];
/// The data package's id.
pub const PACKAGE: &str = "0090000001";
/// The project's credentials; the catalogue holds only their SHA-256.
pub const KEY: &str = "bench-web-key";
pub const SECRET: &str = "bench-web-secret";
const KEY_SHA256: &str = "6f3da9fc303b6c55a0dbcfcd8e6eddf92de032adbca0c24efd9e2534d53749ab";
const SECRET_SHA256: &str = "dbc256c13c541497ee2a500a46580075c7a6b75150fc57810fd581a3c93abf44";

/// What every product's name starts with: the text the benchmark waits for.
pub const NAME_PREFIX: &str = "Bench Product ";

/// The name of product `i` (`Bench Product 0042`): only product `i` matches its number.
pub fn product_name(i: usize) -> String {
    format!("{NAME_PREFIX}{i:04}")
}

/// The name of file `i` of the data package (`tile_00042.zip`).
pub fn package_file(i: usize) -> String {
    format!("tile_{i:05}.zip")
}

const SQUARES: &str = "HP HT HU HW HX HY HZ NA NB NC ND NF NG NH NJ NK NL NM NN NO NR NS NT NU \
    NW NX NY NZ OV SD SE TA SH SJ SK TF TG SM SN SO SP TL TM SR SS ST SU TQ TR SV SW SX SY SZ TV";
const FORMATS: [&str; 3] = ["GeoPackage", "GML", "ESRI Shapefile"];

/// Writes `catalogue.json` and its files into `dir`; `images` is a folder holding the
/// demo catalogue's `OpenRoads-0.jpg` and `OpenRoads-0-large.jpg` (the thumbnails).
pub fn write(dir: &Path, images: &Path) -> io::Result<()> {
    for folder in ["files", "images", "packages"] {
        fs::create_dir_all(dir.join(folder))?;
    }
    for name in ["OpenRoads-0.jpg", "OpenRoads-0-large.jpg"] {
        fs::copy(images.join(name), dir.join("images").join(name))?;
    }

    let areas: Vec<&str> = std::iter::once("GB")
        .chain(SQUARES.split_whitespace())
        .collect();
    let mut full_grid = Vec::new();
    for format in FORMATS {
        let short = format.split_whitespace().next().unwrap_or(format);
        for area in &areas {
            let path = format!("files/{}_{}.zip", short.to_lowercase(), area.to_lowercase());
            fs::write(dir.join(&path), format!("{format} {area}\n"))?;
            full_grid.push(format!(
                r#"{{"area": "{area}", "format": "{format}", "path": "{path}"}}"#
            ));
        }
    }
    let full_grid = full_grid.join(", ");
    let gb_only = r#"{"area": "GB", "format": "GeoPackage", "path": "files/geopackage_gb.zip"}"#;

    let products: Vec<String> = (0..PRODUCTS)
        .map(|i| {
            let downloads = if i % SMALL_PRODUCT_EVERY == 0 {
                gb_only
            } else {
                &full_grid
            };
            format!(
                r#"{{"id": "Bench{i:04}", "name": "{}", "description": "Generated for the web benchmark: mapping of the whole country.", "version": "2026-{:02}", "category": "Mapping", "images": [{{"small": "images/OpenRoads-0.jpg", "large": "images/OpenRoads-0-large.jpg"}}], "downloads": [{downloads}]}}"#,
                product_name(i),
                i % 12 + 1,
            )
        })
        .collect();

    let largest = VERSION_FILES.iter().copied().max().unwrap_or(0);
    for i in 0..largest {
        fs::write(
            dir.join("packages").join(package_file(i)),
            format!("tile {i}\n"),
        )?;
    }
    let versions: Vec<String> = VERSION_IDS
        .iter()
        .zip(VERSION_FILES)
        .enumerate()
        .map(|(n, (id, count))| {
            let files: Vec<String> = (0..count)
                .map(|i| format!(r#""packages/{}""#, package_file(i)))
                .collect();
            format!(
                r#"{{"id": "{id}", "createdOn": "2026-0{}-01", "reason": "{}", "supplyType": "FULL", "productVersion": "Bench {id}", "productFormat": "CSV", "files": [{}]}}"#,
                n + 1,
                if n == 0 { "INITIAL" } else { "UPDATE" },
                files.join(", ")
            )
        })
        .collect();
    let project = format!(
        r#"{{"name": "Bench", "keySha256": "{KEY_SHA256}", "secretSha256": "{SECRET_SHA256}", "dataPackages": [{{"id": "{PACKAGE}", "name": "Bench Tiles", "createdOn": "2026-01-01", "productId": "ABPOSTSLA", "productName": "AddressBase", "versions": [{}]}}]}}"#,
        versions.join(", ")
    );
    fs::write(
        dir.join("catalogue.json"),
        format!(
            "{{\"products\": [{}], \"projects\": [{project}]}}\n",
            products.join(",\n")
        ),
    )
}
