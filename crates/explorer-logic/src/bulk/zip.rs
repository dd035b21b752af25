//! A selection saved as zip archives the browser downloads: which files go in which
//! part, each part's exact length (announced up front, so the browser's download shows
//! real progress), and the two entries each part ends with, `checksums.md5` and
//! `download-report.json` (its schema is [`crate::bulk::report`]'s, shared with the
//! folder's).
//!
//! The archives are written by `rawzip`: stored entries (the files are zips already)
//! with data descriptors, so nothing is held back, and ZIP64 where a size or an offset
//! passes 4 GiB. [`part_length`] follows its layout; the tests write real archives with
//! it and hold the two together.

use std::io::Write;
use std::ops::Range;

use rawzip::path::ZipFilePath;
use rawzip::{ZipArchiveWriter, ZipDataWriterConfig, ZipEntryWriter};
use serde::{Deserialize, Serialize};

use crate::bulk::file::ListedFile;
use crate::bulk::naming::md5_line;
use crate::bulk::report::{self, Line, REPORT_NAME, Status};
use crate::text::t;

/// The entry listing every file's md5, in `md5sum -c` form.
pub const CHECKSUMS_NAME: &str = "checksums.md5";
/// How large a part grows (its files' bytes) before the next one starts, unless the
/// person says otherwise: a part that fails is fetched again alone.
pub const DEFAULT_PART_SIZE: u64 = 4_000_000_000;

/// Sizes at or past this need ZIP64 fields.
const ZIP64_THRESHOLD: u64 = u32::MAX as u64;
/// From this many entries on the archive needs ZIP64 records.
const ZIP64_ENTRIES: usize = u16::MAX as usize;

/// The name `name` has in the archive, as the zip writer normalises it (no leading
/// `/` or `../`).
pub fn entry_name(name: &str) -> String {
    ZipFilePath::from_str(name).as_str().to_owned()
}

/// Starts the entry `name` (stored, no timestamp or permissions: what
/// [`part_length`] counts). The app and the tests write entries only through this.
pub fn start_entry<'a, W: Write>(
    archive: &'a mut ZipArchiveWriter<W>,
    name: &str,
) -> Result<(ZipEntryWriter<'a, W>, ZipDataWriterConfig), rawzip::Error> {
    archive.new_file(ZipFilePath::from_str(name)).start()
}

/// One zip of a selection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// Its files, by place in the listing.
    pub files: Range<usize>,
    /// Its exact length in bytes; `None` when a file's size is not listed.
    pub length: Option<u64>,
}

/// The selection `files` cut into parts of at most `part_size` bytes of files each, in
/// order (a file larger than that is a part alone).
pub fn plan(files: &[ListedFile], part_size: u64) -> Vec<Part> {
    let mut parts = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (index, file) in files.iter().enumerate() {
        let size = file.size.unwrap_or(0);
        if index > start && bytes.saturating_add(size) > part_size {
            parts.push(start..index);
            (start, bytes) = (index, 0);
        }
        bytes = bytes.saturating_add(size);
    }
    if start < files.len() {
        parts.push(start..files.len());
    }
    parts
        .into_iter()
        .map(|range| Part {
            length: part_length(&files[range.clone()]),
            files: range,
        })
        .collect()
}

/// What the zip of part `index` (from 0) of `count` is called: `stem.zip`, or
/// `stem-part2-of-3.zip`.
pub fn part_file_name(stem: &str, index: usize, count: usize) -> String {
    // A title's stem may end with a separator (`…-all-formats-`).
    let stem = match stem.trim_end_matches(['-', '.', ' ']) {
        "" => "download",
        stem => stem,
    };
    if count <= 1 {
        format!("{stem}.zip")
    } else {
        format!("{stem}-part{}-of-{count}.zip", index + 1)
    }
}

