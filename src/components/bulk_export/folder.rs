//! "Download to a folder": every listed file streamed into a folder the user picks,
//! several at a time, each one's md5 checked as it arrives. The rules (what goes next,
//! resume, retry, skip) are `explorer_logic::bulk::queue`'s; the bytes are the bulk
//! worker's, handed the folder: it fetches, hashes and writes there. The page only
//! steers.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use explorer_logic::bulk::export::BulkDownload;
use explorer_logic::bulk::file::ListedFile;
use explorer_logic::bulk::queue::Queue;
use explorer_logic::bulk::worker::{Command, Reply};
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::PackageVersion;
use super::links::Links;
use super::progress::{FileLines, Progress};
use super::run::{QueueRun, RunNotices, RunTotal, listen, steer};
use super::worker::BulkWorker;
use crate::api::ServiceContext;
use crate::auth::use_session;
use crate::fs_access::pick_folder;

/// One run of the download: the queue, and the worker writing into the folder.
struct Run {
    queue: RefCell<Queue>,
    links: Links,
    worker: BulkWorker,
    /// Why the run stopped before it ended, for the user.
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

    fn worker(&self) -> &BulkWorker {
        &self.worker
    }

    fn stopped(&self) -> &RefCell<Option<String>> {
        &self.stopped
    }

    /// Once the queue is done, the report goes into the folder beside the files.
    fn applied(self: &Rc<Self>) {
        let finished = self.queue.borrow().is_finished();
        if finished && self.stopped.borrow().is_none() && !self.reported.replace(true) {
            let text = self.queue.borrow().report();
            self.worker.send(&Command::Report { text });
        }
    }

    fn heard(self: &Rc<Self>, reply: Reply) {
        if let Reply::Reported(Err(error)) = reply {
            *self.stopped.borrow_mut() = Some(t::bulk::report_write_failed(error));
        }
        self.redraw(true);
    }
}

/// The "Download to a folder" button, its progress and its summary.
#[component]
pub fn FolderDownload(
    files: Signal<Vec<BulkDownload>>,
    package: Option<PackageVersion>,
    /// Files fetched at once, set by the panel.
    parallel: RwSignal<usize>,
) -> impl IntoView {
    let service = expect_context::<ServiceContext>();
    let session = use_session();
    let run = RwSignal::new_local(None::<Rc<Run>>);
    let changed = Trigger::new();
    let notice = RwSignal::new(None::<String>);
    let package = StoredValue::new(package);
    on_cleanup(move || {
        if let Some(run) = run.try_get_untracked().flatten() {
            run.interrupt_all();
        }
    });
    steer(run, parallel, service);

    let start = move |_| {
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
            let downloads = files.get_untracked();
            let listed = ListedFile::all_of(&downloads);
            // The worker looks at what the folder holds before it is ready.
            let set_up = Command::Folder {
                files: listed.clone(),
            };
            let (worker, replies) = match BulkWorker::start(&set_up, &folder).await {
                Ok(started) => started,
                Err(why) => {
                    notice.set(Some(t::bulk::folder_open_failed(why)));
                    return;
                }
            };
            let queue = Queue::new(listed, parallel.get_untracked());
            let progress = Progress::of(&queue, changed);
            let new = Rc::new(Run {
                queue: RefCell::new(queue),
                links: Links::new(&downloads, package.get_value(), service, session),
                worker,
                stopped: RefCell::default(),
                reported: Cell::new(false),
                progress,
            });
            listen(Rc::downgrade(&new), replies);
            run.set(Some(Rc::clone(&new)));
            let actions = new.queue.borrow_mut().start();
            new.apply(actions);
        });
    };
    // Reads the run's state, redrawn whenever it changes.
    let with_run = move |read: &dyn Fn(&Run) -> String| {
        changed.track();
        run.with(|r| r.as_deref().map(read).unwrap_or_default())
    };
    let is = move |test: fn(&Run) -> bool| {
        changed.track();
        run.with(|r| r.as_deref().is_some_and(test))
    };
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
                        let actions = run.queue.borrow_mut().cancel();
                        run.worker.send(&Command::Cancel);
                        run.apply(actions);
                    })>{t::bulk::cancel()}</button>
                </Show>
            </div>
            <p class="muted folder-hint">
                {t::bulk::folder_hint()}
            </p>
            {move || notice.get().map(|n| view! { <p class="notice" role="alert">{n}</p> })}
            <RunNotices run changed instead=t::bulk::folder_instead() />
            <Show when=move || is(|_| true)>
                <RunTotal run changed />
                {move || run.with(|r| r.as_ref().map(|r| view! { <FileLines lines=Arc::clone(&r.progress.lines) /> }))}
                <Show when=move || is(|r| r.reported.get() && r.queue.borrow().is_finished())>
                    <div class="bulk-summary" role="status">
                        <p>{move || with_run(&|r| r.queue.borrow().summary_text())}</p>
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
