//! `download-server publish DIR --storage URL`: uploads a catalogue directory to object
//! storage so that servers started with the same `--storage` serve it.
//!
//! The catalogue is checked first, as a server would load it (a missing file stops
//! everything before a byte is sent). Then each file: skipped when the store already
//! holds an object of the same size and MD5, else uploaded (large ones in parallel
//! multipart uploads), its MD5 in the object's metadata. `catalogue.json` goes last, so
//! a server never reads a catalogue whose files are not all there.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use md5::{Digest, Md5};
use object_store::{
    Attribute, Attributes, ObjectStore, PutMultipartOptions, PutOptions, PutPayload, WriteMultipart,
};
use tokio::io::AsyncReadExt;

use crate::catalogue::{CATALOGUE_FILE, Catalogue, content_type};
use crate::config::PublishArgs;
use crate::error::Error;
use crate::file::{FileContent, FileData};
use crate::storage::{ObjectStorage, Storage};

/// Files up to this size go in one request; larger ones in parts of this size.
const PART_SIZE: usize = 8 << 20;
/// Parts of one file in flight at once.
const PARTS_AT_ONCE: usize = 4;

/// What a publish did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Published {
    /// Files sent to the store.
    pub uploaded: usize,
    /// Files the store already held with the same size and MD5.
    pub skipped: usize,
    /// Bytes sent (the catalogue's own text not counted).
    pub bytes_uploaded: u64,
    pub elapsed: Duration,
}

/// One file to publish.
#[derive(Debug)]
struct Job {
    path: String,
    content: Arc<FileContent>,
}

