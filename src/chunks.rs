//! The routes that load a page's code on demand.
//!
//! The gallery (`/`) is in the main wasm. Every other page is a [`LazyRoute`] whose
//! code is in one of three chunks: the product page and the basket (which shares its
//! listing of a product's files); the data-package pages; sign-in and settings. In the release build (`cargo xtask build`, with the `split` feature)
//! each chunk function below is a `#[lazy]` split point, cut out of the main wasm
//! with all the code only it uses and fetched when one of its pages is first shown or
//! prefetched. Three split points rather than one per page: wasm-split puts the code
//! each set of split points shares in a chunk of its own, so six gave 29 files, most
//! under a kilobyte. In the development build (`trunk serve`, unsplit) the same routes
//! just show their page.

use leptos::prelude::*;
use leptos_router::LazyRoute;
use leptos_router::hooks::use_location;

use crate::auth::RequireSignIn;
use crate::navigation::{BasePath, Route};
use crate::pages::{basket, login, package, packages, product, settings, version};
use crate::stylesheet;

/// A function showing a page of a chunk: with `split`, a `#[lazy]` split point (and
/// `__preload_<name>`, made by `#[lazy]`, fetches its chunk); without, plain code.
macro_rules! chunk {
    ($(#[$doc:meta])* fn $name:ident($($arg:ident: $type:ty)?) $body:block) => {
        $(#[$doc])*
        #[cfg(feature = "split")]
        #[leptos::lazy]
        fn $name($($arg: $type)?) -> AnyView $body

        $(#[$doc])*
        #[cfg(not(feature = "split"))]
        async fn $name($($arg: $type)?) -> AnyView $body
    };
}

/// A page of the product chunk.
#[derive(Debug, Clone, Copy)]
#[repr(u8)]
enum ProductPage {
    Product,
    Basket,
}

chunk!(
    /// The product page, with its map, table, bulk tools and place finder; and the
    /// basket, the same listing and bulk tools for several products.
    fn product_chunk(page: ProductPage) {
        match page {
            ProductPage::Product => product::ProductPage().into_any(),
            ProductPage::Basket => basket::BasketPage().into_any(),
        }
    }
);

/// A page of the data-package chunk.
#[derive(Debug, Clone, Copy)]
#[repr(u8)]
enum DataPackagePage {
    List,
    One,
    Version,
}

chunk!(
    /// The data-package pages: the list, one package, one version. Each is for a
    /// signed-in project only.
    fn data_package_chunk(page: DataPackagePage) {
        view! {
            <RequireSignIn>
                {move || match page {
                    DataPackagePage::List => packages::Packages().into_any(),
                    DataPackagePage::One => package::Package().into_any(),
                    DataPackagePage::Version => version::Version().into_any(),
                }}
            </RequireSignIn>
        }
        .into_any()
    }
);

/// A page of the account chunk, or the part of a page it holds.
#[derive(Debug, Clone, Copy)]
#[repr(u8)]
enum AccountPage {
    Login,
    Settings,
    SecretPrompt,
}

chunk!(
    /// Signing in and the settings; and the key and secret asked for in place when a
    /// session ends, the same form, which few pages ever show.
    fn account_chunk(page: AccountPage) {
        match page {
            AccountPage::Login => login::Login().into_any(),
            AccountPage::Settings => settings::Settings().into_any(),
            AccountPage::SecretPrompt => login::SecretPrompt().into_any(),
        }
    }
);

/// The prompt for the key and secret that renew a session in place
/// (`login::SecretPrompt`), its code fetched when it is first shown.
pub async fn secret_prompt() -> AnyView {
    account_chunk(AccountPage::SecretPrompt).await
}

/// A route shown by `$view` (a chunk function's call), whose chunk `$preload` fetches;
/// with `styles`, those stylesheets are fetched beside its code (`crate::stylesheet`).
macro_rules! lazy_route {
    ($(#[$doc:meta])* $route:ident => $view:expr, $preload:ident $(, styles: $sheets:expr)?) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $route;

        impl LazyRoute for $route {
            fn data() -> Self {
                $route
            }

            async fn view(_: Self) -> AnyView {
                $(stylesheet::start($sheets);)?
                $view.await
            }

            async fn preload() {
                $(stylesheet::start($sheets);)?
                #[cfg(feature = "split")]
                $preload().await;
            }
        }
    };
}

/// `/products/:id` and `/basket`, the product chunk's pages, told apart by the
/// address: one route type for both, as a second `Lazy` route costs the first load
/// about 0.5 kB (`lazy_route!` makes one type per page).
#[derive(Debug, Clone, Copy)]
pub struct ProductRoute(ProductPage);

/// The product chunk's stylesheets: the map's and the bulk panel's (the basket has one).
const PRODUCT_STYLES: &[&str] = &[stylesheet::MAP, stylesheet::BULK];

impl LazyRoute for ProductRoute {
    fn data() -> Self {
        let pathname = use_location().pathname.get_untracked();
        let base = expect_context::<BasePath>();
        match Route::parse(base.app_path(&pathname)) {
            Some(Route::Basket) => ProductRoute(ProductPage::Basket),
            _ => ProductRoute(ProductPage::Product),
        }
    }

    async fn view(this: Self) -> AnyView {
        stylesheet::start(PRODUCT_STYLES);
        product_chunk(this.0).await
    }

    async fn preload() {
        stylesheet::start(PRODUCT_STYLES);
        #[cfg(feature = "split")]
        __preload_product_chunk().await;
    }
}
lazy_route!(
    /// `/packages`.
    PackagesRoute => data_package_chunk(DataPackagePage::List), __preload_data_package_chunk,
    styles: &[stylesheet::PAGES]
);
lazy_route!(
    /// `/packages/:id`.
    PackageRoute => data_package_chunk(DataPackagePage::One), __preload_data_package_chunk,
    styles: &[stylesheet::PAGES]
);
lazy_route!(
    /// `/packages/:id/versions/:version`.
    VersionRoute => data_package_chunk(DataPackagePage::Version), __preload_data_package_chunk,
    styles: &[stylesheet::PAGES, stylesheet::BULK]
);
lazy_route!(
    /// `/login`.
    LoginRoute => account_chunk(AccountPage::Login), __preload_account_chunk,
    styles: &[stylesheet::PAGES]
);
lazy_route!(
    /// `/settings`.
    SettingsRoute => account_chunk(AccountPage::Settings), __preload_account_chunk
);

/// Fetches the code of `route`'s page, if it is loaded on demand and not yet here.
pub async fn preload(route: Route) {
    match route {
        Route::Product { .. } | Route::Basket => ProductRoute::preload().await,
        Route::Packages => PackagesRoute::preload().await,
        Route::Package { .. } => PackageRoute::preload().await,
        Route::Version { .. } => VersionRoute::preload().await,
        Route::Login { .. } => LoginRoute::preload().await,
        Route::Settings => SettingsRoute::preload().await,
        Route::Gallery(_) => {}
    }
}
