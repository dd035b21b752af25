use download_api::{Download, Field};
use explorer_logic::table_tools::{Column, RowKeys, TableQuery, TableRows};
use explorer_logic::text::t;
use explorer_logic::virtual_list::SHOW_WHOLE_UP_TO;
use explorer_logic::{Totals, flaws, format_size};
use leptos::either::Either;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::auth::use_session;
use crate::components::table_tools::{SortHeader, TableFilter};
use crate::components::virtual_list::{Items, Windowed, WindowedBody, event_index};
use crate::components::{ListingFlaws, copy_then, flawed};
use crate::words::WithWords;

/// Listed links are signed for about an hour: past this age, ask for a fresh one.
const LISTED_LINK_MAX_AGE_MS: f64 = 50.0 * 60.0 * 1000.0;

/// The files of one data package version: name (a download link), size and md5,
/// with totals.
///
/// Each name is a plain `<a href download>` to the address the service listed, so the
/// browser downloads the file itself, whatever its size: a listed address works on
/// its own for the caller who listed it, until it expires. Once the listing is old
/// enough for that, a click instead asks the API for the file's direct address with
/// the signed-in credentials and hands that to the browser.
#[component]
pub fn FilesTable(
    files: Vec<Download>,
    /// The data package the files belong to.
    package_id: String,
    /// The version's real id (never `latest`).
    version_id: String,
    /// The filter and order to start with.
    #[prop(optional)]
    query: TableQuery,
    /// Told each new filter and order (to keep them in the address).
    #[prop(optional, into)]
    on_query: Option<Callback<TableQuery>>,
) -> impl IntoView {
    let session = use_session();
    let listed_at = js_sys::Date::now();
    let status = RwSignal::new(None::<String>);

    let total = Totals::of(files.iter().map(|f| f.size));
    let rows = StoredValue::new(TableRows::new(files.iter().map(|f| RowKeys {
        name: &f.file_name,
        size: f.size,
        ..RowKeys::default()
    })));
    let files = StoredValue::new(files);
    // Read again once the notes' words are here (`ListingFlaws`).
    let notes = Signal::derive(move || files.with_value(|files| flaws::notes(files)));
    let filter = RwSignal::new(query.filter);
    let order = RwSignal::new(query.order);
    if let Some(on_query) = on_query {
        // Each change after the first.
        Effect::new(move |first: Option<()>| {
            let query = TableQuery {
                filter: filter.get(),
                order: order.get(),
            };
            if first.is_some() {
                on_query.run(query);
            }
        });
    }
    // Positions in the table as shown -> indices into `files`.
    let shown = Memo::new(move |_| rows.with_value(|l| l.view(&filter.read(), order.get())));
    let count = Signal::derive(move || shown.read().len());
    let windowed = Windowed::new(count, Items::TABLE_ROWS);
    let copied = RwSignal::new(None::<usize>);

    // One handler for every row: a stale link's click, and the MD5 copy buttons.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(index) = event_index(&ev) else {
            return;
        };
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let within = |css: &str| {
            target
                .as_ref()
                .is_some_and(|t| t.closest(css).ok().flatten().is_some())
        };
        if within(".copy-button") {
            if let Some(md5) = files.with_value(|f| f[index].md5.clone()) {
                copy_then(&md5, move |ok| copied.set(ok.then_some(index)));
            }
            return;
        }
        if !within("a.download-link") {
            return;
        }
        let stale = js_sys::Date::now() - listed_at > LISTED_LINK_MAX_AGE_MS;
        if !stale {
            return; // the browser follows the listed link itself
        }
        ev.prevent_default();
        let (package_id, version_id) = (package_id.clone(), version_id.clone());
        let name = files.with_value(|f| f[index].file_name.clone());
        status.set(Some(t::product::getting_address(&name)));
        leptos::task::spawn_local(async move {
            let result = session
                .ask(async |api| {
                    api.direct_download_url(&package_id, &version_id, &name)
                        .await
                })
                .await;
            match result {
                Ok(url) => {
                    status.set(None);
                    start_download(&url, &name);
                }
                Err(error) => status.set(Some(t::product::download_failed(&name, error))),
            }
        });
    };

    let row = move |pos: usize, index: usize| {
        let file = files.with_value(|f| f[index].clone());
        let size = file.size.map(format_size).unwrap_or_else(|| "—".into());
        let exact = file.size.map(t::product::bytes).unwrap_or_default();
        view! {
            <tr
                data-pos=pos
                data-index=index
                aria-rowindex=pos + 2
                tabindex=move || windowed.tab_index(pos)
            >
                <td class="file-name">
                    // A file without a usable address is listed, but not offered.
                    {if file.is_offered() {
                        Either::Left(view! {
                            <a href=file.url.clone() download=file.file_name.clone() class="download-link">
                                {file.file_name.clone()}
                            </a>
                        })
                    } else {
                        Either::Right(view! {
                            {file.file_name.clone()} " "
                            <WithWords>
                                <span class="muted not-offered">"(" {t::flaws::not_offered_file()} ")"</span>
                            </WithWords>
                        })
                    }}
                </td>
                <td class="num" data-label=t::product::column_size() title=exact>
                    {flawed(&file.flaws, Field::Size).map_or_else(|| Either::Left(size), Either::Right)}
                </td>
                <td class="md5" data-label="MD5">
                    {match file.md5 {
                        Some(md5) => {
                            view! {
                                <code>{md5}</code>
                                " "
                                <button type="button" class="copy-button">
                                    {move || {
                                        if copied.get() == Some(index) { t::product::copied() } else { t::product::copy() }
                                    }}
                                    <span class="visually-hidden">
                                        " " {t::product::the_md5_of(&file.file_name)}
                                    </span>
                                </button>
                            }
                                .into_any()
                        }
                        None => match flawed(&file.flaws, Field::Md5) {
                            Some(flaw) => flaw.into_any(),
                            None => view! { <span class="muted">{t::product::md5_not_given()}</span> }.into_any(),
                        },
                    }}
                </td>
            </tr>
        }
    };

    let unknown = if total.unsized_files > 0 {
        t::product::unknown_size(total.unsized_files)
    } else {
        String::new()
    };
    view! {
        <ListingFlaws notes />
        {move || {
            status
                .get()
                .map(|message| {
                    view! {
                        <p class="download-status" role="status">
                            {message}
                        </p>
                    }
                })
        }}
        <TableFilter
            id="files-filter"
            label=t::product::filter_files()
            placeholder=t::product::filter_files_placeholder()
            filter
            shown=count
            total=total.files
            show_all=windowed.show_all
        />
        <div class="table-scroll">
            // The header, the rows and the totals line count as rows.
            <table
                class="data-table files-table"
                class:windowed=move || { count.get() > SHOW_WHOLE_UP_TO }
                aria-rowcount=move || count.get() + 2
            >
                <thead>
                    <tr aria-rowindex="1">
                        <SortHeader column=Column::Name label=t::product::column_file() order />
                        <SortHeader column=Column::Size label=t::product::column_size() order class="num" />
                        <th scope="col">"MD5"</th>
                    </tr>
                </thead>
                <WindowedBody windowed columns=3 on_click>
                    <For
                        each=move || windowed.rows(shown)
                        key=|pair| *pair
                        children=move |(pos, index)| row(pos, index)
                    />
                </WindowedBody>
                <tfoot>
                    <tr aria-rowindex=move || count.get() + 2>
                        <th scope="row" class="files-total">
                            {t::product::files(total.files)}
                        </th>
                        <td class="num" title=t::product::bytes(total.bytes)>
                            {format_size(total.bytes)}
                        </td>
                        <td class="muted">{unknown}</td>
                    </tr>
                </tfoot>
            </table>
        </div>
    }
}

/// Hands `url` to the browser's own download (no copy of the file in memory).
fn start_download(url: &str, file_name: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(link) = document
        .create_element("a")
        .map(|e| e.unchecked_into::<web_sys::HtmlAnchorElement>())
    {
        link.set_href(url);
        link.set_download(file_name);
        link.click();
    }
}
