//! The rules of a bulk download, into a folder or into a zip: which file goes next,
//! what to do with a file already in the folder, when to resume, retry, ask for a fresh
//! link or give up, and what to report.
//!
//! The browser side only does I/O: it tells the [`Queue`] what happened ([`Event`]) and
//! carries out the [`Action`]s it gets back.

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::bulk::export::{BulkDownload, saved_path};
use crate::format_size;
use crate::service_error::ServiceError;
use crate::text::{group_digits, t};

/// The name of the report a bulk download writes into its folder (never "not listed").
pub const REPORT_NAME: &str = "download-report.json";

/// How many times a file is tried (first try included) before its failure is reported.
pub const MAX_ATTEMPTS: u32 = 5;
/// The first wait before a retry; it doubles with each failure.
const FIRST_BACKOFF: Duration = Duration::from_secs(1);
/// The longest wait of the backoff (a `Retry-After` may ask for longer).
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// A `Retry-After` is honoured up to this long; a later one reports the file instead.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(10 * 60);
/// How many times a file waits as a `Retry-After` asks before it is reported. These
/// waits are the service pacing its callers, not failures, so they have their own,
/// larger allowance: under a rate limit, parallel files take turns.
pub const MAX_PACED_WAITS: u32 = 30;

/// One file the service listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedFile {
    /// Where it is saved, relative to the chosen folder: its name, made safe, inside
    /// its sub-folder when it has one (`OpenTOID/su.zip`; see [`saved_path`]). It is
    /// also its name in a zip and in the report.
    pub name: String,
    /// Size in bytes, when listed.
    pub size: Option<u64>,
    /// MD5, lower-case hex, when listed.
    pub md5: Option<String>,
}

impl ListedFile {
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
            size,
            md5: md5.map(str::to_ascii_lowercase),
        }
    }

    /// A file of `size` bytes under exactly `name` (not made safe), for tests.
    #[cfg(test)]
    pub(crate) fn sized(name: &str, size: u64, md5: Option<&str>) -> Self {
        ListedFile {
            name: name.into(),
            size: Some(size),
            md5: md5.map(Into::into),
        }
    }

    /// The files of a listing, in order.
    pub fn all_of(files: &[BulkDownload]) -> Vec<ListedFile> {
        files
            .iter()
            .enumerate()
            .map(|(i, file)| {
                let d = &file.download;
                let folder = file.folder.as_deref();
                ListedFile::in_folder(folder, i, &d.file_name, d.size, d.md5.as_deref())
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

/// Why a request for a file did not give it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Failure {
    /// No answer at all: the network, or the service's files refusing this site (CORS).
    Unreachable,
    /// The answer broke off part-way (a dropped connection).
    Dropped,
    /// The service answered with an error status.
    Status {
        /// The HTTP status, e.g. 503.
        status: u16,
        /// How long the answer asked to wait (`Retry-After`).
        retry_after: Option<Duration>,
    },
    /// The service sent another part of the file than the one asked for.
    OtherPart,
    /// The service sent more bytes than it listed.
    TooManyBytes,
    /// Anything else (the folder refused a write), said plainly.
    Other(String),
}

impl Failure {
    /// Whether the file's address was refused (401, 403): a signed link past its
    /// expiry answers so (ours with 401 or 403, the real service's storage with 403
    /// and an XML body), as does a session that ended.
    fn is_refused(&self) -> bool {
        matches!(
            self,
            Failure::Status {
                status: 401 | 403,
                ..
            }
        )
    }

    /// Whether trying again later may work: network trouble, 408, 429 and 5xx.
    fn is_transient(&self) -> bool {
        match self {
            Failure::Unreachable | Failure::Dropped => true,
            Failure::Status { status, .. } => matches!(status, 408 | 429 | 500..=599),
            Failure::OtherPart | Failure::TooManyBytes | Failure::Other(_) => false,
        }
    }

    /// What a user reads in the summary.
    pub fn describe(&self) -> String {
        match self {
            Failure::Unreachable => t::bulk::unreachable().into(),
            Failure::Dropped => t::bulk::dropped().into(),
            Failure::Status { status: 429, .. } => t::bulk::too_many_requests().into(),
            Failure::Status {
                status: status @ (401 | 403),
                ..
            } => t::bulk::refused(status),
            Failure::Status { status, .. } => t::bulk::answered(status),
            Failure::OtherPart => t::bulk::other_part().into(),
            Failure::TooManyBytes => t::bulk::too_many_bytes().into(),
            Failure::Other(reason) => reason.clone(),
        }
    }
}

impl From<ServiceError> for Failure {
    /// A failed request for a file's address: its status, or no answer, or said plainly.
    fn from(error: ServiceError) -> Failure {
        match error {
            ServiceError::Answered { status, .. } | ServiceError::Status { status, .. } => {
                Failure::Status {
                    status,
                    retry_after: None,
                }
            }
            ServiceError::Unreachable { .. } => Failure::Unreachable,
            other => Failure::Other(other.to_string()),
        }
    }
}

/// Where to fetch a data-package file, from the service's answer to "its direct
/// address": that address, or the `listed` (signed) one when the service only
/// redirects.
pub fn fetch_address(
    answer: Result<String, ServiceError>,
    listed: &str,
) -> Result<String, Failure> {
    match answer {
        Ok(url) => Ok(url),
        Err(ServiceError::OnlyRedirects) => Ok(listed.to_owned()),
        Err(error) => Err(error.into()),
    }
}

/// The head of the service's answer to a request for a file from byte `from`.
#[derive(Debug, Clone, Copy)]
pub struct Answer<'a> {
    pub status: u16,
    pub content_range: Option<&'a str>,
    pub retry_after: Option<&'a str>,
}

impl Answer<'_> {
    /// Where the answer's bytes start in the file: 0 for a whole file (200), `from`
    /// for the part asked for (206 with a matching `Content-Range`); any other part or
    /// status is a [`Failure`]. `now` dates a `Retry-After` given as an HTTP date.
    pub fn start(&self, from: u64, now: SystemTime) -> Result<u64, Failure> {
        match self.status {
            200 => Ok(0),
            206 if self.content_range.and_then(content_range_start) == Some(from) => Ok(from),
            206 => Err(Failure::OtherPart),
            status => Err(Failure::Status {
                status,
                retry_after: self.retry_after.and_then(|value| retry_after(value, now)),
            }),
        }
    }
}

/// What the browser side saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The folder holds `size` bytes under the file's name (0 when there is no such
    /// file); `md5` of them when [`Queue::wants_md5_of_existing`] asked for it.
    Existing {
        file: FileId,
        size: u64,
        md5: Option<String>,
    },
    /// The answer arrived; its data starts at byte `from` of the file.
    Started { file: FileId, from: u64 },
    /// `bytes` more were written.
    Chunk { file: FileId, bytes: u64 },
    /// The whole file is written; `md5` of all of it.
    Finished { file: FileId, md5: String },
    /// The request failed (what was written so far is kept in the folder).
    Failed { file: FileId, failure: Failure },
    /// Pause or cancel stopped the transfer (what was written is kept).
    Interrupted { file: FileId },
    /// The wait of a [`Action::Retry`] is over.
    RetryDue { file: FileId },
    /// The fresh listing an [`Action::Refresh`] asked for is in: the file's link is new.
    Refreshed { file: FileId },
    /// The fresh listing could not be had (`failure`); a 401 means the session
    /// itself has ended, and the queue waits for [`Queue::signed_in`].
    RefreshFailed { file: FileId, failure: Failure },
}

