//! The page a run answers to: the worker's own scope (a dedicated worker, the folder's)
//! or a message port (a run in the service worker that answers the zip's address, one
//! port per run). Both carry the same conversation: [`Command`] in, [`Reply`] out.

use std::cell::RefCell;
use std::rc::Rc;

use explorer_logic::bulk::worker::{Command, Reply};
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, MessagePort};

use crate::steer::Steer;

/// Where the page's commands come from and its replies go.
#[derive(Clone)]
pub enum Page {
    /// This dedicated worker's own scope.
    Scope(DedicatedWorkerGlobalScope),
    /// A port the page handed to the service worker.
    Port(MessagePort),
}

impl Page {
    /// Tells the page `reply`.
    pub fn post(&self, reply: &Reply) {
        let json = JsValue::from_str(&reply.to_json());
        // Fails only once the page has let the run go: nobody listens then.
        let _ = match self {
            Page::Scope(scope) => scope.post_message(&json),
            Page::Port(port) => port.post_message(&json),
        };
    }

    /// Carries out what the page says, one run for as long as the page keeps it, and
    /// tells it the worker listens. Hands back what quits the run as `Command::Quit`
    /// does, for a page gone without saying so (closed, reloaded).
    pub fn serve(self) -> Closure<dyn Fn()> {
        // The run this page asked for: one per page.
        let run = Rc::new(RefCell::new(None::<Rc<Steer>>));
        let quit = {
            let (run, page) = (Rc::clone(&run), self.clone());
            move || {
                if let Some(steer) = run.borrow_mut().take() {
                    steer.quit();
                }
                page.stop_listening();
            }
        };
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
            let (run, page, quit) = (Rc::clone(&run), self.clone(), quit.clone());
            move |event: MessageEvent| {
                // `[json, beside]`: the command and the folder's handle that comes with it.
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
                        *run.borrow_mut() = Some(Steer::zip(setup, parts, page.clone()));
                    }
                    (None, Command::Folder { run: setup }) => {
                        *run.borrow_mut() = Some(Steer::folder(setup, beside, page.clone()));
                    }
                    // A command before its run began: the page's mistake, dropped.
                    (None, _) => {}
                }
            }
        });
        let listener: &Function = on_message.as_ref().unchecked_ref();
        match &self {
            Page::Scope(scope) => scope.set_onmessage(Some(listener)),
            // Setting `onmessage` starts the port.
            Page::Port(port) => port.set_onmessage(Some(listener)),
        }
        // Lives as long as the worker: a few bytes once its run has quit.
        on_message.forget();
        self.post(&Reply::Listening);
        Closure::new(quit)
    }

    /// A port the page let go: closed, so its listener (and the run it held) can go.
    fn stop_listening(&self) {
        if let Page::Port(port) = self {
            port.set_onmessage(None);
            port.close();
        }
    }
}
