//! The built web app (`--web-root`), read into memory once at start-up.
//!
//! The web root is a small fixed set of build outputs (trunk's html, js, wasm and css,
//! with the `.br` and `.gz` copies `cargo xtask` writes next to them: about 1.5 MB), so
//! every response body, header value and entity tag is made once here. A request is a
//! map lookup and a few reference-counted clones: no file system access, so no path can
//! reach outside the directory either.
//!
//! Why not tower-http's `ServeDir`: measured with `cargo xtask bench` (README, Benchmark),
//! it served `index.html` at 18,644 requests/s, 19% of nginx's 96,630, as each request
//! opens, inspects and reads the file through tokio's blocking thread pool; this map
//! served 43,670 to 56,659 requests/s (56 to 79% of nginx) on the same machine.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use md5::{Digest, Md5};
use percent_encoding::percent_decode_str;

use crate::Error;
use crate::error::ApiError;
use crate::file::{Precondition, Validators};
use crate::negotiate::{Encoding, negotiate};

/// Trunk's hashed assets never change under the same name.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Everything else is checked with the server on every use (index.html names the
/// current assets; config.json is edited in place).
const NO_CACHE: &str = "no-cache";

/// Every file of the web root, by URL path (`/index.html`, `/assets/app.js`); a
/// directory's `index.html` also answers for the directory (`/`).
#[derive(Debug)]
pub(crate) struct WebRoot {
    files: HashMap<String, Arc<Asset>>,
    /// `index.html`, the page of every app route.
    index: Arc<Asset>,
}

/// One file, ready to send in each encoding it comes in.
#[derive(Debug)]
struct Asset {
    content_type: HeaderValue,
    cache_control: HeaderValue,
    identity: Representation,
    brotli: Option<Representation>,
    gzip: Option<Representation>,
}

/// The bytes of one encoding of a file. Each has its own entity tag: a strong tag
/// names exactly one sequence of bytes.
#[derive(Debug)]
struct Representation {
    body: Bytes,
    validators: Validators,
}

impl WebRoot {
    /// Reads every file below `root`. Names starting with a dot are left out (they
    /// are not build outputs), and so are the `.br` and `.gz` copies of other files,
    /// which are sent in their place instead.
    pub(crate) fn load(root: &Path) -> Result<Self, Error> {
        let error = |path: &Path, message: String| Error::WebRoot {
            path: path.display().to_string(),
            message,
        };
        if !root.join("index.html").is_file() {
            return Err(error(
                root,
                "no index.html in it (build the web app first)".into(),
            ));
        }
        let mut found = HashMap::new();
        read_tree(root, "", &mut found)
            .map_err(|(path, err)| error(&path, format!("cannot be read: {err}")))?;

        let mut files = HashMap::new();
        for (url_path, (bytes, modified)) in &found {
            let copy_of = url_path
                .strip_suffix(".br")
                .or_else(|| url_path.strip_suffix(".gz"));
            if copy_of.is_some_and(|original| found.contains_key(original)) {
                continue;
            }
            let sibling = |suffix: &str| {
                found
                    .get(&format!("{url_path}{suffix}"))
                    .map(|(bytes, _)| Representation::new(bytes.clone(), *modified))
            };
            let name = url_path.rsplit('/').next().unwrap_or_default();
            let asset = Arc::new(Asset {
                content_type: content_type(name),
                cache_control: HeaderValue::from_static(if is_hashed(name) {
                    IMMUTABLE
                } else {
                    NO_CACHE
                }),
                identity: Representation::new(bytes.clone(), *modified),
                brotli: sibling(".br"),
                gzip: sibling(".gz"),
            });
            if let Some(directory) = url_path.strip_suffix("index.html")
                && directory.ends_with('/')
            {
                files.insert(directory.to_string(), Arc::clone(&asset));
            }
            files.insert(url_path.clone(), asset);
        }
        let index = files
            .get("/index.html")
            .cloned()
            .ok_or_else(|| error(root, "index.html cannot be read".into()))?;
        Ok(Self { files, index })
    }

    /// The answer to a GET of `path` (the raw, percent-encoded request path): the file
    /// at that path; for an app route (a last segment without a dot, like
    /// `/products/OpenRoads`) index.html, as the app reads the address itself; for a
    /// missing asset a 404. (axum's `get` answers HEAD from it, without the body.)
    pub(crate) fn respond(&self, path: &str, request: &HeaderMap) -> Response {
        let Ok(path) = percent_decode_str(path).decode_utf8() else {
            return not_found();
        };
        let asset = match self.files.get(path.as_ref()) {
            Some(asset) => asset,
            None if is_app_route(&path) => &self.index,
            None => return not_found(),
        };
        asset.respond(request)
    }
}

