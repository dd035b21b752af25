use std::sync::Arc;

use md5::Digest;
use serde_json::{Value, json};
use tempfile::TempDir;

use super::*;
use crate::Error;
use crate::links::Links;

/// A throwaway catalogue directory with these files and this `catalogue.json`; it is
/// removed when dropped, even when a test fails.
struct TempCatalogue(TempDir);

impl TempCatalogue {
    fn new(catalogue: &Value, files: &[(&str, &[u8])]) -> TempCatalogue {
        let dir = TempDir::new().unwrap();
        for (path, bytes) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, bytes).unwrap();
        }
        let text = serde_json::to_string_pretty(catalogue).unwrap();
        std::fs::write(dir.path().join(CATALOGUE_FILE), text).unwrap();
        TempCatalogue(dir)
    }

    fn load(&self) -> Result<Catalogue, Error> {
        let source = Source::Directory(self.0.path().to_owned());
        Catalogue::load(&source, &Links::new("http://h"))
    }
}

const SHA_A: &str = "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b";
const SHA_B: &str = "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d";

fn product(downloads: Value) -> Value {
    json!({
        "id": "OpenThing", "name": "Open Thing", "description": "d", "version": "2024-10",
        "images": [{"small": "images/a.jpg", "large": "images/a-large.jpg"}],
        "downloads": downloads
    })
}

fn files() -> Vec<(&'static str, &'static [u8])> {
    vec![
        ("images/a.jpg", b"small"),
        ("images/a-large.jpg", b"large!"),
        ("f/thing_gml3_su.zip", b"one"),
        ("f/thing_gml_su.zip", b"two"),
        ("f/thing_shp_gb.zip", b"three"),
        ("f/thing_shp_ss.zip", b"four"),
    ]
}

fn json_of(body: &CachedJson) -> Value {
    serde_json::from_slice(body.bytes()).unwrap()
}

#[test]
fn products_get_derived_fields_and_urls_that_select_one_file() {
    let catalogue = TempCatalogue::new(
        &json!({"products": [product(json!([
            {"area": "SU", "format": "GML", "subformat": "3", "path": "f/thing_gml3_su.zip"},
            {"area": "SU", "format": "GML", "path": "f/thing_gml_su.zip"},
            {"area": "GB", "format": "ESRI® Shapefile", "path": "f/thing_shp_gb.zip"},
            {"area": "SS", "format": "ESRI® Shapefile", "path": "f/thing_shp_ss.zip"},
        ]))]}),
        &files(),
    );
    let loaded = catalogue.load().unwrap();
    let product = json_of(&loaded.product("OpenThing").unwrap().json);
    assert_eq!(product["areas"], json!(["GB", "SS", "SU"]));
    assert_eq!(
        product["formats"],
        json!([
            {"format": "GML", "subformat": "3"},
            {"format": "GML"},
            {"format": "ESRI® Shapefile"}
        ])
    );
    assert_eq!(product["imageCount"], 1);
    assert_eq!(
        product["imageTemplate"],
        "http://h/downloads/v1/products/OpenThing/images/{index}"
    );
    assert_eq!(
        product["downloadsUrl"],
        "http://h/downloads/v1/products/OpenThing/downloads"
    );

    let downloads = json_of(&loaded.product("OpenThing").unwrap().downloads_json);
    let urls: Vec<&str> = downloads
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["url"].as_str().unwrap())
        .collect();
    let base = "http://h/downloads/v1/products/OpenThing/downloads?";
    assert_eq!(
        urls,
        [
            format!("{base}area=SU&format=GML&subformat=3&redirect"),
            // Without a subformat filter this would also select the GML 3 file.
            format!("{base}area=SU&format=GML&fileName=thing_gml_su.zip&redirect"),
            format!("{base}area=GB&format=ESRI%C2%AE%20Shapefile&redirect"),
            format!("{base}area=SS&format=ESRI%C2%AE%20Shapefile&redirect"),
        ]
    );
    assert_eq!(downloads[0]["size"], 3);
    assert_eq!(
        downloads[0]["md5"],
        format!("{:x}", md5::Md5::digest(b"one"))
    );
    assert_eq!(downloads[0]["fileName"], "thing_gml3_su.zip");

    let summary = json_of(&loaded.products_summary_json);
    assert_eq!(
        summary,
        json!([{"id": "OpenThing", "name": "Open Thing", "description": "d",
                "version": "2024-10", "url": "http://h/downloads/v1/products/OpenThing"}])
    );
    assert_eq!(json_of(&loaded.products_expanded_json)[0], product);
}

