//! A zip's long files fetched and hashed (md5 and CRC) in a dedicated worker beside the
//! service worker its run lives in, in Chromium (`explorer_logic::bulk::worker::fetch_beside`):
//! the service worker's one thread also hands the download's bytes to the browser,
//! which waits for it meanwhile, so it only takes each chunk the worker beside posts and
//! hands it on. Both ends are here: [`Beside`], the run's; [`serve`], the dedicated
//! worker's. The queue stays the run's: the worker beside makes one try at a time, as
//! the run asks, and says how it ended.
//!
//! On the port, each message an array, its kind first and the file's id second. Run to
//! worker: `["fetch", file, url, from, size]` (a try of the file from byte `from`, its
//! listed size or `null`); `["stop", file]`, stop that try; `["forget", file]`, forget
//! the file's sums (fetched again from its start); `["took", 0, length]`, the run took
//! `length` bytes of the chunks posted (at most [`AHEAD_BYTES`] are on their way).
//! Worker to run: `["opened", file]`, the service answered; `["bytes", file, chunk]`,
//! the next bytes, hashed; `["whole", file, md5, crc]`, every byte in;
//! `["over", file, event]`, the try ended otherwise (the queue's event, as JSON).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use explorer_logic::bulk::answer::Failure;
use explorer_logic::bulk::file::FileId;
use explorer_logic::bulk::queue::Event;
use futures::channel::mpsc;
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::{MessageEvent, MessagePort};

use crate::fetch::{Body, Transfers, failed};
use crate::sums::{Sums, Whole};
use crate::wakeup::Wakeup;

/// How many bytes the worker beside may have posted that the run has not taken.
const AHEAD_BYTES: f64 = 8.0 * 1024.0 * 1024.0;
/// How many bytes the run takes before it says so (a message per chunk taken would be
/// a step of both threads for each of the network's chunks).
const TOLD_EVERY: u32 = 1024 * 1024;

/// What the run hears of a try beside.
pub enum Heard {
    Opened,
    Bytes(Uint8Array),
    Whole(Whole),
    Over(Event),
}

/// The run's end: its long files' tries, made beside.
pub struct Beside {
    port: MessagePort,
    /// Each try under way, and where what is heard of it goes.
    tries: Rc<RefCell<HashMap<FileId, mpsc::UnboundedSender<Heard>>>>,
    /// Bytes taken and not told yet.
    untold: Cell<u32>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
}

impl Beside {
    /// Tries made through `port`, whose other end the page handed to the worker beside.
    pub fn new(port: MessagePort) -> Rc<Beside> {
        let tries = Rc::new(RefCell::new(
            HashMap::<FileId, mpsc::UnboundedSender<Heard>>::new(),
        ));
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
            let tries = Rc::clone(&tries);
            move |event: MessageEvent| {
                let message: Array = event.data().unchecked_into();
                let file = message.get(1).as_f64().unwrap_or_default() as FileId;
                let heard = match message.get(0).as_string().as_deref() {
                    Some("opened") => Heard::Opened,
                    Some("bytes") => Heard::Bytes(message.get(2).unchecked_into()),
                    Some("whole") => Heard::Whole(Whole {
                        md5: message.get(2).as_string().unwrap_or_default(),
                        crc: message.get(3).as_f64().unwrap_or_default() as u32,
                    }),
                    _ => {
                        let event = message.get(2).as_string();
                        let event = event.and_then(|json| serde_json::from_str(&json).ok());
                        Heard::Over(event.unwrap_or(Event::Interrupted { file }))
                    }
                };
                if let Some(try_) = tries.borrow().get(&file) {
                    let _ = try_.unbounded_send(heard);
                }
            }
        });
        // Setting `onmessage` starts the port.
        port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Rc::new(Beside {
            port,
            tries,
            untold: Cell::new(0),
            _on_message: on_message,
        })
    }

    /// A try of `file` from byte `from`: what is heard of it, ending with
    /// [`Heard::Whole`] or [`Heard::Over`] (or nothing more, once the run is over).
    pub fn fetch(
        &self,
        file: FileId,
        url: &str,
        from: u64,
        size: Option<u64>,
    ) -> mpsc::UnboundedReceiver<Heard> {
        let (sender, heard) = mpsc::unbounded();
        self.tries.borrow_mut().insert(file, sender);
        let size = size.map_or(JsValue::NULL, |size| (size as f64).into());
        let message = Array::of5(
            &"fetch".into(),
            &(file as f64).into(),
            &url.into(),
            &(from as f64).into(),
            &size,
        );
        self.post(&message);
        heard
    }

    /// The try of `file` is over here.
    pub fn done(&self, file: FileId) {
        self.tries.borrow_mut().remove(&file);
    }

    /// Stops the tries of `files` under way (each ends with [`Event::Interrupted`]).
    pub fn stop(&self, files: &Range<FileId>) {
        let under_way: Vec<FileId> = self.tries.borrow().keys().copied().collect();
        for file in under_way.into_iter().filter(|file| files.contains(file)) {
            self.post(&Array::of2(&"stop".into(), &(file as f64).into()));
        }
    }

    /// The run took `length` bytes of what came.
    pub fn took(&self, length: u32) {
        let untold = self.untold.get() + length;
        if untold < TOLD_EVERY {
            self.untold.set(untold);
            return;
        }
        self.untold.set(0);
        self.post(&Array::of3(&"took".into(), &0.into(), &untold.into()));
    }

    /// Forgets the sums of `file`'s bytes so far.
    pub fn forget(&self, file: FileId) {
        self.post(&Array::of2(&"forget".into(), &(file as f64).into()));
    }

    /// The run is over: whoever waits for a try hears no more.
    pub fn end(&self) {
        self.tries.borrow_mut().clear();
    }

    fn post(&self, message: &Array) {
        // Fails only once the page has let the run go.
        let _ = self.port.post_message(message);
    }
}

