//! The rules of a bulk download, into a folder or into a zip: which file goes next,
//! what to do with a file already in the folder, when to resume, retry, ask for a fresh
//! link or give up.
//!
//! The browser side only does I/O: it tells the [`Queue`] what happened ([`Event`]) and
//! carries out the [`Action`]s it gets back. How a file ended is the queue's state
//! ([`Queue::state`]), read by what people see (`bulk::progress`) and by the report
//! (`bulk::report`), which build on this module.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::bulk::answer::Failure;
use crate::bulk::file::{FileId, ListedFile};
use crate::text::t;

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

/// What the browser side is to do next. How a file ended is no action: it is the
/// queue's state, shown from there.
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

#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    listed: ListedFile,
    state: FileState,
    /// Failed requests so far (reset by "Retry failed").
    failures: u32,
    /// Waits a `Retry-After` asked for so far (see [`MAX_PACED_WAITS`]).
    paced_waits: u32,
    /// Whole-file checksum mismatches so far.
    mismatches: u32,
    /// The md5 of the last complete copy received (kept for the report; a copy that
    /// differs from the listing is never resumed or hashed again).
    received_md5: Option<String>,
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

/// A bulk download of listed files, `parallel` at a time. What people read of it
/// (`progress`, `summary_text` …) is in `bulk::progress`, its report (`report`) in
/// `bulk::report`.
#[derive(Debug, Clone, PartialEq, Eq)]
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
                    received_md5: None,
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
            && !entry.known_bad()
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
                actions.extend(self.decide(file, size, md5));
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
                // Bytes take no place and free none: nothing to hand out.
                return actions;
            }
            Event::Finished { file, md5 } => actions.extend(self.finished(file, md5)),
            Event::Failed { file, failure } => actions.extend(self.failed(file, failure)),
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
                    // The session itself ended: the file waits, keeping its bytes, and
                    // the run asks for a new sign-in (see `is_awaiting_sign_in`).
                    self.entries[file].refreshed = false;
                    self.entries[file].state = FileState::Waiting;
                    self.awaiting_sign_in = true;
                } else {
                    // Ask for a fresh listing again on the next try.
                    self.entries[file].refreshed = false;
                    actions.extend(self.failed(file, failure));
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

    /// The names of the files given up because their md5 differed from the listing.
    pub fn md5_mismatches(&self) -> Vec<&str> {
        (0..self.entries.len())
            .filter(|&file| self.md5_differs(file))
            .map(|file| self.entries[file].listed.name.as_str())
            .collect()
    }

    /// Whether `file` was given up because the md5 of the copy received differed from
    /// the listing.
    pub fn md5_differs(&self, file: FileId) -> bool {
        let entry = &self.entries[file];
        matches!(entry.state, FileState::Done(Outcome::Failed(_))) && entry.known_bad()
    }

    /// The md5 of the last complete copy of `file` received, if any.
    pub fn received_md5(&self, file: FileId) -> Option<&str> {
        self.entries[file].received_md5.as_deref()
    }

    /// Gives up the files of `files`, with `reason` (a zip part that cannot be
    /// completed): those received already too, as they were only in that zip, which
    /// the browser will not keep. Running ones end when they are interrupted.
    pub fn set_aside(&mut self, files: std::ops::Range<FileId>, reason: &str) -> Vec<Action> {
        for file in files {
            let entry = &mut self.entries[file];
            entry.set_aside = Some(reason.to_owned());
            if matches!(
                entry.state,
                FileState::Waiting | FileState::Backoff | FileState::Done(Outcome::Downloaded)
            ) {
                self.give_up(file, reason.to_owned());
            }
        }
        self.fill()
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
            entry.received_md5 = None;
            entry.refreshed = false;
            entry.set_aside = None;
        }
        self.fill()
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
            self.give_up(file, reason);
            return self.fill();
        }
        if self.cancelled {
            self.entries[file].state = FileState::Done(Outcome::Cancelled);
            Vec::new()
        } else {
            self.entries[file].state = FileState::Waiting;
            self.fill()
        }
    }

    /// What to do with a file found with `size` bytes (and their `md5`, if hashed):
    /// skip it (no action), resume it or fetch it whole.
    fn decide(&mut self, file: FileId, size: u64, md5: Option<String>) -> Option<Action> {
        let known_bad = self.entries[file].known_bad();
        let entry = &mut self.entries[file];
        if self.mode == Mode::Zip {
            // `size` bytes of it are in the zip already: they stay, the rest follows.
            entry.state = FileState::Fetching { done: size };
            return Some(Action::Fetch {
                file,
                range_from: size,
            });
        }
        let listed = &entry.listed;
        let complete = match listed.size {
            Some(listed_size) => size == listed_size,
            None => size > 0,
        };
        let checks_out = match (&listed.md5, &md5) {
            (None, _) => true,
            (Some(_), Some(found)) => listed.md5_matches(found),
            (Some(_), None) => false,
        };
        if complete && !known_bad && checks_out {
            entry.state = FileState::Done(Outcome::Skipped);
            return None;
        }
        let shorter = listed.size.is_some_and(|listed_size| size < listed_size);
        let range_from = if shorter && !known_bad { size } else { 0 };
        entry.state = FileState::Fetching { done: range_from };
        Some(Action::Fetch { file, range_from })
    }

    /// The whole file arrived: done if its md5 matches the listing, else fetched whole
    /// once more (into a folder) or given up.
    fn finished(&mut self, file: FileId, md5: String) -> Option<Action> {
        let entry = &mut self.entries[file];
        let matches = entry.listed.md5_matches(&md5);
        entry.received_md5 = Some(md5);
        if matches {
            entry.state = FileState::Done(Outcome::Downloaded);
            return None;
        }
        entry.mismatches += 1;
        if entry.mismatches < 2 && self.mode == Mode::Folder {
            // Fetched whole again, not resumed: the bytes already there are suspect.
            entry.state = FileState::Backoff;
            return Some(Action::Retry {
                file,
                after: Duration::ZERO,
            });
        }
        let expected = entry.listed.md5.clone().unwrap_or_default();
        let received = entry.received_md5.clone().unwrap_or_default();
        self.give_up(file, t::bulk::md5_mismatch(received, expected));
        None
    }

    /// The request failed: retry it later, refresh its link, stop the run (the first
    /// file unreachable) or give the file up.
    fn failed(&mut self, file: FileId, failure: Failure) -> Option<Action> {
        if self.probing && failure == Failure::Unreachable {
            // The very first request found nothing to talk to: most likely the files do
            // not allow this site (CORS). Nothing was written; say so and stop.
            self.stopped = true;
            self.entries[file].state = FileState::Waiting;
            return Some(Action::Stop {
                reason: t::bulk::first_unreachable().into(),
            });
        }
        let entry = &mut self.entries[file];
        if failure.is_refused() && !entry.refreshed {
            // Most likely its link expired (a long queue outlives it): list anew and
            // go on from where it was. This is no failure of the file's.
            entry.refreshed = true;
            entry.state = FileState::Backoff;
            return Some(Action::Refresh { file });
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
                Some(Action::Retry { file, after })
            }
            _ => {
                let tries = entry.failures + entry.paced_waits;
                let reason = t::bulk::tried(tries as usize, failure.describe());
                self.give_up(file, reason);
                None
            }
        }
    }

    fn give_up(&mut self, file: FileId, reason: String) {
        self.entries[file].state = FileState::Done(Outcome::Failed(reason));
    }
}

