//! The app's own addresses: every in-app path is built and read here, with ids
//! encoded so any id (spaces, slashes, non-ASCII) survives the trip through the
//! address bar, and with the base path the app is served under.
//!
//! App paths never include the base path (`/packages/1`); the router adds it
//! (`/explorer/packages/1`) and [`BasePath::app_path`] takes it off again.

use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};

use download_api::{encode_component, parse_query};

use crate::gallery::CatalogueQuery;
use crate::product::selection::Selection;
use crate::table_tools::TableQuery;
use crate::text::t;

/// What must be encoded in a `next` or `items` query value; `/`, `,` and `;` stay
/// readable.
const NEXT_VALUE: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'&')
    .add(b'+')
    .add(b'<')
    .add(b'=')
    .add(b'>')
    .add(b'?')
    .add(b'`');

/// A page of the app, with the state its address carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// `/`, with the search and filters.
    Gallery(CatalogueQuery),
    /// `/products/{id}`, with the picked areas and formats.
    Product { id: String, selection: Selection },
    /// `/login`, coming back to `next` (an app path) afterwards.
    Login { next: Option<String> },
    /// `/packages`.
    Packages,
    /// `/packages/{id}`.
    Package { id: String },
    /// `/packages/{id}/versions/{version}` (`latest` allowed), compared with another,
    /// its files filtered and sorted.
    Version {
        package_id: String,
        version: String,
        compare: Option<String>,
        files: TableQuery,
    },
    /// `/settings`.
    Settings,
    /// `/basket`. A shared basket's link adds `?items=` ([`basket_link`]), which the
    /// basket page reads itself: the header's code, which loads with every page,
    /// then has no query of it to read.
    Basket,
}

impl Route {
    /// The gallery with nothing searched.
    pub fn home() -> Self {
        Route::Gallery(CatalogueQuery::default())
    }

    /// A product page with nothing picked.
    pub fn product(id: &str) -> Self {
        Route::Product {
            id: id.to_owned(),
            selection: Selection::default(),
        }
    }

    /// A data package's page.
    pub fn package(id: &str) -> Self {
        Route::Package { id: id.to_owned() }
    }

    /// One version of a data package, compared with nothing.
    pub fn version(package_id: &str, version: &str) -> Self {
        Route::Version {
            package_id: package_id.to_owned(),
            version: version.to_owned(),
            compare: None,
            files: TableQuery::default(),
        }
    }

    /// The sign-in page that comes back to `next` (an app path) afterwards.
    pub fn login(next: &str) -> Self {
        Route::Login {
            next: safe_next(Some(next)).map(str::to_owned),
        }
    }

    /// The sign-in page for someone now at `here` (an app path): on the sign-in page
    /// itself, the same page with the same `next`, never a `next` pointing at it.
    pub fn sign_in_from(here: &str) -> Self {
        match Route::parse(here) {
            Some(Route::Login { next }) => Route::Login {
                next: next.filter(|next| safe_next(Some(next)).is_some()),
            },
            _ => Route::login(here),
        }
    }

    /// The app path of this page, ids and values encoded:
    /// `/packages/0040046952/versions/latest?compare=110012`.
    pub fn path(&self) -> String {
        let with_query = |path: String, query: String| {
            if query.is_empty() {
                path
            } else {
                format!("{path}?{query}")
            }
        };
        match self {
            Route::Gallery(query) => query.href("/"),
            Route::Product { id, selection } => with_query(
                format!("/products/{}", encode_component(id)),
                selection.to_query_string(),
            ),
            Route::Login { next } => match next.as_deref() {
                Some(next) if next != "/" => {
                    format!("/login?next={}", utf8_percent_encode(next, NEXT_VALUE))
                }
                _ => "/login".to_owned(),
            },
            Route::Packages => "/packages".to_owned(),
            Route::Package { id } => format!("/packages/{}", encode_component(id)),
            Route::Version {
                package_id,
                version,
                compare,
                files,
            } => with_query(
                format!(
                    "/packages/{}/versions/{}",
                    encode_component(package_id),
                    encode_component(version)
                ),
                compare
                    .iter()
                    .map(|other| ("compare", other.clone()))
                    .chain(files.pairs())
                    .map(|(name, value)| format!("{name}={}", encode_component(&value)))
                    .collect::<Vec<_>>()
                    .join("&"),
            ),
            Route::Settings => "/settings".to_owned(),
            Route::Basket => "/basket".to_owned(),
        }
    }

