//! The direct file addresses: headers, ranges, conditional requests, signed package
//! files, and a walk over whole catalogues checking every file against its listing.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::common;
use crate::common::{
    ALPHA_KEY, SIGNING_KEY, TestServer, check_download, client, follow, header, md5_hex, read_json,
};
use download_server::signed_link::{LinkKind, SignedLink};
use download_server::signing::Signer;
use reqwest::StatusCode;
use serde_json::Value;

/// The stored (not deflated) zip of over 64 KiB, so it streams in several chunks.
const BIG: &str = "/files/products/CodePointOpen/codepo_gb.zip";

async fn listed(server: &TestServer, product: &str, file_name: &str) -> Value {
    let (_, list) = server.json(&format!("/products/{product}/downloads")).await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|d| d["fileName"] == file_name)
        .cloned()
        .unwrap()
}

#[tokio::test]
async fn product_files_carry_the_headers_clients_need() {
    let server = TestServer::start(&[]).await;
    let entry = listed(&server, "CodePointOpen", "codepo_gb.zip").await;
    let response = server
        .get_with(
            &format!("{}{BIG}", server.origin),
            &[("accept-encoding", "gzip, br")],
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    assert_eq!(header(&headers, "content-type"), "application/zip");
    assert_eq!(
        header(&headers, "content-disposition"),
        "attachment; filename=\"codepo_gb.zip\""
    );
    assert_eq!(header(&headers, "accept-ranges"), "bytes");
    assert_eq!(
        header(&headers, "etag"),
        format!("\"{}\"", entry["md5"].as_str().unwrap())
    );
    assert!(!header(&headers, "last-modified").is_empty());
    // Files are sent as they are: never re-compressed.
    assert_eq!(header(&headers, "content-encoding"), "");
    assert_eq!(
        header(&headers, "content-length"),
        entry["size"].to_string()
    );
    assert_eq!(header(&headers, "access-control-allow-origin"), "*");
    let bytes = response.bytes().await.unwrap();
    assert!(bytes.len() > 64 * 1024);
    assert_eq!(md5_hex(&bytes), entry["md5"].as_str().unwrap());

    server
        .head_like_get(&format!("{}{BIG}", server.origin), &[], bytes.len())
        .await;
}

#[tokio::test]
async fn non_ascii_names_and_empty_files_are_served_correctly() {
    let server = TestServer::start(&[]).await;
    let entry = listed(&server, "PartnerThing", "straßen uk.csv").await;
    let response = follow(&server.client, entry["url"].as_str().unwrap()).await;
    assert_eq!(
        header(response.headers(), "content-disposition"),
        "attachment; filename=\"stra_en uk.csv\"; filename*=UTF-8''stra%C3%9Fen%20uk.csv"
    );
    assert_eq!(header(response.headers(), "content-type"), "text/csv");
    check_download(&server.client, &entry).await;

    let empty = listed(&server, "PartnerThing", "empty_uk.txt").await;
    assert_eq!(empty["size"], 0);
    check_download(&server.client, &empty).await;
    let url = format!("{}/files/products/PartnerThing/empty_uk.txt", server.origin);
    let response = server.get_with(&url, &[("range", "bytes=0-")]).await;
    assert_eq!(response.status(), StatusCode::RANGE_NOT_SATISFIABLE);
}

#[tokio::test]
async fn ranges_give_206_with_the_right_bytes_or_416() {
    let server = TestServer::start(&[]).await;
    let url = format!("{}{BIG}", server.origin);
    let whole = server.get(&url).await.bytes().await.unwrap();
    let size = whole.len();
    for (range, start, end) in [
        ("bytes=0-99", 0, 99),
        ("bytes=70000-140000", 70_000, 140_000),
        (
            &format!("bytes={}-", size - 10) as &str,
            size - 10,
            size - 1,
        ),
        ("bytes=-500", size - 500, size - 1),
        (&format!("bytes=100-{}", size + 1000), 100, size - 1),
    ] {
        let response = server.get_with(&url, &[("range", range)]).await;
        assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT, "{range}");
        assert_eq!(
            header(response.headers(), "content-range"),
            format!("bytes {start}-{end}/{size}"),
            "{range}"
        );
        let bytes = response.bytes().await.unwrap();
        assert_eq!(&bytes[..], &whole[start..=end], "{range}");
    }

    // Past the end, even past what 64 bits can count.
    for range in [
        format!("bytes={size}-"),
        "bytes=18446744073709551616-".to_owned(),
    ] {
        let response = server.get_with(&url, &[("range", &range)]).await;
        assert_eq!(
            response.status(),
            StatusCode::RANGE_NOT_SATISFIABLE,
            "{range}"
        );
        assert_eq!(
            header(response.headers(), "content-range"),
            format!("bytes */{size}")
        );
        let (_, body) = read_json(response).await;
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains(&size.to_string())
        );
    }

    // A range for another version of the file (If-Range) gets the whole current file.
    let response = server
        .get_with(
            &url,
            &[
                ("range", "bytes=0-9"),
                ("if-range", "\"0123456789abcdef0123456789abcdef\""),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.bytes().await.unwrap().len(), size);

    // Resuming with the current ETag gets the rest.
    let etag = header(server.get(&url).await.headers(), "etag");
    let response = server
        .get_with(&url, &[("range", "bytes=1000-"), ("if-range", &etag)])
        .await;
    assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(&response.bytes().await.unwrap()[..], &whole[1000..]);
}