/// Publishes `args.dir` to `args.storage`, with a progress bar on a terminal.
pub async fn publish(args: &PublishArgs) -> Result<Published, Error> {
    let started = Instant::now();
    let storage = match Storage::parse(
        &args.storage,
        Duration::from_secs(3600),
        &args.storage_options,
    )? {
        Storage::Object(storage) => storage,
        Storage::Directory(_) => {
            return Err(Error::Publish(format!(
                "--storage '{}' is a directory: a server serves a catalogue directory as it is; \
                 publish writes to s3://bucket/prefix or az://container/prefix",
                args.storage
            )));
        }
    };
    let dir = args.dir.clone();
    let (text, files) = tokio::task::spawn_blocking(move || Catalogue::check_directory(&dir))
        .await
        .map_err(|err| Error::Io(std::io::Error::other(err)))??;
    let mut jobs: Vec<Job> = files
        .into_iter()
        .map(|(path, content)| Job { path, content })
        .collect();
    // Largest first, so the long uploads overlap the many small ones.
    jobs.sort_by(|a, b| (b.content.size.cmp(&a.content.size)).then_with(|| a.path.cmp(&b.path)));
    let total: u64 = jobs.iter().map(|job| job.content.size).sum();
    let progress = ProgressBar::new(total).with_style(
        ProgressStyle::with_template(
            "{msg} [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec}, {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    progress.set_message(format!("publishing to {}", storage.url()));

    let jobs_at_once = usize::try_from(args.jobs).unwrap_or(4);
    let outcomes: Vec<Outcome> = futures::stream::iter(jobs)
        .map(|job| publish_file(&storage, job, &progress))
        .buffer_unordered(jobs_at_once)
        .try_collect()
        .await
        .inspect_err(|_| progress.abandon())?;

    put(
        &storage,
        CATALOGUE_FILE,
        PutPayload::from(text.into_bytes()),
        None,
    )
    .await?;
    progress.finish_and_clear();
    let mut published = Published {
        elapsed: started.elapsed(),
        ..Published::default()
    };
    for outcome in outcomes {
        match outcome {
            Outcome::Skipped => published.skipped += 1,
            Outcome::Uploaded(bytes) => {
                published.uploaded += 1;
                published.bytes_uploaded += bytes;
            }
        }
    }
    Ok(published)
}

enum Outcome {
    Skipped,
    Uploaded(u64),
}

async fn publish_file(
    storage: &ObjectStorage,
    job: Job,
    progress: &ProgressBar,
) -> Result<Outcome, Error> {
    let content = &job.content;
    if let Ok(there) = storage.measure(&job.path).await
        && there.size == content.size
        && there.md5 == content.md5
    {
        progress.inc(content.size);
        return Ok(Outcome::Skipped);
    }
    let FileData::Disk(local) = &content.data else {
        return Err(Error::Publish(format!("{}: not a file on disk", job.path)));
    };
    let mut file = tokio::fs::File::open(local)
        .await
        .map_err(|err| changed(&job, &err.to_string()))?;
    let mut hasher = Md5::new();
    let mut sent = 0u64;
    if content.size <= PART_SIZE as u64 {
        let mut bytes = Vec::with_capacity(content.size as usize);
        file.read_to_end(&mut bytes)
            .await
            .map_err(|err| changed(&job, &err.to_string()))?;
        hasher.update(&bytes);
        sent = bytes.len() as u64;
        check_same(&job, sent, hasher)?;
        put(
            storage,
            &job.path,
            PutPayload::from(bytes),
            Some(&content.md5),
        )
        .await?;
        progress.inc(sent);
        return Ok(Outcome::Uploaded(sent));
    }

    let key = storage.key(&job.path);
    let options = PutMultipartOptions {
        attributes: attributes(&job.path, Some(&content.md5)),
        ..PutMultipartOptions::default()
    };
    let upload = storage
        .store()
        .put_multipart_opts(&key, options)
        .await
        .map_err(|err| store_error(storage, &job.path, err))?;
    let mut writer = WriteMultipart::new_with_chunk_size(upload, PART_SIZE);
    let mut buffer = vec![0u8; PART_SIZE];
    loop {
        let read = match file.read(&mut buffer).await {
            Ok(0) => break,
            Ok(read) => read,
            Err(err) => {
                let _ = writer.abort().await;
                return Err(changed(&job, &err.to_string()));
            }
        };
        hasher.update(&buffer[..read]);
        if let Err(err) = writer.wait_for_capacity(PARTS_AT_ONCE).await {
            return Err(store_error(storage, &job.path, err));
        }
        writer.write(&buffer[..read]);
        sent += read as u64;
        progress.inc(read as u64);
    }
    if let Err(err) = check_same(&job, sent, hasher) {
        let _ = writer.abort().await;
        return Err(err);
    }
    writer
        .finish()
        .await
        .map_err(|err| store_error(storage, &job.path, err))?;
    Ok(Outcome::Uploaded(sent))
}

/// The bytes sent must be those checked: a file changed since would make the
/// catalogue's size and MD5 lie.
fn check_same(job: &Job, size: u64, hasher: Md5) -> Result<(), Error> {
    let md5 = format!("{:x}", hasher.finalize());
    if size != job.content.size || md5 != job.content.md5 {
        return Err(changed(
            job,
            &format!(
                "checked as {} bytes with MD5 {}, read as {size} bytes with MD5 {md5}",
                job.content.size, job.content.md5
            ),
        ));
    }
    Ok(())
}

fn changed(job: &Job, detail: &str) -> Error {
    Error::Publish(format!(
        "{} changed while publishing ({detail}); catalogue.json was not written: publish again",
        job.path
    ))
}

/// One object in one request.
async fn put(
    storage: &ObjectStorage,
    path: &str,
    payload: PutPayload,
    md5: Option<&str>,
) -> Result<(), Error> {
    let options = PutOptions {
        attributes: attributes(path, md5),
        ..PutOptions::default()
    };
    storage
        .store()
        .put_opts(&storage.key(path), payload, options)
        .await
        .map_err(|err| store_error(storage, path, err))?;
    Ok(())
}

/// The media type browsers get from the store, and the MD5 servers read back.
fn attributes(path: &str, md5: Option<&str>) -> Attributes {
    let mut attributes = Attributes::new();
    if let Ok(media) = content_type(path).to_str() {
        attributes.insert(Attribute::ContentType, media.to_owned().into());
    }
    if let Some(md5) = md5 {
        attributes.insert(Attribute::Metadata("md5".into()), md5.to_owned().into());
    }
    attributes
}

fn store_error(storage: &ObjectStorage, path: &str, err: object_store::Error) -> Error {
    Error::Publish(format!(
        "{}: uploading {path} failed, catalogue.json was not written: {err}",
        storage.url()
    ))
}
