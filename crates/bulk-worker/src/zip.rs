//! A zip run: the files fetched several at a time, each one's md5 worked out as it
//! arrives, and written one after the other into the part being saved, whose bytes go
//! to the service worker answering the part's address (through a message port the page
//! handed over), as fast as the browser takes them.
//!
//! A file ahead of the one being written keeps at most [`AHEAD_BYTES`] in memory, then
//! waits its turn (its connection waits with it), so no file is ever whole in memory.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, VecDeque};
use std::io::Write;
use std::ops::Range;
use std::rc::Rc;
use std::time::Duration;

use explorer_logic::bulk::answer::Failure;
use explorer_logic::bulk::file::{FileId, ListedFile};
use explorer_logic::bulk::queue::Event;
use explorer_logic::bulk::report::REPORT_NAME;
use explorer_logic::bulk::worker::{PartOutcome, Reply};
use explorer_logic::bulk::zip::{CHECKSUMS_NAME, Part, Written, checksums, report, start_entry};
use futures::future::{Either, select};
use gloo_timers::future::TimeoutFuture;
use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use md5::{Digest, Md5};
use rawzip::ZipArchiveWriter;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, spawn_local};
use web_sys::{AbortSignal, MessageEvent, MessagePort};

use crate::fetch::{Chunks, Transfers, open};
use crate::news::Steering;

/// How many bytes a file may hold before the zip takes them.
const AHEAD_BYTES: usize = 8 * 1024 * 1024;
/// How many bytes all files ahead of the one being written may hold together (files
/// fetched whole wait in memory for their turn).
const ALL_AHEAD_BYTES: usize = 32 * 1024 * 1024;
/// The most bytes taken from the network at a time.
const PIECE_BYTES: u32 = 1024 * 1024;
/// How many bytes of zip are gathered before they go to the browser.
const HAND_OVER_BYTES: usize = 2 * 1024 * 1024;
/// How long the zip waits for more bytes before handing over what it gathered.
const QUIET: Duration = Duration::from_millis(20);
/// How many chunks may be on their way to the service worker before it asks for more:
/// waiting for each one's "pull" made every small file a round trip.
const WINDOW: u32 = 8;

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

/// What the zip takes next from a file.
enum Next {
    Bytes(Vec<u8>),
    End,
    Wait,
    Failed(PartOutcome),
}

/// One zip run.
pub struct ZipRun {
    files: Vec<ListedFile>,
    parts: Vec<Part>,
    slots: Vec<RefCell<Slot>>,
    transfers: Transfers,
    /// The file being written into the zip, whose bytes may always come.
    head: Cell<Option<FileId>>,
    /// Bytes held by every slot.
    held: Cell<usize>,
    /// The files the queue gave up.
    given_up: RefCell<BTreeSet<FileId>>,
    cancelled: Cell<bool>,
    notify: Wakeup,
    steer: Rc<dyn Steering>,
}

impl ZipRun {
    pub fn new(files: Vec<ListedFile>, parts: Vec<Part>, steer: Rc<dyn Steering>) -> Rc<ZipRun> {
        Rc::new(ZipRun {
            slots: files.iter().map(|_| RefCell::default()).collect(),
            files,
            parts,
            transfers: Transfers::default(),
            head: Cell::new(None),
            held: Cell::new(0),
            given_up: RefCell::default(),
            cancelled: Cell::new(false),
            notify: Wakeup::default(),
            steer,
        })
    }

    /// What the zip holds of `file`: the bytes received so far.
    pub fn received(&self, file: FileId) -> u64 {
        self.slots[file].borrow().received
    }

    /// Fetches `file` from `url`, from byte `from` on, into its slot.
    pub fn fetch(self: &Rc<Self>, file: FileId, url: String, from: u64) {
        let run = Rc::clone(self);
        spawn_local(async move {
            let event = run.attempt(file, &url, from).await;
            run.steer.event(event);
            run.notify.wake();
        });
    }

    /// Stops the transfers of `files` (each ends with [`Event::Interrupted`]).
    pub fn stop(&self, files: &Range<FileId>) {
        self.transfers.stop(files);
        self.notify.wake();
    }

    /// The queue gave `file` up: the part waiting for it cannot be completed.
    pub fn given_up(&self, file: FileId) {
        self.given_up.borrow_mut().insert(file);
        self.notify.wake();
    }