impl Event {
    /// The file it is about.
    pub fn file(&self) -> FileId {
        match self {
            Event::Existing { file, .. }
            | Event::Started { file, .. }
            | Event::Chunk { file, .. }
            | Event::Finished { file, .. }
            | Event::Failed { file, .. }
            | Event::Interrupted { file }
            | Event::RetryDue { file }
            | Event::Refreshed { file }
            | Event::RefreshFailed { file, .. } => *file,
        }
    }
}

/// What the browser side is to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Look in the folder for the file: its size, and its md5 when wanted.
    Inspect { file: FileId },
    /// Request the file from byte `range_from` (0: all of it, else `Range: bytes=N-`),
    /// writing from there on, and hashing the bytes already in the folder first.
    Fetch { file: FileId, range_from: u64 },
    /// Wait `after`, then send [`Event::RetryDue`].
    Retry { file: FileId, after: Duration },
    /// The file's link was refused, most likely expired: list its files again with the
    /// session's credentials, then send [`Event::Refreshed`] (or
    /// [`Event::RefreshFailed`]).
    Refresh { file: FileId },
    /// The session has ended: ask the person to sign in again. The queue keeps its
    /// files and goes on at [`Queue::signed_in`].
    SignIn,
    /// The folder already holds the file.
    Skip { file: FileId },
    /// The file is done with.
    Report { file: FileId, outcome: Outcome },
    /// Stop everything: the first request could not reach the files, so nothing was
    /// started. The reason is for the user.
    Stop { reason: String },
}

/// How a file ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Downloaded (or completed) and verified.
    Downloaded,
    /// Already in the folder with the listed size and md5.
    Skipped,
    /// Given up, with the reason.
    Failed(String),
    /// Cancelled by the user before it was done.
    Cancelled,
}

impl Outcome {
    fn label(&self) -> &'static str {
        match self {
            Outcome::Downloaded => "downloaded",
            Outcome::Skipped => "skipped",
            Outcome::Failed(_) => "failed",
            Outcome::Cancelled => "cancelled",
        }
    }
}

/// Where one file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileState {
    /// Not started yet (or paused, or due for a retry).
    Waiting,
    /// Being looked for in the folder.
    Inspecting,
    /// Asked for, from byte `from`; `done` bytes of the file are in the folder.
    Fetching { done: u64 },
    /// Waiting out a retry delay.
    Backoff,
    /// Finished one way or another.
    Done(Outcome),
}

/// What a file's line in the progress list shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileProgress {
    /// How far along, in whole percent.
    pub percent: u64,
    /// Where the file is, in words: `40 kB of 100 kB`, `downloaded, MD5 checked`.
    pub text: String,
}

#[derive(Debug, Clone)]
struct Entry {
    listed: ListedFile,
    state: FileState,
    /// Failed requests so far (reset by "Retry failed").
    failures: u32,
    /// Waits a `Retry-After` asked for so far (see [`MAX_PACED_WAITS`]).
    paced_waits: u32,
    /// Whole-file checksum mismatches so far.
    mismatches: u32,
    /// The md5 of the last complete copy, when it differed from the listing.
    bad_md5: Option<String>,
    /// A fresh link was asked for since the last answer that gave the file: refused
    /// again, the refusal is not an expiry.
    refreshed: bool,
    /// Given up with its zip part, for this reason: it ends when interrupted.
    set_aside: Option<String>,
}

/// Where a bulk download writes its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each file into a folder: a complete copy already there is skipped, a file whose
    /// md5 differs is fetched whole once more.
    Folder,
    /// One after the other into a zip the browser saves: nothing is skipped, a broken
    /// file resumes into the same entry (its bytes so far are the "existing" ones), and
    /// a file whose md5 differs cannot be written again, so it is reported at once.
    Zip,
}

/// A bulk download of listed files, `parallel` at a time.
#[derive(Debug, Clone)]
pub struct Queue {
    mode: Mode,
    entries: Vec<Entry>,
    parallel: usize,
    paused: bool,
    cancelled: bool,
    /// No answer has arrived yet: the first request goes alone, so a refusal stops
    /// everything before a second file is touched.
    probing: bool,
    stopped: bool,
    /// The session ended: no file starts until the person signs in again.
    awaiting_sign_in: bool,
}

impl Queue {
    /// A queue of `files` into a folder, at most `parallel` (at least 1) at a time.
    pub fn new(files: Vec<ListedFile>, parallel: usize) -> Queue {
        Queue::with_mode(Mode::Folder, files, parallel)
    }

    /// A queue of `files` into a zip, at most `parallel` (at least 1) at a time.
    pub fn for_zip(files: Vec<ListedFile>, parallel: usize) -> Queue {
        Queue::with_mode(Mode::Zip, files, parallel)
    }

    fn with_mode(mode: Mode, files: Vec<ListedFile>, parallel: usize) -> Queue {
        Queue {
            mode,
            entries: files
                .into_iter()
                .map(|listed| Entry {
                    listed,
                    state: FileState::Waiting,
                    failures: 0,
                    paced_waits: 0,
                    mismatches: 0,
                    bad_md5: None,
                    refreshed: false,
                    set_aside: None,
                })
                .collect(),
            parallel: parallel.max(1),
            paused: false,
            cancelled: false,
            probing: true,
            stopped: false,
            awaiting_sign_in: false,
        }
    }

    /// Where this queue writes its files.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether the queue waits for the person to sign in again.
    pub fn is_awaiting_sign_in(&self) -> bool {
        self.awaiting_sign_in
    }

    /// The person signed in again: the files the ended session held up go on.
    pub fn signed_in(&mut self) -> Vec<Action> {
        self.awaiting_sign_in = false;
        self.fill()
    }

    /// The first files to look at.
    pub fn start(&mut self) -> Vec<Action> {
        self.fill()
    }

    /// The listed file `file`.
    pub fn file(&self, file: FileId) -> &ListedFile {
        &self.entries[file].listed
    }

    /// Where `file` is.
    pub fn state(&self, file: FileId) -> &FileState {
        &self.entries[file].state
    }

    /// How many files the queue holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when it holds no file.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many files may be fetched at once.
    pub fn parallel(&self) -> usize {
        self.parallel
    }

    /// Whether the user paused the queue.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Whether a file found with `size` bytes in the folder has to be hashed to decide:
    /// only a complete-looking copy is (a shorter one is resumed, and its bytes are
    /// hashed then).
    pub fn wants_md5_of_existing(&self, file: FileId, size: u64) -> bool {
        let entry = &self.entries[file];
        size > 0
            && entry.bad_md5.is_none()
            && entry.listed.md5.is_some()
            && entry.listed.size.is_none_or(|listed| listed == size)
    }

