//! Where the Download Service is: the app's origin by default, overridden by the
//! deployer's `config.json`, then by the user's settings (kept in localStorage).

pub use explorer_logic::address::ServiceConfig;
use explorer_logic::address::{DEPLOYED_CONFIG_FILE, DeployedConfig, SAVED_SERVICE_KEY};

/// The deployer's defaults: the origin, overridden by `config.json`.
pub async fn deployed() -> ServiceConfig {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    // Beside the app, wherever it is served from.
    let deployed = match prefetched_config().await {
        Some(deployed) => Some(deployed),
        None => crate::navigation::fetch_beside(DEPLOYED_CONFIG_FILE)
            .await
            .ok()
            .and_then(|text| serde_json::from_str::<DeployedConfig>(&text).ok()),
    };
    ServiceConfig::deployed(&origin, deployed)
}

/// What the app uses at start: the user's saved choice, else the deployer's.
pub async fn load() -> ServiceConfig {
    match saved() {
        Some(saved) => saved,
        None => deployed().await,
    }
}

/// The user's saved choice, if any.
pub fn saved() -> Option<ServiceConfig> {
    let text = local_storage()?.get_item(SAVED_SERVICE_KEY).ok()??;
    serde_json::from_str(&text).ok()
}

/// Keeps `config` for later visits.
pub fn save(config: &ServiceConfig) {
    if let (Some(storage), Ok(text)) = (local_storage(), serde_json::to_string(config)) {
        // Storage can be full or disabled; the choice then lasts for this visit only.
        let _ = storage.set_item(SAVED_SERVICE_KEY, &text);
    }
}

/// Forgets the user's choice.
pub fn forget() {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(SAVED_SERVICE_KEY);
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

/// This origin's localStorage, when the browser allows it.
pub fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}
