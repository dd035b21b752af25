//! The worker that runs a bulk download for the app (`src/components/bulk_export/`): it
//! keeps the run's queue, fetches each file when the queue says, hashes it as it passes
//! and writes it into a zip part (the stream the service worker it runs in answers the
//! part's address with) or into the folder the person picked (in a dedicated worker).
//! The page's thread touches no byte of the download and no step from one file to the
//! next, so it stays free however fast the files come.
//!
//! The page keeps the session and the words; the conversation is
//! `explorer_logic::bulk::worker`'s (`Command` in, `Reply` out, JSON), over the
//! worker's own scope (a folder's run, in a dedicated worker started from
//! `public/folder-worker.js`, which writes the files for it) or over a port (a zip's
//! run, in the service worker that answers the zip's address: `public/download-worker.js`
//! loads this same wasm, and hands it a port per run):
//! 1. The worker says `Reply::Listening` once it listens.
//! 2. The page sends `Command::Zip` or `Command::Folder` (with the folder's handle);
//!    the worker says `Reply::Ready`.
//! 3. The page sends the person's orders (the first: start); the worker carries the
//!    queue's actions out and logs what the queue applied (`Reply::Log`), asking the
//!    page only for what needs the session or its words.
//! 4. `Command::Quit`: the page let the run go; everything of it stops.
//!
//! A dedicated worker may instead be told `Command::FetchBeside`, with a port beside: it then
//! fetches and hashes the long files of the zip's run whose `Command::Zip` came with the
//! port's other end, as that run asks (`beside.rs`).
//!
//! Built for wasm32 with wasm-bindgen's `no-modules` output (a classic worker in every
//! browser, and a script a service worker imports) by `cargo xtask build` and by trunk
//! (index.html), which write `bulk-worker_loader.js` to start it. Built for speed rather
//! than size (its md5 is the download's pace), and loaded only when a download starts.

mod beside;
mod fetch;
mod folder;
mod news;
mod page;
mod settled;
mod steer;
mod sums;
mod wakeup;
mod zip;

use std::cell::RefCell;
use std::rc::Rc;

use explorer_logic::bulk::worker::{Command, Reply};
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, MessagePort};

use beside::Beside;
use page::Page;
use steer::Steer;

/// What the service worker's script names the function it is handed once this wasm is
/// loaded there: the function that serves a run over a port.
const LOADED_IN_SERVICE_WORKER: &str = "bulkEngineLoaded";

fn main() {
    let global = js_sys::global();
    let loaded = Reflect::get(&global, &LOADED_IN_SERVICE_WORKER.into())
        .ok()
        .and_then(|loaded| loaded.dyn_into::<Function>().ok());
    match loaded {
        // In the service worker: a run for each port it hands over, and what quits it.
        Some(loaded) => {
            let serve = Closure::<dyn Fn(MessagePort) -> JsValue>::new(|port| {
                serve(Page::Port(port)).into_js_value()
            });
            let _ = loaded.call1(&JsValue::UNDEFINED, serve.as_ref());
            // Called for as long as the service worker lives.
            serve.forget();
        }
        // A dedicated worker: one run, over its own scope.
        // (The page stops the worker itself.)
        None => drop(serve(Page::Scope(global.unchecked_into()))),
    }
}

/// Carries out what `page` says, one run for as long as the page keeps it, and tells it
/// the worker listens. Hands back what quits the run as `Command::Quit` does, for a page
/// gone without saying so (closed, reloaded).
fn serve(page: Page) -> Closure<dyn Fn()> {
    // The run this page asked for: one per page.
    let run = Rc::new(RefCell::new(None::<Rc<Steer>>));
    let quit = {
        let (run, page) = (Rc::clone(&run), page.clone());
        move || {
            if let Some(steer) = run.borrow_mut().take() {
                steer.quit();
            }
            page.stop_listening();
        }
    };
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
        let (run, page, quit) = (Rc::clone(&run), page.clone(), quit.clone());
        move |event: MessageEvent| {
            // `[json, beside]`: the command and what comes with it (the folder's handle,
            // the port to or from the worker that hashes a zip's long files).
            let message: Array = event.data().unchecked_into();
            let command = message
                .get(0)
                .as_string()
                .and_then(|json| serde_json::from_str::<Command>(&json).ok());
            let Some(command) = command else { return };
            let beside = message.get(1);
            let current = run.borrow().clone();
            match (current, command) {
                (_, Command::Quit) => quit(),
                (Some(steer), command) => steer.obey(command),
                (None, Command::Zip { run: setup, parts }) => {
                    let beside = beside.dyn_into::<MessagePort>().ok().map(Beside::new);
                    *run.borrow_mut() = Some(Steer::zip(setup, parts, beside, page.clone()));
                }
                (None, Command::FetchBeside) => {
                    if let Ok(port) = beside.dyn_into::<MessagePort>() {
                        beside::serve(port);
                        page.post(&Reply::Ready);
                    }
                }
                (None, Command::Folder { run: setup }) => {
                    *run.borrow_mut() = Some(Steer::folder(setup, beside, page.clone()));
                }
                // A command before its run began: the page's mistake, dropped.
                (None, _) => {}
            }
        }
    });
    page.listen(on_message.as_ref().unchecked_ref());
    // Lives as long as the worker: a few bytes once its run has quit.
    on_message.forget();
    page.post(&Reply::Listening);
    Closure::new(quit)
}
