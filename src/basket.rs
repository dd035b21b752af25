//! The basket in this browser: read from and kept in localStorage, followed when
//! another tab changes it (the `storage` event), and its count in the header kept
//! current (the header shows `--basket`, which index.html's script sets from
//! [`COUNT_KEY`] at start and when another tab changes it). The rules are `explorer_logic::basket`'s; this only reads, writes and
//! listens. Only the pages loaded on demand use it.

use explorer_logic::basket::{Action, Basket, COUNT_KEY, Event, STORAGE_KEY};
use leptos::prelude::*;

use crate::config::local_storage;

/// The basket as stored now.
fn stored() -> Option<String> {
    local_storage()?.get_item(STORAGE_KEY).ok()?
}

/// This browser's basket, kept up to date with what other tabs do to it.
pub fn use_basket() -> RwSignal<Basket> {
    let basket = RwSignal::new(Basket::from_storage(stored().as_deref()));
    let listener = window_event_listener_untyped("storage", move |_| {
        basket.update(|basket| {
            basket.handle(Event::Loaded(stored()));
        });
    });
    on_cleanup(move || listener.remove());
    basket
}

/// Hands `event` to the basket and does what it says: keeps it, and answers what to
/// tell the person.
pub fn change(basket: RwSignal<Basket>, event: Event) -> Option<String> {
    let actions = basket.try_update(|basket| basket.handle(event));
    let mut notice = None;
    for action in actions.unwrap_or_default() {
        match action {
            Action::Store => basket.with_untracked(store),
            Action::Show(told) => notice = Some(told.text()),
        }
    }
    notice
}

/// Keeps `basket` in localStorage with its count, and shows the count in the header.
fn store(basket: &Basket) {
    let count = basket.len().to_string();
    if let Some(storage) = local_storage() {
        // Storage can be full or disabled; the basket then lasts for this page only.
        let _ = storage.set_item(STORAGE_KEY, &basket.to_storage());
        let _ = storage.set_item(COUNT_KEY, &count);
    }
    show_count(&count);
}

/// The header's count, as index.html's script shows it: none for an empty basket.
/// (Nothing else styles `<html>` itself.)
fn show_count(count: &str) {
    let Some(root) = document().document_element() else {
        return;
    };
    let _ = if count == "0" {
        root.remove_attribute("style")
    } else {
        root.set_attribute("style", &format!("{COUNT_PROPERTY}: \" {count}\""))
    };
}

/// The CSS property the header's basket link shows its count from.
const COUNT_PROPERTY: &str = "--basket";
