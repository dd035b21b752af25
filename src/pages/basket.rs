//! `/basket`: the products added from their pages, each with its files listed afresh
//! from the service, the totals, a link that opens the same basket elsewhere, and
//! every bulk download of the product page for all of them, each product's files in
//! a sub-folder of their own. `/basket?items=…` (a shared link) puts its items in
//! this browser's basket, then shows the basket's own address.

use std::collections::BTreeMap;

use download_api::{DownloadsQuery, Product, ProductDownload};
use explorer_logic::basket::{Basket, Event, Item, items_from_link, totals_text};
use explorer_logic::text::t;
use explorer_logic::{flaws, format_size};
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::api::{ServiceError, use_api};
use crate::basket::{change, use_basket};
use crate::components::bulk_export::BulkExport;
use crate::components::{CopyButton, ErrorPanel, ListingFlaws};
use crate::navigation::{Href, Route, base_path, use_go_to};
use crate::words::WithWords;

/// A product and its whole downloads list, as the service gave them.
type Fetched = Result<(Product, Vec<ProductDownload>), ServiceError>;

/// The basket page, once the basket's words are here.
#[component]
pub fn BasketPage() -> impl IntoView {
    view! {
        <WithWords>
            <Basket />
        </WithWords>
    }
}

#[component]
fn Basket() -> impl IntoView {
    let basket = use_basket();
    // Before the files are asked for: a change while the first answers are on their
    // way would not be asked for again.
    let notice = RwSignal::new(open_shared_link(basket));

    // Each product and its files; asked again only when a product joins or leaves,
    // not when another tab changes an item's choice. One after another: a basket
    // holds a few products, and `futures`' `join_all` here cost the first load 127 bytes
    // (`cargo xtask size`), though the basket's code is all in its chunk.
    let ids = Memo::new(move |_| {
        basket.with(|basket| {
            let mut ids: Vec<String> = basket
                .items()
                .iter()
                .map(|item| item.product_id.clone())
                .collect();
            ids.sort();
            ids
        })
    });
    let api = use_api();
    let fetched = LocalResource::new(move || {
        let (api, ids) = (api.get(), ids.get());
        async move {
            let mut fetched = BTreeMap::new();
            for id in ids {
                let everything = DownloadsQuery::default();
                let answer = match api.product(&id).await {
                    Ok(product) => api
                        .downloads(&id, &everything, None)
                        .await
                        .map(|files| (product, files)),
                    Err(error) => Err(error),
                };
                fetched.insert(id, answer);
            }
            fetched
        }
    });

    // The products are asked for again; the list shown stays until they answer.
    let retry = Callback::new(move |()| fetched.refetch());

    view! {
        <section class="page basket-page">
            <h1>{t::basket::title()}</h1>
            <p class="notice" role="status">{notice}</p>
            // Always there, so the resource is always watched: a basket filled by a
            // link just after the page opened is listed as soon as its answers are in.
            <Transition fallback=|| view! { <p class="loading" role="status">{t::basket::loading()}</p> }>
                {move || Suspend::new(async move {
                    let fetched = fetched.await;
                    view! { <BasketContents basket fetched notice retry /> }
                })}
            </Transition>
        </section>
    }
}

/// What an empty basket says, and the way back to the products.
#[component]
fn EmptyBasket() -> impl IntoView {
    view! {
        <div class="empty-state">
            <p><strong>{t::basket::empty()}</strong></p>
            <p>{t::basket::empty_hint()}</p>
            <p><A href=Route::home().href()>{t::product::back_to_products()}</A></p>
        </div>
    }
}

/// A shared link's items join this browser's basket; the address then becomes the
/// basket's own, so a reload does not add them again. Answers what to tell the person.
fn open_shared_link(basket: RwSignal<Basket>) -> Option<String> {
    let text = use_query_map().with_untracked(|query| query.get("items"))?;
    let told = match items_from_link(&text) {
        Ok(items) => change(basket, Event::OpenedLink(items)),
        Err(error) => Some(error.to_string()),
    };
    let go_to = use_go_to();
    Effect::new(move || {
        let options = NavigateOptions {
            replace: true,
            scroll: false,
            ..NavigateOptions::default()
        };
        go_to(&Route::Basket, options);
    });
    told
}

