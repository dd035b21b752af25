//! The downloads of this tab, kept by the app rather than by the bulk panel that started
//! them, so moving to another page keeps them going: the panel finds its run again when
//! the person comes back, the header lists those under way on every page with a link
//! back, a session that ends mid-queue is taken up again from any page, and the tab
//! asks before it closes while one runs.
//!
//! None of it is the gallery's code: the bulk panel alone calls it, so it loads with
//! the panel's chunk.

use std::any::Any;
use std::rc::Rc;

use explorer_logic::bulk::runs::{Finished, RunKey, Runs};
use explorer_logic::text::t;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::api::ServiceContext;
use crate::navigation::{Href, Route};

/// What the app needs of a run, whatever its kind or how it moves its bytes.
pub trait DownloadRun: 'static {
    /// Fires whenever what is shown of the run changes.
    fn changed(&self) -> Trigger;
    /// The line of the whole run: bytes done and in all, rate and time left.
    fn total_text(&self) -> String;
    fn is_finished(&self) -> bool;
    fn cancel(self: Rc<Self>);
    /// The session has credentials again: a run held up for a new sign-in goes on.
    fn signed_in(self: Rc<Self>);
}

/// A run kept, as the header sees it and as its panel gets it back.
struct Kept {
    run: Rc<dyn DownloadRun>,
    any: Rc<dyn Any>,
}

impl Finished for Kept {
    fn is_finished(&self) -> bool {
        self.run.is_finished()
    }
}

/// The tab's downloads, a context of the app: kept on the app's own owner (the root,
/// which lives as long as the tab), not on the page's.
#[derive(Clone)]
pub struct Downloads {
    runs: RwSignal<Runs<Kept>, LocalStorage>,
    /// The app's owner: what steers the runs lives as long as the app, not the page.
    owner: Owner,
}

impl Downloads {
    /// The tab's downloads, provided to the whole app by the first panel that asks.
    /// Not by `App` itself: even making an empty store there cost the gallery's first
    /// load about 0.3 kB, over its budget (`xtask/src/bundle.rs`).
    pub fn get() -> Downloads {
        let mut app = Owner::current().unwrap_or_default();
        while let Some(parent) = app.parent() {
            app = parent;
        }
        app.clone().with(|| {
            use_context::<Downloads>().unwrap_or_else(|| {
                let downloads = Downloads {
                    runs: RwSignal::new_local(Runs::default()),
                    owner: app,
                };
                provide_context(downloads.clone());
                downloads
            })
        })
    }

    /// A trigger for a new run's changes, living as long as the app (a panel's own
    /// would go with the panel).
    pub fn trigger(&self) -> Trigger {
        self.owner.with(Trigger::new)
    }

    /// The run of the panel `key`, if it has one (tracked).
    pub fn find<R: DownloadRun>(&self, key: &RunKey) -> Option<Rc<R>> {
        self.runs.with(|runs| {
            runs.find(key)
                .and_then(|kept| Rc::clone(&kept.any).downcast::<R>().ok())
        })
    }

    /// Keeps `run`, the new run of the panel `key`, started on the page `page`.
    pub fn add<R: DownloadRun>(&self, key: RunKey, page: Route, run: Rc<R>) {
        if self.runs.with_untracked(Runs::is_empty) {
            self.steer();
            show_in_header(self.clone());
        }
        let kept = Kept {
            run: Rc::clone(&run) as Rc<dyn DownloadRun>,
            any: run,
        };
        let old = self
            .runs
            .try_update(|runs| runs.add(key, page, kept))
            .flatten();
        // A panel offers a new run only once its last has finished; should one still
        // run, it stops rather than go on unseen.
        if let Some(old) = old.filter(|old| !old.is_finished()) {
            old.run.cancel();
        }
    }

    /// Whether any run has not finished, tracking each run's changes.
    fn any_running(&self) -> bool {
        self.runs.with(|runs| {
            runs.running().for_each(|s| s.run.run.changed().track());
            runs.any_running()
        })
    }

