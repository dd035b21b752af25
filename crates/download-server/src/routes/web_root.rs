//! The built web app (`--web-root`), read into memory at start-up and again when asked
//! ([`WebRootHandle::reload`]: the binary does on `SIGHUP`).
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
//!
//! Every answer carries the app's Content-Security-Policy as a header: the policy the
//! build wrote into `index.html` as a `<meta http-equiv>` (`cargo xtask build`, which
//! hashes the page's inline scripts), with `frame-ancestors 'none'` added, which only a
//! header can carry; and `Referrer-Policy: no-referrer` and `X-Content-Type-Options:
//! nosniff` (docs/deploy.md).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use arc_swap::ArcSwap;
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

/// The web root being served, and the directory it was read from. A reload reads the
/// whole directory aside and then swaps it in: a request sees one build or the other,
/// never a mix, and a directory that does not load leaves the old build serving.
#[derive(Clone, Debug)]
pub struct WebRootHandle {
    dir: PathBuf,
    served: Arc<ArcSwap<WebRoot>>,
}

impl WebRootHandle {
    pub(crate) fn load(dir: &Path) -> Result<Self, Error> {
        Ok(Self {
            dir: dir.to_path_buf(),
            served: Arc::new(ArcSwap::from_pointee(WebRoot::load(dir)?)),
        })
    }

    /// Reads the directory again and serves what it holds now (a new build, deployed
    /// without a restart); returns how many files it serves. It reads every file, so it
    /// blocks: call it off the runtime's threads.
    pub fn reload(&self) -> Result<usize, Error> {
        let root = WebRoot::load(&self.dir)?;
        let count = root.files.len();
        self.served.store(Arc::new(root));
        Ok(count)
    }

    /// The directory served.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn respond(&self, path: &str, request: &HeaderMap) -> Response {
        self.served.load().respond(path, request)
    }
}

/// Every file of the web root, by URL path (`/index.html`, `/assets/app.js`); a
/// directory's `index.html` also answers for the directory (`/`).
#[derive(Debug)]
pub(crate) struct WebRoot {
    files: HashMap<String, Arc<Asset>>,
    /// `index.html`, the page of every app route.
    index: Arc<Asset>,
    /// The headers every answer carries (see the module's comment).
    security: HeaderMap,
}

/// What a page's `<meta http-equiv="Content-Security-Policy">` says, if it has one.
fn meta_policy(html: &str) -> Option<&str> {
    let at = html.find("http-equiv=\"Content-Security-Policy\"")?;
    let tag = &html[at..at + html[at..].find('>')?];
    let start = tag.find("content=\"")? + "content=\"".len();
    let length = tag[start..].find('"')?;
    Some(&tag[start..start + length])
}

/// The headers of every answer from a web root whose `index.html` is `index`. Without a
/// policy in the page (not built by `cargo xtask build`, e.g. trunk's) no policy is
/// sent: one made here would not know the page's inline scripts and would stop them.
fn security_headers(index: &[u8]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    let policy = std::str::from_utf8(index).ok().and_then(meta_policy);
    match policy.map(|policy| HeaderValue::try_from(format!("{policy}; frame-ancestors 'none'"))) {
        Some(Ok(value)) => {
            headers.insert(header::CONTENT_SECURITY_POLICY, value);
        }
        Some(Err(_)) => tracing::warn!("index.html's Content-Security-Policy is no valid header"),
        None => tracing::warn!(
            "index.html has no Content-Security-Policy: none is sent (build the app with \
             `cargo xtask build`)"
        ),
    }
    headers
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
        let security = security_headers(&index.identity.body);
        Ok(Self {
            files,
            index,
            security,
        })
    }

    /// The answer to a GET of `path` (the raw, percent-encoded request path): the file
    /// at that path; for an app route (a last segment without a dot, like
    /// `/products/OpenRoads`) index.html, as the app reads the address itself; for a
    /// missing asset a 404. (axum's `get` answers HEAD from it, without the body.)
    pub(crate) fn respond(&self, path: &str, request: &HeaderMap) -> Response {
        let asset = match percent_decode_str(path).decode_utf8() {
            Ok(path) => match self.files.get(path.as_ref()) {
                Some(asset) => Some(asset),
                None if is_app_route(&path) => Some(&self.index),
                None => None,
            },
            Err(_) => None,
        };
        let mut response = asset.map_or_else(not_found, |asset| asset.respond(request));
        // Each value is shared bytes: no new map per request.
        let headers = response.headers_mut();
        for (name, value) in &self.security {
            headers.insert(name, value.clone());
        }
        response
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
    fn the_header_policy_is_the_pages_own_with_frame_ancestors() {
        let page = br#"<head><meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'sha256-x'" />
    </head>"#;
        let headers = security_headers(page);
        assert_eq!(
            headers[header::CONTENT_SECURITY_POLICY],
            "default-src 'self'; script-src 'self' 'sha256-x'; frame-ancestors 'none'"
        );
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");

        let unbuilt = security_headers(b"<head><meta charset=\"utf-8\" /></head>");
        assert!(!unbuilt.contains_key(header::CONTENT_SECURITY_POLICY));
        assert_eq!(unbuilt[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
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
