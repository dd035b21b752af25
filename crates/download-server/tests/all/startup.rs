//! Starting the server: configuration, and the errors that stop it with a reason.

use clap::Parser;
use download_server::{Config, Error, Server};
use tempfile::TempDir;

use crate::common;

fn config(args: &[&str]) -> Config {
    Config::try_parse_from(std::iter::once("download-server").chain(args.iter().copied())).unwrap()
}

/// A catalogue directory holding `files/a.zip` and `text` as its `catalogue.json`,
/// removed when dropped.
fn catalogue_with(text: &str) -> TempDir {
    let dir = TempDir::new().unwrap();
    std::fs::create_dir_all(dir.path().join("files")).unwrap();
    std::fs::write(dir.path().join("files/a.zip"), b"PK").unwrap();
    std::fs::write(dir.path().join("catalogue.json"), text).unwrap();
    dir
}

fn path(dir: &TempDir) -> &str {
    dir.path().to_str().unwrap()
}

/// A server with `args`, on a free port.
async fn start(args: &[&str]) -> Result<Server, Error> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    Server::new(config(args), listener)
}

async fn start_error(args: &[&str]) -> String {
    match start(args).await {
        Ok(_) => panic!("{args:?} should not start"),
        Err(err) => err.to_string(),
    }
}

/// Every way a catalogue can be broken is tested where it is loaded
/// (`src/catalogue/tests.rs`); here, that the server refuses to start with the reason.
#[tokio::test]
async fn broken_catalogues_stop_the_start_naming_the_file_and_the_problem() {
    let product = |path: &str| {
        format!(
            r#"{{"products": [{{"id": "P", "name": "n", "description": "d", "version": "2024-01",
                "downloads": [{{"area": "GB", "format": "CSV", "path": "{path}"}}]}}]}}"#
        )
    };
    let broken = catalogue_with(&product("files/x.zip"));
    let message = start_error(&["--catalogue", path(&broken)]).await;
    assert!(
        message.starts_with("files/x.zip: No such file"),
        "{message}"
    );
    let good = catalogue_with(&product("files/a.zip"));
    assert!(start(&["--catalogue", path(&good)]).await.is_ok());

    let message = start_error(&["--catalogue", "/no/such/catalogue"]).await;
    assert!(
        message.starts_with("catalogue.json: No such file"),
        "{message}"
    );
}

#[tokio::test]
async fn bad_options_are_refused_before_serving() {
    let message = start_error(&["--public-url", "maps.example.org"]).await;
    assert!(message.contains("http://"), "{message}");
    let message = start_error(&["--web-root", "/no/such/dir"]).await;
    assert!(message.contains("index.html"), "{message}");
    assert!(Config::try_parse_from(["download-server", "--listen", "nowhere"]).is_err());
    assert!(Config::try_parse_from(["download-server", "--token-ttl", "-5"]).is_err());
}

#[tokio::test]
async fn errors_are_one_enum_with_matchable_variants() {
    let dir = catalogue_with("[]");
    let err = start(&["--catalogue", path(&dir)]).await.unwrap_err();
    assert!(
        matches!(err, Error::CatalogueSyntax { line: 1, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn serving_stops_gracefully_when_asked() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = Server::new(
        config(&["--catalogue", common::fixture().to_str().unwrap()]),
        listener,
    )
    .unwrap();
    let server = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    let response = common::client()
        .get(format!("{origin}/downloads/v1/products"))
        .send()
        .await
        .unwrap();
    // No --public-url: links use the address actually bound.
    let products: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        products[0]["url"],
        format!("{origin}/downloads/v1/products/OpenGreenspace")
    );
    stop.send(()).unwrap();
    let result = tokio::time::timeout(std::time::Duration::from_secs(10), server)
        .await
        .expect("the server stops")
        .unwrap();
    assert!(result.is_ok());
}
