//! The area-grid picker: Great Britain's 100 km squares on the British National Grid,
//! drawn at their true places over the coastline with a few towns named, plus chips
//! for `GB` and for areas that are not squares (`UK`, `NI`, …).

use std::collections::BTreeMap;

use area_shapes::{BngPoint, MAP_TOP_KM};
use download_api::{Area, GridSquare};
use explorer_logic::product::grid_ref::NamedPoint;
use explorer_logic::product::selection::{Compass, neighbour};
use explorer_logic::text::t;
use explorer_logic::{Totals, format_size};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::coastline::COASTLINE_PATH;
use super::towns::MAP_TOWNS;

/// Height of the drawn grid in km (13 rows of 100 km squares: SV to HP), for the map's
/// whole-km layout.
const GRID_TOP_KM: u32 = MAP_TOP_KM as u32;
/// The drawn map's width in km, its margins included.
const MAP_WIDTH_KM: u32 = 720;
/// The margin round the grid in km.
const MAP_MARGIN_KM: u32 = 10;

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
    /// A place to show on the map (found by name or grid reference).
    #[prop(into)]
    marker: Signal<Option<NamedPoint>>,
    /// A shape drawn over the squares: SVG path data in the map's kilometres.
    #[prop(optional, into)]
    overlay: Signal<Option<String>>,
    /// While true, a drag on the map draws a rectangle and a click picks nothing.
    #[prop(optional, into)]
    drawing: Signal<bool>,
    /// Called with a drawn rectangle's opposite corners, on the grid in metres.
    #[prop(optional)]
    on_drawn: Option<Callback<[BngPoint; 2]>>,
) -> impl IntoView {
    let offered_squares: Vec<GridSquare> = offered.iter().filter_map(Area::square).collect();
    let chips: Vec<Area> = offered
        .iter()
        .filter(|a| a.square().is_none())
        .cloned()
        .collect();

    // Roving tabindex: exactly one offered square is in the tab order, a picked one
    // when there is one, so Tab lands where the user was. It follows the focus
    // however the focus moves, so Space acts on the square that has it.
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
            if let Some(direction) = Compass::from_key(&key) {
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
                    drawing
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
    let some_not_offered = offered_squares.len() < GridSquare::all().count();
    // Each label sits just above its dot, to the right (to the left at the east
    // edge), where it stays clear of the squares' codes.
    let towns = MAP_TOWNS
        .iter()
        .map(|&(name, east, north)| {
            let (x, y) = (east, GRID_TOP_KM - north);
            let (label_x, anchor) = if east > 600 {
                (x - 8, "end")
            } else {
                (x + 8, "start")
            };
            view! {
                <circle cx=x.to_string() cy=y.to_string() r="5" />
                <text x=label_x.to_string() y=(y - 6).to_string() text-anchor=anchor>{name}</text>
            }
        })
        .collect_view();
    let marker_view = move || {
        marker.get().map(|NamedPoint { name: label, point }| {
            let (x, y) = point.on_map();
            view! {
                <g class="marker" aria-hidden="true">
                    <circle cx=x.to_string() cy=y.to_string() r="11" />
                    <text x=x.to_string() y=(y - 18.0).to_string()>{label}</text>
                </g>
            }
        })
    };

    // The rectangle being dragged, from its start to the pointer, in map units.
    let dragged = RwSignal::new(None::<[(f64, f64); 2]>);
    let on_pointerdown = move |event: web_sys::PointerEvent| {
        if !drawing.get_untracked() {
            return;
        }
        if let Some(point) = map_point(&event) {
            event.prevent_default();
            if let Some(target) = event
                .current_target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            {
                let _ = target.set_pointer_capture(event.pointer_id());
            }
            dragged.set(Some([point, point]));
        }
    };
    let on_pointermove = move |event: web_sys::PointerEvent| {
        if dragged.with_untracked(Option::is_none) {
            return;
        }
        if let Some(point) = map_point(&event) {
            dragged.update(|drag| {
                if let Some(drag) = drag {
                    drag[1] = point;
                }
            });
        }
    };
    let on_pointerup = move |event: web_sys::PointerEvent| {
        let Some([start, _]) = dragged.get_untracked() else {
            return;
        };
        dragged.set(None);
        // Drawing stopped mid-drag (Escape): the drag is dropped, not drawn.
        if !drawing.get_untracked() {
            return;
        }
        let end = map_point(&event).unwrap_or(start);
        if let Some(on_drawn) = on_drawn {
            on_drawn.run([BngPoint::from_map(start), BngPoint::from_map(end)]);
        }
    };
    let drag_view = move || {
        dragged
            .get()
            .filter(|_| drawing.get())
            .map(|[(x1, y1), (x2, y2)]| {
                view! {
                    <rect
                        class="drag-rect"
                        x=x1.min(x2).to_string()
                        y=y1.min(y2).to_string()
                        width=(x1 - x2).abs().to_string()
                        height=(y1 - y2).abs().to_string()
                    />
                }
            })
    };
    let overlay_view = move || {
        overlay
            .get()
            .map(|path| view! { <path class="shape-outline" d=path aria-hidden="true" /> })
    };

    view! {
        <div class="area-grid">
            {has_chips.then(|| view! {
                <div class="area-chips" role="group" aria-label=t::product::whole_areas()>
                    {chip_views}
                </div>
            })}
            {has_squares.then(|| view! {
            <svg
                class="grid-map"
                viewBox=format!("-{MAP_MARGIN_KM} -{MAP_MARGIN_KM} {MAP_WIDTH_KM} {}", GRID_TOP_KM + 2 * MAP_MARGIN_KM)
                role="listbox"
                aria-multiselectable="true"
                aria-label=t::product::grid_squares()
                aria-describedby="grid-help"
                class:drawing=move || drawing.get()
                on:keydown=on_keydown
                on:pointerdown=on_pointerdown
                on:pointermove=on_pointermove
                on:pointerup=on_pointerup
                on:pointercancel=move |_| dragged.set(None)
            >
                <defs>
                    <pattern id="not-offered-hatch" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                        <line x1="0" y1="0" x2="0" y2="14" />
                    </pattern>
                </defs>
                <path class="coast" d=COASTLINE_PATH aria-hidden="true" />
                <g class="towns" aria-hidden="true">{towns}</g>
                {squares}
                {overlay_view}
                {drag_view}
                {marker_view}
            </svg>
            })}
            <p id="grid-help" class="hint">
                {match (has_squares, some_not_offered) {
                    (true, true) => t::product::grid_help_hatched(),
                    (true, false) => t::product::grid_help(),
                    (false, _) => t::product::grid_help_no_squares(),
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
    drawing: Signal<bool>,
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
    // The name starts with the text the square shows (`SU 1.2 MB`), so what a voice
    // user reads off the map is what they can say.
    let label = move || match (enabled, is_selected.get(), total.get()) {
        (false, _, _) => t::product::square_not_offered(square),
        (true, true, Some(totals)) => picked_label(square, totals),
        _ => square.code().to_owned(),
    };
    let click = move |_| {
        if enabled && !drawing.get_untracked() {
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
            on:focus=move |_| active.set(Some(square))
        >
            <rect x="2" y="2" width="96" height="96" rx="6" />
            // Picked, the size shows on two short lines (`8.77`, `kB`) under the code,
            // big enough to read. Spaces between the parts keep the text `SU 8.77 kB`.
            <text>
                <tspan class="code" x="50" y=move || if total.get().is_some() && is_selected.get() { "34" } else { "60" }>
                    {square.code()}
                </tspan>
                {move || {
                    total
                        .get()
                        .filter(|_| is_selected.get())
                        .map(|t| {
                            let size = format_size(t.bytes);
                            let (number, unit) = size.split_once(' ').unwrap_or((&size, ""));
                            view! {
                                " "
                                <tspan class="total">
                                    <tspan x="50" y="62">{number.to_owned()}</tspan>
                                    " "
                                    <tspan x="50" y="88">{unit.to_owned()}</tspan>
                                </tspan>
                            }
                        })
                }}
            </text>
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
        Area::Gb => t::product::all_of_gb().to_owned(),
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

/// `SU 120 MB, 3 files`: the square's text first, then what it does not show.
fn picked_label(square: GridSquare, totals: Totals) -> String {
    let files = t::product::files(totals.files);
    let size = format_size(totals.bytes);
    if totals.unsized_files > 0 {
        t::product::square_picked_some_unknown(files, size, square)
    } else {
        t::product::square_picked(files, size, square)
    }
}

/// Where a pointer is on the map, in the map's units (km east, km down from the top).
/// The map keeps its shape (`viewBox`, centred), so one scale serves both axes.
fn map_point(event: &web_sys::PointerEvent) -> Option<(f64, f64)> {
    let svg = event
        .current_target()?
        .dyn_into::<web_sys::Element>()
        .ok()?;
    let rect = svg.get_bounding_client_rect();
    let (width, height) = (
        f64::from(MAP_WIDTH_KM),
        f64::from(GRID_TOP_KM + 2 * MAP_MARGIN_KM),
    );
    let scale = (width / rect.width()).max(height / rect.height());
    let left = rect.left() + (rect.width() - width / scale) / 2.0;
    let top = rect.top() + (rect.height() - height / scale) / 2.0;
    let x = (f64::from(event.client_x()) - left) * scale - f64::from(MAP_MARGIN_KM);
    let y = (f64::from(event.client_y()) - top) * scale - f64::from(MAP_MARGIN_KM);
    Some((x, y))
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
