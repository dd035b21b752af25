//! Open products: listing, details, downloads with filters and redirects, images,
//! and the API's shared behaviour (errors, 405, CORS, compression).

use crate::common::{TestServer, check_download, header, ids, read_json};
use reqwest::StatusCode;
use serde_json::{Value, json};

#[tokio::test]
async fn products_list_summaries_unless_expanded() {
    let server = TestServer::start(&[]).await;
    let (status, list) = server.json("/products").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        ids(&list),
        ["OpenGreenspace", "CodePointOpen", "PartnerThing"]
    );
    assert_eq!(
        list[0],
        json!({
            "id": "OpenGreenspace",
            "name": "OS Open Greenspace",
            "description": "Parks, playing fields and other green spaces.",
            "version": "2024-10",
            "url": server.api("/products/OpenGreenspace"),
        })
    );

    let (_, expanded) = server.json("/products?expanded").await;
    let greenspace = &expanded[0];
    assert_eq!(greenspace["imageCount"], 2);
    assert_eq!(greenspace["areas"], json!(["GB", "SS", "SU"]));
    assert_eq!(greenspace["category"], "Land & height");
    assert_eq!(greenspace["dataStructures"], json!(["Vector"]));
    assert_eq!(
        greenspace["downloadsUrl"],
        server.api("/products/OpenGreenspace/downloads")
    );
    assert_eq!(
        greenspace["formats"],
        json!([
            {"format": "GeoPackage"},
            {"format": "GML", "subformat": "3"},
            {"format": "ESRI® Shapefile"},
            {"format": "Vector Tiles", "subformat": "(MBTiles)"}
        ])
    );
    // Partner quirks survive: free-form version, an area outside the spec's list.
    assert_eq!(expanded[2]["version"], "Version 5");
    assert_eq!(expanded[2]["areas"], json!(["UK"]));
}

/// Which values a boolean parameter takes is tested in download-api (`parse_flag`);
/// here, the answer to a bad one on each endpoint that has one.
#[tokio::test]
async fn bad_boolean_parameters_are_a_400_naming_the_parameter() {
    let server = TestServer::start(&[]).await;
    for path in [
        "/products?expanded=yes",
        "/products/OpenGreenspace/downloads?redirect=1",
        "/products/OpenGreenspace/images/0?large=big",
    ] {
        let (status, body) = server.json(path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        let message = body["message"].as_str().unwrap();
        let name = path.split(['?', '=']).nth(1).unwrap();
        assert!(message.contains(&format!("'{name}'")), "{message}");
    }
}

#[tokio::test]
async fn an_unknown_area_is_a_400_naming_the_allowed_ones() {
    let server = TestServer::start(&[]).await;
    for query in ["area=ZZ", "area=", "area=gb"] {
        let (status, body) = server
            .json(&format!("/products/OpenGreenspace/downloads?{query}"))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        let message = body["message"].as_str().unwrap();
        assert!(message.contains("'area'"), "{message}");
        // The spec's areas, then those the catalogue adds.
        assert!(message.contains("GB, HP, HT"), "{message}");
        assert!(message.contains("TV, UK,"), "{message}");
    }
}

#[tokio::test]
async fn one_product_in_full_or_a_404_with_the_catalogue_link() {
    let server = TestServer::start(&[]).await;
    let (status, product) = server.json("/products/CodePointOpen").await;
    assert_eq!(status, StatusCode::OK);
    let (_, expanded) = server.json("/products?expanded").await;
    assert_eq!(product, expanded[1]);
    assert_eq!(product["imageCount"], 0);
    assert!(product.get("imageTemplate").is_none());

    let body = server.not_found("/products/NoSuchThing").await;
    assert!(body["message"].as_str().unwrap().contains("NoSuchThing"));
    assert_eq!(body["downloadCatalogueUrl"], server.api("/products"));
    let body = server.not_found("/products/NoSuchThing/downloads").await;
    assert_eq!(body["downloadCatalogueUrl"], server.api("/products"));
}

#[tokio::test]
async fn download_list_carries_real_service_urls_that_each_select_one_file() {
    let server = TestServer::start(&[]).await;
    let (status, list) = server.json("/products/OpenGreenspace/downloads").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list.as_array().unwrap().len(), 6);
    assert_eq!(
        list[1]["url"],
        server.api("/products/OpenGreenspace/downloads?area=SS&format=GML&subformat=3&redirect")
    );
    assert_eq!(list[1]["fileName"], "opgrsp_gml3_ss.zip");
    assert_eq!(list[1]["area"], "SS");
    assert_eq!(list[1]["format"], "GML");
    assert_eq!(list[1]["subformat"], "3");
    assert_eq!(
        list[2]["url"],
        server.api(
            "/products/OpenGreenspace/downloads?area=SS&format=ESRI%C2%AE%20Shapefile&redirect"
        )
    );

    // Two CSVs of one area and format: the url needs the file name to pick one.
    let (_, partner) = server.json("/products/PartnerThing/downloads").await;
    assert_eq!(
        partner[0]["url"],
        server.api(
            "/products/PartnerThing/downloads?area=UK&format=CSV&fileName=partner_uk_a.csv&redirect"
        )
    );

    // Every listed url redirects to exactly its entry, and the file matches it.
    for product in ["OpenGreenspace", "CodePointOpen", "PartnerThing"] {
        let (_, list) = server.json(&format!("/products/{product}/downloads")).await;
        for entry in list.as_array().unwrap() {
            let url = entry["url"].as_str().unwrap();
            let response = server.get(url).await;
            assert_eq!(response.status(), StatusCode::TEMPORARY_REDIRECT, "{url}");
            assert!(header(response.headers(), "location").contains("/files/products/"));
            let (_, body) = read_json(response).await;
            assert_eq!(&body, entry, "{url}");
            check_download(&server.client, entry).await;
        }
    }
}

