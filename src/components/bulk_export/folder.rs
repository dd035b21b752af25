//! "Download to a folder": every listed file streamed into a folder the user picks,
//! several at a time, each one's md5 checked as it arrives. The rules (what goes next,
//! resume, retry, skip) are `explorer_logic::bulk::queue`'s; this only does the I/O.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::Arc;

use explorer_logic::bulk::export::BulkDownload;
use explorer_logic::bulk::queue::{Event, Failure, FileId, ListedFile, Queue, REPORT_NAME};
use explorer_logic::bulk::runs::RunKind;
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos::task::spawn_local;
use md5::{Digest, Md5};
use web_sys::{AbortSignal, FileSystemDirectoryHandle};

use super::PackageVersion;
use super::links::Links;
use super::progress::{FileLines, Progress};
use super::run::{
    CurrentRun, QueueRun, RunNotices, RunTotal, go_on_signed_in, read, steer, total_text,
};
use super::transfer::{Transfers, failed, open};
use super::{keep, panel_key, panel_run};
use crate::api::ServiceContext;
use crate::auth::use_session;
use crate::downloads::{DownloadRun, Downloads};
use crate::fs_access::{
    Chunks, Pace, Writer, existing_file, files_in, hash_blob, md5_of, pick_folder, sub_folder,
    write_text,
};

/// One run of the download: the queue, the folder and the transfers under way.
struct Run {
    queue: RefCell<Queue>,
    folder: FileSystemDirectoryHandle,
    /// The paths the folder may hold a file under (`a.zip`, `OpenTOID/su.zip` in a
    /// basket's sub-folder): what it held when the run began, and every file the run
    /// has written since. A file not named here is absent, so
    /// it is not looked for one by one (a lookup per file was a fifth of the time of
    /// 200 small files). `None` when the folder could not be listed.
    present: RefCell<Option<BTreeSet<String>>>,
    links: Links,
    /// The running transfers (pause and cancel stop them).
    transfers: Transfers,
    /// Why the run stopped before starting, for the user.
    stopped: RefCell<Option<String>>,
    /// The report of a finished run was written (or is being written).
    reported: Cell<bool>,
    progress: Progress,
}

impl QueueRun for Run {
    fn queue(&self) -> &RefCell<Queue> {
        &self.queue
    }

    fn progress(&self) -> &Progress {
        &self.progress
    }

    fn links(&self) -> &Links {
        &self.links
    }

    fn stopped(&self) -> &RefCell<Option<String>> {
        &self.stopped
    }

    /// What the folder holds under the file's name.
    async fn inspect(self: Rc<Self>, file: FileId) -> Event {
        let name = self.queue.borrow().file(file).name.clone();
        let absent = self
            .present
            .borrow()
            .as_ref()
            .is_some_and(|present| !present.contains(&name));
        if absent {
            return Event::Existing {
                file,
                size: 0,
                md5: None,
            };
        }
        let existing = match self.existing(file).await {
            Ok(existing) => existing,
            Err(error) => {
                let reason = t::bulk::folder_look_failed(error);
                return failed(file, Failure::Other(reason));
            }
        };
        let Some(existing) = existing else {
            return Event::Existing {
                file,
                size: 0,
                md5: None,
            };
        };
        let size = existing.size() as u64;
        let md5 = if self.queue.borrow().wants_md5_of_existing(file, size) {
            md5_of(&existing, |_| ()).await.ok()
        } else {
            None
        };
        Event::Existing { file, size, md5 }
    }

    async fn fetch(self: Rc<Self>, file: FileId, from: u64) -> Event {
        let signal = match self.transfers.begin(file) {
            Ok(signal) => signal,
            Err(event) => return event,
        };
        let event = self.transfer(file, from, &signal).await;
        self.transfers.end(file);
        event
    }

    /// Once the queue is done, the report goes into the folder beside the files.
    fn applied(self: &Rc<Self>) {
        let finished = self.queue.borrow().is_finished();
        if finished && self.stopped.borrow().is_none() && !self.reported.replace(true) {
            let run = Rc::clone(self);
            spawn_local(async move {
                let report = run.queue.borrow().report();
                if let Err(error) = write_text(&run.folder, REPORT_NAME, &report).await {
                    *run.stopped.borrow_mut() = Some(t::bulk::report_write_failed(error));
                }
                run.redraw(true);
            });
        }
    }
}

impl Run {
    /// The folder `file` goes into: the chosen one, or its sub-folder there (made
    /// when `create`; `None` when it is not there and not made).
    async fn folder_of(
        &self,
        file: FileId,
        create: bool,
    ) -> Result<Option<FileSystemDirectoryHandle>, String> {
        let sub = self.queue.borrow().file(file).folder().map(str::to_owned);
        match sub {
            Some(sub) => sub_folder(&self.folder, &sub, create).await,
            None => Ok(Some(self.folder.clone())),
        }
    }

