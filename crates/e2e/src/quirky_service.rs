//! A second implementation of the Download Service, written for the browser tests: not
//! our server, but a small one with the quirks the real service is known for.
//!
//! - Partner products: areas `UK` and `GB` + `NI`, a free-form version (`Version 5`),
//!   fields the spec does not name (`categories`, `supportingInfo`), no `imageCount`.
//! - Thumbnails and files behind 307s to a different origin (the storage server).
//! - A token answer with `expires_in` as a number, `token_type` `BearerToken` and extra
//!   fields; data packages answer only `Authorization: Bearer <token>` (or the API key).
//! - Optionally, a token endpoint that sends no CORS headers, as when a browser app on
//!   another origin is not allowed to sign in with a key and secret.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use md5::{Digest, Md5};
use serde_json::{Value, json};
use tower_http::cors::CorsLayer;

use crate::{Served, serve, serve_at_its_origin, unauthorised};

/// The partner project's API key and secret.
pub const KEY: &str = "partner-key";
pub const SECRET: &str = "partner-secret";
/// The one access token the token endpoint gives out.
const TOKEN: &str = "quirky-token-7f3a";

/// The product with areas `GB` and `NI` and one thumbnail.
pub const ISLANDS: &str = "PartnerIslands";
/// The product with area `UK`, version `Version 5` and no `imageCount`.
pub const COAST: &str = "PartnerCoast";
/// The data package and its version.
pub const PACKAGE: &str = "P-0001";
pub const VERSION: &str = "v7";

/// A picture the storage server sends for every thumbnail.
const JPEG: &[u8] = include_bytes!("../../download-server/demo/images/PartnerUKCoastline-0.jpg");

/// The running service: its API and token endpoint on one origin, the files and images
/// it redirects to on another.
#[derive(Debug)]
pub struct QuirkyService {
    pub api: Served,
    pub storage: Served,
}

impl QuirkyService {
    /// Starts both servers; with `token_cors` false the token endpoint sends no CORS
    /// headers (the API still does).
    pub async fn start(token_cors: bool) -> QuirkyService {
        let storage = serve(storage_router()).await;
        let api = serve_api(storage.origin.clone(), token_cors).await;
        QuirkyService { api, storage }
    }

    /// The API base, ending in `/v1`.
    pub fn api_base(&self) -> String {
        format!("{}/downloads/v1", self.api.origin)
    }

    /// The token endpoint.
    pub fn token_url(&self) -> String {
        format!("{}/oauth2/token/v1", self.api.origin)
    }

    /// What a deployer writes in `config.json` to use this service.
    pub fn config(&self) -> Value {
        json!({ "apiBase": self.api_base(), "tokenUrl": self.token_url() })
    }
}

/// The bytes the storage server sends for a file.
pub fn file_bytes(file_name: &str) -> Vec<u8> {
    format!("{file_name}: made up by the quirky test service\n").into_bytes()
}

/// The storage origin: `/thumbs/{name}` and `/files/{name}`, no credentials.
fn storage_router() -> Router {
    Router::new()
        .route(
            "/thumbs/{name}",
            get(|| async { ([(header::CONTENT_TYPE, "image/jpeg")], JPEG) }),
        )
        .route(
            "/files/{name}",
            get(|Path(name): Path<String>| async move {
                (
                    [
                        (header::CONTENT_TYPE, "application/zip".to_owned()),
                        (
                            header::CONTENT_DISPOSITION,
                            format!("attachment; filename=\"{name}\""),
                        ),
                    ],
                    file_bytes(&name),
                )
            }),
        )
        .layer(CorsLayer::permissive())
}

#[derive(Debug)]
struct Api {
    origin: String,
    storage: String,
}

