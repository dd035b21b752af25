//! What the worker tells the page: replies at once, and the queue's events, with the
//! bytes that arrive gathered into one [`Event::Chunk`] a file a few times a second
//! (a message per network chunk would keep the page's thread busy for nothing).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use explorer_logic::bulk::file::FileId;
use explorer_logic::bulk::queue::Event;
use explorer_logic::bulk::worker::Reply;
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::spawn_local;
use web_sys::DedicatedWorkerGlobalScope;

/// How long arrived bytes wait before the page hears of them.
const CHUNK_EVERY_MS: u32 = 100;

/// The worker's side of the conversation with the page.
pub struct Outbox {
    scope: DedicatedWorkerGlobalScope,
    /// Bytes arrived per file, not yet told.
    arrived: RefCell<BTreeMap<FileId, u64>>,
    /// A telling of the arrived bytes is due.
    due: Cell<bool>,
}

impl Outbox {
    pub fn new(scope: DedicatedWorkerGlobalScope) -> Outbox {
        Outbox {
            scope,
            arrived: RefCell::default(),
            due: Cell::new(false),
        }
    }

    /// Tells the page `reply`, after the bytes arrived so far.
    pub fn reply(&self, reply: Reply) {
        self.tell_arrived();
        self.post(&reply);
    }

    /// Tells the page `event`: bytes soon, anything else at once, in order.
    pub fn event(self: &Rc<Self>, event: Event) {
        if let Event::Chunk { file, bytes } = event {
            *self.arrived.borrow_mut().entry(file).or_default() += bytes;
            if !self.due.replace(true) {
                let outbox = Rc::clone(self);
                spawn_local(async move {
                    TimeoutFuture::new(CHUNK_EVERY_MS).await;
                    outbox.tell_arrived();
                });
            }
            return;
        }
        self.reply(Reply::Events(vec![event]));
    }

    fn tell_arrived(&self) {
        self.due.set(false);
        let arrived = std::mem::take(&mut *self.arrived.borrow_mut());
        if !arrived.is_empty() {
            let events = arrived
                .into_iter()
                .map(|(file, bytes)| Event::Chunk { file, bytes })
                .collect();
            self.post(&Reply::Events(events));
        }
    }

    fn post(&self, reply: &Reply) {
        // Fails only once the page has let the worker go: nobody listens then.
        let _ = self
            .scope
            .post_message(&JsValue::from_str(&reply.to_json()));
    }
}
