//! The HTTP client of the Download Service: every call the app makes goes through here.

use std::fmt;

use download_api::{
    DataPackage, DataPackageVersion, Download, DownloadsQuery, Product, ProductDownload,
    ServiceUrls, TokenResponse,
};
pub use explorer_logic::service_error::ServiceError;
use explorer_logic::service_error::{Endpoint, read_answer};
use explorer_logic::text::t;
use gloo_net::http::{Request, RequestBuilder, Response};
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;

use crate::config::ServiceConfig;
use crate::time::next_task;

/// How the app proves who it is on data package endpoints.
#[derive(Clone, PartialEq, Eq)]
pub enum Credentials {
    /// An OAuth2 access token, sent as `Authorization: Bearer …`.
    Token(String),
    /// A project API key, sent in the `key` header (never in the URL).
    ApiKey(String),
}

impl fmt::Debug for Credentials {
    // Secrets must never reach the console, even in a debug print.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Credentials::Token(_) => f.write_str("Token(…)"),
            Credentials::ApiKey(_) => f.write_str("ApiKey(…)"),
        }
    }
}

/// The shared state every page reads: where the service is and who is signed in.
#[derive(Debug, Clone, Copy)]
pub struct ServiceContext {
    pub config: RwSignal<ServiceConfig>,
    pub credentials: RwSignal<Option<Credentials>>,
    /// Fires when the session has a new token after one was refused: whatever was
    /// refused asks again (a renewal alone fetches nothing again, so the work under
    /// way on a page, a download say, goes on undisturbed).
    pub renewed: Trigger,
}

impl ServiceContext {
    /// Provides the context to the app below.
    pub fn provide(config: ServiceConfig) -> Self {
        let context = ServiceContext {
            config: RwSignal::new(config),
            credentials: RwSignal::new(None),
            renewed: Trigger::new(),
        };
        provide_context(context);
        context
    }
}

impl ServiceContext {
    /// The client for the current address and credentials, without tracking them.
    pub fn api_untracked(&self) -> Api {
        Api {
            urls: ServiceUrls::new(self.config.read_untracked().api_base.clone()),
            token_url: self.config.read_untracked().token_url.clone(),
            credentials: self.credentials.get_untracked(),
        }
    }
}

/// The client for the current address and credentials; reading it tracks both.
pub fn use_api() -> Signal<Api> {
    let context = expect_context::<ServiceContext>();
    Signal::derive(move || Api {
        urls: ServiceUrls::new(context.config.read().api_base.clone()),
        token_url: context.config.read().token_url.clone(),
        credentials: context.credentials.get(),
    })
}

/// A client of one service, with the caller's credentials.
#[derive(Debug, Clone, PartialEq)]
pub struct Api {
    urls: ServiceUrls,
    token_url: String,
    credentials: Option<Credentials>,
}

impl Api {
    /// The endpoint addresses (for showing and copying queries).
    pub fn urls(&self) -> &ServiceUrls {
        &self.urls
    }

    /// `GET /products?expanded`: the whole catalogue with details. The first call
    /// takes the answer index.html's script requested while the app's code loaded.
    pub async fn products(&self) -> Result<Vec<Product>, ServiceError> {
        let url = self.urls.products(true);
        // The script asks without credentials, as the app does when signed out.
        if self.credentials.is_none()
            && let Some(response) = prefetched_products(&url).await
        {
            return read(&url, &response).await;
        }
        self.get(&url).await
    }

    /// `GET /products/{id}`.
    pub async fn product(&self, id: &str) -> Result<Product, ServiceError> {
        self.get(&self.urls.product(id)).await
    }

    /// `GET /products/{id}/downloads` with filters; `signal` aborts it.
    pub async fn downloads(
        &self,
        id: &str,
        query: &DownloadsQuery,
        signal: Option<&web_sys::AbortSignal>,
    ) -> Result<Vec<ProductDownload>, ServiceError> {
        self.get_with(&self.urls.downloads(id, query), signal).await
    }

    /// `GET /dataPackages`.
    pub async fn data_packages(&self) -> Result<Vec<DataPackage>, ServiceError> {
        self.get(&self.urls.data_packages()).await
    }

    /// `GET /dataPackages/{id}`.
    pub async fn data_package(&self, id: &str) -> Result<DataPackage, ServiceError> {
        self.get(&self.urls.data_package(id)).await
    }

    /// `GET /dataPackages/{id}/versions/{version}` (`latest` allowed).
    pub async fn version(
        &self,
        id: &str,
        version: &str,
    ) -> Result<DataPackageVersion, ServiceError> {
        self.get(&self.urls.version(id, version)).await
    }

    /// The credentials this client sends.
    pub fn credentials(&self) -> Option<&Credentials> {
        self.credentials.as_ref()
    }

    /// This client with other credentials.
    pub fn with_credentials(&self, credentials: Option<Credentials>) -> Api {
        Api {
            credentials,
            ..self.clone()
        }
    }

    /// The direct address of one file of a data package version, asked with auth:
    /// `GET …/versions/{v}/downloads?fileName=…` with `Accept: application/json`
    /// answers a Download whose `url` needs no auth. Redirects are not followed, so a
    /// service that only redirects never makes the browser fetch the file into memory.
    pub async fn direct_download_url(
        &self,
        package_id: &str,
        version_id: &str,
        file_name: &str,
    ) -> Result<String, ServiceError> {
        let url = self
            .urls
            .version_download(package_id, version_id, file_name);
        let request = self
            .authorize(Request::get(&url))
            .header("Accept", "application/json")
            .redirect(web_sys::RequestRedirect::Manual);
        let response = reach(request.send(), &url, Endpoint::File).await?;
        if response.type_() == web_sys::ResponseType::Opaqueredirect {
            return Err(ServiceError::OnlyRedirects);
        }
        let download = read::<Download>(&url, &response).await?;
        if !download.is_offered() {
            // Its address is no web address: nothing to hand the browser.
            return Err(ServiceError::Decode("no http or https address".into()));
        }
        Ok(download.url)
    }