#[tokio::test]
async fn filters_combine_and_format_names_arrive_encoded_either_way() {
    let server = TestServer::start(&[]).await;
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|d| d["fileName"].as_str().unwrap().to_owned())
            .collect()
    };
    let cases = [
        (
            "format=ESRI%C2%AE%20Shapefile",
            vec!["opgrsp_essh_ss.zip", "opgrsp_essh_su.zip"],
        ),
        (
            "format=ESRI%C2%AE+Shapefile",
            vec!["opgrsp_essh_ss.zip", "opgrsp_essh_su.zip"],
        ),
        (
            "format=ESRI%C2%AE+Shapefile&area=SU",
            vec!["opgrsp_essh_su.zip"],
        ),
        ("area=SS", vec!["opgrsp_gml3_ss.zip", "opgrsp_essh_ss.zip"]),
        (
            "format=GML&subformat=3",
            vec!["opgrsp_gml3_ss.zip", "opgrsp_gml3_su.zip"],
        ),
        ("subformat=%28MBTiles%29", vec!["opgrsp_mbtiles_gb.zip"]),
        ("fileName=opgrsp_gpkg_gb.zip", vec!["opgrsp_gpkg_gb.zip"]),
        ("area=SU&format=GeoPackage", vec![]),
        // An area the catalogue uses, though the spec does not list it.
        ("area=UK", vec![]),
        (
            "redirect=false&area=GB",
            vec!["opgrsp_gpkg_gb.zip", "opgrsp_mbtiles_gb.zip"],
        ),
        (
            "key=ignored&unknown=1",
            vec![
                "opgrsp_gpkg_gb.zip",
                "opgrsp_gml3_ss.zip",
                "opgrsp_essh_ss.zip",
                "opgrsp_essh_su.zip",
                "opgrsp_gml3_su.zip",
                "opgrsp_mbtiles_gb.zip",
            ],
        ),
    ];
    for (query, expected) in cases {
        let (status, list) = server
            .json(&format!("/products/OpenGreenspace/downloads?{query}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{query}");
        assert_eq!(names(&list), expected, "{query}");
    }
    // A non-ASCII file name filters too.
    let (_, list) = server
        .json("/products/PartnerThing/downloads?fileName=stra%C3%9Fen+uk.csv")
        .await;
    assert_eq!(names(&list), ["straßen uk.csv"]);
}

