//! What the worker that reads boundary files tells the page, as JSON: the app reads a
//! file off the page's thread (`crates/shape-worker`), so a large one never holds up the
//! page, and hears how far it is.

use serde::{Deserialize, Serialize};

use crate::{Coverage, ShapeError};
#[cfg(feature = "files")]
use crate::{Reading, Step};

/// A boundary file read: what it picks, and how to draw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadShape {
    pub coverage: Coverage,
    /// SVG path data in the map's kilometres (`Boundary::outline`).
    pub outline: String,
}

/// What the worker says, in this order: [`Reply::Ready`] once, any number of
/// [`Reply::Working`], then [`Reply::Read`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// It has started and takes a file now (messages sent before are lost).
    Ready,
    /// `done` of the file's `total` vertices are projected and intersected.
    Working { done: usize, total: usize },
    /// The file is read, or why it cannot be.
    Read(Result<ReadShape, ShapeError>),
}

/// Vertices between two [`Reply::Working`]: a few tens of milliseconds' work.
#[cfg(feature = "files")]
const VERTICES_PER_REPORT: usize = 100_000;

/// Reads `bytes`, the file called `name` (at most `limit` bytes), with its outline
/// simplified to `outline_tolerance_m`, telling `reply` how far it is and, last, what
/// it read ([`Reply::Read`]).
#[cfg(feature = "files")]
pub fn read_reporting(
    name: &str,
    bytes: &[u8],
    limit: u64,
    outline_tolerance_m: f64,
    mut reply: impl FnMut(Reply),
) {
    let read = read_shape(name, bytes, limit, outline_tolerance_m, &mut reply);
    reply(Reply::Read(read));
}

#[cfg(feature = "files")]
fn read_shape(
    name: &str,
    bytes: &[u8],
    limit: u64,
    outline_tolerance_m: f64,
    reply: &mut impl FnMut(Reply),
) -> Result<ReadShape, ShapeError> {
    let mut reading = Reading::new(name, bytes, limit)?;
    let boundary = loop {
        match reading.step(VERTICES_PER_REPORT) {
            Step::Working { done, total } => reply(Reply::Working { done, total }),
            Step::Done(done) => break done?,
        }
    };
    Ok(ReadShape {
        coverage: boundary.coverage(),
        outline: boundary.outline(outline_tolerance_m),
    })
}
