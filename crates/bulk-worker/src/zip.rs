//! A zip run: the files fetched several at a time, each one's md5 worked out as it
//! arrives, and written one after the other into the part being saved: into the stream
//! the service worker answers the part's address with (this run lives in that worker),
//! as fast as the browser takes them.
//!
//! A file ahead of the one being written keeps at most [`AHEAD_BYTES`] in memory, then
//! waits its turn (its connection waits with it), so no file is ever whole in memory.
//!
//! A file's bytes go to the browser as the network gave them: copied once to be hashed
//! (md5, and the zip's CRC) into the wasm's memory, never into the zip's buffer or back
//! out. Where the page started a worker beside (`beside.rs`), that worker fetches and
//! hashes the long files, and posts their chunks here, as the network gave them. The
//! zip writer writes the zip format's own bytes (headers, descriptors, the central
//! directory), and is told of each piece of a file by its length; only short pieces
//! (small files) are gathered with them, into fewer, larger chunks (not in Firefox).

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
use explorer_logic::bulk::worker::{PartOutcome, Reply, gathers_short_pieces};
use explorer_logic::bulk::zip::{CHECKSUMS_NAME, Part, Written, checksums, report, start_entry};
use futures::StreamExt;
use js_sys::{Promise, Uint8Array};
use rawzip::{DataDescriptorOutput, ZipArchiveWriter};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::{AbortSignal, WorkerGlobalScope};

use crate::beside::{Beside, Heard};
use crate::fetch::{Body, Transfers, describe, error_name, failed};
use crate::news::Steering;
use crate::settled::Settled;
use crate::sums::{Sums, Whole};
use crate::wakeup::Wakeup;

/// How many bytes a file may hold before the zip takes them.
const AHEAD_BYTES: usize = 8 * 1024 * 1024;
/// How many bytes all files ahead of the one being written may hold together (files
/// fetched whole wait in memory for their turn).
const ALL_AHEAD_BYTES: usize = 32 * 1024 * 1024;
/// The most bytes taken from the network at a time.
const PIECE_BYTES: u32 = 1024 * 1024;
/// A piece this long or longer goes to the browser as it came, as does every piece of a
/// long file (`ListedFile::is_long`: however short a piece the network gives, as Firefox
/// gives pieces of 64-256 kB, gathering it would copy it three times more); shorter ones
/// are gathered with the zip format's bytes, so many small files make few chunks (each
/// chunk is a step of the browser's download, across processes). In Firefox no piece is
/// gathered (`gathers_short_pieces` says why).
const PASSED_AS_IT_CAME: u32 = 256 * 1024;
/// How many bytes of zip are gathered before they go to the browser.
const HAND_OVER_BYTES: usize = 1024 * 1024;
/// How long the zip waits for more bytes before handing over what it gathered.
const QUIET: Duration = Duration::from_millis(20);

/// What arrived of one file and is not in the zip yet.
#[derive(Default)]
struct Slot {
    /// Pieces of the network's chunks, as the browser gave them.
    chunks: VecDeque<Uint8Array>,
    /// Bytes in `chunks`.
    held: usize,
    /// Bytes of the file received so far (in `chunks` or written).
    received: u64,
    /// The sums of the bytes received so far (worked out here); taken by the transfer
    /// under way.
    sums: Option<Sums>,
    /// The sums of the whole file, once every byte is in.
    whole: Option<Whole>,
}

/// What the zip takes next from a file.
enum Next {
    Bytes(Uint8Array),
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
    /// Where each piece is copied to be hashed: one buffer, used again.
    scratch: RefCell<Vec<u8>>,
    /// The worker beside that fetches and hashes the long files, where the page started
    /// one.
    beside: Option<Rc<Beside>>,
    /// Whether short pieces are gathered (see [`PASSED_AS_IT_CAME`]).
    gathers: bool,
    cancelled: Cell<bool>,
    notify: Wakeup,
    steer: Rc<dyn Steering>,
}

