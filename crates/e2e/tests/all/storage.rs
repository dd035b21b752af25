//! "Download to a folder" once against the server on object storage: the demo catalogue
//! published to Garage (the server tests' engine), the files fetched by the browser from
//! the store's origin through the API's presigned redirects, which the bucket's CORS rule
//! (docs/server.md) lets the page read.
//!
//! Chromium only: the folder is the browser's origin-private file system standing in for
//! the directory picker (`pick_private_folder`), and only Chromium has both the picker and
//! `createWritable` on that file system.

use std::time::Duration;

use download_server::PublishArgs;
use e2e::Harness;

use crate::bulk::{PRODUCT_PAGE, assert_folder_holds_the_product, download_all};

#[allow(dead_code)]
#[path = "../../../download-server/tests/all/engines.rs"]
mod engines;

use engines::{Engine, Garage};

#[tokio::test]
#[cfg_attr(not(engine = "chromium"), ignore = "no folder picker")]
async fn download_to_a_folder_from_object_storage_through_presigned_redirects() {
    let garage = Garage::start().await;
    garage.allow_documented_cors();
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
    download_all(&h, 4, Duration::from_secs(30)).await;
    assert_folder_holds_the_product(&h).await;
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
