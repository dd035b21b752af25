//! The area-grid picker: Great Britain's 100 km squares on the British National Grid,
//! drawn at their true places over the coastline, plus chips for `GB` and for areas
//! that are not squares (`UK`, `NI`, …).

use std::collections::BTreeMap;

use download_api::{Area, GridSquare};
use explorer_logic::selection::{Direction, neighbour};
use explorer_logic::{Totals, format_size};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::coastline::COASTLINE_PATH;

/// Height of the drawn grid in km (13 rows of 100 km squares: SV to HP).
const GRID_TOP_KM: u32 = 1300;

/// The picker. Clicking a square or chip, or Space/Enter on the focused one, calls
/// `on_toggle`; the arrow keys move between the squares the product offers.
#[component]
pub fn AreaGrid(
    /// The areas the product offers (the others are drawn disabled).
    offered: Vec<Area>,
    /// The areas picked now.
    #[prop(into)]
    selected: Signal<Vec<Area>>,
    /// Each picked area's totals, once its query has been answered.
    #[prop(into)]
    totals: Signal<BTreeMap<Area, Totals>>,
    /// Called with the area to add or remove.
    on_toggle: Callback<Area>,
) -> impl IntoView {
    let offered_squares: Vec<GridSquare> = offered.iter().filter_map(Area::square).collect();
    let chips: Vec<Area> = offered
        .iter()
        .filter(|a| a.square().is_none())
        .cloned()
        .collect();

    // Roving tabindex: exactly one offered square is in the tab order, a picked one
    // when there is one, so Tab lands where the user was.
    let start = selected
        .with_untracked(|s| s.iter().find_map(Area::square))
        .filter(|square| offered_squares.contains(square))
        .or(offered_squares.first().copied());
    let active = RwSignal::new(start);

    let on_keydown = {
        let offered_squares = offered_squares.clone();
        move |event: web_sys::KeyboardEvent| {
            let Some(current) = active.get_untracked() else {
                return;
            };
            let key = event.key();
            if let Some(direction) = Direction::from_key(&key) {
                event.prevent_default();
                if let Some(next) = neighbour(current, direction, &offered_squares) {
                    active.set(Some(next));
                    focus_square(next);
                }
            } else if key == " " || key == "Enter" {
                event.prevent_default();
                on_toggle.run(Area::Square(current));
            }
        }
    };

    let squares = GridSquare::all()
        .map(|square| {
            let enabled = offered_squares.contains(&square);
            view! {
                <Square
                    square
                    enabled
                    selected
                    totals
                    active
                    on_toggle
                />
            }
        })
        .collect_view();

    let chip_views = chips
        .into_iter()
        .map(|area| view! { <AreaChip area selected totals on_toggle /> })
        .collect_view();
    let has_chips = offered.iter().any(|a| a.square().is_none());
    let has_squares = !offered_squares.is_empty();

    view! {
        <div class="area-grid">
            {has_chips.then(|| view! {
                <div class="area-chips" role="group" aria-label="Whole areas">
                    {chip_views}
                </div>
            })}
            {has_squares.then(|| view! {
            <svg
                class="grid-map"
                viewBox=format!("-10 -10 {} {}", 720, GRID_TOP_KM + 20)
                role="listbox"
                aria-multiselectable="true"
                aria-label="100 km grid squares"
                aria-describedby="grid-help"
                on:keydown=on_keydown
            >
                <path class="coast" d=COASTLINE_PATH aria-hidden="true" />
                {squares}
            </svg>
            })}
            <p id="grid-help" class="hint">
                {if has_squares {
                    "Click squares to pick them, or use the arrow keys and Space. Shaded squares are not offered."
                } else {
                    "This product is not split into grid squares."
                }}
            </p>
        </div>
    }
}

