use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Offers `text` to the user as a file download, made in the browser (no request).
pub fn save_text_file(file_name: &str, mime: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(link) = document
        .create_element("a")
        .map(|e| e.unchecked_into::<web_sys::HtmlAnchorElement>())
    {
        link.set_href(&url);
        link.set_download(file_name);
        link.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// A button that copies `text` to the clipboard and says so for a moment.
#[component]
pub fn CopyButton(
    /// What to copy.
    #[prop(into)]
    text: Signal<String>,
    /// What the button says, e.g. "Copy" or "Copy URL".
    #[prop(into, default = "Copy".into())]
    label: String,
    /// Accessible name, e.g. "Copy the MD5 of a.zip".
    #[prop(into, optional)]
    title: Option<String>,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    let copy = move |_| {
        let Some(window) = web_sys::window() else {
            return;
        };
        let promise = window
            .navigator()
            .clipboard()
            .write_text(&text.get_untracked());
        leptos::task::spawn_local(async move {
            let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
            copied.set(ok);
            if ok {
                set_timeout(
                    move || copied.set(false),
                    std::time::Duration::from_millis(1500),
                );
            }
        });
    };
    let aria_label = title.clone();
    view! {
        <button type="button" class="copy-button" title=title aria-label=aria_label on:click=copy>
            {move || if copied.get() { "Copied".to_owned() } else { label.clone() }}
        </button>
    }
}
