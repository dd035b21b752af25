//! Windowed lists: the page keeps only the items on screen (plus a margin), with empty
//! space standing in for the rest. The rule for which items is
//! [`explorer_logic::virtual_list`]; this wires it to the page's scrolling and resizing.
//!
//! A list marks each shown item with `data-pos` (its position in the list as shown),
//! which is also how its one delegated event handler finds the item.

use std::ops::Range;
use std::time::Duration;

pub use explorer_logic::virtual_list::Items;
use explorer_logic::virtual_list::{Move, Viewport, Window, tab_stop};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The shown part of a windowed list of `total` items, kept up to date as the page
/// scrolls, resizes or the list changes.
#[derive(Debug, Clone, Copy)]
pub struct Windowed {
    shown: Memo<Shown>,
    /// The position that has (or last had) the keyboard focus.
    pub active: RwSignal<usize>,
    total: Signal<usize>,
    /// What was last measured. (Few reactive types: each one adds to the app's size.)
    frame: RwSignal<(Window, Viewport)>,
    list: RwSignal<Option<web_sys::Element>, LocalStorage>,
    /// Every item shown (to print, or to find in the page).
    pub show_all: RwSignal<bool>,
    /// The list scrolls within its parent's box rather than with the page.
    in_box: bool,
}

/// The positions to show, and the space in pixels standing in for the items before
/// and after them.
#[derive(Debug, Clone, PartialEq)]
struct Shown {
    range: Range<usize>,
    padding: (f64, f64),
}

impl Windowed {
    /// Follows the list whose items are the children (or grandchildren) of the element
    /// given to [`Windowed::attach`]: its top is where the list starts. `items` says
    /// how big they are until measured, and up to how many are shown whole.
    pub fn new(total: Signal<usize>, items: Items) -> Self {
        Self::build(total, items, false)
    }

    /// [`Windowed::new`] for a list that scrolls within a box of its own ([`BoxedList`]):
    /// its parent element, with `overflow: auto` (not the list itself, whose padding
    /// stands in for the items not shown and would stretch the box). The items shown are
    /// those in the box's view; the box's `scroll` events must call [`Windowed::measure`].
    fn in_box(total: Signal<usize>, items: Items) -> Self {
        Self::build(total, items, true)
    }

    fn build(total: Signal<usize>, items: Items, in_box: bool) -> Self {
        let viewport = Viewport {
            scrolled: 0.0,
            height: inner_height(),
        };
        let frame = RwSignal::new((Window::estimated(items), viewport));
        let show_all = RwSignal::new(false);
        let shown = Memo::new(move |_| {
            let (window, viewport) = frame.get();
            let total = total.get();
            let range = if show_all.get() {
                0..total
            } else {
                window.range(total, viewport)
            };
            let padding = window.padding(total, &range);
            Shown { range, padding }
        });
        let this = Windowed {
            shown,
            active: RwSignal::new(0),
            total,
            frame,
            list: RwSignal::new_local(None),
            show_all,
            in_box,
        };
        let scroll = window_event_listener_untyped("scroll", move |_| this.measure());
        let resize = window_event_listener_untyped("resize", move |_| this.measure());
        // A printout shows every item (the page draws them before it is laid out
        // for printing, as the render runs in a microtask after this handler).
        let before_print =
            window_event_listener_untyped("beforeprint", move |_| show_all.set(true));
        let after_print = window_event_listener_untyped("afterprint", move |_| show_all.set(false));
        on_cleanup(move || {
            scroll.remove();
            resize.remove();
            before_print.remove();
            after_print.remove();
        });
        // Once the items for a new total or range are drawn, measure them.
        Effect::new(move |_| {
            shown.track();
            this.measure_after_paint();
        });
        this
    }

    /// The positions to show.
    pub fn range(&self) -> Range<usize> {
        self.shown.read().range.clone()
    }

    /// The space in pixels standing in for the items before and after [`Windowed::range`].
    pub fn padding(&self) -> (f64, f64) {
        self.shown.read().padding
    }

    /// The element holding the items (a `tbody`, a `ul`). Measured once it is in the
    /// page: a node ref's element is not yet.
    pub fn attach(&self, element: web_sys::Element) {
        self.list.set(Some(element));
        self.measure_after_paint();
    }

    /// Measures once the page has drawn what changed. Measuring sooner would make the
    /// browser lay the page out there and then, in the same task as the change, and
    /// the items the measurement adds would make that task longer still.
    fn measure_after_paint(&self) {
        let this = *self;
        request_animation_frame(move || set_timeout(move || this.measure(), Duration::ZERO));
    }