    /// Applies what the browser saw; returns what to do next.
    pub fn handle(&mut self, event: Event) -> Vec<Action> {
        let file = event.file();
        if self.entries[file].set_aside.is_some() {
            // Its zip part was given up: whatever it was doing ends here.
            return match (&event, &self.entries[file].state) {
                (Event::Chunk { .. }, _) | (_, FileState::Done(_)) => Vec::new(),
                _ => self.park(file),
            };
        }
        let mut actions = Vec::new();
        match event {
            Event::Existing { file, size, md5 } => {
                if self.cancelled || self.paused {
                    return self.park(file);
                }
                actions.push(self.decide(file, size, md5));
            }
            Event::Started { file, from } => {
                self.probing = false;
                self.entries[file].refreshed = false;
                self.entries[file].state = FileState::Fetching { done: from };
            }
            Event::Chunk { file, bytes } => {
                if let FileState::Fetching { done } = &mut self.entries[file].state {
                    *done += bytes;
                }
            }
            Event::Finished { file, md5 } => actions.push(self.finished(file, md5)),
            Event::Failed { file, failure } => actions.push(self.failed(file, failure)),
            Event::Interrupted { file } => return self.park(file),
            Event::RetryDue { file } => {
                if self.entries[file].state != FileState::Backoff {
                    return Vec::new(); // cancelled meanwhile
                }
                if self.cancelled || self.paused {
                    return self.park(file);
                }
                self.entries[file].state = FileState::Inspecting;
                actions.push(Action::Inspect { file });
            }
            Event::Refreshed { file } => return self.handle(Event::RetryDue { file }),
            Event::RefreshFailed { file, failure } => {
                if failure.is_refused() {
                    // The session itself ended: the file waits, keeping its bytes.
                    self.entries[file].refreshed = false;
                    self.entries[file].state = FileState::Waiting;
                    if !self.awaiting_sign_in {
                        self.awaiting_sign_in = true;
                        actions.push(Action::SignIn);
                    }
                } else {
                    // Ask for a fresh listing again on the next try.
                    self.entries[file].refreshed = false;
                    actions.push(self.failed(file, failure));
                }
            }
        }
        if let Some(Action::Stop { .. }) = actions.last() {
            return actions;
        }
        actions.extend(self.fill());
        actions
    }

    /// Starts no new file; the browser interrupts the running ones.
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Carries on where the pause left off.
    pub fn resume(&mut self) -> Vec<Action> {
        self.paused = false;
        self.fill()
    }

    /// Gives up every file not done yet; running ones end when they are interrupted.
    pub fn cancel(&mut self) -> Vec<Action> {
        self.cancelled = true;
        let mut actions = Vec::new();
        for file in 0..self.entries.len() {
            if matches!(
                self.entries[file].state,
                FileState::Waiting | FileState::Backoff
            ) {
                actions.extend(self.park(file));
            }
        }
        actions
    }

    /// Changes how many files go at once (at least 1).
    pub fn set_parallel(&mut self, parallel: usize) -> Vec<Action> {
        self.parallel = parallel.max(1);
        self.fill()
    }

    /// Tries the failed files again, with fresh attempts.
    pub fn retry_failed(&mut self) -> Vec<Action> {
        self.cancelled = false;
        self.stopped = false;
        for entry in &mut self.entries {
            if matches!(entry.state, FileState::Done(Outcome::Failed(_))) {
                entry.state = FileState::Waiting;
                entry.failures = 0;
                entry.mismatches = 0;
            }
        }
        self.fill()
    }

    /// True when every file is done with (or the run was stopped).
    pub fn is_finished(&self) -> bool {
        self.stopped
            || self
                .entries
                .iter()
                .all(|e| matches!(e.state, FileState::Done(_)))
    }

    /// Bytes in the folder so far and the listed total (files of unknown size count
    /// what has arrived).
    pub fn bytes(&self) -> (u64, u64) {
        self.entries.iter().fold((0, 0), |(done, total), e| {
            let got = match &e.state {
                FileState::Fetching { done } => *done,
                FileState::Done(Outcome::Downloaded | Outcome::Skipped) => {
                    e.listed.size.unwrap_or(0)
                }
                _ => 0,
            };
            (done + got, total + e.listed.size.unwrap_or(got))
        })
    }

    /// The last file, in the listing's order, being looked for or fetched: where a
    /// progress list follows the run.
    pub fn furthest_under_way(&self) -> Option<FileId> {
        self.entries
            .iter()
            .rposition(|e| matches!(e.state, FileState::Inspecting | FileState::Fetching { .. }))
    }

    /// What `file`'s line in the progress list shows.
    pub fn progress(&self, file: FileId) -> FileProgress {
        let entry = &self.entries[file];
        let size = entry.listed.size;
        let (percent, text) = match &entry.state {
            FileState::Waiting => (0, t::bulk::waiting().into()),
            FileState::Inspecting if self.mode == Mode::Zip => (0, t::bulk::starting().into()),
            FileState::Inspecting => (0, t::bulk::looking().into()),
            FileState::Fetching { done } => match size {
                Some(size) => (
                    percent(*done, size),
                    t::bulk::done_of(format_size(*done), format_size(size)),
                ),
                None => (0, format_size(*done)),
            },
            FileState::Backoff => (0, t::bulk::retrying().into()),
            FileState::Done(Outcome::Downloaded) => (100, t::bulk::downloaded().into()),
            FileState::Done(Outcome::Skipped) => (100, t::bulk::skipped().into()),
            FileState::Done(Outcome::Failed(reason)) => (0, t::bulk::failed(reason)),
            FileState::Done(Outcome::Cancelled) => (0, t::bulk::cancelled().into()),
        };
        FileProgress { percent, text }
    }

    /// How many files ended each way: downloaded, skipped, failed, cancelled.
    pub fn summary(&self) -> Summary {
        let mut summary = Summary::default();
        for entry in &self.entries {
            match &entry.state {
                FileState::Done(Outcome::Downloaded) => summary.downloaded += 1,
                FileState::Done(Outcome::Skipped) => summary.skipped += 1,
                FileState::Done(Outcome::Failed(_)) => summary.failed += 1,
                FileState::Done(Outcome::Cancelled) => summary.cancelled += 1,
                _ => summary.unfinished += 1,
            }
        }
        summary
    }

    /// The whole run in whole percent: 100 once it is done with every byte listed.
    pub fn total_percent(&self) -> u64 {
        let (done, total) = self.bytes();
        if self.is_finished() && total == done {
            return 100;
        }
        percent(done, total)
    }

    /// `40 MB of 100 MB, 2 MB/s, 30 s left`: the whole run, with its `rate` while it goes.
    pub fn total_text(&self, rate: &Rate) -> String {
        let (done, total) = self.bytes();
        let mut text = t::bulk::done_of(format_size(done), format_size(total));
        if !self.is_finished() {
            if let Some(speed) = rate.bytes_per_second() {
                text += &format!(", {}/s", format_size(speed));
            }
            if let Some(left) = rate.seconds_left(total.saturating_sub(done)) {
                text += &format!(", {}", t::bulk::time_left(format_seconds(left)));
            }
        }
        text
    }

    /// What a finished run says: how many files ended each way, and where the report is.
    pub fn summary_text(&self) -> String {
        let s = self.summary();
        let mut text = if s.cancelled > 0 {
            t::bulk::summary_cancelled(
                group_digits(s.cancelled as u64),
                group_digits(s.downloaded as u64),
                group_digits(s.failed as u64),
                group_digits(s.skipped as u64),
            )
        } else {
            t::bulk::summary(
                group_digits(s.downloaded as u64),
                group_digits(s.failed as u64),
                group_digits(s.skipped as u64),
            )
        };
        let mismatched = self.md5_mismatches();
        if !mismatched.is_empty() {
            text += " ";
            text += &t::bulk::summary_mismatch(mismatched.join(", "));
        }
        text += " ";
        text += &match self.mode {
            Mode::Folder => t::bulk::report_in_folder(REPORT_NAME),
            Mode::Zip => t::bulk::report_in_zip(REPORT_NAME),
        };
        text
    }