    /// The run is cancelled: every transfer stops, and the part being written fails.
    pub fn cancel(&self) {
        self.cancelled.set(true);
        self.transfers.stop(&(0..self.files.len()));
        self.notify.wake();
    }

    /// Writes part `part` into `port`, then tells the page how it ended.
    pub fn save_part(self: &Rc<Self>, part: usize, port: MessagePort) {
        let run = Rc::clone(self);
        spawn_local(async move { run.write_part(part, Port::new(port)).await });
    }

    /// Forgets what `files` hold: their part is fetched again.
    pub fn forget(&self, files: &Range<FileId>) {
        for file in files.clone() {
            let old = std::mem::take(&mut *self.slots[file].borrow_mut());
            self.held.set(self.held.get() - old.held);
            self.given_up.borrow_mut().remove(&file);
        }
    }

    async fn attempt(self: &Rc<Self>, file: FileId, url: &str, from: u64) -> Event {
        let signal = match self.transfers.begin(file) {
            Ok(signal) => signal,
            Err(event) => return event,
        };
        let hasher = self.slots[file].borrow_mut().hasher.take();
        let mut hasher = hasher.unwrap_or_default();
        let event = self.transfer(file, url, from, &signal, &mut hasher).await;
        self.slots[file].borrow_mut().hasher = Some(hasher);
        self.transfers.end(file);
        event
    }

    async fn write_part(self: Rc<Self>, part: usize, port: Port) {
        let outcome = match self.write_entries(part, &port).await {
            Ok(()) => {
                port.end();
                PartOutcome::Saved
            }
            Err(outcome) => {
                port.abort(&format!("{outcome:?}"));
                outcome
            }
        };
        for file in self.parts[part].files.clone() {
            let mut slot = self.slots[file].borrow_mut();
            slot.chunks.clear();
            self.held.set(self.held.get() - slot.held);
            slot.held = 0;
        }
        self.head.set(None);
        self.notify.wake();
        self.steer.tell(Reply::Part { part, outcome });
    }

