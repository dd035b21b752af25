//! The merged list of a product's downloads: one row per file, with its checksum and a
//! link that redirects to the data.

use download_api::{Download, Field, ProductDownload};
use explorer_logic::table_tools::{Column, Order, RowKeys, TableRows};
use explorer_logic::text::t;
use explorer_logic::virtual_list::SHOW_WHOLE_UP_TO;
use explorer_logic::{flaws, format_size};
use leptos::either::Either;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::components::table_tools::{SortHeader, TableFilter};
use crate::components::virtual_list::{Items, Windowed, WindowedBody, event_index};
use crate::components::{ListingFlaws, copy_then, flawed};
use crate::words::WithWords;

/// A table of downloads, with a filter box and sortable columns. Long lists are
/// windowed: only the rows on screen are in the page. Rows are keyed by their position
/// and URL, so a scroll only adds and removes rows at the edges.
#[component]
pub fn DownloadsTable(
    /// The files to list.
    #[prop(into)]
    downloads: Signal<Vec<ProductDownload>>,
) -> impl IntoView {
    let rows = Memo::new(move |_| {
        downloads.with(|all| {
            TableRows::new(all.iter().map(|d| RowKeys {
                name: &d.file.file_name,
                area: d.area.code(),
                format: &d.format,
                size: d.file.size,
            }))
        })
    });
    let filter = RwSignal::new(String::new());
    let order = RwSignal::new(None::<Order>);
    let shown = Memo::new(move |_| rows.with(|l| l.view(&filter.read(), order.get())));
    let count = Signal::derive(move || shown.read().len());
    let total = Signal::derive(move || rows.with(TableRows::len));
    let windowed = Windowed::new(count, Items::TABLE_ROWS);
    let copied = RwSignal::new(None::<usize>);

    // One handler for every row's MD5 copy button.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let on_copy = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|t| t.closest(".copy-button").ok().flatten().is_some());
        let Some(index) = event_index(&ev).filter(|_| on_copy) else {
            return;
        };
        let Some(md5) = downloads.with_untracked(|all| all.get(index)?.file.md5.clone()) else {
            return;
        };
        copy_then(&md5, move |ok| copied.set(ok.then_some(index)));
    };
    let each = move || {
        let rows = windowed.rows(shown);
        downloads.with(|all| {
            rows.into_iter()
                .filter_map(|(pos, index)| Some((pos, index, all.get(index)?.file.url.clone())))
                .collect::<Vec<_>>()
        })
    };
    let row = move |(pos, index, _): (usize, usize, String)| {
        let download = downloads.with_untracked(|all| all[index].clone());
        view! { <DownloadRow download pos index windowed copied /> }
    };
    // Read again once the notes' words are here (`ListingFlaws`).
    let notes =
        Signal::derive(move || downloads.with(|all| flaws::notes(all.iter().map(|d| &d.file))));

    view! {
        <ListingFlaws notes />
        <TableFilter
            id="downloads-filter"
            label=t::product::filter_downloads()
            placeholder=t::product::filter_downloads_placeholder()
            filter
            shown=count
            total
            show_all=windowed.show_all
        />
        <div class="table-scroll">
            <table
                class="downloads-table"
                class:windowed=move || { count.get() > SHOW_WHOLE_UP_TO }
                aria-rowcount=move || count.get() + 1
            >
                <thead>
                    <tr aria-rowindex="1">
                        <SortHeader column=Column::Name label=t::product::column_file() order />
                        <SortHeader column=Column::Area label=t::product::column_area() order />
                        <SortHeader column=Column::Format label=t::product::format() order />
                        <SortHeader column=Column::Size label=t::product::column_size() order class="num" />
                        <th scope="col">"MD5"</th>
                        <th scope="col"><span class="visually-hidden">{t::product::download()}</span></th>
                    </tr>
                </thead>
                <WindowedBody windowed columns=6 on_click>
                    <For each key=|(pos, _, url)| (*pos, url.clone()) children=row />
                </WindowedBody>
            </table>
        </div>
    }
}

#[component]
fn DownloadRow(
    download: ProductDownload,
    /// Its position in the table as shown.
    pos: usize,
    /// Its index in the list of downloads.
    index: usize,
    windowed: Windowed,
    /// The index of the row whose MD5 was just copied.
    copied: RwSignal<Option<usize>>,
) -> impl IntoView {
    let ProductDownload {
        file:
            Download {
                url,
                file_name,
                size,
                md5,
                flaws,
            },
        area,
        format,
        subformat,
    } = download;
    let md5_flaw = flawed(&flaws, Field::Md5);
    let size_flaw = flawed(&flaws, Field::Size);
    let md5_cell = md5.map(|md5| {
        let title = t::product::copy_md5_of(&file_name);
        view! {
            <code class="md5" title=md5.clone()>{short_md5(&md5)}</code>
            <button type="button" class="copy-button" title=title>
                {move || if copied.get() == Some(index) { t::product::copied() } else { t::product::copy() }}
            </button>
        }
    });
    let link_label = t::product::download_file(&file_name);
    view! {
        <tr
            data-file=file_name.clone()
            data-pos=pos
            data-index=index
            aria-rowindex=pos + 2
            tabindex=move || windowed.tab_index(pos)
        >
            <td class="file-name">{file_name.clone()}</td>
            <td><span class="area-tag">{area.code().to_owned()}</span></td>
            <td class="format-cell">
                {format}
                {subformat.map(|sub| view! { <span class="subformat">{sub}</span> })}
            </td>
            <td class="num" data-bytes=size.map(|s| s.to_string())>
                {size_flaw.map_or_else(
                    || Either::Left(size.map(format_size).unwrap_or_else(|| "—".to_owned())),
                    Either::Right,
                )}
            </td>
            <td class="md5-cell">{md5_cell}{md5_flaw}</td>
            <td>
                // A file without a usable address is listed, but not offered.
                {if url.is_empty() {
                    let why = file_name.clone();
                    Either::Left(view! {
                        <WithWords>
                            <span class="muted not-offered" title=t::flaws::not_offered_why(&why)>
                                {t::flaws::not_offered_file()}
                            </span>
                        </WithWords>
                    })
                } else {
                    Either::Right(view! {
                        <a class="button small secondary" href=url download=file_name.clone() aria-label=link_label>
                            {t::product::download()}
                        </a>
                    })
                }}
            </td>
        </tr>
    }
}

/// The first and last characters, enough to compare by eye.
fn short_md5(md5: &str) -> String {
    if md5.len() > 12 && md5.is_ascii() {
        format!("{}…{}", &md5[..6], &md5[md5.len() - 4..])
    } else {
        md5.to_owned()
    }
}