async fn serve_api(storage: String, token_cors: bool) -> Served {
    // The origin must be known to write links.
    serve_at_its_origin(|origin| {
        let state = Arc::new(Api {
            origin: origin.to_owned(),
            storage,
        });
        let api = Router::new()
            .route("/downloads/v1/products", get(products))
            .route("/downloads/v1/products/{id}", get(product))
            .route("/downloads/v1/products/{id}/downloads", get(downloads))
            .route("/downloads/v1/products/{id}/images/{index}", get(image))
            .route("/downloads/v1/dataPackages", get(packages))
            .route("/downloads/v1/dataPackages/{id}", get(package))
            .route("/downloads/v1/dataPackages/{id}/versions", get(versions))
            .route(
                "/downloads/v1/dataPackages/{id}/versions/{version}",
                get(version),
            )
            .layer(CorsLayer::permissive());
        let mut token = Router::new().route("/oauth2/token/v1", post(issue_token));
        if token_cors {
            token = token.layer(CorsLayer::permissive());
        }
        api.merge(token).with_state(state)
    })
    .await
}

type Shared = State<Arc<Api>>;

/// Both products, as the real service writes partner records.
fn catalogue(api: &Api) -> Vec<Value> {
    let base = format!("{}/downloads/v1/products", api.origin);
    vec![
        json!({
            "id": ISLANDS,
            "name": "Island Paths (partner data)",
            "description": "Footpaths of Great Britain and Northern Ireland, from a partner.",
            "version": "2024-03",
            "url": format!("{base}/{ISLANDS}"),
            "areas": ["GB", "NI"],
            "formats": [{"format": "GeoPackage"}],
            "dataStructures": ["Vector"],
            "category": "Transport networks",
            "imageCount": 1,
            "downloadsUrl": format!("{base}/{ISLANDS}/downloads"),
            "categories": ["Transport networks", "Partner"],
            "supportingInfo": {"licence": "Partner Open Licence", "contact": "data@partner.example"},
        }),
        json!({
            "id": COAST,
            "name": "UK Coastal Cells (partner data)",
            "description": "Coastal management cells around the United Kingdom.",
            "version": "Version 5",
            "url": format!("{base}/{COAST}"),
            "areas": ["UK"],
            "formats": [{"format": "GeoPackage"}],
            "category": "Boundaries",
            "downloadsUrl": format!("{base}/{COAST}/downloads"),
            "supportingInfo": {"notes": "Versions follow the partner's numbering."},
        }),
    ]
}

/// Every download: (product, area, file name).
const FILES: [(&str, &str, &str); 3] = [
    (ISLANDS, "GB", "islpth_gpkg_gb.zip"),
    (ISLANDS, "NI", "islpth_gpkg_ni.zip"),
    (COAST, "UK", "ukcoast_gpkg_uk.zip"),
];

fn download_entry(api: &Api, product: &str, area: &str, file_name: &str) -> Value {
    let bytes = file_bytes(file_name);
    json!({
        "md5": format!("{:x}", Md5::digest(&bytes)),
        "size": bytes.len(),
        "url": format!(
            "{}/downloads/v1/products/{product}/downloads?area={area}&format=GeoPackage&redirect",
            api.origin
        ),
        "format": "GeoPackage",
        "area": area,
        "fileName": file_name,
    })
}

fn not_found(message: String) -> Response {
    (StatusCode::NOT_FOUND, Json(json!({ "message": message }))).into_response()
}

async fn products(State(api): Shared) -> Json<Vec<Value>> {
    Json(catalogue(&api))
}

async fn product(State(api): Shared, Path(id): Path<String>) -> Response {
    match catalogue(&api).into_iter().find(|p| p["id"] == id.as_str()) {
        Some(product) => Json(product).into_response(),
        None => not_found(format!("No product {id}.")),
    }
}

async fn downloads(
    State(api): Shared,
    Path(id): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    if !FILES.iter().any(|(product, ..)| *product == id) {
        return not_found(format!("No product {id}."));
    }
    let wanted = |name: &str, value: &str| {
        query
            .iter()
            .filter(|(n, _)| n == name)
            .all(|(_, v)| v == value)
    };
    let matches: Vec<_> = FILES
        .iter()
        .filter(|(product, area, file_name)| {
            *product == id
                && wanted("area", area)
                && wanted("format", "GeoPackage")
                && wanted("fileName", file_name)
        })
        .collect();
    let redirect = query.iter().any(|(n, v)| n == "redirect" && v != "false");
    if let ([(_, _, file_name)], true) = (matches.as_slice(), redirect) {
        return Redirect::temporary(&format!("{}/files/{file_name}", api.storage)).into_response();
    }
    let entries: Vec<Value> = matches
        .iter()
        .map(|(product, area, file_name)| download_entry(&api, product, area, file_name))
        .collect();
    Json(entries).into_response()
}

