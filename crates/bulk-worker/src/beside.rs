//! A zip's long files hashed (md5 and CRC) in a dedicated worker beside the service
//! worker its run lives in, in Chromium (`explorer_logic::bulk::worker::hash_beside`):
//! the service worker's one thread also hands the download's bytes to the browser,
//! which waits for it meanwhile. Both ends are here: [`Hashing`], the run's, posts a
//! copy of each piece and asks for a file's sums at its end; [`serve`], the dedicated
//! worker's.
//!
//! On the port, run to worker: `[key, bytes]`, more of the file known as `key`;
//! `[key, null]`, its end, answered `[key, md5, crc]`; `[key]`, forget it. Worker to
//! run: `[-1, length]` once a piece is hashed, so the run keeps at most
//! [`BEHIND_BYTES`] waiting there.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures::channel::oneshot;
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, MessagePort};

use crate::sums::{Sums, Whole};
use crate::wakeup::Wakeup;

/// How many bytes may wait for the worker beside before the run's fetches wait too.
const BEHIND_BYTES: usize = 8 * 1024 * 1024;
/// The key of the worker's word that a piece is hashed.
const HASHED: f64 = -1.0;

/// The run's end: the files' sums worked out beside.
pub struct Hashing {
    port: MessagePort,
    heard: Rc<Heard>,
    next_key: Cell<u32>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
}

/// What the worker beside said, and who waits for it.
#[derive(Default)]
struct Heard {
    /// Bytes posted and not hashed yet.
    behind: Cell<usize>,
    caught_up: Wakeup,
    answers: RefCell<HashMap<u32, oneshot::Sender<Whole>>>,
    /// The run is over: nothing more is waited for.
    stopped: Cell<bool>,
}

impl Hashing {
    /// Hashing through `port`, whose other end the page handed to the worker beside.
    pub fn new(port: MessagePort) -> Rc<Hashing> {
        let heard = Rc::new(Heard::default());
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
            let heard = Rc::clone(&heard);
            move |event: MessageEvent| {
                let message: Array = event.data().unchecked_into();
                let number = |at| message.get(at).as_f64().unwrap_or_default();
                let key = number(0);
                if key == HASHED {
                    let hashed = number(1) as usize;
                    heard.behind.set(heard.behind.get().saturating_sub(hashed));
                    heard.caught_up.wake();
                } else if let Some(answer) = heard.answers.borrow_mut().remove(&(key as u32)) {
                    let md5 = message.get(1).as_string().unwrap_or_default();
                    let _ = answer.send(Whole {
                        md5,
                        crc: number(2) as u32,
                    });
                }
            }
        });
        // Setting `onmessage` starts the port.
        port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Rc::new(Hashing {
            port,
            heard,
            next_key: Cell::new(0),
            _on_message: on_message,
        })
    }

    /// A new file's sums, worked out beside.
    pub fn file(self: &Rc<Self>) -> SumsBeside {
        let key = self.next_key.get();
        self.next_key.set(key + 1);
        SumsBeside {
            hashing: Rc::clone(self),
            key,
            finished: false,
        }
    }

    /// Waits until the worker beside has few enough bytes left to hash.
    pub async fn caught_up(&self) {
        while self.heard.behind.get() > BEHIND_BYTES && !self.heard.stopped.get() {
            self.heard.caught_up.wait().await;
        }
    }

    /// The run is over: whoever waits for the worker beside waits no more (a file's
    /// sums come as `None`).
    pub fn stop(&self) {
        self.heard.stopped.set(true);
        self.heard.answers.borrow_mut().clear();
        self.heard.behind.set(0);
        self.heard.caught_up.wake();
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

/// One file's sums, worked out beside; forgotten there when dropped unfinished.
pub struct SumsBeside {
    hashing: Rc<Hashing>,
    key: u32,
    finished: bool,
}

impl SumsBeside {
    /// The file's next bytes: a copy goes to the worker beside.
    pub fn update(&self, piece: &Uint8Array) {
        let copy = piece.slice(0, piece.length());
        let heard = &self.hashing.heard;
        heard
            .behind
            .set(heard.behind.get() + piece.length() as usize);
        let message = Array::of2(&self.key.into(), &copy);
        self.hashing.post(&message, Some(&copy.buffer()));
    }

    /// The sums of every byte given; `None` once the run is over.
    pub async fn finish(mut self) -> Option<Whole> {
        let (answer, answered) = oneshot::channel();
        let hashing = Rc::clone(&self.hashing);
        if hashing.heard.stopped.get() {
            return None;
        }
        hashing.heard.answers.borrow_mut().insert(self.key, answer);
        hashing.post(&Array::of2(&self.key.into(), &JsValue::NULL), None);
        self.finished = true;
        answered.await.ok()
    }
}

impl Drop for SumsBeside {
    fn drop(&mut self) {
        if !self.finished {
            self.hashing.post(&Array::of1(&self.key.into()), None);
        }
    }
}

/// The worker beside's end: hashes what comes on `port`, for as long as the worker lives.
pub fn serve(port: MessagePort) {
    let files = RefCell::new(HashMap::<u32, Sums>::new());
    let scratch = RefCell::new(Vec::<u8>::new());
    let answer = port.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let message: Array = event.data().unchecked_into();
        let key = message.get(0).as_f64().unwrap_or_default() as u32;
        let mut files = files.borrow_mut();
        if message.length() == 1 {
            files.remove(&key);
            return;
        }
        let bytes = message.get(1);
        if bytes.is_null() {
            let whole = files.remove(&key).unwrap_or_default().finish();
            let md5 = JsValue::from_str(&whole.md5);
            let _ = answer.post_message(&Array::of3(&key.into(), &md5, &whole.crc.into()));
            return;
        }
        let bytes: Uint8Array = bytes.unchecked_into();
        let sums = files.entry(key).or_default();
        sums.update(&bytes, &mut scratch.borrow_mut());
        let hashed = Array::of2(&HASHED.into(), &bytes.length().into());
        let _ = answer.post_message(&hashed);
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // Lives as long as the worker, which the page stops with the run.
    on_message.forget();
}
