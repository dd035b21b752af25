//! What people read of a bulk download while it runs and once it is done: each file's
//! line in the progress list, the whole run's bytes, rate and time left, and the
//! summary of how its files ended.
//!
//! These are methods of [`Queue`] kept apart from its rules: they only read the
//! queue's public state, so a change of wording never touches the state machine.

use crate::bulk::file::FileId;
use crate::bulk::queue::{FileState, Mode, Outcome, Queue};
use crate::bulk::report::REPORT_NAME;
use crate::format_size;
use crate::text::{group_digits, t};

/// What a file's line in the progress list shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileProgress {
    /// How far along, in whole percent.
    pub percent: u64,
    /// Where the file is, in words: `40 kB of 100 kB`, `downloaded, MD5 checked`.
    pub text: String,
}

impl Queue {
    /// What `file`'s line in the progress list shows.
    pub fn progress(&self, file: FileId) -> FileProgress {
        let size = self.file(file).size;
        let (percent, text) = match self.state(file) {
            FileState::Waiting => (0, t::bulk::waiting().into()),
            FileState::Inspecting if self.mode() == Mode::Zip => (0, t::bulk::starting().into()),
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
        for file in 0..self.len() {
            match self.state(file) {
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
        let report = match self.mode() {
            Mode::Folder => t::bulk::report_in_folder(REPORT_NAME),
            Mode::Zip => t::bulk::report_in_zip(REPORT_NAME),
        };
        format!("{} {report}", self.counts_text())
    }

    /// How many files ended each way, and which differ from the listing: the summary of
    /// a run that kept no report (a zip run whose parts were all left unsaved).
    pub fn counts_text(&self) -> String {
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
        text
    }
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
    use crate::bulk::file::ListedFile;
    use crate::bulk::queue::Event;
    use crate::bulk::queue::tests::{absent, finished, listed, probed, three};
    use crate::text::assert_counts;

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
        q.handle(finished(0, "aa"));
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
    fn the_summary_counts_each_way_a_file_ended_and_those_not_done_yet() {
        let mut q = three();
        assert_eq!(
            q.summary(),
            Summary {
                unfinished: 3,
                ..Summary::default()
            }
        );
        probed(&mut q);
        q.handle(finished(0, "aa"));
        q.handle(Event::Existing {
            file: 1,
            size: 20,
            md5: Some("bb".into()),
        });
        assert_eq!(
            q.summary(),
            Summary {
                downloaded: 1,
                skipped: 1,
                unfinished: 1,
                ..Summary::default()
            }
        );
        assert_eq!(q.total_percent(), 50, "30 of 60 bytes");
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
        // No zip kept, no report to point to.
        assert_eq!(
            q.counts_text(),
            "Done: 0 downloaded, 0 skipped, 0 failed, 3 cancelled."
        );
    }

    #[test]
    fn in_welsh_counts_of_tries_and_links_take_the_six_forms() {
        crate::text::in_welsh(|| {
            let tried = |n| t::bulk::tried(n, "atebodd y gwasanaeth 503");
            assert_counts(
                tried,
                [
                    "atebodd y gwasanaeth 503 (heb geisio)",
                    "atebodd y gwasanaeth 503 (ceisiwyd unwaith)",
                    "atebodd y gwasanaeth 503 (ceisiwyd ddwywaith)",
                    "atebodd y gwasanaeth 503 (ceisiwyd 3 gwaith)",
                    "atebodd y gwasanaeth 503 (ceisiwyd 6 gwaith)",
                    "atebodd y gwasanaeth 503 (ceisiwyd 20 gwaith)",
                    "atebodd y gwasanaeth 503 (ceisiwyd 1,000,000 gwaith)",
                ],
            );
            assert_counts(
                t::bulk::one_by_one,
                [
                    "Fesul un (dim dolenni)",
                    "Fesul un (1 ddolen)",
                    "Fesul un (2 ddolen)",
                    "Fesul un (3 dolen)",
                    "Fesul un (6 dolen)",
                    "Fesul un (20 dolen)",
                    "Fesul un (1,000,000 dolen)",
                ],
            );
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