/// The web app's page, on another origin, may fetch a file in parts itself.
#[tokio::test]
async fn pages_on_other_origins_may_fetch_files_by_ranges() {
    const APP: &str = "http://explorer.example.org";
    let server = TestServer::start(&[]).await;
    let url = format!("{}{BIG}", server.origin);
    let preflight = server
        .client
        .request(reqwest::Method::OPTIONS, &url)
        .header("origin", APP)
        .header("access-control-request-method", "GET")
        .header(
            "access-control-request-headers",
            "range, if-match, if-none-match, if-range, if-modified-since, if-unmodified-since",
        )
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let headers = preflight.headers();
    assert_eq!(header(headers, "access-control-allow-origin"), "*");
    assert!(header(headers, "access-control-allow-methods").contains("GET"));
    let allowed = header(headers, "access-control-allow-headers").to_ascii_lowercase();
    for name in [
        "range",
        "if-match",
        "if-none-match",
        "if-range",
        "if-modified-since",
        "if-unmodified-since",
    ] {
        assert!(allowed.contains(name), "{name} not in {allowed}");
    }

    let whole = server.get(&url).await.bytes().await.unwrap();
    let response = server
        .get_with(&url, &[("origin", APP), ("range", "bytes=100-199")])
        .await;
    assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT);
    let headers = response.headers();
    assert_eq!(header(headers, "access-control-allow-origin"), "*");
    let exposed = header(headers, "access-control-expose-headers").to_ascii_lowercase();
    for name in ["content-length", "content-range", "etag", "accept-ranges"] {
        assert!(exposed.contains(name), "{name} not in {exposed}");
    }
    assert_eq!(
        header(headers, "content-range"),
        format!("bytes 100-199/{}", whole.len())
    );
    assert_eq!(header(headers, "content-length"), "100");
    assert_eq!(&response.bytes().await.unwrap()[..], &whole[100..200]);
}

#[tokio::test]
async fn revalidation_answers_304() {
    let server = TestServer::start(&[]).await;
    for path in [BIG, "/files/images/OpenGreenspace/0.jpg"] {
        let url = format!("{}{path}", server.origin);
        let first = server.get(&url).await;
        let etag = header(first.headers(), "etag");
        let modified = header(first.headers(), "last-modified");
        for (name, value) in [
            ("if-none-match", etag.as_str()),
            ("if-none-match", &format!("W/{etag}") as &str),
            ("if-modified-since", modified.as_str()),
        ] {
            let response = server.get_with(&url, &[(name, value)]).await;
            assert_eq!(response.status(), StatusCode::NOT_MODIFIED, "{path} {name}");
            assert_eq!(header(response.headers(), "etag"), etag);
            assert!(response.bytes().await.unwrap().is_empty());
        }
        let response = server
            .get_with(&url, &[("if-none-match", "\"something-else\"")])
            .await;
        assert_eq!(response.status(), StatusCode::OK);
    }
}

