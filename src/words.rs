//! The words of features loaded on demand (`explorer_logic::text::later`): fetched once,
//! from this build's catalogue beside the app, by the first of them to show.

use explorer_logic::text::later;
use leptos::prelude::*;

use crate::navigation::base_path;

/// Fetches the catalogue and keeps the parts that load later, unless they are here.
pub async fn load() -> Result<(), String> {
    if later::all_loaded() {
        return Ok(());
    }
    let address = base_path().file(&later::file_name());
    let response = gloo_net::http::Request::get(&address)
        .send()
        .await
        .map_err(|error| error.to_string())?;
    if !response.ok() {
        return Err(format!("{address}: HTTP {}", response.status()));
    }
    let catalogue: serde_json::Value = response.json().await.map_err(|error| error.to_string())?;
    later::load_all(&catalogue).map_err(|error| error.to_string())
}

/// Shows `children` once the words are here. If they cannot be fetched, nothing is
/// shown and the rest of the page carries on: the reason goes to the console.
#[component]
pub fn WithWords(children: ChildrenFn) -> impl IntoView {
    let words = LocalResource::new(load);
    let children = StoredValue::new(children);
    view! {
        <Transition>
            {move || Suspend::new(async move {
                match words.await {
                    Ok(()) => children.with_value(|children| children()).into_any(),
                    Err(error) => {
                        leptos::logging::warn!("words of a feature did not load: {error}");
                        ().into_any()
                    }
                }
            })}
        </Transition>
    }
}