/// The worker beside's end: makes the tries the run asks for on `port`, for as long as
/// the worker lives.
pub fn serve(port: MessagePort) {
    let worker = Rc::new(Worker {
        port: port.clone(),
        files: RefCell::default(),
        transfers: Transfers::default(),
        ahead: Cell::new(0.0),
        taken: Wakeup::default(),
    });
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let message: Array = event.data().unchecked_into();
        let number = |at| message.get(at).as_f64().unwrap_or_default();
        let file = number(1) as FileId;
        match message.get(0).as_string().as_deref() {
            Some("fetch") => {
                let url = message.get(2).as_string().unwrap_or_default();
                let (from, size) = (number(3) as u64, message.get(4).as_f64());
                let worker = Rc::clone(&worker);
                spawn_local(async move {
                    worker
                        .try_file(file, &url, from, size.map(|s| s as u64))
                        .await;
                });
            }
            Some("stop") => {
                worker.transfers.stop(&(file..file + 1));
                // A try waiting for the run to take what it posted stops waiting.
                worker.taken.wake();
            }
            Some("forget") => drop(worker.files.borrow_mut().remove(&file)),
            Some("took") => {
                worker.ahead.set(worker.ahead.get() - number(2));
                worker.taken.wake();
            }
            _ => {}
        }
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // Lives as long as the worker, which the page stops with the run.
    on_message.forget();
}

/// The worker beside: the files' sums so far, its transfers, and how far ahead it is.
struct Worker {
    port: MessagePort,
    /// Each file's sums, and how many of its bytes they cover.
    files: RefCell<HashMap<FileId, (Sums, u64)>>,
    transfers: Transfers,
    /// Bytes posted and not taken by the run.
    ahead: Cell<f64>,
    taken: Wakeup,
}

impl Worker {
    /// One try of `file` from byte `from`, said to the run as it goes.
    async fn try_file(&self, file: FileId, url: &str, from: u64, size: Option<u64>) {
        let signal = match self.transfers.begin(file) {
            Ok(signal) => signal,
            Err(event) => return self.over(file, &event),
        };
        let event = match self.transfer(file, url, from, size, &signal).await {
            Ok(()) => self.answer_ended(file, size),
            Err(event) => Some(event),
        };
        self.transfers.end(file);
        if let Some(event) = event {
            self.over(file, &event);
        }
    }

    /// Streams the file from byte `from` to the run, hashing it as it passes.
    async fn transfer(
        &self,
        file: FileId,
        url: &str,
        from: u64,
        size: Option<u64>,
        signal: &web_sys::AbortSignal,
    ) -> Result<(), Event> {
        let mut body = Body::open(file, url, from, signal).await?;
        self.post(&Array::of2(&"opened".into(), &(file as f64).into()), None);
        let mut scratch = Vec::new();
        loop {
            let Some(chunk) = body.next(signal).await? else {
                return Ok(());
            };
            let length = chunk.length();
            {
                let mut files = self.files.borrow_mut();
                let (sums, received) = files.entry(file).or_insert_with(|| (Sums::default(), from));
                if size.is_some_and(|size| *received + u64::from(length) > size) {
                    body.cancel();
                    return Err(failed(file, Failure::TooManyBytes));
                }
                sums.update(&chunk, &mut scratch);
                *received += u64::from(length);
            }
            self.ahead.set(self.ahead.get() + f64::from(length));
            let message = Array::of3(&"bytes".into(), &(file as f64).into(), &chunk);
            // The chunk itself goes: the network's buffer, never copied on this side.
            self.post(&message, Some(&chunk.buffer()));
            while self.ahead.get() > AHEAD_BYTES && !signal.aborted() {
                self.taken.wait().await;
            }
            if signal.aborted() {
                body.cancel();
                return Err(Event::Interrupted { file });
            }
        }
    }

    /// The answer ended: the file's sums, said to the run, unless it came short of
    /// the listing (then the event that says so).
    fn answer_ended(&self, file: FileId, size: Option<u64>) -> Option<Event> {
        let mut files = self.files.borrow_mut();
        let received = files.get(&file).map_or(0, |(_, received)| *received);
        if size.is_some_and(|size| received < size) {
            return Some(failed(file, Failure::Dropped));
        }
        let whole = files
            .remove(&file)
            .map(|(sums, _)| sums)
            .unwrap_or_default()
            .finish();
        let message = Array::of4(
            &"whole".into(),
            &(file as f64).into(),
            &whole.md5.into(),
            &whole.crc.into(),
        );
        self.post(&message, None);
        None
    }

    fn over(&self, file: FileId, event: &Event) {
        let json = serde_json::to_string(event).unwrap_or_default();
        let message = Array::of3(&"over".into(), &(file as f64).into(), &json.into());
        self.post(&message, None);
    }

    fn post(&self, message: &Array, moved: Option<&JsValue>) {
        // Fails only once the page has let the run go.
        let _ = match moved {
            Some(moved) => self
                .port
                .post_message_with_transferable(message, &Array::of1(moved)),
            None => self.port.post_message(message),
        };
    }
}
