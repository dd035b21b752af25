//! The merged list of a product's downloads: one row per file, with its checksum and a
//! link that redirects to the data.

use download_api::ProductDownload;
use explorer_logic::format_size;
use leptos::prelude::*;

use crate::components::CopyButton;

/// A table of downloads. Rows are keyed by their URL, so a refreshed list only
/// touches the rows that changed.
#[component]
pub fn DownloadsTable(
    /// The files to list.
    #[prop(into)]
    downloads: Signal<Vec<ProductDownload>>,
) -> impl IntoView {
    view! {
        <div class="table-scroll">
            <table class="downloads-table">
                <thead>
                    <tr>
                        <th scope="col">"File"</th>
                        <th scope="col">"Area"</th>
                        <th scope="col">"Format"</th>
                        <th scope="col" class="num">"Size"</th>
                        <th scope="col">"MD5"</th>
                        <th scope="col"><span class="visually-hidden">"Download"</span></th>
                    </tr>
                </thead>
                <tbody>
                    <For
                        each=move || downloads.get()
                        key=|download| download.url.clone()
                        children=|download| view! { <DownloadRow download /> }
                    />
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn DownloadRow(download: ProductDownload) -> impl IntoView {
    let ProductDownload {
        url,
        file_name,
        size,
        md5,
        area,
        format,
        subformat,
    } = download;
    let md5_cell = md5.map(|md5| {
        let title = format!("Copy the MD5 of {file_name}");
        view! {
            <code class="md5" title=md5.clone()>{short_md5(&md5)}</code>
            <CopyButton text=md5 label="Copy" title />
        }
    });
    let link_label = format!("Download {file_name}");
    view! {
        <tr data-file=file_name.clone()>
            <td class="file-name">{file_name.clone()}</td>
            <td><span class="area-tag">{area.code().to_owned()}</span></td>
            <td class="format-cell">
                {format}
                {subformat.map(|sub| view! { <span class="subformat">{sub}</span> })}
            </td>
            <td class="num" data-bytes=size.map(|s| s.to_string())>
                {size.map(format_size).unwrap_or_else(|| "—".to_owned())}
            </td>
            <td class="md5-cell">{md5_cell}</td>
            <td>
                <a class="button small secondary" href=url download=file_name.clone() aria-label=link_label>
                    "Download"
                </a>
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
