//! Download Explorer's server: a complete implementation of the Download Service
//! (open products, data packages, the token endpoint, the files they redirect to; the
//! API is described in `docs/api.md`) over a catalogue directory or the embedded demo,
//! plus the built web app.
//!
//! ```no_run
//! # async fn run() -> Result<(), download_server::Error> {
//! use clap::Parser;
//! let config = download_server::Config::parse();
//! let listener = tokio::net::TcpListener::bind(config.listen).await?;
//! let server = download_server::Server::open(config, listener).await?;
//! server.run(std::future::pending()).await
//! # }
//! ```
//!
//! The modules read bottom-up; each uses only those on the lines above it:
//! - `signing`, `signed_link`, `links`, `storage`, `file`, `negotiate`, `config`: tokens
//!   and signed links, every address the server writes, the object store of `--storage`,
//!   one file as served with its validators, content negotiation, the flags.
//! - `error`: [`Error`] stops the server starting, [`ApiError`] answers one request.
//! - `cached_json`, `catalogue`, `publish`: the catalogue in memory and its lookups,
//!   loaded (`catalogue::load`) with its cache of the answers that never change;
//!   uploading a catalogue to object storage.
//! - `limiter`, `state`: the rate limiter's allowances; `AppState`, what every handler
//!   shares.
//! - `auth`, `extract`: who is calling; the handlers' extractors (`ApiPath`, `Caller`,
//!   `FileAccess`).
//! - `serve_file`, `openapi`: the answer to a request for a file; the OpenAPI document.
//! - `protocol`, `rate_limit`, `trace`: middleware.
//! - `routes`: one module per resource.
//! - `connections`, `reload` and this file: the accept loop, swapping in a new catalogue
//!   from object storage, and the whole router.

mod auth;
mod cached_json;
mod catalogue;
mod config;
mod connections;
mod error;
mod extract;
mod file;
#[cfg(fuzzing)]
pub mod fuzzing;
mod limiter;
mod links;
mod negotiate;
mod openapi;
mod protocol;
mod publish;
mod rate_limit;
mod reload;
mod routes;
mod serve_file;
pub mod signed_link;
pub mod signing;
mod state;
mod storage;
#[cfg(feature = "testing")]
pub mod testing;
mod trace;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderName, Method, header};
use include_dir::{Dir, include_dir};
use tokio::net::TcpListener;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{Any, CorsLayer};

pub use config::{Command, Config, PublishArgs};
pub use error::{ApiError, Error};
pub use publish::publish;
pub use routes::WebRootHandle;
pub use storage::StorageError;

use arc_swap::ArcSwap;
use axum::body::Bytes;
use catalogue::{Catalogue, Source};
use connections::Limits;
use links::{API_PREFIX, Links};
use routes::{data_packages, files, products, token, web};
use signing::Signer;
use state::AppState;
use storage::Storage;

/// The demo catalogue, compiled in so the server runs with no setup.
static DEMO: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/demo");

/// The server, ready to run: its catalogue loaded and checked, its listener bound.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    app: connections::App,
    limits: Limits,
    /// With object storage: what keeps the catalogue in step with the store's.
    poller: Option<reload::Poller>,
    web_root: Option<WebRootHandle>,
}

impl Server {
    /// Builds the whole application for `listener`: loads and checks the catalogue, and
    /// routes the API (`/downloads/v1`), the token endpoint (`/oauth2/token/v1`), files
    /// (`/files`) and the web app. Links use `--public-url`, or the address `listener`
    /// is bound to. A catalogue in object storage needs [`Server::open`].
    pub fn new(config: Config, listener: TcpListener) -> Result<Server, Error> {
        let config = config.with_bound_address(listener.local_addr()?);
        let builder = AppBuilder::new(&config)?;
        let source = match storage(&config)? {
            None => Source::Embedded(&DEMO),
            Some(Storage::Directory(dir)) => Source::Directory(dir),
            Some(Storage::Object(storage)) => {
                return Err(Error::Storage(StorageError::Url {
                    url: storage.url().to_owned(),
                    message: "object storage is read by Server::open".into(),
                }));
            }
        };
        let catalogue = Catalogue::load(&source, &builder.links)?;
        Ok(Server::with(
            listener,
            &config,
            builder.build(catalogue)?,
            None,
            builder.web_root.clone(),
        ))
    }

