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
        let params = web_sys::UrlSearchParams::new_with_str(&location.search.read()).ok();
        let query = params.map_or_else(String::new, |params| {
            params.set(PARAMETER, other.code());
            String::from(params.to_string())
        });
        format!(
            "{}?{query}{}",
            location.pathname.read(),
            location.hash.read()
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
