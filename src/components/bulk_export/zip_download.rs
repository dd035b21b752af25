//! "Download as .zip": the listed files streamed, in order, into zips the browser saves
//! with its own download manager, a part at a time, each file's md5 checked as it
//! arrives. The rules (what goes next, resume, retry, fresh links) are
//! `explorer_logic::bulk::queue`'s, the parts and their exact lengths
//! `explorer_logic::bulk::zip`'s; the queue and the bytes are the bulk worker's, which
//! fetches the files and writes the zip into the stream the service worker answers the
//! part's address from. The page only steers.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use explorer_logic::bulk::export::BulkDownload;
use explorer_logic::bulk::export::file_stem;
use explorer_logic::bulk::journal::Order;
use explorer_logic::bulk::queue::{FileState, Mode, Outcome};
use explorer_logic::bulk::runs::RunKind;
use explorer_logic::bulk::worker::{Command, PartOutcome, Reply};
use explorer_logic::bulk::zip::{
    DEFAULT_PART_SIZE, PartButton, Parts, part_file_name, part_size_bytes, plan,
};
use explorer_logic::text::t;
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::PackageVersion;
use super::RunButton;
use super::progress::FileLines;
use super::run::{QueueRun, RunCore, RunNotices, RunTotal, control, listen, shown};
use super::worker::BulkWorker;
use super::zip_saver::ZipSaver;

/// One run: the queue, the parts and the worker writing them.
struct ZipRun {
    core: RunCore,
    stem: String,
    parts: RefCell<Parts>,
    /// The browser's download of the part being saved, kept until it is over.
    saver: RefCell<Option<ZipSaver>>,
    cancelled: Cell<bool>,
}

impl QueueRun for ZipRun {
    fn core(&self) -> &RunCore {
        &self.core
    }

    fn applied(self: &Rc<Self>) {}

    fn heard(self: &Rc<Self>, reply: Reply) {
        if let Reply::Part { part, outcome } = reply {
            self.part_over(part, outcome);
        }
    }

    /// Every part is saved or given up.
    fn is_over(&self) -> bool {
        self.stopped().borrow().is_some()
            || (self.queue().borrow().is_finished() && self.parts.borrow().are_over())
    }

    fn cancel_run(self: &Rc<Self>) {
        self.cancelled.set(true);
        self.order(Order::Cancel);
        self.pump(None);
    }
}

impl ZipRun {
    /// Starts saving the next part waiting, if none is being saved.
    fn pump(self: &Rc<Self>, opened: Option<ZipSaver>) {
        if self.cancelled.get() || self.stopped().borrow().is_some() {
            let why = self.stopped().borrow().clone();
            let why = why.unwrap_or_else(|| t::bulk::cancelled().into());
            self.parts.borrow_mut().give_up_waiting(&why);
            // A zip opened after the run stopped (its first file was refused while the
            // browser opened it) fails in the browser, rather than waiting for bytes.
            if let Some(opened) = opened {
                opened.abort(&why);
            }
            return;
        }
        let next = self.parts.borrow_mut().next(opened.is_some());
        if let (Some(part), Some(opened)) = (next, opened) {
            self.save_part(part, Some(opened));
        }
    }

    /// Starts saving `part` (the person asked for it, or its zip is open already).
    fn save_part(self: &Rc<Self>, part: usize, opened: Option<ZipSaver>) {
        if !self.parts.borrow_mut().start_saving(part) {
            return;
        }
        let run = Rc::clone(self);
        spawn_local(async move {
            let saver = match opened {
                Some(saver) => Ok(saver),
                None => {
                    let count = run.parts.borrow().len();
                    let length = run.parts.borrow().part(part).length;
                    ZipSaver::open(&part_file_name(&run.stem, part, count), length).await
                }
            };
            match saver {
                Ok(saver) => {
                    // The run writes the part into the zip the browser opened.
                    let zip = saver.id().to_owned();
                    run.worker().send(&Command::SavePart { part, zip });
                    *run.saver.borrow_mut() = Some(saver);
                }
                Err(why) => run.part_failed(part, t::bulk::part_no_start(why)),
            }
            run.redraw(true);
        });
        self.redraw(true);
    }

