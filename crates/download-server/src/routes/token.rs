//! `POST /oauth2/token/v1`: the OAuth 2.0 client credentials grant. The API key and
//! secret come in HTTP Basic authentication; the token is stateless and signed.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use download_api::{TokenResponse, parse_query};
use tower_http::set_header::SetResponseHeaderLayer;

use super::{SharedState, json, param};
use crate::auth::{now_ms, project_with_key, secret_matches};
use crate::error::ApiError;
use crate::links::TOKEN_PATH;

pub(crate) fn router() -> Router<SharedState> {
    Router::new()
        .route(TOKEN_PATH, post(issue))
        .method_not_allowed_fallback(post_only)
        // Tokens and their errors must never be cached (RFC 6749 §5.1).
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::PRAGMA,
            HeaderValue::from_static("no-cache"),
        ))
}

async fn post_only(method: Method) -> ApiError {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
        allowed: "POST with a form body grant_type=client_credentials",
    }
}

const CREDENTIALS_TIP: &str = "check that the key and secret are correct and separated by a colon \
     in the Basic authentication (base64 of key:secret)";

async fn issue(
    State(state): State<SharedState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let form = read_form(&headers, body)?;
    match param(&form, "grant_type").as_deref() {
        Some("client_credentials") => {}
        None | Some("") => {
            return Err(oauth(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "Missing grant_type: send the form body grant_type=client_credentials.".into(),
            ));
        }
        Some(other) => {
            return Err(oauth(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                format!("Only grant_type=client_credentials is supported, not '{other}'."),
            ));
        }
    }

    let (key, secret) = client_credentials(&headers, &form)?;
    let project = project_with_key(&state.catalogue, &key)
        .filter(|&project| secret_matches(&state.catalogue, project, &secret))
        .ok_or_else(|| {
            oauth(
                StatusCode::UNAUTHORIZED,
                "invalid_client",
                format!("Invalid API key or secret: {CREDENTIALS_TIP}."),
            )
        })?;

    let issued_at = now_ms();
    let ttl = state.token_ttl;
    let expires = issued_at.saturating_add(ttl.saturating_mul(1000));
    let name = &state.catalogue.projects()[project].name;
    let token = TokenResponse {
        access_token: state.signer.issue_token(name, expires),
        expires_in: ttl,
        issued_at,
        token_type: "Bearer".to_owned(),
    };
    Ok(json(serde_json::to_vec(&token).unwrap_or_default().into()))
}

/// The form body, as names and values.
fn read_form(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Vec<(String, String)>, ApiError> {
    let malformed = |why: &str| {
        oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            format!(
                "{why}: send a form-encoded body (Content-Type: application/x-www-form-urlencoded) \
                 with grant_type=client_credentials."
            ),
        )
    };
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap_or_default().to_ascii_lowercase());
    if let Some(content_type) = content_type
        && !content_type.starts_with("application/x-www-form-urlencoded")
    {
        return Err(malformed(&format!(
            "The body is {content_type}, not a form"
        )));
    }
    let body = body.map_err(|err| malformed(&format!("The body could not be read ({err})")))?;
    let text = std::str::from_utf8(&body).map_err(|_| malformed("The body is not UTF-8"))?;
    parse_query(text.trim())
        .map_err(|err| malformed(&format!("The body is not a valid form ({err})")))
}

/// The API key and secret: HTTP Basic, or (RFC 6749 §2.3.1 allows it) the form's
/// `client_id` and `client_secret`.
fn client_credentials(
    headers: &HeaderMap,
    form: &[(String, String)],
) -> Result<(String, String), ApiError> {
    let unauthorized =
        |description: String| oauth(StatusCode::UNAUTHORIZED, "invalid_client", description);
    let Some(authorization) = headers.get(header::AUTHORIZATION) else {
        return match (param(form, "client_id"), param(form, "client_secret")) {
            (Some(key), Some(secret)) => Ok((key, secret)),
            _ => Err(unauthorized(
                "Missing client credentials: send HTTP Basic authentication with the project's \
                 API key as user name and its API secret as password."
                    .into(),
            )),
        };
    };
    let malformed = || {
        unauthorized(format!(
            "Malformed Basic authentication: {CREDENTIALS_TIP}."
        ))
    };
    let value = authorization.to_str().map_err(|_| malformed())?;
    let (scheme, encoded) = value.trim().split_once(' ').ok_or_else(malformed)?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return Err(unauthorized(format!(
            "The token endpoint takes HTTP Basic authentication, not {scheme}: {CREDENTIALS_TIP}."
        )));
    }
    let decoded = STANDARD.decode(encoded.trim()).map_err(|_| malformed())?;
    let decoded = String::from_utf8(decoded).map_err(|_| malformed())?;
    let (key, secret) = decoded.split_once(':').ok_or_else(malformed)?;
    Ok((key.to_owned(), secret.to_owned()))
}

fn oauth(status: StatusCode, error: &'static str, description: String) -> ApiError {
    ApiError::OAuth {
        status,
        error,
        description,
    }
}
