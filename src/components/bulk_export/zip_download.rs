//! "Download as .zip": the listed files streamed, in order, into zips the browser saves
//! with its own download manager, a part at a time, each file's md5 checked as it
//! arrives. The rules (what goes next, resume, retry, fresh links) are
//! `explorer_logic::bulk::queue`'s, the parts and their exact lengths
//! `explorer_logic::bulk::zip`'s; this only does the I/O.
//!
//! Files are fetched several at a time but written one after the other: a file ahead
//! of the one being written keeps at most [`AHEAD_BYTES`] in memory, then waits its
//! turn (its connection waits with it), so no file is ever whole in memory.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use explorer_logic::bulk::export::BulkDownload;
use explorer_logic::bulk::export::file_stem;
use explorer_logic::bulk::queue::{
    Event, Failure, FileId, FileState, ListedFile, Outcome, Queue, REPORT_NAME,
};
use explorer_logic::bulk::runs::RunKind;
use explorer_logic::bulk::zip::{
    CHECKSUMS_NAME, DEFAULT_PART_SIZE, Part, Written, checksums, part_file_name, plan, report,
    start_entry,
};
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos::task::spawn_local;
use md5::{Digest, Md5};
use rawzip::ZipArchiveWriter;
use web_sys::AbortSignal;

use super::PackageVersion;
use super::links::Links;
use super::progress::{FileLines, Progress};
use super::run::{
    CurrentRun, QueueRun, RunNotices, RunTotal, go_on_signed_in, read, steer, total_text,
};
use super::transfer::{Transfers, failed, open};
use super::zip_saver::ZipSaver;
use super::{keep, panel_key, panel_run};
use crate::api::{ServiceContext, within};
use crate::auth::use_session;
use crate::downloads::{DownloadRun, Downloads};
use crate::fs_access::{Chunks, Pace};

/// How many bytes a file may hold before the zip takes them.
const AHEAD_BYTES: usize = 8 * 1024 * 1024;
/// How many bytes all files ahead of the one being written may hold together (files
/// fetched whole wait in memory for their turn).
const ALL_AHEAD_BYTES: usize = 32 * 1024 * 1024;
/// How many bytes of zip are gathered before they go to the browser.
const HAND_OVER_BYTES: usize = 2 * 1024 * 1024;
/// How long the zip waits for more bytes before handing over what it gathered.
const QUIET: Duration = Duration::from_millis(20);

/// What arrived of one file and is not in the zip yet.
#[derive(Default)]
struct Slot {
    chunks: VecDeque<Vec<u8>>,
    /// Bytes in `chunks`.
    held: usize,
    /// Bytes of the file received so far (in `chunks` or written).
    received: u64,
    /// The md5 of the bytes received so far; taken by the transfer under way.
    hasher: Option<Md5>,
    /// The md5 of the whole file, once every byte is in.
    md5: Option<String>,
}

/// Where one part is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PartState {
    Waiting,
    /// Its files are fetched; the browser saves it once the person asks (browsers
    /// refuse a page's second download unless the person clicked for it).
    Ready,
    Saving,
    Saved,
    Failed(String),
}

/// What the zip takes next from a file.
enum Next {
    Bytes(Vec<u8>),
    End,
    Wait,
    Failed(String),
}

/// Wakes every task waiting for something to change (bytes arrived, bytes taken).
#[derive(Default)]
struct Wakeup(RefCell<Vec<js_sys::Function>>);

impl Wakeup {
    async fn wait(&self) {
        let mut resolve = None;
        let promise = js_sys::Promise::new(&mut |r, _| resolve = Some(r));
        self.0.borrow_mut().extend(resolve);
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }

    fn wake(&self) {
        for resolve in self.0.take() {
            let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
        }
    }
}

/// The zip's bytes, gathered until they are handed to the browser.
struct Gathered(Rc<RefCell<Vec<u8>>>);

impl Write for Gathered {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One run: the queue, the parts and the transfers under way.
struct ZipRun {
    queue: RefCell<Queue>,
    links: Links,
    stem: String,
    parts: Vec<Part>,
    part_states: RefCell<Vec<PartState>>,
    slots: Vec<RefCell<Slot>>,
    transfers: Transfers,
    /// A part is being written.
    writing: Cell<bool>,
    /// The file being written into the zip, whose bytes may always come.
    head: Cell<Option<FileId>>,
    /// Bytes held by every slot.
    held: Cell<usize>,
    cancelled: Cell<bool>,
    notify: Wakeup,
    /// Why the run stopped before starting, for the user.
    stopped: RefCell<Option<String>>,
    progress: Progress,
}

impl QueueRun for ZipRun {
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

