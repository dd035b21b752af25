//! The server's two error types: [`Error`] stops it from starting, [`ApiError`] answers
//! one request with the JSON error body of the API (`docs/api.md`).

use std::io;

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use download_api::{ErrorBody, OAuthErrorBody, ParseError};
use thiserror::Error;

use crate::signed_link::LinkError;

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum Error {
    /// `catalogue.json` is not valid JSON or does not follow the catalogue format.
    #[error("{file} line {line} column {column}: {message}")]
    CatalogueSyntax {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// A catalogue file is missing or unreadable, or the catalogue breaks a rule of the
    /// format; `file` names the file at fault (relative to the catalogue directory).
    #[error("{file}: {message}")]
    Catalogue { file: String, message: String },
    /// The `--public-url` cannot be used as the origin of links.
    #[error("--public-url '{url}': {message}")]
    PublicUrl { url: String, message: String },
    /// The `--web-root` directory cannot be served.
    #[error("--web-root {path}: {message}")]
    WebRoot { path: String, message: String },
    /// The object store of `--storage` cannot be used.
    #[error("storage: {0}")]
    Storage(#[from] crate::storage::StorageError),
    /// Publishing stopped (see `download-server publish`).
    #[error("publish: {0}")]
    Publish(String),
    /// Listening or serving failed.
    #[error("server: {0}")]
    Io(#[from] io::Error),
}

/// Why a request failed; turned into the spec's JSON body in [`IntoResponse`].
#[derive(Debug, Error)]
pub enum ApiError {
    /// A query parameter could not be read (a bad boolean, broken encoding).
    #[error("{0}")]
    BadQuery(#[from] ParseError),
    /// A required query parameter is missing.
    #[error("{0}")]
    BadRequest(String),
    /// No API key or token was sent (or in an unsupported form).
    #[error("Missing or unsupported API key provided.")]
    MissingCredentials,
    /// The API key or token is unknown or forged.
    #[error("Invalid API key or access token.")]
    InvalidCredentials,
    /// The access token was genuine but has expired.
    #[error("Access token expired: request a new one from {token_url}.")]
    TokenExpired { token_url: String },
    /// A signed link is forged, altered or expired: like a bad key, a 401 (the
    /// spec's answer for invalid credentials).
    #[error("{0}")]
    BadLink(#[from] LinkError),
    /// Nothing here; the body carries links to places that exist.
    #[error("{}", .0.message)]
    NotFound(Box<ErrorBody>),
    /// The path exists but not with this method.
    #[error("Method {method} is not allowed here: use {allowed}.")]
    MethodNotAllowed {
        method: String,
        allowed: &'static str,
    },
    /// The request target is longer than the server reads.
    #[error("The request target is {length} bytes long; at most {limit} are read.")]
    UriTooLong { length: usize, limit: usize },
    /// The request has more header fields than the server reads.
    #[error("The request has {count} header fields; at most {limit} are read.")]
    TooManyHeaderFields { count: usize, limit: usize },
    /// `If-Match` or `If-Unmodified-Since` names another version of the file.
    #[error(
        "Precondition failed: the file is not the version If-Match or If-Unmodified-Since \
         names; fetch it again without them."
    )]
    PreconditionFailed,
    /// The client's allowance under `--rate-limit` is used up.
    #[error(
        "Too many requests: at most {per_minute} a minute are answered for each API key (or \
         each address, without one); retry in {retry_after} s."
    )]
    TooManyRequests { per_minute: u32, retry_after: u64 },
    /// The requested byte range lies outside the file.
    #[error("Range not satisfiable: the file has {size} bytes.")]
    RangeNotSatisfiable { size: u64 },
    /// The token endpoint's errors, in OAuth 2.0 form (RFC 6749 §5.2).
    #[error("{error}: {description}")]
    OAuth {
        status: StatusCode,
        error: &'static str,
        description: String,
    },
    /// The server's own fault (a catalogue file changed or vanished on disk).
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// A 404 with a message and the links in `links`.
    pub(crate) fn not_found(message: impl Into<String>, links: ErrorBody) -> ApiError {
        ApiError::NotFound(Box::new(ErrorBody {
            message: message.into(),
            ..links
        }))
    }

    /// The downloads endpoint's 400 without `fileName`.
    pub(crate) fn missing_file_name() -> ApiError {
        ApiError::BadRequest(
            "Query parameter 'fileName' is required: the name of one of the files the version \
             lists in its downloads."
                .into(),
        )
    }

    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadQuery(_) | ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::MissingCredentials
            | ApiError::InvalidCredentials
            | ApiError::TokenExpired { .. }
            | ApiError::BadLink(_) => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::UriTooLong { .. } => StatusCode::URI_TOO_LONG,
            ApiError::TooManyHeaderFields { .. } => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::PreconditionFailed => StatusCode::PRECONDITION_FAILED,
            ApiError::RangeNotSatisfiable { .. } => StatusCode::RANGE_NOT_SATISFIABLE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::OAuth { status, .. } => *status,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::error!("{self}");
        }
        let written = match &self {
            ApiError::NotFound(body) => serde_json::to_vec(body),
            ApiError::OAuth {
                error, description, ..
            } => serde_json::to_vec(&OAuthErrorBody {
                error: (*error).to_owned(),
                error_description: Some(description.clone()),
            }),
            other => serde_json::to_vec(&ErrorBody::new(other.to_string())),
        };
        let (status, body) = match written {
            Ok(body) => (status, Body::from(body)),
            Err(err) => {
                tracing::error!("cannot write the JSON body of a {status} answer: {err}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Body::from(r#"{"message":"Internal error."}"#),
                )
            }
        };
        let mut response = Response::new(body);
        *response.status_mut() = status;
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        match self {
            ApiError::MissingCredentials
            | ApiError::InvalidCredentials
            | ApiError::TokenExpired { .. }
            | ApiError::BadLink(_) => {
                // Every 401 names a scheme (RFC 9110 §11.6.1).
                headers.insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"Download Service\""),
                );
            }
            ApiError::TooManyRequests { retry_after, .. } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
            }
            ApiError::RangeNotSatisfiable { size } => {
                if let Ok(value) = HeaderValue::try_from(format!("bytes */{size}")) {
                    headers.insert(header::CONTENT_RANGE, value);
                }
            }
            ApiError::OAuth { status, .. } => {
                headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
                // RFC 6749 §5.2: an invalid_client 401 names the scheme the client
                // authenticates with.
                if status == StatusCode::UNAUTHORIZED {
                    headers.insert(
                        header::WWW_AUTHENTICATE,
                        HeaderValue::from_static("Basic realm=\"Download Service\""),
                    );
                }
            }
            _ => {}
        }
        // These answer before the request body has been read (too large, or too slow): the
        // connection closes after them, and says so (RFC 9112 §9.6), so that a client does
        // not send its next request on it.
        if matches!(
            status,
            StatusCode::PAYLOAD_TOO_LARGE | StatusCode::REQUEST_TIMEOUT
        ) {
            headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_of(error: ApiError) -> (StatusCode, serde_json::Value) {
        let response = error.into_response();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn spec_errors_carry_a_message_and_links() {
        let (status, body) = body_of(ApiError::not_found(
            "No product 'X'.",
            ErrorBody {
                download_catalogue_url: Some("http://h/downloads/v1/products".into()),
                ..ErrorBody::default()
            },
        ))
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["message"], "No product 'X'.");
        assert_eq!(
            body["downloadCatalogueUrl"],
            "http://h/downloads/v1/products"
        );
        let (status, body) = body_of(ApiError::MissingCredentials).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["message"], "Missing or unsupported API key provided.");
    }

    #[tokio::test]
    async fn token_errors_use_the_oauth_form() {
        let (status, body) = body_of(ApiError::OAuth {
            status: StatusCode::BAD_REQUEST,
            error: "unsupported_grant_type",
            description: "use client_credentials".into(),
        })
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["error"], "unsupported_grant_type");
        assert_eq!(body["error_description"], "use client_credentials");
        assert!(body.get("message").is_none());
    }
}
