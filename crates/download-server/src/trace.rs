//! Request logging: method, path, query, status and latency of each request. Secrets
//! stay out: `key`, `signature` and other credential values in the query are
//! redacted, and no header is logged.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, Response};
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::TraceLayer;
use tracing::Span;

/// Query parameters whose values are never logged.
const SECRET_PARAMS: [&str; 6] = [
    "key",
    "signature",
    "access_token",
    "token",
    "client_secret",
    "secret",
];

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
        path = %request.uri().path(),
        query = tracing::field::Empty,
    );
    // Redacting allocates: only when the span is logged at all.
    if !span.is_disabled()
        && let Some(query) = request.uri().query()
    {
        span.record("query", tracing::field::display(redact_query(query)));
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

/// The raw query with the values of secret parameters replaced.
pub(crate) fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| {
            let (raw_name, _) = pair.split_once('=').unwrap_or((pair, ""));
            let name = percent_encoding::percent_decode_str(raw_name).decode_utf8_lossy();
            if SECRET_PARAMS
                .iter()
                .any(|secret| name.eq_ignore_ascii_case(secret))
            {
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
    }
}
