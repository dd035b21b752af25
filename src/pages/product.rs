//! `/products/:id`: one product, its images, and the picker that builds its download
//! queries. The choice (areas, format, subformat) lives in the URL:
//! `/products/OpenMapLocal?areas=SU,SZ&format=GeoPackage`.
//!
//! The product's whole downloads list is asked for once, beside the product, and
//! filtered here by area and format; the per-area queries are still what the page
//! shows and copies, since they are what a script or a colleague would ask.

use download_api::{Area, DownloadsQuery, Product, ProductDownload, is_web_address};
use explorer_logic::product::grid_ref::NamedPoint;
use explorer_logic::product::selection::{
    AreaPicking, LIST_DEADLINE, ListError, Listing, Selection, TypedAreas, format_names,
    found_place, subformats,
};
use explorer_logic::product::shape::ShapePick;
use explorer_logic::text::t;
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::components::A;
use leptos_router::hooks::{use_params_map, use_query_map};
use web_sys::AbortController;

use crate::api::{ServiceError, use_api};
use crate::components::bulk_export::{BulkExport, as_downloads};
use crate::components::{
    AreaGrid, CodeField, CopyButton, DownloadsTable, ErrorPanel, ImageStrip, MapTools, PlaceFinder,
    Places, ShapeState, ShapeTools, service_links,
};
use crate::navigation::{Href, Route, set_page_title, use_go_to};
use crate::time::within;

/// The product's whole downloads list: `None` while it loads.
type Files = Option<Result<Vec<ProductDownload>, ListError>>;