    /// What the zip holds of it: the bytes received so far.
    async fn inspect(self: Rc<Self>, file: FileId) -> Event {
        let size = self.slots[file].borrow().received;
        Event::Existing {
            file,
            size,
            md5: None,
        }
    }

    async fn fetch(self: Rc<Self>, file: FileId, from: u64) -> Event {
        let signal = match self.transfers.begin(file) {
            Ok(signal) => signal,
            Err(event) => return event,
        };
        let hasher = self.slots[file].borrow_mut().hasher.take();
        let mut hasher = hasher.unwrap_or_default();
        let event = self.transfer(file, from, &signal, &mut hasher).await;
        self.slots[file].borrow_mut().hasher = Some(hasher);
        self.transfers.end(file);
        event
    }

    fn applied(self: &Rc<Self>) {
        // The zip being written may wait for what just happened.
        self.notify.wake();
    }
}

impl ZipRun {
    /// Starts writing the next part waiting, if none is being written.
    fn pump(self: &Rc<Self>, opened: Option<ZipSaver>) {
        if self.cancelled.get() || self.stopped.borrow().is_some() {
            // The parts not begun are not begun at all.
            for state in self.part_states.borrow_mut().iter_mut() {
                if *state == PartState::Waiting {
                    *state = PartState::Failed(t::bulk::cancelled().into());
                }
            }
            return;
        }
        if self.writing.get() {
            return;
        }
        let next = self
            .part_states
            .borrow()
            .iter()
            .position(|state| *state == PartState::Waiting);
        match (next, opened) {
            (Some(part), Some(opened)) => self.save_part(part, Some(opened)),
            (Some(part), None) => self.part_states.borrow_mut()[part] = PartState::Ready,
            (None, _) => {}
        }
    }

    /// Starts saving `part` (the person asked for it, or its zip is open already).
    fn save_part(self: &Rc<Self>, part: usize, opened: Option<ZipSaver>) {
        if self.writing.replace(true) {
            return;
        }
        self.part_states.borrow_mut()[part] = PartState::Saving;
        let run = Rc::clone(self);
        spawn_local(async move { run.write_part(part, opened).await });
        self.redraw(true);
    }

    async fn write_part(self: Rc<Self>, part: usize, opened: Option<ZipSaver>) {
        let saver = match opened {
            Some(saver) => Ok(saver),
            None => {
                let name = part_file_name(&self.stem, part, self.parts.len());
                ZipSaver::open(&name, self.parts[part].length).await
            }
        };
        match saver {
            Ok(saver) => match self.write_entries(part, &saver).await {
                Ok(()) => {
                    saver.finish();
                    self.part_states.borrow_mut()[part] = PartState::Saved;
                }
                Err(why) => {
                    saver.abort(&why);
                    self.part_failed(part, why);
                }
            },
            Err(why) => self.part_failed(part, t::bulk::part_no_start(why)),
        }
        for file in self.parts[part].files.clone() {
            let mut slot = self.slots[file].borrow_mut();
            slot.chunks.clear();
            self.held.set(self.held.get() - slot.held);
            slot.held = 0;
        }
        self.head.set(None);
        self.notify.wake();
        self.writing.set(false);
        self.pump(None);
        self.redraw(true);
    }

    /// A part that cannot be completed: its files are given up (and stop), the rest go on.
    fn part_failed(self: &Rc<Self>, part: usize, why: String) {
        let files = self.parts[part].files.clone();
        let reason = t::bulk::part_failed(part + 1);
        self.part_states.borrow_mut()[part] = PartState::Failed(why);
        self.transfers.stop(|file| files.contains(&file));
        let actions = self.queue.borrow_mut().set_aside(files, &reason);
        self.apply(actions);
    }

