//! Data package versions side by side: ordering, navigation links and what changed
//! between two versions.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use download_api::{DataPackageVersionSummary, Download, decode_component};

use crate::format_size;
use crate::text::{group_digits, t};

/// Orders versions newest first: by creation date, then by id (numerically when both
/// ids are numbers, so `"110020"` comes before `"99999"`).
pub fn sort_newest_first(versions: &mut [DataPackageVersionSummary]) {
    versions.sort_by(|a, b| {
        b.created_on
            .cmp(&a.created_on)
            .then_with(|| compare_ids(&b.id, &a.id))
    });
}

/// True when version `a` is older than version `b` (the order of [`sort_newest_first`]).
pub fn is_older(a: &DataPackageVersionSummary, b: &DataPackageVersionSummary) -> bool {
    a.created_on
        .cmp(&b.created_on)
        .then_with(|| compare_ids(&a.id, &b.id))
        .is_lt()
}

/// Compares two version ids: numerically when both are numbers, else as text.
fn compare_ids(a: &str, b: &str) -> Ordering {
    match (a.parse::<u128>(), b.parse::<u128>()) {
        (Ok(a), Ok(b)) => a.cmp(&b),
        _ => a.cmp(b),
    }
}

/// The version id a service link points at: the last path segment of a
/// `nextVersionUrl` / `previousVersionUrl`, decoded; `None` when the link has none.
///
/// `https://x/downloads/v1/dataPackages/0040046952/versions/110013?a=b` gives `110013`.
pub fn version_id_from_url(url: &str) -> Option<String> {
    let url = url.split(['?', '#']).next().unwrap_or_default();
    // Skip `scheme://authority`: a bare origin has no path segment to take.
    let path = match url.split_once("://") {
        Some((_, rest)) => &rest[rest.find('/')?..],
        None => url,
    };
    let segment = path.trim_end_matches('/').rsplit('/').next()?;
    let decoded = decode_component("version", segment).ok()?;
    (!decoded.is_empty()).then_some(decoded)
}

/// `FULL` and `COU` as people read them, keeping the service's code.
pub fn supply_type_label(code: &str) -> String {
    match code {
        "FULL" => t::packages::supply_full().into(),
        "COU" => t::packages::supply_cou().into(),
        other => other.into(),
    }
}

/// The latest version's date: the newest `createdOn` of `versions`.
pub fn latest_created_on(versions: &[DataPackageVersionSummary]) -> Option<&str> {
    versions.iter().map(|v| v.created_on.as_str()).max()
}

/// A file's name with its size when known: `a.zip (1.50 kB)`.
pub fn name_and_size(file: &Download) -> String {
    match file.size {
        Some(size) => format!("{} ({})", file.file_name, format_size(size)),
        None => file.file_name.clone(),
    }
}

/// A file present in both versions whose content differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile<'a> {
    /// The file in the version compared against.
    pub before: &'a Download,
    /// The file in the version being looked at.
    pub after: &'a Download,
}

impl ChangedFile<'_> {
    /// Both checksums are known and differ.
    pub fn md5_changed(&self) -> bool {
        matches!((&self.before.md5, &self.after.md5), (Some(a), Some(b)) if !a.eq_ignore_ascii_case(b))
    }

    /// Both sizes are known and differ.
    pub fn size_changed(&self) -> bool {
        matches!((self.before.size, self.after.size), (Some(a), Some(b)) if a != b)
    }

    /// The file and what changed: `a.zip (md5, size 1.00 kB → 2.00 kB)`.
    pub fn describe(&self) -> String {
        let mut what = Vec::new();
        if self.md5_changed() {
            what.push("md5".to_owned());
        }
        if let (Some(before), Some(after)) = (self.before.size, self.after.size)
            && before != after
        {
            what.push(t::packages::size_changed(
                format_size(after),
                format_size(before),
            ));
        }
        format!("{} ({})", self.after.file_name, what.join(", "))
    }
}

/// What changed from one version's files to another's, matched by file name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison<'a> {
    /// In the newer list only, by file name.
    pub added: Vec<&'a Download>,
    /// In the older list only, by file name.
    pub removed: Vec<&'a Download>,
    /// In both, with a different md5 or size, by file name.
    pub changed: Vec<ChangedFile<'a>>,
    /// In both with the same md5 and size (as far as the service tells).
    pub unchanged: usize,
}

