//! A cache of the JSON answers that never change (the product list, each product and
//! its downloads, each data package): each serialised once when the catalogue loads,
//! each compressed copy made once when first asked for, and sent in the encoding the
//! client asks for.
//!
//! tower-http's `CompressionLayer` compresses a body again on every request: measured
//! with `wrk` on the demo's 56 kB download list, 900 requests/s with
//! `Accept-Encoding: br` (what every browser sends) against 32,000 without. A body that
//! never changes is compressed once, on first demand, and the copy kept. Answers built
//! per request (filtered lists, versions with signed links, errors) still go through
//! the layer, which leaves a body that already has a `Content-Encoding` alone.

use std::io::{self, Write};

use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use flate2::write::GzEncoder;
use tokio::sync::OnceCell;

use crate::negotiate::{AcceptEncoding, Encoding};

/// Up to this size a body gets brotli's best quality: about 150 ms once for the
/// 56 kB download list on the development machine, 18% smaller than quality 5.
/// Bigger bodies (a catalogue of a thousand products) get quality 5, about 50 ms a
/// megabyte, so that their first client is not kept waiting for seconds.
const BEST_BROTLI_UP_TO: usize = 64 * 1024;

/// What a cached body comes in, best first.
const ENCODINGS: [Encoding; 3] = [Encoding::Brotli, Encoding::Gzip, Encoding::Identity];

/// Compresses a body in one encoding.
type Compressor = fn(&[u8]) -> io::Result<Vec<u8>>;

/// A JSON body and its compressed copies, each made once when first asked for.
#[derive(Debug)]
pub(crate) struct CachedJson {
    identity: Bytes,
    brotli: OnceCell<Bytes>,
    gzip: OnceCell<Bytes>,
}

impl CachedJson {
    pub(crate) fn new(identity: Bytes) -> Self {
        Self {
            identity,
            brotli: OnceCell::new(),
            gzip: OnceCell::new(),
        }
    }

    /// The uncompressed JSON.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> &Bytes {
        &self.identity
    }

    /// A 200 answer in the encoding the client prefers, or uncompressed when
    /// compressing does not make it smaller.
    pub(crate) async fn respond(&self, accept: &AcceptEncoding) -> Response {
        let encoding = accept.choose(ENCODINGS);
        let (cell, compress): (_, Compressor) = match encoding {
            Encoding::Brotli => (&self.brotli, brotli),
            Encoding::Gzip => (&self.gzip, gzip),
            Encoding::Identity => return answer(self.identity.clone(), None),
        };
        let compressed = cell
            .get_or_init(|| {
                let identity = self.identity.clone();
                // Off the connection's thread: the best brotli takes a while, and that
                // thread serves other connections meanwhile. Empty if it failed: then
                // the body goes uncompressed.
                let compressed = tokio::task::spawn_blocking(move || match compress(&identity) {
                    Ok(compressed) => Bytes::from(compressed),
                    Err(err) => {
                        tracing::error!("cannot compress a JSON answer: {err}");
                        Bytes::new()
                    }
                });
                async move { compressed.await.unwrap_or_default() }
            })
            .await;
        if compressed.is_empty() || compressed.len() >= self.identity.len() {
            return answer(self.identity.clone(), None);
        }
        answer(compressed.clone(), encoding.content_coding())
    }
}

/// A 200 JSON answer whose body is in `coding` (`None`: uncompressed).
fn answer(body: Bytes, coding: Option<&'static str>) -> Response {
    let mut response = (
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::VARY, HeaderValue::from_static("Accept-Encoding")),
        ],
        body,
    )
        .into_response();
    if let Some(coding) = coding {
        response
            .headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    response
}

fn brotli(body: &[u8]) -> io::Result<Vec<u8>> {
    let quality = if body.len() <= BEST_BROTLI_UP_TO {
        11
    } else {
        5
    };
    let mut out = Vec::new();
    // The stream is finished when the writer is dropped, at the end of this block.
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 4096, quality, 22);
        writer.write_all(body)?;
    }
    Ok(out)
}

fn gzip(body: &[u8]) -> io::Result<Vec<u8>> {
    let mut writer = GzEncoder::new(Vec::new(), flate2::Compression::best());
    writer.write_all(body)?;
    writer.finish()
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use axum::body::to_bytes;

    use super::*;

    fn list() -> CachedJson {
        let entries: Vec<String> = (0..500)
            .map(|i| format!(r#"{{"fileName":"su{i:03}.zip","size":{i}}}"#))
            .collect();
        CachedJson::new(Bytes::from(format!("[{}]", entries.join(","))))
    }

    fn accept(value: &'static str) -> AcceptEncoding {
        AcceptEncoding(Some(HeaderValue::from_static(value)))
    }

    async fn body(response: Response) -> Bytes {
        to_bytes(response.into_body(), usize::MAX).await.unwrap()
    }

    fn decoded(coding: &str, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        match coding {
            "br" => brotli::Decompressor::new(bytes, 4096)
                .read_to_end(&mut out)
                .unwrap(),
            "gzip" => flate2::read::GzDecoder::new(bytes)
                .read_to_end(&mut out)
                .unwrap(),
            other => panic!("unexpected coding {other}"),
        };
        out
    }

    #[tokio::test]
    async fn each_encoding_carries_the_same_json_and_says_so() {
        let json = list();
        for coding in ["br", "gzip"] {
            let response = json.respond(&accept(coding)).await;
            assert_eq!(response.headers()[header::CONTENT_ENCODING], coding);
            assert_eq!(response.headers()[header::VARY], "Accept-Encoding");
            assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
            let bytes = body(response).await;
            assert!(
                bytes.len() < json.bytes().len() / 4,
                "{coding}: {}",
                bytes.len()
            );
            assert_eq!(decoded(coding, &bytes), json.bytes().as_ref());
        }
        let plain = json.respond(&AcceptEncoding(None)).await;
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(plain.headers()[header::VARY], "Accept-Encoding");
        assert_eq!(body(plain).await, json.bytes());
    }

    #[tokio::test]
    async fn a_body_is_compressed_once_and_the_copy_kept() {
        let json = list();
        let first = body(json.respond(&accept("br")).await).await;
        let second = body(json.respond(&accept("gzip, br")).await).await;
        assert_eq!(
            first.as_ptr(),
            second.as_ptr(),
            "the same bytes, not a copy"
        );
    }

    #[tokio::test]
    async fn a_body_that_compression_would_grow_goes_uncompressed() {
        let json = CachedJson::new(Bytes::from_static(b"[]"));
        for coding in ["br", "gzip", "identity"] {
            let response = json.respond(&accept(coding)).await;
            assert!(response.headers().get(header::CONTENT_ENCODING).is_none());
            assert_eq!(body(response).await, "[]");
        }
    }
}
