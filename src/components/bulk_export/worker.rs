//! The bulk worker (`crates/bulk-worker`), from the page's side: started when the
//! person asks for a download (its wasm loads then, never before; for a folder, while
//! the picker is open, in a dedicated worker; for a zip, in the service worker that
//! answers the zip's address, with, in Chromium, a dedicated worker beside it fetching and hashing
//! the zip's long files), handed the run (what to fetch and where the bytes go),
//! told the person's orders, and heard. The conversation is
//! `explorer_logic::bulk::worker`'s.

use explorer_logic::bulk::worker::{Command, Reply, fetch_beside};
use explorer_logic::text::t;
use futures::StreamExt;
use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::zip_saver::{KeptAlive, START_LIMIT, engine, field};
use crate::time::within;
use crate::workers::{AppWorker, Heard};

/// The worker's loader, beside index.html (trunk and `cargo xtask build` write it),
/// relative to the page's base as the app's other files are; the service worker's
/// script imports it too.
pub(super) const LOADER: &str = "bulk-worker_loader.js";

/// The script of a folder's worker (`public/folder-worker.js`, beside the loader, which it
/// imports): it writes each file's bytes into the folder for the wasm.
const FOLDER_WORKER: &str = "folder-worker.js";

/// What travels beside a command to the worker.
pub(super) enum Beside {
    Nothing,
    /// The picked folder's handle (a folder's run), copied.
    Folder(web_sys::FileSystemDirectoryHandle),
    /// A port between a zip's run and the worker that hashes its long files, moved.
    Port(web_sys::MessagePort),
}

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
    /// Starts loading a folder's worker; whether it could start is told by
    /// [`Starting::set_up`].
    pub fn folder() -> Starting {
        Starting::start(FOLDER_WORKER)
    }

    /// Starts loading a worker from `script`.
    fn start(script: &str) -> Starting {
        let loading = AppWorker::start(script).ok().map(|(worker, replies)| {
            let worker = BulkWorker {
                worker,
                _kept: None,
                _beside: None,
            };
            (worker, replies)
        });
        Starting { loading }
    }

    /// Once the worker listens, sets up its run (`Command::Folder` with the folder's
    /// handle beside, or `Command::FetchBeside` with a port); once it is ready, hands it back
    /// with what it says from then on. An error says why it could not start.
    pub async fn set_up(
        self,
        run: &Command,
        beside: Beside,
    ) -> Result<(BulkWorker, Replies), String> {
        let (worker, replies) = self.loading.ok_or_else(stopped)?;
        worker.set_up(replies, run, beside).await
    }
}

/// Why a worker did not start, for the person.
fn stopped() -> String {
    t::bulk::file_worker_stopped().to_owned()
}

/// A running bulk worker. Dropping it stops the run, and every transfer with it.
pub(super) struct BulkWorker {
    worker: AppWorker,
    /// The service worker a zip's run lives in, kept alive meanwhile.
    _kept: Option<KeptAlive>,
    /// The worker that fetches and hashes a zip's long files beside the service worker,
    /// where one runs.
    _beside: Option<Box<BulkWorker>>,
}

impl BulkWorker {
    /// Starts a zip's run (`Command::Zip`) in the service worker that answers the zip's
    /// address, where its bytes go without leaving the process; once it is ready, hands
    /// it back with what it says from then on. An error says why it could not start.
    /// In Chromium (`fetch_beside`), the long files are fetched and hashed in a dedicated
    /// worker beside it, started meanwhile; one that will not start leaves them to the run.
    pub async fn start_zip(run: &Command) -> Result<(BulkWorker, Replies), String> {
        let beside_worker = async {
            // Read through `Reflect`, as the zip saver's calls are: a binding would grow
            // the first load.
            let navigator = web_sys::window()?.navigator();
            let user_agent = field(&navigator, "userAgent").as_string()?;
            let Command::Zip { run: setup, .. } = run else {
                return None;
            };
            if !fetch_beside(&user_agent, &setup.files) {
                return None;
            }
            let channel = web_sys::MessageChannel::new().ok()?;
            let (worker, _) = Starting::start(LOADER)
                .set_up(&Command::FetchBeside, Beside::Port(channel.port1()))
                .await
                .ok()?;
            Some((Box::new(worker), channel.port2()))
        };
        let (engine, beside_worker) = futures::join!(engine(), beside_worker);
        let (port, kept) = engine?;
        let (worker, replies) = AppWorker::over_port(port);
        let (beside_worker, beside) = match beside_worker {
            Some((worker, port)) => (Some(worker), Beside::Port(port)),
            None => (None, Beside::Nothing),
        };
        let worker = BulkWorker {
            worker,
            _kept: Some(kept),
            _beside: beside_worker,
        };
        worker.set_up(replies, run, beside).await
    }

    /// Once the worker listens, sets up its run; once it is ready, hands it back with
    /// what it says from then on.
    async fn set_up(
        self,
        mut replies: Replies,
        run: &Command,
        beside: Beside,
    ) -> Result<(BulkWorker, Replies), String> {
        let mut heard = async || {
            within(START_LIMIT, replies.next())
                .await
                .flatten()
                .flatten()
        };
        if heard().await != Some(Reply::Listening) {
            return Err(stopped());
        }
        self.send_beside(run, beside);
        match heard().await {
            Some(Reply::Ready) => Ok((self, replies)),
            _ => Err(stopped()),
        }
    }

    /// Tells the worker `command`.
    pub fn send(&self, command: &Command) {
        self.send_beside(command, Beside::Nothing);
    }

    /// Tells the worker `command` with `beside`.
    fn send_beside(&self, command: &Command, beside: Beside) {
        let json = JsValue::from_str(&command.to_json());
        let (beside, moved) = match beside {
            Beside::Nothing => (JsValue::UNDEFINED, None),
            Beside::Folder(handle) => (handle.into(), None),
            Beside::Port(port) => (port.clone().into(), Some(port.into())),
        };
        let message = Array::of2(&json, &beside);
        // Fails only when the worker is gone, which its error event has told.
        let _ = self.worker.post(&message, moved.as_ref());
    }
}

impl Drop for BulkWorker {
    /// The run quits (a dedicated worker is stopped too; a run in the service worker
    /// would otherwise go on without its page).
    fn drop(&mut self) {
        self.send(&Command::Quit);
    }
}