    /// The page at an app path (`/packages/a%20b?x=1`), if it is one of the app's.
    /// Unknown query parameters are ignored, as the pages do.
    pub fn parse(path_and_query: &str) -> Option<Self> {
        let (path, query) = path_and_query
            .split_once('?')
            .unwrap_or((path_and_query, ""));
        let path = path.split('#').next().unwrap_or_default();
        if !path.starts_with('/') || path.starts_with("//") || path.contains('\\') {
            return None;
        }
        let segments = path[1..]
            .trim_end_matches('/')
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(|segment| percent_decode_str(segment).decode_utf8().ok())
            .collect::<Option<Vec<_>>>()?;
        let param = |name: &str| {
            let pairs = parse_query(query).ok()?;
            pairs
                .into_iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v)
        };
        let segments: Vec<&str> = segments.iter().map(|s| s.as_ref()).collect();
        Some(match segments.as_slice() {
            [] => Route::Gallery(CatalogueQuery::parse(query)),
            ["products", id] => Route::Product {
                id: (*id).to_owned(),
                selection: Selection::parse(query).unwrap_or_default(),
            },
            ["login"] => Route::Login {
                next: param("next"),
            },
            ["packages"] => Route::Packages,
            ["packages", id] => Route::package(id),
            ["packages", id, "versions", version] => Route::Version {
                package_id: (*id).to_owned(),
                version: (*version).to_owned(),
                compare: param("compare").filter(|other| !other.is_empty()),
                files: TableQuery::from_params(
                    param("filter").as_deref(),
                    param("sort").as_deref(),
                ),
            },
            ["settings"] => Route::Settings,
            ["basket"] => Route::Basket,
            _ => return None,
        })
    }
}

/// The basket page with a shared basket in its address: `items` is the basket's link
/// text, readable in the address (`/`, `,` and `;` as they are).
pub fn basket_link(items: &str) -> String {
    format!("/basket?items={}", utf8_percent_encode(items, NEXT_VALUE))
}

/// A part of the app named in the main navigation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// The gallery and the product pages.
    Products,
    /// The data packages, their versions and files.
    Packages,
    /// Which service the app talks to.
    Settings,
    /// The basket.
    Basket,
}

impl Route {
    /// The navigation section this page belongs to (none for the sign-in page).
    pub fn section(&self) -> Option<Section> {
        match self {
            Route::Gallery(_) | Route::Product { .. } => Some(Section::Products),
            Route::Packages | Route::Package { .. } | Route::Version { .. } => {
                Some(Section::Packages)
            }
            Route::Settings => Some(Section::Settings),
            Route::Basket => Some(Section::Basket),
            Route::Login { .. } => None,
        }
    }

    /// The page's name before its data arrives, for the document title
    /// (`t::app::title`): pages with data name it once they have it (a package's name
    /// for its id).
    pub fn title(&self) -> String {
        match self {
            Route::Gallery(_) => t::gallery::title().into(),
            Route::Product { id, .. } => id.clone(),
            Route::Login { .. } => t::account::sign_in().into(),
            Route::Packages => t::packages::title().into(),
            Route::Package { id } => t::packages::title_package(id),
            Route::Version {
                package_id,
                version,
                ..
            } => {
                if version == "latest" {
                    t::packages::title_latest_of_package(package_id)
                } else {
                    t::packages::title_version_of_package(package_id, version)
                }
            }
            Route::Settings => t::app::nav_settings().into(),
            Route::Basket => t::app::nav_basket().into(),
        }
    }
}

/// The title of a version page: `Version 131866 of Southampton Addresses`; the
/// `latest` of an address reads as such.
pub fn version_title(version: &str, package: &str) -> String {
    if version == "latest" {
        t::packages::title_latest(package)
    } else {
        t::packages::title_version(package, version)
    }
}

