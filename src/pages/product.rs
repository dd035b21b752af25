//! `/products/:id`: one product, its images, and the picker that builds its download
//! queries. The choice (areas, format, subformat) lives in the URL:
//! `/products/OpenMapLocal?areas=SU,SZ&format=GeoPackage`.

use download_api::{Area, Product};
use explorer_logic::selection::{Merged, Selection, TypedAreas, format_names, subformats};
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::api::{ServiceError, use_api};
use crate::components::bulk_export::{BulkExport, as_downloads};
use crate::components::{AreaGrid, CopyButton, DownloadsTable, ErrorView, Errors, ImageStrip};
use crate::routes::{Route, use_go_to};

/// The product page.
#[component]
pub fn ProductPage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.read().get("id").unwrap_or_default());
    let api = use_api();
    let product = LocalResource::new(move || {
        let api = api.get();
        let id = id.get();
        async move { api.product(&id).await }
    });
    view! {
        <section class="page product-page">
            <Transition fallback=ProductSkeleton>
                <ErrorBoundary fallback=|errors| {
                    view! {
                        <h1>"Product not available"</h1>
                        <Errors errors />
                    }
                }>
                    {move || Suspend::new(async move {
                        product.await.map(|product| view! { <ProductView product /> })
                    })}
                </ErrorBoundary>
            </Transition>
        </section>
    }
}

/// Grey blocks the size of the header, so the page does not jump when it arrives.
#[component]
fn ProductSkeleton() -> impl IntoView {
    view! {
        <div class="product-skeleton" aria-busy="true" aria-label="Loading the product">
            <div class="skeleton-line wide"></div>
            <div class="skeleton-line"></div>
            <div class="skeleton-block"></div>
        </div>
    }
}

#[component]
fn ProductView(product: Product) -> impl IntoView {
    let kinds = [product.category.clone()]
        .into_iter()
        .flatten()
        .chain(product.data_structures().iter().cloned())
        .collect::<Vec<_>>()
        .join(" · ");
    let formats = product
        .formats()
        .iter()
        .map(|f| match &f.subformat {
            Some(sub) => view! { <li>{f.format.clone()} " " <span class="subformat">{sub.clone()}</span></li> }.into_any(),
            None => view! { <li>{f.format.clone()}</li> }.into_any(),
        })
        .collect_view();
    let images = product.image_count.filter(|n| *n > 0).map(|count| {
        view! { <ImageStrip product_id=product.id.clone() name=product.name.clone() count /> }
    });
    let with_images = images.is_some();
    view! {
        <div class="product-top" class:with-images=with_images>
        <header class="product-head">
            {(!kinds.is_empty()).then(|| view! { <p class="eyebrow">{kinds}</p> })}
            <h1>{product.name.clone()}</h1>
            <p class="product-meta">
                <span class="badge">"Version " {product.version.clone()}</span>
                <code class="product-id">{product.id.clone()}</code>
                {product.documentation_url.clone().map(|url| view! {
                    <a href=url target="_blank" rel="noopener">"Documentation"</a>
                })}
            </p>
            <p class="description">{product.description.clone()}</p>
            {product.warning.clone().map(|warning| view! {
                <p class="warning-banner" role="note"><strong>"Note: "</strong>{warning}</p>
            })}
            <ul class="format-list" aria-label="Formats">{formats}</ul>
        </header>
        {images}
        </div>
        <DownloadPicker product />
    }
}

/// The picked areas and formats, read from and written to the page URL.
#[derive(Debug, Clone, Copy)]
struct SelectionState {
    current: Memo<Selection>,
    set: Callback<Selection>,
}

impl SelectionState {
    fn from_url(product_id: &str) -> Self {
        let query = use_query_map();
        let current = Memo::new(move |_| {
            query.with(|q| {
                Selection::from_params(
                    q.get_str("areas"),
                    q.get_str("format"),
                    q.get_str("subformat"),
                )
            })
        });
        let go_to = StoredValue::new_local(use_go_to());
        let id = product_id.to_owned();
        let set = Callback::new(move |selection: Selection| {
            let route = Route::Product {
                id: id.clone(),
                selection,
            };
            let options = NavigateOptions {
                replace: true,
                scroll: false,
                ..NavigateOptions::default()
            };
            go_to.with_value(|go_to| go_to(&route, options));
        });
        SelectionState { current, set }
    }

