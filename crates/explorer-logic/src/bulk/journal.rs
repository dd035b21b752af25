//! A run's queue kept by the bulk worker, and its copy on the page.
//!
//! The worker owns the [`Queue`]: it carries out the actions itself (fetching the
//! next file the moment one ends, with no round trip through the page's thread), and
//! applies both what it saw ([`Event`]) and what the person asked for ([`Order`]),
//! in one order. A [`Journal`] records that order as [`Step`]s, which the page
//! replays on a copy of the queue ([`Step::replay`]): the queue's rules are
//! deterministic, so the copy is the worker's state, and everything the page shows
//! and reports is read from it. The page never changes its copy itself: an order
//! goes to the worker and comes back in the log.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::bulk::file::FileId;
use crate::bulk::queue::{Action, Event, Queue};

/// What the person asked of a run (or the page, for them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Begin with the first files.
    Start,
    /// Start no new file; the transfers under way stop, keeping what arrived.
    Pause,
    Resume,
    /// Give up every file not done; the transfers under way stop.
    Cancel,
    /// This many files at once.
    Parallel(usize),
    /// Try the failed files again.
    RetryFailed,
    /// Give up `files` (a zip part that cannot be completed), for `reason`; their
    /// transfers stop.
    SetAside {
        files: Range<FileId>,
        reason: String,
    },
    /// Fetch `files` again from nothing (a zip part saved again).
    Restart {
        files: Range<FileId>,
    },
    /// The person signed in again: files held up by the ended session go on.
    SignedIn,
}

/// One thing the worker's queue applied, in the order it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    Event(Event),
    Order(Order),
}

impl Order {
    /// Applies the order to `queue`; returns what to do next.
    pub fn apply(self, queue: &mut Queue) -> Vec<Action> {
        match self {
            Order::Start => queue.start(),
            Order::Pause => {
                queue.pause();
                Vec::new()
            }
            Order::Resume => queue.resume(),
            Order::Cancel => queue.cancel(),
            Order::Parallel(n) => queue.set_parallel(n),
            Order::RetryFailed => queue.retry_failed(),
            Order::SetAside { files, reason } => queue.set_aside(files, &reason),
            Order::Restart { files } => queue.restart(files),
            Order::SignedIn => queue.signed_in(),
        }
    }
}

impl Step {
    /// Applies the step to `queue` as the worker's queue applied it; returns the
    /// actions it gave there (the page carries out only a [`Action::Stop`]'s part:
    /// saying why).
    pub fn replay(self, queue: &mut Queue) -> Vec<Action> {
        match self {
            Step::Event(event) => queue.handle(event),
            Step::Order(order) => order.apply(queue),
        }
    }
}

/// The worker's queue, and the steps it applied that the page has not heard yet.
///
/// Bytes arriving are gathered into one [`Event::Chunk`] a file, applied and logged
/// before the next step of any other kind (so each file's steps keep their order):
/// a step per network chunk would be thousands a second for the page to replay.
#[derive(Debug)]
pub struct Journal {
    queue: Queue,
    /// Bytes arrived per file, not yet applied.
    arrived: BTreeMap<FileId, u64>,
    log: Vec<Step>,
}

impl Journal {
    pub fn new(queue: Queue) -> Journal {
        Journal {
            queue,
            arrived: BTreeMap::new(),
            log: Vec::new(),
        }
    }

    /// The queue, up to the last step applied (bytes still being gathered aside).
    pub fn queue(&self) -> &Queue {
        &self.queue
    }

    /// Applies `step` and logs it; returns what to do next.
    pub fn apply(&mut self, step: Step) -> Vec<Action> {
        if let Step::Event(Event::Chunk { file, bytes }) = step {
            *self.arrived.entry(file).or_default() += bytes;
            return Vec::new();
        }
        self.settle();
        self.log.push(step.clone());
        step.replay(&mut self.queue)
    }

    /// Whether steps wait to be told.
    pub fn has_news(&self) -> bool {
        !self.log.is_empty() || !self.arrived.is_empty()
    }

    /// The steps applied since the last call, bytes gathered so far included.
    pub fn take(&mut self) -> Vec<Step> {
        self.settle();
        std::mem::take(&mut self.log)
    }

