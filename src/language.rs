//! The page's language. index.html's first script settles it (the address's `?lang=`,
//! else the visitor's remembered choice, else the browser's languages), marks
//! `<html lang>` and loads the build of the app made for it: this build speaks one
//! language ([`current`]). A page keeps its language: the switch is a link to the same
//! address in the other language.

use explorer_logic::text::{Language, current};
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
/// address asked for, if it did. App paths never carry `lang=` (`Route::path`), so it
/// is appended, not replaced as the switch's `query_in` does: going through `query_in`
/// here cost 0.1 kB of the first load, over its limit.
pub fn keep_in(path: String) -> String {
    match ASKED.get() {
        Some(language) => {
            let separator = if path.contains('?') { '&' } else { '?' };
            format!("{path}{separator}lang={}", language.code())
        }
        None => path,
    }
}