impl Asset {
    fn respond(&self, request: &HeaderMap) -> Response {
        let encoding = negotiate(request.get(header::ACCEPT_ENCODING), self.encodings());
        let representation = match encoding {
            Encoding::Brotli => self.brotli.as_ref(),
            Encoding::Gzip => self.gzip.as_ref(),
            Encoding::Identity => None,
        }
        .unwrap_or(&self.identity);

        let mut headers = HeaderMap::new();
        representation.validators.insert(&mut headers);
        headers.insert(header::CACHE_CONTROL, self.cache_control.clone());
        if self.brotli.is_some() || self.gzip.is_some() {
            headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        match representation.validators.precondition(request) {
            Precondition::Passed => {}
            Precondition::NotModified => {
                return (StatusCode::NOT_MODIFIED, headers).into_response();
            }
            Precondition::Failed => return ApiError::PreconditionFailed.into_response(),
        }

        headers.insert(header::CONTENT_TYPE, self.content_type.clone());
        if let Some(coding) = encoding.content_coding() {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        (headers, representation.body.clone()).into_response()
    }

    /// The encodings this file comes in, best first.
    fn encodings(&self) -> impl Iterator<Item = Encoding> {
        let brotli = self.brotli.as_ref().map(|_| Encoding::Brotli);
        let gzip = self.gzip.as_ref().map(|_| Encoding::Gzip);
        brotli.into_iter().chain(gzip).chain([Encoding::Identity])
    }
}

impl Representation {
    /// Tagged like the catalogue's files: the quoted MD5 of the bytes.
    fn new(body: Bytes, modified: SystemTime) -> Self {
        let validators = Validators::new(&format!("{:x}", Md5::digest(&body)), modified);
        Self { body, validators }
    }
}

/// The files found so far, by URL path: their bytes and modification time.
type Found = HashMap<String, (Bytes, SystemTime)>;

/// Reads the files of `dir` (URL path `prefix`) and of its subdirectories into `found`.
/// Symbolic links to directories are not followed (no loops); names that are not
/// UTF-8 cannot be asked for by URL and are left out.
fn read_tree(
    dir: &Path,
    prefix: &str,
    found: &mut Found,
) -> Result<(), (std::path::PathBuf, std::io::Error)> {
    let entries = fs::read_dir(dir).map_err(|err| (dir.to_path_buf(), err))?;
    for entry in entries {
        let entry = entry.map_err(|err| (dir.to_path_buf(), err))?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            tracing::warn!("{}: not a UTF-8 name, not served", path.display());
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let url_path = format!("{prefix}/{name}");
        let kind = entry.file_type().map_err(|err| (path.clone(), err))?;
        if kind.is_dir() {
            read_tree(&path, &url_path, found)?;
            continue;
        }
        // Follows a symbolic link to a file, as a file server would.
        let metadata = fs::metadata(&path).map_err(|err| (path.clone(), err))?;
        if metadata.is_file() {
            let bytes = fs::read(&path).map_err(|err| (path.clone(), err))?;
            let modified = metadata.modified().unwrap_or_else(|_| SystemTime::now());
            found.insert(url_path, (Bytes::from(bytes), modified));
        }
    }
    Ok(())
}

/// A path the app handles itself: its last segment has no dot (`/products/OpenRoads`,
/// `/packages/`), unlike an asset's (`/app-1234.js`).
fn is_app_route(path: &str) -> bool {
    !path.rsplit('/').next().unwrap_or_default().contains('.')
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not found").into_response()
}

fn content_type(name: &str) -> HeaderValue {
    let mime = mime_guess::from_path(name)
        .first_raw()
        .unwrap_or("application/octet-stream");
    HeaderValue::from_static(mime)
}

/// Whether `name` is one of trunk's hashed outputs (`app-a1d94c14a437f5a8.js`,
/// `app-a1d94c14a437f5a8_bg.wasm`), whose content never changes under that name.
///
/// Trunk writes a 64-bit hash in hex without leading zeros, so one name in sixteen
/// has 15 digits (and fewer, rarer still): 12 to 16 are accepted. A shorter run of hex
/// digits (`app-1234.js`) is an ordinary name.
fn is_hashed(name: &str) -> bool {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    stem.rsplit_once('-').is_some_and(|(base, hash)| {
        !base.is_empty()
            && (12..=16).contains(&hash.len())
            && hash.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_hashed_names_are_recognised() {
        for name in [
            "download-explorer-a1d94c14a437f5a8.js",
            "download-explorer-a1d94c14a437f5a8_bg.wasm",
            "main-ca0cb096aef43ce7.css",
            // A hash with a leading zero, as trunk wrote it.
            "product-ee1d7453ec65d8e.css",
        ] {
            assert!(is_hashed(name), "{name}");
        }
        for name in [
            "index.html",
            "config.json",
            "app-1234.js",
            "a1d94c14a437f5a8.js",
            "-a1d94c14a437f5a8.js",
            "app-a1d94c14a437f5a8x.js",
            "app-a1d94c14a437f5a8_bgx.wasm",
            "app-a1d94c14a437f5a8a.js",
            "photo-zzzzzzzzzzzzzzzz.png",
        ] {
            assert!(!is_hashed(name), "{name}");
        }
    }

    #[test]
    fn app_routes_are_paths_without_a_dot_at_the_end() {
        assert!(is_app_route("/products/OpenRoads"));
        assert!(is_app_route("/packages/"));
        assert!(is_app_route("/v1.2/products"));
        assert!(!is_app_route("/app-1234.js"));
        assert!(!is_app_route("/favicon.ico"));
    }
}