    /// The worker is done with `part`: saved, or why not.
    fn part_over(self: &Rc<Self>, part: usize, outcome: PartOutcome) {
        self.saver.borrow_mut().take();
        let why = match outcome {
            PartOutcome::Saved => {
                self.parts.borrow_mut().saved(part);
                None
            }
            PartOutcome::CancelledInBrowser => Some(t::bulk::cancelled_in_browser().to_owned()),
            PartOutcome::FileGivenUp { file } => {
                let queue = self.queue().borrow();
                Some(match queue.state(file) {
                    FileState::Done(Outcome::Failed(reason)) => {
                        t::bulk::named(&queue.file(file).name, reason)
                    }
                    _ => t::bulk::cancelled().to_owned(),
                })
            }
            PartOutcome::Cancelled => Some(
                self.stopped()
                    .borrow()
                    .clone()
                    .unwrap_or_else(|| t::bulk::cancelled().into()),
            ),
            PartOutcome::Broken(error) => Some(t::bulk::zip_write_failed(error)),
        };
        if let Some(why) = why {
            self.part_failed(part, why);
        }
        self.pump(None);
        self.redraw(true);
    }

    /// A part that cannot be completed: its files are given up (and stop), the rest go on.
    fn part_failed(self: &Rc<Self>, part: usize, why: String) {
        let files = self.parts.borrow().part(part).files.clone();
        let reason = t::bulk::part_failed(part + 1);
        self.parts.borrow_mut().failed(part, why);
        self.order(Order::SetAside { files, reason });
    }

    /// Fetches part `part` again, alone.
    fn retry_part(self: &Rc<Self>, part: usize) {
        let files = self.parts.borrow().part(part).files.clone();
        self.parts.borrow_mut().retry(part);
        self.order(Order::Restart { files });
        // The person's click: the browser lets this download start.
        self.save_part(part, None);
    }

    /// What the run says once over; where the report is only when a part was saved.
    fn summary_text(&self) -> String {
        let queue = self.queue().borrow();
        match self.parts.borrow().any_saved() {
            true => queue.summary_text(),
            false => queue.counts_text(),
        }
    }

    /// Each part's line and what it offers.
    fn part_lines(&self) -> Vec<(usize, String, PartButton)> {
        self.parts.borrow().lines(&self.stem)
    }
}

