//! Copying a value to the clipboard.

use explorer_logic::text::t;
use leptos::prelude::*;

/// A button that copies `text` to the clipboard and says so for a moment.
///
/// Its accessible name starts with the visible label (speech users say what they
/// see); `context` adds the rest for screen readers only.
#[component]
pub fn CopyButton(
    /// What to copy.
    #[prop(into)]
    text: Signal<String>,
    /// What the button says, e.g. "Copy" or "Copy URLs".
    #[prop(into, default = t::product::copy().into())]
    label: String,
    /// A tooltip saying more, e.g. "Copy every listed URL".
    #[prop(into, optional)]
    title: Option<String>,
    /// Heard after the label, e.g. " the MD5 of a.zip" for "Copy the MD5 of a.zip".
    #[prop(into, optional)]
    context: Option<String>,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    let copy = move |_| copy_then(&text.get_untracked(), move |ok| copied.set(ok));
    view! {
        <button type="button" class="copy-button" title=title on:click=copy>
            {move || if copied.get() { t::product::copied().to_owned() } else { label.clone() }}
            {context.map(|context| view! { <span class="visually-hidden">{context}</span> })}
        </button>
    }
}

/// How long a copy button says "Copied".
const COPIED_FOR: std::time::Duration = std::time::Duration::from_millis(1500);

/// Copies `text` to the clipboard, then calls `copied(true)` once it is there and
/// `copied(false)` a moment later (or at once if the copy failed), for a button to
/// say so.
pub fn copy_then(text: &str, copied: impl Fn(bool) + Clone + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(text);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        copied(ok);
        if ok {
            set_timeout(move || copied(false), COPIED_FOR);
        }
    });
}
