//! `POST /oauth2/token/v1`: the OAuth 2.0 client credentials grant. The API key and
//! secret come in HTTP Basic authentication; the token is stateless and signed.

use axum::Router;
use axum::extract::{DefaultBodyLimit, Form, FromRequest, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use axum::routing::post;
use download_api::TokenResponse;
use headers::authorization::Basic;
use headers::{Authorization, HeaderMapExt};
use serde::Deserialize;
use tower_http::set_header::SetResponseHeaderLayer;

use super::json_of;
use crate::auth::{now_ms, project_with_key, secret_matches};
use crate::error::ApiError;
use crate::links::TOKEN_PATH;
use crate::state::SharedState;

/// The largest token request body: its form holds a grant type, and at most a key and
/// a secret.
const MAX_BODY: usize = 8 * 1024;

pub(crate) fn router() -> Router<SharedState> {
    Router::new()
        .route(TOKEN_PATH, post(issue))
        .method_not_allowed_fallback(post_only)
        .layer(DefaultBodyLimit::max(MAX_BODY))
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

/// The token request's form body (other fields are ignored), read within the body
/// timeout; what goes wrong is answered in the OAuth2 form.
#[derive(Debug, Deserialize)]
struct TokenForm {
    grant_type: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
}

impl FromRequest<SharedState> for TokenForm {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &SharedState) -> Result<Self, ApiError> {
        let read = Form::<TokenForm>::from_request(request, state);
        let fix = "send a form-encoded body (Content-Type: application/x-www-form-urlencoded) \
                   with grant_type=client_credentials";
        match tokio::time::timeout(state.body_timeout, read).await {
            Ok(Ok(Form(form))) => Ok(form),
            Ok(Err(rejection)) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(oauth(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "invalid_request",
                    format!("The body is larger than {MAX_BODY} bytes: {fix}."),
                ))
            }
            Ok(Err(rejection)) => Err(oauth(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                format!("{}: {fix}.", rejection.body_text()),
            )),
            Err(_) => Err(oauth(
                StatusCode::REQUEST_TIMEOUT,
                "invalid_request",
                format!(
                    "The body did not arrive within {} seconds: {fix}.",
                    state.body_timeout.as_secs()
                ),
            )),
        }
    }
}

async fn issue(
    State(state): State<SharedState>,
    headers: HeaderMap,
    form: TokenForm,
) -> Result<Response, ApiError> {
    match form.grant_type.as_deref() {
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

    let (key, secret) = client_credentials(&headers, form)?;
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
    let name = &state.catalogue.project(project).name;
    let token = TokenResponse {
        access_token: state.signer.issue_token(name, expires),
        expires_in: ttl,
        issued_at,
        token_type: "Bearer".to_owned(),
    };
    json_of(&token)
}

/// The API key and secret: HTTP Basic, or (RFC 6749 §2.3.1 allows it) the form's
/// `client_id` and `client_secret`.
fn client_credentials(headers: &HeaderMap, form: TokenForm) -> Result<(String, String), ApiError> {
    let unauthorized =
        |description: String| oauth(StatusCode::UNAUTHORIZED, "invalid_client", description);
    let Some(authorization) = headers.get(header::AUTHORIZATION) else {
        return match (form.client_id, form.client_secret) {
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
    if let Some(Authorization(basic)) = headers.typed_get::<Authorization<Basic>>() {
        return Ok((basic.username().to_owned(), basic.password().to_owned()));
    }
    let scheme = authorization
        .to_str()
        .ok()
        .and_then(|value| value.split(' ').next())
        .filter(|scheme| !scheme.eq_ignore_ascii_case("basic"));
    Err(match scheme {
        Some(scheme) => unauthorized(format!(
            "The token endpoint takes HTTP Basic authentication, not {scheme}: {CREDENTIALS_TIP}."
        )),
        None => malformed(),
    })
}

fn oauth(status: StatusCode, error: &'static str, description: String) -> ApiError {
    ApiError::OAuth {
        status,
        error,
        description,
    }
}
