//! Where a catalogue's bytes come from: the demo embedded in the binary, or a directory.

use std::collections::HashMap;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use axum::http::HeaderValue;
use include_dir::Dir;
use md5::{Digest, Md5};

use crate::Error;
use crate::file::{FileContent, FileData, Validators};
use crate::storage::{ObjectFile, ObjectInfo, ObjectStorage, StorageError};

/// The name of the catalogue's index file inside its directory.
pub(crate) const CATALOGUE_FILE: &str = "catalogue.json";

/// A catalogue directory.
#[derive(Debug)]
pub(crate) enum Source {
    /// Compiled into the binary (the demo).
    Embedded(&'static Dir<'static>),
    /// A directory on disk.
    Directory(PathBuf),
    /// Under a prefix of an object store: every listed object measured beforehand by a
    /// HEAD (the catalogue's text comes with it).
    Object {
        storage: Arc<ObjectStorage>,
        measured: HashMap<String, Result<ObjectInfo, StorageError>>,
    },
}

impl Source {
    /// The text of `catalogue.json`.
    pub(crate) fn catalogue_text(&self) -> Result<String, Error> {
        let missing = |message: String| Error::Catalogue {
            file: CATALOGUE_FILE.to_owned(),
            message,
        };
        match self {
            Source::Embedded(dir) => dir
                .get_file(CATALOGUE_FILE)
                .and_then(|file| file.contents_utf8())
                .map(str::to_owned)
                .ok_or_else(|| missing("missing from the embedded demo catalogue".into())),
            Source::Directory(dir) => std::fs::read_to_string(dir.join(CATALOGUE_FILE))
                .map_err(|err| missing(format!("{} ({})", describe_io(&err), dir.display()))),
            Source::Object { storage, .. } => Err(missing(format!(
                "read from {} before the catalogue loads",
                storage.url()
            ))),
        }
    }

    /// Measures the file at `path` (relative, `/`-separated, already checked not to
    /// escape the directory): size, MD5, modification time.
    fn measure(&self, path: &str, loaded_at: SystemTime) -> Result<FileContent, Error> {
        let fail = |message: String| Error::Catalogue {
            file: path.to_owned(),
            message,
        };
        let (data, size, md5, last_modified) = match self {
            Source::Embedded(dir) => {
                let bytes = dir
                    .get_file(path)
                    .map(|file| file.contents())
                    .ok_or_else(|| fail("No such file in the embedded demo catalogue".into()))?;
                let md5 = format!("{:x}", Md5::digest(bytes));
                (FileData::Static(bytes), bytes.len() as u64, md5, loaded_at)
            }
            Source::Directory(dir) => {
                let full = dir.join(path);
                let metadata = std::fs::metadata(&full).map_err(|err| fail(describe_io(&err)))?;
                if !metadata.is_file() {
                    return Err(fail("not a regular file".into()));
                }
                let md5 = md5_of_file(&full).map_err(|err| fail(describe_io(&err)))?;
                let modified = metadata.modified().unwrap_or(loaded_at);
                (FileData::Disk(full), metadata.len(), md5, modified)
            }
            Source::Object { storage, measured } => {
                let info = match measured.get(path) {
                    Some(Ok(info)) => info.clone(),
                    Some(Err(err)) => return Err(fail(err.to_string())),
                    None => return Err(fail(format!("not measured in {}", storage.url()))),
                };
                let data = FileData::Object(ObjectFile::new(storage.clone(), path));
                (data, info.size, info.md5, info.last_modified)
            }
        };
        Ok(FileContent {
            data,
            size,
            validators: Validators::new(&md5, last_modified),
            md5,
        })
    }
}

/// Measures each file once, however many entries name it.
#[derive(Debug)]
pub(crate) struct Measurer<'a> {
    source: &'a Source,
    loaded_at: SystemTime,
    seen: HashMap<String, Arc<FileContent>>,
}

impl<'a> Measurer<'a> {
    pub(crate) fn new(source: &'a Source) -> Measurer<'a> {
        Measurer {
            source,
            loaded_at: SystemTime::now(),
            seen: HashMap::new(),
        }
    }

    pub(crate) fn measure(&mut self, path: &str) -> Result<Arc<FileContent>, Error> {
        check_relative_path(path).map_err(|message| Error::Catalogue {
            file: path.to_owned(),
            message,
        })?;
        if let Some(content) = self.seen.get(path) {
            return Ok(content.clone());
        }
        let content = Arc::new(self.source.measure(path, self.loaded_at)?);
        self.seen.insert(path.to_owned(), content.clone());
        Ok(content)
    }

    /// Measures these files on every core at once (hashing large catalogues is what
    /// start-up spends its time on). Errors are left for [`Measurer::measure`] to report
    /// in catalogue order; paths it has already seen are skipped.
    pub(crate) fn prefetch<'p>(&mut self, paths: impl IntoIterator<Item = &'p str>) {
        if matches!(self.source, Source::Object { .. }) {
            return; // measured already, by a HEAD each
        }
        let mut todo: Vec<&str> = paths
            .into_iter()
            .filter(|path| check_relative_path(path).is_ok() && !self.seen.contains_key(*path))
            .collect();
        todo.sort_unstable();
        todo.dedup();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (source, loaded_at) = (self.source, self.loaded_at);
        let measured: Vec<(&str, FileContent)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers.min(todo.len()))
                .map(|_| {
                    scope.spawn(|| {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(path) = todo.get(i) else {
                                return done;
                            };
                            if let Ok(content) = source.measure(path, loaded_at) {
                                done.push((*path, content));
                            }
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|handle| handle.join().unwrap_or_default())
                .collect()
        });
        for (path, content) in measured {
            self.seen.insert(path.to_owned(), Arc::new(content));
        }
    }

