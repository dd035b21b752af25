//! Every word the app shows, in English and Welsh.
//!
//! The messages are in `locales/en.json` and `locales/cy.json` (at the repository's
//! root; `docs/i18n.md` is the translators' guide). The build turns them into [`t`]:
//! a module per part of the app and a function per message, so a message missing from
//! either file, or a mistyped name, fails the build. The web app is built once per
//! language (the `welsh` feature); index.html loads the build of the page's language.

mod catalogue;
mod date;
mod language;
pub mod later;

#[cfg(test)]
pub use catalogue::{assert_counts, in_welsh};
pub use catalogue::{current, group_digits};
pub use date::format_date;
pub use language::{Language, PluralCategory, query_in};

/// The messages: `t::gallery::heading()`, `t::gallery::shown(count)`.
pub mod t {
    include!(concat!(env!("OUT_DIR"), "/messages.rs"));
}

#[cfg(test)]
mod tests;