    /// The names of the files given up because their md5 differed from the listing.
    pub fn md5_mismatches(&self) -> Vec<&str> {
        self.entries
            .iter()
            .filter(|e| {
                matches!(e.state, FileState::Done(Outcome::Failed(_))) && e.bad_md5.is_some()
            })
            .map(|e| e.listed.name.as_str())
            .collect()
    }

    /// The md5 of the bytes received for `file`, when it differed from the listing.
    pub fn received_md5(&self, file: FileId) -> Option<&str> {
        self.entries[file].bad_md5.as_deref()
    }

    /// Gives up the files of `files` not done yet, with `reason` (a zip part that
    /// cannot be completed). Running ones end when they are interrupted.
    pub fn set_aside(&mut self, files: std::ops::Range<FileId>, reason: &str) -> Vec<Action> {
        let mut actions = Vec::new();
        for file in files {
            let entry = &mut self.entries[file];
            entry.set_aside = Some(reason.to_owned());
            if matches!(entry.state, FileState::Waiting | FileState::Backoff) {
                actions.push(self.give_up(file, reason.to_owned()));
            }
        }
        actions.extend(self.fill());
        actions
    }

    /// Starts the files of `files` again from nothing, with fresh attempts (a zip part
    /// fetched again alone).
    pub fn restart(&mut self, files: std::ops::Range<FileId>) -> Vec<Action> {
        self.cancelled = false;
        self.stopped = false;
        for entry in &mut self.entries[files] {
            if matches!(entry.state, FileState::Done(_)) {
                entry.state = FileState::Waiting;
            }
            entry.failures = 0;
            entry.paced_waits = 0;
            entry.mismatches = 0;
            entry.bad_md5 = None;
            entry.refreshed = false;
            entry.set_aside = None;
        }
        self.fill()
    }

    /// `download-report.json`: each file's name, size, md5 and status (and why it
    /// failed). It holds no address, so no signed link or credential.
    pub fn report(&self) -> String {
        #[derive(Serialize)]
        struct Line<'a> {
            name: &'a str,
            size: Option<u64>,
            md5: Option<&'a str>,
            status: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            reason: Option<&'a str>,
        }
        let lines: Vec<Line> = self
            .entries
            .iter()
            .map(|e| {
                let (status, reason) = match &e.state {
                    FileState::Done(outcome @ Outcome::Failed(reason)) => {
                        (outcome.label(), Some(reason.as_str()))
                    }
                    FileState::Done(outcome) => (outcome.label(), None),
                    _ => ("unfinished", None),
                };
                Line {
                    name: &e.listed.name,
                    size: e.listed.size,
                    md5: e.listed.md5.as_deref(),
                    status,
                    reason,
                }
            })
            .collect();
        serde_json::to_string_pretty(&lines).unwrap_or_default()
    }

    /// Hands out files while there are free places.
    fn fill(&mut self) -> Vec<Action> {
        if self.paused || self.cancelled || self.stopped || self.awaiting_sign_in {
            return Vec::new();
        }
        let mut actions = Vec::new();
        let limit = if self.probing { 1 } else { self.parallel };
        while self.running() < limit {
            let Some(file) = self
                .entries
                .iter()
                .position(|e| e.state == FileState::Waiting)
            else {
                break;
            };
            self.entries[file].state = FileState::Inspecting;
            actions.push(Action::Inspect { file });
        }
        actions
    }

    /// Files taking a place: being inspected, fetched or waiting out a retry.
    fn running(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| {
                matches!(
                    e.state,
                    FileState::Inspecting | FileState::Fetching { .. } | FileState::Backoff
                )
            })
            .count()
    }

    /// Back to waiting (paused) or cancelled.
    fn park(&mut self, file: FileId) -> Vec<Action> {
        if let Some(reason) = self.entries[file].set_aside.clone() {
            let mut actions = vec![self.give_up(file, reason)];
            actions.extend(self.fill());
            return actions;
        }
        if self.cancelled {
            self.entries[file].state = FileState::Done(Outcome::Cancelled);
            vec![Action::Report {
                file,
                outcome: Outcome::Cancelled,
            }]
        } else {
            self.entries[file].state = FileState::Waiting;
            self.fill()
        }
    }

    fn decide(&mut self, file: FileId, size: u64, md5: Option<String>) -> Action {
        let entry = &mut self.entries[file];
        if self.mode == Mode::Zip {
            // `size` bytes of it are in the zip already: they stay, the rest follows.
            entry.state = FileState::Fetching { done: size };
            return Action::Fetch {
                file,
                range_from: size,
            };
        }
        let listed = &entry.listed;
        let complete = match listed.size {
            Some(listed_size) => size == listed_size,
            None => size > 0,
        };
        let known_bad = entry.bad_md5.is_some();
        let checks_out = match (&listed.md5, &md5) {
            (None, _) => true,
            (Some(_), Some(found)) => listed.md5_matches(found),
            (Some(_), None) => false,
        };
        if complete && !known_bad && checks_out {
            entry.state = FileState::Done(Outcome::Skipped);
            return Action::Skip { file };
        }
        let shorter = listed.size.is_some_and(|listed_size| size < listed_size);
        let range_from = if shorter && !known_bad { size } else { 0 };
        entry.state = FileState::Fetching { done: range_from };
        Action::Fetch { file, range_from }
    }

    fn finished(&mut self, file: FileId, md5: String) -> Action {
        let entry = &mut self.entries[file];
        if entry.listed.md5_matches(&md5) {
            entry.state = FileState::Done(Outcome::Downloaded);
            return Action::Report {
                file,
                outcome: Outcome::Downloaded,
            };
        }
        entry.mismatches += 1;
        if entry.mismatches < 2 && self.mode == Mode::Folder {
            // Fetched whole again, not resumed: the bytes already there are suspect.
            entry.bad_md5 = Some(md5);
            entry.state = FileState::Backoff;
            return Action::Retry {
                file,
                after: Duration::ZERO,
            };
        }
        let expected = entry.listed.md5.clone().unwrap_or_default();
        entry.bad_md5 = Some(md5.clone());
        self.give_up(file, t::bulk::md5_mismatch(md5, expected))
    }

    fn failed(&mut self, file: FileId, failure: Failure) -> Action {
        if self.probing && failure == Failure::Unreachable {
            // The very first request found nothing to talk to: most likely the files do
            // not allow this site (CORS). Nothing was written; say so and stop.
            self.stopped = true;
            self.entries[file].state = FileState::Waiting;
            return Action::Stop {
                reason: t::bulk::first_unreachable().into(),
            };
        }
        let entry = &mut self.entries[file];
        if failure.is_refused() && !entry.refreshed {
            // Most likely its link expired (a long queue outlives it): list anew and
            // go on from where it was. This is no failure of the file's.
            entry.refreshed = true;
            entry.state = FileState::Backoff;
            return Action::Refresh { file };
        }
        let paced = match &failure {
            Failure::Status {
                retry_after: Some(wait),
                ..
            } if failure.is_transient() && *wait <= MAX_RETRY_AFTER => Some(*wait),
            _ => None,
        };
        if paced.is_some() {
            entry.paced_waits += 1;
        } else {
            entry.failures += 1;
        }
        let after = match &failure {
            Failure::Status {
                retry_after: Some(wait),
                ..
            } => Some(*wait).filter(|wait| *wait <= MAX_RETRY_AFTER),
            _ => Some(backoff(entry.failures)),
        };
        let may_retry = match paced {
            Some(_) => entry.paced_waits < MAX_PACED_WAITS,
            None => entry.failures < MAX_ATTEMPTS,
        };
        match after {
            Some(after) if failure.is_transient() && may_retry => {
                entry.state = FileState::Backoff;
                Action::Retry { file, after }
            }
            _ => {
                let tries = entry.failures + entry.paced_waits;
                let reason = t::bulk::tried(tries as usize, failure.describe());
                self.give_up(file, reason)
            }
        }
    }

    fn give_up(&mut self, file: FileId, reason: String) -> Action {
        let outcome = Outcome::Failed(reason);
        self.entries[file].state = FileState::Done(outcome.clone());
        Action::Report { file, outcome }
    }
}