    /// Writes the files of `part` into a zip handed to `saver` as it grows, then its
    /// checksums and report.
    async fn write_entries(&self, part: usize, saver: &ZipSaver) -> Result<(), String> {
        let zip_error = |error: rawzip::Error| t::bulk::zip_write_failed(error);
        let gathered = Rc::new(RefCell::new(Vec::with_capacity(2 * HAND_OVER_BYTES)));
        let mut archive = ZipArchiveWriter::new(Gathered(Rc::clone(&gathered)));
        let files = self.parts[part].files.clone();
        for file in files.clone() {
            self.head.set(Some(file));
            self.notify.wake();
            let name = self.queue.borrow().file(file).name.clone();
            let (mut entry, config) = start_entry(&mut archive, &name).map_err(zip_error)?;
            let mut data = config.wrap(&mut entry);
            loop {
                if saver.cancelled() {
                    return Err(t::bulk::cancelled_in_browser().into());
                }
                match self.next_chunk(file) {
                    Next::Bytes(bytes) => {
                        data.write_all(&bytes).map_err(|e| e.to_string())?;
                        self.notify.wake();
                        if gathered.borrow().len() >= HAND_OVER_BYTES {
                            hand_over(&gathered, saver).await?;
                        }
                    }
                    Next::End => break,
                    Next::Failed(why) => return Err(why),
                    Next::Wait if gathered.borrow().is_empty() => self.notify.wait().await,
                    Next::Wait => {
                        // What is gathered goes to the browser once nothing came for a
                        // moment (handing it over at every wait made a message per
                        // network chunk, each waiting its turn in the worker).
                        if within(QUIET, self.notify.wait()).await.is_none() {
                            hand_over(&gathered, saver).await?;
                        }
                    }
                }
            }
            let (_, descriptor) = data.finish().map_err(zip_error)?;
            entry.finish(descriptor).map_err(zip_error)?;
        }
        let (sums, report) = {
            let queue = self.queue.borrow();
            let md5s: Vec<String> = files
                .clone()
                .map(|file| self.slots[file].borrow().md5.clone().unwrap_or_default())
                .collect();
            let written: Vec<Written> = files
                .clone()
                .zip(&md5s)
                .map(|(file, md5)| Written {
                    listed: queue.file(file),
                    md5,
                })
                .collect();
            (checksums(&written), report(&written))
        };
        for (name, text) in [(CHECKSUMS_NAME, sums), (REPORT_NAME, report)] {
            let (mut entry, config) = start_entry(&mut archive, name).map_err(zip_error)?;
            let mut data = config.wrap(&mut entry);
            data.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
            let (_, descriptor) = data.finish().map_err(zip_error)?;
            entry.finish(descriptor).map_err(zip_error)?;
        }
        archive.finish().map_err(zip_error)?;
        hand_over(&gathered, saver).await
    }

    /// The next bytes of `file` for the zip, or why there are none now.
    fn next_chunk(&self, file: FileId) -> Next {
        let mut slot = self.slots[file].borrow_mut();
        if let Some(bytes) = slot.chunks.pop_front() {
            slot.held -= bytes.len();
            self.held.set(self.held.get() - bytes.len());
            return Next::Bytes(bytes);
        }
        if slot.md5.is_some() {
            return Next::End;
        }
        if let Some(reason) = self.stopped.borrow().clone() {
            return Next::Failed(reason);
        }
        let queue = self.queue.borrow();
        match queue.state(file) {
            FileState::Done(Outcome::Failed(reason)) => {
                Next::Failed(t::bulk::named(&queue.file(file).name, reason))
            }
            FileState::Done(Outcome::Cancelled) => Next::Failed(t::bulk::cancelled().into()),
            _ => Next::Wait,
        }
    }

    /// Whether `file` must wait for the zip to take some of what is held.
    fn holds_too_much(&self, file: FileId) -> bool {
        self.slots[file].borrow().held > AHEAD_BYTES
            || (self.head.get() != Some(file) && self.held.get() > ALL_AHEAD_BYTES)
    }

    /// Stops the transfers under way (cancel).
    fn interrupt_all(&self) {
        self.transfers.stop(|_| true);
        self.notify.wake();
    }

