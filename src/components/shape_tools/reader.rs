//! Reading a boundary file in the worker that reads them (`crates/shape-worker`), off the
//! page's thread: however large the file, the page stays responsive, and hears how far
//! the worker is. The worker's wasm holds the file readers and the projection, and
//! loads the first time a file is read.

use area_shapes::{FileKind, ReadShape, Reply, ShapeError};
use explorer_logic::format_size;
use explorer_logic::text::t;
use futures::StreamExt;
use js_sys::{ArrayBuffer, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::workers::{AppWorker, Heard};

/// The worker's loader, beside index.html (trunk and `cargo xtask build` write it). A
/// worker's address is relative to the page's base, as the app's other files are.
const WORKER: &str = "shape-worker_loader.js";

/// The map draws about 1 km a pixel: finer detail is not seen, only paid for.
const OUTLINE_TOLERANCE_M: f64 = 500.0;

/// Reads `bytes`, a file called `name`, of at most `limit` bytes, telling `progress` the
/// share done (0 to 1): its squares, or one sentence saying what is wrong with it.
/// Dropping the future stops the worker, wherever it is.
pub async fn read_file(
    name: String,
    bytes: ArrayBuffer,
    limit: u64,
    progress: impl Fn(f64),
) -> Result<ReadShape, String> {
    let stopped = || t::shape::error_not_read(&name, t::shape::reader_stopped());
    let mut worker = Conversation::start().map_err(|_| stopped())?;
    if worker.next().await != Some(Reply::Ready) {
        return Err(stopped());
    }
    worker.send(&name, bytes, limit).map_err(|_| stopped())?;
    loop {
        match worker.next().await {
            Some(Reply::Working { done, total }) if total > 0 => {
                progress(done as f64 / total as f64);
            }
            Some(Reply::Read(read)) => return read.map_err(|error| problem(&name, &error)),
            Some(_) => {}
            None => return Err(stopped()),
        }
    }
}

/// The reader and what it says. Dropping it stops the worker.
struct Conversation {
    worker: AppWorker,
    replies: Heard<Reply>,
}

impl Conversation {
    fn start() -> Result<Self, JsValue> {
        let (worker, replies) = AppWorker::start(WORKER)?;
        Ok(Conversation { worker, replies })
    }

    /// The next reply; `None` once the worker has failed.
    async fn next(&mut self) -> Option<Reply> {
        self.replies.next().await.flatten()
    }

    /// Hands the file over (its bytes moved, not copied).
    fn send(&self, name: &str, bytes: ArrayBuffer, limit: u64) -> Result<(), JsValue> {
        let request = Object::new();
        Reflect::set(&request, &"name".into(), &name.into())?;
        Reflect::set(&request, &"bytes".into(), &bytes)?;
        Reflect::set(&request, &"limit".into(), &(limit as f64).into())?;
        Reflect::set(&request, &"tolerance".into(), &OUTLINE_TOLERANCE_M.into())?;
        self.worker.post(&request, Some(&bytes))
    }
}

/// What is wrong with the file, in one sentence.
pub(super) fn problem(name: &str, error: &ShapeError) -> String {
    match error {
        ShapeError::TooLarge { size, limit } => {
            t::shape::error_too_large(format_size(*limit), name, format_size(*size))
        }
        ShapeError::UnknownKind => t::shape::error_unknown_kind(name),
        ShapeError::Unreadable(FileKind::GeoJson) => t::shape::error_not_geojson(name),
        ShapeError::Unreadable(FileKind::Kml) => t::shape::error_not_kml(name),
        ShapeError::Unreadable(FileKind::Gpx) => t::shape::error_not_gpx(name),
        ShapeError::Unreadable(FileKind::ZippedShapefile) => t::shape::error_not_shapefile(name),
        ShapeError::NoGeometry => t::shape::error_no_geometry(name),
        ShapeError::UnknownProjection(projection) => t::shape::error_projection(name, projection),
        ShapeError::OutOfRange {
            feature,
            name: feature_name,
            longitude,
            latitude,
        } => {
            let feature = match feature_name {
                Some(feature_name) => t::shape::feature_named(feature_name, feature),
                None => t::shape::feature_numbered(feature),
            };
            t::shape::error_out_of_range(feature, latitude, longitude, name)
        }
        ShapeError::MissingPart(part) => t::shape::error_missing_part(name, part),
        ShapeError::OutsideGreatBritain => t::shape::error_outside(name),
    }
}
