use leptos::prelude::*;
use leptos_router::components::A;

use crate::navigation::{Href, Route};

/// Shown for an address the app does not know.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="page">
            <h1>"Page not found"</h1>
            <p>"There is nothing at this address. " <A href=Route::home().href()>"Browse the products"</A> "."</p>
        </section>
    }
}
