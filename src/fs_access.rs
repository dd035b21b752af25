//! The browser's file APIs the page needs: picking a folder (File System Access API),
//! which the bulk worker then writes into, and reading a file a person chose chunk by
//! chunk, to verify it. Everything streams: no file is ever whole in memory.

use explorer_logic::text::t;
use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use md5::{Digest, Md5};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, FileSystemDirectoryHandle, ReadableStream, ReadableStreamDefaultReader};

use crate::time::next_task;

/// A page may set this to a function answering a promise of a directory handle; the app
/// then uses it in place of `showDirectoryPicker` (the browser tests hand it the
/// origin-private file system this way).
const PICKER_HOOK: &str = "__downloadExplorerPickDirectory";

/// What a failed browser call threw, as text for the user.
pub fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        // The entries API's old-style errors carry a message without being Errors.
        .or_else(|| Reflect::get(error, &"message".into()).ok()?.as_string())
        .or_else(|| error.as_string())
        .unwrap_or_else(|| t::bulk::no_reason().into())
}

/// The `name` of a thrown DOMException (`AbortError`, `NotFoundError`…).
fn error_name(error: &JsValue) -> String {
    Reflect::get(error, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default()
}

/// What `promise` resolves to, or why it was rejected, as text.
pub async fn wait(promise: Promise) -> Result<JsValue, String> {
    JsFuture::from(promise).await.map_err(|e| describe(&e))
}

/// The folder picker, when this browser has one.
fn picker() -> Option<Function> {
    let window = web_sys::window()?;
    [PICKER_HOOK, "showDirectoryPicker"]
        .into_iter()
        .find_map(|name| Reflect::get(&window, &name.into()).ok()?.dyn_into().ok())
}

/// Whether this browser can let the app write into a folder.
pub fn can_pick_folder() -> bool {
    picker().is_some()
}

/// Asks the user for a folder to read and write; `None` when they cancelled.
pub async fn pick_folder() -> Result<Option<FileSystemDirectoryHandle>, String> {
    let picker = picker().ok_or(t::bulk::no_folder_picker())?;
    let options = Object::new();
    let _ = Reflect::set(&options, &"mode".into(), &"readwrite".into());
    let promise = picker
        .call1(&JsValue::UNDEFINED, &options)
        .map_err(|e| describe(&e))?;
    match JsFuture::from(Promise::resolve(&promise)).await {
        Ok(folder) => Ok(Some(folder.unchecked_into())),
        Err(e) if error_name(&e) == "AbortError" => Ok(None),
        Err(e) => Err(describe(&e)),
    }
}

/// Reads a stream chunk by chunk.
#[derive(Debug)]
pub struct Chunks {
    reader: ReadableStreamDefaultReader,
    /// Where a chunk is copied into wasm memory for hashing; reused.
    buffer: Vec<u8>,
}

impl Chunks {
    /// Chunks of `stream`.
    pub fn of(stream: &ReadableStream) -> Chunks {
        Chunks {
            reader: stream.get_reader().unchecked_into(),
            buffer: Vec::new(),
        }
    }

    /// The next chunk, added to `hasher`; `None` at the end.
    pub async fn next(&mut self, hasher: &mut Md5) -> Result<Option<Uint8Array>, String> {
        let Some(chunk) = self.next_array().await? else {
            return Ok(None);
        };
        self.buffer.resize(chunk.length() as usize, 0);
        chunk.copy_to(&mut self.buffer);
        hasher.update(&self.buffer);
        Ok(Some(chunk))
    }

    /// The next chunk as the browser gave it; `None` at the end.
    async fn next_array(&mut self) -> Result<Option<Uint8Array>, String> {
        let next = wait(self.reader.read()).await?;
        if Reflect::get(&next, &"done".into()).is_ok_and(|d| d.is_truthy()) {
            return Ok(None);
        }
        let chunk = Reflect::get(&next, &"value".into()).map_err(|e| describe(&e))?;
        Ok(Some(chunk.unchecked_into()))
    }
}

/// Adds the bytes of `blob` to `hasher`, streamed, calling `progress` with each
/// chunk's length and letting the page breathe between chunks.
pub async fn hash_blob(
    blob: &Blob,
    hasher: &mut Md5,
    mut progress: impl FnMut(u64),
) -> Result<(), String> {
    let mut chunks = Chunks::of(&blob.stream());
    let mut pace = Pace::default();
    while let Some(chunk) = chunks.next(hasher).await? {
        progress(u64::from(chunk.length()));
        pace.breathe().await;
    }
    Ok(())
}

/// The md5 of `blob`, lower-case hex.
pub async fn md5_of(blob: &Blob, progress: impl FnMut(u64)) -> Result<String, String> {
    let mut hasher = Md5::new();
    hash_blob(blob, &mut hasher, progress).await?;
    Ok(format!("{:x}", hasher.finalize()))
}

/// Yields to the event loop when the page has been busy for a while, so clicks and
/// repaints keep going during a long hash or download.
#[derive(Debug)]
pub struct Pace {
    since: f64,
}

impl Default for Pace {
    fn default() -> Self {
        Pace {
            since: js_sys::Date::now(),
        }
    }
}

impl Pace {
    /// Yields if 40 ms went by since the last time.
    pub async fn breathe(&mut self) {
        if js_sys::Date::now() - self.since > 40.0 {
            next_task().await;
            self.since = js_sys::Date::now();
        }
    }
}