    /// Reads where the list is on screen and how big its items are. A short list,
    /// shown whole, needs neither.
    pub fn measure(&self) {
        let Some(Some(list)) = self.list.try_get_untracked() else {
            return; // not drawn yet, or gone
        };
        // Out of the page every item is at 0: one line of them all, so the whole list
        // would be drawn.
        if !list.is_connected() {
            return;
        }
        let (old, old_viewport) = self.frame.get_untracked();
        if !old.windows(self.total.try_get_untracked().unwrap_or(0)) {
            return;
        }
        let items = list.query_selector_all("[data-pos]").ok();
        let items: Vec<web_sys::Element> = items
            .iter()
            .flat_map(|items| (0..items.length()).filter_map(move |i| items.item(i)))
            .filter_map(|node| node.dyn_into::<web_sys::Element>().ok())
            .collect();
        let rects: Vec<web_sys::DomRect> = items
            .iter()
            .map(|item| item.get_bounding_client_rect())
            .collect();
        if rects.first().is_some_and(|rect| rect.height() == 0.0) {
            return; // hidden: nothing to measure
        }
        let tops: Vec<f64> = rects.iter().map(|rect| rect.top()).collect();
        let window = old.remeasured(&tops);
        let top = match (items.first(), tops.first()) {
            (Some(item), Some(item_top)) => {
                let pos = item.get_attribute("data-pos").and_then(|p| p.parse().ok());
                window.list_top(*item_top, pos.unwrap_or(0))
            }
            _ => list.get_bounding_client_rect().top(),
        };
        // What is in view: the window, or the box the list scrolls in.
        let (view_top, height) = match list.parent_element().filter(|_| self.in_box) {
            Some(scroller) => {
                let top = scroller.get_bounding_client_rect().top();
                let border = f64::from(scroller.client_top());
                (top + border, f64::from(scroller.client_height()))
            }
            None => (0.0, inner_height()),
        };
        let viewport = Viewport {
            scrolled: view_top - top,
            height,
        };
        if (window, viewport) != (old, old_viewport) {
            self.frame.set((window, viewport));
        }
    }

    /// The position a row gets its `tabindex` from: 0 for the one Tab stop.
    pub fn tab_index(&self, pos: usize) -> i32 {
        if tab_stop(self.active.get(), &self.range()) == pos {
            0
        } else {
            -1
        }
    }

    /// Handles the keys that move between items (arrows, Page Up/Down, Home, End)
    /// for a keydown anywhere in the list: scrolls the page so the new item shows and
    /// focuses it. Other keys are left alone.
    pub fn on_keydown(&self, ev: &web_sys::KeyboardEvent) {
        let Some(step) = Move::from_key(&ev.key()) else {
            return;
        };
        let Some(from) = event_pos(ev) else {
            return;
        };
        let (window, view) = self.frame.get_untracked();
        let total = self.total.get_untracked();
        let step_size = match step {
            Move::Up | Move::Down => window.per_row,
            _ => window.page_rows(view) * window.per_row,
        };
        let Some(to) = step.from(from, total, step_size) else {
            return;
        };
        ev.prevent_default();
        self.active.set(to);
        // A short list is all in the page: focusing the item scrolls to it.
        if window.windows(total)
            && let Some(scrolled) = window.scroll_to_show(to, view)
            && let Some(page) = web_sys::window()
        {
            page.scroll_by_with_x_and_y(0.0, scrolled - view.scrolled);
            self.measure();
        }
        // The item is in the page once this change is drawn.
        let list = self.list.get_untracked();
        request_animation_frame(move || {
            if let Some(item) = list.and_then(|list| focus_target(&list, to)) {
                let _ = item.focus();
            }
        });
    }

    /// Remembers the item focused by a click or Tab, for the Tab stop.
    pub fn on_focusin(&self, ev: &web_sys::FocusEvent) {
        if let Some(pos) = event_pos(ev) {
            self.active.set(pos);
        }
    }
}

