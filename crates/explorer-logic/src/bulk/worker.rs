//! What the page and the bulk worker (`crates/bulk-worker`) say to each other.
//!
//! The page keeps the queue ([`Queue`](crate::bulk::queue::Queue)), the files' links and
//! the session, and every word a person reads; the worker carries the bytes: it fetches
//! the files it is told to, hashes them as they pass and writes them into a zip part or
//! a folder, so no byte of a download crosses the page's thread. The page hands the
//! worker addresses only, never a credential.
//!
//! Each message is one JSON string. A folder run's folder handle, or a zip part's
//! message port (to the service worker answering the part's address), travels beside
//! it, as the message's second element.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::bulk::file::{FileId, ListedFile};
use crate::bulk::queue::Event;
use crate::bulk::zip::Part;

/// What the page asks of the worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// A zip run: its files in order and the parts they go into.
    Zip {
        files: Vec<ListedFile>,
        parts: Vec<Part>,
    },
    /// A folder run: its files; the folder's handle travels beside.
    Folder { files: Vec<ListedFile> },
    /// What there is of `file` already: answered with [`Reply::Found`].
    Inspect { file: FileId },
    /// The md5 of the copy of `file` found: answered with [`Event::Existing`].
    Hash { file: FileId },
    /// Fetch `file` from `url`, from byte `from` on.
    Fetch {
        file: FileId,
        url: String,
        from: u64,
    },
    /// Stop the transfers of `files` (pause, cancel); each answers
    /// [`Event::Interrupted`].
    Stop { files: Range<FileId> },
    /// The queue gave `file` up: the part waiting for it cannot be completed.
    GivenUp { file: FileId },
    /// The run is cancelled: every transfer stops, and the part being written fails.
    Cancel,
    /// Write zip part `part` into the port travelling beside.
    SavePart { part: usize },
    /// Forget what `files` hold: their part is fetched again.
    Forget { files: Range<FileId> },
    /// Write `text` as the run's report in the folder.
    Report { text: String },
}

/// What the worker tells the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply {
    /// It listens: a command sent before is lost.
    Listening,
    /// The run is set up: the queue may start. `present` names what the destination
    /// held already (a folder's files, by their paths; nothing for a zip), so the page
    /// need not ask about the files it does not name; `None` when the folder could not
    /// be listed.
    Ready { present: Option<Vec<String>> },
    /// What happened to the files, in order, for the queue. Bytes arriving are told
    /// at most a few times a second, as one [`Event::Chunk`] a file.
    Events(Vec<Event>),
    /// `size` bytes of `file` are there already (in the folder, or held for the zip).
    Found { file: FileId, size: u64 },
    /// The folder refused `step` for `file`; `error` is the browser's reason, if any.
    FolderFailed {
        file: FileId,
        step: FolderStep,
        error: String,
    },
    /// Zip part `part` is over.
    Part { part: usize, outcome: PartOutcome },
    /// The report is written, or why it is not.
    Reported(Result<(), String>),
}

/// A step of writing into a folder, which the page names when it fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FolderStep {
    /// Looking for a copy already there.
    Look,
    /// Reading the part already there, to resume.
    Read,
    /// Writing the file.
    Write,
    /// Closing it, which puts the bytes in place.
    Save,
}

/// How a zip part ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PartOutcome {
    /// Whole, in the browser's downloads.
    Saved,
    /// The person cancelled it in the browser.
    CancelledInBrowser,
    /// One of its files was given up.
    FileGivenUp { file: FileId },
    /// The run was cancelled.
    Cancelled,
    /// The stream to the browser broke, or the zip could not be written (`why`).
    Broken(String),
}

impl Command {
    /// The command as sent.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl Reply {
    /// The reply as sent.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bulk::answer::Failure;

    #[test]
    fn commands_and_replies_cross_as_json() {
        let files = vec![ListedFile::new(0, "a b.zip", Some(10), Some("ABC"))];
        let commands = [
            Command::Zip {
                files: files.clone(),
                parts: vec![Part {
                    files: 0..1,
                    length: Some(200),
                }],
            },
            Command::Folder { files },
            Command::Fetch {
                file: 0,
                url: "https://example.com/a?sig=x".into(),
                from: 5,
            },
            Command::Stop { files: 0..3 },
        ];
        for command in commands {
            let back: Command = serde_json::from_str(&command.to_json()).unwrap();
            assert_eq!(back, command);
        }
        let replies = [
            Reply::Events(vec![
                Event::Chunk { file: 0, bytes: 7 },
                Event::Failed {
                    file: 1,
                    failure: Failure::Status {
                        status: 429,
                        retry_after: Some(std::time::Duration::from_secs(3)),
                    },
                },
            ]),
            Reply::FolderFailed {
                file: 2,
                step: FolderStep::Write,
                error: "quota".into(),
            },
            Reply::Part {
                part: 0,
                outcome: PartOutcome::FileGivenUp { file: 1 },
            },
            Reply::Reported(Err("no room".into())),
        ];
        for reply in replies {
            let back: Reply = serde_json::from_str(&reply.to_json()).unwrap();
            assert_eq!(back, reply);
        }
    }

    #[test]
    fn a_listed_file_keeps_its_lower_case_md5_across() {
        let file = ListedFile::new(0, "x.zip", None, Some("ABCDEF"));
        let json = Command::Folder {
            files: vec![file.clone()],
        }
        .to_json();
        assert!(json.contains("abcdef"), "{json}");
    }
}