    /// Writes the files of `part` into a zip handed to `port` as it grows, then its
    /// checksums and report.
    async fn write_entries(&self, part: usize, port: &Port) -> Result<(), PartOutcome> {
        let broken = |error: rawzip::Error| PartOutcome::Broken(error.to_string());
        let gathered = Rc::new(RefCell::new(Vec::with_capacity(2 * HAND_OVER_BYTES)));
        let mut archive = ZipArchiveWriter::new(Gathered(Rc::clone(&gathered)));
        let files = self.parts[part].files.clone();
        for file in files.clone() {
            self.head.set(Some(file));
            self.notify.wake();
            let (mut entry, config) =
                start_entry(&mut archive, &self.files[file].name).map_err(broken)?;
            let mut data = config.wrap(&mut entry);
            loop {
                if port.cancelled() {
                    return Err(PartOutcome::CancelledInBrowser);
                }
                match self.next_chunk(file) {
                    Next::Bytes(bytes) => {
                        data.write_all(&bytes)
                            .map_err(|e| PartOutcome::Broken(e.to_string()))?;
                        self.notify.wake();
                        if gathered.borrow().len() >= HAND_OVER_BYTES {
                            hand_over(&gathered, port).await?;
                        }
                    }
                    Next::End => break,
                    Next::Failed(outcome) => return Err(outcome),
                    Next::Wait if gathered.borrow().is_empty() => self.notify.wait().await,
                    Next::Wait => {
                        // What is gathered goes to the browser once nothing came for a
                        // moment (handing it over at every wait made a message per
                        // network chunk).
                        if !self.notify.wait_at_most(QUIET).await {
                            hand_over(&gathered, port).await?;
                        }
                    }
                }
            }
            let (_, descriptor) = data.finish().map_err(broken)?;
            entry.finish(descriptor).map_err(broken)?;
        }
        let md5s: Vec<String> = files
            .clone()
            .map(|file| self.slots[file].borrow().md5.clone().unwrap_or_default())
            .collect();
        let written: Vec<Written> = files
            .zip(&md5s)
            .map(|(file, md5)| Written {
                listed: &self.files[file],
                md5,
            })
            .collect();
        for (name, text) in [
            (CHECKSUMS_NAME, checksums(&written)),
            (REPORT_NAME, report(&written)),
        ] {
            let (mut entry, config) = start_entry(&mut archive, name).map_err(broken)?;
            let mut data = config.wrap(&mut entry);
            data.write_all(text.as_bytes())
                .map_err(|e| PartOutcome::Broken(e.to_string()))?;
            let (_, descriptor) = data.finish().map_err(broken)?;
            entry.finish(descriptor).map_err(broken)?;
        }
        archive.finish().map_err(broken)?;
        hand_over(&gathered, port).await
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
            Next::End
        } else if self.cancelled.get() {
            Next::Failed(PartOutcome::Cancelled)
        } else if self.given_up.borrow().contains(&file) {
            Next::Failed(PartOutcome::FileGivenUp { file })
        } else {
            Next::Wait
        }
    }

    /// Whether `file` must wait for the zip to take some of what is held.
    fn holds_too_much(&self, file: FileId) -> bool {
        self.slots[file].borrow().held > AHEAD_BYTES
            || (self.head.get() != Some(file) && self.held.get() > ALL_AHEAD_BYTES)
    }

    /// Streams the file from byte `from` into its slot, where the zip takes it.
    async fn transfer(
        self: &Rc<Self>,
        file: FileId,
        url: &str,
        from: u64,
        signal: &AbortSignal,
        hasher: &mut Md5,
    ) -> Event {
        let (response, start) = match open(file, url, from, signal).await {
            Ok(opened) => opened,
            Err(event) => return event,
        };
        let mut pass_over = from - start;
        self.steer.event(Event::Started { file, from });
        let listed = self.files[file].size;
        let Some(body) = response.body() else {
            return self.complete(file, listed, hasher);
        };
        let mut chunks = Chunks::of(&body);
        loop {
            let chunk = match chunks.next().await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => return self.complete(file, listed, hasher),
                Err(_) if signal.aborted() => return Event::Interrupted { file },
                Err(_) => return failed(file, Failure::Dropped),
            };
            // The service sent it all where a part was asked for: what the zip holds
            // already is passed over.
            let total = chunk.length();
            let skip = pass_over.min(u64::from(total)) as u32;
            pass_over -= u64::from(skip);
            // A piece at a time: WebKit hands over 20 MB at once, which the zip then
            // waited for whole at every step.
            for start in (skip..total).step_by(PIECE_BYTES as usize) {
                let piece = chunk
                    .subarray(start, total.min(start + PIECE_BYTES))
                    .to_vec();
                if let Err(event) = self.keep(file, piece, hasher) {
                    chunks.cancel();
                    return event;
                }
                // Ahead of the zip: wait until it has taken enough.
                while self.holds_too_much(file) && !signal.aborted() {
                    self.notify.wait().await;
                }
                if signal.aborted() {
                    chunks.cancel();
                    return Event::Interrupted { file };
                }
            }
        }
    }

    /// Hashes `bytes`, the next of `file`, and keeps them in its slot for the zip;
    /// fails when they go past the listed size.
    fn keep(&self, file: FileId, bytes: Vec<u8>, hasher: &mut Md5) -> Result<(), Event> {
        let length = bytes.len();
        {
            let mut slot = self.slots[file].borrow_mut();
            if self.files[file]
                .size
                .is_some_and(|size| slot.received + length as u64 > size)
            {
                return Err(failed(file, Failure::TooManyBytes));
            }
            hasher.update(&bytes);
            slot.received += length as u64;
            slot.held += length;
            self.held.set(self.held.get() + length);
            slot.chunks.push_back(bytes);
        }
        self.steer.event(Event::Chunk {
            file,
            bytes: length as u64,
        });
        self.notify.wake();
        Ok(())
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
}

fn failed(file: FileId, failure: Failure) -> Event {
    Event::Failed { file, failure }
}

