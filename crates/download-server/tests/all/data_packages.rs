//! Data packages: what each project sees, versions and their links, downloads, and
//! the signed download urls that work on their own.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::common;
use crate::common::{
    ALPHA_KEY, BETA_KEY, SIGNING_KEY, TestServer, check_download, header, ids, md5_hex, read_json,
};
use download_server::signed_link::{LinkKind, SignedLink};
use download_server::signing::Signer;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn each_project_lists_only_its_own_packages() {
    let server = TestServer::start(&[]).await;
    let (status, alpha) = server.json_with_key("/dataPackages", ALPHA_KEY).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ids(&alpha), ["0040046952", "0040046953"]);
    let (_, beta) = server.json_with_key("/dataPackages", BETA_KEY).await;
    assert_eq!(ids(&beta), ["0040099999"]);

    let package = &alpha[0];
    assert_eq!(package["name"], "Southampton Addresses");
    assert_eq!(package["url"], server.api("/dataPackages/0040046952"));
    assert_eq!(package["createdOn"], "2021-01-20");
    assert_eq!(package["productId"], "ABPOSTSLA");
    assert_eq!(package["productName"], "AddressBase");
    assert_eq!(ids(&package["versions"]), ["110012", "110013", "110014"]);
}

#[tokio::test]
async fn package_versions_and_version_details_link_together() {
    let server = TestServer::start(&[]).await;
    let (status, package) = server
        .json_with_key("/dataPackages/0040046952", ALPHA_KEY)
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, versions) = server
        .json_with_key("/dataPackages/0040046952/versions", ALPHA_KEY)
        .await;
    assert_eq!(versions, package["versions"]);
    assert_eq!(
        versions[0],
        json!({
            "id": "110012",
            "url": server.api("/dataPackages/0040046952/versions/110012"),
            "createdOn": "2021-01-20",
            "reason": "INITIAL",
            "supplyType": "FULL",
            "productVersion": "Release 110012",
            "productFormat": "CSV",
            "format": "CSV",
            "dataPackageUrl": server.api("/dataPackages/0040046952"),
        })
    );

    let version_url = |id: &str| server.api(&format!("/dataPackages/0040046952/versions/{id}"));
    let first = server.alpha_version("110012").await;
    assert_eq!(first["nextVersionUrl"], version_url("110013"));
    assert!(first.get("previousVersionUrl").is_none());
    assert_eq!(first["downloads"].as_array().unwrap().len(), 2);
    assert_eq!(first["downloads"][0]["fileName"], "SU_addresses.zip");

    let middle = server.alpha_version("110013").await;
    assert_eq!(middle["previousVersionUrl"], version_url("110012"));
    assert_eq!(middle["nextVersionUrl"], version_url("110014"));

    let latest = server.alpha_version("latest").await;
    assert_eq!(latest["id"], "110014");
    assert_eq!(latest["url"], version_url("110014"));
    assert_eq!(latest["previousVersionUrl"], version_url("110013"));
    assert!(latest.get("nextVersionUrl").is_none());

    // Following the links from the latest back to the first visits every version.
    let mut url = latest["url"].as_str().unwrap().to_owned();
    let mut seen = Vec::new();
    loop {
        let response = server.get_with(&url, &[("key", ALPHA_KEY)]).await;
        let (_, version) = read_json(response).await;
        seen.push(version["id"].as_str().unwrap().to_owned());
        match version["previousVersionUrl"].as_str() {
            Some(previous) => url = previous.to_owned(),
            None => break,
        }
    }
    assert_eq!(seen, ["110014", "110013", "110012"]);

    let (status, body) = server
        .json_with_key("/dataPackages/0040046952/versions/999", ALPHA_KEY)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["dataPackagesUrl"], server.api("/dataPackages"));
    assert!(body["message"].as_str().unwrap().contains("999"));
}