    /// What keeps every run going whatever page is shown, under the app's owner: a new
    /// sign-in takes up the runs waiting for one, and the tab asks before closing
    /// while any runs.
    fn steer(&self) {
        let this = self.clone();
        self.owner.with(|| {
            let service = expect_context::<ServiceContext>();
            let runs = this.runs;
            // A new sign-in sets the credentials; a renewal after a refusal fires `renewed`.
            Effect::new(move |_| {
                service.renewed.track();
                if !service.credentials.with(Option::is_some) {
                    return;
                }
                let waiting: Vec<Rc<dyn DownloadRun>> = runs
                    .with_untracked(|runs| runs.running().map(|s| Rc::clone(&s.run.run)).collect());
                for run in waiting {
                    run.signed_in();
                }
            });
            let running = Memo::new(move |_| this.any_running());
            let mut prompt = None::<WindowListenerHandle>;
            Effect::new(move |_| match (running.get(), prompt.take()) {
                (true, None) => prompt = Some(ask_before_leaving()),
                (true, Some(armed)) => prompt = Some(armed),
                (false, armed) => armed.into_iter().for_each(WindowListenerHandle::remove),
            });
        });
    }

    /// The runs under way, by panel and page (tracked, each run's changes too).
    fn running(&self) -> Vec<(RunKey, Route)> {
        self.runs.with(|runs| {
            runs.running()
                .inspect(|s| s.run.run.changed().track())
                .map(|s| (s.key.clone(), s.page.clone()))
                .collect()
        })
    }

    /// The run of the panel `key`, as the header sees it (tracked).
    fn run(&self, key: &RunKey) -> Option<Rc<dyn DownloadRun>> {
        self.runs
            .with(|runs| runs.find(key).map(|kept| Rc::clone(&kept.run)))
    }
}

/// The browser's own "leave page?" prompt, until the handle is removed. Only while a
/// run runs: a page with this listener is kept out of the back-forward cache.
fn ask_before_leaving() -> WindowListenerHandle {
    window_event_listener_untyped("beforeunload", |event| {
        event.prevent_default();
        // Browsers that predate `preventDefault` here ask when it is set.
        let _ = js_sys::Reflect::set(&event, &"returnValue".into(), &JsValue::TRUE);
    })
}

/// Puts the list of runs under way at the end of the header, for the rest of the
/// tab's life. Mounted by the code that keeps the first run rather than drawn by the
/// app's header, so none of it is in the gallery's first load (drawing it there cost
/// that load 1.3 kB); the header is drawn once and never again, so it stays.
fn show_in_header(downloads: Downloads) {
    let header = document()
        .query_selector(".site-header")
        .ok()
        .flatten()
        .and_then(|header| header.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(header) = header {
        leptos::mount::mount_to(header, move || view! { <RunningDownloads downloads /> }).forget();
    }
}

/// The runs under way, in the header of every page: each one's files as a link back to
/// its panel, its bytes, rate and time left, and a way to cancel it.
#[component]
fn RunningDownloads(downloads: Downloads) -> impl IntoView {
    let running = {
        let downloads = downloads.clone();
        Memo::new(move |_| downloads.running())
    };
    let line = move |(key, page): (RunKey, Route)| {
        let text = {
            let (downloads, key) = (downloads.clone(), key.clone());
            move || {
                downloads.run(&key).map(|run| {
                    run.changed().track();
                    run.total_text()
                })
            }
        };
        let cancel = {
            let (downloads, key) = (downloads.clone(), key.clone());
            move |_| {
                if let Some(run) = downloads.run(&key) {
                    run.cancel();
                }
            }
        };
        view! {
            <li>
                <a href=page.href()>{key.title().to_owned()}</a>
                // The region says which downloads run; their figures change too often
                // to be read out each time.
                <span class="running-download-text" aria-live="off">{text}</span>
                <button
                    type="button"
                    class="button secondary"
                    aria-label=t::bulk::running_cancel(key.title())
                    on:click=cancel
                >
                    {t::bulk::cancel()}
                </button>
            </li>
        }
    };
    view! {
        <div class="running-downloads" role="status" aria-label=t::bulk::running_label()>
            <ul>
                <For each=move || running.get() key=|(key, _)| key.clone() children=line />
            </ul>
        </div>
    }
}
