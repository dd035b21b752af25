//! The web worker that reads boundary files for the app's shape tools
//! (`src/components/shape_tools/reader.rs`), so that parsing a large file never holds up
//! the page: the page stays responsive however long the file takes.
//!
//! Built for wasm32 with wasm-bindgen's `no-modules` output (every browser runs it as a
//! classic worker) by `cargo xtask build` and by trunk (index.html), which both write
//! `shape-worker_loader.js` to start it. Its wasm holds the file readers and the
//! projection (`area-shapes` with `files`), which the app's own wasm never loads.
//!
//! The conversation, one file per worker:
//! 1. The worker says [`Reply::Ready`] once it listens (a message sent before is lost).
//! 2. The page sends `{ name, bytes, limit, tolerance }`: the file's name, its bytes (an
//!    `ArrayBuffer`, transferred), the largest size accepted and the outline's tolerance
//!    in metres.
//! 3. The worker says [`Reply::Working`] as it goes, then [`Reply::Read`].
//!
//! Each reply is a JSON string. Hand-written rather than with gloo-worker: its bridge
//! needs the worker's own type in the app, which would bring the readers and the
//! projection into the app's wasm.

use area_shapes::{Reply, read_reporting};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = {
        let scope = scope.clone();
        move |reply: Reply| {
            let json = serde_json::to_string(&reply).unwrap_or_default();
            // Fails only once the page has let the worker go: nobody listens then.
            let _ = scope.post_message(&JsValue::from_str(&json));
        }
    };
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
        let post = post.clone();
        move |event: MessageEvent| {
            let request = event.data();
            let field = |name: &str| Reflect::get(&request, &JsValue::from_str(name));
            let name = field("name").ok().and_then(|name| name.as_string());
            let bytes = field("bytes").map(|bytes| Uint8Array::new(&bytes).to_vec());
            let limit = field("limit").ok().and_then(|limit| limit.as_f64());
            let tolerance = field("tolerance").ok().and_then(|m| m.as_f64());
            if let (Some(name), Ok(bytes), Some(limit), Some(tolerance)) =
                (name, bytes, limit, tolerance)
            {
                read_reporting(&name, &bytes, limit as u64, tolerance, &post);
            }
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it; so does its listener.
    on_message.forget();
    post(Reply::Ready);
}
