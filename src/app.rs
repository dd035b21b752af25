//! The app shell: routes, header and the shared context. The route patterns here
//! match the paths [`Route`] builds.

use explorer_logic::routes::{NOT_FOUND_TITLE, Section};
use leptos::prelude::*;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::hooks::use_location;
use leptos_router::path;
use wasm_bindgen::JsCast;

use crate::api::ServiceContext;
use crate::auth::Session;
use crate::components::{SessionBadge, SessionReminder};
use crate::config::ServiceConfig;
use crate::pages::{Gallery, NotFound, ProductPage, Settings};
use crate::pages::{Login, Package, Packages, Version};
use crate::routes::{BasePath, Href, Route, base_path, set_page_title, use_current_path};

/// How many frames to wait for a new page's heading before giving up on focusing it.
const HEADING_WAIT_FRAMES: u32 = 600;

/// The whole app. `service` is where the Download Service is at start.
#[component]
pub fn App(service: ServiceConfig) -> impl IntoView {
    let service = ServiceContext::provide(service);
    Session::provide(service);
    let base = base_path();
    provide_context(base.clone());
    view! {
        <Router base=base.as_str().to_owned()>
            <SkipLink />
            <PageChanges />
            <header class="site-header">
                <A href=Route::home().href() exact=true attr:class="brand">
                    "Download Explorer"
                </A>
                <MainNav />
                <SessionBadge />
                <SessionReminder />
            </header>
            <main id="main" tabindex="-1">
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

/// The first thing a keyboard reaches: straight to the page's content.
#[component]
fn SkipLink() -> impl IntoView {
    // The element's own listener runs before the router's (on the window), which would
    // otherwise take `#main` for a page of the app.
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        if let Some(main) = document().get_element_by_id("main")
            && let Ok(main) = main.dyn_into::<web_sys::HtmlElement>()
        {
            let _ = main.focus();
            main.scroll_into_view();
        }
    };
    view! {
        <a class="skip-link" href="#main" on:click=skip>
            "Skip to content"
        </a>
    }
}

/// The main navigation, with the current page's section marked (product pages are
/// under Products, package and version pages under Data packages).
#[component]
fn MainNav() -> impl IntoView {
    let here = use_current_path();
    let base = expect_context::<BasePath>();
    let section = Memo::new(move |_| Route::parse(&here.read()).and_then(|r| r.section()));
    let link = move |to: Section, route: Route, label: &'static str| {
        let href = format!("{}{}", base.as_str(), route.path());
        view! {
            <a href=href aria-current=move || (section.get() == Some(to)).then_some("page")>
                {label}
            </a>
        }
    };
    view! {
        <nav aria-label="Main">
            {link(Section::Products, Route::home(), "Products")}
            {link(Section::Packages, Route::Packages, "Data packages")}
            {link(Section::Settings, Route::Settings, "Settings")}
        </nav>
    }
}

/// On each new page: its name in the document title and, after an in-app
/// navigation (not the first load), the focus on its heading so screen-reader and
/// keyboard users start there. Changes of a page's query (filters, comparisons) are
/// not new pages.
#[component]
fn PageChanges() -> impl IntoView {
    let location = use_location();
    let base = expect_context::<BasePath>();
    let first = StoredValue::new(true);
    Effect::new(move |_| {
        let pathname = location.pathname.get();
        let route = Route::parse(base.app_path(&pathname));
        set_page_title(&route.map_or_else(|| NOT_FOUND_TITLE.to_owned(), |r| r.title()));
        if first.get_value() {
            first.set_value(false);
            return;
        }
        focus_heading_when_shown(document().active_element(), HEADING_WAIT_FRAMES);
    });
}

/// Focuses the page's `h1` once it is shown, unless the user has moved the focus
/// meanwhile (from `before`, the element focused when the page changed).
fn focus_heading_when_shown(before: Option<web_sys::Element>, frames_left: u32) {
    request_animation_frame(move || {
        let now = document().active_element();
        let body = document().body().map(web_sys::Element::from);
        let moved = now.is_some() && now != before && now != body;
        if moved {
            return;
        }
        let heading = document()
            .query_selector("main h1")
            .ok()
            .flatten()
            .and_then(|h| h.dyn_into::<web_sys::HtmlElement>().ok());
        match heading {
            Some(heading) => {
                let _ = heading.set_attribute("tabindex", "-1");
                let _ = heading.focus();
            }
            None if frames_left > 0 => focus_heading_when_shown(before, frames_left - 1),
            None => {}
        }
    });
}