#[tokio::test]
async fn another_projects_package_answers_exactly_like_a_missing_one() {
    let server = TestServer::start(&[]).await;
    for suffix in [
        "",
        "/versions",
        "/versions/latest",
        "/versions/300001",
        "/versions/300001/downloads?fileName=buildings.zip",
    ] {
        let theirs = server
            .get_with(
                &server.api(&format!("/dataPackages/0040099999{suffix}")),
                &[("key", ALPHA_KEY)],
            )
            .await;
        let (theirs_status, theirs_body) = read_json(theirs).await;
        assert_eq!(theirs_status, StatusCode::NOT_FOUND, "{suffix}");
        // Same body as for an id nobody has, once the id itself is swapped.
        let (_, nobody) = server
            .json_with_key(&format!("/dataPackages/0040099998{suffix}"), ALPHA_KEY)
            .await;
        let nobody_text = nobody.to_string().replace("0040099998", "0040099999");
        assert_eq!(theirs_body.to_string(), nobody_text, "{suffix}");
        assert_eq!(theirs_body["dataPackagesUrl"], server.api("/dataPackages"));
    }
    // Beta sees it.
    let (status, _) = server
        .json_with_key("/dataPackages/0040099999", BETA_KEY)
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn downloads_need_a_file_name_and_redirect_to_the_file() {
    let server = TestServer::start(&[]).await;
    let downloads = "/dataPackages/0040046952/versions/110012/downloads";
    let (status, body) = server.json_with_key(downloads, ALPHA_KEY).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["message"].as_str().unwrap().contains("fileName"));

    let (status, body) = server
        .json_with_key(&format!("{downloads}?fileName=nope.zip"), ALPHA_KEY)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["dataPackagesUrl"], server.api("/dataPackages"));

    let response = server
        .get_with(
            &server.api(&format!("{downloads}?fileName=SU_streets.zip")),
            &[("key", ALPHA_KEY)],
        )
        .await;
    assert_eq!(response.status(), StatusCode::TEMPORARY_REDIRECT);
    let location = header(response.headers(), "location");
    assert!(
        location.starts_with(&format!(
            "{}/files/packages/0040046952/110012/SU_streets.zip?expires=",
            server.origin
        )),
        "{location}"
    );
    assert!(!location.contains(ALPHA_KEY));
    let file = server.get(&location).await;
    assert_eq!(file.status(), StatusCode::OK);
    assert_eq!(header(file.headers(), "content-type"), "application/zip");
    let bytes = file.bytes().await.unwrap();
    let version = server.alpha_version("110012").await;
    assert_eq!(
        md5_hex(&bytes),
        version["downloads"][1]["md5"].as_str().unwrap()
    );
}

#[tokio::test]
async fn accept_json_gets_the_direct_address_instead_of_a_redirect() {
    let server = TestServer::start(&[]).await;
    let url =
        server.api("/dataPackages/0040046952/versions/110012/downloads?fileName=SU_addresses.zip");
    for (accept, redirects) in [
        (None, true),
        (Some("*/*"), true),
        (Some("application/json, */*"), true),
        (Some("application/json"), false),
        (Some("application/json, */*;q=0.1"), false),
    ] {
        let mut request = server.client.get(&url).header("key", ALPHA_KEY);
        if let Some(accept) = accept {
            request = request.header("accept", accept);
        }
        let response = request.send().await.unwrap();
        if redirects {
            assert_eq!(
                response.status(),
                StatusCode::TEMPORARY_REDIRECT,
                "{accept:?}"
            );
            continue;
        }
        assert_eq!(response.status(), StatusCode::OK, "{accept:?}");
        assert_eq!(header(response.headers(), "vary"), "accept");
        let (_, download) = read_json(response).await;
        assert_eq!(download["fileName"], "SU_addresses.zip");
        let direct = download["url"].as_str().unwrap();
        assert!(direct.contains("/files/packages/0040046952/110012/SU_addresses.zip?"));
        let file = server.get(direct).await;
        assert_eq!(file.status(), StatusCode::OK);
        let bytes = file.bytes().await.unwrap();
        assert_eq!(bytes.len() as u64, download["size"].as_u64().unwrap());
        assert_eq!(md5_hex(&bytes), download["md5"].as_str().unwrap());
    }
}

