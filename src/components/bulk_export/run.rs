//! What a folder run and a zip run share: a queue the bulk worker runs (it holds the
//! bytes and takes each next file itself, each run sends the bytes somewhere of its
//! own) and the page's copy of it, fed the worker's log, which everything shown reads;
//! the person's orders, sent to the worker (the panel's buttons and "Files at once",
//! and the session: a run held up because the sign-in ended goes on once signed in
//! again, whatever page is shown: `crate::downloads`); and the parts of the panel that
//! show any run.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use explorer_logic::bulk::answer::Failure;
use explorer_logic::bulk::journal::{Order, Step};
use explorer_logic::bulk::queue::{Action, Event, Queue};
use explorer_logic::bulk::worker::{Command, FolderStep, Reply};
use explorer_logic::text::t;
use futures::StreamExt;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::links::Links;
use super::progress::{Bar, Progress};
use super::worker::{BulkWorker, Replies};
use crate::downloads::DownloadRun;

/// What every run holds, whatever it writes to: the page's copy of the queue, the
/// addresses it fetches, the worker that runs it, and what is shown of it.
pub(super) struct RunCore {
    /// The worker's queue as its log tells it (`QueueRun::replay`).
    pub queue: RefCell<Queue>,
    pub links: Links,
    pub worker: BulkWorker,
    /// Why the run stopped before it ended, once it has.
    pub stopped: RefCell<Option<String>>,
    pub progress: Progress,
}

impl RunCore {
    /// A run of `queue`, not stopped, its changes firing `changed`.
    pub fn new(queue: Queue, links: Links, worker: BulkWorker, changed: Trigger) -> RunCore {
        RunCore {
            progress: Progress::of(&queue, changed),
            queue: RefCell::new(queue),
            links,
            worker,
            stopped: RefCell::default(),
        }
    }
}

/// A download run: the worker that runs its queue and carries its bytes, and the
/// page's copy of that queue.
pub(super) trait QueueRun: Sized + 'static {
    fn core(&self) -> &RunCore;

    fn queue(&self) -> &RefCell<Queue> {
        &self.core().queue
    }
    fn progress(&self) -> &Progress {
        &self.core().progress
    }
    fn links(&self) -> &Links {
        &self.core().links
    }
    fn worker(&self) -> &BulkWorker {
        &self.core().worker
    }
    /// Why the run stopped before it ended, once it has.
    fn stopped(&self) -> &RefCell<Option<String>> {
        &self.core().stopped
    }
    /// After each part of the worker's log, before the redraw: whatever else the run
    /// does then (write the report).
    fn applied(self: &Rc<Self>);
    /// A reply of the worker's only this kind of run hears (a zip part's end, the
    /// folder's report written).
    fn heard(self: &Rc<Self>, reply: Reply);
    /// Whether all of it is over: done, given up, or stopped.
    fn is_over(&self) -> bool;
    /// The person cancelled it: its fetches end.
    fn cancel_run(self: &Rc<Self>);

    /// Shows where the queue is: `now`, or if the last redraw is old enough.
    fn redraw(&self, now: bool) {
        self.progress().redraw(self.queue(), now);
    }

    /// Redraws once the current interval is over, if nothing else has by then.
    fn redraw_soon(self: &Rc<Self>) {
        let run = Rc::clone(self);
        self.progress()
            .redraw_soon(self.queue(), move || run.progress().redraw_due(run.queue()));
    }

    /// Sends the worker the person's `order`; the copy of the queue changes when the
    /// worker's log brings it back, in the order the worker applied it.
    fn order(&self, order: Order) {
        self.worker().send(&Command::Order(order));
    }

    /// Tells the worker's queue what the page saw for it.
    fn tell(&self, event: Event) {
        self.worker().send(&Command::Event(event));
    }

    /// Replays the worker's log on the page's copy of the queue. What the person asked
    /// for shows as soon as it is back; bytes and files at the pace of redraws.
    fn replay(self: &Rc<Self>, steps: Vec<Step>) {
        let ordered = steps.iter().any(|step| matches!(step, Step::Order(_)));
        for step in steps {
            for action in step.replay(&mut self.queue().borrow_mut()) {
                // The worker stopped its transfers; the page says why.
                if let Action::Stop { reason } = action {
                    *self.stopped().borrow_mut() = Some(reason);
                }
            }
        }
        self.applied();
        if ordered {
            self.redraw(true);
        } else {
            self.redraw_soon();
        }
    }

    /// What the worker said.
    fn hear(self: &Rc<Self>, reply: Reply) {
        match reply {
            Reply::Log(steps) => self.replay(steps),
            Reply::Address { file, from } => {
                let run = Rc::clone(self);
                spawn_local(async move {
                    match run.links().address(file).await {
                        Ok(url) => run.worker().send(&Command::Fetch { file, url, from }),
                        Err(failure) => run.tell(Event::Failed { file, failure }),
                    }
                });
            }
            Reply::Refresh { file } => {
                let run = Rc::clone(self);
                spawn_local(async move {
                    let event = run.links().refresh(file).await;
                    run.tell(event);
                });
            }
            Reply::FolderFailed { file, step, error } => {
                let error = if error.is_empty() {
                    t::bulk::no_reason().to_owned()
                } else {
                    error
                };
                let name = self.queue().borrow().file(file).name.clone();
                let reason = match step {
                    FolderStep::Look => t::bulk::folder_look_failed(error),
                    FolderStep::Read => t::bulk::folder_read_failed(error, &name),
                    FolderStep::Write => t::bulk::folder_write_failed(error, &name),
                    FolderStep::Save => t::bulk::folder_save_failed(error),
                };
                let failure = Failure::Other(reason);
                self.tell(Event::Failed { file, failure });
            }
            other => self.heard(other),
        }
    }
}