#[tokio::test]
async fn redirect_needs_exactly_one_match() {
    let server = TestServer::start(&[]).await;
    let one =
        server
            .get(&server.api(
                "/products/OpenGreenspace/downloads?area=SU&format=ESRI%C2%AE+Shapefile&redirect",
            ))
            .await;
    assert_eq!(one.status(), StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(
        header(one.headers(), "location"),
        format!(
            "{}/files/products/OpenGreenspace/opgrsp_essh_su.zip",
            server.origin
        )
    );
    let (_, body) = read_json(one).await;
    assert_eq!(body["fileName"], "opgrsp_essh_su.zip");
    assert_eq!(body["format"], "ESRI® Shapefile");

    for query in ["area=SS&redirect", "redirect", "area=SS&redirect=true"] {
        let (status, list) = server
            .json(&format!("/products/OpenGreenspace/downloads?{query}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{query}");
        assert!(list.as_array().unwrap().len() > 1, "{query}");
    }
    let (status, list) = server
        .json("/products/OpenGreenspace/downloads?area=TQ&redirect")
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list, json!([]));
}

#[tokio::test]
async fn images_redirect_to_small_or_large_thumbnails_within_bounds() {
    let server = TestServer::start(&[]).await;
    let files = format!("{}/files/images/OpenGreenspace", server.origin);
    for (path, location) in [
        (
            "/products/OpenGreenspace/images/0",
            format!("{files}/0.jpg"),
        ),
        (
            "/products/OpenGreenspace/images/1",
            format!("{files}/1.jpg"),
        ),
        (
            "/products/OpenGreenspace/images/1?large",
            format!("{files}/1-large.jpg"),
        ),
        (
            "/products/OpenGreenspace/images/0?large=true",
            format!("{files}/0-large.jpg"),
        ),
        (
            "/products/OpenGreenspace/images/0?large=false",
            format!("{files}/0.jpg"),
        ),
    ] {
        let response = server.get(&server.api(path)).await;
        assert_eq!(response.status(), StatusCode::TEMPORARY_REDIRECT, "{path}");
        assert_eq!(header(response.headers(), "location"), location, "{path}");
        let image = server.get(&location).await;
        assert_eq!(image.status(), StatusCode::OK);
        assert_eq!(header(image.headers(), "content-type"), "image/jpeg");
        assert!(header(image.headers(), "content-disposition").starts_with("inline"));
        let bytes = image.bytes().await.unwrap();
        assert_eq!(&bytes[..2], [0xFF, 0xD8], "a JPEG starts with SOI");
    }
    // Large and small are different pictures.
    let small = server
        .get(&format!("{files}/0.jpg"))
        .await
        .bytes()
        .await
        .unwrap();
    let large = server
        .get(&format!("{files}/0-large.jpg"))
        .await
        .bytes()
        .await
        .unwrap();
    assert!(large.len() > small.len());

    for index in ["2", "-1", "x", "1.0", "99999999999999999999"] {
        let body = server
            .not_found(&format!("/products/OpenGreenspace/images/{index}"))
            .await;
        assert_eq!(body["productUrl"], server.api("/products/OpenGreenspace"));
        assert!(
            body["message"].as_str().unwrap().contains("0 to 1"),
            "{body}"
        );
    }
    let body = server.not_found("/products/CodePointOpen/images/0").await;
    assert!(body["message"].as_str().unwrap().contains("no images"));
    let body = server.not_found("/products/Nope/images/0").await;
    assert_eq!(body["downloadCatalogueUrl"], server.api("/products"));
}

#[tokio::test]
async fn unknown_api_paths_and_methods_answer_json() {
    let server = TestServer::start(&[]).await;
    for path in ["/nothing", "/products/OpenGreenspace/extra/bits", ""] {
        let body = server.not_found(path).await;
        assert_eq!(body["downloadCatalogueUrl"], server.api("/products"));
        assert_eq!(body["dataPackagesUrl"], server.api("/dataPackages"));
    }
    for url in [
        server.api("/products"),
        server.api("/products/OpenGreenspace/downloads"),
        server.api("/dataPackages"),
        format!(
            "{}/files/products/CodePointOpen/codepo_gb.zip",
            server.origin
        ),
    ] {
        let response = server.client.delete(&url).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED, "{url}");
        assert!(header(response.headers(), "allow").contains("GET"), "{url}");
        let (_, body) = read_json(response).await;
        assert!(
            body["message"].as_str().unwrap().contains("DELETE"),
            "{body}"
        );
    }
}

#[tokio::test]
async fn head_answers_like_get_without_a_body() {
    let server = TestServer::start(&[]).await;
    let get = server.get(&server.api("/products?expanded")).await;
    let length = get.bytes().await.unwrap().len();
    server
        .head_like_get(&server.api("/products?expanded"), &[], length)
        .await;
}

#[tokio::test]
async fn any_origin_may_call_and_json_is_compressed_when_asked() {
    let server = TestServer::start(&[]).await;
    let response = server
        .get_with(
            &server.api("/products"),
            &[("origin", "https://elsewhere.example")],
        )
        .await;
    assert_eq!(
        header(response.headers(), "access-control-allow-origin"),
        "*"
    );

    let preflight = server
        .client
        .request(reqwest::Method::OPTIONS, server.api("/dataPackages"))
        .header("origin", "https://elsewhere.example")
        .header("access-control-request-method", "GET")
        .header("access-control-request-headers", "key, authorization")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    let allowed = header(preflight.headers(), "access-control-allow-headers");
    assert!(
        allowed.contains("key") && allowed.contains("authorization"),
        "{allowed}"
    );
    let exposed = header(response.headers(), "access-control-expose-headers");
    assert!(
        exposed.contains("location") && exposed.contains("content-disposition"),
        "{exposed}"
    );

    for encoding in ["gzip", "br"] {
        let response = server
            .get_with(
                &server.api("/products?expanded"),
                &[("accept-encoding", encoding)],
            )
            .await;
        assert_eq!(header(response.headers(), "content-encoding"), encoding);
    }
}

