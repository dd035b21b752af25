//! Where the Download Service is: the app's origin by default, overridden by the
//! deployer's `config.json`, then by the user's settings (kept in localStorage).

use serde::{Deserialize, Serialize};

/// localStorage key of the user's service address override.
const STORAGE_KEY: &str = "download-explorer.service";

/// The two addresses the app talks to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceConfig {
    /// Base address of the Download Service, ending in `/v1`.
    pub api_base: String,
    /// Address of the token endpoint, ending in `/oauth2/token/v1`.
    pub token_url: String,
}

/// The deployer's overrides in `config.json`; each field is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeployedConfig {
    api_base: Option<String>,
    token_url: Option<String>,
}

impl ServiceConfig {
    /// The addresses of a service served from `origin` (as our server does).
    pub fn for_origin(origin: &str) -> Self {
        let origin = origin.trim_end_matches('/');
        ServiceConfig {
            api_base: format!("{origin}/downloads/v1"),
            token_url: format!("{origin}/oauth2/token/v1"),
        }
    }

    /// The deployer's defaults: the origin, overridden by `config.json`.
    pub async fn deployed() -> Self {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        let mut config = ServiceConfig::for_origin(&origin);
        // Beside the app, wherever it is served from.
        let deployed = match prefetched_config().await {
            Some(deployed) => Some(deployed),
            None => {
                let address = crate::navigation::base_path().file("config.json");
                match gloo_net::http::Request::get(&address).send().await {
                    Ok(response) if response.ok() => response.json::<DeployedConfig>().await.ok(),
                    _ => None,
                }
            }
        };
        if let Some(deployed) = deployed {
            config.api_base = deployed.api_base.unwrap_or(config.api_base);
            config.token_url = deployed.token_url.unwrap_or(config.token_url);
        }
        config
    }

    /// What the app uses at start: the user's saved choice, else the deployer's.
    pub async fn load() -> Self {
        match Self::saved() {
            Some(saved) => saved,
            None => Self::deployed().await,
        }
    }

    /// The user's saved choice, if any.
    pub fn saved() -> Option<Self> {
        let text = local_storage()?.get_item(STORAGE_KEY).ok()??;
        serde_json::from_str(&text).ok()
    }

    /// Keeps this choice for later visits.
    pub fn save(&self) {
        if let (Some(storage), Ok(text)) = (local_storage(), serde_json::to_string(self)) {
            // Storage can be full or disabled; the choice then lasts for this visit only.
            let _ = storage.set_item(STORAGE_KEY, &text);
        }
    }

    /// Forgets the user's choice.
    pub fn forget() {
        if let Some(storage) = local_storage() {
            let _ = storage.remove_item(STORAGE_KEY);
        }
    }
}

/// The name of the promise index.html's script leaves on `window` when it read
/// `config.json` (its JSON, `{}` when there was none).
const PREFETCHED_CONFIG: &str = "__downloadExplorerConfig";

/// `config.json` as index.html's script read it, taken once: `None` when the script
/// did not read it (the user had saved an address, or there is no script).
async fn prefetched_config() -> Option<DeployedConfig> {
    let window = web_sys::window()?;
    let key = wasm_bindgen::JsValue::from_str(PREFETCHED_CONFIG);
    let promise = js_sys::Reflect::get(&window, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let promise = wasm_bindgen::JsCast::dyn_into::<js_sys::Promise>(promise).ok()?;
    let json = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let text = js_sys::JSON::stringify(&json).ok()?.as_string()?;
    serde_json::from_str(&text).ok()
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}
