//! The request extractors of the API's handlers: path parameters that answer the API's
//! 404, the query's parameters, and who a request acts for (its credentials, or the
//! signed link it follows).

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use download_api::QueryParams;
use serde::de::DeserializeOwned;

use crate::auth::{authenticate, has_credentials};
use crate::catalogue::{Package, ProjectId};
use crate::error::ApiError;
use crate::signed_link::{LinkError, LinkKind, SignedLink};
use crate::state::{AppState, SharedState};

/// Path parameters; a segment that does not decode is simply not found.
#[derive(Debug)]
pub(crate) struct ApiPath<T>(pub T);

impl<T: DeserializeOwned + Send> FromRequestParts<SharedState> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Self, Self::Rejection> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(ApiPath(value)),
            Err(rejection) => Err(ApiError::not_found(
                format!("No such resource: {}", rejection.body_text()),
                state.links.all_links(),
            )),
        }
    }
}

/// The request's query parameters; a broken encoding is a 400.
#[derive(Debug)]
pub(crate) struct Params(pub QueryParams);

impl<S: Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        Ok(Params(QueryParams::parse(query)?))
    }
}

/// The project a data package request acts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Caller(pub ProjectId);

impl FromRequestParts<SharedState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Self, Self::Rejection> {
        authenticate(state, &parts.headers, parts.uri.query()).map(Caller)
    }
}

/// How a request to the API's downloads endpoint of a data package file
/// (`…/versions/{v}/downloads?fileName=…`) is authorised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileAccess {
    /// The genuine, unexpired signature of a link a version listed: it acts for the
    /// project owning the package.
    SignedLink(Caller),
    /// The caller's own key or token.
    Credentials(Caller),
}

impl FileAccess {
    /// The project the request acts for.
    pub(crate) fn caller(self) -> Caller {
        match self {
            FileAccess::SignedLink(caller) | FileAccess::Credentials(caller) => caller,
        }
    }
}

impl FromRequestParts<SharedState> for FileAccess {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Self, Self::Rejection> {
        let ApiPath((package_id, version_id)) =
            ApiPath::<(String, String)>::from_request_parts(parts, state).await?;
        let query = parts.uri.query();
        let params = QueryParams::parse(query.unwrap_or_default())?;
        if !params.contains("signature") && !params.contains("expires") {
            return authenticate(state, &parts.headers, query)
                .map(Caller)
                .map(FileAccess::Credentials);
        }
        let file_name = params
            .get("fileName")
            .filter(|name| !name.is_empty())
            .ok_or_else(ApiError::missing_file_name)?;
        let link = verify_package(
            state,
            LinkKind::Api,
            &package_id,
            &version_id,
            file_name,
            query,
        );
        match link {
            Ok(package) => Ok(FileAccess::SignedLink(Caller(package.project))),
            // Someone holding an old link and their own credentials still gets through.
            Err(_) if has_credentials(&parts.headers, query) => {
                authenticate(state, &parts.headers, query)
                    .map(Caller)
                    .map(FileAccess::Credentials)
            }
            Err(err) => Err(err),
        }
    }
}

/// The package a signed link of `kind` to this file opens, if the request's `query`
/// carries a genuine, unexpired signature for it. A link to a package that does not
/// exist fails like a forged one, so links reveal nothing.
pub(crate) fn verify_package<'s>(
    state: &'s AppState,
    kind: LinkKind,
    package_id: &str,
    version_id: &str,
    file_name: &str,
    query: Option<&str>,
) -> Result<&'s Package, ApiError> {
    let package = state
        .catalogue
        .package(package_id)
        .ok_or(LinkError::Invalid(kind))?;
    let link = SignedLink {
        kind,
        project: &state.catalogue.project(package.project).name,
        package: package_id,
        version: version_id,
        file_name,
    };
    link.verify(
        &state.signer,
        &QueryParams::parse(query.unwrap_or_default())?,
    )?;
    Ok(package)
}
