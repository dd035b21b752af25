use serde::{Deserialize, Serialize};

/// The kinds of boundary file read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FileKind {
    GeoJson,
    Kml,
    Gpx,
    ZippedShapefile,
}

/// Everything that can be wrong with a boundary file. Each variant is shown as one
/// sentence by the app (which writes the sentences, in English and Welsh), so each carries
/// only what such a sentence needs; the messages here are for logs. It crosses from the
/// worker that reads files to the page as JSON (in the worker module's `Reply`, above
/// this one).
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum ShapeError {
    /// The file (or the shapefile's `.shp` inside its zip) is larger than the limit.
    #[error("the file is {size} bytes, over the limit of {limit}")]
    TooLarge { size: u64, limit: u64 },
    /// Neither its name nor its content says GeoJSON, KML, GPX or zipped shapefile.
    #[error("not GeoJSON, KML, GPX or a zipped shapefile")]
    UnknownKind,
    /// It claims to be this kind but does not parse as it.
    #[error("cannot be read as {0:?}")]
    Unreadable(FileKind),
    /// It parses, but holds no point, line or polygon.
    #[error("no point, line or polygon")]
    NoGeometry,
    /// A coordinate reference system it cannot read: the name as written (trimmed, short).
    #[error("unknown projection {0}")]
    UnknownProjection(String),
    /// A position that is not a longitude and latitude in a file that must be in them
    /// (longitude beyond ±180°, latitude beyond ±90°, by more than floating-point noise):
    /// the numbers as read (as text: JSON has no NaN, which a shapefile can hold), and the
    /// feature they are in, counted from 1 in the file's
    /// order (a GeoJSON feature, a KML placemark, a GPX waypoint, route or track, a
    /// shapefile record), with its name where the file gives one.
    #[error("feature {feature}: {longitude}, {latitude} is not a longitude and latitude")]
    OutOfRange {
        feature: usize,
        name: Option<String>,
        longitude: String,
        latitude: String,
    },
    /// A zipped shapefile without this part: `".shp"`, `".dbf"` or `".prj"`.
    #[error("no {0} in the zip")]
    MissingPart(String),
    /// Every part lies outside Great Britain's squares.
    #[error("wholly outside Great Britain's squares")]
    OutsideGreatBritain,
}
