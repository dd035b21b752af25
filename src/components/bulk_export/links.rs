//! Where each file of a bulk download is fetched from, shared by the folder and the
//! zip: the listed address of an open product's file; for a data-package file, a fresh
//! direct address asked for with the signed-in credentials (in a header, never in an
//! address). Listed addresses expire, so a refused one is listed anew.

use std::cell::RefCell;

use download_api::Download;
use explorer_logic::bulk::answer::{Failure, fetch_address};
use explorer_logic::bulk::export::{BulkDownload, named_once, relist};
use explorer_logic::bulk::file::FileId;
use explorer_logic::bulk::queue::Event;

use super::PackageVersion;
use crate::auth::Session;

/// The files' addresses, kept fresh.
pub struct Links {
    downloads: RefCell<Vec<Download>>,
    package: Option<PackageVersion>,
    session: Session,
}

impl Links {
    pub fn new(files: &[BulkDownload], package: Option<PackageVersion>, session: Session) -> Links {
        let downloads = files.iter().map(|file| file.download.clone()).collect();
        Links {
            downloads: RefCell::new(downloads),
            package,
            session,
        }
    }

    /// Where each file is fetched from for good, where that is known without asking:
    /// an open product's listed addresses (each redirects afresh). A data package's
    /// are asked for each time ([`Links::address`]).
    pub fn lasting(
        files: &[BulkDownload],
        package: Option<&PackageVersion>,
    ) -> Vec<Option<String>> {
        files
            .iter()
            .map(|file| package.is_none().then(|| file.download.url.clone()))
            .collect()
    }

    /// Where to fetch `file` now: its listed address, or for a data-package file a
    /// fresh direct address (or the listed signed one when the service only redirects,
    /// or when another file has its name, which the service's address would not tell
    /// apart).
    pub async fn address(&self, file: FileId) -> Result<String, Failure> {
        let (listed, file_name, named_once) = {
            let downloads = self.downloads.borrow();
            (
                downloads[file].url.clone(),
                downloads[file].file_name.clone(),
                named_once(&downloads, file),
            )
        };
        let Some(package) = self.package.as_ref().filter(|_| named_once) else {
            return Ok(listed);
        };
        let answer = self
            .session
            .ask(async |api| {
                api.direct_download_url(&package.package_id, &package.version_id, &file_name)
                    .await
            })
            .await;
        fetch_address(answer, &listed)
    }

    /// Lists the files again for fresh links after `file`'s was refused: the version
    /// with the session's credentials. An open product's listed address redirects
    /// afresh each time, so there is nothing to list.
    pub async fn refresh(&self, file: FileId) -> Event {
        let Some(package) = &self.package else {
            return Event::Refreshed { file };
        };
        let answer = self
            .session
            .ask(async |api| api.version(&package.package_id, &package.version_id).await)
            .await;
        match answer {
            Ok(version) => {
                relist(&mut self.downloads.borrow_mut(), version.downloads);
                Event::Refreshed { file }
            }
            Err(error) => Event::RefreshFailed {
                file,
                failure: error.into(),
            },
        }
    }
}
