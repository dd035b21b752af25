//! Data packages: a project's private packages, their versions and files. Every
//! endpoint needs an API key or a token; a caller sees its own project's packages only.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use download_api::{DataPackageVersion, Download};
use tower_http::set_header::SetResponseHeaderLayer;

use super::{get_only, json_of};
use crate::catalogue::{Package, PackageVersion};
use crate::error::ApiError;
use crate::extract::{ApiPath, Caller, FileAccess, Params};
use crate::file::ServedFile;
use crate::negotiate::{AcceptEncoding, qualities};
use crate::serve_file::redirect_location;
use crate::signed_link::{LinkKind, SignedLink};
use crate::state::{AppState, SharedState};

pub(crate) fn router() -> Router<SharedState> {
    Router::new()
        .route("/dataPackages", get(list))
        .route("/dataPackages/{package_id}", get(show))
        .route("/dataPackages/{package_id}/versions", get(versions))
        .route(
            "/dataPackages/{package_id}/versions/{version_id}",
            get(version),
        )
        .route(
            "/dataPackages/{package_id}/versions/{version_id}/downloads",
            get(download),
        )
        .method_not_allowed_fallback(get_only)
        // Private answers, some with links that expire: no shared or stale copies.
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        ))
}

async fn list(
    State(state): State<SharedState>,
    caller: Caller,
    accept: AcceptEncoding,
) -> Response {
    let project = state.catalogue.project(caller.0);
    project.packages_json.respond(&accept).await
}

async fn show(
    State(state): State<SharedState>,
    caller: Caller,
    ApiPath(package_id): ApiPath<String>,
    accept: AcceptEncoding,
) -> Result<Response, ApiError> {
    let package = owned_package(&state, caller, &package_id)?;
    Ok(package.json.respond(&accept).await)
}

async fn versions(
    State(state): State<SharedState>,
    caller: Caller,
    ApiPath(package_id): ApiPath<String>,
    accept: AcceptEncoding,
) -> Result<Response, ApiError> {
    let package = owned_package(&state, caller, &package_id)?;
    Ok(package.versions_json.respond(&accept).await)
}

/// One version with its files. Each file's `url` carries a signature good for `--link-lifetime`,
/// so it works as listed with no other credentials (and holds no key or token).
async fn version(
    State(state): State<SharedState>,
    caller: Caller,
    ApiPath((package_id, version_id)): ApiPath<(String, String)>,
) -> Result<Response, ApiError> {
    let package = owned_package(&state, caller, &package_id)?;
    let version = find_version(&state, package, &version_id)?;
    let downloads = version
        .files
        .iter()
        .map(|file| {
            let url = signed_url(&state, LinkKind::Api, package, version, file);
            download_entry(file, url)
        })
        .collect();
    let body = DataPackageVersion {
        summary: version.summary.clone(),
        downloads,
        next_version_url: version.next_version_url.clone(),
        previous_version_url: version.previous_version_url.clone(),
    };
    json_of(&body)
}

/// `…/downloads?fileName=…`: a 307 to the file's direct, signed address. Authorised by
/// the caller's credentials, or by the signature of a listed download url.
///
/// Beyond the spec: a request whose `Accept` prefers `application/json` gets a 200 with
/// the Download (its `url` the direct address) instead, since a browser's `fetch` cannot
/// read the `Location` of a cross-origin redirect.
async fn download(
    State(state): State<SharedState>,
    ApiPath((package_id, version_id)): ApiPath<(String, String)>,
    access: FileAccess,
    Params(query): Params,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let package = owned_package(&state, access.caller(), &package_id)?;
    let file_name = query
        .get("fileName")
        .filter(|name| !name.is_empty())
        .ok_or_else(ApiError::missing_file_name)?;
    let version = find_version(&state, package, &version_id)?;
    let file = version.file(file_name).ok_or_else(|| {
        ApiError::not_found(
            format!(
                "Version '{}' of data package '{}' has no file named '{file_name}'; the version lists its files.",
                version.summary.id, package.id
            ),
            state.links.package_links(),
        )
    })?;

    // With object storage, a fresh presigned address on the store; otherwise the
    // server's own signed one.
    let location = redirect_location(file, || {
        let direct = signed_url(&state, LinkKind::File, package, version, file);
        HeaderValue::try_from(direct)
            .map_err(|_| ApiError::Internal("cannot form the file address".into()))
    })
    .await?;
    let vary = (header::VARY, HeaderValue::from_static("accept"));
    if prefers_json(&headers) {
        let direct = location.to_str().unwrap_or_default().to_owned();
        let mut response = json_of(&download_entry(file, direct))?;
        response.headers_mut().insert(vary.0, vary.1);
        return Ok(response);
    }
    Ok((
        StatusCode::TEMPORARY_REDIRECT,
        [(header::LOCATION, location), vary],
    )
        .into_response())
}