    /// Streams the file from byte `from` into its slot, where the zip takes it.
    async fn transfer(
        self: &Rc<Self>,
        file: FileId,
        from: u64,
        signal: &AbortSignal,
        hasher: &mut Md5,
    ) -> Event {
        let (response, start) = match open(&self.links, file, from, signal).await {
            Ok(opened) => opened,
            Err(event) => return event,
        };
        // The service sent it all where a part was asked for: what the zip holds
        // already is passed over.
        let mut pass_over = from - start;
        self.handle(Event::Started { file, from });
        let listed = self.queue.borrow().file(file).size;
        let Some(body) = response.body() else {
            return self.complete(file, listed, hasher);
        };
        let mut chunks = Chunks::of(&body);
        let mut pace = Pace::default();
        loop {
            let mut bytes = match chunks.next_bytes().await {
                Ok(Some(bytes)) => bytes,
                Ok(None) => return self.complete(file, listed, hasher),
                Err(_) if signal.aborted() => return Event::Interrupted { file },
                Err(_) => return failed(file, Failure::Dropped),
            };
            if pass_over > 0 {
                let skip = pass_over.min(bytes.len() as u64);
                bytes.drain(..skip as usize);
                pass_over -= skip;
                if bytes.is_empty() {
                    continue;
                }
            }
            let length = bytes.len();
            {
                let mut slot = self.slots[file].borrow_mut();
                if listed.is_some_and(|size| slot.received + length as u64 > size) {
                    chunks.cancel();
                    let reason = t::bulk::too_many_bytes().to_owned();
                    return failed(file, Failure::Other(reason));
                }
                hasher.update(&bytes);
                slot.received += length as u64;
                slot.held += length;
                self.held.set(self.held.get() + length);
                slot.chunks.push_back(bytes);
            }
            self.queue.borrow_mut().handle(Event::Chunk {
                file,
                bytes: length as u64,
            });
            self.notify.wake();
            self.redraw(false);
            // Ahead of the zip: wait until it has taken enough.
            while self.holds_too_much(file) && !signal.aborted() {
                self.notify.wait().await;
            }
            if signal.aborted() {
                chunks.cancel();
                return Event::Interrupted { file };
            }
            pace.breathe().await;
        }
    }

    /// The answer ended: the whole file is in, unless it came short of the listing.
    fn complete(&self, file: FileId, listed: Option<u64>, hasher: &mut Md5) -> Event {
        let mut slot = self.slots[file].borrow_mut();
        if listed.is_some_and(|size| slot.received < size) {
            return failed(file, Failure::Dropped);
        }
        let md5 = format!("{:x}", std::mem::take(hasher).finalize());
        slot.md5 = Some(md5.clone());
        Event::Finished { file, md5 }
    }

    /// Fetches part `part` again, alone.
    fn retry_part(self: &Rc<Self>, part: usize) {
        let files = self.parts[part].files.clone();
        for file in files.clone() {
            let old = std::mem::take(&mut *self.slots[file].borrow_mut());
            self.held.set(self.held.get() - old.held);
        }
        self.part_states.borrow_mut()[part] = PartState::Waiting;
        let actions = self.queue.borrow_mut().restart(files);
        self.apply(actions);
        // The person's click: the browser lets this download start.
        self.save_part(part, None);
        self.pump(None);
    }

    /// Every part is saved or given up.
    fn is_finished(&self) -> bool {
        self.stopped.borrow().is_some()
            || (self.queue.borrow().is_finished()
                && self
                    .part_states
                    .borrow()
                    .iter()
                    .all(|state| matches!(state, PartState::Saved | PartState::Failed(_))))
    }

    /// The parts' lines: `x-part2-of-3.zip: saved`, and which button each offers.
    fn part_lines(&self) -> Vec<(usize, String, PartButton)> {
        let count = self.parts.len();
        self.part_states
            .borrow()
            .iter()
            .enumerate()
            .map(|(part, state)| {
                let name = part_file_name(&self.stem, part, count);
                let (what, button) = match state {
                    PartState::Waiting => (t::bulk::waiting().to_owned(), PartButton::None),
                    PartState::Ready => (t::bulk::part_ready().to_owned(), PartButton::Save),
                    PartState::Saving => (t::bulk::part_saving().to_owned(), PartButton::None),
                    PartState::Saved => (t::bulk::part_saved().to_owned(), PartButton::None),
                    PartState::Failed(why) => (t::bulk::part_not_saved(why), PartButton::Retry),
                };
                (part, t::bulk::named(name, what), button)
            })
            .collect()
    }
}

/// What a part's line offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartButton {
    None,
    Save,
    Retry,
}

/// Hands what is gathered to the browser.
async fn hand_over(gathered: &Rc<RefCell<Vec<u8>>>, saver: &ZipSaver) -> Result<(), String> {
    let bytes = std::mem::take(&mut *gathered.borrow_mut());
    if bytes.is_empty() {
        return Ok(());
    }
    saver.write(&bytes).await?;
    // The buffer is used again.
    let mut kept = gathered.borrow_mut();
    if kept.is_empty() {
        *kept = bytes;
        kept.clear();
    }
    Ok(())
}

/// Reads a part size typed in megabytes (decimals allowed).
fn part_size_bytes(typed: &str) -> u64 {
    typed
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|mb| *mb > 0.0)
        .map_or(DEFAULT_PART_SIZE, |mb| (mb * 1e6) as u64)
}

