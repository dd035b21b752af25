//! A browser promise awaited through one callback made for the whole worker.
//!
//! wasm-bindgen's `JsFuture` makes two closures for each promise it awaits (each a
//! JS function registered for finalization, and dropped again once it is called), and
//! a run awaits a promise at every piece of every file: for 200 files of 100 kB, about
//! 2,000 of them. Here each promise is handed the one callback, bound to the slot its
//! outcome goes in, so an await costs two `bind`s and a `then`.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A promise, its `then` given plain functions (js-sys's takes closures).
    type Thenable;
    #[wasm_bindgen(method)]
    fn then(this: &Thenable, resolve: &Callback, reject: &Callback);

    /// [`SETTLE`], and it bound to a promise's slot and outcome.
    type Callback;
    #[wasm_bindgen(method)]
    fn bind(
        this: &Callback,
        context: &JsValue,
        index: u32,
        generation: u32,
        fulfilled: bool,
    ) -> Callback;
}

/// Where each promise awaited now puts its outcome.
#[derive(Default)]
struct Slots {
    slots: Vec<Slot>,
    /// Slots free to use again.
    free: Vec<u32>,
}

#[derive(Default)]
struct Slot {
    /// Counts the slot's uses: a promise whose awaiting was dropped settles into the
    /// use it was made for, not the slot's next one.
    generation: u32,
    outcome: Option<Result<JsValue, JsValue>>,
    waker: Option<Waker>,
}

thread_local! {
    static SLOTS: RefCell<Slots> = RefCell::default();
    /// `(index, generation, fulfilled, value)`: the one callback, bound per promise.
    static SETTLE: Callback = Closure::<dyn Fn(u32, u32, bool, JsValue)>::new(settle)
        .into_js_value()
        .unchecked_into();
}

/// What a promise's callback does: the outcome goes in its slot, and the task awaiting
/// it wakes.
fn settle(index: u32, generation: u32, fulfilled: bool, value: JsValue) {
    let waker = SLOTS.with_borrow_mut(|slots| {
        let slot = slots.slots.get_mut(index as usize)?;
        if slot.generation != generation {
            return None; // its awaiting was dropped
        }
        slot.outcome = Some(if fulfilled { Ok(value) } else { Err(value) });
        slot.waker.take()
    });
    if let Some(waker) = waker {
        waker.wake();
    }
}

/// A promise being awaited: what it resolved to, or why it was rejected.
#[must_use = "a promise is awaited only when polled"]
pub struct Settled {
    index: u32,
    generation: u32,
}

impl Settled {
    pub fn new(promise: &Promise) -> Settled {
        let (index, generation) = SLOTS.with_borrow_mut(|slots| {
            let index = slots.free.pop().unwrap_or_else(|| {
                slots.slots.push(Slot::default());
                slots.slots.len() as u32 - 1
            });
            (index, slots.slots[index as usize].generation)
        });
        SETTLE.with(|settle| {
            let resolve = settle.bind(&JsValue::NULL, index, generation, true);
            let reject = settle.bind(&JsValue::NULL, index, generation, false);
            promise.unchecked_ref::<Thenable>().then(&resolve, &reject);
        });
        Settled { index, generation }
    }
}

impl Future for Settled {
    type Output = Result<JsValue, JsValue>;

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Self::Output> {
        SLOTS.with_borrow_mut(|slots| {
            let slot = &mut slots.slots[self.index as usize];
            match slot.outcome.take() {
                Some(outcome) => Poll::Ready(outcome),
                None => {
                    slot.waker = Some(context.waker().clone());
                    Poll::Pending
                }
            }
        })
    }
}

impl Drop for Settled {
    /// Frees the slot, settled or not: a promise that settles later finds its use over.
    fn drop(&mut self) {
        SLOTS.with_borrow_mut(|slots| {
            let slot = &mut slots.slots[self.index as usize];
            debug_assert_eq!(slot.generation, self.generation);
            *slot = Slot {
                generation: slot.generation.wrapping_add(1),
                ..Slot::default()
            };
            slots.free.push(self.index);
        });
    }
}
