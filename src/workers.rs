//! A dedicated worker of the app's own (the bulk worker, the boundary reader), from the
//! page's side: started from its loader, heard on a channel, stopped when dropped.

use futures::channel::mpsc;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use web_sys::{Event, MessageEvent, Worker};

/// What a worker says: each message, read from its JSON, then `None` once the worker
/// has failed (it did not load, or it broke).
pub type Heard<M> = mpsc::UnboundedReceiver<Option<M>>;

/// A running worker. Dropping it stops the worker.
pub struct AppWorker {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
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
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
            let sender = sender.clone();
            move |event: MessageEvent| {
                let message = event.data().as_string();
                if let Some(message) = message.and_then(|json| serde_json::from_str(&json).ok()) {
                    let _ = sender.unbounded_send(Some(message));
                }
            }
        });
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            // Said on the page instead of the console.
            event.prevent_default();
            let _ = sender.unbounded_send(None);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let started = AppWorker {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        };
        Ok((started, heard))
    }

    /// Posts `message`, moving what `transfer` lists (`None`: moving nothing). Fails
    /// only when the worker is gone, which its error event has told.
    pub fn post(&self, message: &JsValue, transfer: Option<&JsValue>) -> Result<(), JsValue> {
        match transfer {
            Some(moved) => self
                .worker
                .post_message_with_transfer(message, &js_sys::Array::of1(moved)),
            None => self.worker.post_message(message),
        }
    }
}

impl Drop for AppWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
