//! `download-report.json`: what a bulk download says of each of its files, written
//! into the folder beside them ([`Queue::report`]) or as the last entry of each zip,
//! for the files of that part (`bulk::zip::report`). Both write the same
//! schema, so a script reads either the same way.
//!
//! The report is a JSON array, one object per file, in the listing's order:
//!
//! | field | what it holds |
//! |---|---|
//! | `name` | where the file is saved: its path in the folder (`OpenTOID/su.zip`), or its entry's name in the zip |
//! | `listed_name` | only when `name` is not the name the service listed: that name (two files listed under one name are saved as `a (SU).zip` and `a (SZ).zip`; a control character or a `/` is replaced) |
//! | `size` | its listed size in bytes, or `null` when none is listed |
//! | `listed_md5` | the md5 the service listed, lower-case hex, or `null` |
//! | `received_md5` | the md5 of the last whole copy received, or `null` when none was (skipped, failed, cancelled, unfinished) |
//! | `status` | how it ended, one of the [`Status`] labels below |
//! | `reason` | why it failed, in the person's language; only with `"failed"` |
//!
//! The statuses:
//! - `downloaded`: received whole; its md5 matches `listed_md5`, or none is listed.
//! - `md5_differs`: received whole, but `received_md5` differs from `listed_md5`
//!   (the copy is kept: into a folder after a second whole try, in a zip at once).
//! - `skipped`: already in the folder with the listed size and md5 (a folder only).
//! - `failed`: given up; `reason` says why.
//! - `cancelled`: cancelled by the person before it was done.
//! - `unfinished`: the run stopped before it was done (a folder only).
//!
//! A zip holds only files received whole, so its statuses are `downloaded` and
//! `md5_differs`; its report is padded with spaces (JSON whitespace) to the length
//! `bulk::zip::part_length` counted, as the zip's length is announced before
//! it is written. The report holds no address, so no signed link or credential.

use serde::Serialize;

use crate::bulk::file::{FileId, ListedFile};
use crate::bulk::queue::{FileState, Outcome, Queue};

/// The name of the report a bulk download writes into its folder or zip (never "not
/// listed").
pub const REPORT_NAME: &str = "download-report.json";

/// How a file ended, as the report says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status<'a> {
    /// Received whole, its md5 as listed (or none listed).
    Downloaded,
    /// Received whole, its md5 not the listed one.
    Md5Differs,
    /// Already in the folder.
    Skipped,
    /// Given up, for this reason.
    Failed(&'a str),
    /// Cancelled by the person.
    Cancelled,
    /// Not done when the run stopped.
    Unfinished,
}

impl Status<'_> {
    /// What the report's `status` field says.
    pub fn label(self) -> &'static str {
        match self {
            Status::Downloaded => "downloaded",
            Status::Md5Differs => "md5_differs",
            Status::Skipped => "skipped",
            Status::Failed(_) => "failed",
            Status::Cancelled => "cancelled",
            Status::Unfinished => "unfinished",
        }
    }
}

/// One file's line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<'a> {
    /// Where it is saved (in a zip, its entry's name as the zip writer made it).
    pub name: String,
    pub listed: &'a ListedFile,
    /// The md5 of the last whole copy received, if any.
    pub received_md5: Option<&'a str>,
    pub status: Status<'a>,
}

/// The report of `lines`, as pretty JSON.
pub fn to_json(lines: &[Line]) -> String {
    /// A line as the schema of the module doc spells it.
    #[derive(Serialize)]
    struct Json<'a> {
        name: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        listed_name: Option<&'a str>,
        size: Option<u64>,
        listed_md5: Option<&'a str>,
        received_md5: Option<&'a str>,
        status: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<&'a str>,
    }
    let lines: Vec<Json> = lines
        .iter()
        .map(|line| Json {
            name: &line.name,
            listed_name: line.listed.listed_name.as_deref(),
            size: line.listed.size,
            listed_md5: line.listed.md5.as_deref(),
            received_md5: line.received_md5,
            status: line.status.label(),
            reason: match line.status {
                Status::Failed(reason) => Some(reason),
                _ => None,
            },
        })
        .collect();
    serde_json::to_string_pretty(&lines).unwrap_or_default()
}

impl Queue {
    /// `download-report.json` of a run into a folder: every file of the queue.
    pub fn report(&self) -> String {
        let lines: Vec<Line> = (0..self.len()).map(|file| self.report_line(file)).collect();
        to_json(&lines)
    }