/// The items with their files, the totals, the link and the downloads; what an empty
/// basket says.
#[component]
fn BasketContents(
    basket: RwSignal<Basket>,
    fetched: BTreeMap<String, Fetched>,
    notice: RwSignal<Option<String>>,
    /// Asks again for the products that did not come.
    retry: Callback<()>,
) -> impl IntoView {
    let fetched = StoredValue::new(fetched);
    // Each item's listed files, in the basket's order (none for a product that did
    // not come).
    let listed = Memo::new(move |_| {
        basket.with(|basket| {
            fetched.with_value(|fetched| {
                basket
                    .items()
                    .iter()
                    .map(|item| match fetched.get(&item.product_id) {
                        Some(Ok((product, all))) => item.wanted(product.areas()).listing(all),
                        _ => Default::default(),
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let totals = move || {
        listed.with(|listed| totals_text(&listed.iter().map(|l| l.total).collect::<Vec<_>>()))
    };
    let files = Signal::derive(move || {
        let downloads: Vec<Vec<ProductDownload>> =
            listed.with(|listed| listed.iter().map(|l| l.downloads.clone()).collect());
        basket.with(|basket| basket.files(&downloads))
    });
    // What the service sent unusable for the basket's files, as a product page says it
    // above its table (read again once the note's words are here).
    let notes = Signal::derive(move || {
        files.with(|files| flaws::notes(files.iter().map(|file| &file.download)))
    });
    let title = Signal::derive(move || basket.with(Basket::export_title));
    let link = Signal::derive(move || {
        let path = basket.with(Basket::share_path);
        let href = crate::language::keep_in(format!("{}{path}", base_path().as_str()));
        let origin = window().location().origin().unwrap_or_default();
        format!("{origin}{href}")
    });
    let remove = Callback::new(move |product_id: String| {
        notice.set(change(basket, Event::Remove { product_id }));
    });
    view! {
        <Show when=move || !basket.with(Basket::is_empty) fallback=EmptyBasket>
        <p class="totals">{totals}</p>
        <ul class="basket-items">
            <For
                each=move || basket.with(|basket| basket.items().to_vec())
                key=Item::clone
                children=move |item| {
                    let fetched = fetched.with_value(|f| f.get(&item.product_id).cloned());
                    view! { <BasketItem item fetched remove retry /> }
                }
            />
        </ul>
        <p>
            {t::basket::share()} " " <code class="basket-link">{link}</code> " "
            <CopyButton text=link label=t::basket::copy_link() />
        </p>
        <p>
            <button type="button" class="button secondary" on:click=move |_| {
                notice.set(change(basket, Event::Clear));
            }>{t::basket::clear()}</button>
        </p>
        <h2>{t::basket::download_heading()}</h2>
        <p class="muted">{t::basket::folders_hint()}</p>
        <ListingFlaws notes />
        <BulkExport files title />
        </Show>
    }
}

/// One item: its product, version, choice and files, and ways to change or remove it.
#[component]
fn BasketItem(
    item: Item,
    fetched: Option<Fetched>,
    remove: Callback<String>,
    retry: Callback<()>,
) -> impl IntoView {
    let name = match &fetched {
        Some(Ok((product, _))) => product.name.clone(),
        _ => item.product_name.clone(),
    };
    let details = match fetched {
        Some(Ok((product, all))) => {
            let wanted = item.wanted(product.areas());
            let listing = wanted.listing(&all);
            let format = match (&wanted.format, &wanted.subformat) {
                (Some(format), Some(sub)) => t::basket::format(format!("{format} {sub}")),
                (Some(format), None) => t::basket::format(format),
                _ => t::product::all_formats().to_owned(),
            };
            let note = item.version_note(&product.version);
            let rows = listing
                .downloads
                .iter()
                .map(|file| {
                    let size = file.file.size.map(format_size).unwrap_or_default();
                    view! { <li>{file.file.file_name.clone()} " " <span class="muted">{size}</span></li> }
                })
                .collect_view();
            view! {
                <p>
                    <span class="badge">{t::product::version(&product.version)}</span> " "
                    {format}
                </p>
                {note.map(|note| view! { <p class="notice">{note}</p> })}
                <details>
                    <summary>{wanted.summary(&listing.total)}</summary>
                    <ul>{rows}</ul>
                </details>
            }
            .into_any()
        }
        Some(Err(error)) => view! {
            <ErrorPanel title=error.title() message=error.plain_message() retry=Some(retry) />
        }
        .into_any(),
        None => ().into_any(),
    };
    let product_id = item.product_id.clone();
    let (heading, change_context) = (name.clone(), format!(" {name}"));
    view! {
        <li class="panel">
            <h2><A href=item.route().href()>{heading.clone()}</A></h2>
            {details}
            <p>
                <A href=item.route().href() attr:class="button secondary">
                    {t::basket::change()}
                    <span class="visually-hidden">{change_context.clone()}</span>
                </A>
                " "
                <button type="button" class="button secondary" on:click=move |_| remove.run(product_id.clone())>
                    {t::basket::remove()}
                    <span class="visually-hidden">" "{name}</span>
                </button>
            </p>
        </li>
    }
}
