//! Picking squares by shape on a product page: a rectangle dragged on the map or typed
//! as two corners, a circle round a place or grid reference, and a boundary file
//! (GeoJSON, KML, GPX, zipped shapefile) chosen or dropped. Each picks every square the
//! shape touches; what that does to the choice is `explorer_logic::product::shape`'s.
//!
//! What acts on the map itself ([`MapTools`]: drawing, clearing the shape drawn on it)
//! sits in a bar on the map, so a person never scrolls between the tool and the map;
//! the forms and the file box ([`ShapeTools`]) are under it.

mod reader;

use area_shapes::{BngPoint, Coverage, ShapeError, rectangle, within};
use download_api::Area;
use explorer_logic::format_size;
use explorer_logic::product::grid_ref::NamedPoint;
use explorer_logic::product::shape::{
    PointProblem, ShapePick, ShapeSource, find_point, is_grid_ref, parse_radius_km,
};
use explorer_logic::text::t;
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::place_finder::{Places, load_places};
use crate::components::TextField;
use crate::words::WithWords;

/// The largest boundary file read: a detailed national boundary is a few megabytes.
const FILE_LIMIT_BYTES: u64 = 20_000_000;

/// What the page last said of a shape.
#[derive(Debug, Clone, PartialEq)]
enum Told {
    Working(String),
    Done(String),
    Problem(String),
}

/// The shape tools' shared state: what is drawn over the map, whether a drag draws,
/// and what the page last said. Made by the product page, which applies each pick.
#[derive(Debug, Clone, Copy)]
pub struct ShapeState {
    /// The last shape, drawn over the squares (SVG path data in map km).
    pub overlay: RwSignal<Option<String>>,
    /// Whether a drag on the map draws a rectangle.
    pub drawing: RwSignal<bool>,
    told: RwSignal<Option<Told>>,
    /// Whether what was last told is of a rectangle dragged on the map: said in the
    /// map's bar, where the person is, rather than under the forms.
    told_on_map: RwSignal<bool>,
    /// How much of the file being read is read, 0 to 1, once the worker says.
    read_share: RwSignal<Option<f64>>,
    /// Stops the file being read: a newer shape replaces it.
    reading: StoredValue<Option<AbortHandle>>,
    offered: StoredValue<Vec<Area>>,
    apply: Callback<ShapePick>,
}

impl ShapeState {
    /// The state for a product offering `offered`; `apply` changes the choice.
    pub fn new(offered: StoredValue<Vec<Area>>, apply: Callback<ShapePick>) -> Self {
        ShapeState {
            overlay: RwSignal::new(None),
            drawing: RwSignal::new(false),
            told: RwSignal::new(None),
            told_on_map: RwSignal::new(false),
            read_share: RwSignal::new(None),
            reading: StoredValue::new(None),
            offered,
            apply,
        }
    }

    /// A rectangle dragged on the map.
    pub fn drawn(&self, [a, b]: [BngPoint; 2]) {
        self.told_on_map.set(true);
        self.rectangle(a, b);
    }

    /// Drawing on or off. Each time it starts it says how to draw again, not what the
    /// last rectangle picked.
    fn toggle_drawing(&self) {
        let on = !self.drawing.get_untracked();
        if on && self.told_on_map.get_untracked() {
            self.told.set(None);
        }
        self.drawing.set(on);
    }

    /// A form or the file box is used: what it leads to is said under them.
    fn told_under_forms(&self) {
        self.told_on_map.set(false);
    }

    /// The shape drawn on the map goes (the choice stays), and so does what was said.
    fn clear(&self) {
        self.stop_reading();
        self.overlay.set(None);
        self.told.set(None);
    }

    fn rectangle(&self, a: BngPoint, b: BngPoint) {
        self.stop_reading();
        let ((x1, y1), (x2, y2)) = (a.on_map(), b.on_map());
        let outline = format!("M{x1} {y1}H{x2}V{y2}H{x1}Z");
        self.picked(ShapeSource::Rectangle, rectangle(a, b), outline);
    }

    fn circle(&self, centre: BngPoint, radius_m: f64) {
        self.stop_reading();
        let ((x, y), r) = (centre.on_map(), radius_m / 1000.0);
        let outline = format!(
            "M{} {y}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 -{} 0Z",
            x - r,
            2.0 * r,
            2.0 * r
        );
        self.picked(ShapeSource::Circle, within(centre, radius_m), outline);
    }

    fn picked(&self, source: ShapeSource, touched: Coverage, outline: String) {
        let pick = self
            .offered
            .with_value(|offered| ShapePick::new(source, touched, offered));
        self.overlay.set(Some(outline));
        self.told.set(Some(Told::Done(pick.message())));
        self.apply.run(pick);
    }

