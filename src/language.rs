//! The page's language. index.html's first script settles it (the address's `?lang=`,
//! else the visitor's remembered choice, else the browser's languages), marks
//! `<html lang>` and loads the build of the app made for it: this build speaks one
//! language ([`current`]). A page keeps its language: the switch is a link to the same
//! address in the other language.

use explorer_logic::text::{Language, current, query_in};
use leptos::prelude::document;

thread_local! {
    /// The language the address asked for: in-app links keep asking for it, so a
    /// copied address opens in the same language.
    static ASKED: std::cell::Cell<Option<Language>> = const { std::cell::Cell::new(None) };
}

/// Notes whether the address asked for the page's language, and marks the page with
/// this build's language (`trunk serve` makes only the English build, whatever the
/// page asked for).
pub fn start() {
    let Some(root) = document().document_element() else {
        return;
    };
    // index.html's script marks a language the address asked for (`data-asked`).
    if root.has_attribute("data-asked") {
        ASKED.set(Some(current()));
    }
    let _ = root.set_attribute("lang", current().code());
}

/// `path` (an app path, perhaps with a query) asking for the language the page's
/// address asked for, if it did: the switch's [`query_in`], applied to a link.
pub fn keep_in(path: String) -> String {
    match ASKED.get() {
        Some(language) => {
            let (path, query) = path.split_once('?').unwrap_or((&path, ""));
            format!("{path}?{}", query_in(query, language))
        }
        None => path,
    }
}
