//! What the page and the bulk worker (`crates/bulk-worker`) say to each other.
//!
//! The worker runs the queue ([`Journal`](crate::bulk::journal::Journal)) and carries
//! the bytes: it fetches the next file as soon as there is a place, hashes each as it
//! passes and writes it into a zip part or a folder, so neither a byte of a download
//! nor the step from one file to the next waits for the page's thread. The page keeps
//! the session and every word a person reads: it replays the worker's log on its copy
//! of the queue, sends the person's orders, and answers what only it can (a data
//! package's fresh address, a fresh listing, the wording of a folder's refusal). It
//! hands the worker addresses only, never a credential.
//!
//! Each message is one JSON string; a folder run's folder handle travels beside it, as
//! the message's second element. A zip's run lives in the service worker that answers
//! the zip's address, and hears the page on a port; a folder's, in a dedicated worker.
//! In Chromium, a zip's long files are fetched and hashed (md5 and CRC) in a dedicated
//! worker beside the service worker, which asks it for each try of a file
//! ([`Command::FetchBeside`], [`fetch_beside`]): the port between the two travels beside
//! `Command::FetchBeside` and `Command::Zip`.

use serde::{Deserialize, Serialize};

use crate::bulk::file::{FileId, ListedFile};
use crate::bulk::journal::{Order, Step};
use crate::bulk::queue::{Event, Mode, Queue};
use crate::bulk::zip::Part;

/// What the page asks of the worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// A zip run: its files in order and the parts they go into.
    Zip { run: Setup, parts: Vec<Part> },
    /// A folder run; the folder's handle travels beside.
    Folder { run: Setup },
    /// Fetch and hash the long files of a zip's run, as its run asks on the port that
    /// travels beside (the service worker's run has the port's other end, beside its
    /// `Command::Zip`), and post their bytes to it.
    FetchBeside,
    /// What the person asked: applied in the worker's order, and logged.
    Order(Order),
    /// What the page saw for the queue: a fresh listing (or why not), a fresh address
    /// refused, a folder's refusal worded.
    Event(Event),
    /// Fetch `file` from `url`, from byte `from` on: the answer to
    /// [`Reply::Address`].
    Fetch {
        file: FileId,
        url: String,
        from: u64,
    },
    /// Write zip part `part` into the zip the page opened as `zip` (the service worker's
    /// stream the browser saves it from).
    SavePart { part: usize, zip: String },
    /// Write `text` as the run's report in the folder.
    Report { text: String },
    /// The page let the run go: every transfer stops, a zip's part being written fails,
    /// and the worker forgets the run (a run in the service worker outlives no page).
    Quit,
}

/// Whether a zip run of `files`, in the engine whose user agent is `user_agent`, has its
/// long files ([`ListedFile::is_long`]) fetched and hashed (md5 and CRC) in a worker
/// beside the service worker: in Chromium only. There the service worker's one thread
/// also carries the download's bytes to the browser, which waits for it meanwhile: a
/// gigabyte took 7.7-8.9 s hashed in the run, 6.3-6.6 s hashed beside (a copy of each
/// piece posted there), 4.9-5.7 s fetched and hashed beside (its floor, a plain-JS
/// service worker fetching, 4.8-5.6 s). WebKit was slower hashing beside (5.5-6.0 s
/// against 6.6-6.7 s) and slower still fetching beside (5.5-5.8 s against 7.7-8.8 s:
/// its page's process then fetches, hashes and posts every piece), and Firefox passes
/// every port message through its parent process (each piece would cross processes
/// twice).
pub fn fetch_beside(user_agent: &str, files: &[ListedFile]) -> bool {
    // Chromium's browsers say `Chrome/`; Safari, Chrome on iOS (WebKit: `CriOS/`) and
    // Firefox do not.
    user_agent.contains("Chrome/") && files.iter().any(ListedFile::is_long)
}

/// Whether a zip run, in the engine whose user agent is `user_agent`, gathers the short
/// pieces of short files with the zip format's bytes into larger chunks before the
/// browser takes them: everywhere but Firefox. 200 files of 100 kB, each piece passed as
/// it came against gathered: Firefox 0.455 against 0.52 s (and 0.505 against 0.55 s
/// another day), WebKit 0.615 against 0.57 s, Chromium 0.405 against 0.41 s (medians of
/// 5-12 runs each; `cargo xtask bench download`). Firefox's copies into and out of the
/// wasm's memory cost it more than its download's extra steps do.
pub fn gathers_short_pieces(user_agent: &str) -> bool {
    // Firefox on iOS (WebKit) says `FxiOS/`, not `Firefox/`.
    !user_agent.contains("Firefox/")
}

