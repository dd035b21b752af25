//! The app shell: routes, header and the shared context.

use leptos::prelude::*;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

use crate::api::ServiceContext;
use crate::auth::Session;
use crate::components::SessionBadge;
use crate::config::ServiceConfig;
use crate::pages::{Gallery, NotFound, ProductPage, Settings};
use crate::pages::{Login, Package, Packages, Version};

/// The whole app. `service` is where the Download Service is at start.
#[component]
pub fn App(service: ServiceConfig) -> impl IntoView {
    let service = ServiceContext::provide(service);
    Session::provide(service);
    view! {
        <Router>
            <header class="site-header">
                <A href="/" attr:class="brand">
                    "Download Explorer"
                </A>
                <nav aria-label="Main">
                    <A href="/">"Products"</A>
                    <A href="/packages">"Data packages"</A>
                    <A href="/settings">"Settings"</A>
                </nav>
                <SessionBadge />
            </header>
            <main id="main">
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=Gallery />
                    <Route path=path!("/login") view=Login />
                    <Route path=path!("/packages") view=Packages />
                    <Route path=path!("/packages/:id") view=Package />
                    <Route path=path!("/packages/:id/versions/:version") view=Version />
                    <Route path=path!("/products/:id") view=ProductPage />
                    <Route path=path!("/settings") view=Settings />
                </Routes>
            </main>
        </Router>
    }
}
