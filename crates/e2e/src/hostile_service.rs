//! A third implementation of the Download Service, for the browser tests: one that
//! answers with what a careless or hostile service may send (beside the quirky one,
//! [`crate::quirky_service`], whose form it follows).
//!
//! - A product whose `documentationUrl` is `javascript:…`, and a 404 whose error body
//!   offers a `javascript:` link beside a real one.
//! - One listing with two files of one name (for two areas), a name with a tab, and
//!   files with one unusable field each: a negative size, a size past any file, an
//!   md5 that is not one, a `javascript:` address and a `data:` address.
//! - A token endpoint whose `access_token` has a line break, so no header can carry it;
//!   the data packages it guards record every `Authorization` header they are sent.
//! - A data package (for the API key alone) whose version lists two files of one name,
//!   a size and an md5 of the wrong kind, and a file with no address at all.

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use md5::{Digest, Md5};
use serde_json::{Value, json};
use tower_http::cors::CorsLayer;

use crate::{Served, serve, serve_at_its_origin, unauthorised};

/// The product with the hostile listing.
pub const PRODUCT: &str = "HostileListing";
/// Its `documentationUrl`.
pub const DOCUMENTATION: &str = "javascript:alert(document.domain)";
/// The error body's link that is no web address.
pub const ERROR_LINK: &str = "javascript:alert('error body')";
/// The key and secret the token endpoint takes (any work).
pub const KEY: &str = "hostile-key";
pub const SECRET: &str = "hostile-secret";
/// The token it gives out: a line break in it.
pub const TOKEN: &str = "hostile\ntoken";
/// The data package and its version, for the API key alone.
pub const PACKAGE: &str = "H-0001";
pub const VERSION: &str = "v1";
/// The version's files a bulk download saves, `(saved name, storage key)`: the two of
/// one name numbered (nothing listed tells them apart), the file without an address
/// left out.
pub const PACKAGE_SAVED: [(&str, &str); 3] = [
    ("parcel.zip", "pkg-1-parcel.zip"),
    ("parcel (2).zip", "pkg-2-parcel.zip"),
    ("broken.zip", "pkg-broken.zip"),
];

/// One listed file: its name, area, and the fields as sent (`None`: as they should be).
struct Listed {
    file_name: &'static str,
    area: &'static str,
    size: Option<Value>,
    md5: Option<Value>,
    url: Option<&'static str>,
    /// The area and format as sent, where not `area` and `GeoPackage`.
    area_sent: Option<Value>,
    format_sent: Option<Value>,
}

/// The files of [`PRODUCT`], in the listing's order.
fn listing() -> Vec<Listed> {
    let good = |file_name, area| Listed {
        file_name,
        area,
        size: None,
        md5: None,
        url: None,
        area_sent: None,
        format_sent: None,
    };
    vec![
        good("same.zip", "SU"),
        good("same.zip", "SV"),
        good("tab\there.zip", "SU"),
        Listed {
            size: Some(json!(-5)),
            ..good("negative.zip", "SU")
        },
        Listed {
            size: Some(json!(1e30)),
            ..good("huge.zip", "SU")
        },
        Listed {
            md5: Some(json!("not-an-md5")),
            ..good("badmd5.zip", "SU")
        },
        Listed {
            url: Some("javascript:alert(1)"),
            ..good("script.zip", "SU")
        },
        Listed {
            url: Some("data:text/html,<script>alert(1)</script>"),
            ..good("data.zip", "SV")
        },
        Listed {
            area_sent: Some(json!(5)),
            format_sent: Some(json!(["GeoPackage"])),
            ..good("odd.zip", "SU")
        },
    ]
}

/// The files a bulk download saves, `(saved name, storage key)`, in the listing's
/// order: the two of one name told apart by their areas, the tab replaced, and no
/// file without a web address.
pub const SAVED: [(&str, &str); 7] = [
    ("same (SU).zip", "SU-same.zip"),
    ("same (SV).zip", "SV-same.zip"),
    ("tab_here.zip", "SU-tab_here.zip"),
    ("negative.zip", "SU-negative.zip"),
    ("huge.zip", "SU-huge.zip"),
    ("badmd5.zip", "SU-badmd5.zip"),
    ("odd.zip", "SU-odd.zip"),
];

/// How many files the listing has, offered or not.
pub fn listed_count() -> usize {
    listing().len()
}

