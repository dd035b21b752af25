//! Every word the app shows, in English and Welsh.
//!
//! The messages are in `locales/en.json` and `locales/cy.json` (at the repository's
//! root; `docs/i18n.md` is the translators' guide). The build turns them into [`t`]:
//! a module per part of the app and a function per message, so a message missing from
//! either file, or a mistyped name, fails the build. English is compiled in; Welsh is
//! read from its file when a page is shown in Welsh ([`load`]).

mod catalogue;
mod date;
mod language;

pub use catalogue::{CatalogueError, Loader, current, group_digits, load, use_english};
pub use date::format_date;
pub use language::{Language, PARAMETER, PluralCategory, choose, query_in};

/// The messages: `t::gallery::heading()`, `t::gallery::shown(count)`.
pub mod t {
    include!(concat!(env!("OUT_DIR"), "/messages.rs"));
}

#[cfg(test)]
mod tests;
