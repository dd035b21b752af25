use explorer_logic::text::t;
use leptos::prelude::*;
use leptos_router::components::A;

use crate::navigation::{Href, Route};

/// Shown for an address the app does not know.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="page">
            <h1>{t::app::not_found_title()}</h1>
            <p>
                {t::app::not_found_text()} " "
                <A href=Route::home().href()>{t::app::not_found_link()}</A>
            </p>
        </section>
    }
}
