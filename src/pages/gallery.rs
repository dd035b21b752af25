//! `/`: the catalogue of open products, searchable and filterable, with the search
//! kept in the address (`/?q=road&category=Mapping&sort=newest`) so it can be shared.

use download_api::{Area, Product};
use explorer_logic::gallery::{
    Catalogue, CatalogueQuery, Facets, Sort, area_label, result_summary,
};
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::use_location;

use crate::api::use_api;
use crate::components::virtual_list::{Items, Windowed, px};
use crate::components::{Errors, ProductCard, ProductCardSkeleton};
use crate::navigation::{Route, use_go_to};

/// How many skeleton cards fill the page while the catalogue loads.
pub const SKELETON_CARDS: usize = 8;

/// `/`: the catalogue of open products.
#[component]
pub fn Gallery() -> impl IntoView {
    let api = use_api();
    let products = LocalResource::new(move || {
        let api = api.get();
        async move { api.products().await }
    });

    let location = use_location();
    let query = Memo::new(move |_| CatalogueQuery::parse(&location.search.read()));
    let go_to = use_go_to();
    // `replace` while typing, so each keystroke does not become a history entry.
    let set_query = Callback::new(move |(next, replace): (CatalogueQuery, bool)| {
        let options = NavigateOptions {
            replace,
            scroll: false,
            ..NavigateOptions::default()
        };
        go_to(&Route::Gallery(next), options);
    });
    let clear = Callback::new(move |()| set_query.run((query.get_untracked().cleared(), false)));
    let facets = Memo::new(move |_| {
        products.with(|loaded| match loaded {
            Some(Ok(products)) => Facets::of(products),
            _ => Facets::default(),
        })
    });

    view! {
        <section class="page gallery">
            <header class="page-header">
                <h1>{t::gallery::title()}</h1>
                <p class="lead">{t::gallery::lead()}</p>
            </header>
            <FilterBar query facets set_query />
            // Not `Loaded`, which the other pages use: the gallery is the first load,
            // held to a size budget that its generality would break.
            <Transition fallback=|| view! { <ResultsSkeleton /> }>
                <ErrorBoundary fallback=move |errors| {
                    view! { <Errors errors retry=Some(Callback::new(move |()| products.refetch())) /> }
                }>
                    {move || Suspend::new(async move {
                        products.await.map(|products| view! { <Results products query clear /> })
                    })}
                </ErrorBoundary>
            </Transition>
        </section>
    }
}