    /// Stops reading a file, if one is being read: its worker stops too.
    fn stop_reading(&self) {
        self.abort_reading();
        self.read_share.set(None);
    }

    /// Stops the file's reading and says nothing: the page is going. (Setting a signal
    /// then woke a view of the tools after the page's signals were gone, and the app
    /// panicked on reading one.)
    fn abort_reading(&self) {
        if let Some(reading) = self.reading.try_update_value(Option::take).flatten() {
            reading.abort();
        }
    }

    /// Something was wrong: said, and the choice left as it was.
    fn problem(&self, message: String) {
        self.told.set(Some(Told::Problem(format!(
            "{message} {}",
            t::shape::choice_kept()
        ))));
    }
}

/// Reads typed points (`SU 41 11`, `Bristol`), fetching the places only when one of
/// them is not a grid reference.
async fn find_points(
    places: RwSignal<Places>,
    typed: &[String],
) -> Result<Vec<NamedPoint>, PointProblem> {
    let gazetteer = if typed
        .iter()
        .all(|text| is_grid_ref(text) || text.trim().is_empty())
    {
        None
    } else {
        load_places(places).await
    };
    typed
        .iter()
        .map(|text| find_point(text, gazetteer.as_deref()))
        .collect()
}

/// The bar of tools on the map, once their words are here: "Draw a rectangle"
/// (pressed while drawing; pressed again, or Escape, stops), "Clear the shape" while
/// one is drawn, and what a rectangle dragged on the map picked. Its room is kept
/// while the words come, so the map does not move down under a finger.
#[component]
pub fn MapTools(shape: ShapeState) -> impl IntoView {
    // Wherever the focus is (the button, the map, the page after a drag), Escape
    // leaves drawing.
    let escape = window_event_listener(leptos::ev::keydown, move |event| {
        if event.key() == "Escape" && shape.drawing.get_untracked() {
            shape.drawing.set(false);
        }
    });
    on_cleanup(move || escape.remove());
    let drawing = move || shape.drawing.get();
    let told = move || shape.told.get().filter(|_| shape.told_on_map.get());
    view! {
        <div class="map-tools">
            <WithWords>
                <div class="map-tools-bar" role="group" aria-label=t::shape::tools_label()>
                    <button
                        type="button"
                        id="draw-rectangle"
                        class="button secondary"
                        aria-pressed=move || if drawing() { "true" } else { "false" }
                        on:click=move |_| shape.toggle_drawing()
                    >
                        {t::shape::draw()}
                    </button>
                    <Show when=move || shape.overlay.with(Option::is_some)>
                        <button type="button" id="clear-shape" class="button secondary" on:click=move |_| shape.clear()>
                            {t::shape::clear()}
                        </button>
                    </Show>
                </div>
                // How to draw, until a rectangle is drawn: then what it picked, in its
                // place, so the map below moves as little as it can.
                <Show when=move || drawing() && told().is_none()>
                    <p id="draw-help" class="hint">{t::shape::draw_help()}</p>
                </Show>
                {status_line("map-status", Signal::derive(told))}
            </WithWords>
        </div>
    }
}

/// What was last said of a shape, read out as it changes. A plain function, not a
/// component: each component's view is erased into code the first load shares.
fn status_line(id: &'static str, told: Signal<Option<Told>>) -> impl IntoView {
    let text = move || match told.get() {
        Some(Told::Working(text) | Told::Done(text) | Told::Problem(text)) => text,
        None => String::new(),
    };
    view! {
        <p
            id=id
            class="shape-status"
            class:problem=move || matches!(told.get(), Some(Told::Problem(_)))
            role="status"
            aria-busy=move || matches!(told.get(), Some(Told::Working(_))).then_some("true")
        >
            {text}
        </p>
    }
}

/// The forms and the file box, under the map, once their words are here.
#[component]
pub fn ShapeTools(shape: ShapeState, places: RwSignal<Places>) -> impl IntoView {
    view! {
        <WithWords>
            <Tools shape places />
        </WithWords>
    }
}

