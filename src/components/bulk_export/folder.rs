//! "Download to a folder": every listed file streamed into a folder the user picks,
//! several at a time, each one's md5 checked as it arrives. The rules (what goes next,
//! resume, retry, skip) are `explorer_logic::bulk::queue`'s, run by the bulk worker,
//! handed the folder: it fetches, hashes and writes there. The page only steers.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use explorer_logic::bulk::export::BulkDownload;
use explorer_logic::bulk::journal::Order;
use explorer_logic::bulk::queue::Mode;
use explorer_logic::bulk::runs::RunKind;
use explorer_logic::bulk::worker::{Command, Reply};
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::PackageVersion;
use super::RunButton;
use super::progress::FileLines;
use super::run::{QueueRun, RunCore, RunNotices, RunTotal, control, listen, shown};
use super::worker::{Beside, Starting};
use crate::fs_access::pick_folder;

/// One run of the download: the queue, and the worker writing into the folder.
struct Run {
    core: RunCore,
    /// The report of a finished run was written (or is being written).
    reported: Cell<bool>,
}

impl QueueRun for Run {
    fn core(&self) -> &RunCore {
        &self.core
    }

    /// Once the queue is done, the report goes into the folder beside the files.
    fn applied(self: &Rc<Self>) {
        let finished = self.queue().borrow().is_finished();
        if finished && self.stopped().borrow().is_none() && !self.reported.replace(true) {
            let text = self.queue().borrow().report();
            self.worker().send(&Command::Report { text });
        }
    }

    fn heard(self: &Rc<Self>, reply: Reply) {
        if let Reply::Reported(Err(error)) = reply {
            *self.stopped().borrow_mut() = Some(t::bulk::report_write_failed(error));
        }
        self.redraw(true);
    }

    /// Done once the report is in the folder too.
    fn is_over(&self) -> bool {
        self.queue().borrow().is_finished()
            && (self.reported.get() || self.stopped().borrow().is_some())
    }

    fn cancel_run(self: &Rc<Self>) {
        self.order(Order::Cancel);
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
    let (button, run) = RunButton::new::<Run>(RunKind::Folder, files, title, package, parallel);
    let notice = RwSignal::new(None::<String>);

    let start = move |_| {
        // Read now: the folder is picked and listed first.
        let start = button.start();
        // The worker loads while the person picks the folder (dropped if they cancel).
        let starting = Starting::folder();
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
            let setup = start.setup();
            // The worker looks at what the folder holds before it is ready.
            let set_up = Command::Folder { run: setup.clone() };
            let (worker, replies) = match starting.set_up(&set_up, Beside::Folder(folder)).await {
                Ok(started) => started,
                Err(why) => {
                    notice.set(Some(t::bulk::folder_open_failed(why)));
                    return;
                }
            };
            let new = Rc::new(Run {
                core: start.core(&setup, Mode::Folder, worker),
                reported: Cell::new(false),
            });
            listen(Rc::downgrade(&new), replies);
            start.keep(Rc::clone(&new));
            new.order(Order::Start);
        });
    };
    // Reads the run's state, redrawn whenever it changes.
    let running = move || shown(run, |r| !r.queue().borrow().is_finished());

    view! {
        <div class="folder-download">
            <div class="folder-controls">
                <button type="button" class="button" disabled=running on:click=start>
                    {t::bulk::folder_start()}
                </button>
                <Show when=running>
                    {move || if shown(run, |r| r.queue().borrow().is_paused()) {
                        view! {
                            <button type="button" class="button secondary" on:click=move |_| control(run, |run| run.order(Order::Resume))>{t::bulk::resume()}</button>
                        }.into_any()
                    } else {
                        view! {
                            <button type="button" class="button secondary" on:click=move |_| control(run, |run| run.order(Order::Pause))>{t::bulk::pause()}</button>
                        }.into_any()
                    }}
                    <button type="button" class="button secondary" on:click=move |_| control(run, |run| {
                        run.cancel_run();
                    })>{t::bulk::cancel()}</button>
                </Show>
            </div>
            <RunNotices run hint=t::bulk::folder_hint() notice instead=t::bulk::folder_instead() />
            <Show when=move || shown(run, |_| true)>
                <RunTotal run />
                {move || run.with(|r| r.as_ref().map(|r| view! { <FileLines lines=Arc::clone(&r.progress().lines) /> }))}
                <Show when=move || shown(run, |r| r.reported.get() && r.queue().borrow().is_finished())>
                    <div class="bulk-summary" role="status">
                        <p>{move || shown(run, |r| r.queue().borrow().summary_text())}</p>
                        <Show when=move || shown(run, |r| r.queue().borrow().summary().failed > 0)>
                            <button type="button" class="button" on:click=move |_| control(run, |run| {
                                run.reported.set(false);
                                run.order(Order::RetryFailed);
                            })>{t::bulk::retry_failed()}</button>
                        </Show>
                    </div>
                </Show>
            </Show>
        </div>
    }
    .into_any()
}