/// The bytes the storage server sends for the file stored under `key`.
pub fn file_bytes(key: &str) -> Vec<u8> {
    format!("{key}: made up by the hostile test service\n").into_bytes()
}

/// The key a listed file is stored under: its area and its name, tab replaced.
fn storage_key(file: &Listed) -> String {
    format!("{}-{}", file.area, file.file_name.replace('\t', "_"))
}

/// The running service: the API and token endpoint on one origin, the files on another.
#[derive(Debug)]
pub struct HostileService {
    pub api: Served,
    pub storage: Served,
    /// Every `Authorization` header the data packages were sent.
    authorizations: Arc<Mutex<Vec<String>>>,
}

impl HostileService {
    pub async fn start() -> HostileService {
        let storage = serve(storage_router()).await;
        let authorizations = Arc::new(Mutex::new(Vec::new()));
        let api = serve_api(storage.origin.clone(), authorizations.clone()).await;
        HostileService {
            api,
            storage,
            authorizations,
        }
    }

    /// What a deployer writes in `config.json` to use this service.
    pub fn config(&self) -> Value {
        json!({
            "apiBase": format!("{}/downloads/v1", self.api.origin),
            "tokenUrl": format!("{}/oauth2/token/v1", self.api.origin),
        })
    }

    /// Every `Authorization` header the data packages were sent, so far.
    pub fn authorizations(&self) -> Vec<String> {
        self.authorizations.lock().expect("not poisoned").clone()
    }
}

/// The storage origin: `/files/{key}`, no credentials.
fn storage_router() -> Router {
    Router::new()
        .route(
            "/files/{key}",
            get(|Path(key): Path<String>| async move {
                (
                    [(header::CONTENT_TYPE, "application/zip")],
                    file_bytes(&key),
                )
            }),
        )
        .layer(CorsLayer::permissive())
}

#[derive(Debug)]
struct Api {
    origin: String,
    storage: String,
    authorizations: Arc<Mutex<Vec<String>>>,
}

type Shared = State<Arc<Api>>;

async fn serve_api(storage: String, authorizations: Arc<Mutex<Vec<String>>>) -> Served {
    // The origin must be known to write links.
    serve_at_its_origin(|origin| {
        let state = Arc::new(Api {
            origin: origin.to_owned(),
            storage,
            authorizations,
        });
        Router::new()
            .route("/downloads/v1/products", get(products))
            .route("/downloads/v1/products/{id}", get(product))
            .route("/downloads/v1/products/{id}/downloads", get(downloads))
            .route("/downloads/v1/dataPackages", get(packages))
            .route("/downloads/v1/dataPackages/{id}", get(package))
            .route("/downloads/v1/dataPackages/{id}/versions", get(versions))
            .route(
                "/downloads/v1/dataPackages/{id}/versions/{version}",
                get(version),
            )
            .route(
                "/downloads/v1/dataPackages/{id}/versions/{version}/downloads",
                get(version_file),
            )
            .route("/oauth2/token/v1", post(issue_token))
            .layer(CorsLayer::permissive())
            .with_state(state)
    })
    .await
}

fn catalogue(api: &Api) -> Vec<Value> {
    let base = format!("{}/downloads/v1/products", api.origin);
    vec![json!({
        "id": PRODUCT,
        "name": "Hostile Listing (test data)",
        "description": "A listing with every field a careless service gets wrong.",
        "version": "2025-01",
        "url": format!("{base}/{PRODUCT}"),
        "documentationUrl": DOCUMENTATION,
        "areas": ["SU", "SV"],
        "formats": [{"format": "GeoPackage"}],
        "dataStructures": ["Vector"],
        "category": "Test",
        "downloadsUrl": format!("{base}/{PRODUCT}/downloads"),
    })]
}

async fn products(State(api): Shared) -> Json<Vec<Value>> {
    Json(catalogue(&api))
}

async fn product(State(api): Shared, Path(id): Path<String>) -> Response {
    match catalogue(&api).into_iter().find(|p| p["id"] == id.as_str()) {
        Some(product) => Json(product).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({
                "message": format!("No product {id}."),
                "productUrl": ERROR_LINK,
                "productDownloadsUrl": format!("{}/downloads/v1/products/{PRODUCT}/downloads", api.origin),
            })),
        )
            .into_response(),
    }
}

