//! Everything for fetching all listed files at once, shared by the product page (the
//! current selection) and a data-package version page: download into a folder
//! (resumable, checksum-verified), verify files already on disk, and what works in any
//! browser: a script, a URL list, an md5 checklist and the links one by one.

mod folder;
mod links;
mod progress;
mod run;
mod verify;
mod worker;
mod zip_download;
mod zip_saver;

use std::rc::Rc;

use download_api::ProductDownload;
use explorer_logic::bulk::export::{
    BulkDownload, file_stem, md5_checklist, shell_script, url_list,
};
use explorer_logic::bulk::file::ListedFile;
use explorer_logic::bulk::queue::Mode;
use explorer_logic::bulk::runs::{RunKey, RunKind};
use explorer_logic::bulk::worker::Setup;
use explorer_logic::text::t;
use leptos::prelude::*;

use crate::auth::{Session, use_session};
use crate::components::CopyButton;
use crate::components::save_file::save_text_file;
use crate::downloads::{DownloadRun, Downloads};
use crate::fs_access::can_pick_folder;
use crate::navigation::{Route, use_current_path};
use crate::words::WithWords;
use folder::FolderDownload;
use links::Links;
use run::{CurrentRun, QueueRun, RunCore, steer};
use verify::VerifyFiles;
use worker::BulkWorker;
use zip_download::ZipDownload;
use zip_saver::can_stream_zip;

/// Files fetched at once unless the person says otherwise.
const DEFAULT_PARALLEL: usize = 3;

/// What this browser can do with the files, in one sentence.
fn abilities(folder: bool, zip: bool) -> &'static str {
    match (folder, zip) {
        (true, true) => t::bulk::abilities_both(),
        (false, true) => t::bulk::abilities_zip(),
        (true, false) => t::bulk::abilities_folder(),
        (false, false) => t::bulk::abilities_neither(),
    }
}

/// The data-package version the files belong to: their addresses are then asked for
/// with the signed-in credentials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageVersion {
    pub package_id: String,
    /// The version's real id (never `latest`).
    pub version_id: String,
}

/// A product's listed downloads as plain downloads, in the chosen folder itself.
pub fn as_downloads(list: &[ProductDownload]) -> Vec<BulkDownload> {
    list.iter().map(BulkDownload::from).collect()
}

/// Which panel's run a panel of `kind` shows ([`RunKey`]), and the page it is on,
/// address and all; `None` off the pages with a panel.
type Panel = Memo<Option<(RunKey, Route)>>;

/// A run button of a panel ("Download to a folder", "Download as .zip"): which panel
/// it is, and what a run it starts needs of the panel and the page.
#[derive(Clone)]
struct RunButton {
    panel: Panel,
    files: Signal<Vec<BulkDownload>>,
    package: StoredValue<Option<PackageVersion>>,
    parallel: RwSignal<usize>,
    store: Downloads,
    session: Session,
}

impl RunButton {
    /// The button of `kind` of the panel of `files` titled `title`, and the panel's run
    /// of that kind, kept in step with the panel's "Files at once" (`parallel`). The
    /// app keeps the run, so it is still there after the person has been to other pages.
    fn new<R: QueueRun>(
        kind: RunKind,
        files: Signal<Vec<BulkDownload>>,
        title: Signal<String>,
        package: Option<PackageVersion>,
        parallel: RwSignal<usize>,
    ) -> (RunButton, CurrentRun<R>) {
        let here = use_current_path();
        let panel = Memo::new(move |_| {
            let route = Route::parse(&here.read())?;
            let key = title.with(|title| RunKey::new(&route, title, kind))?;
            Some((key, route))
        });
        let store = Downloads::get();
        let run = {
            let store = store.clone();
            Signal::derive_local(move || {
                panel.with(|panel| panel.as_ref().and_then(|(key, _)| store.find(key)))
            })
        };
        steer(run, parallel);
        let button = RunButton {
            panel,
            files,
            package: StoredValue::new(package),
            parallel,
            store,
            session: use_session(),
        };
        (button, run)
    }

    /// All the panel says, read now for a run starting now: the person may leave the
    /// panel while it starts, and the run goes on without it.
    fn start(&self) -> Start {
        Start {
            downloads: self.files.get_untracked(),
            parallel: self.parallel.get_untracked(),
            panel: self.panel.get_untracked(),
            package: self.package.get_value(),
            store: self.store.clone(),
            session: self.session,
        }
    }
}

/// What a run starts with ([`RunButton::start`]).
struct Start {
    downloads: Vec<BulkDownload>,
    /// Files fetched at once.
    parallel: usize,
    panel: Option<(RunKey, Route)>,
    package: Option<PackageVersion>,
    store: Downloads,
    session: Session,
}

impl Start {
    /// The run as the worker is handed it, and the page's copy of its queue starts.
    fn setup(&self) -> Setup {
        Setup {
            files: ListedFile::all_of(&self.downloads),
            parallel: self.parallel,
            addresses: Links::lasting(&self.downloads, self.package.as_ref()),
        }
    }

    /// The core of the run of `setup` writing as `mode`, which `worker` runs: the
    /// page's copy of the queue starts as the worker's does.
    fn core(&self, setup: &Setup, mode: Mode, worker: BulkWorker) -> RunCore {
        let package = self.package.clone();
        let links = Links::new(&self.downloads, package, self.session);
        RunCore::new(setup.queue(mode), links, worker, self.store.trigger())
    }