impl Comparison<'_> {
    /// True when both versions hold the same files.
    pub fn is_identical(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }

    /// How many files fall in each group: `1 added, 0 removed, 2 changed, 5 unchanged`.
    pub fn counts(&self) -> String {
        t::packages::compare_counts(
            group_digits(self.added.len() as u64),
            group_digits(self.changed.len() as u64),
            group_digits(self.removed.len() as u64),
            group_digits(self.unchanged as u64),
        )
    }
}

impl<'a> Comparison<'a> {
    /// Compares the files of `before` with those of `after`.
    ///
    /// Files are matched by name. A matched file counts as changed when its md5 differs or
    /// its size differs (a value missing on either side is not evidence of a change).
    pub fn between(before: &'a [Download], after: &'a [Download]) -> Self {
        let by_name = |files: &'a [Download]| -> BTreeMap<&'a str, &'a Download> {
            files.iter().map(|d| (d.file_name.as_str(), d)).collect()
        };
        let (old, new) = (by_name(before), by_name(after));
        let mut comparison = Comparison::default();
        for (name, file) in &new {
            match old.get(name) {
                None => comparison.added.push(file),
                Some(previous) => {
                    let pair = ChangedFile {
                        before: previous,
                        after: file,
                    };
                    if pair.md5_changed() || pair.size_changed() {
                        comparison.changed.push(pair);
                    } else {
                        comparison.unchanged += 1;
                    }
                }
            }
        }
        comparison.removed = old
            .iter()
            .filter(|(name, _)| !new.contains_key(*name))
            .map(|(_, file)| *file)
            .collect();
        comparison
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, size: Option<u64>, md5: Option<&str>) -> Download {
        Download {
            url: format!("https://x/{name}"),
            file_name: name.into(),
            size,
            md5: md5.map(Into::into),
            flaws: Vec::new(),
        }
    }

    fn summary(id: &str, created_on: &str) -> DataPackageVersionSummary {
        DataPackageVersionSummary {
            id: id.into(),
            url: format!("u/{id}"),
            created_on: created_on.into(),
            reason: "UPDATE".into(),
            supply_type: "FULL".into(),
            product_version: "v".into(),
            product_format: "CSV".into(),
            format: None,
            data_package_url: None,
        }
    }

    #[test]
    fn versions_sort_newest_first_by_date_then_numeric_id() {
        let mut versions = vec![
            summary("99999", "2021-01-20"),
            summary("110020", "2021-01-20"),
            summary("110030", "2022-03-01"),
            summary("100000", "2020-12-31"),
        ];
        sort_newest_first(&mut versions);
        let ids: Vec<_> = versions.iter().map(|v| v.id.as_str()).collect();
        assert_eq!(ids, ["110030", "110020", "99999", "100000"]);
        assert!(is_older(&versions[1], &versions[0]));
        assert!(is_older(&versions[2], &versions[1]));
        assert!(!is_older(&versions[0], &versions[0]));
    }

    #[test]
    fn version_id_is_the_links_last_path_segment() {
        assert_eq!(
            version_id_from_url(
                "http://127.0.0.1:8080/downloads/v1/dataPackages/0040046952/versions/110013"
            )
            .as_deref(),
            Some("110013")
        );
        assert_eq!(
            version_id_from_url("https://x/dataPackages/p/versions/v%201/?fields=all#top")
                .as_deref(),
            Some("v 1")
        );
        assert_eq!(version_id_from_url("https://x/"), None);
        assert_eq!(version_id_from_url(""), None);
    }

    #[test]
    fn comparison_finds_added_removed_changed_and_unchanged() {
        let before = [
            file("same.zip", Some(10), Some("aa")),
            file("gone.zip", Some(5), Some("bb")),
            file("new_md5.zip", Some(7), Some("cc")),
            file("new_size.zip", Some(7), None),
        ];
        let after = [
            file("new_size.zip", Some(8), None),
            file("same.zip", Some(10), Some("AA")),
            file("new_md5.zip", Some(7), Some("dd")),
            file("fresh.zip", Some(1), Some("ee")),
        ];
        let result = Comparison::between(&before, &after);
        let names = |files: &[&Download]| -> Vec<String> {
            files.iter().map(|d| d.file_name.clone()).collect()
        };
        assert_eq!(names(&result.added), ["fresh.zip"]);
        assert_eq!(names(&result.removed), ["gone.zip"]);
        let changed: Vec<_> = result
            .changed
            .iter()
            .map(|c| {
                (
                    c.after.file_name.as_str(),
                    c.md5_changed(),
                    c.size_changed(),
                )
            })
            .collect();
        assert_eq!(
            changed,
            [("new_md5.zip", true, false), ("new_size.zip", false, true)]
        );
        assert_eq!(result.unchanged, 1);
        assert!(!result.is_identical());
        assert_eq!(
            result.counts(),
            "1 added, 1 removed, 2 changed, 1 unchanged"
        );
        let described: Vec<_> = result.changed.iter().map(ChangedFile::describe).collect();
        assert_eq!(
            described,
            ["new_md5.zip (md5)", "new_size.zip (size 7 B → 8 B)"]
        );
    }

    #[test]
    fn labels_for_supply_types_dates_and_files() {
        assert_eq!(supply_type_label("COU"), "Change-only update (COU)");
        assert_eq!(supply_type_label("FULL"), "Full supply (FULL)");
        assert_eq!(supply_type_label("PARTIAL"), "PARTIAL");
        let versions = [summary("1", "2021-01-20"), summary("2", "2022-02-02")];
        assert_eq!(latest_created_on(&versions), Some("2022-02-02"));
        assert_eq!(latest_created_on(&[]), None);
        assert_eq!(
            name_and_size(&file("a.zip", Some(1500), None)),
            "a.zip (1.50 kB)"
        );
        assert_eq!(name_and_size(&file("b.zip", None, None)), "b.zip");
    }

    #[test]
    fn package_counts_in_english_and_welsh() {
        let counts = [0, 1, 2, 3, 6, 20, 1_000_000];
        let english = counts.map(t::packages::count);
        assert_eq!(
            english,
            [
                "0 data packages",
                "1 data package",
                "2 data packages",
                "3 data packages",
                "6 data packages",
                "20 data packages",
                "1,000,000 data packages",
            ]
        );
        let before = [
            file("a.zip", Some(7), Some("aa")),
            file("b.zip", Some(1), None),
        ];
        let after = [
            file("a.zip", Some(8), Some("bb")),
            file("c.zip", Some(1), None),
        ];
        let result = Comparison::between(&before, &after);
        let (welsh, compared, described, supply) = crate::text::in_welsh(|| {
            (
                counts.map(t::packages::count),
                result.counts(),
                result.changed[0].describe(),
                [supply_type_label("FULL"), supply_type_label("COU")],
            )
        });
        assert_eq!(
            welsh,
            [
                "Dim pecynnau data",
                "1 pecyn data",
                "2 becyn data",
                "3 phecyn data",
                "6 phecyn data",
                "20 pecyn data",
                "1,000,000 pecyn data",
            ]
        );
        assert_eq!(
            compared,
            "ychwanegwyd 1, dilëwyd 1, newidiwyd 1, 0 heb newid"
        );
        assert_eq!(described, "a.zip (md5, maint 7 B → 8 B)");
        assert_eq!(
            supply,
            [
                "Cyflenwad llawn (FULL)",
                "Diweddariad newidiadau yn unig (COU)"
            ]
        );
    }

    #[test]
    fn missing_checksums_or_sizes_are_not_a_change() {
        let before = [
            file("a.zip", None, Some("aa")),
            file("b.zip", Some(3), None),
        ];
        let after = [
            file("a.zip", Some(4), Some("aa")),
            file("b.zip", Some(3), Some("bb")),
        ];
        let result = Comparison::between(&before, &after);
        assert!(result.is_identical());
        assert_eq!(result.unchanged, 2);
    }

    #[test]
    fn a_version_compared_with_itself_is_identical() {
        let files = [file("a.zip", Some(1), Some("aa"))];
        let result = Comparison::between(&files, &files);
        assert!(result.is_identical());
        assert_eq!(result.unchanged, 1);
    }
}