/// The caller's package. Another project's package answers exactly as a missing one.
fn owned_package<'a>(
    state: &'a AppState,
    caller: Caller,
    package_id: &str,
) -> Result<&'a Package, ApiError> {
    state
        .catalogue
        .package(package_id)
        .filter(|package| package.project == caller.0)
        .ok_or_else(|| {
            ApiError::not_found(
                format!("No data package with id '{package_id}' is available to you; dataPackagesUrl lists yours."),
                state.links.package_links(),
            )
        })
}

fn find_version<'a>(
    state: &AppState,
    package: &'a Package,
    version_id: &str,
) -> Result<&'a PackageVersion, ApiError> {
    package.version(version_id).ok_or_else(|| {
        let message = if package.versions.is_empty() {
            format!("Data package '{}' has no versions yet.", package.id)
        } else {
            format!(
                "Data package '{}' has no version '{version_id}'; its versions are listed at {}.",
                package.id,
                state.links.api().versions(&package.id)
            )
        };
        ApiError::not_found(message, state.links.package_links())
    })
}

/// The address of `file`, signed for `--link-lifetime`, of the `kind` given.
fn signed_url(
    state: &AppState,
    kind: LinkKind,
    package: &Package,
    version: &PackageVersion,
    file: &ServedFile,
) -> String {
    let link = SignedLink {
        kind,
        project: &state.catalogue.project(package.project).name,
        package: &package.id,
        version: &version.summary.id,
        file_name: &file.file_name,
    };
    state
        .links
        .signed(&link, &link.sign(&state.signer, state.link_lifetime))
}

fn download_entry(file: &ServedFile, url: String) -> Download {
    Download {
        url,
        file_name: file.file_name.clone(),
        size: Some(file.content.size),
        md5: Some(file.content.md5.clone()),
        flaws: Vec::new(),
    }
}

/// Whether `Accept` ranks `application/json` above any wildcard (`*/*`,
/// `application/*`): only clients that ask for JSON over anything get it.
fn prefers_json(headers: &HeaderMap) -> bool {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let mut json_q = None;
    let mut wildcard: f32 = 0.0;
    for (media, q) in qualities(accept) {
        if media.eq_ignore_ascii_case("application/json") {
            json_q = Some(q);
        } else if media == "*/*" || media.eq_ignore_ascii_case("application/*") {
            wildcard = wildcard.max(q);
        }
    }
    json_q.is_some_and(|q| q > 0.0 && q > wildcard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &'static str) -> HeaderMap {
        [(header::ACCEPT, HeaderValue::from_static(value))]
            .into_iter()
            .collect()
    }

    #[test]
    fn json_is_chosen_only_when_ranked_above_anything() {
        assert!(prefers_json(&accept("application/json")));
        assert!(prefers_json(&accept("application/json, */*;q=0.5")));
        assert!(prefers_json(&accept("text/html;q=0.9, Application/JSON")));
        assert!(!prefers_json(&HeaderMap::new()));
        assert!(!prefers_json(&accept("*/*")));
        assert!(!prefers_json(&accept("application/json, */*")));
        assert!(!prefers_json(&accept(
            "application/json;q=0.5, application/*"
        )));
        assert!(!prefers_json(&accept("application/json;q=0")));
    }
}
