//! The header's language switch: a link to this same address in the other language.

use explorer_logic::text::{current, query_in};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

/// "Cymraeg" on an English page, "English" on a Welsh one. A full page load (the
/// router leaves `rel="external"` links to the browser), which keeps the route and
/// the selection: both are in the address.
#[component]
pub fn LanguageSwitch() -> impl IntoView {
    let other = current().other();
    let location = use_location();
    let href = move || {
        format!(
            "{}?{}",
            location.pathname.read(),
            query_in(&location.search.read(), other)
        )
    };
    view! {
        <a
            class="language-switch"
            href=href
            hreflang=other.code()
            lang=other.code()
            rel="external"
        >
            {other.own_name()}
        </a>
    }
}