/// The exact length of the zip of `files` and its two closing entries, when every
/// file's size is listed.
pub fn part_length(files: &[ListedFile]) -> Option<u64> {
    let mut entries = Vec::with_capacity(files.len() + 2);
    for file in files {
        entries.push((entry_name(&file.name).len() as u64, file.size?));
    }
    entries.push((CHECKSUMS_NAME.len() as u64, checksums_length(files)));
    entries.push((REPORT_NAME.len() as u64, report_length(files)));
    Some(archive_length(&entries))
}

/// The length of an archive of stored entries `(name length, size)` as rawzip writes
/// them with data descriptors.
fn archive_length(entries: &[(u64, u64)]) -> u64 {
    let (mut offset, mut central, mut any_zip64) = (0u64, 0u64, false);
    for &(name, size) in entries {
        let header_offset = offset;
        let large = size >= ZIP64_THRESHOLD;
        // Local header, name, data, data descriptor (64-bit sizes when large).
        offset += 30 + name + size + if large { 24 } else { 16 };
        let far = header_offset >= ZIP64_THRESHOLD;
        // The ZIP64 extra field: both sizes when large, the offset when far.
        let extra = if large || far {
            any_zip64 = true;
            4 + if large { 16 } else { 0 } + if far { 8 } else { 0 }
        } else {
            0
        };
        central += 46 + name + extra;
    }
    let zip64 = any_zip64
        || entries.len() >= ZIP64_ENTRIES
        || central >= ZIP64_THRESHOLD
        || offset >= ZIP64_THRESHOLD;
    // The ZIP64 end record and its locator, then the end record.
    offset + central + if zip64 { 56 + 20 } else { 0 } + 22
}

/// A file as it went into the zip: its listing and the md5 of the bytes written.
#[derive(Debug, Clone, Copy)]
pub struct Written<'a> {
    pub listed: &'a ListedFile,
    /// The md5 of the bytes received, lower-case hex.
    pub md5: &'a str,
}

impl<'a> Written<'a> {
    /// Its line in the part's report: a file in a zip was received whole.
    fn report_line(&self) -> Line<'a> {
        let status = if self.listed.md5_matches(self.md5) {
            Status::Downloaded
        } else {
            Status::Md5Differs
        };
        Line {
            name: entry_name(&self.listed.name),
            listed: self.listed,
            received_md5: Some(self.md5),
            status,
        }
    }
}

/// `checksums.md5`: a line `md5  name` per file, as `md5sum -c` reads it. The md5 is
/// the listed one (so `md5sum -c` flags a file that differs from the listing), or the
/// received one for a file listed without.
pub fn checksums(files: &[Written]) -> String {
    files
        .iter()
        .map(|file| {
            let md5 = file.listed.md5.as_deref().unwrap_or(file.md5);
            md5_line(md5, &entry_name(&file.listed.name))
        })
        .collect()
}

/// The length of [`checksums`]: a received md5 is 32 hex digits, a listed one is as
/// the service wrote it.
fn checksums_length(files: &[ListedFile]) -> u64 {
    files
        .iter()
        .map(|file| {
            let md5 = file
                .md5
                .as_deref()
                .unwrap_or("00000000000000000000000000000000");
            md5_line(md5, &entry_name(&file.name)).len() as u64
        })
        .sum()
}

/// What a file in a zip can end as (it is there only once received whole).
const ZIP_STATUSES: [Status; 2] = [Status::Downloaded, Status::Md5Differs];

/// `download-report.json` of a part: [`report::to_json`] of its files, padded with
/// spaces to the length [`part_length`] counted, whatever the statuses.
pub fn report(files: &[Written]) -> String {
    let lines: Vec<Line> = files.iter().map(Written::report_line).collect();
    let text = report::to_json(&lines);
    let length = report_length_of(files.iter().map(|file| file.listed));
    let padding = (length as usize).saturating_sub(text.len() + 1);
    text + &" ".repeat(padding) + "\n"
}

/// The length of [`report`] for `files`: the report with every status as long as the
/// longest a zip writes, and a newline.
fn report_length(files: &[ListedFile]) -> u64 {
    report_length_of(files.iter())
}

