//! Where a catalogue lives (`--storage`): a local directory, or an object store (any
//! S3-compatible store, or Azure Blob Storage) reached through Apache Arrow's
//! `object_store`, which also presigns the addresses the API redirects to.
//!
//! An object store's catalogue is `catalogue.json` and its files under one prefix,
//! as `download-server publish` writes them: each file's MD5 travels in its metadata
//! (`md5`), so a server learns sizes and digests from a HEAD instead of reading
//! terabytes.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use arc_swap::ArcSwapOption;
use axum::http::HeaderValue;
use futures::StreamExt;
use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::path::Path;
use object_store::signer::Signer;
use object_store::{Attribute, GetOptions, ObjectStore};

use crate::signed_link::now_secs;

/// The name of a catalogue's index file, in a directory or under a prefix.
pub(crate) const CATALOGUE_OBJECT: &str = "catalogue.json";

/// How many HEAD requests measure a catalogue's objects at once.
const MEASURE_AT_ONCE: usize = 32;

/// Why the store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// `--storage` names no store this server speaks.
    #[error("--storage '{url}': {message}")]
    Url { url: String, message: String },
    /// A request to the store failed (unreachable, refused, missing object).
    #[error("{url}: {message}")]
    Store { url: String, message: String },
}

/// What `--storage` names.
#[derive(Debug, Clone)]
pub(crate) enum Storage {
    /// A catalogue directory on this machine (today's way, and the default).
    Directory(PathBuf),
    /// `s3://bucket/prefix` or `az://container/prefix`.
    Object(Arc<ObjectStorage>),
}

/// `builder` with each of `options` (the store's own configuration keys) set by `set`.
fn configured<B, K: std::str::FromStr<Err = object_store::Error>>(
    builder: B,
    options: &[(String, String)],
    set: impl Fn(B, K, &String) -> B,
) -> Result<B, object_store::Error> {
    options.iter().try_fold(builder, |builder, (key, value)| {
        Ok(set(builder, key.parse()?, value))
    })
}

/// A store that also signs its own addresses, shared as both.
fn store_and_signer(store: impl ObjectStore + Signer) -> (Arc<dyn ObjectStore>, Arc<dyn Signer>) {
    let store = Arc::new(store);
    (store.clone(), store)
}

impl Storage {
    /// Reads `--storage`: a URL with a scheme this server speaks, or else a directory.
    /// The store's endpoint, region and credentials come from the usual variables
    /// (`AWS_*` for S3, `AZURE_*` for Azure), with `options` (`object_store`'s keys:
    /// `aws_endpoint`, `azure_storage_account_key`, …) applied over them.
    pub(crate) fn parse(
        text: &str,
        presign_lifetime: Duration,
        options: &[(String, String)],
    ) -> Result<Storage, StorageError> {
        let Some((scheme, _)) = text.split_once("://") else {
            return Ok(Storage::Directory(PathBuf::from(text)));
        };
        let fail = |message: String| StorageError::Url {
            url: text.to_owned(),
            message,
        };
        let url = url::Url::parse(text).map_err(|err| fail(err.to_string()))?;
        if url.host_str().is_none_or(str::is_empty) {
            return Err(fail("names no bucket or container".into()));
        }
        let refused = |error: object_store::Error| fail(error.to_string());
        let (store, signer) = match scheme {
            "s3" => {
                let builder = AmazonS3Builder::from_env().with_url(text);
                let s3 = configured(builder, options, |b, k, v: &String| b.with_config(k, v))
                    .and_then(AmazonS3Builder::build)
                    .map_err(refused)?;
                store_and_signer(s3)
            }
            "az" | "azure" => {
                let builder = MicrosoftAzureBuilder::from_env().with_url(text);
                let azure = configured(builder, options, |b, k, v: &String| b.with_config(k, v))
                    .and_then(MicrosoftAzureBuilder::build)
                    .map_err(refused)?;
                store_and_signer(azure)
            }
            other => {
                return Err(fail(format!(
                    "the scheme '{other}' is not one of s3:// or az:// (or give a directory)"
                )));
            }
        };
        let prefix = url.path().trim_matches('/');
        Ok(Storage::Object(Arc::new(ObjectStorage {
            url: format!("{scheme}://{}/{prefix}", url.host_str().unwrap_or_default())
                .trim_end_matches('/')
                .to_owned(),
            store,
            signer,
            prefix: Path::from(prefix),
            presign_lifetime,
        })))
    }
}

