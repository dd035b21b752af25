//! A product's images: small ones in a strip, a large one in a lightbox on click.
//! In the lightbox the arrow keys move, Escape closes and focus goes back to the
//! thumbnail that opened it.

use explorer_logic::text::t;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::api::use_api;

/// The strip's and the lightbox's styles, brought by the component (see the file).
const STYLE: &str = include_str!("../../style/images.css");

/// Thumbnails of images `0..count` of a product, each opening the lightbox.
#[component]
pub fn ImageStrip(
    /// The product's id.
    product_id: String,
    /// The product's name, for the images' descriptions.
    name: String,
    /// How many images the product has (`imageCount`).
    count: u32,
) -> impl IntoView {
    let api = use_api();
    let open = RwSignal::new(None::<u32>);
    // The thumbnail that opened the lightbox gets the focus back when it closes.
    let opener = StoredValue::new(0u32);
    let id = StoredValue::new(product_id);
    let name = StoredValue::new(name);
    let image_url = move |index: u32, large: bool| {
        api.with(|api| id.with_value(|id| api.urls().image(id, index, large)))
    };
    let alt =
        move |index: u32| name.with_value(|name| t::product::image_alt(name, index + 1, count));

    let thumbnails = (0..count)
        .map(|index| {
            view! {
                <li>
                    <button
                        type="button"
                        class="thumb"
                        id=thumb_id(index)
                        aria-label=t::product::enlarge_image(index + 1, count)
                        on:click=move |_| {
                            opener.set_value(index);
                            open.set(Some(index));
                        }
                    >
                        <img src=image_url(index, false) alt=alt(index) loading="lazy" width="160" height="120" />
                    </button>
                </li>
            }
        })
        .collect_view();

    let close = move || {
        if open.get_untracked().is_some() {
            open.set(None);
            focus_by_id(&thumb_id(opener.get_value()));
        }
    };
    let step = move |by: i64| {
        open.update(|open| {
            if let Some(index) = open {
                *index = (i64::from(*index) + by).rem_euclid(i64::from(count)) as u32;
            }
        })
    };
    let on_keydown = move |event: web_sys::KeyboardEvent| match event.key().as_str() {
        "Escape" => {
            event.prevent_default();
            close();
        }
        "ArrowLeft" => {
            event.prevent_default();
            step(-1);
        }
        "ArrowRight" => {
            event.prevent_default();
            step(1);
        }
        "Tab" => keep_focus_inside(&event),
        _ => {}
    };

    // Move focus into the lightbox when it opens.
    let close_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if open.get().is_some()
            && let Some(button) = close_button.get()
        {
            let _ = button.focus();
        }
    });

    view! {
        <style>{STYLE}</style>
        <ul class="image-strip" aria-label=t::product::images()>
            {thumbnails}
        </ul>
        <Show when=move || open.get().is_some()>
            <div class="lightbox-backdrop" on:click=move |_| close()>
                <div
                    class="lightbox"
                    role="dialog"
                    aria-modal="true"
                    aria-label=move || {
                        open.get().map(alt).unwrap_or_default()
                    }
                    on:keydown=on_keydown
                    on:click=|event| event.stop_propagation()
                >
                    <img
                        src=move || open.get().map(|i| image_url(i, true)).unwrap_or_default()
                        alt=move || open.get().map(alt).unwrap_or_default()
                    />
                    <div class="lightbox-bar">
                        <button type="button" class="button secondary" aria-label=t::product::previous_image() on:click=move |_| step(-1)>
                            {t::product::previous()}
                        </button>
                        <span class="lightbox-count" aria-live="polite">
                            {move || open.get().map(|i| format!("{} / {count}", i + 1))}
                        </span>
                        <button type="button" class="button secondary" aria-label=t::product::next_image() on:click=move |_| step(1)>
                            {t::product::next()}
                        </button>
                        <button type="button" class="button" node_ref=close_button on:click=move |_| close()>
                            {t::product::close()}
                        </button>
                    </div>
                </div>
            </div>
        </Show>
    }
}

fn thumb_id(index: u32) -> String {
    format!("product-image-{index}")
}

fn focus_by_id(id: &str) {
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(element) = element {
        let _ = element.focus();
    }
}

/// Tab and Shift+Tab cycle through the lightbox's buttons instead of leaving it.
fn keep_focus_inside(event: &web_sys::KeyboardEvent) {
    let Some(dialog) = event
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    // The buttons are siblings in the lightbox's bar.
    let (Ok(Some(first)), Ok(Some(last))) = (
        dialog.query_selector("button"),
        dialog.query_selector("button:last-of-type"),
    ) else {
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let at = |element: &web_sys::Element| {
        active
            .as_ref()
            .is_some_and(|a| a.is_same_node(Some(element)))
    };
    let wrap_to = if event.shift_key() && at(&first) {
        Some(last)
    } else if !event.shift_key() && at(&last) {
        Some(first)
    } else {
        None
    };
    if let Some(target) = wrap_to.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        event.prevent_default();
        let _ = target.focus();
    }
}