fn report_length_of<'a>(files: impl Iterator<Item = &'a ListedFile>) -> u64 {
    let longest = ZIP_STATUSES
        .into_iter()
        .max_by_key(|status| status.label().len())
        .unwrap_or(Status::Downloaded);
    let lines: Vec<Line> = files
        .map(|listed| Line {
            name: entry_name(&listed.name),
            listed,
            received_md5: Some("00000000000000000000000000000000"),
            status: longest,
        })
        .collect();
    report::to_json(&lines).len() as u64 + 1
}

/// Where one part is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartState {
    Waiting,
    /// Its turn has come; the browser saves it once the person asks (browsers refuse a
    /// page's second download unless the person clicked for it).
    Ready,
    Saving,
    Saved,
    Failed(String),
}

/// What a part's line offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartButton {
    None,
    Save,
    Retry,
}

/// The parts of a zip run and where each is: saved one at a time, in order.
#[derive(Debug, Clone)]
pub struct Parts {
    parts: Vec<Part>,
    states: Vec<PartState>,
}

impl Parts {
    pub fn new(parts: Vec<Part>) -> Parts {
        let states = vec![PartState::Waiting; parts.len()];
        Parts { parts, states }
    }

    pub fn part(&self, part: usize) -> &Part {
        &self.parts[part]
    }

    pub fn len(&self) -> usize {
        self.parts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The part to save now, once the one being saved is over: the next waiting one
    /// when the browser has `opened` its download already; otherwise that part is
    /// ready, for the person to ask for.
    pub fn next(&mut self, opened: bool) -> Option<usize> {
        if self.states.contains(&PartState::Saving) {
            return None;
        }
        let next = self.states.iter().position(|s| *s == PartState::Waiting)?;
        if opened {
            Some(next)
        } else {
            self.states[next] = PartState::Ready;
            None
        }
    }

    /// `part` starts saving; false when another is being saved.
    pub fn start_saving(&mut self, part: usize) -> bool {
        if self.states.contains(&PartState::Saving) {
            return false;
        }
        self.states[part] = PartState::Saving;
        true
    }

    pub fn saved(&mut self, part: usize) {
        self.states[part] = PartState::Saved;
    }

    pub fn failed(&mut self, part: usize, why: String) {
        self.states[part] = PartState::Failed(why);
    }

    /// The run stopped: the parts not begun are not begun at all.
    pub fn give_up_waiting(&mut self, why: &str) {
        for state in &mut self.states {
            if matches!(state, PartState::Waiting | PartState::Ready) {
                *state = PartState::Failed(why.to_owned());
            }
        }
    }

    /// `part` is to be fetched and saved again.
    pub fn retry(&mut self, part: usize) {
        self.states[part] = PartState::Waiting;
    }

    /// Every part is saved or given up.
    pub fn are_over(&self) -> bool {
        self.states
            .iter()
            .all(|state| matches!(state, PartState::Saved | PartState::Failed(_)))
    }

    /// Whether the browser saved any part (and so a report).
    pub fn any_saved(&self) -> bool {
        self.states.contains(&PartState::Saved)
    }

    /// Each part's line, `x-part2-of-3.zip: saved`, and what it offers.
    pub fn lines(&self, stem: &str) -> Vec<(usize, String, PartButton)> {
        let count = self.parts.len();
        self.states
            .iter()
            .enumerate()
            .map(|(part, state)| {
                let name = part_file_name(stem, part, count);
                let (what, button) = match state {
                    PartState::Waiting => (t::bulk::waiting().to_owned(), PartButton::None),
                    PartState::Ready => (t::bulk::part_ready().to_owned(), PartButton::Save),
                    PartState::Saving => (t::bulk::part_saving().to_owned(), PartButton::None),
                    PartState::Saved => (t::bulk::part_saved().to_owned(), PartButton::None),
                    PartState::Failed(why) => (t::bulk::part_not_saved(why), PartButton::Retry),
                };
                (part, t::bulk::named(name, what), button)
            })
            .collect()
    }
}

/// A part size typed in megabytes (decimals allowed), in bytes; the default for
/// anything that is not a positive number.
pub fn part_size_bytes(typed: &str) -> u64 {
    typed
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|mb| *mb > 0.0)
        .map_or(DEFAULT_PART_SIZE, |mb| (mb * 1e6) as u64)
}

