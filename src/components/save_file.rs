//! Files made in the browser and offered to the user.

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
