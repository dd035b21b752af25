use download_api::Download;
use explorer_logic::{Totals, counted, format_size};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::api::use_api;
use crate::auth::use_session;
use crate::components::CopyButton;

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
) -> impl IntoView {
    let api = use_api();
    let session = use_session();
    let listed_at = js_sys::Date::now();
    let status = RwSignal::new(None::<String>);

    let total = Totals::of(files.iter().map(|f| f.size));
    let rows = files
        .into_iter()
        .map(|file| {
            let (package_id, version_id) = (package_id.clone(), version_id.clone());
            let name = file.file_name.clone();
            let on_click = move |ev: leptos::ev::MouseEvent| {
                let stale = js_sys::Date::now() - listed_at > LISTED_LINK_MAX_AGE_MS;
                if !stale {
                    return; // the browser follows the listed link itself
                }
                ev.prevent_default();
                let api = api.get_untracked();
                let (package_id, version_id, name) =
                    (package_id.clone(), version_id.clone(), name.clone());
                status.set(Some(format!("Getting a download address for {name}…")));
                leptos::task::spawn_local(async move {
                    let result = api
                        .direct_download_url(&package_id, &version_id, &name)
                        .await;
                    match session.guard(&api, result) {
                        Ok(url) => {
                            status.set(None);
                            start_download(&url, &name);
                        }
                        Err(error) => {
                            status.set(Some(format!("Could not download {name}: {error}")))
                        }
                    }
                });
            };
            let size = file.size.map(format_size).unwrap_or_else(|| "—".into());
            let exact = file.size.map(|s| format!("{s} bytes")).unwrap_or_default();
            let md5 = file.md5.clone();
            view! {
                <tr>
                    <td class="file-name">
                        <a
                            href=file.url
                            download=file.file_name.clone()
                            class="download-link"
                            on:click=on_click
                        >
                            {file.file_name.clone()}
                        </a>
                    </td>
                    <td class="num" data-label="Size" title=exact>
                        {size}
                    </td>
                    <td class="md5" data-label="MD5">
                        {match md5 {
                            Some(md5) => {
                                let context = format!(" the MD5 of {}", file.file_name);
                                view! {
                                    <code>{md5.clone()}</code>
                                    " "
                                    <CopyButton text=md5 context />
                                }
                                    .into_any()
                            }
                            None => view! { <span class="muted">"not given"</span> }.into_any(),
                        }}
                    </td>
                </tr>
            }
        })
        .collect_view();

    let unknown = if total.unsized_files > 0 {
        format!("{} of unknown size", total.unsized_files)
    } else {
        String::new()
    };
    view! {
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
        <div class="table-scroll">
            <table class="data-table files-table">
                <thead>
                    <tr>
                        <th scope="col">"File"</th>
                        <th scope="col" class="num">"Size"</th>
                        <th scope="col">"MD5"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
                <tfoot>
                    <tr>
                        <th scope="row" class="files-total">
                            {counted(total.files, "file", "files")}
                        </th>
                        <td class="num" title=format!("{} bytes", total.bytes)>
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
