//! The header's language switch: a link to this same address in the other language.

use explorer_logic::text::{current, query_in};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

/// "Cymraeg" on an English page, "English" on a Welsh one. A full page load (the
/// router leaves `rel="external"` links to the browser) of the other language's build,
/// which keeps the route and the selection: both are in the address.
#[component]
pub fn LanguageSwitch() -> impl IntoView {
    let location = use_location();
    let href = move || {
        let query = query_in(&location.search.read(), current().other());
        format!("{}?{query}", location.pathname.read())
    };
    // Each build speaks one language, so the other one's name is written out.
    #[cfg(not(feature = "welsh"))]
    let switch = view! {
        <a class="language-switch" href=href hreflang="cy" lang="cy" rel="external">
            "Cymraeg"
        </a>
    };
    #[cfg(feature = "welsh")]
    let switch = view! {
        <a class="language-switch" href=href hreflang="en" lang="en" rel="external">
            "English"
        </a>
    };
    switch
}