/// One 100 km square of the grid.
#[component]
fn Square(
    square: GridSquare,
    enabled: bool,
    selected: Signal<Vec<Area>>,
    totals: Signal<BTreeMap<Area, Totals>>,
    active: RwSignal<Option<GridSquare>>,
    on_toggle: Callback<Area>,
) -> impl IntoView {
    let (east, north) = square.origin();
    let x = east / 1000;
    let y = GRID_TOP_KM - north / 1000 - 100;
    let area = Area::Square(square);
    let is_selected = {
        let area = area.clone();
        Signal::derive(move || selected.with(|s| s.contains(&area)))
    };
    let total = {
        let area = area.clone();
        Signal::derive(move || totals.with(|t| t.get(&area).copied()))
    };
    let label = move || {
        let mut label = square.code().to_owned();
        if !enabled {
            label.push_str(", not offered");
        } else if let (true, Some(t)) = (is_selected.get(), total.get()) {
            label.push_str(&format!(", {}", describe(t)));
        }
        label
    };
    let click = move |_| {
        if enabled {
            active.set(Some(square));
            on_toggle.run(Area::Square(square));
        }
    };
    view! {
        <g
            id=square_id(square)
            class="square"
            class:enabled=enabled
            class:selected=move || is_selected.get()
            transform=format!("translate({x} {y})")
            role="option"
            aria-selected=move || if is_selected.get() { "true" } else { "false" }
            aria-disabled=(!enabled).then_some("true")
            aria-label=label
            tabindex=move || {
                enabled.then(|| if active.get() == Some(square) { "0" } else { "-1" })
            }
            on:click=click
        >
            <rect x="2" y="2" width="96" height="96" rx="6" />
            <text class="code" x="50" y=move || if total.get().is_some() && is_selected.get() { "44" } else { "58" }>
                {square.code()}
            </text>
            {move || {
                total
                    .get()
                    .filter(|_| is_selected.get())
                    .map(|t| {
                        view! {
                            <text class="total" x="50" y="76">
                                {format_size(t.bytes)}
                            </text>
                        }
                    })
            }}
        </g>
    }
}

/// A toggle for an area that is not a grid square (`GB`, `UK`, `NI`).
#[component]
fn AreaChip(
    area: Area,
    selected: Signal<Vec<Area>>,
    totals: Signal<BTreeMap<Area, Totals>>,
    on_toggle: Callback<Area>,
) -> impl IntoView {
    let name = match &area {
        Area::Gb => "All of Great Britain".to_owned(),
        other => other.code().to_owned(),
    };
    let code = area.code().to_owned();
    let pressed = {
        let area = area.clone();
        Signal::derive(move || selected.with(|s| s.contains(&area)))
    };
    let total = {
        let area = area.clone();
        Signal::derive(move || totals.with(|t| t.get(&area).copied()))
    };
    let show_code = area == Area::Gb;
    view! {
        <button
            type="button"
            class="area-chip"
            data-area=code.clone()
            aria-pressed=move || if pressed.get() { "true" } else { "false" }
            on:click=move |_| on_toggle.run(area.clone())
        >
            <span class="chip-name">{name}</span>
            {show_code.then(|| view! { <span class="chip-code">{code.clone()}</span> })}
            {move || {
                total
                    .get()
                    .filter(|_| pressed.get())
                    .map(|t| view! { <span class="chip-total">{format_size(t.bytes)}</span> })
            }}
        </button>
    }
}

/// "3 files, 120 MB".
pub fn describe(totals: Totals) -> String {
    let files = match totals.files {
        1 => "1 file".to_owned(),
        n => format!("{n} files"),
    };
    let more = if totals.unsized_files > 0 { "+" } else { "" };
    format!("{files}, {}{more}", format_size(totals.bytes))
}

fn square_id(square: GridSquare) -> String {
    format!("square-{}", square.code())
}

fn focus_square(square: GridSquare) {
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&square_id(square)))
        .and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok());
    if let Some(element) = element {
        let _ = element.focus();
    }
}
