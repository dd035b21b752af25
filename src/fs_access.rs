//! The browser's file APIs a bulk download needs: picking a folder (File System Access
//! API), finding and writing files in it, and reading a stream (a file's, or a
//! download's) chunk by chunk. Everything streams: no file is ever whole in memory.

use explorer_logic::text::t;
use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use md5::{Digest, Md5};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    Blob, File, FileSystemCreateWritableOptions, FileSystemDirectoryHandle, FileSystemFileHandle,
    FileSystemGetFileOptions, FileSystemWritableFileStream, ReadableStream,
    ReadableStreamDefaultReader,
};

use crate::api::next_task;

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

/// The file called `name` in `folder`, if there is one.
pub async fn existing_file(
    folder: &FileSystemDirectoryHandle,
    name: &str,
) -> Result<Option<File>, String> {
    match JsFuture::from(folder.get_file_handle(name)).await {
        Ok(handle) => {
            let handle: FileSystemFileHandle = handle.unchecked_into();
            Ok(Some(wait(handle.get_file()).await?.unchecked_into()))
        }
        Err(e) if error_name(&e) == "NotFoundError" => Ok(None),
        Err(e) => Err(describe(&e)),
    }
}

/// The sub-folder `name` of `folder` (a basket's product): made when `create` and it
/// is not there yet, else `None` when there is none.
pub async fn sub_folder(
    folder: &FileSystemDirectoryHandle,
    name: &str,
    create: bool,
) -> Result<Option<FileSystemDirectoryHandle>, String> {
    // A plain object, as the picker's options: the dictionary type's own setter would
    // be one more binding in the first load's code.
    let options = Object::new();
    let _ = Reflect::set(&options, &"create".into(), &create.into());
    match JsFuture::from(folder.get_directory_handle_with_options(name, options.unchecked_ref()))
        .await
    {
        Ok(handle) => Ok(Some(handle.unchecked_into())),
        Err(e) if error_name(&e) == "NotFoundError" => Ok(None),
        Err(e) => Err(describe(&e)),
    }
}

/// Every file (not sub-folder) directly in `folder`.
pub async fn files_in(folder: &FileSystemDirectoryHandle) -> Result<Vec<File>, String> {
    let entries = folder.values();
    let mut files = Vec::new();
    loop {
        let next = wait(entries.next().map_err(|e| describe(&e))?).await?;
        if Reflect::get(&next, &"done".into()).is_ok_and(|d| d.is_truthy()) {
            return Ok(files);
        }
        let handle = Reflect::get(&next, &"value".into()).map_err(|e| describe(&e))?;
        if let Ok(handle) = handle.dyn_into::<FileSystemFileHandle>() {
            files.push(wait(handle.get_file()).await?.unchecked_into());
        }
    }
}

/// How many bytes a [`Writer`] gathers before it hands them to the browser. Each write
/// is a round trip to the browser's file process: a network chunk (tens of kB) a write
/// held a 1 GB download to a seventh of what curl reaches.
const WRITE_BATCH: u32 = 4 * 1024 * 1024;

/// A file being written in a folder. Its bytes land in the file when it is closed,
/// so it is closed on failure too: what arrived is kept for resuming.
///
/// Bytes are gathered into batches, and a batch is written while the next one is
/// gathered: reading, hashing and writing overlap (awaiting each write left the tab
/// idle a third of the time).
#[derive(Debug)]
pub struct Writer {
    stream: FileSystemWritableFileStream,
    /// How many bytes a batch holds: [`WRITE_BATCH`], or less for a smaller file.
    capacity: u32,
    /// Bytes gathered for the next write (JS memory: a write may outlive a wasm view).
    batch: Uint8Array,
    filled: u32,
    /// The batch before, gathered into again once its write is done.
    spare: Uint8Array,
    /// The write in flight.
    pending: Option<JsFuture>,
}

