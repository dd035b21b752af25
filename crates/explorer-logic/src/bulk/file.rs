//! The files of a bulk download as the service listed them: where each is saved, its
//! size and md5. Every other part of the bulk engine names a file by its [`FileId`].

use serde::{Deserialize, Serialize};

use crate::bulk::export::BulkDownload;
use crate::bulk::naming::saved_path;

/// A file listed this long or longer is a long file ([`ListedFile::is_long`]): in a zip,
/// its pieces pass to the browser as they came, and in Chromium it is hashed in a worker
/// beside the service worker (the worker protocol's `fetch_beside` decides, above this
/// module). A shorter one costs the run under 2 ms to hash, less than waiting at its end
/// for that worker's answer.
pub const LONG_FILE: u64 = 1024 * 1024;

/// One file the service listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedFile {
    /// Where it is saved, relative to the chosen folder: its name, made safe, inside
    /// its sub-folder when it has one (`OpenTOID/su.zip`; see
    /// [`crate::bulk::naming`]). It is also its name in a zip and in the report.
    pub name: String,
    /// The name the service listed, when it is saved under another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed_name: Option<String>,
    /// Size in bytes, when listed.
    pub size: Option<u64>,
    /// MD5, lower-case hex, when listed.
    pub md5: Option<String>,
}

impl ListedFile {
    /// Whether it is listed at least [`LONG_FILE`] long.
    pub fn is_long(&self) -> bool {
        self.size.is_some_and(|size| size >= LONG_FILE)
    }

    /// The file of `download`, the `index`-th of its listing.
    pub fn new(index: usize, file_name: &str, size: Option<u64>, md5: Option<&str>) -> Self {
        Self::in_folder(None, index, file_name, size, md5)
    }

    /// The `index`-th file of a listing, saved in the sub-folder `folder`, if any.
    pub fn in_folder(
        folder: Option<&str>,
        index: usize,
        file_name: &str,
        size: Option<u64>,
        md5: Option<&str>,
    ) -> Self {
        ListedFile {
            name: saved_path(folder, file_name, index),
            listed_name: None,
            size,
            md5: md5.map(str::to_ascii_lowercase),
        }
    }

    /// A file of `size` bytes under exactly `name` (not made safe), for tests.
    #[cfg(test)]
    pub(crate) fn sized(name: &str, size: u64, md5: Option<&str>) -> Self {
        ListedFile {
            name: name.into(),
            listed_name: None,
            size: Some(size),
            md5: md5.map(Into::into),
        }
    }

    /// The files of a listing, in order, each under its own name (two of one name
    /// told apart; see [`crate::bulk::naming`]).
    pub fn all_of(files: &[BulkDownload]) -> Vec<ListedFile> {
        files
            .iter()
            .zip(BulkDownload::saved_names(files))
            .map(|(file, saved)| {
                let d = &file.download;
                ListedFile {
                    listed_name: (!saved.renamed.is_empty()).then(|| d.file_name.clone()),
                    name: saved.path,
                    size: d.size,
                    md5: d.md5.as_deref().map(str::to_ascii_lowercase),
                }
            })
            .collect()
    }

    /// The sub-folder it is saved in, if any.
    pub fn folder(&self) -> Option<&str> {
        self.name.split_once('/').map(|(folder, _)| folder)
    }

    /// Its own name, without the sub-folder: what a file picked for verifying is
    /// called.
    pub fn file_name(&self) -> &str {
        self.name
            .split_once('/')
            .map_or(&self.name, |(_, name)| name)
    }

    /// Whether `md5` (any case) is this file's listed checksum; true when none is listed.
    pub fn md5_matches(&self, md5: &str) -> bool {
        self.md5
            .as_deref()
            .is_none_or(|want| want.eq_ignore_ascii_case(md5))
    }
}

/// A file's place in the listing.
pub type FileId = usize;

#[cfg(test)]
mod tests {
    use download_api::Download;

    use super::*;

    #[test]
    fn a_file_is_saved_under_a_safe_name_inside_its_sub_folder() {
        let in_folder = ListedFile::all_of(&[BulkDownload {
            download: Download {
                url: "u".into(),
                file_name: "su.zip".into(),
                size: Some(10),
                md5: None,
                flaws: Vec::new(),
            },
            folder: Some("OpenTOID".into()),
            qualifiers: Vec::new(),
        }]);
        assert_eq!(in_folder[0].name, "OpenTOID/su.zip");
        assert_eq!(in_folder[0].folder(), Some("OpenTOID"));
        assert_eq!(in_folder[0].file_name(), "su.zip");
        let plain = ListedFile::new(0, "a/b.zip", None, None);
        assert_eq!((plain.folder(), plain.file_name()), (None, "a_b.zip"));
    }

    #[test]
    fn two_files_of_one_name_are_saved_apart_and_keep_their_listed_name() {
        let file = |area: &str| {
            BulkDownload::from(&download_api::ProductDownload {
                file: download_api::Download {
                    url: format!("https://x/{area}"),
                    file_name: "data.zip".into(),
                    size: Some(1),
                    ..Default::default()
                },
                area: area.into(),
                format: "GML".into(),
                subformat: None,
            })
        };
        let listed = ListedFile::all_of(&[file("SU"), file("SZ")]);
        let names: Vec<&str> = listed.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["data (SU).zip", "data (SZ).zip"]);
        assert_eq!(listed[1].listed_name.as_deref(), Some("data.zip"));
        let lone = ListedFile::all_of(&[file("SU")]);
        assert_eq!(
            (lone[0].name.as_str(), lone[0].listed_name.as_deref()),
            ("data.zip", None)
        );
    }

    #[test]
    fn a_listed_md5_is_kept_in_lower_case_and_matched_in_any_case() {
        let file = ListedFile::new(0, "a.zip", Some(1), Some("AbC"));
        assert_eq!(file.md5.as_deref(), Some("abc"));
        assert!(file.md5_matches("ABC"));
        assert!(!file.md5_matches("abd"));
        let unlisted = ListedFile::new(0, "a.zip", Some(1), None);
        assert!(
            unlisted.md5_matches("anything"),
            "nothing listed, nothing to differ"
        );
    }
}
