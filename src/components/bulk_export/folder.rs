//! "Download to a folder": every listed file streamed into a folder the user picks,
//! several at a time, each one's md5 checked as it arrives. The rules (what goes next,
//! resume, retry, skip) are `explorer_logic::bulk::queue`'s; this only does the I/O.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use download_api::Download;
use explorer_logic::bulk::queue::{
    Action, Answer, Event, Failure, FileId, FileProgress, ListedFile, Queue, REPORT_NAME, Rate,
};
use explorer_logic::window::{Viewport, Window};
use gloo_timers::future::sleep;
use leptos::prelude::*;
use leptos::task::spawn_local;
use md5::{Digest, Md5};
use web_sys::{AbortController, AbortSignal, FileSystemDirectoryHandle};

use super::PackageVersion;
use super::links::Links;
use crate::api::ServiceContext;
use crate::api::fetch_file_from;
use crate::auth::use_session;
use crate::components::virtual_list::{BoxedList, Items};
use crate::fs_access::{
    Chunks, Pace, Writer, existing_file, files_in, hash_blob, md5_of, pick_folder, write_text,
};

/// Files fetched at once unless the user says otherwise.
const DEFAULT_PARALLEL: usize = 3;
/// How often progress is redrawn while bytes flow.
const REDRAW_MS: f64 = 150.0;

/// One run of the download: the queue, the folder and the transfers under way.
struct Run {
    queue: RefCell<Queue>,
    folder: FileSystemDirectoryHandle,
    /// The names the folder may hold a file under: what it held when the run began,
    /// and every file the run has written since. A file not named here is absent, so
    /// it is not looked for one by one (a lookup per file was a fifth of the time of
    /// 200 small files). `None` when the folder could not be listed.
    present: RefCell<Option<std::collections::BTreeSet<String>>>,
    links: Links,
    /// Abort handles of the running transfers (pause and cancel use them).
    transfers: RefCell<Vec<(FileId, AbortController)>>,
    rate: RefCell<Rate>,
    /// Why the run stopped before starting, for the user.
    stopped: RefCell<Option<String>>,
    /// The report of a finished run was written (or is being written).
    reported: Cell<bool>,
    last_redraw: Cell<f64>,
    /// A redraw is due at the end of the current interval.
    redraw_due: Cell<bool>,
    /// For the summary, the buttons and the total, redrawn as a whole.
    changed: Trigger,
    /// Each file's line, redrawn only when it changes. (One trigger for every line
    /// made each redraw cost the square of the number of files: a list of thousands
    /// would freeze the page.)
    lines: Arc<Lines>,
}

/// The progress list: a line per file, and where the run is.
#[derive(Debug)]
pub(super) struct Lines {
    each: Vec<FileLine>,
    /// The last file under way, which the list keeps in view.
    furthest: ArcRwSignal<Option<FileId>>,
}

impl Lines {
    /// A line for each file of `queue`.
    pub(super) fn of(queue: &Queue) -> Lines {
        Lines {
            each: (0..queue.len())
                .map(|file| FileLine {
                    name: queue.file(file).name.clone(),
                    progress: ArcRwSignal::new(queue.progress(file)),
                })
                .collect(),
            furthest: ArcRwSignal::new(None),
        }
    }

    /// Shows where each file of `queue` is, changing only the lines that moved.
    pub(super) fn update(&self, queue: &Queue) {
        for (file, line) in self.each.iter().enumerate() {
            let progress = queue.progress(file);
            if line.progress.with_untracked(|shown| *shown != progress) {
                line.progress.set(progress);
            }
        }
        let furthest = queue.furthest_under_way();
        if furthest.is_some() && furthest != self.furthest.get_untracked() {
            self.furthest.set(furthest);
        }
    }
}

/// A file's line in the progress list.
#[derive(Debug)]
struct FileLine {
    name: String,
    progress: ArcRwSignal<FileProgress>,
}

impl Run {
    fn redraw(&self, now: bool) {
        let time = js_sys::Date::now();
        if now || time - self.last_redraw.get() > REDRAW_MS {
            self.last_redraw.set(time);
            let queue = self.queue.borrow();
            self.rate.borrow_mut().sample(time as u64, queue.bytes().0);
            self.lines.update(&queue);
            drop(queue);
            self.changed.notify();
        }
    }

