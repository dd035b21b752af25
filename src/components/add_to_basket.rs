//! "Add to basket" on a product page: the product with the areas and format its
//! address holds now, added to the basket, or its item there updated.

use download_api::Product;
use explorer_logic::basket::{Event, Item};
use explorer_logic::product::selection::{AreaPicking, Selection};
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos_router::components::A;

use crate::basket::{change, use_basket};
use crate::navigation::{Href, Route};
use crate::words::WithWords;

/// The button, what the basket holds of this product, and a link to the basket, once
/// the basket's words are here.
#[component]
pub fn AddToBasket(
    product: Product,
    /// The page's choice (its address).
    selection: Memo<Selection>,
) -> impl IntoView {
    view! {
        <WithWords>
            <Basketing product=product.clone() selection />
        </WithWords>
    }
}

#[component]
fn Basketing(product: Product, selection: Memo<Selection>) -> impl IntoView {
    let basket = use_basket();
    let notice = RwSignal::new(None::<String>);
    let offered = product.areas().to_vec();
    let picking = AreaPicking::of(&offered);
    // Nothing to add while no area is picked (a product of one area always has it).
    let picked_any =
        Memo::new(move |_| !picking.wanted(&selection.read(), &offered).areas.is_empty());
    let id = product.id.clone();
    let item = Memo::new(move |_| Item {
        product_id: product.id.clone(),
        product_name: product.name.clone(),
        version: product.version.clone(),
        selection: selection.get(),
    });
    // The basket's item of this product: none, this very choice, or another.
    let held = Memo::new(move |_| basket.with(|basket| basket.item(&id).cloned()));
    let add = move |_| notice.set(change(basket, Event::Add(item.get_untracked())));
    view! {
        <div class="add-to-basket">
            <Show when=move || picked_any.get()>
                {move || {
                    if held.get().as_ref() == Some(&item.get()) {
                        view! { <span class="muted">{t::basket::in_basket()}</span> }.into_any()
                    } else {
                        let label = if held.with(Option::is_some) {
                            t::basket::update()
                        } else {
                            t::basket::add()
                        };
                        view! {
                            <button type="button" class="button secondary" on:click=add>{label}</button>
                        }
                        .into_any()
                    }
                }}
            </Show>
            " "
            <Show when=move || held.with(Option::is_some)>
                <A href=Route::Basket.href()>{t::basket::view()}</A>
            </Show>
            <p class="notice" role="status">{notice}</p>
        </div>
    }
}
