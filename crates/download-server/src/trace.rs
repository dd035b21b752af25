//! Request logging (with `--log-requests`): method, path, query, status and latency of
//! each request. Secrets stay out: the value of every query parameter whose name
//! suggests a credential is redacted, and no header is logged. A long path or query is
//! cut, so one request cannot write an unbounded line.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, Response};
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::TraceLayer;
use tracing::Span;

/// Parts of a query parameter's name (lower case, without `_`, `-` or `.`) that mark
/// its value as a credential: `key`, `api_key`, `apiKey`, `client_id`, `access_token`,
/// `X-Amz-Signature`, `password`…
const SECRET_NAME_PARTS: [&str; 10] = [
    "key",
    "token",
    "secret",
    "signature",
    "passw",
    "pwd",
    "auth",
    "credential",
    "clientid",
    "session",
];

/// The longest path or query logged, in bytes.
const MAX_LOGGED: usize = 512;

type MakeSpan = fn(&Request<Body>) -> Span;
type OnResponse = fn(&Response<Body>, Duration, &Span);

pub(crate) fn layer()
-> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, MakeSpan, (), OnResponse> {
    TraceLayer::new_for_http()
        .make_span_with(make_span as MakeSpan)
        .on_request(())
        .on_response(on_response as OnResponse)
}

fn make_span(request: &Request<Body>) -> Span {
    let span = tracing::info_span!(
        "request",
        method = %request.method(),
        path = tracing::field::Empty,
        query = tracing::field::Empty,
    );
    // Redacting allocates: only when the span is logged at all.
    if !span.is_disabled() {
        span.record("path", tracing::field::display(cut(request.uri().path())));
        if let Some(query) = request.uri().query() {
            span.record("query", tracing::field::display(cut(&redact_query(query))));
        }
    }
    span
}

fn on_response(response: &Response<Body>, latency: Duration, _span: &Span) {
    tracing::info!(
        status = response.status().as_u16(),
        latency_us = latency.as_micros() as u64,
        "answered"
    );
}

/// `text`, or its first [`MAX_LOGGED`] bytes marked as cut.
fn cut(text: &str) -> String {
    if text.len() <= MAX_LOGGED {
        return text.to_owned();
    }
    let mut end = MAX_LOGGED;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…[cut: {} bytes in all]", &text[..end], text.len())
}

/// Whether a query parameter of this (decoded) name may carry a credential.
fn is_secret(name: &str) -> bool {
    let name: String = name
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    SECRET_NAME_PARTS.iter().any(|part| name.contains(part))
}

/// The raw query with the values of secret parameters replaced.
pub(crate) fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| {
            let (raw_name, _) = pair.split_once('=').unwrap_or((pair, ""));
            let name = percent_encoding::percent_decode_str(raw_name).decode_utf8_lossy();
            if is_secret(&name) {
                format!("{raw_name}=REDACTED")
            } else {
                pair.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_values_are_redacted_and_the_rest_kept() {
        assert_eq!(
            redact_query("fileName=a.zip&expires=17&signature=abc&key=k3y&%6Bey=x"),
            "fileName=a.zip&expires=17&signature=REDACTED&key=REDACTED&%6Bey=REDACTED"
        );
        assert_eq!(redact_query("expanded"), "expanded");
        assert_eq!(redact_query("KEY"), "KEY=REDACTED");
        for name in [
            "api_key",
            "apiKey",
            "client_id",
            "client_secret",
            "access_token",
            "X-Amz-Signature",
            "password",
            "auth",
        ] {
            assert_eq!(
                redact_query(&format!("{name}=s3cret&area=SU")),
                format!("{name}=REDACTED&area=SU")
            );
        }
    }

    #[test]
    fn long_text_is_cut_at_a_character_boundary() {
        assert_eq!(cut("/short"), "/short");
        let long = format!("/{}", "é".repeat(400));
        let logged = cut(&long);
        assert!(logged.ends_with("…[cut: 801 bytes in all]"), "{logged}");
        assert!(logged.len() < MAX_LOGGED + 40);
    }
}
