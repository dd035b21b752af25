//! What a run tells the queue that steers it (`steer.rs`). The runs (`zip.rs`,
//! `folder.rs`) sit below the steering and know it only as this, so the worker's
//! modules read bottom-up.

use explorer_logic::bulk::file::FileId;
use explorer_logic::bulk::queue::Event;
use explorer_logic::bulk::worker::Reply;

/// The queue a run reports to.
pub trait Steering {
    /// What a transfer or an inspection saw.
    fn event(&self, event: Event);
    /// `size` bytes of `file` are there already.
    fn found(&self, file: FileId, size: u64);
    /// Tells the page `reply`, after the steps it has not heard.
    fn tell(&self, reply: Reply);
}