async fn image(State(api): Shared, Path((id, index)): Path<(String, String)>) -> Response {
    if id == ISLANDS && index == "0" {
        Redirect::temporary(&format!("{}/thumbs/{id}-0.jpg", api.storage)).into_response()
    } else {
        not_found(format!("Product {id} has no image {index}."))
    }
}

/// The token endpoint: Basic key and secret, answered the API gateway's way.
async fn issue_token(headers: HeaderMap, body: String) -> Response {
    let basic = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|v| STANDARD.decode(v).ok());
    let expected = format!("{KEY}:{SECRET}");
    if basic.as_deref() != Some(expected.as_bytes())
        || body.trim() != "grant_type=client_credentials"
    {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({ "ErrorCode": "401", "Error": "Invalid ApiKey" })),
        )
            .into_response();
    }
    Json(json!({
        "access_token": TOKEN,
        "expires_in": 300,
        "issued_at": std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis().to_string())
            .unwrap_or_default(),
        "token_type": "BearerToken",
        "application_name": "partner-app",
        "status": "approved",
    }))
    .into_response()
}

/// Data packages answer the token, sent as `Bearer` (never as `BearerToken`), or the
/// API key in the `key` header.
fn authorised(headers: &HeaderMap) -> bool {
    let header = |name| headers.get(name).and_then(|v| v.to_str().ok());
    header(header::AUTHORIZATION.as_str()) == Some(format!("Bearer {TOKEN}").as_str())
        || header("key") == Some(KEY)
}

fn version_summary(api: &Api) -> Value {
    crate::version_summary(
        &api.origin,
        (PACKAGE, VERSION),
        "2024-02-29",
        "Partner release 7 (spring)",
    )
}

fn package_record(api: &Api) -> Value {
    let mut record = crate::package_record(
        &api.origin,
        (PACKAGE, "Partner Paths Package"),
        "2024-01-05",
        ("PARTNERPATHS", "Partner Paths"),
        version_summary(api),
    );
    record["orderStatus"] = json!("COMPLETE");
    record
}

async fn packages(State(api): Shared, headers: HeaderMap) -> Response {
    if !authorised(&headers) {
        return unauthorised();
    }
    Json(json!([package_record(&api)])).into_response()
}

async fn package(State(api): Shared, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if !authorised(&headers) {
        return unauthorised();
    }
    if id == PACKAGE {
        Json(package_record(&api)).into_response()
    } else {
        not_found(format!("No data package {id}."))
    }
}

async fn versions(State(api): Shared, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if !authorised(&headers) {
        return unauthorised();
    }
    if id == PACKAGE {
        Json(json!([version_summary(&api)])).into_response()
    } else {
        not_found(format!("No data package {id}."))
    }
}

async fn version(
    State(api): Shared,
    headers: HeaderMap,
    Path((id, version)): Path<(String, String)>,
) -> Response {
    if !authorised(&headers) {
        return unauthorised();
    }
    if id != PACKAGE || !(version == VERSION || version == "latest") {
        return not_found(format!("No version {version} of data package {id}."));
    }
    let file_name = "partner_paths_v7.zip";
    let bytes = file_bytes(file_name);
    let mut body = version_summary(&api);
    body["downloads"] = json!([{
        // Listed links work on their own: a signed storage address.
        "url": format!("{}/files/{file_name}?sig=made-up", api.storage),
        "fileName": file_name,
        "size": bytes.len(),
        "md5": format!("{:x}", Md5::digest(&bytes)),
    }]);
    Json(body).into_response()
}