impl Writer {
    /// Opens (creating it if need be) `name` in `folder` for writing from byte `at`,
    /// keeping the bytes before it. `expected` is how many bytes are to come, when
    /// known: a smaller file gets a batch its own size (a 4 MiB batch for each of 200
    /// files of 100 kB was 800 MB of memory to clear).
    pub async fn open(
        folder: &FileSystemDirectoryHandle,
        name: &str,
        at: u64,
        expected: Option<u64>,
    ) -> Result<Writer, String> {
        let options = FileSystemGetFileOptions::new();
        options.set_create(true);
        let handle: FileSystemFileHandle =
            wait(folder.get_file_handle_with_options(name, &options))
                .await?
                .unchecked_into();
        let options = FileSystemCreateWritableOptions::new();
        options.set_keep_existing_data(at > 0);
        let stream: FileSystemWritableFileStream =
            wait(handle.create_writable_with_options(&options))
                .await?
                .unchecked_into();
        if at > 0 {
            wait(stream.seek_with_f64(at as f64).map_err(|e| describe(&e))?).await?;
            wait(
                stream
                    .truncate_with_f64(at as f64)
                    .map_err(|e| describe(&e))?,
            )
            .await?;
        }
        let capacity = expected
            .and_then(|bytes| u32::try_from(bytes).ok())
            .map_or(WRITE_BATCH, |bytes| bytes.clamp(1, WRITE_BATCH));
        Ok(Writer {
            stream,
            capacity,
            batch: Uint8Array::new_with_length(0),
            filled: 0,
            spare: Uint8Array::new_with_length(0),
            pending: None,
        })
    }

    /// Adds `chunk` at the current position; it reaches the browser with the next
    /// full batch, or on [`Writer::close`].
    pub async fn write(&mut self, chunk: &Uint8Array) -> Result<(), String> {
        let length = chunk.length();
        if self.filled + length > self.batch.length() {
            self.flush().await?;
        }
        if length >= self.capacity {
            // The network's own buffer: never reused, so it is written as it is.
            return self.send(chunk).await;
        }
        if self.batch.length() == 0 {
            self.batch = Uint8Array::new_with_length(self.capacity);
        }
        self.batch.set(chunk, self.filled);
        self.filled += length;
        Ok(())
    }

    /// Starts writing what is gathered, and gathers into the other batch from now on.
    async fn flush(&mut self) -> Result<(), String> {
        if self.filled > 0 {
            let gathered = self.batch.subarray(0, self.filled);
            self.filled = 0;
            self.send(&gathered).await?;
            std::mem::swap(&mut self.batch, &mut self.spare);
        }
        Ok(())
    }

    /// Starts writing `bytes` once the write before has finished.
    async fn send(&mut self, bytes: &Uint8Array) -> Result<(), String> {
        self.written().await?;
        let write = self
            .stream
            .write_with_js_u8_array(bytes)
            .map_err(|e| describe(&e))?;
        self.pending = Some(JsFuture::from(write));
        Ok(())
    }

    /// Waits for the write in flight.
    async fn written(&mut self) -> Result<(), String> {
        match self.pending.take() {
            Some(write) => write.await.map(drop).map_err(|e| describe(&e)),
            None => Ok(()),
        }
    }

    /// Puts what was written into the file.
    pub async fn close(mut self) -> Result<(), String> {
        let flushed = match self.flush().await {
            Ok(()) => self.written().await,
            failed => failed,
        };
        let closed = wait(self.stream.close()).await.map(drop);
        flushed.and(closed)
    }
}

/// Writes `text` as the whole of `name` in `folder`.
pub async fn write_text(
    folder: &FileSystemDirectoryHandle,
    name: &str,
    text: &str,
) -> Result<(), String> {
    let mut writer = Writer::open(folder, name, 0, Some(text.len() as u64)).await?;
    let bytes = Uint8Array::from(text.as_bytes());
    writer.write(&bytes).await?;
    writer.close().await
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

    /// The next chunk as bytes of its own (a zip entry takes them from wasm memory);
    /// `None` at the end.
    pub async fn next_bytes(&mut self) -> Result<Option<Vec<u8>>, String> {
        Ok(self.next_array().await?.map(|chunk| chunk.to_vec()))
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

    /// Stops reading (ends the request a response stream belongs to).
    pub fn cancel(&self) {
        let _ = self.reader.cancel();
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