    fn update(&self, change: impl FnOnce(&Selection) -> Selection) {
        let next = self.current.with_untracked(change);
        self.set.run(next);
    }
}

#[component]
fn DownloadPicker(product: Product) -> impl IntoView {
    let api = use_api();
    let state = SelectionState::from_url(&product.id);
    let offered = StoredValue::new(product.areas().to_vec());
    let formats = StoredValue::new(product.formats().to_vec());
    let id = StoredValue::new(product.id.clone());

    // Only areas the product offers are queried; others from a hand-edited URL are
    // kept in the URL and named.
    let wanted = Memo::new(move |_| {
        offered.with_value(|offered| state.current.read().offered_only(offered))
    });
    let unavailable =
        Memo::new(move |_| offered.with_value(|offered| state.current.read().not_offered(offered)));

    let results = LocalResource::new(move || {
        let api = api.get();
        let wanted = wanted.get();
        let id = id.get_value();
        async move {
            let mut answers = Vec::new();
            for (area, query) in wanted.queries() {
                answers.push((area, api.downloads(&id, &query).await));
            }
            (wanted, Merged::<ServiceError>::new(answers))
        }
    });
    // The last answer stays on screen while the next one loads: no flashing table.
    let answered_for = Memo::new(move |_| results.read().as_ref().map(|(s, _)| s.clone()));
    let merged = Memo::new(move |_| {
        results
            .read()
            .as_ref()
            .map(|(_, merged)| merged.clone())
            .unwrap_or_default()
    });
    let downloads = Memo::new(move |_| merged.read().downloads.clone());
    let by_area = Memo::new(move |_| merged.read().by_area.clone());
    let total = Memo::new(move |_| merged.read().total);
    let errors = Memo::new(move |_| merged.read().errors.clone());
    let loading = Memo::new(move |_| answered_for.read().as_ref() != Some(&*wanted.read()));
    let picked_any = Memo::new(move |_| !wanted.with(|w| w.areas.is_empty()));

    let query_urls = Memo::new(move |_| {
        let wanted = wanted.get();
        api.with(|api| {
            id.with_value(|id| {
                wanted
                    .queries()
                    .iter()
                    .map(|(area, query)| (area.code().to_owned(), api.urls().downloads(id, query)))
                    .collect::<Vec<_>>()
            })
        })
    });

    let selected = Signal::derive(move || state.current.with(|s| s.areas.clone()));
    let on_toggle = Callback::new(move |area: Area| state.update(|s| s.toggled(&area)));
    let (name, version) = (product.name.clone(), product.version.clone());
    let export_title = Signal::derive(move || wanted.read().export_title(&name, &version));

    view! {
        <section class="picker" aria-labelledby="picker-heading">
            <h2 id="picker-heading">"Download"</h2>
            <div class="picker-layout">
                <div class="picker-map">
                    <AreaGrid
                        offered=product.areas().to_vec()
                        selected
                        totals=by_area
                        on_toggle
                    />
                    <TypedAreasForm offered state />
                    {move || {
                        let codes = unavailable.get();
                        (!codes.is_empty()).then(|| view! {
                            <p class="notice" role="status">
                                "Not offered by this product, so not listed: " {codes.join(", ")} ". "
                                <button type="button" class="link-button" on:click=move |_| {
                                    offered.with_value(|offered| state.update(|s| s.offered_only(offered)))
                                }>"Remove them"</button>
                            </p>
                        })
                    }}
                </div>
                <div class="picker-results">
                    <FormatChoosers formats state />
                    <div class="summary" aria-live="polite">
                        <p class="totals">
                            {move || wanted.read().summary(&total.get())}
                        </p>
                        <span class="loading-dot" class:active=move || loading.get() && picked_any.get()>
                            "Loading…"
                        </span>
                    </div>
                    {move || {
                        errors
                            .get()
                            .into_iter()
                            .map(|(area, error)| {
                                view! {
                                    <div class="query-error">
                                        <p class="query-error-area">"Listing " {area.code().to_owned()} " failed:"</p>
                                        <ErrorView error=error.into() retry=move |_| results.refetch() />
                                    </div>
                                }
                            })
                            .collect_view()
                    }}
                    <Show
                        when=move || picked_any.get()
                        fallback=|| view! {
                            <div class="empty-state">
                                <p><strong>"Pick one or more areas"</strong></p>
                                <p>"Click squares on the map, choose a whole area, or type codes such as "<code>"SU, SZ"</code>"."</p>
                            </div>
                        }
                    >
                        <DownloadsTable downloads />
                        <BulkExport files=Signal::derive(move || downloads.with(|d| as_downloads(d))) title=export_title />
                        <details class="queries">
                            <summary>{move || format!("Service queries ({})", query_urls.with(Vec::len))}</summary>
                            <ul>
                                <For
                                    each=move || query_urls.get()
                                    key=|(_, url)| url.clone()
                                    children=|(area, url)| view! {
                                        <li>
                                            <span class="area-tag">{area}</span>
                                            <a class="query-url" href=url.clone() target="_blank" rel="noopener">{url.clone()}</a>
                                            <CopyButton text=url label="Copy" title="Copy this query URL" />
                                        </li>
                                    }
                                />
                            </ul>
                        </details>
                    </Show>
                </div>
            </div>
        </section>
    }
}

