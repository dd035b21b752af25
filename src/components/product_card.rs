//! A product in the gallery: thumbnail, name, category, version, structures and areas.

use download_api::Product;
use explorer_logic::gallery::areas_summary;
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos_router::components::A;

use crate::api::use_api;
use crate::components::Fact;
use crate::navigation::{Href, Route};

/// Size of the service's small thumbnails; the box keeps this shape before they load.
const THUMB_WIDTH: u32 = 200;
const THUMB_HEIGHT: u32 = 150;
/// Width of the `large` thumbnails (same 4:3 shape).
const LARGE_THUMB_WIDTH: u32 = 800;
/// How wide a card's image is shown: the whole width on a phone, a grid column else.
const THUMB_SIZES: &str = "(max-width: 600px) calc(100vw - 2rem), 22rem";

/// One product of the gallery, linking to its page. The whole card is the link's target.
#[component]
pub fn ProductCard(product: Product) -> impl IntoView {
    let api = use_api();
    let href = Route::product(&product.id).href();
    let has_image = product.image_count.unwrap_or(0) > 0;
    // A broken image falls back to the placeholder rather than the browser's icon.
    let image_failed = RwSignal::new(false);
    let id = product.id.clone();
    let src = {
        let id = id.clone();
        move || api.read().urls().image(&id, 0, false)
    };
    // The small image where it is shown at its size or smaller, the large one where
    // the card is wider (or the screen denser): never stretched.
    let srcset = move || {
        let urls = api.read();
        let small = urls.urls().image(&id, 0, false);
        let large = urls.urls().image(&id, 0, true);
        format!("{small} {THUMB_WIDTH}w, {large} {LARGE_THUMB_WIDTH}w")
    };
    let alt = t::card::preview_of(&product.name);
    let areas = areas_summary(&product);
    let format_count = product.formats().len();
    let structures = product.data_structures().to_vec();

    view! {
        <article class="product-card">
            <div class="card-thumb">
                {move || {
                    if has_image && !image_failed.get() {
                        view! {
                            <img
                                src=src.clone()
                                srcset=srcset.clone()
                                sizes=THUMB_SIZES
                                alt=alt.clone()
                                width=THUMB_WIDTH
                                height=THUMB_HEIGHT
                                loading="lazy"
                                decoding="async"
                                on:error=move |_| image_failed.set(true)
                            />
                        }
                            .into_any()
                    } else {
                        view! {
                            <div class="thumb-placeholder">
                                <span>{t::card::no_preview()}</span>
                            </div>
                        }
                            .into_any()
                    }
                }}
            </div>
            <div class="card-body">
                <p class="card-category">
                    {product.category.unwrap_or_else(|| t::card::uncategorised().to_owned())}
                </p>
                <h2 class="card-title">
                    <A href=href>{product.name}</A>
                </h2>
                // One line; the whole text is on the product's page (and in the tooltip).
                <p class="card-description" title=product.description.clone()>
                    {product.description.clone()}
                </p>
                <ul class="card-badges" aria-label=t::card::structures()>
                    {structures
                        .into_iter()
                        .map(|structure| {
                            let class = format!("badge badge-{}", structure.to_lowercase());
                            view! { <li class=class>{structure}</li> }
                        })
                        .collect_view()}
                </ul>
                <dl class="card-facts">
                    <Fact term=t::card::version()>{product.version}</Fact>
                    <Fact term=t::card::coverage()>{areas.unwrap_or_else(|| t::card::not_listed().to_owned())}</Fact>
                    <Fact term=t::card::formats()>{format_count}</Fact>
                </dl>
            </div>
        </article>
    }
}

/// A card-shaped placeholder shown while the catalogue loads; the same size as
/// [`ProductCard`] so nothing moves when the real cards arrive.
#[component]
pub fn ProductCardSkeleton() -> impl IntoView {
    view! {
        <div class="product-card skeleton-card" aria-hidden="true">
            <div class="card-thumb skeleton"></div>
            <div class="card-body">
                <p class="card-category">
                    <span class="skeleton skeleton-text" style="width: 45%"></span>
                </p>
                <h2 class="card-title">
                    <span class="skeleton skeleton-text" style="width: 80%"></span>
                </h2>
                <p class="card-description">
                    <span class="skeleton skeleton-text" style="width: 95%"></span>
                </p>
                <ul class="card-badges">
                    <li class="badge skeleton">"Vector"</li>
                </ul>
                <dl class="card-facts">
                    <Fact term=t::card::version()>
                        <span class="skeleton skeleton-text" style="width: 4em"></span>
                    </Fact>
                    <Fact term=t::card::coverage()>
                        <span class="skeleton skeleton-text" style="width: 5em"></span>
                    </Fact>
                    <Fact term=t::card::formats()>
                        <span class="skeleton skeleton-text" style="width: 1em"></span>
                    </Fact>
                </dl>
            </div>
        </div>
    }
}
