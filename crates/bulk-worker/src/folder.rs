//! A folder run: every file streamed into the folder the person picked (its handle,
//! handed over by the page), several at a time, each one's md5 worked out as it
//! arrives; a copy already there is measured (and hashed when it looks whole), so the
//! queue can skip or resume it. The run asks for each file and reads the answer's
//! status here; the worker's script (`public/folder-worker.js`) writes the body.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::rc::Rc;

use explorer_logic::bulk::answer::Failure;
use explorer_logic::bulk::file::{FileId, ListedFile};
use explorer_logic::bulk::queue::Event;
use explorer_logic::bulk::report::REPORT_NAME;
use explorer_logic::bulk::worker::{FolderStep, Reply};
use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::{
    AbortSignal, Blob, File, FileSystemDirectoryHandle, FileSystemFileHandle, ReadableStream,
};

use crate::fetch::{Chunks, Transfers, content_length, describe, error_name, failed, open, wait};
use crate::news::Steering;
use crate::settled::Settled;
use crate::sums::FileMd5;

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
    /// The md5 of each file being written, worked out as its chunks pass.
    passing: Rc<RefCell<BTreeMap<FileId, FileMd5>>>,
    /// What [`write_file`] tells each chunk it writes (`(file, chunk)`, bound to a
    /// file): hashes it and counts it.
    passed: Function,
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
        let passing = Rc::new(RefCell::new(BTreeMap::<FileId, FileMd5>::new()));
        let passed = Closure::<dyn Fn(u32, Uint8Array)>::new({
            let (passing, steer) = (Rc::clone(&passing), Rc::clone(&steer));
            move |file: u32, chunk: Uint8Array| {
                let file = file as FileId;
                if let Some(md5) = passing.borrow_mut().get_mut(&file) {
                    md5.update(&chunk);
                }
                let bytes = u64::from(chunk.length());
                steer.event(Event::Chunk { file, bytes });
            }
        });
        let run = Rc::new(FolderRun {
            files,
            folder,
            present: RefCell::default(),
            transfers: Transfers::default(),
            passing,
            // Freed with the run's last bound copy.
            passed: passed.into_js_value().unchecked_into(),
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
        let refused = |error| Refused(FolderStep::Write, error);
        let folder = self.folder_of(file, true).await.map_err(refused)?;
        let folder = folder.ok_or_else(|| refused(String::new()))?;
        // Written from where the answer starts: a service that sent it all is written
        // over from the first byte (the hasher started over above), nothing passed over.
        self.passing.borrow_mut().insert(file, hasher);
        let passed: Function = self
            .passed
            .bind1(&JsValue::NULL, &(file as u32).into())
            .unchecked_into();
        let written = write(
            &folder,
            self.files[file].file_name(),
            start,
            content_length(&response),
            response.body(),
            Some(&passed),
        )
        .await;
        let hasher = self.passing.borrow_mut().remove(&file).unwrap_or_default();
        match written {
            Ok(()) => Ok(Event::Finished {
                file,
                md5: hasher.finish(),
            }),
            Err(WriteFailed::Read) if signal.aborted() => Ok(Event::Interrupted { file }),
            Err(WriteFailed::Read) => Ok(failed(file, Failure::Dropped)),
            Err(WriteFailed::Refused(refused)) => Err(refused),
        }
    }
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
    let bytes = Uint8Array::from(text.as_bytes());
    let blob = Blob::new_with_u8_array_sequence(&Array::of1(&bytes)).map_err(|e| describe(&e))?;
    let length = Some(text.len() as u64);
    match write(folder, name, 0, length, Some(blob.stream()), None).await {
        Ok(()) => Ok(()),
        Err(WriteFailed::Refused(Refused(_, error))) => Err(error),
        Err(WriteFailed::Read) => Err(String::new()),
    }
}

#[wasm_bindgen]
extern "C" {
    /// Writes `body` (none: nothing) into `folder` as `name` from byte `at` on, keeping
    /// the bytes before it; `expected` bytes are to come, when known. `passed` is told
    /// each chunk as it goes. Resolves to `null` once the file is saved, or to
    /// `[step, message]` where it failed (`public/folder-worker.js`, which this worker
    /// runs in: a file's reads and writes are awaited there, not each one here).
    #[wasm_bindgen(js_name = bulkWriteFile)]
    fn write_file(
        folder: &FileSystemDirectoryHandle,
        name: &str,
        at: f64,
        expected: Option<f64>,
        body: Option<ReadableStream>,
        passed: Option<&Function>,
    ) -> Promise;
}

/// Where [`write_file`] failed.
enum WriteFailed {
    /// The answer broke off, or its transfer was stopped.
    Read,
    Refused(Refused),
}

/// Writes `body` into `folder` as `name` ([`write_file`]).
async fn write(
    folder: &FileSystemDirectoryHandle,
    name: &str,
    at: u64,
    expected: Option<u64>,
    body: Option<ReadableStream>,
    passed: Option<&Function>,
) -> Result<(), WriteFailed> {
    let expected = expected.map(|bytes| bytes as f64);
    let written = write_file(folder, name, at as f64, expected, body, passed);
    let refused = |step, error| WriteFailed::Refused(Refused(step, error));
    let outcome = Settled::new(&written).await;
    let outcome = outcome.map_err(|e| refused(FolderStep::Write, describe(&e)))?;
    if outcome.is_null() {
        return Ok(());
    }
    let failed: Array = outcome.unchecked_into();
    let error = failed.get(1).as_string().unwrap_or_default();
    Err(match failed.get(0).as_string().as_deref() {
        Some("read") => WriteFailed::Read,
        Some("save") => refused(FolderStep::Save, error),
        _ => refused(FolderStep::Write, error),
    })
}
