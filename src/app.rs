//! The app shell: routes, header and the shared context. The route patterns here
//! match the paths [`Route`] builds.

use leptos::prelude::*;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

use crate::api::ServiceContext;
use crate::auth::Session;
use crate::components::{SessionBadge, SessionReminder};
use crate::config::ServiceConfig;
use crate::pages::{Gallery, NotFound, ProductPage, Settings};
use crate::pages::{Login, Package, Packages, Version};
use crate::routes::{Route, base_path};

/// The whole app. `service` is where the Download Service is at start.
#[component]
pub fn App(service: ServiceConfig) -> impl IntoView {
    let service = ServiceContext::provide(service);
    Session::provide(service);
    let base = base_path();
    provide_context(base.clone());
    let home = Route::home().path();
    view! {
        <Router base=base.as_str().to_owned()>
            <header class="site-header">
                <A href=home.clone() attr:class="brand">
                    "Download Explorer"
                </A>
                <nav aria-label="Main">
                    <A href=home>"Products"</A>
                    <A href=Route::Packages.path()>"Data packages"</A>
                    <A href=Route::Settings.path()>"Settings"</A>
                </nav>
                <SessionBadge />
                <SessionReminder />
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
