//! The words of features loaded on demand (`explorer_logic::text::later`): fetched once,
//! from this build's catalogue beside the app, by the first of them to show; the others
//! shown meanwhile wait for that one fetch (a product page shows three).

use explorer_logic::text::later;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::navigation::fetch_beside;

/// Where the catalogue is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Words {
    NotAsked,
    Loading,
    Loaded,
    /// The last fetch failed: the next feature to show asks again.
    Failed,
}

thread_local! {
    /// One for the app, outside any page's reactive owner: leaving the page that asked
    /// first does not end the fetch the others wait for.
    static WORDS: ArcRwSignal<Words> = ArcRwSignal::new(Words::NotAsked);
}

/// Fetches the catalogue and keeps the parts that load later.
async fn load() -> Result<(), String> {
    let text = fetch_beside(&later::file_name()).await?;
    let catalogue: serde_json::Value =
        serde_json::from_str(&text).map_err(|error| error.to_string())?;
    later::load_all(&catalogue).map_err(|error| error.to_string())
}

/// Shows `children` once the words are here. If they cannot be fetched, nothing is
/// shown and the rest of the page carries on: the reason goes to the console.
#[component]
pub fn WithWords(children: ChildrenFn) -> impl IntoView {
    let words = WORDS.with(Clone::clone);
    if matches!(words.get_untracked(), Words::NotAsked | Words::Failed) {
        words.set(Words::Loading);
        let words = words.clone();
        spawn_local(async move {
            let loaded = load().await;
            if let Err(error) = &loaded {
                leptos::logging::warn!("words of a feature did not load: {error}");
            }
            words.set(if loaded.is_ok() {
                Words::Loaded
            } else {
                Words::Failed
            });
        });
    }
    move || (words.get() == Words::Loaded).then(|| children())
}