#[cfg(test)]
mod tests {
    use std::io;

    use rawzip::{Crc32Option, ZipArchive};

    use std::collections::BTreeSet;

    use serde_json::Value;

    use super::*;
    use crate::bulk::export::BulkDownload;
    use crate::bulk::queue::Queue;
    use crate::bulk::queue::tests::{finished, listed, probed};
    use crate::bulk::report::tests::statuses;
    use download_api::Download;

    fn parsed(report: &str) -> Value {
        serde_json::from_str(report).unwrap()
    }

    /// Counts what is written and keeps it when asked (a multi-GiB archive is only
    /// counted).
    struct Sink {
        length: u64,
        kept: Option<Vec<u8>>,
    }

    impl Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.length += bytes.len() as u64;
            if let Some(kept) = &mut self.kept {
                kept.extend_from_slice(bytes);
            }
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Writes `files` (each filled with its size in zero bytes) and the two closing
    /// entries as the app does, with `md5` as every file's received md5.
    /// The entries' names of the part `files` make (each file's md5 the same), once its
    /// length is checked against the one planned.
    fn entry_names(files: &[ListedFile]) -> Vec<String> {
        let sink = write_part(files, "0123456789abcdef0123456789abcdef", true);
        assert_eq!(Some(sink.length), part_length(files));
        let bytes = sink.kept.unwrap();
        let archive = ZipArchive::from_slice(&bytes).unwrap();
        archive
            .entries()
            .map(|entry| String::from_utf8_lossy(entry.unwrap().file_path().as_ref()).into_owned())
            .collect()
    }

    fn write_part(files: &[ListedFile], md5: &str, keep: bool) -> Sink {
        let zeros = vec![0u8; 1 << 20];
        let sink = Sink {
            length: 0,
            kept: keep.then(Vec::new),
        };
        let mut archive = ZipArchiveWriter::new(sink);
        let written: Vec<Written> = files.iter().map(|listed| Written { listed, md5 }).collect();
        let closing = [
            (CHECKSUMS_NAME, checksums(&written)),
            (REPORT_NAME, report(&written)),
        ];
        for file in files {
            let (mut entry, config) = if keep {
                start_entry(&mut archive, &file.name).unwrap()
            } else {
                // Gigabytes of zeros: the checksum is not what is measured here.
                archive
                    .new_file(ZipFilePath::from_str(&file.name))
                    .crc32(Crc32Option::Skip)
                    .start()
                    .unwrap()
            };
            let mut data = config.wrap(&mut entry);
            let mut left = file.size.unwrap();
            while left > 0 {
                let n = left.min(zeros.len() as u64) as usize;
                data.write_all(&zeros[..n]).unwrap();
                left -= n as u64;
            }
            let (_, descriptor) = data.finish().unwrap();
            entry.finish(descriptor).unwrap();
        }
        for (name, text) in closing {
            let (mut entry, config) = start_entry(&mut archive, name).unwrap();
            let mut data = config.wrap(&mut entry);
            data.write_all(text.as_bytes()).unwrap();
            let (_, descriptor) = data.finish().unwrap();
            entry.finish(descriptor).unwrap();
        }
        archive.finish().unwrap()
    }

