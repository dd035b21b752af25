//! The app shell: routes, header and the shared context. The route patterns here
//! match the paths [`Route`] builds.

use explorer_logic::routes::Section;
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos_router::Lazy;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::hooks::use_location;
use leptos_router::path;
use wasm_bindgen::JsCast;

use crate::api::ServiceContext;
use crate::auth::Session;
use crate::chunks::{
    LoginRoute, PackageRoute, PackagesRoute, ProductRoute, SettingsRoute, VersionRoute,
};
use crate::components::{LanguageSwitch, SessionBadge, SessionReminder};
use crate::config::ServiceConfig;
use crate::navigation::{BasePath, Href, Route, base_path, set_page_title, use_current_path};
use crate::pages::{Gallery, NotFound};

/// How many frames to wait for a new page's heading before giving up on focusing it.
const HEADING_WAIT_FRAMES: u32 = 600;

/// The whole app. `service` is where the Download Service is at start.
#[component]
pub fn App(service: ServiceConfig) -> impl IntoView {
    let service = ServiceContext::provide(service);
    Session::provide(service);
    let base = base_path();
    provide_context(base.clone());
    let (is_routing, set_is_routing) = signal(false);
    prefetch_pages_on_hover(base.clone());
    view! {
        <Router base=base.as_str().to_owned() set_is_routing>
            <SkipLink />
            <PageChanges />
            <header class="site-header">
                <A href=Route::home().href() exact=true attr:class="brand">
                    {t::app::name()}
                </A>
                <MainNav />
                <LanguageSwitch />
                <SessionBadge />
                <SessionReminder />
            </header>
            <main id="main" tabindex="-1">
                <PageLoading is_routing />
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=Gallery />
                    <Route path=path!("/login") view={Lazy::<LoginRoute>::new()} />
                    <Route path=path!("/packages") view={Lazy::<PackagesRoute>::new()} />
                    <Route path=path!("/packages/:id") view={Lazy::<PackageRoute>::new()} />
                    <Route
                        path=path!("/packages/:id/versions/:version")
                        view={Lazy::<VersionRoute>::new()}
                    />
                    <Route path=path!("/products/:id") view={Lazy::<ProductRoute>::new()} />
                    <Route path=path!("/settings") view={Lazy::<SettingsRoute>::new()} />
                    <Route path=path!("/basket") view={Lazy::<ProductRoute>::new()} />
                </Routes>
            </main>
        </Router>
    }
}

/// Says a page is on its way: while the router waits for a page's code (or its data)
/// after a click, and on a first load straight into a page whose code is still
/// arriving. The stylesheet shows it only then: while it is `<main>`'s only element.
#[component]
fn PageLoading(is_routing: ReadSignal<bool>) -> impl IntoView {
    view! {
        <p class="page-loading" class:routing=is_routing role="status">
            {t::app::loading_page()}
        </p>
    }
}

/// Starts fetching a page's code as soon as a pointer rests on (or the keyboard focus
/// reaches) a link to it, so the click usually finds it loaded. One listener each on
/// the document for every link, present and future.
fn prefetch_pages_on_hover(base: BasePath) {
    let prefetch = move |ev: web_sys::Event| {
        let link = ev
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
            .and_then(|element| element.closest("a[href]").ok().flatten());
        let Some(href) = link.and_then(|link| link.get_attribute("href")) else {
            return;
        };
        let Ok(url) = web_sys::Url::new_with_base(
            &href,
            &document().base_uri().ok().flatten().unwrap_or_default(),
        ) else {
            return;
        };
        if let Some(route) = Route::parse(base.app_path(&url.pathname())) {
            leptos::task::spawn_local(crate::chunks::preload(route));
        }
    };
    for event in ["pointerover", "focusin"] {
        // Kept for the page's life: dropping the handle leaves the listener in place.
        _ = window_event_listener_untyped(event, prefetch.clone());
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
            {t::app::skip_to_content()}
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
        let href = crate::language::keep_in(format!("{}{}", base.as_str(), route.path()));
        view! {
            <a href=href aria-current=move || (section.get() == Some(to)).then_some("page")>
                {label}
            </a>
        }
    };
    view! {
        <nav aria-label=t::app::main_navigation()>
            {link(Section::Products, Route::home(), t::app::nav_products())}
            {link(Section::Packages, Route::Packages, t::app::nav_packages())}
            {link(Section::Settings, Route::Settings, t::app::nav_settings())}
            // Its count is index.html's (`--basket-count`): no code of the first load.
            {link(Section::Basket, Route::Basket, t::app::nav_basket())}
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
        set_page_title(&route.map_or_else(|| t::app::not_found_title().to_owned(), |r| r.title()));
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