    /// The file the folder holds where `file` goes, if any.
    async fn existing(&self, file: FileId) -> Result<Option<web_sys::File>, String> {
        let name = self.queue.borrow().file(file).file_name().to_owned();
        match self.folder_of(file, false).await? {
            Some(folder) => existing_file(&folder, &name).await,
            None => Ok(None),
        }
    }

    /// Pause or cancel: the running transfers stop, keeping what they wrote.
    fn interrupt_all(&self) {
        self.transfers.stop(|_| true);
    }

    /// Streams the file from byte `from` into the folder, hashing the bytes already
    /// there first, so the md5 covers the whole file.
    async fn transfer(self: &Rc<Self>, file: FileId, mut from: u64, signal: &AbortSignal) -> Event {
        let name = self.queue.borrow().file(file).name.clone();
        let mut hasher = Md5::new();
        if from > 0 {
            match self.existing(file).await {
                Ok(Some(existing)) if existing.size() as u64 >= from => {
                    let kept = existing.slice_with_f64_and_f64(0.0, from as f64);
                    if let Err(error) = match kept {
                        Ok(kept) => hash_blob(&kept, &mut hasher, |_| ()).await,
                        Err(_) => Err(t::bulk::browser_refused().into()),
                    } {
                        let reason = t::bulk::folder_read_failed(error, &name);
                        return failed(file, Failure::Other(reason));
                    }
                }
                _ => from = 0,
            }
        }
        if signal.aborted() {
            return Event::Interrupted { file };
        }
        let (response, start) = match open(&self.links, file, from, signal).await {
            Ok(opened) => opened,
            Err(event) => return event,
        };
        if start == 0 && from > 0 {
            hasher = Md5::new(); // the service sent it all: start over
        }
        // Only now, with the answer in hand, is anything created in the folder.
        self.handle(Event::Started { file, from: start });
        let expected = response
            .headers()
            .get("content-length")
            .and_then(|length| length.parse().ok());
        if let Some(present) = self.present.borrow_mut().as_mut() {
            present.insert(name.clone());
        }
        let opened = match self.folder_of(file, true).await {
            Ok(Some(folder)) => {
                let file_name = self.queue.borrow().file(file).file_name().to_owned();
                Writer::open(&folder, &file_name, start, expected).await
            }
            Ok(None) => Err(t::bulk::browser_refused().to_owned()),
            Err(error) => Err(error),
        };
        let mut writer = match opened {
            Ok(writer) => writer,
            Err(error) => {
                let reason = t::bulk::folder_write_failed(error, &name);
                return failed(file, Failure::Other(reason));
            }
        };
        let Some(body) = response.body() else {
            return finish(file, writer.close().await, hasher);
        };
        let mut chunks = Chunks::of(&body);
        let mut pace = Pace::default();
        let broke_off = loop {
            match chunks.next(&mut hasher).await {
                Ok(Some(chunk)) => {
                    if let Err(error) = writer.write(&chunk).await {
                        chunks.cancel();
                        let reason = t::bulk::folder_write_failed(error, &name);
                        break Some(failed(file, Failure::Other(reason)));
                    }
                    let bytes = u64::from(chunk.length());
                    self.queue.borrow_mut().handle(Event::Chunk { file, bytes });
                    self.redraw(false);
                    pace.breathe().await;
                }
                Ok(None) => break None,
                Err(_) if signal.aborted() => break Some(Event::Interrupted { file }),
                Err(_) => break Some(failed(file, Failure::Dropped)),
            }
        };
        let closed = writer.close().await;
        match broke_off {
            Some(event) => event,
            None => finish(file, closed, hasher),
        }
    }
}

/// The paths of the files `folder` holds where the listed files go: directly in it,
/// and in each of their sub-folders; `None` when it could not be listed.
async fn present_in(
    folder: &FileSystemDirectoryHandle,
    listed: &[ListedFile],
) -> Option<BTreeSet<String>> {
    let mut present: BTreeSet<String> = files_in(folder)
        .await
        .ok()?
        .iter()
        .map(web_sys::File::name)
        .collect();
    let subs: BTreeSet<&str> = listed.iter().filter_map(ListedFile::folder).collect();
    for sub in subs {
        if let Some(inside) = sub_folder(folder, sub, false).await.ok()? {
            let names = files_in(&inside).await.ok()?;
            present.extend(names.iter().map(|file| format!("{sub}/{}", file.name())));
        }
    }
    Some(present)
}

fn finish(file: FileId, closed: Result<(), String>, hasher: Md5) -> Event {
    match closed {
        Ok(()) => Event::Finished {
            file,
            md5: format!("{:x}", hasher.finalize()),
        },
        Err(error) => failed(file, Failure::Other(t::bulk::folder_save_failed(error))),
    }
}

/// What the app needs of a folder run, to keep it going from page to page.
impl DownloadRun for Run {
    fn changed(&self) -> Trigger {
        self.progress.changed
    }

    fn total_text(&self) -> String {
        total_text(self)
    }