/// A list windowed within a scrolling box of its own: `class` styles the box, which
/// needs a `max-height` and `overflow: auto`. Only the items in the box's view, plus a
/// margin, are in the page: thousands of items make a few dozen. Each is an `<li>`
/// (of class `item_class`) holding `item(pos)` and telling screen readers its place
/// among `total`. `items` says what the items are (table rows unless told); `scroller`
/// is the box, for a caller that scrolls it; `on_scroll` runs on each of its scrolls.
#[component]
pub fn BoxedList<F, V>(
    total: usize,
    class: &'static str,
    #[prop(default = Items::TABLE_ROWS)] items: Items,
    #[prop(optional)] item_class: &'static str,
    item: F,
    #[prop(optional)] scroller: NodeRef<leptos::html::Div>,
    #[prop(optional, into)] on_scroll: Option<Callback<()>>,
) -> impl IntoView
where
    F: Fn(usize) -> V + Send + Clone + 'static,
    V: IntoView + 'static,
{
    let windowed = Windowed::in_box(Signal::stored(total), items);
    let list = NodeRef::<leptos::html::Ul>::new();
    list.on_load(move |list| windowed.attach(list.into()));
    let scrolled = move |_| {
        windowed.measure();
        if let Some(on_scroll) = on_scroll {
            on_scroll.run(());
        }
    };
    view! {
        <div class=class node_ref=scroller on:scroll=scrolled>
            <ul
                node_ref=list
                style:padding-top=move || px(windowed.padding().0)
                style:padding-bottom=move || px(windowed.padding().1)
            >
                <For
                    each=move || windowed.range()
                    key=|pos| *pos
                    children=move |pos| {
                        view! {
                            <li class=item_class data-pos=pos aria-setsize=total aria-posinset=pos + 1>
                                {item(pos)}
                            </li>
                        }
                    }
                />
            </ul>
        </div>
    }
}

/// The `data-pos` of the item an event happened in.
pub fn event_pos(ev: &web_sys::Event) -> Option<usize> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    target
        .closest("[data-pos]")
        .ok()??
        .get_attribute("data-pos")?
        .parse()
        .ok()
}

fn inner_height() -> f64 {
    web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(800.0)
}

impl Windowed {
    /// The `(position, index)` of each row to show, where `order` maps positions in
    /// the list as shown to indices into its data.
    pub fn rows(&self, order: Memo<Vec<usize>>) -> Vec<(usize, usize)> {
        let range = self.range();
        order.with(|order| {
            range
                .filter_map(|pos| Some((pos, *order.get(pos)?)))
                .collect()
        })
    }
}

/// The `data-index` (an index into the list's data) of the row an event happened in.
pub fn event_index(ev: &web_sys::Event) -> Option<usize> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    target
        .closest("[data-index]")
        .ok()??
        .get_attribute("data-index")?
        .parse()
        .ok()
}

/// The body of a windowed table: its rows (`children`), with empty rows `columns` wide
/// standing in for the rows above and below them, the keys that move between rows,
/// and `on_click`, one handler for a click in any row (see [`event_index`]).
#[component]
pub fn WindowedBody(
    windowed: Windowed,
    columns: usize,
    on_click: impl Fn(web_sys::MouseEvent) + 'static,
    children: Children,
) -> impl IntoView {
    let body = NodeRef::<leptos::html::Tbody>::new();
    body.on_load(move |body| windowed.attach(body.into()));
    // Absent when there are none: a short table is only its rows.
    let spacer = move |side: fn((f64, f64)) -> f64| {
        view! {
            <Show when=move || { side(windowed.padding()) > 0.0 }>
                <tr class="spacer" aria-hidden="true">
                    <td colspan=columns style:height=move || px(side(windowed.padding()))></td>
                </tr>
            </Show>
        }
    };
    view! {
        <tbody
            node_ref=body
            on:click=on_click
            on:keydown=move |ev| windowed.on_keydown(&ev)
            on:focusin=move |ev| windowed.on_focusin(&ev)
        >
            {spacer(|(above, _)| above)}
            {children()}
            {spacer(|(_, below)| below)}
        </tbody>
    }
}

/// A CSS length in whole pixels (`None` for none), as padding for the items not shown.
/// Whole pixels are plenty, and integers are cheaper to format than floats.
pub fn px(value: f64) -> Option<String> {
    let whole = value.round() as i64;
    (whole > 0).then(|| format!("{whole}px"))
}

/// What takes the focus for the item at `pos`: the item itself when it is focusable
/// (a table row), else its first link or button (a card).
fn focus_target(list: &web_sys::Element, pos: usize) -> Option<web_sys::HtmlElement> {
    let item = list
        .query_selector(&format!("[data-pos=\"{pos}\"]"))
        .ok()??;
    let target = if item.has_attribute("tabindex") {
        item
    } else {
        item.query_selector("a[href], button").ok()??
    };
    target.dyn_into().ok()
}