    /// [`Server::new`] for any `--storage`: a catalogue in object storage is read from
    /// the store, and then checked every `--catalogue-poll` seconds while the server
    /// runs.
    pub async fn open(config: Config, listener: TcpListener) -> Result<Server, Error> {
        let config = config.with_bound_address(listener.local_addr()?);
        let Some(Storage::Object(storage)) = storage(&config)? else {
            return Server::new(config, listener);
        };
        let builder = Arc::new(AppBuilder::new(&config)?);
        let fetched = storage
            .catalogue(None)
            .await?
            .ok_or_else(|| Error::Io(std::io::Error::other("catalogue.json: no answer")))?;
        let catalogue =
            Catalogue::load_from_store(storage.clone(), fetched.text, builder.links.clone())
                .await?;
        let app = builder.build(catalogue)?;
        let web_root = builder.web_root.clone();
        let poller = reload::Poller {
            storage,
            etag: fetched.etag,
            every: Duration::from_secs(config.catalogue_poll),
            links: builder.links.clone(),
            build: Arc::new(move |catalogue| builder.build(catalogue)),
        };
        Ok(Server::with(listener, &config, app, Some(poller), web_root))
    }

    fn with(
        listener: TcpListener,
        config: &Config,
        app: Router,
        poller: Option<reload::Poller>,
        web_root: Option<WebRootHandle>,
    ) -> Server {
        let limits = Limits {
            header_timeout: Duration::from_secs(config.header_timeout),
            idle_timeout: Duration::from_secs(config.idle_timeout),
            max_connections: usize::try_from(config.max_connections).unwrap_or(usize::MAX),
        };
        Server {
            listener,
            app: Arc::new(ArcSwap::from_pointee(app)),
            limits,
            poller,
            web_root,
        }
    }

    /// The web app being served (`--web-root`), to read it again while the server runs.
    pub fn web_root(&self) -> Option<WebRootHandle> {
        self.web_root.clone()
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> Result<SocketAddr, Error> {
        Ok(self.listener.local_addr()?)
    }

    /// Serves until `shutdown` completes, then finishes the answers in progress.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), Error> {
        let poller = self
            .poller
            .map(|poller| tokio::spawn(poller.run(Arc::clone(&self.app))));
        let served = connections::serve(self.listener, self.app, self.limits, shutdown).await;
        if let Some(poller) = poller {
            poller.abort();
        }
        Ok(served?)
    }
}

/// What `--storage` (or `--catalogue`) names; `None` for the embedded demo.
fn storage(config: &Config) -> Result<Option<Storage>, Error> {
    let presign_lifetime = Duration::from_secs(config.presign_lifetime);
    Ok(match (&config.storage, &config.catalogue) {
        (Some(url), _) => Some(Storage::parse(
            url,
            presign_lifetime,
            &config.storage_options,
        )?),
        (None, Some(dir)) => Some(Storage::Directory(dir.clone())),
        (None, None) => None,
    })
}

/// Makes the whole application of a catalogue; what does not depend on the catalogue
/// (links, the signing key, the rate limiter's allowances, the web app) is made once
/// and shared by each catalogue's application.
#[derive(Debug)]
struct AppBuilder {
    origin: String,
    links: Links,
    signer: Signer,
    rate_limit: Option<Arc<limiter::RateLimit>>,
    web_root: Option<WebRootHandle>,
    token_ttl: u64,
    link_lifetime: u64,
    body_timeout: Duration,
    log_requests: bool,
}

impl AppBuilder {
    fn new(config: &Config) -> Result<AppBuilder, Error> {
        let origin = config.public_origin();
        check_public_url(&origin)?;
        let signer = match &config.signing_key {
            Some(key) if !key.as_bytes().is_empty() => Signer::new(key.as_bytes()),
            _ => process_signer(),
        };
        let web_root = config
            .web_root
            .as_deref()
            .map(WebRootHandle::load)
            .transpose()?;
        Ok(AppBuilder {
            links: Links::new(&origin),
            origin,
            signer,
            rate_limit: config
                .rate_limit
                .map(|limit| Arc::new(limiter::RateLimit::new(limit))),
            web_root,
            token_ttl: config.token_ttl,
            link_lifetime: config.link_lifetime,
            body_timeout: Duration::from_secs(config.body_timeout),
            log_requests: config.log_requests,
        })
    }

