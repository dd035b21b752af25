//! Who is calling: the project of an API key (query `key` or header `key`) or of a
//! bearer token; and the checks of the token endpoint's key and secret.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::{HeaderMap, header};
use download_api::QueryParams;
use headers::authorization::Bearer;
use headers::{Authorization, HeaderMapExt};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::catalogue::{Catalogue, ProjectId};
use crate::error::ApiError;
use crate::signing::TokenError;
use crate::state::AppState;

/// The credentials a request presents, in the order they are looked at.
#[derive(Debug, PartialEq, Eq)]
enum Presented {
    Bearer(String),
    Key(String),
    /// An `Authorization` header of another scheme, and no key.
    Unsupported,
    None,
}

impl Presented {
    fn of(headers: &HeaderMap, query: Option<&str>) -> Result<Presented, ApiError> {
        if let Some(Authorization(bearer)) = headers.typed_get::<Authorization<Bearer>>() {
            return Ok(Presented::Bearer(bearer.token().to_owned()));
        }
        if let Some(key) = headers.get("key") {
            return Ok(Presented::Key(key.to_str().unwrap_or_default().to_owned()));
        }
        if let Some(query) = query
            && let Some(key) = QueryParams::parse(query)?.get("key")
        {
            return Ok(Presented::Key(key.to_owned()));
        }
        Ok(if headers.contains_key(header::AUTHORIZATION) {
            Presented::Unsupported
        } else {
            Presented::None
        })
    }
}

/// Whether the request carries any credentials at all (a key or an `Authorization`).
pub(crate) fn has_credentials(headers: &HeaderMap, query: Option<&str>) -> bool {
    !matches!(Presented::of(headers, query), Ok(Presented::None))
}

/// The caller's project, from whichever credentials the request carries.
pub(crate) fn authenticate(
    state: &AppState,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<ProjectId, ApiError> {
    match Presented::of(headers, query)? {
        Presented::Bearer(token) => {
            let project = state
                .signer
                .check_token(&token, now_ms())
                .map_err(|err| match err {
                    TokenError::Invalid => ApiError::InvalidCredentials,
                    TokenError::Expired => ApiError::TokenExpired {
                        token_url: state.links.token(),
                    },
                })?;
            // A token outlives a catalogue edit only if its project still exists.
            state
                .catalogue
                .project_named(&project)
                .ok_or(ApiError::InvalidCredentials)
        }
        Presented::Key(key) if !key.is_empty() => {
            project_with_key(&state.catalogue, &key).ok_or(ApiError::InvalidCredentials)
        }
        Presented::Key(_) | Presented::Unsupported | Presented::None => {
            Err(ApiError::MissingCredentials)
        }
    }
}

/// The project whose API key this is. Every project is compared, in constant time,
/// so timing says nothing about which keys exist.
pub(crate) fn project_with_key(catalogue: &Catalogue, key: &str) -> Option<ProjectId> {
    let hash: [u8; 32] = Sha256::digest(key.as_bytes()).into();
    let mut found = None;
    for (id, project) in catalogue.projects() {
        if bool::from(project.key_sha256.ct_eq(&hash)) {
            found = Some(id);
        }
    }
    found
}

/// Whether `secret` is the API secret of `project`, in constant time.
pub(crate) fn secret_matches(catalogue: &Catalogue, project: ProjectId, secret: &str) -> bool {
    let hash: [u8; 32] = Sha256::digest(secret.as_bytes()).into();
    bool::from(catalogue.project(project).secret_sha256.ct_eq(&hash))
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| {
                (
                    header::HeaderName::from_static(name),
                    HeaderValue::from_static(value),
                )
            })
            .collect()
    }

    #[test]
    fn bearer_comes_before_header_key_before_query_key() {
        let all = headers(&[("authorization", "Bearer tok"), ("key", "hk")]);
        assert_eq!(
            Presented::of(&all, Some("key=qk")).unwrap(),
            Presented::Bearer("tok".into())
        );
        let keys = headers(&[("key", "hk")]);
        assert_eq!(
            Presented::of(&keys, Some("key=qk")).unwrap(),
            Presented::Key("hk".into())
        );
        assert_eq!(
            Presented::of(&HeaderMap::new(), Some("a=1&key=q%20k")).unwrap(),
            Presented::Key("q k".into())
        );
        // Like every query parameter, the last `key` counts.
        assert_eq!(
            Presented::of(&HeaderMap::new(), Some("key=old&key=new")).unwrap(),
            Presented::Key("new".into())
        );
    }

    #[test]
    fn other_schemes_are_unsupported_and_nothing_is_missing() {
        let basic = headers(&[("authorization", "Basic YTpi")]);
        assert_eq!(Presented::of(&basic, None).unwrap(), Presented::Unsupported);
        assert_eq!(
            Presented::of(&HeaderMap::new(), Some("expanded")).unwrap(),
            Presented::None
        );
        // A key in the query still counts next to an unsupported header.
        assert_eq!(
            Presented::of(&basic, Some("key=k")).unwrap(),
            Presented::Key("k".into())
        );
    }
}