/// The address to return to after signing in, if `next` is a page of this app.
///
/// Only app paths are followed (`/packages/1`), never an absolute or
/// protocol-relative address (`https://…`, `//evil`), an address of no page of the
/// app, nor the sign-in page itself.
pub fn safe_next(next: Option<&str>) -> Option<&str> {
    let next = next?.trim();
    if next.contains(char::is_control) {
        return None;
    }
    match Route::parse(next)? {
        Route::Login { .. } => None,
        _ => Some(next),
    }
}

/// Where to go once signed in: `next` when it is a page of the app, the data
/// packages when none was asked for, the gallery when `next` is no page of the app.
pub fn after_sign_in(next: Option<&str>) -> Route {
    match next {
        None => Route::Packages,
        Some(_) => safe_next(next)
            .and_then(Route::parse)
            .unwrap_or_else(Route::home),
    }
}

/// The path the app is served under: empty at a site's root, `/explorer` under a
/// sub-path. Read from the document's base address, which trunk's
/// `<base data-trunk-public-url>` sets from `--public-url`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BasePath(String);

impl BasePath {
    /// The base path of a document whose `document.baseURI` is `base_uri`:
    /// `https://example.org/explorer/` gives `/explorer`.
    pub fn from_base_uri(base_uri: &str) -> Self {
        let after_scheme = base_uri
            .split_once("://")
            .map_or(base_uri, |(_, rest)| rest);
        let path = after_scheme
            .find('/')
            .map_or("", |start| &after_scheme[start..]);
        let path = path.split(['?', '#']).next().unwrap_or_default();
        // `/explorer/index.html` and `/explorer/` both mean the folder `/explorer`.
        let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
        BasePath(folder.to_owned())
    }

