//! "Download to a folder" once against the server on object storage: the demo catalogue
//! published to Garage (the server tests' engine), the files fetched by the browser from
//! the store's origin through the API's presigned redirects, which the bucket's CORS rule
//! (docs/server.md) lets the page read.
//!
//! Chromium only: the folder is the browser's origin-private file system standing in for
//! the directory picker (`pick_private_folder`), and only Chromium has both the picker and
//! `createWritable` on that file system.

use std::collections::BTreeMap;
use std::time::Duration;

use download_server::PublishArgs;
use e2e::{Harness, md5_hex};

use crate::bulk::folder_md5s;

#[allow(dead_code)]
#[path = "../../../download-server/tests/all/engines.rs"]
mod engines;

use engines::{Engine, Garage};

/// Four small files: OpenTOID's CSV and GeoPackage for SU and SZ.
const PRODUCT_PAGE: &str = "/products/OpenTOID?areas=SU,SZ";
const PRODUCT_FILES: [&str; 4] = [
    "optoid_csv_su.zip",
    "optoid_csv_sz.zip",
    "optoid_gpkg_su.zip",
    "optoid_gpkg_sz.zip",
];

/// The rule docs/server.md asks buckets for, in Garage's admin API form.
fn cors_rule() -> serde_json::Value {
    serde_json::json!({
        "AllowedOrigin": ["*"],
        "AllowedMethod": ["GET", "HEAD"],
        "AllowedHeader": ["*"],
        "ExposeHeader": ["Content-Length", "Content-Range", "Content-Disposition", "ETag",
            "Accept-Ranges", "Last-Modified"],
        "MaxAgeSeconds": 3600
    })
}

#[tokio::test]
async fn download_to_a_folder_from_object_storage_through_presigned_redirects() {
    if !e2e::runs_in(
        &[e2e::Engine::Chromium],
        "\"Download to a folder\" needs showDirectoryPicker, Chromium's alone",
    ) {
        return;
    }
    let garage = Garage::start().await;
    garage.allow_cors(&cors_rule()).await;
    // `object_store`'s names for the engine's variables, so that nothing is set in
    // this process's environment.
    let options: Vec<(String, String)> = garage
        .env()
        .into_iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), value))
        .collect();
    let demo = e2e::workspace_root().join("crates/download-server/demo");
    let storage = garage.storage_url("e2e");
    let publish = PublishArgs {
        dir: demo.clone(),
        storage: storage.clone(),
        jobs: 16,
        storage_options: options.clone(),
    };
    download_server::publish(&publish)
        .await
        .expect("the demo catalogue publishes");

    let web_root = e2e::web_root().display().to_string();
    let server = e2e::our_server_configured(
        &["--web-root", &web_root, "--storage", &storage],
        |mut config| {
            config.storage_options = options;
            config
        },
    )
    .await;
    let h = Harness::open(server.origin.clone(), vec![server]).await;
    h.pick_private_folder().await;
    h.goto(PRODUCT_PAGE).await;
    h.find(".downloads-table tbody tr").await;
    let button = h.find(".folder-download .folder-controls .button").await;
    assert_eq!(button.text().await.unwrap(), "Download to a folder");
    button.click().await.expect("click Download to a folder");
    let summary = h
        .wait_for_text_within(".bulk-summary", "Done", Duration::from_secs(30))
        .await;
    assert!(
        summary.contains("4 downloaded, 0 skipped, 0 failed"),
        "{summary}"
    );

    let mut found = folder_md5s(&h).await;
    assert!(found.remove("download-report.json").is_some(), "no report");
    let want: BTreeMap<String, String> = PRODUCT_FILES
        .iter()
        .map(|name| {
            let bytes = std::fs::read(demo.join("files/OpenTOID").join(name)).unwrap();
            (name.to_string(), md5_hex(&bytes))
        })
        .collect();
    assert_eq!(found, want);
    // The server holds no file bytes (its catalogue is the store's): each redirect the
    // page followed led to the store's origin.
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let redirect = no_redirects
        .get(format!(
            "{}/downloads/v1/products/OpenTOID/downloads?area=SU&format=CSV&redirect",
            h.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(redirect.status(), reqwest::StatusCode::TEMPORARY_REDIRECT);
    let location = redirect.headers()["location"].to_str().unwrap();
    assert!(location.starts_with(&garage.origin()), "{location}");
    h.stop().await;
}