/// The product page.
#[component]
pub fn ProductPage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.read().get("id").unwrap_or_default());
    let api = use_api();
    // Each "Try again" asks anew; answers to an older attempt are not shown.
    let product_attempt = RwSignal::new(0u32);
    let list_attempt = RwSignal::new(0u32);
    let product = LocalResource::new(move || {
        let (api, id) = (api.get(), id.get());
        product_attempt.track();
        async move { api.product(&id).await }
    });
    // The list's request under way. A resource asks anew only once its last answer
    // is in, so "Try again", another product and leaving the page abort it (as
    // leptos's hackernews example does): the next request starts at once, not after
    // the old one's deadline.
    let list_request = StoredValue::new_local(None::<(String, AbortController)>);
    let abort_list = move || {
        if let Some((_, request)) = list_request.try_update_value(Option::take).flatten() {
            request.abort();
        }
    };
    on_cleanup(abort_list);
    // Only a request for another product: the resource may already have asked for
    // this one's list before this effect sees the new id.
    Effect::new(move || {
        let now = id.get();
        let for_another = list_request
            .with_value(|request| request.as_ref().is_some_and(|(for_id, _)| *for_id != now));
        if for_another {
            abort_list();
        }
    });
    // Asked at once, beside the product, so the files are there when the map is.
    let answer = LocalResource::new(move || {
        let (api, id, attempt) = (api.get(), id.get(), list_attempt.get());
        let request = AbortController::new().ok();
        let signal = request.as_ref().map(AbortController::signal);
        list_request.set_value(request.clone().map(|request| (id.clone(), request)));
        async move {
            let everything = DownloadsQuery::default();
            let list = api.downloads(&id, &everything, signal.as_ref());
            let files = match within(LIST_DEADLINE, list).await {
                Some(files) => files.map_err(ListError::from),
                None => {
                    // Given up on: its bytes are no use any more.
                    if let Some(request) = request {
                        request.abort();
                    }
                    Err(ListError::TooSlow)
                }
            };
            (id, attempt, files)
        }
    });
    // An aborted request's answer is for an older attempt or product: not shown.
    let files: Memo<Files> = Memo::new(move |_| {
        answer.read().as_ref().and_then(|(for_id, attempt, files)| {
            (*for_id == id.get() && *attempt == list_attempt.get()).then(|| files.clone())
        })
    });
    let retry_list = Callback::new(move |()| {
        abort_list();
        list_attempt.update(|n| *n += 1);
    });
    let retry_product = Callback::new(move |()| {
        abort_list();
        product_attempt.update(|n| *n += 1);
        list_attempt.update(|n| *n += 1);
    });
    view! {
        <section class="page product-page">
            <Transition fallback=ProductSkeleton>
                {move || Suspend::new(async move {
                    match product.await {
                        Ok(product) => view! { <ProductView product files retry_list /> }.into_any(),
                        Err(error) => view! { <ProductProblem error retry=retry_product /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// Grey blocks the size of the header, so the page does not jump when it arrives.
#[component]
fn ProductSkeleton() -> impl IntoView {
    view! {
        <div class="product-skeleton" role="status">
            <span class="visually-hidden">{t::product::loading()}</span>
            <div class="skeleton-line wide"></div>
            <div class="skeleton-line"></div>
            <div class="skeleton-block"></div>
        </div>
    }
}

/// What the user reads when the product could not be shown: the cause in plain words,
/// the service's own message and links, and ways on.
#[component]
fn ProductProblem(error: ServiceError, retry: Callback<()>) -> impl IntoView {
    let missing = error.status() == Some(404);
    let heading = if missing {
        t::product::not_found()
    } else {
        t::product::not_loaded()
    };
    // The service's links to its JSON catalogue are no way back for a person: the
    // gallery is. Found by its address: the links' labels are in the page's language.
    let catalogue = error
        .body()
        .and_then(|body| body.download_catalogue_url.clone());
    let mut links = service_links(&error);
    links.retain(|(_, url)| Some(url) != catalogue.as_ref());
    let retry = (!missing).then_some(retry);
    view! {
        <h1>{heading}</h1>
        <ErrorPanel class="product-problem" title=error.title() message=error.plain_message() links retry>
            <A href=Route::home().href() attr:class="button secondary">{t::product::back_to_products()}</A>
        </ErrorPanel>
    }
}

#[component]
fn ProductView(product: Product, files: Memo<Files>, retry_list: Callback<()>) -> impl IntoView {
    set_page_title(&product.name);
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
                <span class="badge">{t::product::version(&product.version)}</span>
                <code class="product-id">{product.id.clone()}</code>
                // Only a web address becomes a link: a `javascript:` one is shown as text.
                {product.documentation_url.clone().map(|url| if is_web_address(&url) {
                    Either::Left(view! {
                        <a href=url target="_blank" rel="noopener">{t::product::documentation()}</a>
                    })
                } else {
                    Either::Right(view! {
                        <span class="not-a-link">
                            {t::product::documentation()} ": " <code>{url}</code>
                            " (" {t::product::not_a_link()} ")"
                        </span>
                    })
                })}
            </p>
            <p class="description">{product.description.clone()}</p>
            {product.warning.clone().map(|warning| view! {
                <p class="warning-banner" role="note"><strong>{t::product::note()}</strong>" "{warning}</p>
            })}
            <ul class="format-list" aria-label=t::product::formats()>{formats}</ul>
        </header>
        {images}
        </div>
        <DownloadPicker product files retry_list />
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
fn DownloadPicker(product: Product, files: Memo<Files>, retry_list: Callback<()>) -> impl IntoView {
    let api = use_api();
    let state = SelectionState::from_url(&product.id);
    let offered = StoredValue::new(product.areas().to_vec());
    let formats = StoredValue::new(product.formats().to_vec());
    let id = StoredValue::new(product.id.clone());
    let picking = AreaPicking::of(product.areas());
    let has_map = picking == AreaPicking::Map;
    let empty_hint = picking.empty_hint();

    // What is listed: the picked areas the product offers (others from a hand-edited
    // URL stay in the URL and are named), or its only area.
    let wanted = {
        let picking = picking.clone();
        Memo::new(move |_| {
            offered.with_value(|offered| picking.wanted(&state.current.read(), offered))
        })
    };
    let fixed = matches!(picking, AreaPicking::Fixed(_));
    let unavailable = Memo::new(move |_| {
        if fixed {
            Vec::new()
        } else {
            offered.with_value(|offered| state.current.read().not_offered(offered))
        }
    });

    let listing: Memo<Option<Result<Listing, ListError>>> = Memo::new(move |_| {
        files.with(|files| {
            files.as_ref().map(|files| {
                files
                    .as_ref()
                    .map(|all| wanted.with(|wanted| wanted.listing(all)))
                    .map_err(Clone::clone)
            })
        })
    });
    let listed = move || listing.with(|l| matches!(l, Some(Ok(_))));
    let downloads = Memo::new(move |_| match &*listing.read() {
        Some(Ok(listing)) => listing.downloads.clone(),
        _ => Vec::new(),
    });
    let by_area = Memo::new(move |_| match &*listing.read() {
        Some(Ok(listing)) => listing.by_area.clone(),
        _ => Default::default(),
    });
    let picked_any = Memo::new(move |_| !wanted.with(|w| w.areas.is_empty()));
    let summary = move || {
        let listing = listing.read();
        wanted
            .read()
            .listing_summary(listing.as_ref().map(Result::as_ref))
    };

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
    let marker = RwSignal::new(None::<NamedPoint>);
    let on_found = Callback::new(move |found: NamedPoint| {
        let (pick, told) =
            offered.with_value(|offered| found_place(&found.name, found.point, offered));
        marker.set(Some(found));
        if let Some(area) = pick {
            state.update(|s| s.with_added([area]));
        }
        told
    });
    let places = RwSignal::new(Places::NotAsked);
    let shape = ShapeState::new(
        offered,
        Callback::new(move |pick: ShapePick| state.update(|s| pick.applied_to(s))),
    );
    let (name, version) = (product.name.clone(), product.version.clone());
    let export_title = Signal::derive(move || wanted.read().export_title(&name, &version));

    let map_panel = (!fixed).then(|| {
        view! {
            <div class="picker-map">
                // The map's own tools sit on it, kept in view while the map is.
                <div class="map-frame">
                {has_map.then(|| view! { <MapTools shape /> })}
                <AreaGrid
                    offered=product.areas().to_vec()
                    selected
                    totals=by_area
                    on_toggle
                    marker
                    overlay=shape.overlay
                    drawing=shape.drawing
                    on_drawn=Callback::new(move |corners| shape.drawn(corners))
                />
                </div>
                {has_map.then(|| view! {
                    <PlaceFinder on_found places />
                    <TypedAreasForm offered state />
                    <ShapeTools shape places />
                })}
                {move || {
                    let codes = unavailable.get();
                    (!codes.is_empty()).then(|| view! {
                        <p class="notice" role="status">
                            {t::product::not_offered(codes.join(", "))} " "
                            <button type="button" class="link-button" on:click=move |_| {
                                offered.with_value(|offered| state.update(|s| s.offered_only(offered)))
                            }>{t::product::remove_not_offered()}</button>
                        </p>
                    })
                }}
            </div>
        }
    });
    let whole_area = picking.whole_area();

    view! {
        <section class="picker" aria-labelledby="picker-heading">
            <h2 id="picker-heading">{t::product::download_heading()}</h2>
            <div class="picker-layout" class:single=fixed>
                {map_panel}
                <div class="picker-results">
                    {whole_area.map(|text| view! { <p class="whole-area">{text}</p> })}
                    <FormatChoosers formats state />
                    <div class="summary">
                        <p class="totals" aria-live="polite">{summary}</p>
                        <crate::components::AddToBasket product=product.clone() selection=state.current />
                    </div>
                    {move || match &*listing.read() {
                        Some(Err(error)) => {
                            let error = error.clone();
                            view! { <FilesProblem error retry=retry_list /> }.into_any()
                        }
                        None if picked_any.get() => view! { <FilesLoading /> }.into_any(),
                        _ => ().into_any(),
                    }}
                    <Show when=move || !picked_any.get() && !listing.with(|l| matches!(l, Some(Err(_))))>
                        <div class="empty-state">
                            <p><strong>{t::product::pick_areas()}</strong></p>
                            <p>{empty_hint}</p>
                        </div>
                    </Show>
                    <Show when=move || picked_any.get() && listed()>
                        <DownloadsTable downloads />
                        <BulkExport files=Signal::derive(move || downloads.with(|d| as_downloads(d))) title=export_title />
                        <details class="queries">
                            <summary>{move || t::product::queries(query_urls.with(Vec::len))}</summary>
                            <ul>
                                <For
                                    each=move || query_urls.get()
                                    key=|(_, url)| url.clone()
                                    children=|(area, url)| view! {
                                        <li>
                                            <span class="area-tag">{area}</span>
                                            <a class="query-url" href=url.clone() target="_blank" rel="noopener">{url.clone()}</a>
                                            <CopyButton text=url label=t::product::copy() title=t::product::copy_query() />
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

/// Rows of grey while the list of files is on its way.
#[component]
fn FilesLoading() -> impl IntoView {
    view! {
        <div class="files-loading" role="status" aria-busy="true">
            <p>{t::product::files_loading()}</p>
            <div class="skeleton-line wide"></div>
            <div class="skeleton-line wide"></div>
            <div class="skeleton-line wide"></div>
        </div>
    }
}

/// The one panel for a list of files that did not come.
#[component]
fn FilesProblem(error: ListError, retry: Callback<()>) -> impl IntoView {
    let title = t::product::files_problem(error.title());
    view! { <ErrorPanel class="files-problem" title message=error.message() retry=Some(retry) /> }
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
            <CodeField
                id="typed-areas-input"
                label=t::product::typed_areas_label()
                placeholder=t::product::typed_areas_placeholder()
                button=t::product::typed_areas_add()
                value=text
                problem
                problem_id="typed-areas-problem"
            />
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
                <span>{t::product::format()}</span>
                <select
                    id="format-select"
                    prop:value=current_format
                    on:change=move |event| {
                        let value = event_target_value(&event);
                        formats.with_value(|f| state.update(|s| s.with_format(Some(value), f)));
                    }
                >
                    <option value="" selected=move || current_format().is_empty()>{t::product::all_formats()}</option>
                    {format_options}
                </select>
            </label>
            <label class:hidden=move || subs.with(Vec::is_empty)>
                <span>{t::product::subformat()}</span>
                <select
                    id="subformat-select"
                    prop:value=current_sub
                    disabled=move || subs.with(Vec::is_empty)
                    on:change=move |event| {
                        let value = event_target_value(&event);
                        state.update(|s| s.with_subformat(Some(value)));
                    }
                >
                    <option value="">{t::product::all_subformats()}</option>
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