    /// Every distinct file measured, by its catalogue path.
    pub(crate) fn into_files(self) -> HashMap<String, Arc<FileContent>> {
        self.seen
    }

    /// How many distinct files were measured, and their total size.
    pub(crate) fn totals(&self) -> (usize, u64) {
        (
            self.seen.len(),
            self.seen.values().map(|content| content.size).sum(),
        )
    }
}

/// Streams a file through MD5 in blocks, never holding it whole in memory.
fn md5_of_file(path: &std::path::Path) -> io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Md5::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buffer[..n]),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(format!("{:x}", hasher.finalize()))
}

/// An I/O error as a short phrase ("No such file", "Permission denied").
fn describe_io(err: &io::Error) -> String {
    match err.kind() {
        io::ErrorKind::NotFound => "No such file".to_owned(),
        io::ErrorKind::PermissionDenied => "Permission denied".to_owned(),
        _ => err.to_string(),
    }
}

/// A catalogue path must stay inside the catalogue directory: relative, `/`-separated,
/// no empty, `.` or `..` segments.
pub(crate) fn check_relative_path(path: &str) -> Result<(), String> {
    if path.is_empty() {
        return Err("empty path".into());
    }
    if path.starts_with('/') || path.contains('\\') || path.contains(':') {
        return Err(
            "paths must be relative to the catalogue directory and use '/' (no absolute paths, '\\' or ':')"
                .into(),
        );
    }
    if path.chars().any(char::is_control) {
        return Err("paths may not contain control characters".into());
    }
    if path
        .split('/')
        .any(|segment| segment.is_empty() || segment == "." || segment == "..")
    {
        return Err("paths may not contain empty, '.' or '..' segments".into());
    }
    Ok(())
}

/// The last segment of a catalogue path: the name the file is served under.
pub(crate) fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The extension of a file name, lower-cased (`""` when there is none).
pub(crate) fn extension(name: &str) -> String {
    name.rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default()
}

/// The media type a file is served with, from its extension.
pub(crate) fn content_type(name: &str) -> HeaderValue {
    let ext = extension(name);
    // Formats of geographic data that general MIME tables don't know.
    let known = match ext.as_str() {
        "gpkg" => Some("application/geopackage+sqlite3"),
        "mbtiles" => Some("application/vnd.sqlite3"),
        "gml" => Some("application/gml+xml"),
        "tif" | "tiff" => Some("image/tiff"),
        _ => None,
    };
    let media = known
        .map(str::to_owned)
        .or_else(|| mime_guess::from_ext(&ext).first().map(|m| m.to_string()))
        .unwrap_or_else(|| "application/octet-stream".to_owned());
    HeaderValue::try_from(media)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    #[test]
    fn paths_may_not_leave_the_directory() {
        assert!(check_relative_path("files/OpenRoads/oproad_gb.zip").is_ok());
        for bad in [
            "",
            "/etc/passwd",
            "../x.zip",
            "files/../../x",
            "files//x",
            "./x",
            "C:/x",
            "files\\x",
            "files/x\n",
        ] {
            assert!(check_relative_path(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn files_get_the_media_type_of_their_extension() {
        assert_eq!(content_type("a.zip"), "application/zip");
        assert_eq!(content_type("a.JPG"), "image/jpeg");
        assert_eq!(content_type("a.csv"), "text/csv");
        assert_eq!(content_type("a.gpkg"), "application/geopackage+sqlite3");
        assert_eq!(content_type("noextension"), "application/octet-stream");
    }

    #[test]
    fn disk_files_are_measured_by_streaming() {
        let dir = tempfile::TempDir::new().unwrap();
        // Larger than one read block, so the streaming loop runs more than once.
        let bytes: Vec<u8> = (0..(3 << 20) + 17).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.path().join("big.bin"), &bytes).unwrap();
        let source = Source::Directory(dir.path().to_owned());
        let mut measurer = Measurer::new(&source);
        let content = measurer.measure("big.bin").unwrap();
        assert_eq!(content.size, bytes.len() as u64);
        assert_eq!(content.md5, format!("{:x}", Md5::digest(&bytes)));
        let mut headers = HeaderMap::new();
        content.validators.insert(&mut headers);
        assert_eq!(headers["etag"], format!("\"{}\"", content.md5).as_str());
        // Measured once however often it is named.
        assert!(Arc::ptr_eq(&content, &measurer.measure("big.bin").unwrap()));
    }
}
