//! Starting the server: configuration, and the errors that stop it with a reason.

mod common;

use std::path::PathBuf;

use clap::Parser;
use download_server::{Config, Error};

fn config(args: &[&str]) -> Config {
    Config::try_parse_from(std::iter::once("download-server").chain(args.iter().copied())).unwrap()
}

/// A copy of the fixture catalogue with `catalogue.json` replaced by `text`.
fn catalogue_with(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "download-server-start-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("files")).unwrap();
    std::fs::write(dir.join("files/a.zip"), b"PK").unwrap();
    std::fs::write(dir.join("catalogue.json"), text).unwrap();
    dir
}

fn start_error(args: &[&str]) -> String {
    match download_server::router(&config(args)) {
        Ok(_) => panic!("{args:?} should not start"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn broken_catalogues_name_the_file_and_the_problem() {
    let product = |path: &str| {
        format!(
            r#"{{"products": [{{"id": "P", "name": "n", "description": "d", "version": "2024-01",
                "downloads": [{{"area": "GB", "format": "CSV", "path": "{path}"}}]}}]}}"#
        )
    };
    let cases = [
        (
            "missing-file",
            product("files/x.zip"),
            "files/x.zip: No such file",
        ),
        (
            "escape",
            product("../a.zip"),
            "../a.zip: paths may not contain",
        ),
        (
            "typo",
            "{\n  \"products\": [],\n  \"projets\": []\n}".to_owned(),
            "catalogue.json line 3 column 11: unknown field `projets`",
        ),
        (
            "not-json",
            "{\"products\": [".to_owned(),
            "catalogue.json line 1 column 14: EOF while parsing",
        ),
    ];
    for (name, text, expected) in cases {
        let dir = catalogue_with(name, &text);
        let message = start_error(&["--catalogue", dir.to_str().unwrap()]);
        assert!(message.starts_with(expected), "{name}: {message}");
        std::fs::remove_dir_all(dir).unwrap();
    }
    let good = catalogue_with("good", &product("files/a.zip"));
    assert!(download_server::router(&config(&["--catalogue", good.to_str().unwrap()])).is_ok());
    std::fs::remove_dir_all(good).unwrap();

    let message = start_error(&["--catalogue", "/no/such/catalogue"]);
    assert!(
        message.starts_with("catalogue.json: No such file"),
        "{message}"
    );
}

#[test]
fn bad_options_are_refused_before_serving() {
    let message = start_error(&["--public-url", "maps.example.org"]);
    assert!(message.contains("http://"), "{message}");
    let message = start_error(&["--web-root", "/no/such/dir"]);
    assert!(message.contains("index.html"), "{message}");
    assert!(Config::try_parse_from(["download-server", "--listen", "nowhere"]).is_err());
    assert!(Config::try_parse_from(["download-server", "--token-ttl", "-5"]).is_err());
}

#[test]
fn errors_are_one_enum_with_matchable_variants() {
    let dir = catalogue_with("variant", "[]");
    let err =
        download_server::router(&config(&["--catalogue", dir.to_str().unwrap()])).unwrap_err();
    assert!(
        matches!(err, Error::CatalogueSyntax { line: 1, .. }),
        "{err:?}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn serving_stops_gracefully_when_asked() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(download_server::serve_with_shutdown(
        config(&["--catalogue", common::fixture().to_str().unwrap()]),
        listener,
        async {
            let _ = stopped.await;
        },
    ));
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
