//! What went wrong talking to the Download Service, as the app tells the user.

use download_api::{ErrorBody, OAuthErrorBody};

/// What went wrong talking to the service, with the service's own words when it sent any.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ServiceError {
    /// The service answered with an error body (`message` and links).
    #[error("{}", .body.message)]
    Answered { status: u16, body: ErrorBody },
    /// The service answered with an error status and nothing readable.
    #[error("The service answered {status} {status_text}.")]
    Status { status: u16, status_text: String },
    /// The request never got an answer (network down, wrong address, CORS).
    #[error(
        "Could not reach the service at {url}. Check the address in Settings and your connection."
    )]
    Network { url: String },
    /// The browser would not send the request as it was.
    #[error("The browser could not send the request ({0}).")]
    Request(String),
    /// The service only redirects where the app needs a JSON answer.
    #[error(
        "The service only answers with a redirect here, so the browser cannot ask it for the file's direct address."
    )]
    OnlyRedirects,
    /// The answer was not what the spec describes.
    #[error("The service sent an answer this app could not read ({0}).")]
    Decode(String),
}

impl ServiceError {
    /// The error for a failed answer (`status` not 2xx) with body `text`: the spec's
    /// error body when the service sent one.
    pub fn from_answer(status: u16, status_text: &str, text: &str) -> Self {
        match serde_json::from_str::<ErrorBody>(text) {
            Ok(body) => ServiceError::Answered { status, body },
            Err(_) => ServiceError::Status {
                status,
                status_text: status_text.to_owned(),
            },
        }
    }

    /// The error for a failed answer of the token endpoint, which speaks OAuth 2.0's
    /// error form (`error`, `error_description`) rather than the spec's `message`.
    pub fn from_token_answer(status: u16, status_text: &str, text: &str) -> Self {
        match serde_json::from_str::<OAuthErrorBody>(text) {
            Ok(oauth) => ServiceError::Answered {
                status,
                body: ErrorBody::new(oauth.error_description.unwrap_or(oauth.error)),
            },
            Err(_) => Self::from_answer(status, status_text, text),
        }
    }

    /// The HTTP status, when the service answered at all.
    pub fn status(&self) -> Option<u16> {
        match self {
            ServiceError::Answered { status, .. } | ServiceError::Status { status, .. } => {
                Some(*status)
            }
            _ => None,
        }
    }

    /// True when the credentials are missing, wrong or expired.
    pub fn is_unauthorized(&self) -> bool {
        self.status() == Some(401)
    }

    /// The service's error body, when it sent one.
    pub fn body(&self) -> Option<&ErrorBody> {
        match self {
            ServiceError::Answered { body, .. } => Some(body),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_body_gives_the_services_own_words() {
        let error = ServiceError::from_answer(
            404,
            "Not Found",
            r#"{"message":"No product X","downloadCatalogueUrl":"https://x/products"}"#,
        );
        assert_eq!(error.to_string(), "No product X");
        assert_eq!(error.status(), Some(404));
        assert_eq!(error.body().unwrap().links().count(), 1);
        let bare = ServiceError::from_answer(502, "Bad Gateway", "");
        assert_eq!(bare.to_string(), "The service answered 502 Bad Gateway.");
        assert!(bare.body().is_none());
    }

    #[test]
    fn the_token_endpoint_speaks_oauth_or_the_spec() {
        let oauth = ServiceError::from_token_answer(
            401,
            "Unauthorized",
            r#"{"error":"invalid_client","error_description":"Bad key"}"#,
        );
        assert_eq!(oauth.to_string(), "Bad key");
        assert!(oauth.is_unauthorized());
        let terse = ServiceError::from_token_answer(400, "", r#"{"error":"invalid_request"}"#);
        assert_eq!(terse.to_string(), "invalid_request");
        let spec = ServiceError::from_token_answer(401, "", r#"{"message":"No"}"#);
        assert_eq!(spec.to_string(), "No");
    }
}
