//! What went wrong talking to the Download Service, as the app tells the user.

use download_api::{ErrorBody, OAuthErrorBody};

use crate::text::t;

/// What went wrong talking to the service, with the service's own words when it sent any.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ServiceError {
    /// The service answered with an error body (`message` and links). Boxed: the body
    /// is large and errors travel through every `Result` of the app.
    #[error("{}", .body.message)]
    Answered { status: u16, body: Box<ErrorBody> },
    /// The service answered with an error status and nothing readable.
    #[error("{}", t::errors::answered(status, status_text))]
    Status { status: u16, status_text: String },
    /// The browser got no answer the app may read: the network or the address is
    /// wrong, or the service does not allow this site to read it (CORS); the
    /// browser does not tell which.
    #[error("{}", unreachable_message(url, *endpoint))]
    Unreachable { url: String, endpoint: Endpoint },
    /// A web page (HTML) answered where the service's JSON was expected: the address
    /// is a website, or a static host's "not found" page.
    #[error("{}", t::errors::web_page(url))]
    WebPage { url: String },
    /// The browser would not send the request as it was.
    #[error("{}", t::errors::request(.0))]
    Request(String),
    /// The service only redirects where the app needs a JSON answer.
    #[error("{}", t::errors::only_redirects())]
    OnlyRedirects,
    /// The answer was not what the spec describes.
    #[error("{}", t::errors::decode(.0))]
    Decode(String),
}

/// Which kind of address a request went to, for saying what still works when the
/// browser gets no answer from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// The service's JSON API.
    Api,
    /// The token endpoint (key and secret sign-in).
    Token,
    /// A file's download address.
    File,
}

fn unreachable_message(url: &str, endpoint: Endpoint) -> String {
    match endpoint {
        Endpoint::Api => t::errors::no_answer_api(url),
        Endpoint::Token => t::errors::no_answer_token(url),
        Endpoint::File => t::errors::no_answer_file(url),
    }
}

/// Whether an answer is a web page rather than JSON: its type says HTML, or its
/// text starts like a page does.
fn is_web_page(content_type: Option<&str>, text: &str) -> bool {
    let html_type =
        content_type.is_some_and(|t| t.trim_start().to_ascii_lowercase().starts_with("text/html"));
    let start = text
        .trim_start()
        .get(..5)
        .unwrap_or_default()
        .to_ascii_lowercase();
    html_type || start == "<!doc" || start == "<html"
}

/// Reads a successful answer of the service as `T`: the spec's JSON, or an error
/// saying what came instead.
pub fn read_answer<T: serde::de::DeserializeOwned>(
    url: &str,
    content_type: Option<&str>,
    text: &str,
) -> Result<T, ServiceError> {
    if is_web_page(content_type, text) {
        return Err(ServiceError::WebPage {
            url: url.to_owned(),
        });
    }
    serde_json::from_str(text).map_err(|e| ServiceError::Decode(e.to_string()))
}

impl ServiceError {
    /// The error for a failed answer (`status` not 2xx) from `url`, of type
    /// `content_type`, with body `text`: the spec's error body when the service sent
    /// one, and a web page named as such.
    pub fn from_answer(
        url: &str,
        status: u16,
        status_text: &str,
        content_type: Option<&str>,
        text: &str,
    ) -> Self {
        if is_web_page(content_type, text) {
            return ServiceError::WebPage {
                url: url.to_owned(),
            };
        }
        match serde_json::from_str::<ErrorBody>(text) {
            Ok(body) => ServiceError::Answered {
                status,
                body: Box::new(body),
            },
            Err(_) => ServiceError::Status {
                status,
                status_text: status_text.to_owned(),
            },
        }
    }

    /// The error for a failed answer of the token endpoint, which speaks OAuth 2.0's
    /// error form (`error`, `error_description`) rather than the spec's `message`.
    pub fn from_token_answer(
        url: &str,
        status: u16,
        status_text: &str,
        content_type: Option<&str>,
        text: &str,
    ) -> Self {
        match serde_json::from_str::<OAuthErrorBody>(text) {
            Ok(oauth) => ServiceError::Answered {
                status,
                body: Box::new(ErrorBody::new(
                    oauth.error_description.unwrap_or(oauth.error),
                )),
            },
            Err(_) => Self::from_answer(url, status, status_text, content_type, text),
        }
    }