impl ZipRun {
    /// A run of `files` into `parts`, its long files fetched and hashed by `beside` where
    /// given.
    pub fn new(
        files: Vec<ListedFile>,
        parts: Vec<Part>,
        beside: Option<Rc<Beside>>,
        steer: Rc<dyn Steering>,
    ) -> Rc<ZipRun> {
        Rc::new(ZipRun {
            slots: files.iter().map(|_| RefCell::default()).collect(),
            files,
            parts,
            transfers: Transfers::default(),
            head: Cell::new(None),
            held: Cell::new(0),
            given_up: RefCell::default(),
            scratch: RefCell::default(),
            beside,
            gathers: gathers_short_pieces(&user_agent()),
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
        if let Some(beside) = &self.beside {
            beside.stop(files);
        }
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
        if let Some(beside) = &self.beside {
            beside.stop(&(0..self.files.len()));
            beside.end();
        }
        self.notify.wake();
    }

    /// Writes part `part` into the zip the page opened as `zip`, then tells the page
    /// how it ended.
    pub fn save_part(self: &Rc<Self>, part: usize, zip: &str) {
        let run = Rc::clone(self);
        match zip_stream(zip) {
            Ok(stream) => spawn_local(async move { run.write_part(part, stream).await }),
            Err(error) => {
                let outcome = match error_name(&error).as_str() {
                    "AbortError" => PartOutcome::CancelledInBrowser,
                    _ => PartOutcome::Broken(describe(&error)),
                };
                self.steer.tell(Reply::Part { part, outcome });
            }
        }
    }

    /// Forgets what `files` hold: their part is fetched again.
    pub fn forget(&self, files: &Range<FileId>) {
        for file in files.clone() {
            let old = std::mem::take(&mut *self.slots[file].borrow_mut());
            self.held.set(self.held.get() - old.held);
            self.given_up.borrow_mut().remove(&file);
            if let Some(beside) = self.beside_for(file) {
                beside.forget(file);
            }
        }
    }

    async fn attempt(self: &Rc<Self>, file: FileId, url: &str, from: u64) -> Event {
        let signal = match self.transfers.begin(file) {
            Ok(signal) => signal,
            Err(event) => return event,
        };
        let event = match self.beside_for(file) {
            Some(beside) => self.transfer_beside(beside, file, url, from, &signal).await,
            None => {
                let mut sums = self.slots[file]
                    .borrow_mut()
                    .sums
                    .take()
                    .unwrap_or_default();
                match self.transfer(file, url, from, &signal, &mut sums).await {
                    Ok(()) => self.complete(file, sums),
                    Err(event) => {
                        self.slots[file].borrow_mut().sums = Some(sums);
                        event
                    }
                }
            }
        };
        self.transfers.end(file);
        event
    }

    /// The worker beside, where `file` is fetched and hashed there.
    fn beside_for(&self, file: FileId) -> Option<&Rc<Beside>> {
        self.beside.as_ref().filter(|_| self.files[file].is_long())
    }

    async fn write_part(self: Rc<Self>, part: usize, stream: ZipStream) {
        let outcome = match self.write_entries(part, &stream).await {
            Ok(()) => {
                stream.end();
                PartOutcome::Saved
            }
            Err(outcome) => {
                stream.abort(&format!("{outcome:?}"));
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

    /// Writes the files of `part` into a zip handed to `stream` as it grows, then its
    /// checksums and report.
    async fn write_entries(&self, part: usize, stream: &ZipStream) -> Result<(), PartOutcome> {
        let broken = |error: rawzip::Error| PartOutcome::Broken(error.to_string());
        let written = |error: std::io::Error| PartOutcome::Broken(error.to_string());
        let format = Rc::new(RefCell::new(Format::default()));
        let mut archive = ZipArchiveWriter::new(Writing(Rc::clone(&format)));
        let files = self.parts[part].files.clone();
        for file in files.clone() {
            self.head.set(Some(file));
            self.notify.wake();
            let (mut entry, _) =
                start_entry(&mut archive, &self.files[file].name).map_err(broken)?;
            let gathered = self.gathers && !self.files[file].is_long();
            loop {
                match self.next_chunk(file) {
                    Next::Bytes(piece) if gathered && piece.length() < PASSED_AS_IT_CAME => {
                        pass(&mut entry, &format, piece.length()).map_err(written)?;
                        format.borrow_mut().gather(&piece);
                        self.notify.wake();
                        if format.borrow().bytes.len() >= HAND_OVER_BYTES {
                            hand_over(&format, stream).await?;
                        }
                    }
                    Next::Bytes(piece) => {
                        // What is gathered before it first; then the piece itself, which
                        // the zip writer only counts.
                        hand_over(&format, stream).await?;
                        pass(&mut entry, &format, piece.length()).map_err(written)?;
                        self.notify.wake();
                        stream.write(&piece).await?;
                    }
                    Next::End => break,
                    Next::Failed(outcome) => return Err(outcome),
                    Next::Wait if format.borrow().bytes.is_empty() => self.notify.wait().await,
                    Next::Wait => {
                        // What is gathered goes to the browser once nothing came for a
                        // moment (handing it over at every wait made a chunk per
                        // network chunk).
                        if !self.notify.wait_at_most(QUIET).await {
                            hand_over(&format, stream).await?;
                        }
                    }
                }
            }
            let slot = self.slots[file].borrow();
            let crc = slot.whole.as_ref().map_or(0, |whole| whole.crc);
            let descriptor = DataDescriptorOutput::new(crc, slot.received);
            drop(slot);
            entry.finish(descriptor).map_err(broken)?;
        }
        let md5s: Vec<String> = files
            .clone()
            .map(|file| {
                let slot = self.slots[file].borrow();
                slot.whole
                    .as_ref()
                    .map(|whole| whole.md5.clone())
                    .unwrap_or_default()
            })
            .collect();
        let written_files: Vec<Written> = files
            .zip(&md5s)
            .map(|(file, md5)| Written {
                listed: &self.files[file],
                md5,
            })
            .collect();
        for (name, text) in [
            (CHECKSUMS_NAME, checksums(&written_files)),
            (REPORT_NAME, report(&written_files)),
        ] {
            let (mut entry, config) = start_entry(&mut archive, name).map_err(broken)?;
            let mut data = config.wrap(&mut entry);
            data.write_all(text.as_bytes()).map_err(written)?;
            let (_, descriptor) = data.finish().map_err(broken)?;
            entry.finish(descriptor).map_err(broken)?;
        }
        archive.finish().map_err(broken)?;
        hand_over(&format, stream).await
    }

    /// The next bytes of `file` for the zip, or why there are none now.
    fn next_chunk(&self, file: FileId) -> Next {
        let mut slot = self.slots[file].borrow_mut();
        if let Some(piece) = slot.chunks.pop_front() {
            let length = piece.length() as usize;
            slot.held -= length;
            self.held.set(self.held.get() - length);
            return Next::Bytes(piece);
        }
        if slot.whole.is_some() {
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

    /// Streams the file from byte `from` into its slot, where the zip takes it, until
    /// the answer ends; or the event that ends this try.
    async fn transfer(
        self: &Rc<Self>,
        file: FileId,
        url: &str,
        from: u64,
        signal: &AbortSignal,
        sums: &mut Sums,
    ) -> Result<(), Event> {
        let mut body = Body::open(file, url, from, signal).await?;
        self.steer.event(Event::Started { file, from });
        loop {
            let Some(chunk) = body.next(signal).await? else {
                return Ok(());
            };
            let total = chunk.length();
            // A piece at a time: WebKit hands over 20 MB at once, which the zip then
            // waited for whole at every step.
            for start in (0..total).step_by(PIECE_BYTES as usize) {
                let piece = chunk.subarray(start, total.min(start + PIECE_BYTES));
                if let Err(event) = self.keep(file, piece, Some(sums)) {
                    body.cancel();
                    return Err(event);
                }
                // Ahead of the zip: wait until it has taken enough.
                while self.holds_too_much(file) && !signal.aborted() {
                    self.notify.wait().await;
                }
                if signal.aborted() {
                    body.cancel();
                    return Err(Event::Interrupted { file });
                }
            }
        }
    }

    /// A try of `file` made by the worker beside: its chunks come hashed, and go into
    /// its slot for the zip; the event that ends the try.
    async fn transfer_beside(
        &self,
        beside: &Beside,
        file: FileId,
        url: &str,
        from: u64,
        signal: &AbortSignal,
    ) -> Event {
        let mut heard = beside.fetch(file, url, from, self.files[file].size);
        // What ends the try here; the worker beside is heard until it ends there too,
        // so the bytes kept here are the bytes hashed there.
        let mut ended = None;
        let event = loop {
            let Some(next) = heard.next().await else {
                break Event::Interrupted { file };
            };
            match next {
                Heard::Opened => self.steer.event(Event::Started { file, from }),
                Heard::Bytes(chunk) => {
                    let length = chunk.length();
                    if ended.is_some() {
                        beside.took(length);
                        continue;
                    }
                    if let Err(event) = self.keep(file, chunk, None) {
                        beside.stop(&(file..file + 1));
                        ended = Some(event);
                        continue;
                    }
                    // Ahead of the zip: wait until it has taken enough.
                    while self.holds_too_much(file) && !signal.aborted() {
                        self.notify.wait().await;
                    }
                    beside.took(length);
                }
                Heard::Whole(whole) => break self.finished(file, whole),
                Heard::Over(event) => break event,
            }
        };
        beside.done(file);
        ended.unwrap_or(event)
    }

    /// Hashes `piece`, the next bytes of `file`, where `sums` are worked out here, and
    /// keeps it in its slot for the zip; fails when it goes past the listed size.
    fn keep(&self, file: FileId, piece: Uint8Array, sums: Option<&mut Sums>) -> Result<(), Event> {
        let length = piece.length() as usize;
        {
            let mut slot = self.slots[file].borrow_mut();
            if self.files[file]
                .size
                .is_some_and(|size| slot.received + length as u64 > size)
            {
                return Err(failed(file, Failure::TooManyBytes));
            }
            if let Some(sums) = sums {
                sums.update(&piece, &mut self.scratch.borrow_mut());
            }
            slot.received += length as u64;
            slot.held += length;
            self.held.set(self.held.get() + length);
            slot.chunks.push_back(piece);
        }
        self.steer.event(Event::Chunk {
            file,
            bytes: length as u64,
        });
        self.notify.wake();
        Ok(())
    }

    /// The answer ended: the whole file is in, unless it came short of the listing.
    fn complete(&self, file: FileId, sums: Sums) -> Event {
        let received = self.slots[file].borrow().received;
        if self.files[file].size.is_some_and(|size| received < size) {
            self.slots[file].borrow_mut().sums = Some(sums);
            return failed(file, Failure::Dropped);
        }
        self.finished(file, sums.finish())
    }

    /// Every byte of `file` is in, with these sums.
    fn finished(&self, file: FileId, whole: Whole) -> Event {
        let md5 = whole.md5.clone();
        self.slots[file].borrow_mut().whole = Some(whole);
        Event::Finished { file, md5 }
    }
}

/// The user agent of the engine this worker runs in.
fn user_agent() -> String {
    js_sys::global()
        .unchecked_into::<WorkerGlobalScope>()
        .navigator()
        .user_agent()
        .unwrap_or_default()
}

/// Hands the zip format's bytes written so far to the browser.
async fn hand_over(format: &Rc<RefCell<Format>>, stream: &ZipStream) -> Result<(), PartOutcome> {
    let chunk = {
        let mut format = format.borrow_mut();
        if format.bytes.is_empty() {
            return Ok(());
        }
        let chunk = Uint8Array::from(format.bytes.as_slice());
        // The buffer is used again.
        format.bytes.clear();
        chunk
    };
    stream.write(&chunk).await
}

/// Tells the zip writer of `length` more bytes of the file, which do not pass through it
/// (see [`Format`]): it keeps each entry's offset and length.
fn pass(entry: &mut impl Write, format: &RefCell<Format>, length: u32) -> std::io::Result<()> {
    static PASSED: [u8; 64 * 1024] = [0; 64 * 1024];
    let length = length as usize;
    format.borrow_mut().passing = true;
    let counted = (0..length)
        .step_by(PASSED.len())
        .try_for_each(|start| entry.write_all(&PASSED[..(length - start).min(PASSED.len())]));
    format.borrow_mut().passing = false;
    counted
}

/// What the zip writer writes: the zip format's own bytes, gathered until they go to
/// the browser; while `passing`, a file's bytes, which went to the browser as they came
/// or are gathered here, and are only counted (the writer keeps each entry's offset and
/// length).
#[derive(Default)]
struct Format {
    bytes: Vec<u8>,
    passing: bool,
}

impl Format {
    /// Gathers a file's `piece`, copied from the network's chunk straight into the bytes
    /// that go to the browser next (the zip writer was told of it by [`pass`]).
    fn gather(&mut self, piece: &Uint8Array) {
        let start = self.bytes.len();
        self.bytes.resize(start + piece.length() as usize, 0);
        piece.copy_to(&mut self.bytes[start..]);
    }
}

/// The zip writer's end of a part's [`Format`].
struct Writing(Rc<RefCell<Format>>);

impl Write for Writing {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut format = self.0.borrow_mut();
        if !format.passing {
            format.bytes.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[wasm_bindgen]
extern "C" {
    /// A zip's stream in the service worker (`public/download-worker.js`), which the
    /// browser's download manager saves.
    type ZipStream;

    /// The stream of the zip the page opened as `id`; fails when it is not open (with
    /// an `AbortError` when the browser cancelled its download).
    #[wasm_bindgen(js_name = bulkZipStream, catch)]
    fn zip_stream(id: &str) -> Result<ZipStream, JsValue>;

    /// Queues `chunk`; `null`, or a promise to wait for when the browser has enough
    /// queued. Fails once the person cancelled the download in the browser.
    #[wasm_bindgen(method, catch, js_name = write)]
    fn queue(this: &ZipStream, chunk: &Uint8Array) -> Result<JsValue, JsValue>;

    /// The zip is whole: the browser's download completes once it took every byte.
    #[wasm_bindgen(method)]
    fn end(this: &ZipStream);

    /// The zip cannot be completed: the browser's download fails.
    #[wasm_bindgen(method)]
    fn abort(this: &ZipStream, reason: &str);
}

impl ZipStream {
    /// Hands `bytes` to the browser, once it wants more.
    async fn write(&self, bytes: &Uint8Array) -> Result<(), PartOutcome> {
        let queued = self
            .queue(bytes)
            .map_err(|_| PartOutcome::CancelledInBrowser)?;
        if let Some(full) = queued.dyn_ref::<Promise>() {
            let _ = Settled::new(full).await;
        }
        Ok(())
    }
}