    /// The base path as the router takes it: `""` or `/explorer`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The app path of a browser path: `/explorer/packages` gives `/packages`.
    pub fn app_path<'a>(&self, browser_path: &'a str) -> &'a str {
        match browser_path.strip_prefix(self.0.as_str()) {
            Some("") => "/",
            Some(rest) if rest.starts_with('/') => rest,
            _ => browser_path,
        }
    }

    /// The address of a file deployed beside the app: `/explorer/config.json`.
    pub fn file(&self, name: &str) -> String {
        format!("{}/{name}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use download_api::Area;

    #[test]
    fn ids_of_any_kind_round_trip_through_paths() {
        for id in ["0040046952", "a b/c", "Café ☕", "100%", "x?y#z"] {
            let route = Route::Version {
                package_id: id.into(),
                version: id.into(),
                compare: Some(id.into()),
                files: TableQuery::default(),
            };
            let path = route.path();
            assert_eq!(path.matches('/').count(), 4, "{path}");
            assert_eq!(path.matches('?').count(), 1, "{path}");
            assert!(!path.contains([' ', '#']), "{path}");
            assert_eq!(Route::parse(&path), Some(route), "{path}");
            let package = Route::package(id);
            assert_eq!(Route::parse(&package.path()), Some(package));
        }
        assert_eq!(Route::package("a b/c").path(), "/packages/a%20b%2Fc");
    }

    #[test]
    fn a_versions_file_filter_and_order_round_trip_through_its_path() {
        let route = Route::Version {
            package_id: "1".into(),
            version: "latest".into(),
            compare: Some("2".into()),
            files: TableQuery::from_params(Some("su & gml"), Some("-size")),
        };
        let path = route.path();
        assert_eq!(
            path,
            "/packages/1/versions/latest?compare=2&filter=su%20%26%20gml&sort=-size"
        );
        assert_eq!(Route::parse(&path), Some(route));
        let plain = Route::parse("/packages/1/versions/2?sort=bogus").unwrap();
        assert_eq!(plain, Route::version("1", "2"));
    }

    #[test]
    fn every_page_has_a_path_and_reads_back() {
        let gallery = Route::Gallery(CatalogueQuery::parse("q=road&sort=newest"));
        let product = Route::Product {
            id: "OpenMapLocal".into(),
            selection: Selection::from_params(Some("SU,SZ"), Some("GML"), None),
        };
        let routes = [
            (Route::home(), "/"),
            (gallery, "/?q=road&sort=newest"),
            (product, "/products/OpenMapLocal?areas=SU,SZ&format=GML"),
            (Route::login("/packages/1"), "/login?next=/packages/1"),
            (Route::Packages, "/packages"),
            (Route::package("1"), "/packages/1"),
            (Route::version("1", "latest"), "/packages/1/versions/latest"),
            (Route::Settings, "/settings"),
            (Route::Basket, "/basket"),
        ];
        let link = basket_link("OpenTOID/1/SU,SZ;OpenRoads/2//GML a");
        assert_eq!(link, "/basket?items=OpenTOID/1/SU,SZ;OpenRoads/2//GML%20a");
        assert_eq!(Route::parse(&link), Some(Route::Basket));
        for (route, path) in routes {
            assert_eq!(route.path(), path);
            assert_eq!(Route::parse(path), Some(route));
        }
        assert_eq!(Route::parse("/packages/"), Some(Route::Packages));
        assert_eq!(Route::parse("/nowhere"), None);
        assert_eq!(Route::parse("/packages/1/files"), None);
        assert_eq!(Route::parse("/packages/%FF"), None);
        let Some(Route::Product { selection, .. }) = Route::parse("/products/P?areas=su") else {
            panic!("not a product page");
        };
        assert_eq!(selection.areas, [Area::from("SU")]);
    }

    #[test]
    fn login_path_keeps_the_place_readable_and_encoded() {
        assert_eq!(
            Route::login("/packages/0040046952/versions/110012").path(),
            "/login?next=/packages/0040046952/versions/110012"
        );
        let with_query = Route::login("/packages/p/versions/latest?compare=1&x=a b").path();
        assert_eq!(
            with_query,
            "/login?next=/packages/p/versions/latest%3Fcompare%3D1%26x%3Da%20b"
        );
        let (_, value) = with_query.split_once("next=").unwrap();
        let decoded = download_api::parse_query(&format!("next={value}")).unwrap();
        assert_eq!(decoded[0].1, "/packages/p/versions/latest?compare=1&x=a b");
        assert_eq!(Route::login("/login?next=/x").path(), "/login");
        assert_eq!(Route::login("https://evil.example").path(), "/login");
        assert_eq!(Route::login("/").path(), "/login");
        // An id with a slash keeps its encoding inside `next`.
        let next = Route::package("a/b").path();
        let login = Route::login(&next);
        assert_eq!(login.path(), "/login?next=/packages/a%252Fb");
        assert_eq!(Route::parse(&login.path()), Some(login));
    }

    #[test]
    fn sign_in_from_the_sign_in_page_keeps_its_next() {
        assert_eq!(
            Route::sign_in_from("/login?next=/packages").path(),
            "/login?next=/packages"
        );
        assert_eq!(
            Route::sign_in_from("/login?next=/login%3Fnext%3D/x").path(),
            "/login"
        );
        assert_eq!(
            Route::sign_in_from("/products/P?areas=SU").path(),
            "/login?next=/products/P%3Fareas%3DSU"
        );
        assert_eq!(Route::sign_in_from("/").path(), "/login");
    }

    #[test]
    fn only_app_pages_are_followed_after_sign_in() {
        assert_eq!(
            safe_next(Some("/packages/0040046952/versions/110012")),
            Some("/packages/0040046952/versions/110012")
        );
        assert_eq!(safe_next(Some("/packages?x=1")), Some("/packages?x=1"));
        assert_eq!(safe_next(Some("https://evil.example/")), None);
        assert_eq!(safe_next(Some("//evil.example/")), None);
        assert_eq!(safe_next(Some("/\\evil.example")), None);
        assert_eq!(safe_next(Some("/login?next=/x")), None);
        assert_eq!(safe_next(Some("packages")), None);
        assert_eq!(safe_next(Some("/not-a-page")), None);
        assert_eq!(safe_next(Some("/packages\n")), Some("/packages"));
        assert_eq!(safe_next(Some("/pack\u{7}ages")), None);
        assert_eq!(safe_next(None), None);
        assert_eq!(after_sign_in(None), Route::Packages);
        assert_eq!(after_sign_in(Some("/settings")), Route::Settings);
        assert_eq!(
            after_sign_in(Some("/packages/1/versions/2?compare=3")).path(),
            "/packages/1/versions/2?compare=3"
        );
        assert_eq!(after_sign_in(Some("/not-a-page")), Route::home());
        assert_eq!(after_sign_in(Some("https://evil.example/")), Route::home());
    }

    #[test]
    fn base_path_comes_from_the_documents_base_address() {
        let root = BasePath::from_base_uri("http://127.0.0.1:8080/");
        assert_eq!(root.as_str(), "");
        assert_eq!(root.app_path("/packages"), "/packages");
        assert_eq!(root.file("config.json"), "/config.json");
        let sub = BasePath::from_base_uri("https://example.github.io/explorer/");
        assert_eq!(sub.as_str(), "/explorer");
        assert_eq!(sub.app_path("/explorer/packages/1"), "/packages/1");
        assert_eq!(sub.app_path("/explorer"), "/");
        assert_eq!(sub.app_path("/explorer/"), "/");
        assert_eq!(sub.app_path("/explorerx"), "/explorerx");
        assert_eq!(sub.file("config.json"), "/explorer/config.json");
        // Without a `<base>`, the document's own address: its folder.
        let page = BasePath::from_base_uri("https://x.org/a/b/index.html?q#f");
        assert_eq!(page.as_str(), "/a/b");
        assert_eq!(BasePath::from_base_uri("https://x.org").as_str(), "");
    }

    #[test]
    fn each_page_names_its_section_and_title() {
        let section = |path: &str| Route::parse(path).and_then(|r| r.section());
        assert_eq!(section("/?q=road"), Some(Section::Products));
        assert_eq!(section("/products/OpenRoads"), Some(Section::Products));
        assert_eq!(section("/packages"), Some(Section::Packages));
        assert_eq!(
            section("/packages/1/versions/latest"),
            Some(Section::Packages)
        );
        assert_eq!(section("/settings"), Some(Section::Settings));
        assert_eq!(section("/login?next=/packages"), None);

        let title = |path: &str| Route::parse(path).map(|r| t::app::title(r.title()));
        assert_eq!(
            title("/packages").as_deref(),
            Some("Data packages · Download Explorer")
        );
        assert_eq!(
            title("/packages/a%20b").as_deref(),
            Some("Data package a b · Download Explorer")
        );
        assert_eq!(
            title("/packages/1/versions/110012?compare=2").as_deref(),
            Some("Version 110012 of data package 1 · Download Explorer")
        );
        assert_eq!(
            version_title("latest", "Southampton Addresses"),
            "Latest version of Southampton Addresses"
        );
    }

    #[test]
    fn page_titles_in_welsh() {
        let title = |path: &str| Route::parse(path).map(|r| t::app::title(r.title()));
        let (titles, named) = crate::text::in_welsh(|| {
            let titles = [
                title("/packages"),
                title("/packages/1"),
                title("/packages/1/versions/110012"),
                title("/packages/1/versions/latest"),
                title("/?q=road"),
                title("/login"),
            ];
            let named = [
                version_title("110012", "Southampton Addresses"),
                version_title("latest", "Southampton Addresses"),
            ];
            (titles, named)
        });
        let titles = titles.map(Option::unwrap_or_default);
        assert_eq!(
            titles,
            [
                "Pecynnau data · Download Explorer",
                "Pecyn data 1 · Download Explorer",
                "Fersiwn 110012 o becyn data 1 · Download Explorer",
                "Y fersiwn ddiweddaraf o becyn data 1 · Download Explorer",
                "Cynhyrchion · Download Explorer",
                "Mewngofnodi · Download Explorer",
            ]
        );
        assert_eq!(
            named,
            [
                "Fersiwn 110012 o Southampton Addresses",
                "Y fersiwn ddiweddaraf o Southampton Addresses",
            ]
        );
    }
}