#[tokio::test]
async fn preconditions_for_another_version_fail_with_412() {
    let server = TestServer::start(&[]).await;
    let url = format!("{}{BIG}", server.origin);
    let first = server.get(&url).await;
    let etag = header(first.headers(), "etag");
    let modified = header(first.headers(), "last-modified");
    for (name, value, status) in [
        ("if-match", etag.as_str(), StatusCode::PARTIAL_CONTENT),
        ("if-match", "*", StatusCode::PARTIAL_CONTENT),
        (
            "if-match",
            "\"something-else\"",
            StatusCode::PRECONDITION_FAILED,
        ),
        (
            "if-unmodified-since",
            modified.as_str(),
            StatusCode::PARTIAL_CONTENT,
        ),
        (
            "if-unmodified-since",
            "Thu, 01 Jan 2015 00:00:00 GMT",
            StatusCode::PRECONDITION_FAILED,
        ),
    ] {
        let response = server
            .get_with(&url, &[("range", "bytes=0-9"), (name, value)])
            .await;
        assert_eq!(response.status(), status, "{name}: {value}");
        if status == StatusCode::PRECONDITION_FAILED {
            let (_, body) = read_json(response).await;
            assert!(body["message"].as_str().unwrap().contains("If-Match"));
        }
    }
}

