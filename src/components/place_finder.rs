//! Finding your square: a place box (towns and cities of Great Britain, from
//! `places.json`, fetched the first time the box is used) and a grid reference box.

use std::cell::RefCell;
use std::sync::Arc;

use explorer_logic::product::grid_ref::{GridRef, NamedPoint, reference};
use explorer_logic::product::places::Gazetteer;
use explorer_logic::text::t;
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::components::CodeField;

/// Most places offered as suggestions while typing.
const SUGGESTIONS: usize = 8;

/// The gazetteer, fetched on first use: one for the page, shared by the place box and
/// the shape tools.
#[derive(Debug, Clone, Default)]
pub enum Places {
    #[default]
    NotAsked,
    Loading,
    Ready(Arc<Gazetteer>),
    Failed,
}

/// The two boxes. `on_found` picks what was found and answers with a sentence for
/// the user (`Southampton is in SU: SU is picked.`).
#[component]
pub fn PlaceFinder(
    on_found: Callback<NamedPoint, String>,
    places: RwSignal<Places>,
) -> impl IntoView {
    let place_text = RwSignal::new(String::new());
    let grid_text = RwSignal::new(String::new());
    let status = RwSignal::new(None::<String>);
    let grid_problem = RwSignal::new(None::<String>);
    // A place asked for before the list arrived, found once it does.
    let pending = RwSignal::new(None::<String>);

    let find_place = move |gazetteer: &Gazetteer, typed: &str| match gazetteer.best(typed) {
        Some(found) => {
            let place = found.place;
            let message = on_found.run(NamedPoint {
                name: found.name().to_owned(),
                point: place.point,
            });
            let reference = reference(place.point).unwrap_or_default();
            status.set(Some(format!("{} ({reference}). {message}", found.label())));
        }
        None => status.set(Some(t::product::place_unknown(typed))),
    };
    let load = move || {
        if matches!(places.get_untracked(), Places::NotAsked | Places::Failed) {
            spawn_local(async move {
                load_places(places).await;
            });
        }
    };
    // A place asked for while the list was on its way (whoever asked for the list).
    Effect::new(move || match &*places.read() {
        Places::Ready(gazetteer) => {
            if let Some(typed) = pending.get_untracked() {
                pending.set(None);
                find_place(gazetteer, &typed);
            }
        }
        Places::Failed if pending.get_untracked().is_some() => {
            pending.set(None);
            status.set(Some(t::product::places_failed().to_owned()));
        }
        _ => {}
    });

    let suggestions = Memo::new(move |_| match &*places.read() {
        Places::Ready(gazetteer) => place_text.with(|typed| {
            gazetteer
                .search(typed, SUGGESTIONS)
                .into_iter()
                .map(|found| found.label())
                .collect::<Vec<_>>()
        }),
        _ => Vec::new(),
    });
    let source = move || match &*places.read() {
        Places::Ready(gazetteer) => Some(gazetteer.source.clone()),
        _ => None,
    };

    let submit_place = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let typed = place_text.get_untracked();
        if typed.trim().is_empty() {
            status.set(Some(t::product::place_type_a_name().to_owned()));
            return;
        }
        match places.get_untracked() {
            Places::Ready(gazetteer) => find_place(&gazetteer, &typed),
            _ => {
                pending.set(Some(typed));
                status.set(Some(t::product::places_loading().to_owned()));
                load();
            }
        }
    };
    let submit_grid = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        match GridRef::parse(&grid_text.get_untracked()) {
            Ok(typed) => {
                let point = typed.centre();
                let name = if typed.precision_m >= 1000 {
                    reference(point).unwrap_or_default()
                } else {
                    format!("{} {}", typed.corner.easting, typed.corner.northing)
                };
                grid_problem.set(None);
                let message = on_found.run(NamedPoint { name, point });
                status.set(Some(message));
            }
            Err(problem) => grid_problem.set(Some(problem.to_string())),
        }
    };

    view! {
        <div class="place-finder">
            <form class="finder-form" on:submit=submit_place>
                <CodeField
                    id="place-input"
                    label=t::product::place_label()
                    placeholder=t::product::place_placeholder()
                    button=t::product::place_find()
                    value=place_text
                    list="place-options"
                    on_focus=Callback::new(move |()| load())
                >
                    <datalist id="place-options">
                        <For
                            each=move || suggestions.get()
                            key=|label| label.clone()
                            children=|label| view! { <option value=label></option> }
                        />
                    </datalist>
                </CodeField>
            </form>
            <form class="finder-form" on:submit=submit_grid>
                <CodeField
                    id="grid-ref-input"
                    label=t::product::grid_ref_label()
                    placeholder=t::product::grid_ref_placeholder()
                    button=t::product::grid_ref_go()
                    value=grid_text
                    problem=grid_problem
                    problem_id="grid-ref-problem"
                />
            </form>
            <p id="find-status" class="find-status" role="status">{move || status.get()}</p>
            {move || source().map(|source| view! { <p class="credit">{source}</p> })}
        </div>
    }
}

/// A fetch of the gazetteer, awaited by whoever asks for it while it is under way.
type PlacesFetch = Shared<LocalBoxFuture<'static, Option<Arc<Gazetteer>>>>;

thread_local! {
    /// The fetch under way, if any: the place box and the shape tools may both ask for
    /// the gazetteer before it arrives, and it is fetched once. The app's, not the
    /// page's: each page's `places` is set when it arrives.
    static FETCHING: RefCell<Option<PlacesFetch>> = const { RefCell::new(None) };
}

/// The gazetteer, fetched into `places` unless it is there already or on its way.
pub async fn load_places(places: RwSignal<Places>) -> Option<Arc<Gazetteer>> {
    if let Places::Ready(gazetteer) = places.get_untracked() {
        return Some(gazetteer);
    }
    let fetch = FETCHING.with_borrow_mut(|fetching| {
        let fetch = fetching.get_or_insert_with(|| fetch_places().boxed_local().shared());
        fetch.clone()
    });
    places.set(Places::Loading);
    let found = fetch.clone().await;
    FETCHING.with_borrow_mut(|fetching| {
        // Unless a later fetch has begun (after this one failed).
        if fetching.as_ref().is_some_and(|now| now.ptr_eq(&fetch)) {
            *fetching = None;
        }
    });
    places.set(match &found {
        Some(gazetteer) => Places::Ready(Arc::clone(gazetteer)),
        None => Places::Failed,
    });
    found
}

/// `places.json`, beside the app.
async fn fetch_places() -> Option<Arc<Gazetteer>> {
    let text = crate::navigation::fetch_beside("places.json").await.ok()?;
    serde_json::from_str(&text).ok().map(Arc::new)
}