/// A catalogue under a prefix of a bucket or container.
#[derive(Debug)]
pub(crate) struct ObjectStorage {
    /// `s3://bucket/prefix`, for messages (holds no credentials).
    url: String,
    store: Arc<dyn ObjectStore>,
    signer: Arc<dyn Signer>,
    prefix: Path,
    presign_lifetime: Duration,
}

/// One object as a HEAD found it.
#[derive(Debug, Clone)]
pub(crate) struct ObjectInfo {
    pub size: u64,
    /// Lower-case hex MD5 of the bytes.
    pub md5: String,
    pub last_modified: SystemTime,
}

/// The catalogue's text, and its version (ETag) for the next conditional GET.
#[derive(Debug)]
pub(crate) struct CatalogueText {
    pub text: String,
    pub etag: Option<String>,
}

impl ObjectStorage {
    /// `s3://bucket/prefix`, as the user wrote it.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The store itself (for publishing).
    pub(crate) fn store(&self) -> &Arc<dyn ObjectStore> {
        &self.store
    }

    /// The key of a catalogue path (`files/a.zip`) under the prefix.
    pub(crate) fn key(&self, path: &str) -> Path {
        let path = Path::from(path);
        Path::from_iter(self.prefix.parts().chain(path.parts()))
    }

    fn error(&self, what: &str, err: object_store::Error) -> StorageError {
        let message = match err {
            object_store::Error::NotFound { .. } => format!("{what}: not found"),
            other => format!("{what}: {other}"),
        };
        StorageError::Store {
            url: self.url.clone(),
            message,
        }
    }

    /// `catalogue.json`, unless its ETag is still `known` (a conditional GET: then
    /// `None`).
    pub(crate) async fn catalogue(
        &self,
        known: Option<&str>,
    ) -> Result<Option<CatalogueText>, StorageError> {
        let options = GetOptions {
            if_none_match: known.map(str::to_owned),
            ..GetOptions::default()
        };
        let key = self.key(CATALOGUE_OBJECT);
        let result = match self.store.get_opts(&key, options).await {
            Ok(result) => result,
            Err(object_store::Error::NotModified { .. }) => return Ok(None),
            Err(err) => {
                return Err(self.error(
                    "catalogue.json (publish one with `download-server publish DIR --storage URL`)",
                    err,
                ));
            }
        };
        let etag = result.meta.e_tag.clone();
        let bytes = result
            .bytes()
            .await
            .map_err(|err| self.error(CATALOGUE_OBJECT, err))?;
        let text = String::from_utf8(bytes.to_vec()).map_err(|_| StorageError::Store {
            url: self.url.clone(),
            message: "catalogue.json is not UTF-8 text".into(),
        })?;
        Ok(Some(CatalogueText { text, etag }))
    }

    /// Size, MD5 and date of the object at catalogue path `path`, from a HEAD.
    pub(crate) async fn measure(&self, path: &str) -> Result<ObjectInfo, StorageError> {
        let options = GetOptions {
            head: true,
            ..GetOptions::default()
        };
        let result = self
            .store
            .get_opts(&self.key(path), options)
            .await
            .map_err(|err| self.error(path, err))?;
        let from_metadata = result
            .attributes
            .get(&Attribute::Metadata("md5".into()))
            .map(|value| value.to_string());
        // An object uploaded in one piece elsewhere: S3's ETag is then its MD5.
        let from_etag = || {
            let tag = result.meta.e_tag.as_deref()?.trim_matches('"');
            (tag.len() == 32 && tag.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| tag.to_ascii_lowercase())
        };
        let md5 = from_metadata
            .or_else(from_etag)
            .ok_or_else(|| StorageError::Store {
                url: self.url.clone(),
                message: format!(
                    "{path}: no MD5 in its metadata (upload catalogues with `download-server publish`)"
                ),
            })?;
        Ok(ObjectInfo {
            size: result.meta.size,
            md5,
            last_modified: result.meta.last_modified.into(),
        })
    }