#[tokio::test]
async fn unknown_files_are_404_json() {
    let server = TestServer::start(&[]).await;
    for path in [
        "/files/products/CodePointOpen/nope.zip",
        "/files/products/Nope/codepo_gb.zip",
        "/files/images/OpenGreenspace/2.jpg",
        "/files/images/OpenGreenspace/00.jpg",
        "/files/images/OpenGreenspace/0.png",
        "/files/images/OpenGreenspace/0-huge.jpg",
        "/files/elsewhere",
    ] {
        let response = server.get(&format!("{}{path}", server.origin)).await;
        let (status, body) = read_json(response).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            body["downloadCatalogueUrl"],
            server.api("/products"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn package_files_need_a_valid_unexpired_signature() {
    let server = TestServer::start(&[]).await;
    let response = server
        .get_with(
            &server.api(
                "/dataPackages/0040046952/versions/110013/downloads?fileName=SU_addresses_cou.zip",
            ),
            &[("key", ALPHA_KEY)],
        )
        .await;
    let location = header(response.headers(), "location");
    let file = server.get(&location).await;
    assert_eq!(file.status(), StatusCode::OK);
    assert_eq!(
        header(file.headers(), "cache-control"),
        "private, max-age=3600"
    );
    assert!(header(file.headers(), "content-disposition").contains("SU_addresses_cou.zip"));

    let (path, query) = location.split_once('?').unwrap();
    let signature = query.split("signature=").nth(1).unwrap();
    // The signed query of the listed API link for the same file.
    let version = server.alpha_version("110013").await;
    let listed = version["downloads"][0]["url"].as_str().unwrap();
    let api_query = listed.split_once("&expires=").unwrap().1;
    let forged = [
        path.to_owned(),
        location.replace("110013", "110014"),
        location.replace(signature, &other_signature(signature)),
        location.replace("expires=", "expires=1"),
        // An API link's signature does not open the file address.
        format!("{path}?expires={api_query}"),
    ];
    for url in forged {
        // The same answer as a bad link to the API, or a bad key.
        let response = server.get(&url).await;
        assert!(header(response.headers(), "www-authenticate").starts_with("Bearer"));
        let (status, body) = read_json(response).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{url}");
        assert!(
            body["message"].as_str().unwrap().contains("not valid"),
            "{body}"
        );
    }

    let past = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
        - 1;
    let link = SignedLink {
        kind: LinkKind::File,
        project: "Alpha",
        package: "0040046952",
        version: "110013",
        file_name: "SU_addresses_cou.zip",
    };
    let old = link.sign_until(&Signer::new(SIGNING_KEY.as_bytes()), past);
    let expired = format!("{path}?{old}");
    let (status, body) = read_json(server.get(&expired).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(
        body["message"].as_str().unwrap().contains("expired"),
        "{body}"
    );
}

/// The signature with its last character changed (to another canonical last
/// character of a 32-byte base64url tag).
fn other_signature(signature: &str) -> String {
    let (rest, last) = signature.split_at(signature.len() - 1);
    format!("{rest}{}", if last == "A" { "E" } else { "A" })
}

/// Every product download and image, and every data package file of each project,
/// fetched the way a client does and checked against the listed size and MD5.
async fn walk_catalogue(server: &TestServer, keys: &[&str]) -> usize {
    let mut checked = 0;
    let (status, products) = server.json("/products?expanded").await;
    assert_eq!(status, StatusCode::OK);
    for product in products.as_array().unwrap() {
        let id = product["id"].as_str().unwrap();
        let (_, downloads) =
            read_json(server.get(product["downloadsUrl"].as_str().unwrap()).await).await;
        for entry in downloads.as_array().unwrap() {
            check_download(&server.client, entry).await;
            checked += 1;
        }
        for index in 0..product["imageCount"].as_u64().unwrap() {
            for query in ["", "?large"] {
                let url = server.api(&format!("/products/{id}/images/{index}{query}"));
                let image = follow(&server.client, &url).await;
                assert_eq!(image.status(), StatusCode::OK, "{url}");
                assert!(header(image.headers(), "content-type").starts_with("image/"));
                let length = header(image.headers(), "content-length");
                assert_eq!(image.bytes().await.unwrap().len().to_string(), length);
            }
        }
    }
    for key in keys {
        let (status, packages) = server.json_with_key("/dataPackages", key).await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            !packages.as_array().unwrap().is_empty(),
            "{key} has packages"
        );
        for package in packages.as_array().unwrap() {
            for version in package["versions"].as_array().unwrap() {
                let response = server
                    .get_with(version["url"].as_str().unwrap(), &[("key", *key)])
                    .await;
                let (_, detail) = read_json(response).await;
                for entry in detail["downloads"].as_array().unwrap() {
                    // As listed, with no credentials.
                    check_download(&client(), entry).await;
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[tokio::test]
async fn every_fixture_file_matches_its_listing() {
    let server = TestServer::start(&[]).await;
    let checked = walk_catalogue(&server, &[ALPHA_KEY, common::BETA_KEY]).await;
    assert_eq!(checked, 12 + 6);
}

#[tokio::test]
async fn every_demo_file_matches_its_listing() {
    // The embedded demo, with the credentials the README gives.
    let server = TestServer::start_bare(&[]).await;
    let checked = walk_catalogue(&server, &["alpha-demo-key", "beta-demo-key"]).await;
    assert!(checked > 100, "only {checked} files in the demo");
}

#[tokio::test]
async fn embedded_demo_files_support_ranges_and_revalidation() {
    let server = TestServer::start_bare(&[]).await;
    let (_, list) = server.json("/products/OpenRoads/downloads").await;
    let entry = &list[0];
    let first = follow(&server.client, entry["url"].as_str().unwrap()).await;
    let etag = header(first.headers(), "etag");
    let whole = first.bytes().await.unwrap();
    let direct = format!(
        "{}/files/products/OpenRoads/{}",
        server.origin,
        entry["fileName"].as_str().unwrap()
    );
    let size = whole.len();
    let response = server.get_with(&direct, &[("range", "bytes=5-24")]).await;
    assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        header(response.headers(), "content-range"),
        format!("bytes 5-24/{size}")
    );
    assert_eq!(&response.bytes().await.unwrap()[..], &whole[5..25]);
    let response = server
        .get_with(&direct, &[("range", &format!("bytes={}-", size + 1))])
        .await;
    assert_eq!(response.status(), StatusCode::RANGE_NOT_SATISFIABLE);
    let response = server.get_with(&direct, &[("if-none-match", &etag)]).await;
    assert_eq!(response.status(), StatusCode::NOT_MODIFIED);
    server.head_like_get(&direct, &[], size).await;
}