impl Entry {
    /// Whether the last complete copy received differs from the listing: it is
    /// never resumed, and a copy of its size is fetched whole rather than hashed.
    fn known_bad(&self) -> bool {
        self.received_md5
            .as_deref()
            .is_some_and(|md5| !self.listed.md5_matches(md5))
    }
}

/// The wait after the `failures`-th failure: 1 s, 2 s, 4 s… up to 30 s.
pub fn backoff(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(16);
    (FIRST_BACKOFF * 2u32.pow(doublings)).min(MAX_BACKOFF)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::time::Duration;

    use super::*;

    /// A file listed with `size` and `md5`, named exactly `name`.
    pub(crate) fn listed(name: &str, size: u64, md5: &str) -> ListedFile {
        ListedFile::sized(name, size, Some(md5))
    }

    /// a.zip, b.zip and c.zip: 10, 20 and 30 bytes.
    fn three_files() -> Vec<ListedFile> {
        vec![
            listed("a.zip", 10, "aa"),
            listed("b.zip", 20, "bb"),
            listed("c.zip", 30, "cc"),
        ]
    }

    pub(crate) fn three() -> Queue {
        Queue::new(three_files(), 2)
    }

    /// Three files, the first answered so that the others may go (see [`probed`]).
    pub(crate) fn three_probed() -> Queue {
        let mut q = three();
        probed(&mut q);
        q
    }

    /// `size` bytes of the file are there already, not hashed.
    fn existing(file: FileId, size: u64) -> Event {
        Event::Existing {
            file,
            size,
            md5: None,
        }
    }

    pub(crate) fn absent(file: FileId) -> Event {
        existing(file, 0)
    }

    pub(crate) fn finished(file: FileId, md5: &str) -> Event {
        Event::Finished {
            file,
            md5: md5.into(),
        }
    }

    pub(crate) fn failed(file: FileId, failure: Failure) -> Event {
        Event::Failed { file, failure }
    }

    pub(crate) fn refused(status: u16) -> Failure {
        Failure::Status {
            status,
            retry_after: None,
        }
    }

    /// 429 Too Many Requests, with a `Retry-After` of `seconds`.
    fn busy(seconds: u64) -> Failure {
        Failure::Status {
            status: 429,
            retry_after: Some(Duration::from_secs(seconds)),
        }
    }

    fn retry(file: FileId, after: Duration) -> Action {
        Action::Retry { file, after }
    }

    pub(crate) fn inspect(file: FileId) -> Action {
        Action::Inspect { file }
    }

    pub(crate) fn fetch(file: FileId, range_from: u64) -> Action {
        Action::Fetch { file, range_from }
    }

    /// The first file answered, so the others may go in parallel.
    pub(crate) fn probed(q: &mut Queue) -> Vec<Action> {
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
        assert_eq!(q.handle(finished(0, "AA")), [inspect(2)]);
        assert_eq!(q.state(0), &FileState::Done(Outcome::Downloaded));
        assert_eq!(q.received_md5(0), Some("AA"));
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
        assert_eq!(skip, [inspect(1)]);
        assert_eq!(q.state(0), &FileState::Done(Outcome::Skipped));
        assert_eq!(q.handle(existing(1, 5)), [fetch(1, 5)]);
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
        let longer = existing(0, 99);
        assert_eq!(q.handle(longer), [fetch(0, 0)]);
    }

    #[test]
    fn a_checksum_mismatch_is_fetched_whole_once_more_then_reported() {
        let mut q = three_probed();
        let bad = || finished(0, "ff");
        assert_eq!(q.handle(bad())[0], retry(0, Duration::ZERO));
        assert_eq!(q.handle(Event::RetryDue { file: 0 })[0], inspect(0));
        // The complete copy on disk is known bad: no hashing it again, no resuming it.
        assert!(!q.wants_md5_of_existing(0, 10));
        assert_eq!(q.handle(existing(0, 10)), [fetch(0, 0)]);
        q.handle(Event::Started { file: 0, from: 0 });
        q.handle(bad());
        assert_eq!(
            q.state(0),
            &FileState::Done(Outcome::Failed(
                "MD5 differs from the listing: expected aa, got ff".into()
            )),
            "a second mismatch is reported"
        );
        assert!(q.md5_differs(0));
        assert_eq!(q.received_md5(0), Some("ff"));
    }

    #[test]
    fn transient_failures_back_off_and_honour_retry_after() {
        let mut q = three_probed();
        let dropped = failed(0, Failure::Dropped);
        assert_eq!(
            q.handle(dropped.clone())[0],
            retry(0, Duration::from_secs(1))
        );
        // Waiting out a retry keeps the file's place: no third file starts.
        assert_eq!(q.state(0), &FileState::Backoff);
        q.handle(Event::RetryDue { file: 0 });
        q.handle(existing(0, 4));
        assert_eq!(
            q.handle(failed(0, busy(7)))[0],
            retry(0, Duration::from_secs(7))
        );
        assert_eq!(backoff(3), Duration::from_secs(4));
        assert_eq!(backoff(20), Duration::from_secs(30));
    }

    #[test]
    fn waits_a_retry_after_asks_for_are_not_counted_as_failures() {
        let mut q = three_probed();
        let paced = || failed(0, busy(3));
        // Far more turns than MAX_ATTEMPTS: a rate limit shared by parallel files.
        for _ in 1..MAX_PACED_WAITS {
            assert_eq!(q.handle(paced())[0], retry(0, Duration::from_secs(3)));
            q.handle(Event::RetryDue { file: 0 });
        }
        q.handle(paced());
        assert!(
            matches!(q.state(0), FileState::Done(Outcome::Failed(_))),
            "reported after {MAX_PACED_WAITS} waits"
        );
    }

    #[test]
    fn a_persistent_failure_is_reported_and_the_rest_go_on() {
        let mut q = three_probed();
        let server_error = || failed(0, refused(503));
        for _ in 1..MAX_ATTEMPTS {
            assert!(matches!(q.handle(server_error())[0], Action::Retry { .. }));
            q.handle(Event::RetryDue { file: 0 });
            q.handle(absent(0));
        }
        assert_eq!(q.handle(server_error()), [inspect(2)]);
        assert_eq!(
            q.state(0),
            &FileState::Done(Outcome::Failed(
                "the service answered 503 (tried 5 times)".into()
            ))
        );
        assert!(!q.md5_differs(0));

        // Not found is not worth a retry; "Retry failed" tries both again.
        let gone = failed(1, refused(404));
        q.handle(absent(1));
        q.handle(gone);
        assert!(matches!(q.state(1), FileState::Done(Outcome::Failed(_))));
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
        let actions = q.handle(failed(0, Failure::Unreachable));
        assert!(
            matches!(&actions[..], [Action::Stop { reason }] if reason.contains("allow this site"))
        );
        assert!(q.is_finished());
        // Later on, unreachable is network trouble like any other: retried.
        let mut q = three_probed();
        let later = q.handle(failed(0, Failure::Unreachable));
        assert!(matches!(later[0], Action::Retry { .. }));
    }

    #[test]
    fn pause_resume_and_cancel() {
        let mut q = three_probed();
        q.handle(absent(1));
        q.pause();
        assert_eq!(q.handle(Event::Interrupted { file: 0 }), []);
        assert_eq!(q.state(0), &FileState::Waiting);
        // Resuming looks in the folder again, so the kept bytes are resumed.
        assert_eq!(q.resume(), [inspect(0)]);
        assert_eq!(q.cancel(), []);
        assert_eq!(q.state(2), &FileState::Done(Outcome::Cancelled));
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
        let mut q = three_probed();
        assert_eq!(q.set_parallel(3), [inspect(2)]);
        assert_eq!(q.set_parallel(0), []);
        assert_eq!(q.parallel(), 1);
    }

    #[test]
    fn an_expired_link_is_listed_anew_and_the_file_goes_on_from_where_it_was() {
        let mut q = three_probed();
        q.handle(Event::Chunk { file: 0, bytes: 4 });
        let expired = failed(0, refused(403));
        assert_eq!(q.handle(expired.clone()), [Action::Refresh { file: 0 }]);
        // Refreshing keeps the file's place and is no failure of its own.
        assert_eq!(q.state(0), &FileState::Backoff);
        assert_eq!(q.handle(Event::Refreshed { file: 0 }), [inspect(0)]);
        assert_eq!(q.handle(existing(0, 4)), [fetch(0, 4)]);
        // Refused again with the fresh link, before any answer: not an expiry.
        q.handle(expired.clone());
        assert_eq!(
            q.state(0),
            &FileState::Done(Outcome::Failed(
                "the service refused it (403), even with a fresh link (tried once)".into()
            )),
            "a refusal of a fresh link is reported"
        );

        // A link that worked, then expired again much later, is refreshed again.
        let mut q = three_probed();
        assert_eq!(q.handle(expired.clone()), [Action::Refresh { file: 0 }]);
        q.handle(Event::Refreshed { file: 0 });
        q.handle(absent(0));
        q.handle(Event::Started { file: 0, from: 0 });
        assert_eq!(q.handle(expired), [Action::Refresh { file: 0 }]);
    }

    #[test]
    fn an_ended_session_asks_for_sign_in_once_and_keeps_the_queue() {
        let mut q = three_probed();
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
        assert_eq!(q.handle(ended(0)), []);
        assert!(q.is_awaiting_sign_in());
        assert_eq!(
            q.state(0),
            &FileState::Waiting,
            "it keeps its place and bytes"
        );
        // The second file waits too, and nothing new starts meanwhile.
        assert_eq!(q.handle(ended(1)), []);
        assert_eq!(q.state(1), &FileState::Waiting);
        assert!(!q.is_finished());
        assert_eq!(q.signed_in(), [inspect(0), inspect(1)]);
        assert!(!q.is_awaiting_sign_in());

        // A listing that failed otherwise is an ordinary failure, retried.
        let mut q = three_probed();
        q.handle(failed(0, refused(403)));
        let unreachable = q.handle(Event::RefreshFailed {
            file: 0,
            failure: Failure::Unreachable,
        });
        assert!(matches!(unreachable[0], Action::Retry { file: 0, .. }));
    }

    fn zip_of_three() -> Queue {
        Queue::for_zip(three_files(), 2)
    }

    #[test]
    fn into_a_zip_a_dropped_file_resumes_into_its_entry_and_a_mismatch_is_reported_at_once() {
        let mut q = zip_of_three();
        assert_eq!(q.start(), [inspect(0)]);
        assert_eq!(q.progress(0).text, "starting");
        // What the zip holds of the file already is resumed, never skipped.
        assert_eq!(q.handle(existing(0, 10)), [fetch(0, 10)]);
        q.handle(Event::Started { file: 0, from: 0 });
        q.handle(failed(0, Failure::Dropped));
        q.handle(Event::RetryDue { file: 0 });
        assert_eq!(q.handle(existing(0, 6))[0], fetch(0, 6));
        q.handle(finished(0, "ff"));
        assert_eq!(
            q.state(0),
            &FileState::Done(Outcome::Failed(
                "MD5 differs from the listing: expected aa, got ff".into()
            ))
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
    fn files_received_into_a_zip_part_that_is_not_saved_count_as_failed() {
        let mut q = zip_of_three();
        probed(&mut q);
        q.handle(finished(0, "aa"));
        assert_eq!(q.summary().downloaded, 1);
        // The browser cancelled the part's download: a.zip was only in it.
        q.set_aside(0..2, "part 1 failed");
        assert_eq!(
            q.state(0),
            &FileState::Done(Outcome::Failed("part 1 failed".into()))
        );
        assert_eq!(q.summary().downloaded, 0);
        // Fetched again alone, it waits for a place like any file.
        q.restart(0..1);
        assert_eq!(q.state(0), &FileState::Waiting);
    }

    #[test]
    fn a_zip_part_given_up_ends_its_files_and_is_fetched_again_alone() {
        let mut q = zip_of_three();
        probed(&mut q);
        q.handle(absent(1));
        // Part 0..2 cannot be completed: file 1 is running, file 0 too.
        assert_eq!(q.set_aside(0..2, "part 1 failed"), []);
        assert_eq!(q.handle(Event::Interrupted { file: 0 }), [inspect(2)]);
        assert_eq!(
            q.state(0),
            &FileState::Done(Outcome::Failed("part 1 failed".into()))
        );
        // A late chunk or failure of a file set aside changes nothing more.
        assert_eq!(q.handle(Event::Chunk { file: 1, bytes: 3 }), []);
        q.handle(failed(1, Failure::Dropped));
        assert_eq!(q.summary().failed, 2);
        q.handle(absent(2));
        q.handle(Event::Started { file: 2, from: 0 });
        q.handle(finished(2, "cc"));
        assert!(q.is_finished());
        assert_eq!(q.restart(0..2), [inspect(0), inspect(1)]);
        assert_eq!(q.summary().failed, 0);
        assert_eq!(q.state(2), &FileState::Done(Outcome::Downloaded));
    }
}