    /// A short heading for the error.
    pub fn title(&self) -> String {
        match self {
            ServiceError::WebPage { .. } => t::errors::web_page_title().to_owned(),
            ServiceError::Unreachable { .. } => t::errors::no_answer_title().to_owned(),
            _ => match self.status() {
                Some(404) => t::errors::not_found().to_owned(),
                Some(401) => t::errors::sign_in_needed().to_owned(),
                Some(code) => t::errors::answered_title(code),
                None => t::errors::something_wrong().to_owned(),
            },
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

    /// The message for a person: a parser's complaint about the answer's characters
    /// says nothing to them, so an unreadable answer is only named.
    pub fn plain_message(&self) -> String {
        match self {
            ServiceError::Decode(_) => t::errors::unreadable().to_owned(),
            other => other.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_answer_is_named_not_quoted() {
        let decode = ServiceError::Decode("expected value at line 1 column 1".into());
        assert!(!decode.plain_message().contains("line 1"));
        let busy = ServiceError::Status {
            status: 503,
            status_text: "Service Unavailable".into(),
        };
        assert_eq!(
            busy.plain_message(),
            "The service answered 503 Service Unavailable."
        );
    }

    #[test]
    fn an_error_body_gives_the_services_own_words() {
        let error = ServiceError::from_answer(
            "u",
            404,
            "Not Found",
            Some("application/json"),
            r#"{"message":"No product X","downloadCatalogueUrl":"https://x/products"}"#,
        );
        assert_eq!(error.to_string(), "No product X");
        assert_eq!(error.status(), Some(404));
        assert_eq!(error.body().unwrap().links().count(), 1);
        assert_eq!(error.title(), "Not found");
        let bare = ServiceError::from_answer("u", 502, "Bad Gateway", None, "");
        assert_eq!(bare.to_string(), "The service answered 502 Bad Gateway.");
        assert_eq!(bare.title(), "The service answered 502");
        assert!(bare.body().is_none());
    }

    #[test]
    fn the_token_endpoint_speaks_oauth_or_the_spec() {
        let oauth = ServiceError::from_token_answer(
            "t",
            401,
            "Unauthorized",
            None,
            r#"{"error":"invalid_client","error_description":"Bad key"}"#,
        );
        assert_eq!(oauth.to_string(), "Bad key");
        assert!(oauth.is_unauthorized());
        let terse =
            ServiceError::from_token_answer("t", 400, "", None, r#"{"error":"invalid_request"}"#);
        assert_eq!(terse.to_string(), "invalid_request");
        let spec = ServiceError::from_token_answer("t", 401, "", None, r#"{"message":"No"}"#);
        assert_eq!(spec.to_string(), "No");
    }

    #[test]
    fn a_web_page_is_named_as_such_whatever_its_status() {
        let page = "<!DOCTYPE html><html><body>Not found</body></html>";
        let url = "https://example.github.io/downloads/v1/products";
        let not_found = ServiceError::from_answer(url, 404, "Not Found", Some("text/html"), page);
        assert_eq!(not_found, ServiceError::WebPage { url: url.into() });
        assert_eq!(
            not_found.to_string(),
            format!(
                "{url} answered with a web page, not the Download Service: check the service address in Settings."
            )
        );
        assert_eq!(not_found.title(), "Not the Download Service");
        let ok = read_answer::<Vec<u8>>(url, Some("text/html; charset=utf-8"), "<p>hi</p>");
        assert!(matches!(ok, Err(ServiceError::WebPage { .. })));
        let untyped = read_answer::<Vec<u8>>(url, None, "\n  <html lang=en>");
        assert!(matches!(untyped, Err(ServiceError::WebPage { .. })));
        assert_eq!(
            read_answer::<Vec<u8>>(url, Some("application/json"), "[1,2]"),
            Ok(vec![1, 2])
        );
        assert!(matches!(
            read_answer::<Vec<u8>>(url, None, "{}"),
            Err(ServiceError::Decode(_))
        ));
        let token = ServiceError::from_token_answer(url, 405, "", Some("text/html"), page);
        assert!(matches!(token, ServiceError::WebPage { .. }));
    }

    #[test]
    fn no_answer_names_the_likely_cause_and_what_still_works() {
        let unreachable = |endpoint| {
            ServiceError::Unreachable {
                url: "https://api.example/x".into(),
                endpoint,
            }
            .to_string()
        };
        let api = unreachable(Endpoint::Api);
        assert!(
            api.contains("https://api.example/x") && api.contains("CORS"),
            "{api}"
        );
        let token = unreachable(Endpoint::Token);
        assert!(
            token.contains("CORS") && token.contains("access token"),
            "{token}"
        );
        assert!(token.contains("API key only"), "{token}");
        let file = unreachable(Endpoint::File);
        assert!(file.contains("download script"), "{file}");
        assert_eq!(
            ServiceError::Unreachable {
                url: "u".into(),
                endpoint: Endpoint::Api
            }
            .title(),
            "No answer this app may read"
        );
    }
}
