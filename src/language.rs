//! The page's language, settled before the app mounts: the address's `?lang=`, else the
//! visitor's remembered choice, else the browser's languages (explorer-logic's
//! [`choose`]). Welsh comes from `cy.json` beside the app, which index.html's script
//! has usually fetched already, alongside the app's code. A page keeps its language:
//! the switch is a link to the same address in the other language.

use explorer_logic::text::{CatalogueError, Language, Loader, choose};
use wasm_bindgen::{JsCast, JsValue};

/// Where the visitor's choice is kept (a preference, not a secret).
const REMEMBERED: &str = "download-explorer.lang";

/// The query parameter that picks a language on any address.
pub const PARAMETER: &str = "lang";

/// The promise index.html's script leaves on `window` with the Welsh file, parsed.
const PREFETCHED: &str = "__downloadExplorerMessages";

/// The plural categories a catalogue's forms may have (CLDR's).
const CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// Settles the page's language and loads its messages. When Welsh was wanted and could
/// not be loaded the page is in English, and the error says why.
pub async fn start() -> Result<(), CatalogueError> {
    let window = web_sys::window().expect("a window");
    let asked =
        web_sys::UrlSearchParams::new_with_str(&window.location().search().unwrap_or_default())
            .ok()
            .and_then(|params| params.get(PARAMETER));
    let storage = window.local_storage().ok().flatten();
    let remembered = storage
        .as_ref()
        .and_then(|s| s.get_item(REMEMBERED).ok().flatten());
    let browser: Vec<String> = window
        .navigator()
        .languages()
        .iter()
        .filter_map(|tag| tag.as_string())
        .collect();
    let language = choose(
        asked.as_deref(),
        remembered.as_deref(),
        browser.iter().map(String::as_str),
    );
    let asked = asked.as_deref().and_then(Language::from_tag);
    ASKED.set(asked);
    if let (Some(asked), Some(storage)) = (asked, &storage) {
        // Storage can be full or disabled; the choice then lasts for this address only.
        let _ = storage.set_item(REMEMBERED, asked.code());
    }
    let loaded = match language {
        Language::English => Ok(()),
        other => match catalogue(other).await {
            Some(messages) => load(other, &messages),
            None => Err(CatalogueError::Unavailable(other.english_name())),
        },
    };
    let shown = explorer_logic::text::current();
    if let Some(root) = document_element() {
        let _ = root.set_attribute("lang", shown.code());
    }
    loaded
}

/// The language's file parsed by the browser, as index.html's script fetched it, else
/// fetched now.
async fn catalogue(language: Language) -> Option<JsValue> {
    if let Some(messages) = prefetched().await {
        return Some(messages);
    }
    let address = crate::navigation::base_path().file(&format!("{}.json", language.code()));
    // Revalidated: a file cached from an older build would not match this one.
    let response = gloo_net::http::Request::get(&address)
        .cache(web_sys::RequestCache::NoCache)
        .send()
        .await
        .ok()?;
    if !response.ok() {
        return None;
    }
    js_sys::JSON::parse(&response.text().await.ok()?).ok()
}

/// What index.html's script fetched, taken once.
async fn prefetched() -> Option<JsValue> {
    let window = web_sys::window()?;
    let key = JsValue::from_str(PREFETCHED);
    let promise = js_sys::Reflect::get(&window, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let promise = promise.dyn_into::<js_sys::Promise>().ok()?;
    wasm_bindgen_futures::JsFuture::from(promise).await.ok()
}

/// Gives every message in `language` from the parsed catalogue file `messages`, read
/// in its order (explorer-logic's [`Loader`] checks it is this build's).
fn load(language: Language, messages: &JsValue) -> Result<(), CatalogueError> {
    let invalid = || CatalogueError::Invalid(language.english_name(), "not a catalogue".into());
    let entries = |object: &JsValue| {
        object
            .dyn_ref::<js_sys::Object>()
            .map(|object| js_sys::Object::entries(object).to_vec())
            .ok_or_else(invalid)
    };
    let mut loader = Loader::new(language);
    for part in entries(messages)? {
        let part = js_sys::Array::from(&part);
        let name = part.get(0).as_string().ok_or_else(invalid)?;
        for message in entries(&part.get(1))? {
            let message = js_sys::Array::from(&message);
            let key = message.get(0).as_string().ok_or_else(invalid)?;
            let value = message.get(1);
            match value.as_string() {
                Some(text) => loader.text(&name, &key, &text),
                None => {
                    let forms: Vec<(&str, String)> = CATEGORIES
                        .into_iter()
                        .filter_map(|category| {
                            let form = js_sys::Reflect::get(&value, &category.into()).ok()?;
                            Some((category, form.as_string()?))
                        })
                        .collect();
                    let forms = forms
                        .iter()
                        .map(|(category, form)| (*category, form.as_str()));
                    loader.plural(&name, &key, forms)?;
                }
            }
        }
    }
    loader.finish()
}

fn document_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

thread_local! {
    /// The language the address asked for at start: in-app links keep asking for it,
    /// so a copied address opens in the same language.
    static ASKED: std::cell::Cell<Option<Language>> = const { std::cell::Cell::new(None) };
}

/// `path` (an app path, perhaps with a query) asking for the language the page's
/// address asked for, if it did.
pub fn keep_in(path: String) -> String {
    match ASKED.get() {
        Some(language) => {
            let separator = if path.contains('?') { '&' } else { '?' };
            format!("{path}{separator}{PARAMETER}={}", language.code())
        }
        None => path,
    }
}