/// Hands what the worker says to `run` for as long as both are there; a worker that
/// broke stops the run, saying so.
pub(super) fn listen<R: QueueRun>(run: Weak<R>, mut replies: Replies) {
    spawn_local(async move {
        while let Some(reply) = replies.next().await {
            let Some(run) = run.upgrade() else { return };
            match reply {
                Some(reply) => run.hear(reply),
                None => {
                    // Nothing will change in the worker now: the page's copy says so.
                    let reason = t::bulk::file_worker_stopped().to_owned();
                    run.queue().borrow_mut().cancel();
                    *run.stopped().borrow_mut() = Some(reason);
                    run.applied();
                    run.redraw(true);
                    return;
                }
            }
        }
    });
}

/// The run of a panel, if it has one: the app keeps it ([`crate::downloads`]), so it
/// is the same run when the person comes back to the panel.
pub(super) type CurrentRun<R> = Signal<Option<Rc<R>>, LocalStorage>;

/// Reads the current run, redrawn with it; `T::default()` before it starts. A `fn`,
/// not a closure: one copy of this for every read of a kind of run.
pub(super) fn shown<R: QueueRun, T: Default>(run: CurrentRun<R>, read: fn(&R) -> T) -> T {
    run.with(|r| {
        r.as_deref()
            .map(|r| {
                r.progress().changed.track();
                read(r)
            })
            .unwrap_or_default()
    })
}

/// Does `what` to the current run, if there is one (a button's click).
pub(super) fn control<R: QueueRun>(run: CurrentRun<R>, what: fn(&Rc<R>)) {
    if let Some(run) = run.get_untracked() {
        what(&run);
    }
}

/// Keeps the panel's "Files at once" and the run it shows in step: the run's own
/// number shows when the panel shows it (coming back to a run started with 5, say),
/// and a number the person changes goes to the run.
pub(super) fn steer<R: QueueRun>(run: CurrentRun<R>, parallel: RwSignal<usize>) {
    Effect::new(move |_| {
        let running = run.with(|r| {
            r.as_deref()
                .filter(|r| !r.queue().borrow().is_finished())
                .map(|r| r.queue().borrow().parallel())
        });
        if let Some(n) = running {
            parallel.set(n);
        }
    });
    Effect::watch(
        move || parallel.get(),
        move |&n, _, _| {
            if let Some(run) = run.get_untracked()
                && run.queue().borrow().parallel() != n
            {
                run.order(Order::Parallel(n));
            }
        },
        false,
    );
}

/// What the app needs of any run, to keep it going from page to page.
impl<R: QueueRun> DownloadRun for R {
    fn changed(&self) -> Trigger {
        self.progress().changed
    }

    fn total_text(&self) -> String {
        total_text(self)
    }

    fn is_finished(&self) -> bool {
        self.is_over()
    }

    fn cancel(self: Rc<Self>) {
        self.cancel_run();
    }

    /// A run held up because the session ended goes on, now that it has credentials
    /// again (the app calls this from any page). Told whether or not the page's copy
    /// waits yet: the refusal that ended the session went to the worker before the
    /// renewal could end, so the worker applies the two in that order, while its log
    /// may not have brought the wait back yet.
    fn signed_in(self: Rc<Self>) {
        if !self.is_over() {
            self.order(Order::SignedIn);
        }
    }
}

/// The line of the whole run: bytes, rate and time left; the panel's and the header's.
pub(super) fn total_text<R: QueueRun>(run: &R) -> String {
    run.queue()
        .borrow()
        .total_text(&run.progress().rate.borrow())
}

/// What a panel says above its run: its `hint`; why a start failed (`notice`); why the
/// run stopped before it began, and what works instead (`instead`); and, while the
/// session has ended, that the run waits for a new sign-in.
#[component]
pub(super) fn RunNotices<R: QueueRun>(
    run: CurrentRun<R>,
    hint: &'static str,
    notice: RwSignal<Option<String>>,
    instead: &'static str,
) -> impl IntoView {
    let stopped = move || shown(run, |r| r.stopped().borrow().clone());
    let awaiting = move || shown(run, |r| r.queue().borrow().is_awaiting_sign_in());
    view! {
        <p class="muted folder-hint">{hint}</p>
        {move || notice.get().map(|n| view! { <p class="notice" role="alert">{n}</p> })}
        {move || stopped().map(|reason| view! {
            <p class="notice bulk-stopped" role="alert">
                {t::bulk::stopped(instead, reason)}
            </p>
        })}
        <Show when=awaiting>
            <p class="notice" role="alert">
                {t::bulk::signed_out()}
            </p>
        </Show>
    }
}

/// The bar and the line of the whole run: bytes, rate and time left.
#[component]
pub(super) fn RunTotal<R: QueueRun>(run: CurrentRun<R>) -> impl IntoView {
    let percent = Signal::derive(move || shown(run, |r| r.queue().borrow().total_percent()));
    let text = move || shown(run, total_text);
    view! {
        <div class="bulk-total">
            <Bar label=t::bulk::all_files().into() percent />
            <span class="bulk-total-text">{text}</span>
        </div>
    }
}