    /// Exchanges an API key and secret for an access token (client credentials flow).
    pub async fn request_token(
        &self,
        key: &str,
        secret: &str,
    ) -> Result<TokenResponse, ServiceError> {
        let basic = basic_auth(key, secret)?;
        // No cookies: the request carries its own credentials, and with credentials
        // included the browser would answer the token endpoint's `WWW-Authenticate:
        // Basic` challenge (RFC 6749 §5.2) to a wrong secret with its own login dialog.
        let request = Request::post(&self.token_url)
            .credentials(web_sys::RequestCredentials::Omit)
            .header("Authorization", &basic)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body("grant_type=client_credentials")
            .map_err(|e| ServiceError::Request(e.to_string()))?;
        let url = &self.token_url;
        let response = reach(request.send(), url, Endpoint::Token).await?;
        let (content_type, text) = content(&response).await;
        if response.ok() {
            return read_answer(url, content_type.as_deref(), &text);
        }
        Err(ServiceError::from_token_answer(
            url,
            response.status(),
            &response.status_text(),
            content_type.as_deref(),
            &text,
        ))
    }

    /// `GET` any address of the service (e.g. a `nextVersionUrl` it gave us).
    pub async fn get<T: DeserializeOwned>(&self, url: &str) -> Result<T, ServiceError> {
        self.get_with(url, None).await
    }

    /// [`Api::get`], aborted by `signal`.
    async fn get_with<T: DeserializeOwned>(
        &self,
        url: &str,
        signal: Option<&web_sys::AbortSignal>,
    ) -> Result<T, ServiceError> {
        let request = self.authorize(Request::get(url)).abort_signal(signal);
        let response = reach(request.send(), url, Endpoint::Api).await?;
        read(url, &response).await
    }

    fn authorize(&self, request: RequestBuilder) -> RequestBuilder {
        match &self.credentials {
            Some(Credentials::Token(token)) => {
                request.header("Authorization", &format!("Bearer {token}"))
            }
            Some(Credentials::ApiKey(key)) => request.header("key", key),
            None => request,
        }
    }
}

/// The name of the promise index.html's script leaves on `window`: it resolves to
/// `{ url, response }`, the products request it made and the `Response`.
const PREFETCHED_PRODUCTS: &str = "__downloadExplorerProducts";

/// The products answer index.html's script fetched, taken once: `None` when there
/// is none (already taken, or a page without the script), it failed, or it asked
/// another address than `url` (the user changed services since).
async fn prefetched_products(url: &str) -> Option<Response> {
    let window = web_sys::window()?;
    let key = wasm_bindgen::JsValue::from_str(PREFETCHED_PRODUCTS);
    let promise = js_sys::Reflect::get(&window, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let promise = promise.dyn_into::<js_sys::Promise>().ok()?;
    let prefetched = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let field = |name: &str| js_sys::Reflect::get(&prefetched, &name.into()).ok();
    if field("url")?.as_string().as_deref() != Some(url) {
        return None;
    }
    let response = field("response")?.dyn_into::<web_sys::Response>().ok()?;
    Some(Response::from(response))
}

/// The answer to a request `sent` to `url`, or that `endpoint` could not be reached (no
/// answer the app may read: offline, refused, or CORS).
async fn reach(
    sent: impl Future<Output = Result<Response, gloo_net::Error>>,
    url: &str,
    endpoint: Endpoint,
) -> Result<Response, ServiceError> {
    sent.await.map_err(|_| ServiceError::Unreachable {
        url: url.to_owned(),
        endpoint,
    })
}

/// The answer's type and text (empty when the body cannot be read).
async fn content(response: &Response) -> (Option<String>, String) {
    let content_type = response.headers().get("content-type");
    (content_type, response.text().await.unwrap_or_default())
}

/// Above this size an answer is decoded in one task and handed to the page in the
/// next: a thousand products take tens of milliseconds to decode and as many to
/// draw, and together they held the page past 100 ms.
const BIG_ANSWER_BYTES: usize = 64 * 1024;

/// Reads the answer from `url`: `T` when it succeeded, else what went wrong.
async fn read<T: DeserializeOwned>(url: &str, response: &Response) -> Result<T, ServiceError> {
    let (content_type, text) = content(response).await;
    if response.ok() {
        let answer = read_answer(url, content_type.as_deref(), &text);
        if text.len() > BIG_ANSWER_BYTES {
            drop(text);
            next_task().await;
        }
        answer
    } else {
        Err(ServiceError::from_answer(
            url,
            response.status(),
            &response.status_text(),
            content_type.as_deref(),
            &text,
        ))
    }
}

/// `Basic base64(key:secret)`, via the browser's own base64.
fn basic_auth(key: &str, secret: &str) -> Result<String, ServiceError> {
    let window = web_sys::window()
        .ok_or_else(|| ServiceError::Request(t::errors::request_no_window().into()))?;
    window
        .btoa(&format!("{key}:{secret}"))
        .map(|encoded| format!("Basic {encoded}"))
        .map_err(|_| ServiceError::Request(t::errors::request_not_ascii().into()))
}
