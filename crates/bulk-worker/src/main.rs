//! The web worker that carries a bulk download's bytes for the app
//! (`src/components/bulk_export/`): it fetches each file the page names, hashes it as it
//! passes and writes it into a zip part (streamed to the service worker that answers the
//! part's address) or into the folder the person picked. The page's thread never
//! touches a byte of the download, so it stays free however fast the files come.
//!
//! The page keeps the queue, the links and the words; the conversation is
//! `explorer_logic::bulk::worker`'s ([`Command`] in, [`Reply`] out, JSON):
//! 1. The worker says [`Reply::Listening`] once it listens.
//! 2. The page sends [`Command::Zip`] or [`Command::Folder`] (with the folder's handle);
//!    the worker says [`Reply::Ready`].
//! 3. The page sends what to inspect, fetch, stop and save; the worker answers with
//!    events for the queue.
//!
//! Built for wasm32 with wasm-bindgen's `no-modules` output (a classic worker in every
//! browser) by `cargo xtask build` and by trunk (index.html), which write
//! `bulk-worker_loader.js` to start it. Built for speed rather than size (its md5 is
//! the download's pace), and loaded only when a download starts.

mod fetch;
mod folder;
mod outbox;
mod zip;

use std::cell::RefCell;
use std::rc::Rc;

use explorer_logic::bulk::worker::{Command, Reply};
use js_sys::Array;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use folder::FolderRun;
use outbox::Outbox;
use zip::ZipRun;

/// The run this worker carries: one per worker.
enum Run {
    None,
    Zip(Rc<ZipRun>),
    Folder(Rc<FolderRun>),
}

fn main() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let outbox = Rc::new(Outbox::new(scope.clone()));
    let run = Rc::new(RefCell::new(Run::None));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
        let outbox = Rc::clone(&outbox);
        move |event: MessageEvent| {
            // `[json, beside]`: the command and the handle or port that comes with it.
            let message: Array = event.data().unchecked_into();
            let command = message
                .get(0)
                .as_string()
                .and_then(|json| serde_json::from_str::<Command>(&json).ok());
            if let Some(command) = command {
                obey(&run, &outbox, command, message.get(1));
            }
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it; so does its listener.
    on_message.forget();
    outbox.reply(Reply::Listening);
}

/// Carries out `command`; `beside` is what travelled with it.
fn obey(run: &RefCell<Run>, outbox: &Rc<Outbox>, command: Command, beside: JsValue) {
    let current = std::mem::replace(&mut *run.borrow_mut(), Run::None);
    *run.borrow_mut() = match (current, command) {
        (Run::None, Command::Zip { files, parts }) => {
            outbox.reply(Reply::Ready {
                present: Some(Vec::new()),
            });
            Run::Zip(ZipRun::new(files, parts, Rc::clone(outbox)))
        }
        (Run::None, Command::Folder { files }) => Run::Folder(FolderRun::start(
            files,
            beside.unchecked_into(),
            Rc::clone(outbox),
        )),
        (Run::Zip(zip), command) => {
            zip.obey(command, beside);
            Run::Zip(zip)
        }
        (Run::Folder(folder), command) => {
            folder.obey(command);
            Run::Folder(folder)
        }
        // A command before its run began: the page's mistake, dropped.
        (Run::None, _) => Run::None,
    };
}