    /// Redraws now, or once at the end of the current interval if one just happened:
    /// every redraw updates every file's row, so a redraw per event made a list of
    /// hundreds of small files quadratic (`cargo xtask bench download`).
    fn redraw_soon(self: &Rc<Self>) {
        let wait = self.last_redraw.get() + REDRAW_MS - js_sys::Date::now();
        if wait <= 0.0 {
            self.redraw(true);
        } else if !self.redraw_due.replace(true) {
            let run = Rc::clone(self);
            spawn_local(async move {
                sleep(Duration::from_millis(wait as u64 + 1)).await;
                run.redraw_due.set(false);
                run.redraw(true);
            });
        }
    }

    fn handle(self: &Rc<Self>, event: Event) {
        let actions = self.queue.borrow_mut().handle(event);
        self.apply(actions);
    }

    fn apply(self: &Rc<Self>, actions: Vec<Action>) {
        for action in actions {
            let run = Rc::clone(self);
            match action {
                Action::Inspect { file } => spawn_local(async move {
                    let event = run.inspect(file).await;
                    run.handle(event);
                }),
                Action::Fetch { file, range_from } => spawn_local(async move {
                    let event = run.fetch(file, range_from).await;
                    run.handle(event);
                }),
                Action::Retry { file, after } => spawn_local(async move {
                    sleep(after).await;
                    run.handle(Event::RetryDue { file });
                }),
                Action::Refresh { file } => spawn_local(async move {
                    let event = run.links.refresh(file).await;
                    run.handle(event);
                }),
                Action::Skip { .. } | Action::Report { .. } | Action::SignIn => {}
                Action::Stop { reason } => *run.stopped.borrow_mut() = Some(reason),
            }
        }
        let finished = self.queue.borrow().is_finished();
        if finished && self.stopped.borrow().is_none() && !self.reported.replace(true) {
            let run = Rc::clone(self);
            spawn_local(async move {
                let report = run.queue.borrow().report();
                if let Err(error) = write_text(&run.folder, REPORT_NAME, &report).await {
                    *run.stopped.borrow_mut() =
                        Some(format!("Could not write the report: {error}"));
                }
                run.redraw(true);
            });
        }
        self.redraw_soon();
    }

    /// Pause or cancel: the running transfers stop, keeping what they wrote.
    fn interrupt_all(&self) {
        for (_, transfer) in self.transfers.borrow().iter() {
            transfer.abort();
        }
    }

