//! The page's language, settled before the app mounts: the address's `?lang=`, else the
//! visitor's remembered choice, else the browser's languages (explorer-logic's
//! [`choose`]). Welsh comes from `cy.json` beside the app, which index.html's script
//! has usually fetched already, alongside the app's code. A page keeps its language:
//! the switch is a link to the same address in the other language.

use explorer_logic::text::{CatalogueError, Language, Loader, PARAMETER, choose};
use wasm_bindgen::{JsCast, JsValue};

/// Where the visitor's choice is kept (a preference, not a secret).
const REMEMBERED: &str = "download-explorer.lang";

/// The promise index.html's script leaves on `window` with the Welsh file, read and
/// flattened: `{ names: "part.key\n…", messages: [text, or its six plural forms] }`.
const PREFETCHED: &str = "__downloadExplorerMessages";

/// The element of index.html saying, in both languages, that Welsh could not be loaded.
const FAILED_NOTICE: &str = "language-failed";

/// Settles the page's language and loads its messages. When Welsh was wanted and could
/// not be loaded the page is in English, and index.html's notice says so (in both).
pub async fn start() {
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
        other => match prefetched().await {
            Some(catalogue) => load(other, &catalogue),
            None => Err(CatalogueError::Unavailable(other.english_name())),
        },
    };
    let document = window.document().expect("a document");
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("lang", explorer_logic::text::current().code());
    }
    if let Err(error) = loaded {
        leptos::logging::warn!("{error}");
        if let Some(notice) = document.get_element_by_id(FAILED_NOTICE) {
            let _ = notice.remove_attribute("hidden");
        }
    }
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

/// Gives every message in `language` from index.html's flattened `catalogue`
/// (explorer-logic's [`Loader`] checks it is this build's).
fn load(language: Language, catalogue: &JsValue) -> Result<(), CatalogueError> {
    let field = |name: &str| js_sys::Reflect::get(catalogue, &name.into()).unwrap_or_default();
    let mut loader = Loader::new(language);
    loader.names(&field("names").as_string().unwrap_or_default());
    for message in js_sys::Array::from(&field("messages")).iter() {
        match message.as_string() {
            Some(text) => loader.text(&text),
            None => {
                let forms: [Option<String>; 6] = std::array::from_fn(|category| {
                    js_sys::Reflect::get_u32(&message, category as u32)
                        .ok()?
                        .as_string()
                });
                loader.plural(forms.each_ref().map(Option::as_deref));
            }
        }
    }
    loader.finish()
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
