//! The app's clock and its waits: what any module that waits or keeps time uses.

use std::future::Future;
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

use wasm_bindgen::JsValue;

/// The app's clock, in milliseconds since the epoch.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// Resolves in a new task. A message, not a timer: timers of background tabs are
/// slowed to once a second or less, which would stall a download left running.
pub async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Ok(channel) = web_sys::MessageChannel::new() {
            channel.port1().set_onmessage(Some(&resolve));
            let _ = channel.port2().post_message(&JsValue::NULL);
        } else {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The output of `future`, or `None` when it takes longer than `limit` (the request
/// behind it is left to finish unread).
pub async fn within<T>(limit: Duration, future: impl Future<Output = T>) -> Option<T> {
    let mut timer = pin!(gloo_timers::future::sleep(limit));
    let mut future = pin!(future);
    std::future::poll_fn(|cx| {
        if let Poll::Ready(output) = future.as_mut().poll(cx) {
            Poll::Ready(Some(output))
        } else if timer.as_mut().poll(cx).is_ready() {
            Poll::Ready(None)
        } else {
            Poll::Pending
        }
    })
    .await
}