    /// [`ObjectStorage::measure`] for each path, many at once.
    pub(crate) async fn measure_all(
        &self,
        paths: Vec<String>,
    ) -> HashMap<String, Result<ObjectInfo, StorageError>> {
        futures::stream::iter(paths)
            .map(|path| async move {
                let measured = self.measure(&path).await;
                (path, measured)
            })
            .buffer_unordered(MEASURE_AT_ONCE)
            .collect()
            .await
    }

    /// A presigned GET of `key`, good for `--presign-lifetime`.
    async fn presign(&self, key: &Path) -> Result<HeaderValue, StorageError> {
        let url = self
            .signer
            .signed_url(axum::http::Method::GET, key, self.presign_lifetime)
            .await
            .map_err(|err| self.error(key.as_ref(), err))?;
        HeaderValue::try_from(url.as_str()).map_err(|_| StorageError::Store {
            url: self.url.clone(),
            message: format!("{key}: the presigned address is not a header value"),
        })
    }

    /// How long one presigned address is handed out again: a tenth of its lifetime, at
    /// most a minute, so every address given out still has at least nine tenths of it.
    fn reuse_for(&self) -> u64 {
        (self.presign_lifetime.as_secs() / 10).min(60)
    }
}

/// One file of a catalogue in object storage: where it is, and its latest presigned
/// address.
#[derive(Debug)]
pub(crate) struct ObjectFile {
    storage: Arc<ObjectStorage>,
    key: Path,
    /// Signing costs more than the rest of a redirect: one address serves every
    /// request for a few seconds.
    presigned: ArcSwapOption<Presigned>,
}

#[derive(Debug)]
struct Presigned {
    /// Seconds since the epoch.
    signed_at: u64,
    location: HeaderValue,
}

impl ObjectFile {
    pub(crate) fn new(storage: Arc<ObjectStorage>, path: &str) -> ObjectFile {
        ObjectFile {
            key: storage.key(path),
            storage,
            presigned: ArcSwapOption::empty(),
        }
    }

    /// A presigned GET of this file with (nearly) all of `--presign-lifetime` ahead.
    pub(crate) async fn presigned_location(&self) -> Result<HeaderValue, StorageError> {
        let now = now_secs();
        if let Some(presigned) = self.presigned.load().as_ref()
            && now.saturating_sub(presigned.signed_at) < self.storage.reuse_for()
        {
            return Ok(presigned.location.clone());
        }
        let location = self.storage.presign(&self.key).await?;
        self.presigned.store(Some(Arc::new(Presigned {
            signed_at: now,
            location: location.clone(),
        })));
        Ok(location)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_and_store_urls_are_told_apart() {
        let hour = Duration::from_secs(3600);
        assert!(matches!(
            Storage::parse("/srv/catalogue", hour, &[]),
            Ok(Storage::Directory(_))
        ));
        assert!(matches!(
            Storage::parse("catalogue", hour, &[]),
            Ok(Storage::Directory(_))
        ));
        let Ok(Storage::Object(s3)) = Storage::parse("s3://tiles/geo/2026/", hour, &[]) else {
            panic!("an S3 URL is object storage");
        };
        assert_eq!(s3.url(), "s3://tiles/geo/2026");
        assert_eq!(s3.key("files/a b.zip").as_ref(), "geo/2026/files/a b.zip");
        let Ok(Storage::Object(bare)) = Storage::parse("s3://tiles", hour, &[]) else {
            panic!("a bucket alone is object storage");
        };
        assert_eq!(bare.key(CATALOGUE_OBJECT).as_ref(), "catalogue.json");
        for bad in ["ftp://x/y", "s3:///nobucket", "gs://bucket"] {
            let err = Storage::parse(bad, hour, &[]).unwrap_err();
            assert!(
                err.to_string().starts_with(&format!("--storage '{bad}'")),
                "{err}"
            );
        }
    }
}