    /// Applies and logs the bytes gathered.
    fn settle(&mut self) {
        for (file, bytes) in std::mem::take(&mut self.arrived) {
            let chunk = Event::Chunk { file, bytes };
            // A chunk only counts bytes: it never frees a place, so it asks nothing.
            self.queue.handle(chunk.clone());
            self.log.push(Step::Event(chunk));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::bulk::answer::Failure;
    use crate::bulk::queue::tests::{absent, fetch, finished, inspect, listed, refused};
    use crate::bulk::queue::{FileState, Outcome};

    fn journal() -> Journal {
        let files = vec![
            listed("a.zip", 10, "aa"),
            listed("b.zip", 20, "bb"),
            listed("c.zip", 30, "cc"),
        ];
        Journal::new(Queue::new(files, 2))
    }

    /// Started, and the first file's answer in: the others may go.
    fn first_file_under_way() -> Journal {
        let mut j = journal();
        j.apply(Step::Order(Order::Start));
        j.apply(event(absent(0)));
        j.apply(event(Event::Started { file: 0, from: 0 }));
        j
    }

    fn event(event: Event) -> Step {
        Step::Event(event)
    }

    fn chunk(file: FileId, bytes: u64) -> Step {
        event(Event::Chunk { file, bytes })
    }

    /// A copy of the journal's starting queue fed everything it logged.
    fn replayed(start: &Queue, steps: Vec<Step>) -> Queue {
        let mut copy = start.clone();
        for step in steps {
            step.replay(&mut copy);
        }
        copy
    }

    #[test]
    fn the_page_s_copy_fed_the_log_is_the_worker_s_queue() {
        let mut j = journal();
        let start = j.queue().clone();
        let mut log = Vec::new();
        assert_eq!(j.apply(Step::Order(Order::Start)), [inspect(0)]);
        assert_eq!(j.apply(event(absent(0))), [fetch(0, 0)]);
        j.apply(event(Event::Started { file: 0, from: 0 }));
        j.apply(chunk(0, 4));
        log.extend(j.take());
        j.apply(chunk(0, 6));
        j.apply(event(absent(1)));
        j.apply(event(Event::Started { file: 1, from: 0 }));
        j.apply(event(Event::Failed {
            file: 1,
            failure: Failure::Status {
                status: 429,
                retry_after: Some(Duration::from_secs(2)),
            },
        }));
        j.apply(Step::Order(Order::Parallel(3)));
        j.apply(event(finished(0, "aa")));
        j.apply(Step::Order(Order::Pause));
        log.extend(j.take());
        assert!(!j.has_news());

        let copy = replayed(&start, log);
        assert_eq!(&copy, j.queue());
        assert_eq!(copy.state(0), &FileState::Done(Outcome::Downloaded));
        assert_eq!(copy.state(1), &FileState::Backoff);
        assert_eq!(copy.parallel(), 3);
        assert!(copy.is_paused());
        assert_eq!(copy.bytes(), (10, 60));
    }

    #[test]
    fn bytes_are_told_once_a_file_and_before_what_follows_them() {
        let mut j = first_file_under_way();
        j.take();
        for _ in 0..5 {
            j.apply(chunk(0, 1));
        }
        assert!(j.has_news());
        j.apply(event(Event::Interrupted { file: 0 }));
        j.apply(chunk(0, 7)); // a late chunk of the file, after the interruption
        assert_eq!(
            j.take(),
            [
                chunk(0, 5),
                event(Event::Interrupted { file: 0 }),
                chunk(0, 7)
            ]
        );
    }

    #[test]
    fn a_sign_in_told_before_the_page_saw_the_wait_still_lets_the_files_go_on() {
        let mut j = first_file_under_way();
        j.apply(event(Event::Failed {
            file: 1,
            failure: refused(403), // its link expired
        }));
        let ended = refused(401);
        assert_eq!(
            j.apply(event(Event::RefreshFailed {
                file: 1,
                failure: ended
            })),
            []
        );
        assert!(j.queue().is_awaiting_sign_in());
        assert_eq!(j.apply(Step::Order(Order::SignedIn)), [inspect(1)]);
        // Told again, with nothing waiting: nothing changes.
        assert_eq!(j.apply(Step::Order(Order::SignedIn)), []);
    }

    #[test]
    fn orders_and_steps_cross_as_json() {
        let steps = [
            Step::Order(Order::SetAside {
                files: 2..4,
                reason: "part 1 failed".into(),
            }),
            Step::Order(Order::Parallel(5)),
            chunk(3, 9),
        ];
        for step in steps {
            let json = serde_json::to_string(&step).unwrap();
            assert_eq!(serde_json::from_str::<Step>(&json).unwrap(), step);
        }
    }
}
