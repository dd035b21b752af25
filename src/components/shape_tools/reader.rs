//! Reading a boundary file into squares, a slice at a time so the page stays
//! responsive. In the release build this is a split point of its own: the file readers
//! and the projection load the first time a file is read, not with the product page.

use area_shapes::{FileKind, Reading, ShapeError, Step};
use download_api::GridSquare;
use explorer_logic::format_size;
use explorer_logic::text::t;
use gloo_timers::future::TimeoutFuture;

/// Vertices transformed and intersected between two turns of the browser's event
/// loop: a slice stays well under 100 ms even in a slow browser.
const VERTICES_PER_SLICE: usize = 20_000;

/// What a boundary file picks, and how to draw it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadShape {
    pub touched: Vec<GridSquare>,
    pub outside: bool,
    /// SVG path data in the map's kilometres.
    pub outline: String,
}

/// Reads `bytes`, a file called `name`, of at most `limit` bytes: its squares, or one
/// sentence saying what is wrong with it.
#[cfg(feature = "split")]
#[leptos::lazy]
pub async fn read_file(name: String, bytes: Vec<u8>, limit: u64) -> Result<ReadShape, String> {
    read_in_slices(name, bytes, limit).await
}

/// Reads `bytes`, a file called `name`, of at most `limit` bytes: its squares, or one
/// sentence saying what is wrong with it.
#[cfg(not(feature = "split"))]
pub async fn read_file(name: String, bytes: Vec<u8>, limit: u64) -> Result<ReadShape, String> {
    read_in_slices(name, bytes, limit).await
}

async fn read_in_slices(name: String, bytes: Vec<u8>, limit: u64) -> Result<ReadShape, String> {
    let problem = |error: ShapeError| problem(&name, &error);
    let mut reading = Reading::new(&name, &bytes, limit).map_err(problem)?;
    let boundary = loop {
        // Parsing was one task; each slice after it another.
        TimeoutFuture::new(0).await;
        match reading.step(VERTICES_PER_SLICE) {
            Step::Working { .. } => {}
            Step::Done(done) => break done.map_err(problem)?,
        }
    };
    TimeoutFuture::new(0).await;
    let outline = boundary.outline(OUTLINE_TOLERANCE_M);
    // The outline is a task of its own, drawing the choice another.
    TimeoutFuture::new(0).await;
    let coverage = boundary.coverage();
    Ok(ReadShape {
        touched: coverage.squares,
        outside: coverage.outside,
        outline,
    })
}

/// The map draws about 1 km a pixel: finer detail is not seen, only paid for.
const OUTLINE_TOLERANCE_M: f64 = 500.0;

/// What is wrong with the file, in one sentence.
fn problem(name: &str, error: &ShapeError) -> String {
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
        ShapeError::MissingPart(part) => t::shape::error_missing_part(name, part),
        ShapeError::OutsideGreatBritain => t::shape::error_outside(name),
    }
}