#[test]
fn package_versions_link_to_their_neighbours() {
    let version = |id: &str, file: &str| {
        json!({"id": id, "createdOn": "2021-01-20", "reason": "UPDATE", "supplyType": "COU",
               "productVersion": "v", "productFormat": "CSV", "files": [file]})
    };
    let catalogue = TempCatalogue::new(
        &json!({"projects": [{
            "name": "Alpha", "keySha256": SHA_A, "secretSha256": SHA_B,
            "dataPackages": [{
                "id": "P1", "name": "N", "createdOn": "2021-01-20", "productId": "X",
                "productName": "Y",
                "versions": [version("1", "f/a.zip"), version("2", "f/b.zip"), version("3", "f/a.zip")]
            }]
        }]}),
        &[("f/a.zip", b"a"), ("f/b.zip", b"b")],
    );
    let loaded = catalogue.load().unwrap();
    let package = loaded.package("P1").unwrap();
    let url = |v: &str| format!("http://h/downloads/v1/dataPackages/P1/versions/{v}");
    assert_eq!(package.versions[0].previous_version_url, None);
    assert_eq!(package.versions[0].next_version_url, Some(url("2")));
    assert_eq!(package.versions[1].previous_version_url, Some(url("1")));
    assert_eq!(package.versions[2].next_version_url, None);
    assert_eq!(package.version("latest").unwrap().summary.id, "3");
    assert_eq!(
        package.versions[1].summary.data_package_url.as_deref(),
        Some("http://h/downloads/v1/dataPackages/P1")
    );
    // The same file in two versions is measured once and shared.
    assert!(Arc::ptr_eq(
        &package.versions[0].files[0].content,
        &package.versions[2].files[0].content
    ));
    let listed = json_of(&loaded.projects().next().unwrap().1.packages_json);
    assert_eq!(listed[0]["versions"].as_array().unwrap().len(), 3);
    assert_eq!(listed[0]["url"], "http://h/downloads/v1/dataPackages/P1");
}

#[test]
fn syntax_errors_name_the_file_line_and_problem() {
    let dir = TempCatalogue::new(&json!({}), &[]);
    let cases = [
        (
            "{\n  \"products\": [],\n  \"prodcts\": []\n}\n",
            "catalogue.json line 3 column 11: unknown field `prodcts`",
        ),
        (
            "{\"products\": [",
            "catalogue.json line 1 column 14: EOF while parsing",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(dir.0.path().join(CATALOGUE_FILE), text).unwrap();
        let err = dir.load().unwrap_err().to_string();
        assert!(err.starts_with(expected), "{err}");
    }
}

#[test]
fn broken_catalogues_are_refused_with_the_reason() {
    let ok_download = json!([{"area": "SU", "format": "GML", "path": "f/thing_gml3_su.zip"}]);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "missing file",
            json!({"products": [product(json!([{"area": "SU", "format": "GML", "path": "f/nope.zip"}]))]}),
            "f/nope.zip: No such file",
        ),
        (
            "escaping path",
            json!({"products": [product(json!([{"area": "SU", "format": "GML", "path": "../x.zip"}]))]}),
            "../x.zip: paths may not contain",
        ),
        (
            "duplicate product",
            json!({"products": [product(ok_download.clone()), product(ok_download.clone())]}),
            "catalogue.json: product id 'OpenThing' appears twice",
        ),
        (
            "bad product id",
            json!({"products": [{"id": "a b", "name": "n", "description": "d", "version": "v"}]}),
            "catalogue.json: product id 'a b' may only use",
        ),
        (
            "duplicate file name",
            json!({"products": [product(json!([
                {"area": "SU", "format": "GML", "path": "f/thing_gml3_su.zip"},
                {"area": "SS", "format": "GML", "path": "f/thing_gml3_su.zip"}
            ]))]}),
            "lists the file name 'thing_gml3_su.zip' twice",
        ),
        (
            "bad key hash",
            json!({"projects": [{"name": "A", "keySha256": "abc", "secretSha256": SHA_B}]}),
            "project 'A': keySha256 must be",
        ),
        (
            "shared key",
            json!({"projects": [
                {"name": "A", "keySha256": SHA_A, "secretSha256": SHA_B},
                {"name": "B", "keySha256": SHA_A, "secretSha256": SHA_B}
            ]}),
            "project 'B' has the same API key",
        ),
        (
            "latest as a version id",
            json!({"projects": [{"name": "A", "keySha256": SHA_A, "secretSha256": SHA_B,
                "dataPackages": [{"id": "P", "name": "N", "createdOn": "d", "productId": "X",
                    "productName": "Y", "versions": [{"id": "latest", "createdOn": "d",
                    "reason": "INITIAL", "supplyType": "FULL", "productVersion": "v",
                    "productFormat": "CSV"}]}]}]}),
            "version ids must be unique and not 'latest'",
        ),
    ];
    for (name, catalogue, expected) in cases {
        let dir = TempCatalogue::new(&catalogue, &files());
        let err = dir.load().expect_err(name).to_string();
        assert!(err.contains(expected), "{name}: {err}");
    }
}
