//! Files handed to the app as a folder, in every browser: dropped on the page (the
//! entries API, `webkitGetAsEntry`, which Chromium, Firefox and Safari all have, read
//! recursively) or chosen with a folder input (`<input type=file webkitdirectory>`,
//! whose `FileList` already holds every file below the folder). Only `File` handles are
//! gathered here: their bytes are read later, as a stream (`fs_access::md5_of`).

use js_sys::{Array, Function, Promise};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    DataTransfer, ErrorCallback, File, FileSystemDirectoryEntry, FileSystemDirectoryReader,
    FileSystemEntry, FileSystemFileEntry,
};

use crate::fs_access::wait;

/// One thing dropped on the page.
#[derive(Debug)]
pub enum Dropped {
    /// A file or a folder, as the entries API gives it.
    Entry(FileSystemEntry),
    /// A file from a drop that has no entries (e.g. made by a script).
    File(File),
}

/// What a drop holds. Must be called while the drop event is being handled: the
/// browser empties the `DataTransfer` afterwards.
pub fn take_dropped(data: &DataTransfer) -> Vec<Dropped> {
    let items = data.items();
    (0..items.length())
        .filter_map(|index| items.get(index))
        .filter(|item| item.kind() == "file")
        .filter_map(|item| match item.webkit_get_as_entry() {
            Ok(Some(entry)) => Some(Dropped::Entry(entry)),
            _ => item.get_as_file().ok().flatten().map(Dropped::File),
        })
        .collect()
}

/// Every file of `dropped`, the files inside dropped folders (and their sub-folders)
/// included, in the order they were found.
pub async fn files_of(dropped: Vec<Dropped>) -> Result<Vec<File>, String> {
    let mut files = Vec::new();
    // Folders still to read: a stack rather than recursion (no boxed futures).
    let mut pending: Vec<FileSystemEntry> = Vec::new();
    for item in dropped {
        match item {
            Dropped::File(file) => files.push(file),
            Dropped::Entry(entry) => pending.push(entry),
        }
    }
    pending.reverse();
    while let Some(entry) = pending.pop() {
        if entry.is_directory() {
            let folder: FileSystemDirectoryEntry = entry.unchecked_into();
            let mut inside = entries_of(&folder.create_reader()).await?;
            inside.reverse();
            pending.extend(inside);
        } else if entry.is_file() {
            files.push(file_of(entry.unchecked_ref()).await?);
        }
    }
    Ok(files)
}

/// Every entry a folder's reader gives: `readEntries` answers a batch at a time (100 in
/// Chromium) and an empty batch at the end.
async fn entries_of(reader: &FileSystemDirectoryReader) -> Result<Vec<FileSystemEntry>, String> {
    let mut entries = Vec::new();
    loop {
        let batch = callback_promise(|done, failed| {
            reader.read_entries_with_callback_and_error_callback(done, failed.unchecked_ref())
        })
        .await?;
        let batch: Array = batch.unchecked_into();
        if batch.length() == 0 {
            return Ok(entries);
        }
        entries.extend(batch.iter().map(JsValue::unchecked_into));
    }
}

/// The `File` of a file entry (a handle: nothing is read yet).
async fn file_of(entry: &FileSystemFileEntry) -> Result<File, String> {
    let file = callback_promise(|done, failed| {
        entry.file_with_callback_and_error_callback(done, failed.unchecked_ref::<ErrorCallback>());
        Ok(())
    })
    .await?;
    Ok(file.unchecked_into())
}

/// The value an old-style API hands its success callback, or what it hands its
/// error callback (or throws) as text.
async fn callback_promise(
    start: impl FnOnce(&Function, &Function) -> Result<(), JsValue>,
) -> Result<JsValue, String> {
    let mut start = Some(start);
    let promise = Promise::new(&mut |done, failed| {
        if let Some(start) = start.take()
            && let Err(error) = start(&done, &failed)
        {
            let _ = failed.call1(&JsValue::UNDEFINED, &error);
        }
    });
    wait(promise).await
}