/// What any run starts from: the page builds its copy of the queue from the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub files: Vec<ListedFile>,
    /// Files fetched at once.
    pub parallel: usize,
    /// Where each file is fetched from, when that is known for good (an open
    /// product's listed address, which redirects afresh each time); `None`: ask the
    /// page each time ([`Reply::Address`]).
    pub addresses: Vec<Option<String>>,
}

impl Setup {
    /// The run's queue as it starts, in the worker and on the page alike.
    pub fn queue(&self, mode: Mode) -> Queue {
        let files = self.files.clone();
        match mode {
            Mode::Folder => Queue::new(files, self.parallel),
            Mode::Zip => Queue::for_zip(files, self.parallel),
        }
    }
}

/// What the worker tells the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply {
    /// It listens: a command sent before is lost.
    Listening,
    /// The run is set up (a folder's contents listed): the queue may start.
    Ready,
    /// What the queue applied since the last log, in order: a few times a second, and
    /// at once after an order and before any other reply.
    Log(Vec<Step>),
    /// Where to fetch `file` from now, from byte `from` on: answered with
    /// [`Command::Fetch`], or [`Command::Event`] with why not.
    Address { file: FileId, from: u64 },
    /// `file`'s link was refused: list the files again, answering with
    /// [`Event::Refreshed`] or [`Event::RefreshFailed`].
    Refresh { file: FileId },
    /// The folder refused `step` for `file`; `error` is the browser's reason, if any.
    /// The page words it and answers with the file's [`Event::Failed`].
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
    /// The browser cancelled it: the person did, or the browser refused to save it.
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
    use crate::bulk::file::LONG_FILE;

    fn setup(files: Vec<ListedFile>) -> Setup {
        let addresses = vec![Some("https://example.com/a?sig=x".into()); files.len()];
        Setup {
            files,
            parallel: 3,
            addresses,
        }
    }

    #[test]
    fn commands_and_replies_cross_as_json() {
        let files = vec![ListedFile::new(0, "a b.zip", Some(10), Some("ABC"))];
        let commands = [
            Command::Zip {
                run: setup(files.clone()),
                parts: vec![Part {
                    files: 0..1,
                    length: Some(200),
                }],
            },
            Command::Folder { run: setup(files) },
            Command::FetchBeside,
            Command::Fetch {
                file: 0,
                url: "https://example.com/a?sig=x".into(),
                from: 5,
            },
            Command::Order(Order::SetAside {
                files: 0..3,
                reason: "part 1".into(),
            }),
            Command::Event(Event::Refreshed { file: 2 }),
            Command::Quit,
        ];
        for command in commands {
            let back: Command = serde_json::from_str(&command.to_json()).unwrap();
            assert_eq!(back, command);
        }
        let replies = [
            Reply::Log(vec![
                Step::Event(Event::Chunk { file: 0, bytes: 7 }),
                Step::Event(Event::Failed {
                    file: 1,
                    failure: Failure::Status {
                        status: 429,
                        retry_after: Some(std::time::Duration::from_secs(3)),
                    },
                }),
                Step::Order(Order::Pause),
            ]),
            Reply::Address { file: 4, from: 10 },
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
            run: setup(vec![file]),
        }
        .to_json();
        assert!(json.contains("abcdef"), "{json}");
    }

    #[test]
    fn long_files_are_fetched_beside_the_service_worker_in_chromium_only() {
        let chromium = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
        let safari = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15";
        let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
        let edge = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Edg/140.0.0.0";
        let chrome_on_ios = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/140.0.0.0 Mobile/15E148 Safari/604.1";
        let file = |id, size| ListedFile::new(id, "a.zip", size, None);
        let long = [file(0, Some(10)), file(1, Some(LONG_FILE))];
        let short = [file(0, Some(LONG_FILE - 1)), file(1, None)];
        assert!(fetch_beside(chromium, &long));
        assert!(!fetch_beside(safari, &long));
        assert!(!fetch_beside(firefox, &long));
        assert!(fetch_beside(edge, &long));
        assert!(!fetch_beside(chrome_on_ios, &long));
        assert!(!fetch_beside(chromium, &short));
    }

    #[test]
    fn short_pieces_are_gathered_everywhere_but_in_firefox() {
        let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
        let firefox_android =
            "Mozilla/5.0 (Android 15; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0";
        let firefox_on_ios = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/140.0 Mobile/15E148 Safari/605.1.15";
        let safari = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15";
        let chromium = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
        assert!(!gathers_short_pieces(firefox));
        assert!(!gathers_short_pieces(firefox_android));
        assert!(gathers_short_pieces(firefox_on_ios));
        assert!(gathers_short_pieces(safari));
        assert!(gathers_short_pieces(chromium));
    }
}