#[tokio::test]
async fn listed_download_urls_work_alone_and_hold_no_credentials() {
    let server = TestServer::start(&[]).await;
    let token = server.token(common::ALPHA_KEY, common::ALPHA_SECRET).await;
    let (_, version) = server
        .json_with_token("/dataPackages/0040046952/versions/110012", &token)
        .await;
    for download in version["downloads"].as_array().unwrap() {
        let url = download["url"].as_str().unwrap();
        let expected = server.api(&format!(
            "/dataPackages/0040046952/versions/110012/downloads?fileName={}&expires=",
            download["fileName"].as_str().unwrap()
        ));
        assert!(url.starts_with(&expected), "{url}");
        for secret in [ALPHA_KEY, common::ALPHA_SECRET, &token] {
            assert!(!url.contains(secret), "{url}");
        }
        // No auth header, no key: the url alone is enough.
        check_download(&common::client(), download).await;
    }
}

/// A listed url's `expires`, in seconds since the Unix epoch.
fn expiry(url: &str) -> u64 {
    url.split("expires=")
        .nth(1)
        .and_then(|rest| rest.split('&').next())
        .and_then(|expires| expires.parse().ok())
        .unwrap_or_else(|| panic!("{url} has an expiry"))
}

/// Now, in seconds since the Unix epoch.
fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A listed url with one part changed.
fn altered(url: &str, from: &str, to: &str) -> String {
    assert!(url.contains(from), "{url} lacks {from}");
    url.replacen(from, to, 1)
}

#[tokio::test]
async fn altered_or_expired_download_urls_are_refused() {
    let server = TestServer::start(&[]).await;
    let version = server.alpha_version("110012").await;
    let url = version["downloads"][0]["url"].as_str().unwrap().to_owned();
    let signature = url.split("signature=").nth(1).unwrap().to_owned();
    let (expires, now) = (expiry(&url), unix_now());
    assert!(
        (3500..=3600).contains(&(expires - now)),
        "links last an hour"
    );

    let first = if signature.starts_with('A') { "B" } else { "A" };
    let forged_signature = format!("{first}{}", &signature[1..]);
    let forged = [
        altered(&url, "SU_addresses.zip", "SU_streets.zip"),
        altered(
            &url,
            &format!("expires={expires}"),
            &format!("expires={}", expires + 999),
        ),
        altered(&url, &signature, &forged_signature),
        altered(&url, "/110012/", "/110013/"),
        altered(&url, &format!("&signature={signature}"), ""),
    ];
    for forged in &forged {
        let (status, body) = read_json(server.get(forged).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{forged}");
        assert!(
            body["message"].as_str().unwrap().contains("not valid"),
            "{body}"
        );
    }

    // Genuine but past its time (signed with the server's key, an hour ago).
    let past = now - 10;
    let link = SignedLink {
        kind: LinkKind::Api,
        project: "Alpha",
        package: "0040046952",
        version: "110012",
        file_name: "SU_addresses.zip",
    };
    let old = link.sign_until(&Signer::new(SIGNING_KEY.as_bytes()), past);
    let expired = server.api(&format!(
        "/dataPackages/0040046952/versions/110012/downloads?fileName=SU_addresses.zip&{old}"
    ));
    let (status, body) = read_json(server.get(&expired).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(
        body["message"].as_str().unwrap().contains("expired"),
        "{body}"
    );
    // The same old link with the caller's own key still works.
    let response = server.get_with(&expired, &[("key", ALPHA_KEY)]).await;
    assert_eq!(response.status(), StatusCode::TEMPORARY_REDIRECT);
    // Another project's key does not make it work.
    let response = server.get_with(&expired, &[("key", BETA_KEY)]).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);

    // A signature for a package that does not exist says nothing about existence.
    let nowhere = altered(&url, "0040046952", "0000000000");
    let (status, _) = read_json(server.get(&nowhere).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn listed_links_last_as_long_as_the_link_lifetime_flag_says() {
    let server = TestServer::start(&["--link-lifetime", "120"]).await;
    let version = server.alpha_version("110012").await;
    let url = version["downloads"][0]["url"].as_str().unwrap();
    let left = expiry(url) - unix_now();
    assert!(
        (100..=120).contains(&left),
        "a link signed for 120 s expires in {left} s"
    );
}