    fn report_line(&self, file: FileId) -> Line<'_> {
        let listed = self.file(file);
        let status = match self.state(file) {
            FileState::Done(Outcome::Downloaded) => Status::Downloaded,
            FileState::Done(Outcome::Skipped) => Status::Skipped,
            FileState::Done(Outcome::Failed(_)) if self.md5_differs(file) => Status::Md5Differs,
            FileState::Done(Outcome::Failed(reason)) => Status::Failed(reason),
            FileState::Done(Outcome::Cancelled) => Status::Cancelled,
            _ => Status::Unfinished,
        };
        Line {
            name: listed.name.clone(),
            listed,
            received_md5: self.received_md5(file),
            status,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use download_api::Download;
    use serde_json::{Value, json};

    use super::*;
    use crate::bulk::answer::Failure;
    use crate::bulk::export::BulkDownload;
    use crate::bulk::queue::Event;
    use crate::bulk::queue::tests::{
        absent, failed, finished, listed, probed, three, three_probed,
    };

    fn parsed(report: &str) -> Value {
        serde_json::from_str(report).unwrap()
    }

    /// Each line's `status`, in order.
    pub(crate) fn statuses(report: &Value) -> Vec<&str> {
        let lines = report.as_array().unwrap();
        lines
            .iter()
            .map(|line| line["status"].as_str().unwrap())
            .collect()
    }

    #[test]
    fn the_report_names_each_file_without_addresses() {
        let mut q = Queue::new(
            ListedFile::all_of(&[BulkDownload::from(Download {
                url: "https://x/f?signature=s3cret".into(),
                file_name: "../a.zip".into(),
                size: Some(10),
                md5: Some("AA".into()),
                flaws: Vec::new(),
            })]),
            3,
        );
        q.start();
        q.handle(Event::Existing {
            file: 0,
            size: 10,
            md5: Some("aa".into()),
        });
        assert_eq!(
            parsed(&q.report()),
            json!([{
                "name": "download-1.._a.zip",
                "listed_name": "../a.zip",
                "size": 10,
                "listed_md5": "aa",
                "received_md5": null,
                "status": "skipped"
            }])
        );
        assert!(!q.report().contains("s3cret"));
    }

    #[test]
    fn a_folder_report_says_how_each_file_ended_and_why_one_failed() {
        let mut q = three_probed();
        q.handle(Event::Chunk { file: 0, bytes: 10 });
        q.handle(finished(0, "aa"));
        q.handle(absent(1));
        q.handle(Event::Failed {
            file: 1,
            failure: Failure::Status {
                status: 404,
                retry_after: None,
            },
        });
        q.cancel();
        q.handle(Event::Interrupted { file: 2 });
        assert!(q.is_finished());
        assert_eq!(
            parsed(&q.report()),
            json!([
                {"name": "a.zip", "size": 10, "listed_md5": "aa", "received_md5": "aa",
                 "status": "downloaded"},
                {"name": "b.zip", "size": 20, "listed_md5": "bb", "received_md5": null,
                 "status": "failed", "reason": "the service answered 404 (tried once)"},
                {"name": "c.zip", "size": 30, "listed_md5": "cc", "received_md5": null,
                 "status": "cancelled"},
            ])
        );
    }

    #[test]
    fn a_copy_whose_md5_differs_twice_is_reported_with_both_md5s() {
        let mut q = Queue::new(vec![listed("a.zip", 10, "aa")], 1);
        probed(&mut q);
        let bad = || finished(0, "ff");
        q.handle(bad());
        q.handle(Event::RetryDue { file: 0 });
        q.handle(absent(0));
        q.handle(Event::Started { file: 0, from: 0 });
        q.handle(bad());
        assert_eq!(
            parsed(&q.report())[0],
            json!({"name": "a.zip", "size": 10, "listed_md5": "aa", "received_md5": "ff",
                   "status": "md5_differs"})
        );
    }

    #[test]
    fn a_run_stopped_before_it_began_reports_every_file_unfinished() {
        let mut q = three();
        q.start();
        q.handle(absent(0));
        q.handle(failed(0, Failure::Unreachable));
        assert!(q.is_finished());
        let report = parsed(&q.report());
        assert_eq!(statuses(&report), ["unfinished"; 3]);
    }
}