/// The whole listing, whatever the query asks (the app asks for it whole).
async fn downloads(State(api): Shared, Path(id): Path<String>) -> Response {
    if id != PRODUCT {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({ "message": format!("No product {id}.") })),
        )
            .into_response();
    }
    let entries: Vec<Value> = listing()
        .iter()
        .map(|file| {
            let bytes = file_bytes(&storage_key(file));
            let url = match file.url {
                Some(url) => url.to_owned(),
                None => format!("{}/files/{}", api.storage, storage_key(file)),
            };
            json!({
                "url": url,
                "fileName": file.file_name,
                "size": file.size.clone().unwrap_or(json!(bytes.len())),
                "md5": file.md5.clone().unwrap_or(json!(format!("{:x}", Md5::digest(&bytes)))),
                "area": file.area_sent.clone().unwrap_or(json!(file.area)),
                "format": file.format_sent.clone().unwrap_or(json!("GeoPackage")),
            })
        })
        .collect();
    Json(entries).into_response()
}

/// Any key and secret get the token with a line break.
async fn issue_token() -> Json<Value> {
    Json(json!({
        "access_token": TOKEN,
        "expires_in": "299",
        "issued_at": "1700000000000",
        "token_type": "Bearer",
    }))
}

/// Records the `Authorization` header; true for the API key alone (no token here is
/// good).
fn authorised(api: &Api, headers: &HeaderMap) -> bool {
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
        api.authorizations.lock().expect("not poisoned").push(value);
    }
    headers.get("key").and_then(|v| v.to_str().ok()) == Some(KEY)
}

fn version_summary(api: &Api) -> Value {
    crate::version_summary(
        &api.origin,
        (PACKAGE, VERSION),
        "2025-01-31",
        "Hostile release 1",
    )
}

fn package_record(api: &Api) -> Value {
    crate::package_record(
        &api.origin,
        (PACKAGE, "Hostile Package"),
        "2025-01-05",
        (PRODUCT, "Hostile Listing"),
        version_summary(api),
    )
}

async fn packages(State(api): Shared, headers: HeaderMap) -> Response {
    if authorised(&api, &headers) {
        Json(json!([package_record(&api)])).into_response()
    } else {
        unauthorised()
    }
}

async fn package(State(api): Shared, headers: HeaderMap) -> Response {
    if authorised(&api, &headers) {
        Json(package_record(&api)).into_response()
    } else {
        unauthorised()
    }
}

async fn versions(State(api): Shared, headers: HeaderMap) -> Response {
    if authorised(&api, &headers) {
        Json(json!([version_summary(&api)])).into_response()
    } else {
        unauthorised()
    }
}

/// The one version, whatever is asked for: its files as [`PACKAGE_SAVED`] says.
async fn version(State(api): Shared, headers: HeaderMap) -> Response {
    if !authorised(&api, &headers) {
        return unauthorised();
    }
    let mut body = version_summary(&api);
    body["downloads"] = version_files(&api);
    Json(body).into_response()
}

/// A file of the version by its name, as JSON (the app asks with `Accept:
/// application/json`): the first of that name, as a service that names files by name
/// alone can only answer.
async fn version_file(
    State(api): Shared,
    headers: HeaderMap,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    if !authorised(&api, &headers) {
        return unauthorised();
    }
    let wanted = query
        .iter()
        .find(|(name, _)| name == "fileName")
        .map(|(_, value)| value.as_str());
    let files = version_files(&api);
    match files
        .as_array()
        .into_iter()
        .flatten()
        .find(|file| file["fileName"].as_str() == wanted)
    {
        Some(file) => Json(file.clone()).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({ "message": "No such file." })),
        )
            .into_response(),
    }
}

/// The version's files: two of one name, one with a size and an md5 of the wrong kind,
/// one with no address.
fn version_files(api: &Api) -> Value {
    let file = |name: &str, key: &str| {
        let bytes = file_bytes(key);
        json!({
            "url": format!("{}/files/{key}", api.storage),
            "fileName": name,
            "size": bytes.len(),
            "md5": format!("{:x}", Md5::digest(&bytes)),
        })
    };
    let mut broken = file("broken.zip", "pkg-broken.zip");
    broken["size"] = json!("12abc");
    broken["md5"] = json!(12345);
    json!([
        file("parcel.zip", "pkg-1-parcel.zip"),
        file("parcel.zip", "pkg-2-parcel.zip"),
        broken,
        {"fileName": "nowhere.zip", "size": 3},
    ])
}
