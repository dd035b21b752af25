//! The direct file addresses the API redirects to, outside the API like the real
//! service's storage: `/files/products/{id}/{fileName}`, `/files/images/{id}/{n}.jpg`
//! (`{n}-large.jpg`), and signed `/files/packages/{p}/{v}/{fileName}?expires=…&signature=…`.

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;

use super::get_only;
use crate::error::ApiError;
use crate::extract::{ApiPath, verify_package};
use crate::file::ServedFile;
use crate::links::{FILES_PREFIX, image_file_name};
use crate::serve_file::{Disposition, respond};
use crate::signed_link::LinkKind;
use crate::state::{AppState, SharedState};

pub(crate) fn router() -> Router<SharedState> {
    Router::new()
        .route(
            &format!("{FILES_PREFIX}/products/{{product_id}}/{{file_name}}"),
            get(product_file),
        )
        .route(
            &format!("{FILES_PREFIX}/images/{{product_id}}/{{image}}"),
            get(image_file),
        )
        .route(
            &format!("{FILES_PREFIX}/packages/{{package_id}}/{{version_id}}/{{file_name}}"),
            get(package_file),
        )
        .method_not_allowed_fallback(get_only)
}

async fn product_file(
    State(state): State<SharedState>,
    ApiPath((product_id, file_name)): ApiPath<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let file = state
        .catalogue
        .product(&product_id)
        .and_then(|p| p.downloads.iter().find(|d| d.file.file_name == file_name))
        .map(|d| &d.file)
        .ok_or_else(|| not_found(&state, &format!("{product_id}/{file_name}")))?;
    respond(
        file,
        &headers,
        Disposition::Attachment,
        "public, max-age=3600",
    )
    .await
}

async fn image_file(
    State(state): State<SharedState>,
    ApiPath((product_id, name)): ApiPath<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let file = find_image(&state, &product_id, &name)
        .ok_or_else(|| not_found(&state, &format!("{product_id}/{name}")))?;
    respond(file, &headers, Disposition::Inline, "public, max-age=86400").await
}

/// `0.jpg` is the small image 0, `0-large.jpg` the large one: only the exact names
/// the API redirects to.
fn find_image<'a>(state: &'a AppState, product_id: &str, name: &str) -> Option<&'a ServedFile> {
    let product = state.catalogue.product(product_id)?;
    let (stem, _) = name.rsplit_once('.')?;
    let (index, large) = match stem.strip_suffix("-large") {
        Some(index) => (index, true),
        None => (stem, false),
    };
    let index: usize = index.parse().ok()?;
    let image = product.images.get(index)?;
    let file = if large { &image.large } else { &image.small };
    let extension = file.file_name.rsplit_once('.').map(|(_, e)| e)?;
    (image_file_name(index, large, extension) == name).then_some(file)
}

/// A data package file: the address is its own credential until it expires.
async fn package_file(
    State(state): State<SharedState>,
    ApiPath((package_id, version_id, file_name)): ApiPath<(String, String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let package = verify_package(
        &state,
        LinkKind::File,
        &package_id,
        &version_id,
        &file_name,
        query.as_deref(),
    )?;
    // Genuine: only a catalogue changed since signing can make these lookups fail.
    let file = package
        .version(&version_id)
        .filter(|v| v.summary.id == version_id)
        .and_then(|v| v.file(&file_name))
        .ok_or_else(|| {
            ApiError::not_found(
                format!("Data package '{package_id}' no longer has {version_id}/{file_name}."),
                state.links.package_links(),
            )
        })?;
    respond(
        file,
        &headers,
        Disposition::Attachment,
        "private, max-age=3600",
    )
    .await
}

fn not_found(state: &AppState, what: &str) -> ApiError {
    ApiError::not_found(
        format!("No file {what}: the download catalogue lists every product and its files."),
        state.links.catalogue_links(),
    )
}
