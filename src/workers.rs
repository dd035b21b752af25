//! A worker of the app's own (the bulk worker, the boundary reader), from the page's
//! side: a dedicated worker started from its loader, or a run the app's service worker
//! serves on a port the page handed it; heard on a channel, let go when dropped.

use futures::channel::mpsc;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use web_sys::{Event, MessageEvent, MessagePort, Worker};

/// What a worker says: each message, read from its JSON, then `None` once the worker
/// has failed (it did not load, or it broke).
pub type Heard<M> = mpsc::UnboundedReceiver<Option<M>>;

/// Where a worker's messages go and come from.
enum Endpoint {
    /// A dedicated worker: stopped when let go.
    Worker(Worker),
    /// A port to a service worker's run: let go, it stops listening (the run is told to
    /// quit first: [`crate::components::bulk_export`]'s worker does).
    Port(MessagePort),
}

/// A running worker. Dropping it stops a dedicated worker, and stops hearing a port.
pub struct AppWorker {
    endpoint: Endpoint,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Option<Closure<dyn FnMut(Event)>>,
}

impl AppWorker {
    /// Starts the worker whose loader is `loader` (beside index.html, which trunk and
    /// `cargo xtask build` write; relative to the page's base, as the app's other files
    /// are), with what it will say. A message that is not an `M` is not one of its
    /// answers and is passed over.
    pub fn start<M: DeserializeOwned + 'static>(
        loader: &str,
    ) -> Result<(AppWorker, Heard<M>), JsValue> {
        let worker = Worker::new(loader)?;
        let (sender, heard) = mpsc::unbounded();
        let on_message = hear(sender.clone());
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            // Said on the page instead of the console.
            event.prevent_default();
            let _ = sender.unbounded_send(None);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let started = AppWorker {
            endpoint: Endpoint::Worker(worker),
            _on_message: on_message,
            _on_error: Some(on_error),
        };
        Ok((started, heard))
    }

    /// The worker whose run answers on `port`, with what it will say. A port has no
    /// error event: a run that never answers is for the caller to time out.
    pub fn over_port<M: DeserializeOwned + 'static>(port: MessagePort) -> (AppWorker, Heard<M>) {
        let (sender, heard) = mpsc::unbounded();
        let on_message = hear(sender);
        // Setting `onmessage` starts the port.
        port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        let started = AppWorker {
            endpoint: Endpoint::Port(port),
            _on_message: on_message,
            _on_error: None,
        };
        (started, heard)
    }

    /// Posts `message`, moving what `transfer` lists (`None`: moving nothing). Fails
    /// only when the worker is gone, which its error event has told.
    pub fn post(&self, message: &JsValue, transfer: Option<&JsValue>) -> Result<(), JsValue> {
        let transfer = transfer.map(js_sys::Array::of1);
        match (&self.endpoint, transfer) {
            (Endpoint::Worker(worker), Some(moved)) => {
                worker.post_message_with_transfer(message, &moved)
            }
            (Endpoint::Worker(worker), None) => worker.post_message(message),
            (Endpoint::Port(port), Some(moved)) => {
                port.post_message_with_transferable(message, &moved)
            }
            (Endpoint::Port(port), None) => port.post_message(message),
        }
    }
}

/// Passes each message read as an `M` from its JSON to `sender`; a message that is not
/// one is not the worker's answer and is passed over.
fn hear<M: DeserializeOwned + 'static>(
    sender: mpsc::UnboundedSender<Option<M>>,
) -> Closure<dyn FnMut(MessageEvent)> {
    Closure::new(move |event: MessageEvent| {
        let message = event.data().as_string();
        if let Some(message) = message.and_then(|json| serde_json::from_str(&json).ok()) {
            let _ = sender.unbounded_send(Some(message));
        }
    })
}

impl Drop for AppWorker {
    fn drop(&mut self) {
        match &self.endpoint {
            Endpoint::Worker(worker) => worker.terminate(),
            // Not closed: a message posted just before (the run told to quit) still goes.
            Endpoint::Port(port) => port.set_onmessage(None),
        }
    }
}