#[component]
fn Tools(shape: ShapeState, places: RwSignal<Places>) -> impl IntoView {
    on_cleanup(move || shape.abort_reading());
    let corner_one = RwSignal::new(String::new());
    let corner_other = RwSignal::new(String::new());
    let centre = RwSignal::new(String::new());
    let radius = RwSignal::new(String::from("20"));

    let submit_corners = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        shape.told_under_forms();
        let typed = [corner_one.get_untracked(), corner_other.get_untracked()];
        spawn_local(async move {
            match find_points(places, &typed).await {
                Ok(found) => shape.rectangle(found[0].point, found[1].point),
                Err(problem) => shape.problem(problem.message()),
            }
        });
    };
    let submit_circle = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        shape.told_under_forms();
        let radius_km = match parse_radius_km(&radius.get_untracked()) {
            Ok(km) => km,
            Err(problem) => return shape.problem(problem),
        };
        let typed = [centre.get_untracked()];
        spawn_local(async move {
            match find_points(places, &typed).await {
                Ok(found) => shape.circle(found[0].point, radius_km * 1000.0),
                Err(problem) => shape.problem(problem.message()),
            }
        });
    };
    let read = move |file: web_sys::File| {
        let name = file.name();
        let size = file.size() as u64;
        // The newest choice wins, even one that is refused.
        shape.told_under_forms();
        shape.stop_reading();
        if size > FILE_LIMIT_BYTES {
            let limit = FILE_LIMIT_BYTES;
            return shape.problem(reader::problem(
                &name,
                &ShapeError::TooLarge { size, limit },
            ));
        }
        shape
            .told
            .set(Some(Told::Working(t::shape::reading(&name))));
        let (stop, registration) = AbortHandle::new_pair();
        shape.reading.set_value(Some(stop));
        let read = async move {
            let bytes = match JsFuture::from(file.array_buffer()).await {
                Ok(buffer) => buffer.unchecked_into(),
                Err(error) => {
                    let reason = crate::fs_access::describe(&error);
                    return shape.problem(t::shape::error_not_read(&name, reason));
                }
            };
            let share = |share| shape.read_share.set(Some(share));
            let read = reader::read_file(name.clone(), bytes, FILE_LIMIT_BYTES, share).await;
            shape.read_share.set(None);
            match read {
                Ok(read) => shape.picked(ShapeSource::File(name), read.coverage, read.outline),
                Err(problem) => shape.problem(problem),
            }
        };
        spawn_local(async move {
            // Stopped when another shape is picked or the page goes.
            let _ = Abortable::new(read, registration).await;
        });
    };
    let on_change = move |event: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&event);
        if let Some(file) = input.files().and_then(|files| files.get(0)) {
            read(file);
        }
        // The same file chosen again is read again.
        input.set_value("");
    };
    let dragging_over = RwSignal::new(false);
    let on_drop = move |event: web_sys::DragEvent| {
        event.prevent_default();
        dragging_over.set(false);
        if let Some(file) = event
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            read(file);
        }
    };
    let told = move || shape.told.get().filter(|_| !shape.told_on_map.get());

    view! {
        <section class="shape-tools" aria-labelledby="shape-heading">
            <h3 id="shape-heading">{t::shape::heading()}</h3>
            <p class="hint">{t::shape::intro()}</p>
            <form id="corners-form" class="shape-form" on:submit=submit_corners>
                <fieldset>
                    <legend>{t::shape::corners_legend()}</legend>
                    <PointInput id="corner-one" label=t::shape::corner_one() value=corner_one />
                    <PointInput id="corner-other" label=t::shape::corner_other() value=corner_other />
                    <button type="submit" class="button">{t::shape::pick()}</button>
                </fieldset>
            </form>
            <form id="circle-form" class="shape-form" on:submit=submit_circle>
                <fieldset>
                    <legend>{t::shape::circle_legend()}</legend>
                    <PointInput id="circle-centre" label=t::shape::centre() value=centre />
                    <TextField
                        id="circle-radius"
                        label=t::shape::radius()
                        value=radius
                        class="shape-field"
                        inputmode="decimal"
                    />
                    <button type="submit" class="button">{t::shape::pick()}</button>
                </fieldset>
            </form>
            <div
                class="shape-file"
                class:over=move || dragging_over.get()
                on:dragover=move |event: web_sys::DragEvent| {
                    event.prevent_default();
                    dragging_over.set(true);
                }
                on:dragleave=move |_| dragging_over.set(false)
                on:drop=on_drop
            >
                <label for="shape-file">{t::shape::file_label(format_size(FILE_LIMIT_BYTES))}</label>
                <input
                    id="shape-file"
                    type="file"
                    accept=".geojson,.json,.kml,.gpx,.zip,application/geo+json,application/vnd.google-earth.kml+xml,application/gpx+xml,application/zip"
                    on:change=on_change
                />
                <p class="hint">{t::shape::file_drop()}</p>
            </div>
            {status_line("shape-status", Signal::derive(told))}
            <Show when=move || shape.read_share.get().is_some()>
                <progress
                    class="shape-progress"
                    max="1"
                    value=move || shape.read_share.get().unwrap_or_default()
                    aria-labelledby="shape-status"
                ></progress>
            </Show>
        </section>
    }
}

/// A labelled box for a grid reference or a place.
#[component]
fn PointInput(id: &'static str, label: String, value: RwSignal<String>) -> impl IntoView {
    let placeholder = t::shape::point_placeholder();
    view! { <TextField id label value class="shape-field" placeholder /> }
}
