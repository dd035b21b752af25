//! The web worker that runs a bulk download for the app (`src/components/bulk_export/`):
//! it keeps the run's queue, fetches each file when the queue says, hashes it as it
//! passes and writes it into a zip part (streamed to the service worker that answers the
//! part's address) or into the folder the person picked. The page's thread touches no
//! byte of the download and no step from one file to the next, so it stays free however
//! fast the files come.
//!
//! The page keeps the session and the words; the conversation is
//! `explorer_logic::bulk::worker`'s ([`Command`] in, [`Reply`] out, JSON):
//! 1. The worker says [`Reply::Listening`] once it listens.
//! 2. The page sends [`Command::Zip`] or [`Command::Folder`] (with the folder's handle);
//!    the worker says [`Reply::Ready`].
//! 3. The page sends the person's orders (the first: start); the worker carries the
//!    queue's actions out and logs what the queue applied ([`Reply::Log`]), asking the
//!    page only for what needs the session or its words.
//!
//! Built for wasm32 with wasm-bindgen's `no-modules` output (a classic worker in every
//! browser) by `cargo xtask build` and by trunk (index.html), which write
//! `bulk-worker_loader.js` to start it. Built for speed rather than size (its md5 is
//! the download's pace), and loaded only when a download starts.

mod fetch;
mod folder;
mod news;
mod steer;
mod zip;

use std::cell::RefCell;
use std::rc::Rc;

use explorer_logic::bulk::worker::{Command, Reply};
use js_sys::Array;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use steer::{Steer, post};

fn main() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // The run this worker carries: one per worker.
    let run = RefCell::new(None::<Rc<Steer>>);
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        // `[json, beside]`: the command and the handle or port that comes with it.
        let message: Array = event.data().unchecked_into();
        let command = message
            .get(0)
            .as_string()
            .and_then(|json| serde_json::from_str::<Command>(&json).ok());
        let Some(command) = command else { return };
        let beside = message.get(1);
        let current = run.borrow().clone();
        match (current, command) {
            (Some(steer), command) => steer.obey(command, beside),
            (None, Command::Zip { run: setup, parts }) => {
                *run.borrow_mut() = Some(Steer::zip(setup, parts));
            }
            (None, Command::Folder { run: setup }) => {
                *run.borrow_mut() = Some(Steer::folder(setup, beside));
            }
            // A command before its run began: the page's mistake, dropped.
            (None, _) => {}
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it; so does its listener.
    on_message.forget();
    post(&scope, &Reply::Listening);
}
