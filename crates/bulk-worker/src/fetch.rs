//! Asking for a file (from a byte on, for a resume) and reading the answer, chunk by
//! chunk, by the queue's rules (`explorer_logic::bulk::queue::Answer`); and the
//! transfers under way, which the page stops.

use std::cell::RefCell;
use std::ops::Range;
use std::time::{Duration, SystemTime};

use explorer_logic::bulk::answer::{Answer, Failure};
use explorer_logic::bulk::file::FileId;
use explorer_logic::bulk::queue::Event;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    AbortController, AbortSignal, ReadableStream, ReadableStreamDefaultReader,
    ReadableStreamReadResult, RequestCache, RequestInit, Response, WorkerGlobalScope,
};

use crate::settled::Settled;

/// The transfers under way, each with what stops it.
#[derive(Default)]
pub struct Transfers(RefCell<Vec<(FileId, AbortController)>>);

impl Transfers {
    /// A new transfer of `file`, to [`Transfers::end`] once it is over.
    pub fn begin(&self, file: FileId) -> Result<AbortSignal, Event> {
        let controller = AbortController::new().map_err(|_| failed(file, Failure::Unreachable))?;
        let signal = controller.signal();
        self.0.borrow_mut().push((file, controller));
        Ok(signal)
    }

    pub fn end(&self, file: FileId) {
        self.0.borrow_mut().retain(|(f, _)| *f != file);
    }

    /// Stops the transfers of `files`.
    pub fn stop(&self, files: &Range<FileId>) {
        for (file, transfer) in self.0.borrow().iter() {
            if files.contains(file) {
                transfer.abort();
            }
        }
    }
}

/// Asks for `url` from byte `from`: the answer and the byte its body starts at (0 when
/// the service sent it all), or the event that ends this try of `file`.
pub async fn open(
    file: FileId,
    url: &str,
    from: u64,
    signal: &AbortSignal,
) -> Result<(Response, u64), Event> {
    let failed = |failure| failed(file, failure);
    let init = RequestInit::new();
    // Not through the HTTP cache: the file goes to the zip or the folder only, not to
    // disk twice, and a broken-off answer is resumed by the queue's rules.
    init.set_cache(RequestCache::NoStore);
    init.set_signal(Some(signal));
    if from > 0 {
        let headers = js_sys::Object::new();
        let _ = Reflect::set(&headers, &"Range".into(), &format!("bytes={from}-").into());
        init.set_headers(&headers);
    }
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let response = match Settled::new(&scope.fetch_with_str_and_init(url, &init)).await {
        Ok(response) => response.unchecked_into::<Response>(),
        Err(_) if signal.aborted() => return Err(Event::Interrupted { file }),
        Err(_) => return Err(failed(Failure::Unreachable)),
    };
    let headers = response.headers();
    let header = |name: &str| headers.get(name).ok().flatten();
    let (content_range, retry_after) = (header("content-range"), header("retry-after"));
    let answer = Answer {
        status: response.status(),
        content_range: content_range.as_deref(),
        retry_after: retry_after.as_deref(),
    };
    let start = answer.start(from, now()).map_err(failed)?;
    Ok((response, start))
}

/// A file's answer read from the byte a try asked for: chunk by chunk, with what came
/// before that byte passed over (a service that sent it all where a part was asked for).
pub struct Body {
    file: FileId,
    chunks: Option<Chunks>,
    pass_over: u64,
}

impl Body {
    /// Asks for `url` from byte `from` ([`open`]); the event that ends this try of `file`
    /// when no answer will do.
    pub async fn open(
        file: FileId,
        url: &str,
        from: u64,
        signal: &AbortSignal,
    ) -> Result<Body, Event> {
        let (response, start) = open(file, url, from, signal).await?;
        Ok(Body::of(file, &response, from - start))
    }

    /// `response`'s body, its first `pass_over` bytes passed over.
    fn of(file: FileId, response: &Response, pass_over: u64) -> Body {
        Body {
            file,
            chunks: response.body().map(|body| Chunks::of(&body)),
            pass_over,
        }
    }

    /// The next bytes as the browser gave them; `None` at the answer's end; the event
    /// that ends the try when it broke off.
    pub async fn next(&mut self, signal: &AbortSignal) -> Result<Option<Uint8Array>, Event> {
        let file = self.file;
        let Some(chunks) = &mut self.chunks else {
            return Ok(None);
        };
        loop {
            let chunk = match chunks.next().await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => return Ok(None),
                Err(_) if signal.aborted() => return Err(Event::Interrupted { file }),
                Err(_) => return Err(failed(file, Failure::Dropped)),
            };
            let skip = self.pass_over.min(u64::from(chunk.length())) as u32;
            self.pass_over -= u64::from(skip);
            match skip {
                0 => return Ok(Some(chunk)),
                skip if skip < chunk.length() => {
                    return Ok(Some(chunk.subarray(skip, chunk.length())));
                }
                // All of it was held already.
                _ => {}
            }
        }
    }

    /// Stops reading (ends the request).
    pub fn cancel(&self) {
        if let Some(chunks) = &self.chunks {
            chunks.cancel();
        }
    }
}

/// The event that ends a try of `file` for `failure`.
pub fn failed(file: FileId, failure: Failure) -> Event {
    Event::Failed { file, failure }
}

/// The length the answer announces, when it does.
pub fn content_length(response: &Response) -> Option<u64> {
    let length = response.headers().get("content-length").ok().flatten()?;
    length.parse().ok()
}

/// The browser's clock, which dates a `Retry-After` given as an HTTP date.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(js_sys::Date::now() as u64)
}

/// Reads a stream chunk by chunk.
pub struct Chunks {
    reader: ReadableStreamDefaultReader,
}

impl Chunks {
    pub fn of(stream: &ReadableStream) -> Chunks {
        Chunks {
            reader: stream.get_reader().unchecked_into(),
        }
    }

    /// The next chunk as the browser gave it; `None` at the end.
    pub async fn next(&mut self) -> Result<Option<Uint8Array>, String> {
        // Read through the result's typed getters: `Reflect::get` with a `&str` key
        // decoded the key from wasm's memory at every chunk (6% of the service worker's
        // thread in Firefox's profile of a gigabyte's zip).
        let next: ReadableStreamReadResult = wait(self.reader.read()).await?.unchecked_into();
        if next.get_done() == Some(true) {
            return Ok(None);
        }
        Ok(Some(next.get_value().unchecked_into()))
    }

    /// Stops reading (ends the request a response stream belongs to).
    pub fn cancel(&self) {
        let _ = self.reader.cancel();
    }
}

/// What `promise` resolves to, or why it was rejected.
pub async fn wait(promise: js_sys::Promise) -> Result<JsValue, String> {
    Settled::new(&promise).await.map_err(|e| describe(&e))
}

/// What a failed browser call threw, as the browser says it (empty when it says
/// nothing: the page words that).
pub fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| Reflect::get(error, &"message".into()).ok()?.as_string())
        .or_else(|| error.as_string())
        .unwrap_or_default()
}

/// The `name` of a thrown DOMException (`AbortError`, `NotFoundError`…).
pub fn error_name(error: &JsValue) -> String {
    Reflect::get(error, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default()
}
