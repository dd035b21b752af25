//! What a folder run and a zip run share: a queue whose actions each carries out in
//! its own way (where a file's bytes go), steered while it runs by the panel's "Files
//! at once" and by the session (a run held up because the sign-in ended goes on once
//! signed in again, whatever page is shown: `crate::downloads`), and the parts of the
//! panel that show any run.

use std::cell::RefCell;
use std::rc::Rc;

use explorer_logic::bulk::queue::{Action, Event, FileId, Queue};
use explorer_logic::text::t;
use gloo_timers::future::sleep;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::links::Links;
use super::progress::{Bar, Progress};

/// A download run: its queue, and where the bytes of each file go.
pub(super) trait QueueRun: Sized + 'static {
    fn queue(&self) -> &RefCell<Queue>;
    fn progress(&self) -> &Progress;
    fn links(&self) -> &Links;
    /// Why the run stopped before it began, once it has.
    fn stopped(&self) -> &RefCell<Option<String>>;
    /// What is there already of `file`, to resume it or skip it.
    fn inspect(self: Rc<Self>, file: FileId) -> impl Future<Output = Event>;
    /// Fetches `file` from byte `from` on, to its end or its failure.
    fn fetch(self: Rc<Self>, file: FileId, from: u64) -> impl Future<Output = Event>;
    /// After each batch of actions, before the redraw: whatever else the run does then
    /// (write the report, wake the zip's writer).
    fn applied(self: &Rc<Self>);

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

    fn handle(self: &Rc<Self>, event: Event) {
        let actions = self.queue().borrow_mut().handle(event);
        self.apply(actions);
    }

    fn apply(self: &Rc<Self>, actions: Vec<Action>) {
        for action in actions {
            let run = Rc::clone(self);
            match action {
                Action::Inspect { file } => spawn_local(async move {
                    let event = Rc::clone(&run).inspect(file).await;
                    run.handle(event);
                }),
                Action::Fetch { file, range_from } => spawn_local(async move {
                    let event = Rc::clone(&run).fetch(file, range_from).await;
                    run.handle(event);
                }),
                Action::Retry { file, after } => spawn_local(async move {
                    sleep(after).await;
                    run.handle(Event::RetryDue { file });
                }),
                Action::Refresh { file } => spawn_local(async move {
                    let event = run.links().refresh(file).await;
                    run.handle(event);
                }),
                Action::Stop { reason } => *self.stopped().borrow_mut() = Some(reason),
                // Shown from the queue's state, not acted on.
                Action::Skip { .. } | Action::Report { .. } | Action::SignIn => {}
            }
        }
        self.applied();
        self.redraw_soon();
    }
}

/// The run of a panel, if it has one: the app keeps it ([`crate::downloads`]), so it
/// is the same run when the person comes back to the panel.
pub(super) type CurrentRun<R> = Signal<Option<Rc<R>>, LocalStorage>;

/// Reads the current run, redrawn with it; `None` before it starts.
pub(super) fn read<R: QueueRun, T>(run: CurrentRun<R>, read: impl Fn(&R) -> T) -> Option<T> {
    run.with(|r| {
        r.as_deref().map(|r| {
            r.progress().changed.track();
            read(r)
        })
    })
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
                let actions = run.queue().borrow_mut().set_parallel(n);
                run.apply(actions);
            }
        },
        false,
    );
}

/// A run held up because the session ended goes on, now that it has credentials again
/// (`DownloadRun::signed_in`, which the app calls from any page).
pub(super) fn go_on_signed_in<R: QueueRun>(run: &Rc<R>) {
    if run.queue().borrow().is_awaiting_sign_in() {
        let actions = run.queue().borrow_mut().signed_in();
        run.apply(actions);
    }
}

/// The line of the whole run: bytes, rate and time left; the panel's and the header's.
pub(super) fn total_text<R: QueueRun>(run: &R) -> String {
    run.queue()
        .borrow()
        .total_text(&run.progress().rate.borrow())
}

/// Why the run stopped before it began, and what works instead (`instead`); and,
/// while the session has ended, that the run waits for a new sign-in.
#[component]
pub(super) fn RunNotices<R: QueueRun>(run: CurrentRun<R>, instead: &'static str) -> impl IntoView {
    let stopped = move || read(run, |r| r.stopped().borrow().clone()).flatten();
    let awaiting = move || read(run, |r| r.queue().borrow().is_awaiting_sign_in()).unwrap_or(false);
    view! {
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
    let percent =
        Signal::derive(move || read(run, |r| r.queue().borrow().total_percent()).unwrap_or(0));
    let text = move || read(run, total_text).unwrap_or_default();
    view! {
        <div class="bulk-total">
            <Bar label=t::bulk::all_files().into() percent />
            <span class="bulk-total-text">{text}</span>
        </div>
    }
}
