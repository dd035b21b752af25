//! The app's addresses in the browser: the base path it is served under (and the files
//! deployed beside the app), the current page's app path, and the one way to go to a
//! page. The paths themselves are built and read by [`Route`] (explorer-logic).

use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_location, use_navigate};

pub use explorer_logic::routes::{BasePath, Route};

/// The base path of this document: `<base href>`, which trunk sets from `--public-url`.
pub fn base_path() -> BasePath {
    let uri = document().base_uri().ok().flatten().unwrap_or_default();
    BasePath::from_base_uri(&uri)
}

/// The text of `name`, a file deployed beside the app (`config.json`, `places.json`, the
/// words loaded later); or why it could not be fetched. Not generic over what the text
/// is read as: one copy of it in the first load.
pub async fn fetch_beside(name: &str) -> Result<String, String> {
    let address = base_path().file(name);
    let response = gloo_net::http::Request::get(&address)
        .send()
        .await
        .map_err(|error| error.to_string())?;
    if !response.ok() {
        return Err(format!("{address}: HTTP {}", response.status()));
    }
    response.text().await.map_err(|error| error.to_string())
}

/// The current page's app path with its query (`/packages/1?compare=2`), without
/// the base path; reading it tracks the address.
pub fn use_current_path() -> Signal<String> {
    let location = use_location();
    let base = expect_context::<BasePath>();
    Signal::derive(move || {
        let (pathname, search) = (location.pathname.read(), location.search.read());
        let path = base.app_path(&pathname);
        // The router's `search` comes without its `?`.
        if search.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{search}")
        }
    })
}

/// Goes to a page of the app (the router adds the base path).
pub fn use_go_to() -> impl Fn(&Route, NavigateOptions) + Clone {
    let navigate = use_navigate();
    move |route: &Route, options: NavigateOptions| {
        navigate(&crate::language::keep_in(route.path()), options)
    }
}

/// Names the current page in the document title (`Data packages · Download Explorer`).
pub fn set_page_title(page: &str) {
    document().set_title(&explorer_logic::text::t::app::title(page));
}

/// The `href` of an in-app link: the route's path under the base path, asking for the
/// language the page's address asked for (`?lang=cy`). The router
/// follows only links inside its base, so a bare `/products/x` would leave the app when
/// it is served from a sub-path such as `/explorer/`.
pub trait Href {
    /// The route's address in this document.
    fn href(&self) -> String;
}

impl Href for Route {
    fn href(&self) -> String {
        crate::language::keep_in(format!("{}{}", base_path().as_str(), self.path()))
    }
}
