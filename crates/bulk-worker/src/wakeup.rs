//! A wake-up call for the tasks of a run that wait for something to change.

use std::time::Duration;

use event_listener::Event;
use futures::future::{Either, select};
use gloo_timers::future::TimeoutFuture;

/// Wakes every task waiting for something to change (bytes arrived, bytes taken).
///
/// Rust's own wakers, not a promise per wait: a run waits at every piece of a file, and
/// a promise made and awaited each time (its callbacks through wasm-bindgen's closures)
/// was 6% of the service worker's thread in Firefox's profile of a gigabyte's zip.
#[derive(Default)]
pub struct Wakeup(Event);

impl Wakeup {
    /// Waits for the next wake.
    pub async fn wait(&self) {
        self.0.listen().await;
    }

    /// Waits for a wake or `limit`, whichever comes first: true when woken.
    pub async fn wait_at_most(&self, limit: Duration) -> bool {
        let woken = self.0.listen();
        let timer = TimeoutFuture::new(limit.as_millis() as u32);
        matches!(select(woken, timer).await, Either::Left(_))
    }

    pub fn wake(&self) {
        self.0.notify(usize::MAX);
    }
}