/// The "Download as .zip" button, its progress and its summary.
#[component]
pub fn ZipDownload(
    files: Signal<Vec<BulkDownload>>,
    title: Signal<String>,
    package: Option<PackageVersion>,
    /// Files fetched at once, set by the panel.
    parallel: RwSignal<usize>,
) -> impl IntoView {
    let (button, run) = RunButton::new::<ZipRun>(RunKind::Zip, files, title, package, parallel);
    let part_size = RwSignal::new((DEFAULT_PART_SIZE / 1_000_000).to_string());
    let notice = RwSignal::new(None::<String>);
    let starting = RwSignal::new(false);
    // Cancels the start while the worker starts and the browser opens the zip.
    let stop_starting = StoredValue::new(None::<AbortHandle>);

    let start = move |_| {
        if starting.get_untracked() {
            return;
        }
        starting.set(true);
        notice.set(None);
        // Read now: the browser takes the zip first.
        let start = button.start();
        let setup = start.setup();
        let parts = plan(&setup.files, part_size_bytes(&part_size.get_untracked()));
        let stem = file_stem(&title.get_untracked());
        let (stop, registration) = AbortHandle::new_pair();
        stop_starting.set_value(Some(stop));
        let start = async move {
            let set_up = Command::Zip {
                run: setup.clone(),
                parts: parts.clone(),
            };
            // The run first: where it cannot start, no download has begun.
            let (worker, replies) = match BulkWorker::start_zip(&set_up).await {
                Ok(started) => started,
                Err(why) => {
                    starting.set(false);
                    notice.set(Some(t::bulk::zip_start_failed(why)));
                    return;
                }
            };
            let first_name = part_file_name(&stem, 0, parts.len());
            let first_length = parts[0].length;
            let new = Rc::new(ZipRun {
                core: start.core(&setup, Mode::Zip, worker),
                stem,
                parts: RefCell::new(Parts::new(parts)),
                saver: RefCell::default(),
                cancelled: Cell::new(false),
            });
            listen(Rc::downgrade(&new), replies);
            // The first files come while the browser opens the zip's download (its
            // bytes wait in the worker): waiting for the browser first cost every zip a
            // tenth of a second or more. Where it cannot open, the run is dropped, and
            // its worker and fetches with it: nothing is saved.
            new.order(Order::Start);
            let first = ZipSaver::open(&first_name, first_length).await;
            starting.set(false);
            match first {
                Ok(first) => {
                    start.keep(Rc::clone(&new));
                    new.pump(Some(first));
                }
                Err(why) => notice.set(Some(t::bulk::zip_start_failed(why))),
            }
        };
        spawn_local(async move {
            // Cancelled before the zip opened: the worker, its fetches and the zip the
            // browser was opening are dropped with the start; nothing is saved.
            if Abortable::new(start, registration).await.is_err() {
                starting.set(false);
                notice.set(Some(t::bulk::zip_start_cancelled().to_owned()));
            }
        });
    };
    let running = move || starting.get() || shown(run, |r| !r.is_over());

    view! {
        <div class="zip-download">
            <div class="folder-controls">
                <button type="button" class="button" disabled=running on:click=start>
                    {t::bulk::zip_start()}
                </button>
                <label class="parallel">
                    {t::bulk::zip_part_size()} " "
                    <input
                        type="number"
                        min="0"
                        step="any"
                        class="part-size"
                        disabled=running
                        prop:value=move || part_size.get()
                        on:change=move |ev| part_size.set(event_target_value(&ev))
                    />
                </label>
                <Show when=move || starting.get() || shown(run, |r| !r.is_over())>
                    <button type="button" class="button secondary" on:click=move |_| {
                        match stop_starting.get_value().filter(|_| starting.get_untracked()) {
                            Some(stop) => stop.abort(),
                            None => control(run, |run| run.cancel_run()),
                        }
                    }>{t::bulk::cancel()}</button>
                </Show>
            </div>
            <RunNotices run hint=t::bulk::zip_hint() notice instead=t::bulk::zip_instead() />
            <Show when=move || shown(run, |_| true)>
                <RunTotal run />
                <ul class="zip-parts" aria-label=t::bulk::zip_parts()>
                    {move || {
                        shown(run, ZipRun::part_lines)
                            .into_iter()
                            .map(|(part, text, button)| {
                                let click = move |_| {
                                    if let Some(run) = run.get_untracked() {
                                        match button {
                                            PartButton::Save => run.save_part(part, None),
                                            _ => run.retry_part(part),
                                        }
                                    }
                                };
                                let label = match button {
                                    PartButton::Save => t::bulk::zip_save_part(part + 1),
                                    _ => t::bulk::zip_retry_part(part + 1),
                                };
                                view! {
                                    <li>
                                        {text}
                                        {(button != PartButton::None).then(|| view! {
                                            " "
                                            <button type="button" class="button secondary" on:click=click>{label}</button>
                                        })}
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
                {move || run.with(|r| r.as_ref().map(|r| view! { <FileLines lines=Arc::clone(&r.progress().lines) /> }))}
                <Show when=move || shown(run, |r| r.is_over() && r.stopped().borrow().is_none())>
                    <div class="bulk-summary" role="status">
                        <p>{move || shown(run, |r| r.summary_text())}</p>
                    </div>
                </Show>
            </Show>
        </div>
    }
}
