//! Boundary files to [`Shapes`], in the coordinates the file is in.

mod geojson;
mod shapefile;
mod xml;

use crate::projection::is_lon_lat;
use crate::shapes::Shapes;
use crate::{FileKind, ShapeError};

/// The coordinates a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Crs {
    /// WGS84 longitude and latitude in degrees.
    LonLat,
    /// British National Grid metres.
    Bng,
}

/// A file's shapes, its coordinates and its kind (a KML zipped as KMZ is read as KML).
#[derive(Debug)]
pub(crate) struct Parsed {
    pub kind: FileKind,
    pub shapes: Shapes,
    pub crs: Crs,
}

/// The kind of a file by its name's extension, or else by its first bytes.
pub(crate) fn detect(name: &str, bytes: &[u8]) -> Result<FileKind, ShapeError> {
    let extension = name
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase());
    match extension.as_deref() {
        Some("geojson" | "json") => Ok(FileKind::GeoJson),
        Some("kml") => Ok(FileKind::Kml),
        Some("gpx") => Ok(FileKind::Gpx),
        Some("zip") => Ok(FileKind::ZippedShapefile),
        _ => sniff(bytes).ok_or(ShapeError::UnknownKind),
    }
}

/// The kind the content starts as: a zip, a JSON object, or XML whose root is `kml` or
/// `gpx`.
fn sniff(bytes: &[u8]) -> Option<FileKind> {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return Some(FileKind::ZippedShapefile);
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = text.trim_ascii_start();
    if text.starts_with(b"{") {
        return Some(FileKind::GeoJson);
    }
    if !text.starts_with(b"<") {
        return None;
    }
    // The root comes after the XML declaration and perhaps a comment or two.
    let head = &text[..text.len().min(4096)];
    let root = |tag: &[u8]| head.windows(tag.len()).any(|window| window == tag);
    if root(b"<kml") {
        Some(FileKind::Kml)
    } else if root(b"<gpx") {
        Some(FileKind::Gpx)
    } else {
        None
    }
}

pub(crate) use shapefile::Unzipping;

/// A file read, or a zip opened with a file in it to inflate before it is read.
pub(crate) enum Opened<'a> {
    Parsed(Parsed),
    Unzipping(Unzipping<'a>),
}

/// Reads a file of a known kind, or opens a zip.
pub(crate) fn open(kind: FileKind, bytes: &[u8], limit: u64) -> Result<Opened<'_>, ShapeError> {
    let (shapes, crs) = match kind {
        FileKind::GeoJson => geojson::read(bytes)?,
        FileKind::Kml => (xml::read_kml(bytes)?, Crs::LonLat),
        FileKind::Gpx => (xml::read_gpx(bytes)?, Crs::LonLat),
        FileKind::ZippedShapefile => return shapefile::open(bytes, limit).map(Opened::Unzipping),
    };
    Ok(Opened::Parsed(Parsed { kind, shapes, crs }))
}

/// A name from the file (a projection's, a feature's) as the app shows it: trimmed, and
/// cut short.
fn short_name(name: &str) -> String {
    const LONGEST: usize = 60;
    let name = name.trim();
    match name.char_indices().nth(LONGEST) {
        Some((cut, _)) => format!("{}…", &name[..cut]),
        None => name.to_owned(),
    }
}

/// Checks that the vertices of `shapes` from `start` on, the feature numbered `feature`
/// (from 1) and called `name`, are longitudes and latitudes: else the first that is not,
/// named. A reader checks each feature as it reads it, so the error can say which.
fn check_lon_lat(
    shapes: &Shapes,
    start: usize,
    feature: usize,
    name: Option<&str>,
) -> Result<(), ShapeError> {
    match shapes.coords[start..].iter().find(|&&at| !is_lon_lat(at)) {
        None => Ok(()),
        Some(at) => Err(ShapeError::OutOfRange {
            feature,
            name: name.map(short_name),
            longitude: at.x.to_string(),
            latitude: at.y.to_string(),
        }),
    }
}

/// A number that is one: `NaN` and infinities are not coordinates.
fn number(text: &str) -> Option<f64> {
    text.trim()
        .parse()
        .ok()
        .filter(|value: &f64| value.is_finite())
}
