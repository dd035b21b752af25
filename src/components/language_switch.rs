//! The header's language switch: a link to this same address in the other language.

use explorer_logic::text::current;
use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::language::PARAMETER;

/// "Cymraeg" on an English page, "English" on a Welsh one. A full page load (the
/// router leaves `rel="external"` links to the browser), which keeps the route and
/// the selection: both are in the address.
#[component]
pub fn LanguageSwitch() -> impl IntoView {
    let other = current().other();
    let location = use_location();
    let href = move || {
        let search = location.search.read();
        let kept = search
            .split('&')
            .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some(PARAMETER));
        let query: Vec<&str> = kept.collect();
        let asked = format!("{PARAMETER}={}", other.code());
        let query = if query.is_empty() {
            asked
        } else {
            format!("{}&{asked}", query.join("&"))
        };
        format!("{}?{query}", location.pathname.read())
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
