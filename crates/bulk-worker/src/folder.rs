//! A folder run: every file streamed into the folder the person picked (its handle,
//! handed over by the page), several at a time, each one's md5 worked out as it
//! arrives; a copy already there is measured (and hashed when it looks whole), so the
//! queue can skip or resume it.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::ops::Range;
use std::rc::Rc;

use explorer_logic::bulk::file::{FileId, ListedFile};
use explorer_logic::bulk::queue::Event;
use explorer_logic::bulk::report::REPORT_NAME;
use explorer_logic::bulk::worker::{FolderStep, Reply};
use js_sys::{Object, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{
    AbortSignal, Blob, File, FileSystemCreateWritableOptions, FileSystemDirectoryHandle,
    FileSystemFileHandle, FileSystemGetFileOptions, FileSystemWritableFileStream,
};

use crate::fetch::{Body, Chunks, Transfers, content_length, describe, error_name, open, wait};
use crate::news::Steering;
use crate::settled::Settled;
use crate::sums::FileMd5;

/// How many bytes a [`Writer`] gathers before it hands them to the browser. Each write
/// is a round trip to the browser's file process: a network chunk (tens of kB) a write
/// held a 1 GB download to a seventh of what curl reaches.
const WRITE_BATCH: u32 = 4 * 1024 * 1024;

/// One folder run.
pub struct FolderRun {
    files: Vec<ListedFile>,
    folder: FileSystemDirectoryHandle,
    /// The paths the folder may hold a file under (`a.zip`, `OpenTOID/su.zip` in a
    /// basket's sub-folder): what it held when the run began, and every file the run
    /// has written since. A file not named here is absent, so it is not looked for one
    /// by one (a lookup per file was a fifth of the time of 200 small files). `None`
    /// when the folder could not be listed.
    present: RefCell<Option<BTreeSet<String>>>,
    transfers: Transfers,
    steer: Rc<dyn Steering>,
}

/// A failed folder step of `file`.
struct Refused(FolderStep, String);

impl FolderRun {
    /// Lists what the folder holds, then tells the page it is ready.
    pub fn start(
        files: Vec<ListedFile>,
        folder: FileSystemDirectoryHandle,
        steer: Rc<dyn Steering>,
    ) -> Rc<FolderRun> {
        let run = Rc::new(FolderRun {
            files,
            folder,
            present: RefCell::default(),
            transfers: Transfers::default(),
            steer,
        });
        let listing = Rc::clone(&run);
        spawn_local(async move {
            let present = present_in(&listing.folder, &listing.files).await;
            *listing.present.borrow_mut() = present;
            listing.steer.tell(Reply::Ready);
        });
        run
    }

    /// Looks for what the folder holds of `file`: its size goes to the queue.
    pub fn inspect(self: &Rc<Self>, file: FileId) {
        let absent = self
            .present
            .borrow()
            .as_ref()
            .is_some_and(|present| !present.contains(&self.files[file].name));
        if absent {
            return self.steer.found(file, 0);
        }
        let run = Rc::clone(self);
        spawn_local(async move {
            match run.size_of(file).await {
                Ok(size) => run.steer.found(file, size),
                Err(refused) => run.refused(file, refused),
            }
        });
    }

    /// Works out the md5 of the copy of `file` the folder holds, for the queue.
    pub fn hash(self: &Rc<Self>, file: FileId) {
        let run = Rc::clone(self);
        spawn_local(async move {
            match run.md5_of_existing(file).await {
                Ok(event) => run.steer.event(event),
                Err(refused) => run.refused(file, refused),
            }
        });
    }

    /// Fetches `file` from `url`, from byte `from` on, into the folder.
    pub fn fetch(self: &Rc<Self>, file: FileId, url: String, from: u64) {
        let run = Rc::clone(self);
        spawn_local(async move {
            let Ok(signal) = run.transfers.begin(file) else {
                return run.steer.event(Event::Interrupted { file });
            };
            let done = run.transfer(file, &url, from, &signal).await;
            run.transfers.end(file);
            match done {
                Ok(event) => run.steer.event(event),
                Err(refused) => run.refused(file, refused),
            }
        });
    }

    /// Stops the transfers of `files` (each ends with [`Event::Interrupted`]).
    pub fn stop(&self, files: &Range<FileId>) {
        self.transfers.stop(files);
    }

    /// Writes `text` as the run's report.
    pub fn report(self: &Rc<Self>, text: String) {
        let run = Rc::clone(self);
        spawn_local(async move {
            let written = write_text(&run.folder, REPORT_NAME, &text).await;
            run.steer.tell(Reply::Reported(written));
        });
    }

    fn refused(&self, file: FileId, Refused(step, error): Refused) {
        self.steer.tell(Reply::FolderFailed { file, step, error });
    }

    /// How many bytes the folder holds under the file's name (0: none).
    async fn size_of(&self, file: FileId) -> Result<u64, Refused> {
        let existing = self.existing(file).await;
        let existing = existing.map_err(|error| Refused(FolderStep::Look, error))?;
        Ok(existing.map_or(0, |existing| existing.size() as u64))
    }

    /// The size and md5 of the copy the folder holds.
    async fn md5_of_existing(&self, file: FileId) -> Result<Event, Refused> {
        let look = |error| Refused(FolderStep::Look, error);
        let Some(existing) = self.existing(file).await.map_err(look)? else {
            return Ok(Event::Existing {
                file,
                size: 0,
                md5: None,
            });
        };
        let mut hasher = FileMd5::new();
        let hashed = hash_blob(&existing, &mut hasher).await;
        Ok(Event::Existing {
            file,
            size: existing.size() as u64,
            md5: hashed.ok().map(|()| hasher.finish()),
        })
    }

    /// The folder `file` goes into: the chosen one, or its sub-folder there (made
    /// when `create`; `None` when it is not there and not made).
    async fn folder_of(
        &self,
        file: FileId,
        create: bool,
    ) -> Result<Option<FileSystemDirectoryHandle>, String> {
        match self.files[file].folder() {
            Some(sub) => sub_folder(&self.folder, sub, create).await,
            None => Ok(Some(self.folder.clone())),
        }
    }

    /// The file the folder holds where `file` goes, if any.
    async fn existing(&self, file: FileId) -> Result<Option<File>, String> {
        match self.folder_of(file, false).await? {
            Some(folder) => existing_file(&folder, self.files[file].file_name()).await,
            None => Ok(None),
        }
    }

    /// Streams the file from byte `from` into the folder, hashing the bytes already
    /// there first, so the md5 covers the whole file.
    async fn transfer(
        &self,
        file: FileId,
        url: &str,
        mut from: u64,
        signal: &AbortSignal,
    ) -> Result<Event, Refused> {
        let mut hasher = FileMd5::new();
        if from > 0 {
            match self.existing(file).await {
                Ok(Some(existing)) if existing.size() as u64 >= from => {
                    let kept = existing
                        .slice_with_f64_and_f64(0.0, from as f64)
                        .map_err(|e| describe(&e));
                    let hashed = match kept {
                        Ok(kept) => hash_blob(&kept, &mut hasher).await,
                        Err(error) => Err(error),
                    };
                    hashed.map_err(|error| Refused(FolderStep::Read, error))?;
                }
                _ => from = 0,
            }
        }
        if signal.aborted() {
            return Ok(Event::Interrupted { file });
        }
        let (response, start) = match open(file, url, from, signal).await {
            Ok(opened) => opened,
            Err(event) => return Ok(event),
        };
        if start == 0 && from > 0 {
            hasher = FileMd5::new(); // the service sent it all: start over
        }
        // Only now, with the answer in hand, is anything created in the folder.
        self.steer.event(Event::Started { file, from: start });
        let name = &self.files[file].name;
        if let Some(present) = self.present.borrow_mut().as_mut() {
            present.insert(name.clone());
        }
        let write = |error| Refused(FolderStep::Write, error);
        let folder = self.folder_of(file, true).await.map_err(write)?;
        let folder = folder.ok_or_else(|| write(String::new()))?;
        let file_name = self.files[file].file_name();
        let mut writer = Writer::open(&folder, file_name, start, content_length(&response))
            .await
            .map_err(write)?;
        // Written from where the answer starts: a service that sent it all is written
        // over from the first byte (the hasher started over above), nothing passed over.
        let mut body = Body::of(file, &response, 0);
        let broke_off = loop {
            match body.next(signal).await {
                Ok(Some(chunk)) => {
                    hasher.update(&chunk);
                    if let Err(error) = writer.write(&chunk).await {
                        body.cancel();
                        break Some(Err(write(error)));
                    }
                    let bytes = u64::from(chunk.length());
                    self.steer.event(Event::Chunk { file, bytes });
                }
                Ok(None) => break None,
                Err(event) => break Some(Ok(event)),
            }
        };
        let closed = writer.close().await;
        match broke_off {
            Some(ended) => ended,
            None => finish(file, closed, hasher),
        }
    }
}

fn finish(file: FileId, closed: Result<(), String>, hasher: FileMd5) -> Result<Event, Refused> {
    closed.map_err(|error| Refused(FolderStep::Save, error))?;
    Ok(Event::Finished {
        file,
        md5: hasher.finish(),
    })
}

/// The paths of the files `folder` holds where the listed files go: directly in it,
/// and in each of their sub-folders; `None` when it could not be listed.
async fn present_in(
    folder: &FileSystemDirectoryHandle,
    listed: &[ListedFile],
) -> Option<BTreeSet<String>> {
    let mut present: BTreeSet<String> = files_in(folder).await.ok()?.into_iter().collect();
    let subs: BTreeSet<&str> = listed.iter().filter_map(ListedFile::folder).collect();
    for sub in subs {
        if let Some(inside) = sub_folder(folder, sub, false).await.ok()? {
            let names = files_in(&inside).await.ok()?;
            present.extend(names.iter().map(|name| format!("{sub}/{name}")));
        }
    }
    Some(present)
}

/// The names of the files (not sub-folders) directly in `folder`.
async fn files_in(folder: &FileSystemDirectoryHandle) -> Result<Vec<String>, String> {
    let entries = folder.values();
    let mut names = Vec::new();
    loop {
        let next = wait(entries.next().map_err(|e| describe(&e))?).await?;
        if Reflect::get(&next, &"done".into()).is_ok_and(|d| d.is_truthy()) {
            return Ok(names);
        }
        let handle = Reflect::get(&next, &"value".into()).map_err(|e| describe(&e))?;
        if let Ok(handle) = handle.dyn_into::<FileSystemFileHandle>() {
            names.push(handle.name());
        }
    }
}

/// The file called `name` in `folder`, if there is one.
async fn existing_file(
    folder: &FileSystemDirectoryHandle,
    name: &str,
) -> Result<Option<File>, String> {
    match Settled::new(&folder.get_file_handle(name)).await {
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
async fn sub_folder(
    folder: &FileSystemDirectoryHandle,
    name: &str,
    create: bool,
) -> Result<Option<FileSystemDirectoryHandle>, String> {
    let options = Object::new();
    let _ = Reflect::set(&options, &"create".into(), &create.into());
    match Settled::new(&folder.get_directory_handle_with_options(name, options.unchecked_ref()))
        .await
    {
        Ok(handle) => Ok(Some(handle.unchecked_into())),
        Err(e) if error_name(&e) == "NotFoundError" => Ok(None),
        Err(e) => Err(describe(&e)),
    }
}

/// Adds the bytes of `blob` to `hasher`, streamed.
async fn hash_blob(blob: &Blob, hasher: &mut FileMd5) -> Result<(), String> {
    let mut chunks = Chunks::of(&blob.stream());
    while let Some(chunk) = chunks.next().await? {
        hasher.update(&chunk);
    }
    Ok(())
}

/// Writes `text` as the whole of `name` in `folder`.
async fn write_text(
    folder: &FileSystemDirectoryHandle,
    name: &str,
    text: &str,
) -> Result<(), String> {
    let mut writer = Writer::open(folder, name, 0, Some(text.len() as u64)).await?;
    writer.write(&Uint8Array::from(text.as_bytes())).await?;
    writer.close().await
}

/// A file being written in a folder. Its bytes land in the file when it is closed,
/// so it is closed on failure too: what arrived is kept for resuming.
///
/// Bytes are gathered into batches, and a batch is written while the next one is
/// gathered: reading, hashing and writing overlap.
struct Writer {
    stream: FileSystemWritableFileStream,
    /// How many bytes a batch holds: [`WRITE_BATCH`], or less for a smaller file.
    capacity: u32,
    /// Bytes gathered for the next write (JS memory: a write may outlive a wasm view).
    batch: Uint8Array,
    filled: u32,
    /// The batch before, gathered into again once its write is done.
    spare: Uint8Array,
    /// The write in flight.
    pending: Option<Settled>,
}

impl Writer {
    /// Opens (creating it if need be) `name` in `folder` for writing from byte `at`,
    /// keeping the bytes before it. `expected` is how many bytes are to come, when
    /// known: a smaller file gets a batch its own size (a 4 MiB batch for each of 200
    /// files of 100 kB was 800 MB of memory to clear).
    async fn open(
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
            let truncate = stream.truncate_with_f64(at as f64);
            wait(truncate.map_err(|e| describe(&e))?).await?;
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
    async fn write(&mut self, chunk: &Uint8Array) -> Result<(), String> {
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
        self.pending = Some(Settled::new(&write));
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
    async fn close(mut self) -> Result<(), String> {
        let flushed = match self.flush().await {
            Ok(()) => self.written().await,
            failed => failed,
        };
        let closed = wait(self.stream.close()).await.map(drop);
        flushed.and(closed)
    }
}
