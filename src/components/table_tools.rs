//! The filter box and sortable column headers of the long files tables.

use explorer_logic::table_tools::{Column, Direction, Order};
use explorer_logic::text::{group_digits, t};
use explorer_logic::virtual_list::SHOW_WHOLE_UP_TO;
use leptos::prelude::*;

/// A column header that sorts the table by its column (`aria-sort` says how).
#[component]
pub fn SortHeader(
    column: Column,
    label: &'static str,
    order: RwSignal<Option<Order>>,
    #[prop(optional)] class: &'static str,
) -> impl IntoView {
    let arrow = move || match order.get() {
        Some(Order {
            column: sorted,
            direction,
        }) if sorted == column => match direction {
            Direction::Ascending => " ▲",
            Direction::Descending => " ▼",
        },
        _ => "",
    };
    view! {
        <th scope="col" class=class aria-sort=move || Order::aria_sort(order.get(), column)>
            <button
                type="button"
                class="sort-button"
                on:click=move |_| order.update(|o| *o = Some(Order::pressed(*o, column)))
            >
                {label}
                <span aria-hidden="true">{arrow}</span>
            </button>
        </th>
    }
}

/// The filter box over a table, the count it leaves, and the switch that shows every
/// row at once (to print, or to find in the page).
#[component]
pub fn TableFilter(
    /// The input's id.
    id: &'static str,
    /// Its label, e.g. "Filter files".
    label: &'static str,
    /// What can be typed, e.g. "Name, area or format".
    placeholder: &'static str,
    filter: RwSignal<String>,
    /// How many rows pass the filter, and how many there are.
    shown: Signal<usize>,
    #[prop(into)] total: Signal<usize>,
    show_all: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <div class="table-tools">
            <label for=id>{label}</label>
            <input
                id=id
                type="search"
                class="table-filter"
                placeholder=placeholder
                autocomplete="off"
                spellcheck="false"
                prop:value=move || filter.get()
                on:input=move |ev| filter.set(event_target_value(&ev))
            />
            <p class="table-count" role="status">
                {move || {
                    let (shown, total) = (shown.get(), total.get());
                    if shown == total {
                        t::product::files(total)
                    } else {
                        t::product::some_of_files(total, group_digits(shown as u64))
                    }
                }}
            </p>
            {move || (total.get() > SHOW_WHOLE_UP_TO).then(|| view! {
            <button
                type="button"
                class="button small secondary show-all"
                aria-pressed=move || if show_all.get() { "true" } else { "false" }
                on:click=move |_| show_all.update(|all| *all = !*all)
                title=t::product::show_every_row_title()
            >
                {t::product::show_every_row()}
            </button>
            })}
        </div>
    }
}