/// The wait after the `failures`-th failure: 1 s, 2 s, 4 s… up to 30 s.
pub fn backoff(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(16);
    (FIRST_BACKOFF * 2u32.pow(doublings)).min(MAX_BACKOFF)
}

/// A `Retry-After` header in seconds (`120`) or as an HTTP date, counted from `now`
/// (a date gone by is no wait).
fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    value.parse().ok().map(Duration::from_secs).or_else(|| {
        let at = httpdate::parse_http_date(value).ok()?;
        Some(at.duration_since(now).unwrap_or_default())
    })
}

/// Where the part a `Content-Range` (`bytes 100-199/200`) describes starts.
fn content_range_start(value: &str) -> Option<u64> {
    let range = value.trim().strip_prefix("bytes ")?;
    range.split_once('-')?.0.trim().parse().ok()
}

/// How the files of a run ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub downloaded: usize,
    pub skipped: usize,
    pub failed: usize,
    pub cancelled: usize,
    pub unfinished: usize,
}

/// Transfer rate and time left, from samples of (milliseconds, bytes done).
///
/// Integer arithmetic only: float formatting would grow the web app.
#[derive(Debug, Clone, Default)]
pub struct Rate {
    /// Samples of the last few seconds, oldest first.
    samples: Vec<(u64, u64)>,
}

/// How far back the rate looks.
const RATE_WINDOW_MS: u64 = 5_000;

impl Rate {
    /// Records that `bytes` were done at `now_ms`.
    pub fn sample(&mut self, now_ms: u64, bytes: u64) {
        self.samples.push((now_ms, bytes));
        let keep_from = now_ms.saturating_sub(RATE_WINDOW_MS);
        let old = self
            .samples
            .iter()
            .take_while(|(t, _)| *t < keep_from)
            .count();
        // Keep one sample older than the window, so the window is always covered.
        self.samples.drain(..old.saturating_sub(1));
    }

    /// Bytes per second over the window, once there is something to go on.
    pub fn bytes_per_second(&self) -> Option<u64> {
        let (&(t0, b0), &(t1, b1)) = (self.samples.first()?, self.samples.last()?);
        let ms = t1.checked_sub(t0).filter(|ms| *ms >= 250)?;
        Some(b1.saturating_sub(b0) * 1000 / ms)
    }

    /// Seconds until `remaining` bytes are done at the current rate.
    pub fn seconds_left(&self, remaining: u64) -> Option<u64> {
        let rate = self.bytes_per_second().filter(|r| *r > 0)?;
        Some(remaining.div_ceil(rate))
    }
}

/// `done` of `total` in whole percent (0 while the total is unknown).
pub fn percent(done: u64, total: u64) -> u64 {
    (done.min(total) * 100).checked_div(total).unwrap_or(0)
}