    /// What the folder holds under the file's name.
    async fn inspect(&self, file: FileId) -> Event {
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
        let existing = match existing_file(&self.folder, &name).await {
            Ok(existing) => existing,
            Err(error) => {
                let reason = format!("could not look in the folder: {error}");
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

    async fn fetch(self: &Rc<Self>, file: FileId, from: u64) -> Event {
        let Ok(controller) = AbortController::new() else {
            return failed(file, Failure::Other("the browser refused".into()));
        };
        self.transfers.borrow_mut().push((file, controller.clone()));
        let event = self.transfer(file, from, &controller.signal()).await;
        self.transfers.borrow_mut().retain(|(f, _)| *f != file);
        event
    }

    /// Streams the file from byte `from` into the folder, hashing the bytes already
    /// there first, so the md5 covers the whole file.
    async fn transfer(self: &Rc<Self>, file: FileId, mut from: u64, signal: &AbortSignal) -> Event {
        let name = self.queue.borrow().file(file).name.clone();
        let mut hasher = Md5::new();
        if from > 0 {
            match existing_file(&self.folder, &name).await {
                Ok(Some(existing)) if existing.size() as u64 >= from => {
                    let kept = existing.slice_with_f64_and_f64(0.0, from as f64);
                    if let Err(error) = match kept {
                        Ok(kept) => hash_blob(&kept, &mut hasher, |_| ()).await,
                        Err(_) => Err("the browser refused".into()),
                    } {
                        let reason = format!("could not read {name} in the folder: {error}");
                        return failed(file, Failure::Other(reason));
                    }
                }
                _ => from = 0,
            }
        }
        if signal.aborted() {
            return Event::Interrupted { file };
        }
        let url = match self.links.address(file).await {
            Ok(url) => url,
            Err(failure) => return failed(file, failure),
        };
        let response = match fetch_file_from(&url, from, signal).await {
            Ok(response) => response,
            Err(_) if signal.aborted() => return Event::Interrupted { file },
            Err(_) => return failed(file, Failure::Unreachable),
        };
        let headers = response.headers();
        let (content_range, retry_after) =
            (headers.get("content-range"), headers.get("retry-after"));
        let answer = Answer {
            status: response.status(),
            content_range: content_range.as_deref(),
            retry_after: retry_after.as_deref(),
        };
        let start = match answer.start(from, now()) {
            Ok(start) => start,
            Err(failure) => return failed(file, failure),
        };
        if start == 0 && from > 0 {
            hasher = Md5::new(); // the service sent it all: start over
        }
        // Only now, with the answer in hand, is anything created in the folder.
        self.handle(Event::Started { file, from: start });
        let expected = headers
            .get("content-length")
            .and_then(|length| length.parse().ok());
        if let Some(present) = self.present.borrow_mut().as_mut() {
            present.insert(name.clone());
        }
        let mut writer = match Writer::open(&self.folder, &name, start, expected).await {
            Ok(writer) => writer,
            Err(error) => {
                let reason = format!("could not write {name} into the folder: {error}");
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
                        let reason = format!("could not write {name} into the folder: {error}");
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

fn failed(file: FileId, failure: Failure) -> Event {
    Event::Failed { file, failure }
}

fn finish(file: FileId, closed: Result<(), String>, hasher: Md5) -> Event {
    match closed {
        Ok(()) => Event::Finished {
            file,
            md5: format!("{:x}", hasher.finalize()),
        },
        Err(error) => failed(file, Failure::Other(format!("could not save it: {error}"))),
    }
}

/// The browser's clock, which dates a `Retry-After` given as an HTTP date.
pub(super) fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(crate::auth::now_ms())
}

/// The "Download to a folder" button, its progress and its summary.
#[component]
pub fn FolderDownload(
    files: Signal<Vec<Download>>,
    package: Option<PackageVersion>,
) -> impl IntoView {
    let service = expect_context::<ServiceContext>();
    let session = use_session();
    let run = RwSignal::new_local(None::<Rc<Run>>);
    let changed = Trigger::new();
    let parallel = RwSignal::new(DEFAULT_PARALLEL);
    let notice = RwSignal::new(None::<String>);
    let package = StoredValue::new(package);
    on_cleanup(move || {
        if let Some(run) = run.try_get_untracked().flatten() {
            run.interrupt_all();
        }
    });

    let start = move |_| {
        spawn_local(async move {
            let folder = match pick_folder().await {
                Ok(Some(folder)) => folder,
                Ok(None) => return,
                Err(error) => {
                    notice.set(Some(format!("Could not open the folder: {error}")));
                    return;
                }
            };
            notice.set(None);
            let present = files_in(&folder)
                .await
                .ok()
                .map(|files| files.iter().map(web_sys::File::name).collect());
            let downloads = files.get_untracked();
            let queue = Queue::new(ListedFile::all_of(&downloads), parallel.get_untracked());
            let lines = Lines::of(&queue);
            let new = Rc::new(Run {
                queue: RefCell::new(queue),
                folder,
                present: RefCell::new(present),
                links: Links::new(downloads, package.get_value(), service, session),
                transfers: RefCell::default(),
                rate: RefCell::default(),
                stopped: RefCell::default(),
                reported: Cell::new(false),
                last_redraw: Cell::new(0.0),
                redraw_due: Cell::new(false),
                changed,
                lines: Arc::new(lines),
            });
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
                    "Download to a folder"
                </button>
                <label class="parallel">
                    "Files at once "
                    <input
                        type="number"
                        min="1"
                        max="8"
                        prop:value=move || parallel.get().to_string()
                        on:change=move |ev| {
                            let n = event_target_value(&ev).parse().unwrap_or(DEFAULT_PARALLEL).clamp(1, 8);
                            parallel.set(n);
                            if let Some(run) = run.get_untracked() {
                                let actions = run.queue.borrow_mut().set_parallel(n);
                                run.apply(actions);
                            }
                        }
                    />
                </label>
                <Show when=running>
                    {move || if is(|r| r.queue.borrow().is_paused()) {
                        view! {
                            <button type="button" class="button secondary" on:click=move |_| control(|run| {
                                let actions = run.queue.borrow_mut().resume();
                                run.apply(actions);
                            })>"Resume"</button>
                        }.into_any()
                    } else {
                        view! {
                            <button type="button" class="button secondary" on:click=move |_| control(|run| {
                                run.queue.borrow_mut().pause();
                                run.interrupt_all();
                                run.redraw(true);
                            })>"Pause"</button>
                        }.into_any()
                    }}
                    <button type="button" class="button secondary" on:click=move |_| control(|run| {
                        let actions = run.queue.borrow_mut().cancel();
                        run.interrupt_all();
                        run.apply(actions);
                    })>"Cancel"</button>
                </Show>
            </div>
            <p class="muted folder-hint">
                "Every file is streamed to disk and its MD5 checked. Files already there are skipped, "
                "partial ones resumed."
            </p>
            {move || notice.get().map(|n| view! { <p class="notice" role="alert">{n}</p> })}
            {move || {
                changed.track();
                run.with(|r| r.as_ref().and_then(|r| r.stopped.borrow().clone()))
                    .map(|reason| view! {
                        <p class="notice bulk-stopped" role="alert">
                            {reason} " Nothing was downloaded. What works instead: the script or the URL list "
                            "below, which fetch the files outside the browser, or the links one by one."
                        </p>
                    })
            }}
            <Show when=move || is(|_| true)>
                <div class="bulk-total">
                    <Bar label="All files".into() percent=Signal::derive(move || {
                        changed.track();
                        run.with(|r| r.as_deref().map_or(0, |r| r.queue.borrow().total_percent()))
                    }) />
                    <span class="bulk-total-text">{move || with_run(&|r| r.queue.borrow().total_text(&r.rate.borrow()))}</span>
                </div>
                {move || run.with(|r| r.as_ref().map(|r| view! { <FileLines lines=Arc::clone(&r.lines) /> }))}
                <Show when=move || is(|r| r.reported.get() && r.queue.borrow().is_finished())>
                    <div class="bulk-summary" role="status">
                        <p>{move || with_run(&|r| r.queue.borrow().summary_text())}</p>
                        <Show when=move || is(|r| r.queue.borrow().summary().failed > 0)>
                            <button type="button" class="button" on:click=move |_| control(|run| {
                                run.reported.set(false);
                                let actions = run.queue.borrow_mut().retry_failed();
                                run.apply(actions);
                            })>"Retry failed"</button>
                        </Show>
                    </div>
                </Show>
            </Show>
        </div>
    }
    .into_any()
}

/// One line per file: its name, its progress bar and where it is, windowed in a box
/// of its own. The box follows the files under way, until the person scrolls it
/// themselves.
#[component]
pub(super) fn FileLines(lines: Arc<Lines>) -> impl IntoView {
    let total = lines.each.len();
    let scroller = NodeRef::<leptos::html::Div>::new();
    // Where the box was last scrolled to by following; any other scroll is the person's.
    let followed_to = StoredValue::new(None::<i32>);
    let following = StoredValue::new(true);
    let furthest = lines.furthest.clone();
    Effect::new(move |_| {
        let Some(file) = furthest.get() else { return };
        let Some(scroller) = scroller.get_untracked() else {
            return;
        };
        if following.get_value()
            && let Some(top) = scroll_to_show(&scroller, file)
        {
            followed_to.set_value(Some(top));
            scroller.set_scroll_top(top);
        }
    });
    let on_scroll = Callback::new(move |()| {
        let here = scroller.get_untracked().map(|s| s.scroll_top());
        let ours = followed_to.get_value();
        if !matches!((ours, here), (Some(ours), Some(here)) if (ours - here).abs() <= 1) {
            following.set_value(false);
        }
    });
    let line = move |file: FileId| {
        let line = &lines.each[file];
        let progress = line.progress.clone();
        let percent = Signal::derive(move || progress.read().percent);
        let progress = line.progress.clone();
        view! {
            <span class="bulk-file-name">{line.name.clone()}</span>
            <Bar label=line.name.clone() percent />
            <span class="bulk-file-state">{move || progress.read().text.clone()}</span>
        }
    };
    view! {
        <BoxedList
            total
            class="bulk-files"
            item_class="bulk-file"
            item=line
            scroller
            on_scroll
        />
    }
}

/// The `scrollTop` that shows line `file` whole in `scroller` with the least scrolling,
/// or `None` when it shows already. Lines are equally tall, and the list's padding
/// stands in for those not drawn, so line `file` starts `file` lines down the list.
fn scroll_to_show(scroller: &web_sys::Element, file: FileId) -> Option<i32> {
    let lines = scroller.first_element_child()?.children();
    let (first, second) = (lines.item(0)?, lines.item(1)?);
    let line_height =
        second.get_bounding_client_rect().top() - first.get_bounding_client_rect().top();
    let window = Window::estimated(Items::TABLE_ROWS).measured(line_height, 1);
    let view = Viewport {
        scrolled: f64::from(scroller.scroll_top()),
        height: f64::from(scroller.client_height()),
    };
    let scrolled = window.scroll_to_show(file, view)?;
    Some(scrolled.round() as i32)
}

/// A labelled progress bar.
#[component]
pub(super) fn Bar(label: String, percent: Signal<u64>) -> impl IntoView {
    view! {
        <div
            class="bar"
            role="progressbar"
            aria-label=label
            aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=move || percent.get().to_string()
        >
            <div class="bar-fill" style:width=move || format!("{}%", percent.get())></div>
        </div>
    }
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::browser_tests::{count, find, next_frame, stage, until};

    /// Whether the line of `name` shows whole in the box.
    fn in_view(stage: &web_sys::HtmlElement, name: &str) -> bool {
        let scroller = find(stage, ".bulk-files").get_bounding_client_rect();
        let names = stage
            .query_selector_all(".bulk-file-name")
            .expect("a valid selector");
        (0..names.length())
            .filter_map(|i| names.item(i))
            .filter(|line| line.text_content().as_deref() == Some(name))
            .filter_map(|line| line.parent_element())
            .map(|line| line.get_bounding_client_rect())
            .any(|line| line.top() >= scroller.top() && line.bottom() <= scroller.bottom())
    }

    #[wasm_bindgen_test]
    async fn the_lines_follow_the_run_until_the_person_scrolls_them() {
        let stage = stage(include_str!("../../../style/bulk.css"));
        let lines = Arc::new(Lines {
            each: (0..500)
                .map(|file| FileLine {
                    name: format!("file-{file}.zip"),
                    progress: ArcRwSignal::new(FileProgress::default()),
                })
                .collect(),
            furthest: ArcRwSignal::new(None),
        });
        let furthest = lines.furthest.clone();
        let _mounted =
            leptos::mount::mount_to(stage.clone(), move || view! { <FileLines lines /> });
        until("the first lines show", || in_view(&stage, "file-0.zip")).await;
        assert!(count(&stage, ".bulk-file") < 100, "500 lines are windowed");

        furthest.set(Some(300));
        until("the box follows the run to line 300", || {
            in_view(&stage, "file-300.zip")
        })
        .await;

        let scroller = find(&stage, ".bulk-files");
        scroller.set_scroll_top(0);
        until("the person's scroll shows the top", || {
            in_view(&stage, "file-0.zip")
        })
        .await;
        furthest.set(Some(400));
        // Had the box still followed, it would have within a frame: it stays put.
        next_frame().await;
        next_frame().await;
        assert_eq!(scroller.scroll_top(), 0);
        assert!(in_view(&stage, "file-0.zip"));
    }
}