    /// Done once the report is in the folder too.
    fn is_finished(&self) -> bool {
        self.queue.borrow().is_finished()
            && (self.reported.get() || self.stopped.borrow().is_some())
    }

    fn cancel(self: Rc<Self>) {
        let actions = self.queue.borrow_mut().cancel();
        self.interrupt_all();
        self.apply(actions);
    }

    fn signed_in(self: Rc<Self>) {
        go_on_signed_in(&self);
    }
}

/// The "Download to a folder" button, its progress and its summary.
#[component]
pub fn FolderDownload(
    files: Signal<Vec<BulkDownload>>,
    /// What the files are: with the page, which panel this is (`RunKey`).
    title: Signal<String>,
    package: Option<PackageVersion>,
    /// Files fetched at once, set by the panel.
    parallel: RwSignal<usize>,
) -> impl IntoView {
    let service = expect_context::<ServiceContext>();
    let session = use_session();
    let store = Downloads::get();
    let panel = panel_key(title, RunKind::Folder);
    let run: CurrentRun<Run> = panel_run(&store, panel);
    let notice = RwSignal::new(None::<String>);
    let package = StoredValue::new(package);
    steer(run, parallel);

    let start = move |_| {
        let store = store.clone();
        // All the panel says is read now: the person may leave it while the folder is
        // picked and listed, and the run goes on without it.
        let downloads = files.get_untracked();
        let (package, parallel, panel) = (
            package.get_value(),
            parallel.get_untracked(),
            panel.get_untracked(),
        );
        spawn_local(async move {
            let folder = match pick_folder().await {
                Ok(Some(folder)) => folder,
                Ok(None) => return,
                Err(error) => {
                    notice.set(Some(t::bulk::folder_open_failed(error)));
                    return;
                }
            };
            notice.set(None);
            let listed = ListedFile::all_of(&downloads);
            let present = present_in(&folder, &listed).await;
            let queue = Queue::new(listed, parallel);
            let progress = Progress::of(&queue, store.trigger());
            let new = Rc::new(Run {
                queue: RefCell::new(queue),
                folder,
                present: RefCell::new(present),
                links: Links::new(&downloads, package, service, session),
                transfers: Transfers::default(),
                stopped: RefCell::default(),
                reported: Cell::new(false),
                progress,
            });
            keep(&store, panel, Rc::clone(&new));
            let actions = new.queue.borrow_mut().start();
            new.apply(actions);
        });
    };
    // Reads the run's state, redrawn whenever it changes.
    let with_run = move |text: fn(&Run) -> String| read(run, text).unwrap_or_default();
    let is = move |test: fn(&Run) -> bool| read(run, test).unwrap_or(false);
    let running = move || is(|r| !r.queue.borrow().is_finished());
    let control = move |what: fn(&Rc<Run>)| {
        if let Some(run) = run.get_untracked() {
            what(&run);
        }
    };

    view! {
        <div class="folder-download">
            <div class="folder-controls">
                <button type="button" class="button" disabled=running on:click=start>
                    {t::bulk::folder_start()}
                </button>
                <Show when=running>
                    {move || if is(|r| r.queue.borrow().is_paused()) {
                        view! {
                            <button type="button" class="button secondary" on:click=move |_| control(|run| {
                                let actions = run.queue.borrow_mut().resume();
                                run.apply(actions);
                            })>{t::bulk::resume()}</button>
                        }.into_any()
                    } else {
                        view! {
                            <button type="button" class="button secondary" on:click=move |_| control(|run| {
                                run.queue.borrow_mut().pause();
                                run.interrupt_all();
                                run.redraw(true);
                            })>{t::bulk::pause()}</button>
                        }.into_any()
                    }}
                    <button type="button" class="button secondary" on:click=move |_| control(|run| {
                        Rc::clone(run).cancel();
                    })>{t::bulk::cancel()}</button>
                </Show>
            </div>
            <p class="muted folder-hint">
                {t::bulk::folder_hint()}
            </p>
            {move || notice.get().map(|n| view! { <p class="notice" role="alert">{n}</p> })}
            <RunNotices run instead=t::bulk::folder_instead() />
            <Show when=move || is(|_| true)>
                <RunTotal run />
                {move || run.with(|r| r.as_ref().map(|r| view! { <FileLines lines=Arc::clone(&r.progress.lines) /> }))}
                <Show when=move || is(|r| r.reported.get() && r.queue.borrow().is_finished())>
                    <div class="bulk-summary" role="status">
                        <p>{move || with_run(|r| r.queue.borrow().summary_text())}</p>
                        <Show when=move || is(|r| r.queue.borrow().summary().failed > 0)>
                            <button type="button" class="button" on:click=move |_| control(|run| {
                                run.reported.set(false);
                                let actions = run.queue.borrow_mut().retry_failed();
                                run.apply(actions);
                            })>{t::bulk::retry_failed()}</button>
                        </Show>
                    </div>
                </Show>
            </Show>
        </div>
    }
    .into_any()
}