/// What a browser gets: the listed JSON compressed, with its length known up front
/// (a progress bar can count it) and `Vary` for caches; a client asking for nothing
/// gets the same JSON plain.
#[tokio::test]
async fn fixed_lists_come_compressed_with_their_length_and_decode_to_the_plain_json() {
    let server = TestServer::start(&[]).await;
    for path in [
        "/products",
        "/products?expanded",
        "/products/OpenGreenspace",
        "/products/OpenGreenspace/downloads",
        "/openapi.json",
    ] {
        let plain = server.get(&server.api(path)).await;
        assert_eq!(plain.status(), StatusCode::OK, "{path}");
        assert!(plain.headers().get("content-encoding").is_none(), "{path}");
        let plain = plain.bytes().await.unwrap();
        for (accept, coding) in [
            ("gzip, deflate, br, zstd", "br"),
            ("gzip", "gzip"),
            ("br;q=0.5, gzip", "gzip"),
        ] {
            let response = server
                .get_with(&server.api(path), &[("accept-encoding", accept)])
                .await;
            let headers = response.headers().clone();
            assert_eq!(
                header(&headers, "content-encoding"),
                coding,
                "{path} {accept}"
            );
            assert!(
                header(&headers, "vary")
                    .to_ascii_lowercase()
                    .contains("accept-encoding"),
                "{path}"
            );
            let body = response.bytes().await.unwrap();
            assert_eq!(header(&headers, "content-length"), body.len().to_string());
            assert!(body.len() < plain.len(), "{path} {coding}: not smaller");
            assert_eq!(decompress(coding, &body), plain, "{path} {coding}");
        }
    }
}

fn decompress(coding: &str, body: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    match coding {
        "br" => brotli::Decompressor::new(body, 4096).read_to_end(&mut out),
        _ => flate2::read::GzDecoder::new(body).read_to_end(&mut out),
    }
    .unwrap();
    out
}

#[tokio::test]
async fn odd_input_never_gives_a_server_error() {
    let server = TestServer::start(&[]).await;
    let paths = [
        "/downloads/v1/products/%FF",
        "/downloads/v1/products/%FF/downloads",
        "/downloads/v1/products?expanded=%FF",
        "/downloads/v1/products/OpenGreenspace/downloads?format=%E2%82",
        "/downloads/v1/products/OpenGreenspace/downloads?area=&format=&subformat=&fileName=",
        "/downloads/v1/products/OpenGreenspace/images/%FF",
        "/downloads/v1/products/a%2Fb",
        "/downloads/v1/dataPackages/%FF?key=%FF",
        "/downloads/v1/dataPackages/x/versions/y/downloads?fileName=a&expires=-1&signature=%%%",
        "/downloads/v1/dataPackages/0040046952/versions/110012/downloads?expires=99999999999999999999999&signature=x&fileName=SU_addresses.zip",
        "/files/products/%FF/x",
        "/files/images/OpenGreenspace/-large.jpg",
        "/files/packages/x/y/z",
        "/files/packages/0040046952/110012/SU_addresses.zip?expires=abc&signature=",
    ];
    for path in paths {
        let response = server.get(&format!("{}{path}", server.origin)).await;
        let status = response.status();
        assert!(
            status.is_client_error() || status.is_success(),
            "{path}: {status}"
        );
        if status.is_client_error() {
            let (_, body) = read_json(response).await;
            assert!(body["message"].is_string(), "{path}: {body}");
        }
    }
    let odd_headers = [
        ("authorization", &b"Bearer \xff\xfe"[..]),
        ("authorization", b"Bearer"),
        ("authorization", b""),
        ("key", b"\xff"),
        ("range", b"bytes=\xff"),
        ("if-none-match", b"\xff"),
    ];
    for (name, value) in odd_headers {
        let value = reqwest::header::HeaderValue::from_bytes(value).unwrap();
        for url in [
            server.api("/dataPackages"),
            format!(
                "{}/files/products/CodePointOpen/codepo_gb.zip",
                server.origin
            ),
        ] {
            let response = server
                .client
                .get(&url)
                .header(name, value.clone())
                .send()
                .await
                .unwrap();
            let status = response.status();
            assert!(status.as_u16() < 500, "{name} on {url}: {status}");
        }
    }
}