/// `75 s`, `4 min 10 s`, `2 h 5 min`: a time left for people.
fn format_seconds(seconds: u64) -> String {
    match seconds {
        0..60 => t::bulk::seconds(seconds),
        60..3600 => t::bulk::minutes_seconds(seconds / 60, seconds % 60),
        _ => t::bulk::hours_minutes(seconds / 3600, seconds % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use download_api::Download;

    fn listed(name: &str, size: u64, md5: &str) -> ListedFile {
        ListedFile::sized(name, size, Some(md5))
    }

    fn three() -> Queue {
        Queue::new(
            vec![
                listed("a.zip", 10, "aa"),
                listed("b.zip", 20, "bb"),
                listed("c.zip", 30, "cc"),
            ],
            2,
        )
    }

    fn absent(file: FileId) -> Event {
        Event::Existing {
            file,
            size: 0,
            md5: None,
        }
    }

    fn inspect(file: FileId) -> Action {
        Action::Inspect { file }
    }

    fn fetch(file: FileId, range_from: u64) -> Action {
        Action::Fetch { file, range_from }
    }

    /// The first file answered, so the others may go in parallel.
    fn probed(q: &mut Queue) -> Vec<Action> {
        assert_eq!(q.start(), [inspect(0)]);
        assert_eq!(q.handle(absent(0)), [fetch(0, 0)]);
        q.handle(Event::Started { file: 0, from: 0 })
    }

    #[test]
    fn the_first_file_goes_alone_then_parallel_files_go_at_once() {
        let mut q = three();
        assert_eq!(probed(&mut q), [inspect(1)]);
        assert_eq!(q.handle(absent(1)), [fetch(1, 0)]);
        q.handle(Event::Chunk { file: 0, bytes: 10 });
        assert_eq!(q.bytes(), (10, 60));
        assert_eq!(
            q.handle(Event::Finished {
                file: 0,
                md5: "AA".into()
            }),
            [
                Action::Report {
                    file: 0,
                    outcome: Outcome::Downloaded
                },
                inspect(2)
            ]
        );
        assert!(!q.is_finished());
    }

    #[test]
    fn a_complete_matching_file_is_skipped_and_a_shorter_one_resumed() {
        let mut q = three();
        q.start();
        assert!(q.wants_md5_of_existing(0, 10));
        assert!(
            !q.wants_md5_of_existing(0, 4),
            "a partial file is not hashed twice"
        );
        assert!(!q.wants_md5_of_existing(0, 0));
        let skip = q.handle(Event::Existing {
            file: 0,
            size: 10,
            md5: Some("aa".into()),
        });
        // Skipping made no request, so the next file still goes alone.
        assert_eq!(skip, [Action::Skip { file: 0 }, inspect(1)]);
        assert_eq!(
            q.handle(Event::Existing {
                file: 1,
                size: 5,
                md5: None
            }),
            [fetch(1, 5)]
        );
        assert_eq!(q.handle(Event::Started { file: 1, from: 5 }), [inspect(2)]);
        assert_eq!(q.bytes(), (15, 60));
    }

    #[test]
    fn a_wrong_or_longer_file_is_fetched_whole() {
        let mut q = three();
        q.start();
        let wrong = Event::Existing {
            file: 0,
            size: 10,
            md5: Some("00".into()),
        };
        assert_eq!(q.handle(wrong), [fetch(0, 0)]);
        let mut q = three();
        q.start();
        let longer = Event::Existing {
            file: 0,
            size: 99,
            md5: None,
        };
        assert_eq!(q.handle(longer), [fetch(0, 0)]);
    }

    #[test]
    fn a_checksum_mismatch_is_fetched_whole_once_more_then_reported() {
        let mut q = three();
        probed(&mut q);
        let bad = || Event::Finished {
            file: 0,
            md5: "ff".into(),
        };
        assert_eq!(
            q.handle(bad())[0],
            Action::Retry {
                file: 0,
                after: Duration::ZERO
            }
        );
        assert_eq!(q.handle(Event::RetryDue { file: 0 })[0], inspect(0));
        // The complete copy on disk is known bad: no hashing it again, no resuming it.
        assert!(!q.wants_md5_of_existing(0, 10));
        assert_eq!(
            q.handle(Event::Existing {
                file: 0,
                size: 10,
                md5: None
            }),
            [fetch(0, 0)]
        );
        q.handle(Event::Started { file: 0, from: 0 });
        let Action::Report {
            outcome: Outcome::Failed(reason),
            ..
        } = &q.handle(bad())[0]
        else {
            panic!("a second mismatch is reported");
        };
        assert_eq!(reason, "MD5 differs from the listing: expected aa, got ff");
    }

    #[test]
    fn transient_failures_back_off_and_honour_retry_after() {
        let mut q = three();
        probed(&mut q);
        let dropped = Event::Failed {
            file: 0,
            failure: Failure::Dropped,
        };
        assert_eq!(
            q.handle(dropped.clone())[0],
            Action::Retry {
                file: 0,
                after: Duration::from_secs(1)
            }
        );
        // Waiting out a retry keeps the file's place: no third file starts.
        assert_eq!(q.state(0), &FileState::Backoff);
        q.handle(Event::RetryDue { file: 0 });
        q.handle(Event::Existing {
            file: 0,
            size: 4,
            md5: None,
        });
        let busy = Event::Failed {
            file: 0,
            failure: Failure::Status {
                status: 429,
                retry_after: Some(Duration::from_secs(7)),
            },
        };
        assert_eq!(
            q.handle(busy)[0],
            Action::Retry {
                file: 0,
                after: Duration::from_secs(7)
            }
        );
        assert_eq!(backoff(3), Duration::from_secs(4));
        assert_eq!(backoff(20), Duration::from_secs(30));
    }

    fn answer(status: u16, content_range: Option<&str>) -> Answer<'_> {
        Answer {
            status,
            content_range,
            retry_after: None,
        }
    }

    #[test]
    fn a_whole_file_restarts_and_only_the_part_asked_for_resumes() {
        let now = SystemTime::UNIX_EPOCH;
        assert_eq!(answer(200, None).start(100, now), Ok(0));
        let part = answer(206, Some("bytes 100-199/200"));
        assert_eq!(part.start(100, now), Ok(100));
        assert!(matches!(part.start(50, now), Err(Failure::OtherPart)));
        let unreadable = answer(206, Some("bytes */200"));
        assert!(matches!(
            unreadable.start(100, now),
            Err(Failure::OtherPart)
        ));
        assert_eq!(
            answer(404, None).start(0, now),
            Err(Failure::Status {
                status: 404,
                retry_after: None
            })
        );
    }

    #[test]
    fn retry_after_is_read_in_seconds_or_as_a_date() {
        let now = httpdate::parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT").unwrap();
        let wait = |value| {
            let answer = Answer {
                status: 503,
                content_range: None,
                retry_after: Some(value),
            };
            match answer.start(0, now) {
                Err(Failure::Status { retry_after, .. }) => retry_after,
                other => panic!("not a status failure: {other:?}"),
            }
        };
        assert_eq!(wait(" 120"), Some(Duration::from_secs(120)));
        assert_eq!(
            wait("Wed, 21 Oct 2015 07:29:30 GMT"),
            Some(Duration::from_secs(90))
        );
        assert_eq!(wait("Wed, 21 Oct 2015 07:00:00 GMT"), Some(Duration::ZERO));
        assert_eq!(wait("soon"), None);
    }

    #[test]
    fn a_file_address_falls_back_to_the_listed_one_only_when_the_service_redirects() {
        let listed = "https://files.example/a.zip?sig=1";
        assert_eq!(
            fetch_address(Ok("https://direct/a.zip".into()), listed),
            Ok("https://direct/a.zip".into())
        );
        assert_eq!(
            fetch_address(Err(ServiceError::OnlyRedirects), listed),
            Ok(listed.into())
        );
        let busy = ServiceError::Status {
            status: 503,
            status_text: "Service Unavailable".into(),
        };
        assert_eq!(
            fetch_address(Err(busy), listed),
            Err(Failure::Status {
                status: 503,
                retry_after: None
            })
        );
        let unreachable = ServiceError::Unreachable {
            url: "https://api.example".into(),
            endpoint: crate::service_error::Endpoint::Api,
        };
        assert_eq!(
            fetch_address(Err(unreachable), listed),
            Err(Failure::Unreachable)
        );
        let refused = ServiceError::Request("no".into());
        assert!(matches!(
            fetch_address(Err(refused), listed),
            Err(Failure::Other(_))
        ));
    }

    #[test]
    fn waits_a_retry_after_asks_for_are_not_counted_as_failures() {
        let mut q = three();
        probed(&mut q);
        let paced = || Event::Failed {
            file: 0,
            failure: Failure::Status {
                status: 429,
                retry_after: Some(Duration::from_secs(3)),
            },
        };
        // Far more turns than MAX_ATTEMPTS: a rate limit shared by parallel files.
        for _ in 1..MAX_PACED_WAITS {
            assert_eq!(
                q.handle(paced())[0],
                Action::Retry {
                    file: 0,
                    after: Duration::from_secs(3)
                }
            );
            q.handle(Event::RetryDue { file: 0 });
        }
        assert!(
            matches!(q.handle(paced())[0], Action::Report { file: 0, .. }),
            "reported after {MAX_PACED_WAITS} waits"
        );
    }

    #[test]
    fn a_persistent_failure_is_reported_and_the_rest_go_on() {
        let mut q = three();
        probed(&mut q);
        let server_error = || Event::Failed {
            file: 0,
            failure: Failure::Status {
                status: 503,
                retry_after: None,
            },
        };
        for _ in 1..MAX_ATTEMPTS {
            assert!(matches!(q.handle(server_error())[0], Action::Retry { .. }));
            q.handle(Event::RetryDue { file: 0 });
            q.handle(absent(0));
        }
        let actions = q.handle(server_error());
        assert_eq!(
            actions[0],
            Action::Report {
                file: 0,
                outcome: Outcome::Failed("the service answered 503 (tried 5 times)".into())
            }
        );
        assert_eq!(actions[1..], [inspect(2)]);

        // Not found is not worth a retry; "Retry failed" tries both again.
        let gone = Event::Failed {
            file: 1,
            failure: Failure::Status {
                status: 404,
                retry_after: None,
            },
        };
        q.handle(absent(1));
        assert!(matches!(
            q.handle(gone)[0],
            Action::Report {
                outcome: Outcome::Failed(_),
                ..
            }
        ));
        assert_eq!(q.summary().failed, 2);
        // File 2 holds one of the two places.
        assert_eq!(q.retry_failed(), [inspect(0)]);
        assert_eq!(q.summary().failed, 0);
    }

    #[test]
    fn an_unreachable_first_file_stops_everything_before_anything_starts() {
        let mut q = three();
        q.start();
        q.handle(absent(0));
        let actions = q.handle(Event::Failed {
            file: 0,
            failure: Failure::Unreachable,
        });
        assert!(
            matches!(&actions[..], [Action::Stop { reason }] if reason.contains("allow this site"))
        );
        assert!(q.is_finished());
        // Later on, unreachable is network trouble like any other: retried.
        let mut q = three();
        probed(&mut q);
        let later = q.handle(Event::Failed {
            file: 0,
            failure: Failure::Unreachable,
        });
        assert!(matches!(later[0], Action::Retry { .. }));
    }

    #[test]
    fn pause_resume_and_cancel() {
        let mut q = three();
        probed(&mut q);
        q.handle(absent(1));
        q.pause();
        assert_eq!(q.handle(Event::Interrupted { file: 0 }), []);
        assert_eq!(q.state(0), &FileState::Waiting);
        // Resuming looks in the folder again, so the kept bytes are resumed.
        assert_eq!(q.resume(), [inspect(0)]);
        let actions = q.cancel();
        assert_eq!(
            actions,
            [Action::Report {
                file: 2,
                outcome: Outcome::Cancelled
            }]
        );
        q.handle(Event::Interrupted { file: 1 });
        q.handle(absent(0));
        // A retry that comes due after the cancel does not bring its file back.
        assert_eq!(q.handle(Event::RetryDue { file: 2 }), []);
        assert_eq!(q.state(0), &FileState::Done(Outcome::Cancelled));
        assert!(q.is_finished());
        assert_eq!(q.summary().cancelled, 3);
    }

    #[test]
    fn more_parallel_files_start_at_once() {
        let mut q = three();
        probed(&mut q);
        assert_eq!(q.set_parallel(3), [inspect(2)]);
        assert_eq!(q.set_parallel(0), []);
        assert_eq!(q.parallel(), 1);
    }

    #[test]
    fn the_report_names_each_file_without_addresses() {
        let mut q = Queue::new(
            ListedFile::all_of(&[Download {
                url: "https://x/f?signature=s3cret".into(),
                file_name: "../a.zip".into(),
                size: Some(10),
                md5: Some("AA".into()),
            }
            .into()]),
            3,
        );
        q.start();
        q.handle(Event::Existing {
            file: 0,
            size: 10,
            md5: Some("aa".into()),
        });
        let report: serde_json::Value = serde_json::from_str(&q.report()).unwrap();
        assert_eq!(
            report,
            serde_json::json!([{"name": "download-1.._a.zip", "size": 10, "md5": "aa", "status": "skipped"}])
        );
        assert!(!q.report().contains("s3cret"));

        // A basket's file is named with its sub-folder.
        let in_folder = ListedFile::all_of(&[BulkDownload {
            download: Download {
                url: "u".into(),
                file_name: "su.zip".into(),
                size: Some(10),
                md5: None,
            },
            folder: Some("OpenTOID".into()),
        }]);
        assert_eq!(in_folder[0].name, "OpenTOID/su.zip");
        assert_eq!(in_folder[0].folder(), Some("OpenTOID"));
        assert_eq!(in_folder[0].file_name(), "su.zip");
        let plain = ListedFile::new(0, "a/b.zip", None, None);
        assert_eq!((plain.folder(), plain.file_name()), (None, "a_b.zip"));
    }

    #[test]
    fn each_line_of_the_progress_list_says_where_its_file_is() {
        let line = |percent, text: &str| FileProgress {
            percent,
            text: text.into(),
        };
        let mut q = Queue::new(
            vec![
                listed("a.zip", 4_000, "aa"),
                ListedFile::new(1, "b.zip", None, None),
                listed("c.zip", 30, "cc"),
            ],
            3,
        );
        assert_eq!(q.progress(0), line(0, "waiting"));
        assert_eq!(q.furthest_under_way(), None);
        q.start();
        assert_eq!(q.progress(0), line(0, "looking in the folder"));
        assert_eq!(q.furthest_under_way(), Some(0));
        q.handle(absent(0));
        q.handle(Event::Started { file: 0, from: 0 });
        q.handle(Event::Chunk {
            file: 0,
            bytes: 1_000,
        });
        assert_eq!(q.progress(0), line(25, "1.00 kB of 4.00 kB"));
        q.handle(Event::Finished {
            file: 0,
            md5: "aa".into(),
        });
        assert_eq!(q.progress(0), line(100, "downloaded, MD5 checked"));
        // A file listed without a size says what has arrived, and no percent.
        q.handle(absent(1));
        q.handle(Event::Started { file: 1, from: 0 });
        q.handle(Event::Chunk { file: 1, bytes: 1 });
        assert_eq!(q.progress(1), line(0, "1 B"));
        assert_eq!(q.furthest_under_way(), Some(2), "c.zip is being looked for");
        q.handle(Event::Existing {
            file: 2,
            size: 30,
            md5: Some("cc".into()),
        });
        assert_eq!(q.progress(2), line(100, "already there, skipped"));
    }

    #[test]
    fn percent_is_whole_and_zero_while_the_total_is_unknown() {
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(5, 0), 0);
        assert_eq!(percent(7, 5), 100);
    }

    #[test]
    fn rate_and_time_left() {
        let mut rate = Rate::default();
        rate.sample(0, 0);
        assert_eq!(rate.bytes_per_second(), None);
        rate.sample(1_000, 2_000_000);
        rate.sample(2_000, 4_000_000);
        assert_eq!(rate.bytes_per_second(), Some(2_000_000));
        assert_eq!(rate.seconds_left(5_000_000), Some(3));
        // Old samples fall out of the window.
        rate.sample(10_000, 4_000_000);
        assert_eq!(rate.bytes_per_second(), Some(0));
        assert_eq!(format_seconds(75), "1 min 15 s");
        assert_eq!(format_seconds(7_500), "2 h 5 min");
    }

    #[test]
    fn the_total_and_summary_texts() {
        let mut q = three();
        let mut rate = Rate::default();
        assert_eq!(q.total_text(&rate), "0 B of 60 B");
        probed(&mut q);
        rate.sample(0, 0);
        rate.sample(1_000, 10);
        q.handle(Event::Chunk { file: 0, bytes: 10 });
        assert_eq!(q.total_text(&rate), "10 B of 60 B, 10 B/s, 5 s left");
        assert_eq!(q.total_percent(), 16);
        q.cancel();
        q.handle(Event::Interrupted { file: 0 });
        q.handle(Event::Interrupted { file: 1 });
        assert!(q.is_finished());
        assert_eq!(
            q.summary_text(),
            "Done: 0 downloaded, 0 skipped, 0 failed, 3 cancelled. The report is in the folder as download-report.json."
        );
    }

    fn refused(status: u16) -> Failure {
        Failure::Status {
            status,
            retry_after: None,
        }
    }

    #[test]
    fn an_expired_link_is_listed_anew_and_the_file_goes_on_from_where_it_was() {
        let mut q = three();
        probed(&mut q);
        q.handle(Event::Chunk { file: 0, bytes: 4 });
        let expired = Event::Failed {
            file: 0,
            failure: refused(403),
        };
        assert_eq!(q.handle(expired.clone()), [Action::Refresh { file: 0 }]);
        // Refreshing keeps the file's place and is no failure of its own.
        assert_eq!(q.state(0), &FileState::Backoff);
        assert_eq!(q.handle(Event::Refreshed { file: 0 }), [inspect(0)]);
        assert_eq!(
            q.handle(Event::Existing {
                file: 0,
                size: 4,
                md5: None
            }),
            [fetch(0, 4)]
        );
        // Refused again with the fresh link, before any answer: not an expiry.
        let Action::Report {
            outcome: Outcome::Failed(reason),
            ..
        } = &q.handle(expired.clone())[0]
        else {
            panic!("a refusal of a fresh link is reported");
        };
        assert_eq!(
            reason,
            "the service refused it (403), even with a fresh link (tried once)"
        );

        // A link that worked, then expired again much later, is refreshed again.
        let mut q = three();
        probed(&mut q);
        assert_eq!(q.handle(expired.clone()), [Action::Refresh { file: 0 }]);
        q.handle(Event::Refreshed { file: 0 });
        q.handle(absent(0));
        q.handle(Event::Started { file: 0, from: 0 });
        assert_eq!(q.handle(expired), [Action::Refresh { file: 0 }]);
    }

    #[test]
    fn an_ended_session_asks_for_sign_in_once_and_keeps_the_queue() {
        let mut q = three();
        probed(&mut q);
        q.handle(absent(1));
        for file in [0, 1] {
            let actions = q.handle(Event::Failed {
                file,
                failure: refused(401),
            });
            assert_eq!(actions, [Action::Refresh { file }]);
        }
        let ended = |file| Event::RefreshFailed {
            file,
            failure: refused(401),
        };
        assert_eq!(q.handle(ended(0)), [Action::SignIn]);
        assert!(q.is_awaiting_sign_in());
        // The second file waits too, and nothing new starts meanwhile.
        assert_eq!(q.handle(ended(1)), []);
        assert_eq!(q.state(1), &FileState::Waiting);
        assert!(!q.is_finished());
        assert_eq!(q.signed_in(), [inspect(0), inspect(1)]);
        assert!(!q.is_awaiting_sign_in());

        // A listing that failed otherwise is an ordinary failure, retried.
        let mut q = three();
        probed(&mut q);
        q.handle(Event::Failed {
            file: 0,
            failure: refused(403),
        });
        let unreachable = q.handle(Event::RefreshFailed {
            file: 0,
            failure: Failure::Unreachable,
        });
        assert!(matches!(unreachable[0], Action::Retry { file: 0, .. }));
    }

    fn zip_of_three() -> Queue {
        Queue::for_zip(
            vec![
                listed("a.zip", 10, "aa"),
                listed("b.zip", 20, "bb"),
                listed("c.zip", 30, "cc"),
            ],
            2,
        )
    }

    #[test]
    fn into_a_zip_a_dropped_file_resumes_into_its_entry_and_a_mismatch_is_reported_at_once() {
        let mut q = zip_of_three();
        assert_eq!(q.start(), [inspect(0)]);
        assert_eq!(q.progress(0).text, "starting");
        // What the zip holds of the file already is resumed, never skipped.
        assert_eq!(
            q.handle(Event::Existing {
                file: 0,
                size: 10,
                md5: None
            }),
            [fetch(0, 10)]
        );
        q.handle(Event::Started { file: 0, from: 0 });
        q.handle(Event::Failed {
            file: 0,
            failure: Failure::Dropped,
        });
        q.handle(Event::RetryDue { file: 0 });
        assert_eq!(
            q.handle(Event::Existing {
                file: 0,
                size: 6,
                md5: None
            })[0],
            fetch(0, 6)
        );
        let actions = q.handle(Event::Finished {
            file: 0,
            md5: "ff".into(),
        });
        assert_eq!(
            actions[0],
            Action::Report {
                file: 0,
                outcome: Outcome::Failed(
                    "MD5 differs from the listing: expected aa, got ff".into()
                )
            }
        );
        assert_eq!(q.md5_mismatches(), ["a.zip"]);
        assert_eq!(q.received_md5(0), Some("ff"));
        assert!(
            q.summary_text()
                .contains("MD5 differs from the listing for a.zip")
        );
        assert!(
            q.summary_text()
                .ends_with("The report is in each zip as download-report.json.")
        );
    }

    #[test]
    fn a_zip_part_given_up_ends_its_files_and_is_fetched_again_alone() {
        let mut q = zip_of_three();
        probed(&mut q);
        q.handle(absent(1));
        // Part 0..2 cannot be completed: file 1 is running, file 0 too.
        assert_eq!(q.set_aside(0..2, "part 1 failed"), []);
        assert_eq!(
            q.handle(Event::Interrupted { file: 0 }),
            [
                Action::Report {
                    file: 0,
                    outcome: Outcome::Failed("part 1 failed".into())
                },
                inspect(2)
            ]
        );
        // A late chunk or failure of a file set aside changes nothing more.
        assert_eq!(q.handle(Event::Chunk { file: 1, bytes: 3 }), []);
        q.handle(Event::Failed {
            file: 1,
            failure: Failure::Dropped,
        });
        assert_eq!(q.summary().failed, 2);
        q.handle(absent(2));
        q.handle(Event::Started { file: 2, from: 0 });
        q.handle(Event::Finished {
            file: 2,
            md5: "cc".into(),
        });
        assert!(q.is_finished());
        assert_eq!(q.restart(0..2), [inspect(0), inspect(1)]);
        assert_eq!(q.summary().failed, 0);
        assert_eq!(q.state(2), &FileState::Done(Outcome::Downloaded));
    }

    #[test]
    fn in_welsh_counts_of_tries_and_links_take_the_six_forms() {
        crate::text::in_welsh(|| {
            let tried = |n| t::bulk::tried(n, "atebodd y gwasanaeth 503");
            assert_eq!(tried(0), "atebodd y gwasanaeth 503 (heb geisio)");
            assert_eq!(tried(1), "atebodd y gwasanaeth 503 (ceisiwyd unwaith)");
            assert_eq!(tried(2), "atebodd y gwasanaeth 503 (ceisiwyd ddwywaith)");
            assert_eq!(tried(3), "atebodd y gwasanaeth 503 (ceisiwyd 3 gwaith)");
            assert_eq!(tried(6), "atebodd y gwasanaeth 503 (ceisiwyd 6 gwaith)");
            assert_eq!(tried(20), "atebodd y gwasanaeth 503 (ceisiwyd 20 gwaith)");
            assert_eq!(
                tried(1_000_000),
                "atebodd y gwasanaeth 503 (ceisiwyd 1,000,000 gwaith)"
            );
            let links = |n| t::bulk::one_by_one(n);
            assert_eq!(links(0), "Fesul un (dim dolenni)");
            assert_eq!(links(1), "Fesul un (1 ddolen)");
            assert_eq!(links(2), "Fesul un (2 ddolen)");
            assert_eq!(links(3), "Fesul un (3 dolen)");
            assert_eq!(links(6), "Fesul un (6 dolen)");
            assert_eq!(links(20), "Fesul un (20 dolen)");
            assert_eq!(links(1_000_000), "Fesul un (1,000,000 dolen)");
        });
        assert_eq!(t::bulk::tried(1, "x"), "x (tried once)");
        assert_eq!(t::bulk::tried(5, "x"), "x (tried 5 times)");
        assert_eq!(t::bulk::one_by_one(1), "One by one (1 link)");
        assert_eq!(t::bulk::one_by_one(1_000), "One by one (1,000 links)");
    }

    #[test]
    fn in_welsh_a_run_says_where_each_file_is_and_how_it_ended() {
        crate::text::in_welsh(|| {
            let mut q = three();
            assert_eq!(q.progress(0).text, "yn aros");
            probed(&mut q);
            q.handle(Event::Chunk { file: 0, bytes: 4 });
            assert_eq!(q.progress(0).text, "4 B o 10 B");
            q.cancel();
            q.handle(Event::Interrupted { file: 0 });
            q.handle(Event::Interrupted { file: 1 });
            assert_eq!(q.progress(2).text, "wedi'i chanslo");
            assert_eq!(
                q.summary_text(),
                "Wedi gorffen: 0 wedi'u lawrlwytho, 0 wedi'u hepgor, 0 wedi methu, 3 wedi'u \
                 canslo. Mae'r adroddiad yn y ffolder fel download-report.json."
            );
            assert_eq!(format_seconds(7_500), "2 awr 5 mun");
        });
    }
}