/// What the app needs of a zip run, to keep it going from page to page.
impl DownloadRun for ZipRun {
    fn changed(&self) -> Trigger {
        self.progress.changed
    }

    fn total_text(&self) -> String {
        total_text(self)
    }

    fn is_finished(&self) -> bool {
        ZipRun::is_finished(self)
    }

    fn cancel(self: Rc<Self>) {
        self.cancelled.set(true);
        let actions = self.queue.borrow_mut().cancel();
        self.interrupt_all();
        self.apply(actions);
    }

    fn signed_in(self: Rc<Self>) {
        go_on_signed_in(&self);
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
    let service = expect_context::<ServiceContext>();
    let session = use_session();
    let store = Downloads::get();
    let panel = panel_key(title, RunKind::Zip);
    let run: CurrentRun<ZipRun> = panel_run(&store, panel);
    let part_size = RwSignal::new((DEFAULT_PART_SIZE / 1_000_000).to_string());
    let notice = RwSignal::new(None::<String>);
    let starting = RwSignal::new(false);
    let package = StoredValue::new(package);
    steer(run, parallel);

    let start = move |_| {
        if starting.get_untracked() {
            return;
        }
        starting.set(true);
        notice.set(None);
        let store = store.clone();
        // All the panel says is read now: the person may have left it by the time the
        // browser has taken the zip, and the run goes on without it.
        let downloads = files.get_untracked();
        let listed = ListedFile::all_of(&downloads);
        let parts = plan(&listed, part_size_bytes(&part_size.get_untracked()));
        let stem = file_stem(&title.get_untracked());
        let (package, parallel, panel) = (
            package.get_value(),
            parallel.get_untracked(),
            panel.get_untracked(),
        );
        spawn_local(async move {
            // Nothing is fetched until the browser has taken the first zip.
            let first =
                ZipSaver::open(&part_file_name(&stem, 0, parts.len()), parts[0].length).await;
            starting.set(false);
            let first = match first {
                Ok(saver) => saver,
                Err(why) => {
                    notice.set(Some(t::bulk::zip_start_failed(why)));
                    return;
                }
            };
            let queue = Queue::for_zip(listed, parallel);
            let new = Rc::new(ZipRun {
                progress: Progress::of(&queue, store.trigger()),
                slots: (0..queue.len()).map(|_| RefCell::default()).collect(),
                queue: RefCell::new(queue),
                links: Links::new(&downloads, package, service, session),
                stem,
                part_states: RefCell::new(vec![PartState::Waiting; parts.len()]),
                parts,
                transfers: Transfers::default(),
                writing: Cell::new(false),
                head: Cell::new(None),
                held: Cell::new(0),
                cancelled: Cell::new(false),
                notify: Wakeup::default(),
                stopped: RefCell::default(),
            });
            keep(&store, panel, Rc::clone(&new));
            new.pump(Some(first));
            let actions = new.queue.borrow_mut().start();
            new.apply(actions);
        });
    };
    let with_run = move |text: fn(&ZipRun) -> String| read(run, text).unwrap_or_default();
    let is = move |test: fn(&ZipRun) -> bool| read(run, test).unwrap_or(false);
    let running = move || starting.get() || is(|r| !r.is_finished());
    let control = move |what: fn(&Rc<ZipRun>)| {
        if let Some(run) = run.get_untracked() {
            what(&run);
        }
    };

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
                <Show when=move || is(|r| !r.is_finished())>
                    <button type="button" class="button secondary" on:click=move |_| control(|run| {
                        Rc::clone(run).cancel();
                    })>{t::bulk::cancel()}</button>
                </Show>
            </div>
            <p class="muted folder-hint">
                {t::bulk::zip_hint()}
            </p>
            {move || notice.get().map(|n| view! { <p class="notice" role="alert">{n}</p> })}
            <RunNotices run instead=t::bulk::zip_instead() />
            <Show when=move || is(|_| true)>
                <RunTotal run />
                <ul class="zip-parts" aria-label=t::bulk::zip_parts()>
                    {move || {
                        read(run, ZipRun::part_lines).unwrap_or_default()
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
                {move || run.with(|r| r.as_ref().map(|r| view! { <FileLines lines=Arc::clone(&r.progress.lines) /> }))}
                <Show when=move || is(|r| r.is_finished() && r.stopped.borrow().is_none())>
                    <div class="bulk-summary" role="status">
                        <p>{move || with_run(|r| r.queue.borrow().summary_text())}</p>
                    </div>
                </Show>
            </Show>
        </div>
    }
}