    /// Gives the app `run`, the new run of the panel, to keep from page to page.
    fn keep<R: DownloadRun>(&self, run: Rc<R>) {
        if let Some((key, page)) = self.panel.clone() {
            self.store.add(key, page, run);
        }
    }
}

/// Bulk download of the listed `files`, every way this app offers.
#[component]
pub fn BulkExport(
    /// The listed files, each with the sub-folder it goes into (a basket's product).
    #[prop(into)]
    files: Signal<Vec<BulkDownload>>,
    /// What they are, e.g. "OS Open Map - Local (2024-10), SU, GeoPackage"; also names
    /// the saved script and lists.
    #[prop(into)]
    title: Signal<String>,
    /// Set for a data-package version's files.
    #[prop(optional)]
    package: Option<PackageVersion>,
) -> impl IntoView {
    let package = StoredValue::new(package);
    // Only files with a usable address are offered (the page's note says which are
    // not), each under the name every way of downloading saves it as.
    let offered =
        Memo::new(move |_| files.with(|files| BulkDownload::offered(files.iter().cloned())));
    let files: Signal<Vec<BulkDownload>> = offered.into();
    // Read again once the notes' words (`t::flaws`) are here, so not a memo.
    let renames = Signal::derive(move || files.with(|files| BulkDownload::rename_notes(files)));
    let save = move |kind: &'static str| {
        let title = title.get_untracked();
        let stem = file_stem(&title);
        files.with_untracked(|files| match kind {
            "script" => save_text_file(
                &format!("{stem}.sh"),
                "text/x-shellscript",
                &shell_script(&title, files),
            ),
            "urls" => save_text_file(&format!("{stem}-urls.txt"), "text/plain", &url_list(files)),
            _ => save_text_file(&format!("{stem}.md5"), "text/plain", &md5_checklist(files)),
        })
    };
    let list_text = Signal::derive(move || files.with(|files| url_list(files)));
    let count = move || files.with(Vec::len);
    let links_open = RwSignal::new(false);
    // Both carry their bytes in a web worker: without one, neither is offered.
    let workers = worker::available();
    let (folder, zip) = (workers && can_pick_folder(), workers && can_stream_zip());
    // One setting for both ways of downloading in the browser.
    let parallel = RwSignal::new(DEFAULT_PARALLEL);
    view! {
        <Show when=move || { count() > 0 }>
            <section class="bulk" aria-label=t::bulk::panel_label()>
                <p class="bulk-abilities">{abilities(folder, zip)}</p>
                <Show when=move || renames.with(|renames| !renames.is_empty())>
                    <WithWords>
                        {move || {
                            let lines = renames.get();
                            view! {
                                <div class="bulk-renames" role="note">
                                    <p>{t::flaws::renamed_heading(lines.len())}</p>
                                    <ul>{lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
                                </div>
                            }
                        }}
                    </WithWords>
                </Show>
                {(folder || zip).then(|| view! {
                    <label class="parallel">
                        {t::bulk::parallel()} " "
                        <input
                            type="number"
                            min="1"
                            max="8"
                            prop:value=move || parallel.get().to_string()
                            on:change=move |ev| {
                                let n = event_target_value(&ev).parse().unwrap_or(DEFAULT_PARALLEL);
                                parallel.set(n.clamp(1, 8));
                            }
                        />
                    </label>
                })}
                {folder.then(|| view! { <FolderDownload files title package=package.get_value() parallel /> })}
                {zip.then(|| view! { <ZipDownload files title package=package.get_value() parallel /> })}
                <div class="bulk-export" role="group" aria-label=t::bulk::other_ways_label()>
                    <span class="bulk-label">{t::bulk::other_ways()}</span>
                    <button type="button" class="button secondary" on:click=move |_| save("script")>
                        {t::bulk::script()}
                    </button>
                    <button type="button" class="button secondary" on:click=move |_| save("urls")>
                        {t::bulk::url_list()}
                    </button>
                    <button type="button" class="button secondary" on:click=move |_| save("md5")>
                        {t::bulk::md5_checklist()}
                    </button>
                    <CopyButton text=list_text label=t::bulk::copy_urls() title=t::bulk::copy_urls_title() />
                    {package
                        .with_value(Option::is_some)
                        .then(|| view! { <span class="muted">{t::bulk::links_expire()}</span> })}
                </div>
                // The links are drawn only while open: thousands of them nobody sees
                // would cost the page most of its time.
                <details
                    class="bulk-links"
                    on:toggle=move |ev| {
                        links_open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"))
                    }
                >
                    <summary>{move || t::bulk::one_by_one(count())}</summary>
                    <ul>
                        <Show when=move || links_open.get()>
                            <For
                                each=move || files.get()
                                key=|file| file.download.url.clone()
                                children=|file| {
                                    let file = file.download;
                                    view! {
                                        <li><a href=file.url download=file.file_name.clone()>{file.file_name.clone()}</a></li>
                                    }
                                }
                            />
                        </Show>
                    </ul>
                </details>
                <VerifyFiles files />
            </section>
        </Show>
    }
}
