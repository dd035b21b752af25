//! A catalogue made to measure: the browser tests at scale and `cargo xtask bench web`
//! serve a [`LargeCatalogue`].
//!
//! Only `std`, so xtask includes this file as it is (`#[path]`) rather than building the
//! server to write a catalogue.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The data package's id.
pub const PACKAGE: &str = "9000000001";
/// The project's credentials; the catalogue holds only their SHA-256.
pub const KEY: &str = "large-catalogue-key";
pub const SECRET: &str = "large-catalogue-secret";
const KEY_SHA256: &str = "f094f36e30419a0a0b568eb72a29e93241371d5a8fb73effb5160ab1e1e70d68";
const SECRET_SHA256: &str = "1bbd8a581d11f47db1ffa209e410c1c017e08d25c37efb83daf0b95752a6d8a9";

/// The grid squares, in the order the service's areas go.
const SQUARES: &str = "HP HT HU HW HX HY HZ NA NB NC ND NF NG NH NJ NK NL NM NN NO NR NS NT NU \
    NW NX NY NZ OV SD SE TA SH SJ SK TF TG SM SN SO SP TL TM SR SS ST SU TQ TR SV SW SX SY SZ TV";

/// The id of product `i`: `Large0042`.
pub fn product_id(i: usize) -> String {
    format!("Large{i:04}")
}

/// The name of product `i`: `Large product 0042`; only product `i` has its number.
pub fn product_name(i: usize) -> String {
    format!("Large product {i:04}")
}

/// The name of the data package's file `i`: `file_00042.zip`.
pub fn file_name(i: usize) -> String {
    format!("file_{i:05}.zip")
}

/// The size of file `i`: every file a different size, in no order, 1 to 10,007 bytes.
pub fn file_size(i: usize) -> usize {
    (i * 7_919) % 10_007 + 1
}

/// Which products offer a download for every grid square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gridded {
    /// The first product only.
    First,
    /// Nine in ten: all but products 0, 10, 20, ….
    MostOfThem,
}

/// A large catalogue: many products, some offering every grid square in many formats,
/// and one data package (project [`KEY`]) whose versions hold thousands of files.
/// Products share the package's files (a catalogue may name a file several times; the
/// server measures it once), so the catalogue is large while the disk holds little.
#[derive(Debug, Clone)]
pub struct LargeCatalogue {
    /// How many products the gallery lists ([`product_id`], [`product_name`]).
    pub products: usize,
    /// Which products offer every grid square; the others offer one file for GB.
    pub gridded: Gridded,
    /// How many formats a gridded product offers each square in (`Format 01`, …).
    pub formats: usize,
    /// How many files each version of the data package lists (versions `1`, `2`, …,
    /// oldest first); each lists the first files of [`file_name`].
    pub versions: Vec<usize>,
    /// A folder holding the demo catalogue's `OpenRoads-0.jpg` and
    /// `OpenRoads-0-large.jpg`: every product's picture. No pictures when `None`.
    pub pictures: Option<PathBuf>,
}

impl LargeCatalogue {
    /// Writes `catalogue.json` and its files into `dir`.
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir_all(dir.join("files"))?;
        let largest = self.versions.iter().copied().max().unwrap_or(1);
        let paths: Vec<String> = (0..largest)
            .map(|i| format!("files/{}", file_name(i)))
            .collect();
        for (i, path) in paths.iter().enumerate() {
            fs::write(dir.join(path), vec![b'x'; file_size(i)])?;
        }
        let images = match &self.pictures {
            Some(folder) => {
                fs::create_dir_all(dir.join("images"))?;
                for name in ["OpenRoads-0.jpg", "OpenRoads-0-large.jpg"] {
                    fs::copy(folder.join(name), dir.join("images").join(name))?;
                }
                r#", "images": [{"small": "images/OpenRoads-0.jpg", "large": "images/OpenRoads-0-large.jpg"}]"#
            }
            None => "",
        };

        let download = |area: &str, format: usize, path: &str| {
            format!(r#"{{"area": "{area}", "format": "Format {format:02}", "path": "{path}"}}"#)
        };
        let grid: Vec<String> = SQUARES
            .split_whitespace()
            .flat_map(|square| (1..=self.formats).map(move |format| (square, format)))
            .enumerate()
            .map(|(i, (square, format))| download(square, format, &paths[i % paths.len()]))
            .collect();
        let grid = grid.join(", ");
        let gb_only = download("GB", 1, &paths[0]);
        let products: Vec<String> = (0..self.products)
            .map(|i| {
                let gridded = match self.gridded {
                    Gridded::First => i == 0,
                    Gridded::MostOfThem => i % 10 != 0,
                };
                format!(
                    r#"{{"id": "{}", "name": "{}", "description": "Synthetic product number {i} of a large catalogue.", "version": "20{:02}-{:02}", "category": "{}", "dataStructures": ["{}"]{images}, "downloads": [{}]}}"#,
                    product_id(i),
                    product_name(i),
                    10 + i % 15,
                    1 + i % 12,
                    ["Mapping", "Roads", "Terrain"][i % 3],
                    ["Vector", "Raster"][i % 2],
                    if gridded { &grid } else { &gb_only },
                )
            })
            .collect();

        let versions: Vec<String> = self
            .versions
            .iter()
            .enumerate()
            .map(|(n, &count)| {
                let files: Vec<String> = paths[..count].iter().map(|p| format!(r#""{p}""#)).collect();
                format!(
                    r#"{{"id": "{}", "createdOn": "2024-01-{:02}", "reason": "UPDATE", "supplyType": "FULL", "productVersion": "Synthetic", "productFormat": "ZIP", "files": [{}]}}"#,
                    n + 1,
                    n + 1,
                    files.join(", ")
                )
            })
            .collect();
        let project = format!(
            r#"{{"name": "Large", "keySha256": "{KEY_SHA256}", "secretSha256": "{SECRET_SHA256}", "dataPackages": [{{"id": "{PACKAGE}", "name": "Thousands of files", "createdOn": "2024-01-01", "productId": "{}", "productName": "{}", "versions": [{}]}}]}}"#,
            product_id(0),
            product_name(0),
            versions.join(", ")
        );
        fs::write(
            dir.join("catalogue.json"),
            format!(
                "{{\"products\": [{}],\n\"projects\": [{project}]}}\n",
                products.join(",\n")
            ),
        )
    }
}