/// A text box for typed area codes (`SU, SZ`), added to the picked areas.
#[component]
fn TypedAreasForm(offered: StoredValue<Vec<Area>>, state: SelectionState) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let typed = offered.with_value(|offered| TypedAreas::parse(&text.get_untracked(), offered));
        if !typed.offered.is_empty() {
            let added = typed.offered.clone();
            state.update(|s| s.with_added(added));
        }
        let message = typed.problem();
        if message.is_none() {
            text.set(String::new());
        }
        problem.set(message);
    };
    view! {
        <form class="typed-areas" on:submit=submit>
            <label for="typed-areas-input">"Add areas by code"</label>
            <div class="typed-row">
                <input
                    id="typed-areas-input"
                    type="text"
                    placeholder="e.g. SU, SZ"
                    autocomplete="off"
                    spellcheck="false"
                    aria-describedby="typed-areas-problem"
                    aria-invalid=move || problem.with(Option::is_some).then_some("true")
                    bind:value=text
                />
                <button type="submit" class="button">"Add"</button>
            </div>
            <p id="typed-areas-problem" class="field-problem" role="alert">
                {move || problem.get()}
            </p>
        </form>
    }
}

/// The format and subformat selects, from the product's formats.
#[component]
fn FormatChoosers(
    formats: StoredValue<Vec<download_api::Format>>,
    state: SelectionState,
) -> impl IntoView {
    let names: Vec<String> =
        formats.with_value(|f| format_names(f).into_iter().map(str::to_owned).collect());
    let subs = Memo::new(move |_| {
        let format = state.current.with(|s| s.format.clone());
        format
            .map(|format| {
                formats.with_value(|f| {
                    subformats(f, &format)
                        .into_iter()
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                })
            })
            .unwrap_or_default()
    });
    let current_format = move || state.current.with(|s| s.format.clone().unwrap_or_default());
    let current_sub = move || {
        state
            .current
            .with(|s| s.subformat.clone().unwrap_or_default())
    };
    let format_options = names
        .into_iter()
        .map(|name| {
            let selected = {
                let name = name.clone();
                move || current_format() == name
            };
            view! { <option value=name.clone() selected=selected>{name.clone()}</option> }
        })
        .collect_view();
    view! {
        <div class="format-choosers">
            <label>
                <span>"Format"</span>
                <select
                    id="format-select"
                    prop:value=current_format
                    on:change=move |event| {
                        let value = event_target_value(&event);
                        formats.with_value(|f| state.update(|s| s.with_format(Some(value), f)));
                    }
                >
                    <option value="" selected=move || current_format().is_empty()>"All formats"</option>
                    {format_options}
                </select>
            </label>
            <label class:hidden=move || subs.with(Vec::is_empty)>
                <span>"Subformat"</span>
                <select
                    id="subformat-select"
                    prop:value=current_sub
                    disabled=move || subs.with(Vec::is_empty)
                    on:change=move |event| {
                        let value = event_target_value(&event);
                        state.update(|s| s.with_subformat(Some(value)));
                    }
                >
                    <option value="">"All subformats"</option>
                    <For
                        each=move || subs.get()
                        key=|sub| sub.clone()
                        children=move |sub| {
                            let value = sub.clone();
                            let label = sub.clone();
                            view! { <option value=sub selected=move || current_sub() == value>{label}</option> }
                        }
                    />
                </select>
            </label>
        </div>
    }
}
