//! "Verify files": the files a user picked, compared with a listing by name, size and md5.

use std::collections::{BTreeMap, BTreeSet};

use crate::bulk::file::ListedFile;
use crate::bulk::report::REPORT_NAME;
use crate::text::t;

/// A file the user picked, measured in the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub name: String,
    pub size: u64,
    /// MD5, lower-case hex.
    pub md5: String,
}

/// A picked file that is not what the listing says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Differs {
    pub name: String,
    /// The listed md5 (or size, when the listing gives no md5).
    pub expected: String,
    /// What the picked file has.
    pub actual: String,
}

/// The outcome of a verification, each list in the listing's (or the picking's) order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verification {
    /// Names of picked files with the listed md5 (or size, when no md5 is listed).
    pub matches: Vec<String>,
    /// Picked files whose content is not the listed one.
    pub differs: Vec<Differs>,
    /// Listed files that were not picked.
    pub missing: Vec<String>,
    /// Picked files the listing does not name.
    pub not_listed: Vec<String>,
}

impl Verification {
    /// Compares what was picked with what was listed, by each file's own name (a
    /// basket's sub-folder is not part of it). A folder's sub-folders may hold
    /// a listed name more than once: every copy is checked, and the file matches only
    /// when each copy does (each copy that differs is named).
    pub fn of(listed: &[ListedFile], found: &[Found]) -> Verification {
        let mut result = Verification::default();
        // Each name's copies, gathered once: a version lists thousands of files.
        let mut copies: BTreeMap<&str, Vec<&Found>> = BTreeMap::new();
        for picked in found {
            copies.entry(picked.name.as_str()).or_default().push(picked);
        }
        for file in listed {
            let Some(copies) = copies.get(file.file_name()) else {
                result.missing.push(file.name.clone());
                continue;
            };
            let differing: Vec<Differs> = copies
                .iter()
                .filter_map(|picked| differs(file, picked))
                .collect();
            if differing.is_empty() {
                result.matches.push(file.name.clone());
            } else {
                result.differs.extend(differing);
            }
        }
        let names: BTreeSet<&str> = listed.iter().map(ListedFile::file_name).collect();
        result.not_listed = found
            .iter()
            .filter(|f| !names.contains(f.name.as_str()) && f.name != REPORT_NAME)
            .map(|f| f.name.clone())
            .collect();
        result
    }

    /// True when every listed file was picked and matches.
    pub fn all_match(&self) -> bool {
        self.differs.is_empty() && self.missing.is_empty()
    }
}

/// How `picked` is not the listed `file`, if it is not: its md5, or its size when the
/// listing gives no md5.
fn differs(file: &ListedFile, picked: &Found) -> Option<Differs> {
    match (&file.md5, file.size) {
        (Some(md5), _) if !file.md5_matches(&picked.md5) => Some(Differs {
            name: file.name.clone(),
            expected: md5.clone(),
            actual: picked.md5.clone(),
        }),
        (None, Some(size)) if size != picked.size => Some(Differs {
            name: file.name.clone(),
            expected: t::bulk::bytes(size),
            actual: t::bulk::bytes(picked.size),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(name: &str, size: u64, md5: &str) -> Found {
        Found {
            name: name.into(),
            size,
            md5: md5.into(),
        }
    }

    #[test]
    fn each_picked_file_is_matched_differs_or_not_listed() {
        let listing = [
            ListedFile::sized("a.zip", 3, Some("aa")),
            ListedFile::sized("b.zip", 3, Some("bb")),
            ListedFile::sized("c.zip", 3, Some("cc")),
            ListedFile::sized("d.csv", 5, None),
        ];
        let picked = [
            found("a.zip", 3, "AA"),
            found("b.zip", 3, "00"),
            found("d.csv", 4, "dd"),
            found("notes.txt", 1, "ee"),
            found(REPORT_NAME, 9, "ff"),
        ];
        let result = Verification::of(&listing, &picked);
        assert_eq!(result.matches, ["a.zip"]);
        assert_eq!(
            result.differs,
            [
                Differs {
                    name: "b.zip".into(),
                    expected: "bb".into(),
                    actual: "00".into()
                },
                Differs {
                    name: "d.csv".into(),
                    expected: "5 bytes".into(),
                    actual: "4 bytes".into()
                }
            ]
        );
        assert_eq!(result.missing, ["c.zip"]);
        assert_eq!(result.not_listed, ["notes.txt"]);
        assert!(!result.all_match());
    }

    #[test]
    fn a_complete_folder_all_matches() {
        let listing = [ListedFile::sized("a.zip", 3, Some("aa"))];
        let result = Verification::of(&listing, &[found("a.zip", 3, "aa")]);
        assert!(result.all_match());
        assert!(result.not_listed.is_empty());
    }

    /// A folder read with its sub-folders may hold two copies of a listed file: a bad
    /// copy is not hidden by a good one.
    #[test]
    fn every_copy_of_a_listed_name_is_checked() {
        let listing = [
            ListedFile::sized("a.zip", 3, Some("aa")),
            ListedFile::sized("b.zip", 3, Some("bb")),
        ];
        let picked = [
            found("a.zip", 3, "aa"),
            found("a.zip", 3, "01"),
            found("b.zip", 3, "bb"),
            found("b.zip", 3, "bb"),
        ];
        let result = Verification::of(&listing, &picked);
        assert_eq!(result.matches, ["b.zip"]);
        assert_eq!(
            result.differs,
            [Differs {
                name: "a.zip".into(),
                expected: "aa".into(),
                actual: "01".into()
            }]
        );
        assert!(!result.all_match());
    }

    #[test]
    fn a_basket_s_files_are_found_by_their_own_names() {
        let listing = [
            ListedFile::in_folder(Some("OpenTOID"), 0, "su.zip", Some(3), Some("aa")),
            ListedFile::in_folder(Some("OpenRoads"), 1, "gb.zip", Some(3), Some("bb")),
        ];
        let picked = [found("su.zip", 3, "aa"), found("other.zip", 1, "cc")];
        let result = Verification::of(&listing, &picked);
        assert_eq!(result.matches, ["OpenTOID/su.zip"]);
        assert_eq!(result.missing, ["OpenRoads/gb.zip"]);
        assert_eq!(result.not_listed, ["other.zip"]);
    }

    #[test]
    fn two_files_of_one_name_are_checked_under_the_names_they_were_saved_as() {
        use crate::bulk::export::BulkDownload;
        use download_api::ProductDownload;

        let listing: Vec<ProductDownload> = serde_json::from_str(
            r#"[{"url":"https://x/a","fileName":"same.zip","size":3,"area":"SU","format":"GML",
                 "md5":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
                {"url":"https://x/b","fileName":"same.zip","size":3,"area":"SV","format":"GML",
                 "md5":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}]"#,
        )
        .unwrap();
        let files: Vec<BulkDownload> = listing.iter().map(BulkDownload::from).collect();
        let listed = ListedFile::all_of(&files);
        let picked = [
            found("same (SU).zip", 3, &"a".repeat(32)),
            found("same (SV).zip", 3, &"b".repeat(32)),
        ];
        let result = Verification::of(&listed, &picked);
        assert!(result.all_match(), "{result:?}");
        assert_eq!(result.matches, ["same (SU).zip", "same (SV).zip"]);
        // Swapped, each is told apart from the other.
        let swapped = [
            found("same (SU).zip", 3, &"b".repeat(32)),
            found("same (SV).zip", 3, &"a".repeat(32)),
        ];
        assert_eq!(Verification::of(&listed, &swapped).differs.len(), 2);
    }
}
