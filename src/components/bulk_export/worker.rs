//! The bulk worker (`crates/bulk-worker`), from the page's side: started when the
//! person asks for a download (its wasm loads then, never before; for a folder, while
//! the picker is open), handed the run (what to fetch and where the bytes go), told the
//! person's orders, and heard. The conversation is `explorer_logic::bulk::worker`'s.

use explorer_logic::bulk::worker::{Command, Reply};
use explorer_logic::text::t;
use futures::StreamExt;
use js_sys::Array;
use wasm_bindgen::prelude::*;

use crate::workers::{AppWorker, Heard};

/// The worker's loader, beside index.html (trunk and `cargo xtask build` write it),
/// relative to the page's base as the app's other files are.
const LOADER: &str = "bulk-worker_loader.js";

/// What the worker says ([`Heard`]).
pub(super) type Replies = Heard<Reply>;

/// Whether this browser runs web workers (every browser the app supports does; a
/// locked-down one may not).
pub(super) fn available() -> bool {
    js_sys::Reflect::has(&js_sys::global(), &"Worker".into()).unwrap_or(false)
}

/// A bulk worker loading, not yet handed its run: started while the person still
/// chooses (the folder picker open), its load overlaps with their choice.
pub(super) struct Starting {
    /// The worker and what it says; `None` when the browser would not start it.
    loading: Option<(BulkWorker, Replies)>,
}

impl Starting {
    /// Starts loading a worker; whether it could start is told by [`Starting::set_up`].
    pub fn new() -> Starting {
        let loading = AppWorker::start(LOADER)
            .ok()
            .map(|(worker, replies)| (BulkWorker { worker }, replies));
        Starting { loading }
    }

    /// Once the worker listens, sets up its run (`Command::Zip`, or `Command::Folder`
    /// with the folder's handle `beside`); once it is ready, hands it back with what
    /// it says from then on. An error says why it could not start.
    pub async fn set_up(
        self,
        run: &Command,
        beside: &JsValue,
    ) -> Result<(BulkWorker, Replies), String> {
        let (worker, mut replies) = self.loading.ok_or_else(stopped)?;
        if replies.next().await.flatten() != Some(Reply::Listening) {
            return Err(stopped());
        }
        worker.send_beside(run, beside, false);
        match replies.next().await.flatten() {
            Some(Reply::Ready) => Ok((worker, replies)),
            _ => Err(stopped()),
        }
    }
}

/// Why a worker did not start, for the person.
fn stopped() -> String {
    t::bulk::file_worker_stopped().to_owned()
}

/// A running bulk worker. Dropping it stops the worker, and every transfer with it.
pub(super) struct BulkWorker {
    worker: AppWorker,
}

impl BulkWorker {
    /// Starts a worker and sets up its run (`Command::Zip`, or `Command::Folder` with
    /// the folder's handle `beside`); once it is ready, hands it back with what it
    /// says from then on. An error says why it could not start.
    pub async fn start(run: &Command, beside: &JsValue) -> Result<(BulkWorker, Replies), String> {
        Starting::new().set_up(run, beside).await
    }

    /// Tells the worker `command`.
    pub fn send(&self, command: &Command) {
        self.send_beside(command, &JsValue::UNDEFINED, false);
    }

    /// Tells the worker `command` with `beside` (a handle, or a port that is moved:
    /// `moved`).
    pub fn send_beside(&self, command: &Command, beside: &JsValue, moved: bool) {
        let message = Array::of2(&JsValue::from_str(&command.to_json()), beside);
        // Fails only when the worker is gone, which its error event has told.
        let _ = self.worker.post(&message, moved.then_some(beside));
    }
}