    #[test]
    fn a_part_is_exactly_as_long_as_planned_and_reads_back() {
        let files = [
            ListedFile::sized("opmplc_gpkg_su.zip", 2_775, Some("AA11")),
            ListedFile::sized("../tricky ® name.zip", 0, None),
            ListedFile::sized("download-2.._b.zip", 70_000, Some("bb")),
        ];
        assert_eq!(
            entry_names(&files),
            [
                "opmplc_gpkg_su.zip",
                "tricky ® name.zip",
                "download-2.._b.zip",
                CHECKSUMS_NAME,
                REPORT_NAME
            ]
        );
    }

    #[test]
    fn checksums_read_as_md5sum_does_and_the_report_names_each_status() {
        let files = [
            ListedFile::new(
                0,
                "a.zip",
                Some(1),
                Some("AA000000000000000000000000000000"),
            ),
            ListedFile::sized("b.zip", 1, Some("bb000000000000000000000000000000")),
            ListedFile::sized("c.zip", 1, None),
        ];
        let received = "aa000000000000000000000000000000";
        let written = [
            Written {
                listed: &files[0],
                md5: received,
            },
            Written {
                listed: &files[1],
                md5: received,
            },
            Written {
                listed: &files[2],
                md5: received,
            },
        ];
        assert_eq!(
            checksums(&written),
            "aa000000000000000000000000000000  a.zip\n\
             bb000000000000000000000000000000  b.zip\n\
             aa000000000000000000000000000000  c.zip\n"
        );
        let text = report(&written);
        assert_eq!(text.len() as u64, report_length(&files));
        let report: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            statuses(&report),
            ["downloaded", "md5_differs", "downloaded"]
        );
        assert_eq!(report[1]["received_md5"], received);
        assert_eq!(report[1]["listed_md5"], "bb000000000000000000000000000000");
        assert_eq!(report[2]["listed_md5"], serde_json::Value::Null);
        assert!(!text.contains("http"), "no address in the report");
    }

    #[test]
    fn two_files_of_one_name_are_two_entries_and_the_closing_entries_say_which_is_which() {
        let file = |area: &str| BulkDownload {
            download: Download {
                url: format!("https://x/{area}"),
                file_name: "data\tname.zip".into(),
                size: Some(5),
                md5: None,
                flaws: Vec::new(),
            },
            folder: None,
            qualifiers: vec![area.to_owned()],
        };
        let files = ListedFile::all_of(&[file("SU"), file("SV")]);
        let md5 = "0123456789abcdef0123456789abcdef";
        assert_eq!(
            entry_names(&files),
            [
                "data_name (SU).zip",
                "data_name (SV).zip",
                CHECKSUMS_NAME,
                REPORT_NAME
            ]
        );
        let written: Vec<Written> = files.iter().map(|listed| Written { listed, md5 }).collect();
        let sums = checksums(&written);
        assert_eq!(sums.lines().count(), 2, "{sums}");
        assert!(sums.ends_with("  data_name (SV).zip\n"), "{sums}");
        let report = parsed(&report(&written));
        assert_eq!(report[1]["name"], "data_name (SV).zip");
        assert_eq!(report[1]["listed_name"], "data\tname.zip");
    }

    #[test]
    fn files_past_4_gib_and_entries_past_4_gib_use_zip64_and_the_length_still_holds() {
        let big = ZIP64_THRESHOLD + 5;
        let files = [
            ListedFile::sized("a.zip", 10, Some("aa")),
            ListedFile::sized("big.zip", big, Some("bb")),
            // Its header starts past 4 GiB.
            ListedFile::sized("c.zip", 10, Some("cc")),
        ];
        let sink = write_part(&files, "0123456789abcdef0123456789abcdef", false);
        assert_eq!(Some(sink.length), part_length(&files));
        assert!(sink.length > big);
    }

    #[test]
    fn a_selection_is_cut_into_parts_in_order() {
        let files = [
            ListedFile::sized("a", 3, None),
            ListedFile::sized("b", 3, None),
            ListedFile::sized("c", 3, None),
            ListedFile::sized("huge", 50, None),
            ListedFile::sized("d", 1, None),
        ];
        let parts: Vec<Range<usize>> = plan(&files, 7).into_iter().map(|p| p.files).collect();
        assert_eq!(parts, [0..2, 2..3, 3..4, 4..5]);
        let whole = plan(&files, DEFAULT_PART_SIZE);
        assert_eq!(whole.len(), 1);
        assert_eq!(whole[0].length, part_length(&files));
        assert_eq!(part_file_name("OpenMapLocal", 0, 1), "OpenMapLocal.zip");
        assert_eq!(part_file_name("all-formats-", 0, 1), "all-formats.zip");
        assert_eq!(part_file_name("", 0, 1), "download.zip");
        assert_eq!(
            part_file_name("OpenMapLocal", 1, 3),
            "OpenMapLocal-part2-of-3.zip"
        );
    }

    #[test]
    fn without_every_size_listed_there_is_no_length_to_announce() {
        let files = [
            ListedFile::sized("a", 3, None),
            ListedFile::new(1, "b", None, None),
        ];
        assert_eq!(part_length(&files), None);
        assert_eq!(
            plan(&files, 3).len(),
            1,
            "an unknown size counts as nothing"
        );
        assert_eq!(plan(&files, 3)[0].length, None);
    }

    fn three_parts() -> Parts {
        let part = |files| Part {
            files,
            length: None,
        };
        Parts::new(vec![part(0..1), part(1..2), part(2..3)])
    }

    #[test]
    fn parts_are_saved_one_at_a_time_and_later_ones_wait_for_the_person() {
        let mut parts = three_parts();
        // The first zip was opened by the person's click.
        assert_eq!(parts.next(true), Some(0));
        assert!(parts.start_saving(0));
        assert!(!parts.start_saving(1), "one at a time");
        assert_eq!(parts.next(false), None);
        assert!(!parts.any_saved());
        parts.saved(0);
        assert!(parts.any_saved());
        // The next one needs a click of its own.
        assert_eq!(parts.next(false), None);
        let buttons: Vec<PartButton> = parts.lines("x").iter().map(|l| l.2).collect();
        assert_eq!(
            buttons,
            [PartButton::None, PartButton::Save, PartButton::None]
        );
        assert!(parts.start_saving(1));
        parts.failed(1, "broken".into());
        assert!(!parts.are_over());
        parts.give_up_waiting("cancelled");
        assert!(parts.are_over());
        let lines = parts.lines("x");
        assert!(
            lines[1].1.starts_with("x-part2-of-3.zip: "),
            "{}",
            lines[1].1
        );
        assert!(lines[1].1.contains("broken"));
        assert_eq!(lines[2].2, PartButton::Retry);
        parts.retry(1);
        assert!(!parts.are_over());
        assert_eq!(parts.next(true), Some(1));
    }

    #[test]
    fn a_typed_part_size_is_in_megabytes() {
        assert_eq!(part_size_bytes("250"), 250_000_000);
        assert_eq!(part_size_bytes(" 0.5 "), 500_000);
        for not_a_size in ["", "0", "-3", "lots"] {
            assert_eq!(
                part_size_bytes(not_a_size),
                DEFAULT_PART_SIZE,
                "{not_a_size:?}"
            );
        }
    }

    #[test]
    fn a_folder_and_a_zip_write_the_same_fields_and_statuses() {
        let file = listed("a.zip", 10, "aa");
        let mut q = Queue::new(vec![file.clone()], 1);
        probed(&mut q);
        q.handle(finished(0, "aa"));
        let written = [Written {
            listed: &file,
            md5: "aa",
        }];
        let in_zip = parsed(&report(&written));
        let in_folder = parsed(&q.report());
        assert_eq!(in_zip, in_folder);
        let fields = |report: &Value| -> BTreeSet<String> {
            report[0].as_object().unwrap().keys().cloned().collect()
        };
        assert_eq!(
            fields(&in_folder),
            ["listed_md5", "name", "received_md5", "size", "status"]
                .map(String::from)
                .into()
        );
    }
}
