//! Entry points for the fuzz targets in `fuzz/` (built only by cargo-fuzz, which sets
//! `--cfg fuzzing`): the server's internals they exercise, without making those public.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use include_dir::{Dir, include_dir};
use md5::{Digest, Md5};

use crate::catalogue::{Catalogue, Source};
use crate::file::{FileContent, FileData, ServedFile, Validators};
use crate::links::Links;
use crate::serve_file::{Disposition, respond};

/// The test fixture's files: what fuzzed catalogues may name.
static FIXTURE: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/tests/fixtures/catalogue");

/// Loads `json` as `catalogue.json` over the test fixture's files: an error or a
/// catalogue, never a panic.
pub fn load_catalogue(json: &str) -> Result<(), crate::Error> {
    let links = Links::new("http://fuzz.example");
    Catalogue::from_text(json, &Source::Embedded(&FIXTURE), &links).map(drop)
}

/// The bytes of the files [`respond_to_file`] serves: empty, one byte, and more than
/// one chunk of a ranged body.
pub const FILES: [&[u8]; 3] = [b"", b"x", &BIG];
const BIG: [u8; 70_000] = {
    let mut bytes = [0u8; 70_000];
    let mut i = 0;
    while i < bytes.len() {
        bytes[i] = (i % 251) as u8;
        i += 1;
    }
    bytes
};

/// When every fuzzed file was last modified: Tue, 14 Nov 2023 22:13:20 GMT.
const LAST_MODIFIED_SECS: u64 = 1_700_000_000;

/// The complete answer to a GET of `FILES[index]` with `request`'s headers: status,
/// headers and body.
pub fn respond_to_file(index: usize, request: &HeaderMap) -> (StatusCode, HeaderMap, Bytes) {
    let bytes = FILES[index % FILES.len()];
    let md5 = format!("{:x}", Md5::digest(bytes));
    let file = ServedFile {
        content: Arc::new(FileContent {
            data: FileData::Static(bytes),
            size: bytes.len() as u64,
            validators: Validators::new(&md5, UNIX_EPOCH + Duration::from_secs(LAST_MODIFIED_SECS)),
            md5,
        }),
        file_name: "fuzz.zip".to_owned(),
        content_type: HeaderValue::from_static("application/zip"),
    };
    thread_local! {
        static RUNTIME: RefCell<tokio::runtime::Runtime> = RefCell::new(
            tokio::runtime::Builder::new_current_thread().build().expect("a runtime"),
        );
    }
    RUNTIME.with_borrow(|runtime| {
        runtime.block_on(async {
            let response = match respond(&file, request, Disposition::Attachment, "no-store").await
            {
                Ok(response) => response,
                Err(error) => axum::response::IntoResponse::into_response(error),
            };
            let (parts, body) = response.into_parts();
            let body = axum::body::to_bytes(body, usize::MAX)
                .await
                .expect("a file body reads");
            (parts.status, parts.headers, body)
        })
    })
}