/// Search box, filter menus and sort order; every change goes to the address.
#[component]
fn FilterBar(
    query: Memo<CatalogueQuery>,
    facets: Memo<Facets>,
    set_query: Callback<(CatalogueQuery, bool)>,
) -> impl IntoView {
    let update = move |replace: bool, change: &dyn Fn(&mut CatalogueQuery)| {
        let mut next = query.get_untracked();
        change(&mut next);
        set_query.run((next, replace));
    };
    // On phones the menus fold behind a "Filters" button; wider screens always show them.
    let filters_open = RwSignal::new(false);
    let active_filters = move || query.read().active_filters();
    view! {
        <form class="filter-bar" role="search" on:submit=|ev| ev.prevent_default()>
            <div class="search-field">
                <label for="gallery-search" class="visually-hidden">
                    {t::gallery::search_label()}
                </label>
                <input
                    id="gallery-search"
                    type="search"
                    placeholder=t::gallery::search_placeholder()
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=move || query.read().text.clone()
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        update(true, &|q| q.text = text.clone());
                    }
                />
            </div>
            <button
                type="button"
                class="button secondary filters-toggle"
                aria-expanded=move || if filters_open.get() { "true" } else { "false" }
                aria-controls="gallery-filters"
                on:click=move |_| filters_open.update(|open| *open = !*open)
            >
                {move || match active_filters() {
                    0 => t::gallery::filters().to_owned(),
                    count => t::gallery::filters_active(count),
                }}
            </button>
            <div class="filter-row" id="gallery-filters" class:open=move || filters_open.get()>
                <FilterSelect
                    id="filter-category"
                    label=t::gallery::category()
                    options=Signal::derive(move || {
                        facets.read().categories.iter().map(|c| (c.clone(), c.clone())).collect()
                    })
                    value=Signal::derive(move || query.read().category.clone())
                    on_change=Callback::new(move |value: Option<String>| update(false, &|q| q.category = value.clone()))
                />
                <FilterSelect
                    id="filter-structure"
                    label=t::gallery::structure()
                    options=Signal::derive(move || {
                        facets.read().structures.iter().map(|s| (s.clone(), s.clone())).collect()
                    })
                    value=Signal::derive(move || query.read().structure.clone())
                    on_change=Callback::new(move |value: Option<String>| update(false, &|q| q.structure = value.clone()))
                />
                <FilterSelect
                    id="filter-format"
                    label=t::gallery::format()
                    options=Signal::derive(move || {
                        facets.read().formats.iter().map(|f| (f.clone(), f.clone())).collect()
                    })
                    value=Signal::derive(move || query.read().format.clone())
                    on_change=Callback::new(move |value: Option<String>| update(false, &|q| q.format = value.clone()))
                />
                <FilterSelect
                    id="filter-area"
                    label=t::gallery::area()
                    options=Signal::derive(move || {
                        facets
                            .read()
                            .areas
                            .iter()
                            .map(|a| (a.code().to_owned(), area_label(a)))
                            .collect()
                    })
                    value=Signal::derive(move || {
                        query.read().area.as_ref().map(|a| a.code().to_owned())
                    })
                    on_change=Callback::new(move |value: Option<String>| {
                        update(false, &|q| q.area = value.as_deref().map(Area::from))
                    })
                />
                <div class="field sort-field">
                    <label for="gallery-sort">{t::gallery::sort()}</label>
                    <select
                        id="gallery-sort"
                        on:change=move |ev| {
                            let sort = Sort::from_code(&event_target_value(&ev)).unwrap_or_default();
                            update(false, &|q| q.sort = sort);
                        }
                    >
                        {Sort::ALL
                            .into_iter()
                            .map(|sort| {
                                view! {
                                    <option
                                        value=sort.code()
                                        prop:selected=move || query.read().sort == sort
                                    >
                                        {sort.label()}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
            </div>
        </form>
    }
}

/// One filter menu: "All" plus the catalogue's values, and the address's value even
/// when the catalogue lacks it (an old link), so it shows and can be cleared.
#[component]
fn FilterSelect(
    id: &'static str,
    label: &'static str,
    /// `(value, text)` pairs.
    options: Signal<Vec<(String, String)>>,
    value: Signal<Option<String>>,
    on_change: Callback<Option<String>>,
) -> impl IntoView {
    let choices = move || {
        let mut choices = options.get();
        if let Some(current) = value.get()
            && !choices.iter().any(|(v, _)| *v == current)
        {
            choices.push((current.clone(), current));
        }
        choices
    };
    view! {
        <div class="field" class:active=move || value.read().is_some()>
            <label for=id>{label}</label>
            <select
                id=id
                on:change=move |ev| {
                    let chosen = event_target_value(&ev);
                    on_change.run(Some(chosen).filter(|v| !v.is_empty()));
                }
            >
                <option value="" prop:selected=move || value.read().is_none()>
                    {t::gallery::all()}
                </option>
                <For each=choices key=|(v, _)| v.clone() let((choice, text))>
                    <option
                        value=choice.clone()
                        prop:selected=move || value.read().as_deref() == Some(choice.as_str())
                    >
                        {text}
                    </option>
                </For>
            </select>
        </div>
    }
}

/// The result line and the cards that pass the search and filters. A long catalogue
/// is windowed: only the lines of cards on screen are in the page.
#[component]
fn Results(
    products: Vec<Product>,
    query: Memo<CatalogueQuery>,
    clear: Callback<()>,
) -> impl IntoView {
    let total = products.len();
    let catalogue = StoredValue::new(Catalogue::new(products));
    // Indices into the catalogue's products, in the order shown.
    let shown = Memo::new(move |_| catalogue.with_value(|all| query.read().positions(all)));
    let count = Signal::derive(move || shown.read().len());
    let narrowed = move || query.read().is_narrowed();
    let windowed = Windowed::new(count, Items::CARDS);
    let grid = NodeRef::<leptos::html::Ul>::new();
    grid.on_load(move |grid| windowed.attach(grid.into()));
    let padding = move |side: fn((f64, f64)) -> f64| move || px(side(windowed.padding()));

    view! {
        <div class="results-bar">
            <p class="result-count" role="status" aria-live="polite">
                {move || result_summary(count.get(), total)}
            </p>
            <Show when=move || { narrowed() && count.get() > 0 }>
                <button type="button" class="button link" on:click=move |_| clear.run(())>
                    {t::gallery::clear_filters()}
                </button>
            </Show>
        </div>
        <Show
            when=move || { count.get() > 0 }
            fallback=move || view! { <EmptyState total narrowed=Signal::derive(narrowed) clear /> }
        >
            <ul
                class="product-grid"
                node_ref=grid
                style:padding-top=padding(|(above, _)| above)
                style:padding-bottom=padding(|(_, below)| below)
                on:keydown=move |ev| windowed.on_keydown(&ev)
                on:focusin=move |ev| windowed.on_focusin(&ev)
            >
                <For
                    each=move || windowed.rows(shown)
                    key=|pair| *pair
                    children=move |(pos, index)| {
                        let product = catalogue.with_value(|all| all.products()[index].clone());
                        view! {
                            <li data-pos=pos>
                                <ProductCard product />
                            </li>
                        }
                    }
                />
            </ul>
        </Show>
    }
}

/// What the gallery says when no card is shown.
#[component]
fn EmptyState(total: usize, narrowed: Signal<bool>, clear: Callback<()>) -> impl IntoView {
    view! {
        <div class="empty-state">
            {move || {
                if total == 0 {
                    view! {
                        <h2>{t::gallery::none_title()}</h2>
                        <p>{t::gallery::none_text()}</p>
                    }
                        .into_any()
                } else if narrowed.get() {
                    view! {
                        <h2>{t::gallery::no_match_title()}</h2>
                        <p>{t::gallery::no_match_text(total)}</p>
                        <button type="button" class="button" on:click=move |_| clear.run(())>
                            {t::gallery::clear_filters()}
                        </button>
                    }
                        .into_any()
                } else {
                    ().into_any()
                }
            }}
        </div>
    }
}

/// The loading state: a result line and cards the size of the real ones.
#[component]
fn ResultsSkeleton() -> impl IntoView {
    view! {
        <div class="results-bar">
            <p class="result-count" role="status">
                {t::gallery::loading()}
            </p>
        </div>
        <ul class="product-grid" aria-hidden="true">
            {(0..SKELETON_CARDS)
                .map(|_| {
                    view! {
                        <li>
                            <ProductCardSkeleton />
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}