/// Hands what is gathered to the browser.
async fn hand_over(gathered: &Rc<RefCell<Vec<u8>>>, port: &Port) -> Result<(), PartOutcome> {
    let bytes = std::mem::take(&mut *gathered.borrow_mut());
    if bytes.is_empty() {
        return Ok(());
    }
    port.write(&bytes).await?;
    // The buffer is used again.
    let mut kept = gathered.borrow_mut();
    if kept.is_empty() {
        *kept = bytes;
        kept.clear();
    }
    Ok(())
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

/// Wakes every task waiting for something to change (bytes arrived, bytes taken).
#[derive(Default)]
struct Wakeup(RefCell<Vec<Function>>);

impl Wakeup {
    async fn wait(&self) {
        let mut resolve = None;
        let promise = Promise::new(&mut |r, _| resolve = Some(r));
        self.0.borrow_mut().extend(resolve);
        let _ = JsFuture::from(promise).await;
    }

    /// Waits for a wake or `limit`, whichever comes first: true when woken.
    async fn wait_at_most(&self, limit: Duration) -> bool {
        let woken = std::pin::pin!(self.wait());
        let timer = TimeoutFuture::new(limit.as_millis() as u32);
        matches!(select(woken, timer).await, Either::Left(_))
    }

    fn wake(&self) {
        for resolve in self.0.take() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    }
}

/// What the service worker said about the part through the port.
#[derive(Default)]
struct Heard {
    /// How many chunks its stream asked for and did not get yet.
    credit: u32,
    /// The person cancelled the download in the browser.
    cancelled: bool,
    wake: Option<Function>,
}

/// The port to the service worker answering a part's address: its stream asks for
/// chunks ("pull") as the browser takes them, and says when the person cancelled.
struct Port {
    port: MessagePort,
    heard: Rc<RefCell<Heard>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
}

impl Port {
    fn new(port: MessagePort) -> Port {
        let heard = Rc::new(RefCell::new(Heard {
            credit: WINDOW,
            ..Heard::default()
        }));
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
            let heard = Rc::clone(&heard);
            move |event: MessageEvent| {
                let kind = Reflect::get(&event.data(), &"type".into())
                    .ok()
                    .and_then(|kind| kind.as_string());
                let mut heard = heard.borrow_mut();
                match kind.as_deref() {
                    Some("pull") => heard.credit += 1,
                    Some("cancelled") => heard.cancelled = true,
                    _ => {}
                }
                if let Some(wake) = heard.wake.take() {
                    let _ = wake.call0(&JsValue::UNDEFINED);
                }
            }
        });
        // Setting `onmessage` starts the port.
        port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Port {
            port,
            heard,
            _on_message: on_message,
        }
    }

    fn cancelled(&self) -> bool {
        self.heard.borrow().cancelled
    }

    /// Hands `bytes` on once the browser wants more.
    async fn write(&self, bytes: &[u8]) -> Result<(), PartOutcome> {
        loop {
            let promise = {
                let mut heard = self.heard.borrow_mut();
                if heard.cancelled {
                    return Err(PartOutcome::CancelledInBrowser);
                }
                if heard.credit > 0 {
                    heard.credit -= 1;
                    break;
                }
                let mut wake = None;
                let promise = Promise::new(&mut |resolve, _| wake = Some(resolve));
                heard.wake = wake;
                promise
            };
            let _ = JsFuture::from(promise).await;
        }
        // A copy the service worker owns: its buffer is transferred, not copied again.
        let chunk = Uint8Array::from(bytes);
        let message = Object::new();
        let _ = Reflect::set(&message, &"type".into(), &"chunk".into());
        let _ = Reflect::set(&message, &"chunk".into(), &chunk);
        self.port
            .post_message_with_transferable(&message, &Array::of1(&chunk.buffer()))
            .map_err(|e| PartOutcome::Broken(crate::fetch::describe(&e)))
    }

    /// The zip is whole: the browser's download completes.
    fn end(&self) {
        self.send("end", None);
    }

    /// The zip cannot be completed: the browser's download fails.
    fn abort(&self, reason: &str) {
        self.send("abort", Some(reason));
    }

    fn send(&self, kind: &str, reason: Option<&str>) {
        let message = Object::new();
        let _ = Reflect::set(&message, &"type".into(), &kind.into());
        if let Some(reason) = reason {
            let _ = Reflect::set(&message, &"reason".into(), &reason.into());
        }
        let _ = self.port.post_message(&message);
    }
}

impl Drop for Port {
    /// The service worker may still ask for more once the part is over: nobody listens
    /// then (a message to a dropped listener would break the worker).
    fn drop(&mut self) {
        self.port.set_onmessage(None);
        self.port.close();
    }
}
