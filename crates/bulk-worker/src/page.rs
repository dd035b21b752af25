//! The page a run answers to: the worker's own scope (a dedicated worker, the folder's)
//! or a message port (a run in the service worker that answers the zip's address, one
//! port per run). Both carry the same conversation: `Command` in, [`Reply`] out.

use explorer_logic::bulk::worker::Reply;
use js_sys::Function;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessagePort};

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

    /// Hears the page's messages with `listener`.
    pub fn listen(&self, listener: &Function) {
        match self {
            Page::Scope(scope) => scope.set_onmessage(Some(listener)),
            // Setting `onmessage` starts the port.
            Page::Port(port) => port.set_onmessage(Some(listener)),
        }
    }

    /// A port the page let go: closed, so its listener (and the run it held) can go.
    pub fn stop_listening(&self) {
        if let Page::Port(port) = self {
            port.set_onmessage(None);
            port.close();
        }
    }
}
