//! One file's transfer, shared by the folder and the zip: asking for it (from a byte
//! on, for a resume) and reading the answer by the queue's rules, and the transfers
//! under way, which pause and cancel stop.

use std::cell::RefCell;
use std::time::{Duration, SystemTime};

use explorer_logic::bulk::answer::{Answer, Failure};
use explorer_logic::bulk::file::FileId;
use explorer_logic::bulk::queue::Event;
use explorer_logic::text::t;
use gloo_net::http::Response;
use web_sys::{AbortController, AbortSignal};

use super::links::Links;
use crate::api::fetch_file_from;

/// The transfers under way, each with what stops it.
#[derive(Default)]
pub(super) struct Transfers(RefCell<Vec<(FileId, AbortController)>>);

impl Transfers {
    /// A new transfer of `file`, to [`Transfers::end`] once it is over.
    pub fn begin(&self, file: FileId) -> Result<AbortSignal, Event> {
        let controller = AbortController::new()
            .map_err(|_| failed(file, Failure::Other(t::bulk::browser_refused().into())))?;
        let signal = controller.signal();
        self.0.borrow_mut().push((file, controller));
        Ok(signal)
    }

    pub fn end(&self, file: FileId) {
        self.0.borrow_mut().retain(|(f, _)| *f != file);
    }

    /// Stops the transfers of the files `which` picks (every one for pause and cancel).
    pub fn stop(&self, which: impl Fn(FileId) -> bool) {
        for (file, transfer) in self.0.borrow().iter() {
            if which(*file) {
                transfer.abort();
            }
        }
    }
}

/// Asks for `file` from byte `from`: the answer and the byte its body starts at (0
/// when the service sent it all), or the event that ends this try.
pub(super) async fn open(
    links: &Links,
    file: FileId,
    from: u64,
    signal: &AbortSignal,
) -> Result<(Response, u64), Event> {
    let url = links
        .address(file)
        .await
        .map_err(|failure| failed(file, failure))?;
    let response = match fetch_file_from(&url, from, signal).await {
        Ok(response) => response,
        Err(_) if signal.aborted() => return Err(Event::Interrupted { file }),
        Err(_) => return Err(failed(file, Failure::Unreachable)),
    };
    let headers = response.headers();
    let (content_range, retry_after) = (headers.get("content-range"), headers.get("retry-after"));
    let answer = Answer {
        status: response.status(),
        content_range: content_range.as_deref(),
        retry_after: retry_after.as_deref(),
    };
    let start = answer
        .start(from, now())
        .map_err(|failure| failed(file, failure))?;
    Ok((response, start))
}

pub(super) fn failed(file: FileId, failure: Failure) -> Event {
    Event::Failed { file, failure }
}

/// The browser's clock, which dates a `Retry-After` given as an HTTP date.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(crate::auth::now_ms())
}
