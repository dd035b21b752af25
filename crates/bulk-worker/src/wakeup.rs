//! A wake-up call for the tasks of a run that wait for something to change.

use std::cell::RefCell;
use std::time::Duration;

use futures::future::{Either, select};
use gloo_timers::future::TimeoutFuture;
use js_sys::{Function, Promise};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Wakes every task waiting for something to change (bytes arrived, bytes taken).
#[derive(Default)]
pub struct Wakeup(RefCell<Vec<Function>>);

impl Wakeup {
    pub async fn wait(&self) {
        let mut resolve = None;
        let promise = Promise::new(&mut |r, _| resolve = Some(r));
        self.0.borrow_mut().extend(resolve);
        let _ = JsFuture::from(promise).await;
    }

    /// Waits for a wake or `limit`, whichever comes first: true when woken.
    pub async fn wait_at_most(&self, limit: Duration) -> bool {
        let woken = std::pin::pin!(self.wait());
        let timer = TimeoutFuture::new(limit.as_millis() as u32);
        matches!(select(woken, timer).await, Either::Left(_))
    }

    pub fn wake(&self) {
        for resolve in self.0.take() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    }
}
