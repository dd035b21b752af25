//! Content negotiation: quality values (RFC 9110 §12.4.2), as `Accept` and
//! `Accept-Encoding` weigh their choices (`gzip;q=0.5, br`), and the content coding to
//! send.

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};

/// A request's `Accept-Encoding`, for answers that come in several encodings.
#[derive(Debug, Clone, Default)]
pub(crate) struct AcceptEncoding(pub(crate) Option<HeaderValue>);

impl<S: Sync> FromRequestParts<S> for AcceptEncoding {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(Self(parts.headers.get(header::ACCEPT_ENCODING).cloned()))
    }
}

impl AcceptEncoding {
    /// The encoding to send from `available` (best first, identity last).
    pub(crate) fn choose(&self, available: impl IntoIterator<Item = Encoding>) -> Encoding {
        negotiate(self.0.as_ref(), available)
    }
}

/// Each item of such a header value with its weight: 1 when unstated, 0 when it cannot
/// be read (an unreadable weight never wins), otherwise clamped to 0..=1.
pub(crate) fn qualities(value: &str) -> impl Iterator<Item = (&str, f32)> {
    value.split(',').map(|item| {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or_default().trim();
        let q = parts
            .filter_map(|param| param.split_once('='))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
            .map_or(1.0, |(_, q)| {
                q.trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|q| q.is_finite())
                    .unwrap_or(0.0)
            })
            .clamp(0.0, 1.0);
        (name, q)
    })
}

/// A content coding we can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

/// The encoding to send, from `available` (best first, identity last), by the
/// client's `Accept-Encoding`: the highest quality wins, ties go to the better one;
/// a quality of 0 refuses. Without the header only identity is sent (what browsers
/// and servers do, whatever RFC 9110 allows). If the client refuses even identity, it
/// gets identity anyway: the file is better than a 406.
pub(crate) fn negotiate(
    accept: Option<&HeaderValue>,
    available: impl IntoIterator<Item = Encoding>,
) -> Encoding {
    let Some(accept) = accept.and_then(|value| value.to_str().ok()) else {
        return Encoding::Identity;
    };
    let mut best = (Encoding::Identity, 0.0);
    for encoding in available {
        let q = quality(accept, encoding);
        if q > best.1 {
            best = (encoding, q);
        }
    }
    best.0
}

impl Encoding {
    /// The `Content-Encoding` of a body in this encoding.
    pub(crate) fn content_coding(self) -> Option<&'static str> {
        match self {
            Encoding::Brotli => Some("br"),
            Encoding::Gzip => Some("gzip"),
            Encoding::Identity => None,
        }
    }
}

/// The quality `accept` gives `encoding`: its own entry's, else `*`'s, else 0. An
/// unlisted identity is acceptable but last choice: `gzip;q=0.5` asks for gzip.
fn quality(accept: &str, encoding: Encoding) -> f32 {
    let names: &[&str] = match encoding {
        Encoding::Brotli => &["br"],
        Encoding::Gzip => &["gzip", "x-gzip"],
        Encoding::Identity => &["identity"],
    };
    let mut wildcard = None;
    for (name, q) in qualities(accept) {
        if names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
            return q;
        }
        if name == "*" {
            wildcard = Some(q);
        }
    }
    match (wildcard, encoding) {
        (Some(q), _) => q,
        (None, Encoding::Identity) => 0.001,
        (None, _) => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(accept: Option<&str>, available: &[Encoding]) -> Encoding {
        let header = accept.map(|value| HeaderValue::from_str(value).unwrap());
        negotiate(header.as_ref(), available.iter().copied())
    }

    #[test]
    fn negotiation_prefers_brotli_then_gzip_and_honours_quality() {
        use Encoding::{Brotli, Gzip, Identity};
        let all = [Brotli, Gzip, Identity];
        let cases = [
            (None, Identity),
            (Some(""), Identity),
            (Some("gzip, deflate, br, zstd"), Brotli),
            (Some("gzip"), Gzip),
            (Some("GZIP"), Gzip),
            (Some("x-gzip"), Gzip),
            (Some("br;q=0, gzip"), Gzip),
            (Some("br; q=0.0, gzip;q=0"), Identity),
            (Some("br;q=0.5, gzip;q=0.8"), Gzip),
            (Some("gzip;q=0.1"), Gzip),
            (Some("identity, gzip;q=0.5"), Identity),
            (Some("*"), Brotli),
            (Some("*;q=0, gzip"), Gzip),
            (Some("identity;q=0, *;q=0"), Identity),
            (Some("deflate"), Identity),
        ];
        for (accept, expected) in cases {
            assert_eq!(chosen(accept, &all), expected, "{accept:?}");
        }
        // Only what the file comes in.
        assert_eq!(chosen(Some("br, gzip"), &[Gzip, Identity]), Gzip);
        assert_eq!(chosen(Some("br"), &[Gzip, Identity]), Identity);
    }

    #[test]
    fn weights_default_to_one_and_bad_ones_count_as_zero() {
        let read: Vec<_> =
            qualities("br;q=0.5, gzip , text/html;level=1;Q=0.2, x;q=abc, y;q=7, z;q=NaN")
                .collect();
        assert_eq!(
            read,
            [
                ("br", 0.5),
                ("gzip", 1.0),
                ("text/html", 0.2),
                ("x", 0.0),
                ("y", 1.0),
                ("z", 0.0)
            ]
        );
    }
}
