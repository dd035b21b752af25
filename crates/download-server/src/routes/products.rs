//! Open products: `/products`, `/products/{id}`, `/products/{id}/downloads`,
//! `/products/{id}/images/{index}`. No credentials needed.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use download_api::{DownloadsQuery, ErrorBody};

use super::{get_only, json, json_with_status};
use crate::catalogue::LoadedProduct;
use crate::error::ApiError;
use crate::extract::{ApiPath, Params};
use crate::negotiate::AcceptEncoding;
use crate::serve_file::redirect_location;
use crate::state::{AppState, SharedState};

pub(crate) fn router() -> Router<SharedState> {
    Router::new()
        .route("/products", get(list))
        .route("/products/{product_id}", get(show))
        .route("/products/{product_id}/downloads", get(downloads))
        .route("/products/{product_id}/images/{index}", get(image))
        .method_not_allowed_fallback(get_only)
}

/// `GET /products`: the summary of each product (id, name, description, version,
/// url), or every field with `?expanded`.
async fn list(
    State(state): State<SharedState>,
    Params(query): Params,
    accept: AcceptEncoding,
) -> Result<Response, ApiError> {
    let catalogue = &state.catalogue;
    let body = if query.flag("expanded")? {
        &catalogue.products_expanded_json
    } else {
        &catalogue.products_summary_json
    };
    Ok(body.respond(&accept).await)
}

async fn show(
    State(state): State<SharedState>,
    ApiPath(product_id): ApiPath<String>,
    accept: AcceptEncoding,
) -> Result<Response, ApiError> {
    Ok(find(&state, &product_id)?.json.respond(&accept).await)
}

/// `GET /products/{id}/downloads`: the filtered list, or a 307 to the one match when
/// `redirect` is set.
async fn downloads(
    State(state): State<SharedState>,
    ApiPath(product_id): ApiPath<String>,
    RawQuery(query): RawQuery,
    accept: AcceptEncoding,
) -> Result<Response, ApiError> {
    let query = DownloadsQuery::parse(query.as_deref().unwrap_or_default())?;
    if let Some(area) = &query.area
        && !state.catalogue.knows_area(area)
    {
        return Err(ApiError::BadRequest(format!(
            "Query parameter 'area' must be one of {}, not '{}'.",
            state.catalogue.area_codes().join(", "),
            area.code()
        )));
    }
    let product = find(&state, &product_id)?;
    if query == DownloadsQuery::default() {
        return Ok(product.downloads_json.respond(&accept).await);
    }
    let matches: Vec<_> = product
        .downloads
        .iter()
        .filter(|d| {
            let info = &d.info;
            query.matches(
                &info.file.file_name,
                &info.area,
                &info.format,
                info.subformat.as_deref(),
            )
        })
        .collect();
    if let [only] = matches.as_slice()
        && query.redirect
    {
        let location = redirect_location(&only.file, || Ok(only.location.clone())).await?;
        let mut response = json_with_status(StatusCode::TEMPORARY_REDIRECT, only.json.clone());
        response.headers_mut().insert(header::LOCATION, location);
        return Ok(response);
    }
    // Each entry's JSON was written at load time: the list is only joined here.
    let mut body = Vec::with_capacity(2 + matches.iter().map(|d| d.json.len() + 1).sum::<usize>());
    body.push(b'[');
    for (i, download) in matches.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(&download.json);
    }
    body.push(b']');
    Ok(json(Bytes::from(body)))
}

/// `GET /products/{id}/images/{index}`: a 307 to the thumbnail (`?large` for the big one).
async fn image(
    State(state): State<SharedState>,
    ApiPath((product_id, index)): ApiPath<(String, String)>,
    Params(query): Params,
) -> Result<Response, ApiError> {
    let large = query.flag("large")?;
    let product = find(&state, &product_id)?;
    let image = index
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| index.parse::<usize>().ok())
        .flatten()
        .and_then(|i| product.images.get(i));
    let Some(image) = image else {
        let count = product.images.len();
        let valid = match count {
            0 => "it has no images".to_owned(),
            1 => "the only valid index is 0".to_owned(),
            n => format!("valid indexes are 0 to {}", n - 1),
        };
        return Err(ApiError::not_found(
            format!("Product '{product_id}' has no image '{index}': {valid}."),
            ErrorBody {
                product_url: Some(state.links.api().product(&product_id)),
                ..state.links.catalogue_links()
            },
        ));
    };
    let (file, location) = if large {
        (&image.large, &image.large_location)
    } else {
        (&image.small, &image.small_location)
    };
    let location = redirect_location(file, || Ok(location.clone())).await?;
    Ok((
        StatusCode::TEMPORARY_REDIRECT,
        [(header::LOCATION, location)],
    )
        .into_response())
}

fn find<'a>(state: &'a AppState, product_id: &str) -> Result<&'a LoadedProduct, ApiError> {
    state.catalogue.product(product_id).ok_or_else(|| {
        ApiError::not_found(
            format!(
                "No product with id '{product_id}'. The download catalogue lists every product."
            ),
            state.links.catalogue_links(),
        )
    })
}