    /// The whole application serving `catalogue`.
    fn build(&self, catalogue: Catalogue) -> Result<Router, Error> {
        let state = Arc::new(AppState {
            catalogue,
            links: self.links.clone(),
            signer: self.signer.clone(),
            token_ttl: self.token_ttl,
            link_lifetime: self.link_lifetime,
            body_timeout: self.body_timeout,
            rate_limit: self.rate_limit.clone(),
        });

        // JSON is compressed as it goes out; the web app brings its own `.br` and `.gz`
        // copies; files are not (zips are compressed already, and byte ranges must count
        // the file's own bytes).
        let compression = CompressionLayer::new().gzip(true).br(true);
        let openapi = serde_json::to_vec(&openapi::document(
            &self.origin,
            &state.catalogue.area_codes(),
        ))
        .map_err(|err| Error::Io(std::io::Error::other(err)))?;
        let api = Router::new()
            .merge(products::router())
            .merge(routes::openapi::router(Bytes::from(openapi)))
            .merge(data_packages::router())
            .fallback(routes::api_not_found)
            .layer(compression.clone());
        let service = Router::new()
            .nest(API_PREFIX, api)
            .merge(token::router().layer(compression.clone()));
        // The API and the token endpoint are limited. The files are the storage a 307 leads
        // to (on the real service, another host): limiting them too made each redirected
        // download cost two requests, and clients retrying in step after a 429 used the one
        // request that had refilled on the redirect, then met a 429 on the file, forever.
        let service = if state.rate_limit.is_some() {
            service.layer(axum::middleware::from_fn_with_state(
                Arc::clone(&state),
                rate_limit::check,
            ))
        } else {
            service
        };
        let app = service
            .merge(files::router())
            .merge(web::router(self.web_root.clone(), compression))
            .layer(cors())
            .layer(axum::middleware::from_fn(protocol::check));
        // A line per request grows without bound: only when asked for.
        let app = if self.log_requests {
            app.layer(trace::layer())
        } else {
            app
        };
        Ok(app.with_state(state))
    }
}

/// Without a configured key, one random key serves the whole process, so every router
/// in it accepts the others' tokens.
fn process_signer() -> Signer {
    static SIGNER: OnceLock<Signer> = OnceLock::new();
    SIGNER
        .get_or_init(|| {
            tracing::warn!(
                "no --signing-key (DOWNLOAD_SIGNING_KEY) given: using a random key, so access \
                 tokens and signed download links stop working when the server restarts"
            );
            Signer::random()
        })
        .clone()
}

/// Any origin may call: the real service answers `Access-Control-Allow-Origin: *`. A
/// page may also `fetch` files itself, resuming and checking them: ranges and every
/// conditional header are allowed, and the headers that describe a (partial) file are
/// exposed.
fn cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::HEAD, Method::POST, Method::OPTIONS])
        .allow_headers([
            HeaderName::from_static("key"),
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::RANGE,
            header::IF_MATCH,
            header::IF_NONE_MATCH,
            header::IF_MODIFIED_SINCE,
            header::IF_UNMODIFIED_SINCE,
            header::IF_RANGE,
        ])
        .expose_headers([
            header::LOCATION,
            header::CONTENT_DISPOSITION,
            header::CONTENT_LENGTH,
            header::CONTENT_RANGE,
            header::ETAG,
            header::ACCEPT_RANGES,
            header::RETRY_AFTER,
        ])
        .max_age(std::time::Duration::from_secs(3600))
}

/// The public URL is an origin links are written from: `http(s)://host[:port][/path]`,
/// with no query or fragment.
fn check_public_url(origin: &str) -> Result<(), Error> {
    let fail = |message: &str| Error::PublicUrl {
        url: origin.to_owned(),
        message: message.to_owned(),
    };
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .ok_or_else(|| fail("must start with http:// or https://"))?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err(fail("has no host"));
    }
    if rest.contains(['?', '#']) || rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(fail("may not contain a query, a fragment or spaces"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls_must_be_origins() {
        assert!(check_public_url("http://127.0.0.1:8080").is_ok());
        assert!(check_public_url("https://maps.example.org/geo").is_ok());
        for bad in [
            "127.0.0.1:8080",
            "ftp://x",
            "http://",
            "http://x?y",
            "http://x y",
        ] {
            assert!(check_public_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_embedded_demo_catalogue_loads() {
        use clap::Parser;
        let config = Config::try_parse_from(["download-server"]).unwrap();
        let builder = AppBuilder::new(&config).unwrap();
        let catalogue = Catalogue::load(&Source::Embedded(&DEMO), &builder.links)
            .expect("the demo catalogue is valid");
        let _app = builder.build(catalogue).unwrap();
    }
}
