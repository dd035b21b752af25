//! Zipped shapefiles: the `.shp`'s shapes, in the projection its `.prj` names. The `.dbf`
//! must be there, as in any shapefile, but its attributes are not needed. A zip with a
//! `.kml` and no `.shp` is a KMZ (Google Earth's zipped KML), read as KML.

use std::io::{Cursor, Read};

use flate2::read::DeflateDecoder;
use geo::Coord;
use rawzip::{
    CompressionMethod, Crc32, ZipArchive, ZipArchiveEntryWayfinder, ZipSliceArchive,
    ZipVerification,
};
use shapefile::record::traits::HasXY;
use shapefile::{PolygonRing, Shape, ShapeReader};

use super::{Crs, Parsed, check_lon_lat, short_name, xml};
use crate::shapes::{PartKind, Shapes};
use crate::{FileKind, ShapeError};

const UNREADABLE: ShapeError = ShapeError::Unreadable(FileKind::ZippedShapefile);

/// A file in the zip.
struct Entry {
    /// Its path, lower case.
    path: String,
    method: CompressionMethod,
    size: u64,
    wayfinder: ZipArchiveEntryWayfinder,
}

/// Opens the zip: finds the shapefile's parts and reads its projection, or finds the KML
/// of a KMZ. The `.shp` (or KML) is left to inflate a slice at a time.
pub(super) fn open(bytes: &[u8], limit: u64) -> Result<Unzipping<'_>, ShapeError> {
    let archive = ZipArchive::from_slice(bytes).map_err(|_| UNREADABLE)?;
    let mut files = Vec::new();
    let mut entries = archive.entries();
    while let Some(entry) = entries.next_entry().map_err(|_| UNREADABLE)? {
        let path = String::from_utf8_lossy(entry.file_path().as_bytes()).to_lowercase();
        let name = path.rsplit('/').next().unwrap_or_default();
        // Folders, and the resource forks macOS adds to the zips it makes.
        if entry.is_dir() || path.starts_with("__macosx/") || name.starts_with("._") {
            continue;
        }
        files.push(Entry {
            path,
            method: entry.compression_method(),
            size: entry.uncompressed_size_hint(),
            wayfinder: entry.wayfinder(),
        });
    }
    let with = |extension: &str| files.iter().find(|file| file.path.ends_with(extension));
    let Some(shp) = with(".shp") else {
        return match with(".kml") {
            Some(kml) => Ok(Unzipping {
                file: Inflating::new(bytes, &archive, kml, limit)?,
                then: Then::Kml,
            }),
            None => Err(ShapeError::MissingPart(".shp".to_owned())),
        };
    };
    // The parts beside the `.shp` (same folder and name), or else any.
    let stem = &shp.path[..shp.path.len() - ".shp".len()];
    let part = |extension: &'static str| {
        files
            .iter()
            .find(|file| file.path.strip_prefix(stem) == Some(extension))
            .or_else(|| with(extension))
            .ok_or_else(|| ShapeError::MissingPart(extension.to_owned()))
    };
    // Every shapefile has one, though its attributes are not needed here.
    part(".dbf")?;
    let mut prj = Inflating::new(bytes, &archive, part(".prj")?, limit)?;
    while !prj.inflate(usize::MAX)? {}
    Ok(Unzipping {
        file: Inflating::new(bytes, &archive, shp, limit)?,
        then: Then::Shapefile(projection(&String::from_utf8_lossy(&prj.bytes))?),
    })
}

/// A zip's `.shp` (or a KMZ's KML) being inflated, to read when it is.
pub(crate) struct Unzipping<'a> {
    file: Inflating<'a>,
    then: Then,
}

impl Unzipping<'_> {
    /// Inflates up to `most` more bytes: whether all are, and checked.
    pub fn inflate(&mut self, most: usize) -> Result<bool, ShapeError> {
        self.file.inflate(most)
    }

    /// Reads what was inflated.
    pub fn finish(self) -> Result<Parsed, ShapeError> {
        let bytes = &self.file.bytes;
        Ok(match self.then {
            Then::Shapefile(crs) => Parsed {
                kind: FileKind::ZippedShapefile,
                shapes: shapes(bytes, crs)?,
                crs,
            },
            Then::Kml => Parsed {
                kind: FileKind::Kml,
                shapes: xml::read_kml(bytes)?,
                crs: Crs::LonLat,
            },
        })
    }
}

/// What an inflated file is.
enum Then {
    Shapefile(Crs),
    Kml,
}

/// A file in the zip being inflated, a slice at a time (5 MB takes about 20 ms), and
/// checked (size and CRC) at the end.
struct Inflating<'a> {
    source: Source<'a>,
    expected: ZipVerification,
    crc: Crc32,
    bytes: Vec<u8>,
    limit: u64,
}

enum Source<'a> {
    Stored(&'a [u8]),
    Deflated(DeflateDecoder<&'a [u8]>),
}

impl<'a> Inflating<'a> {
    fn new(
        bytes: &'a [u8],
        archive: &ZipSliceArchive<&[u8]>,
        file: &Entry,
        limit: u64,
    ) -> Result<Self, ShapeError> {
        if file.size > limit {
            return Err(ShapeError::TooLarge {
                size: file.size,
                limit,
            });
        }
        let entry = archive.get_entry(file.wayfinder).map_err(|_| UNREADABLE)?;
        // The compressed bytes, borrowed from the file rather than the archive.
        let (start, end) = entry.compressed_data_range();
        let data = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(start, end)| bytes.get(start..end))
            .ok_or(UNREADABLE)?;
        let source = if file.method == CompressionMethod::STORE {
            Source::Stored(data)
        } else if file.method == CompressionMethod::DEFLATE {
            Source::Deflated(DeflateDecoder::new(data))
        } else {
            return Err(UNREADABLE);
        };
        Ok(Inflating {
            source,
            expected: entry.claim_verifier(),
            crc: Crc32::new(),
            bytes: Vec::new(),
            limit,
        })
    }

    /// Inflates up to `most` more bytes: whether all are, and checked.
    fn inflate(&mut self, most: usize) -> Result<bool, ShapeError> {
        let start = self.bytes.len();
        // One byte past the limit tells a file that is over it.
        let room = self.limit.saturating_add(1).saturating_sub(start as u64);
        let most = room.min(u64::try_from(most).unwrap_or(u64::MAX));
        let read = match &mut self.source {
            Source::Stored(data) => data.take(most).read_to_end(&mut self.bytes),
            Source::Deflated(decoder) => decoder.take(most).read_to_end(&mut self.bytes),
        }
        .map_err(|_| UNREADABLE)?;
        self.crc.update(&self.bytes[start..]);
        let size = self.bytes.len() as u64;
        if size > self.limit {
            // The zip's directory said less than the entry holds.
            return Err(ShapeError::TooLarge {
                size: size.max(self.expected.uncompressed_size),
                limit: self.limit,
            });
        }
        if read as u64 == most && most > 0 {
            return Ok(false);
        }
        let actual = ZipVerification {
            crc: self.crc.checksum(),
            uncompressed_size: size,
        };
        self.expected.valid(actual).map_err(|_| UNREADABLE)?;
        Ok(true)
    }
}

/// The coordinates a `.prj` (WKT) names: the British National Grid (by name, OSGB 1936 or
/// EPSG 27700) or WGS84 longitude and latitude.
fn projection(wkt: &str) -> Result<Crs, ShapeError> {
    let wkt = wkt.trim();
    // `PROJCS["British_National_Grid",GEOGCS[…` (ESRI), `PROJCS["OSGB 1936 / British
    // National Grid",…,AUTHORITY["EPSG","27700"]]` (OGC), WKT2's `PROJCRS[…,ID["EPSG",27700]]`.
    let (keyword, rest) = wkt.split_once('[').unwrap_or((wkt, ""));
    let name = rest
        .trim_start()
        .strip_prefix('"')
        .and_then(|rest| rest.split('"').next());
    let words = name
        .unwrap_or_default()
        .to_ascii_lowercase()
        .replace('_', " ");
    // The last authority is the whole system's.
    let code = wkt.rfind("EPSG").map(|at| {
        let digits = wkt[at..].trim_start_matches(|c: char| !c.is_ascii_digit());
        &digits[..digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len())]
    });
    match keyword.trim().to_ascii_uppercase().as_str() {
        "PROJCS" | "PROJCRS"
            if words.contains("british national grid")
                || words.contains("osgb 1936")
                || words.contains("osgb36")
                || code == Some("27700") =>
        {
            Ok(Crs::Bng)
        }
        "GEOGCS" | "GEOGCRS"
            if ["wgs 1984", "wgs 84", "wgs84"]
                .iter()
                .any(|wgs| words.contains(wgs))
                || code == Some("4326") =>
        {
            Ok(Crs::LonLat)
        }
        _ => Err(ShapeError::UnknownProjection(short_name(
            name.unwrap_or(wkt),
        ))),
    }
}

/// The `.shp`'s points, lines and polygons (each record's rings taken together), each
/// record checked to be longitudes and latitudes if the `.prj` says they are.
fn shapes(shp: &[u8], crs: Crs) -> Result<Shapes, ShapeError> {
    let records = ShapeReader::new(Cursor::new(shp))
        .and_then(ShapeReader::read)
        .map_err(|_| UNREADABLE)?;
    let mut shapes = Shapes::default();
    for (index, record) in records.into_iter().enumerate() {
        let start = shapes.coords.len();
        match record {
            Shape::Point(point) => shapes.add(PartKind::Points, [coord(&point)]),
            Shape::PointM(point) => shapes.add(PartKind::Points, [coord(&point)]),
            Shape::PointZ(point) => shapes.add(PartKind::Points, [coord(&point)]),
            Shape::Multipoint(points) => add_points(&mut shapes, points.points()),
            Shape::MultipointM(points) => add_points(&mut shapes, points.points()),
            Shape::MultipointZ(points) => add_points(&mut shapes, points.points()),
            Shape::Polyline(line) => add_lines(&mut shapes, line.parts()),
            Shape::PolylineM(line) => add_lines(&mut shapes, line.parts()),
            Shape::PolylineZ(line) => add_lines(&mut shapes, line.parts()),
            Shape::Polygon(polygon) => add_rings(&mut shapes, polygon.rings()),
            Shape::PolygonM(polygon) => add_rings(&mut shapes, polygon.rings()),
            Shape::PolygonZ(polygon) => add_rings(&mut shapes, polygon.rings()),
            // Empty records, and 3D surfaces (no boundary files are made of them).
            Shape::NullShape | Shape::Multipatch(_) => {}
        }
        // Records have no names here: the attributes (`.dbf`) are not read.
        if crs == Crs::LonLat {
            check_lon_lat(&shapes, start, index + 1, None)?;
        }
    }
    Ok(shapes)
}

fn coord(point: &impl HasXY) -> Coord {
    Coord {
        x: point.x(),
        y: point.y(),
    }
}

fn add_points<P: HasXY>(shapes: &mut Shapes, points: &[P]) {
    shapes.add(PartKind::Points, points.iter().map(coord));
}

fn add_lines<P: HasXY>(shapes: &mut Shapes, parts: &[Vec<P>]) {
    for part in parts {
        shapes.add(PartKind::Line, part.iter().map(coord));
    }
}

fn add_rings<P: HasXY>(shapes: &mut Shapes, rings: &[PolygonRing<P>]) {
    for (index, ring) in rings.iter().enumerate() {
        shapes.add(
            PartKind::Ring { first: index == 0 },
            ring.points().iter().map(coord),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prj_names_the_british_national_grid_or_wgs84() {
        // As ArcGIS and QGIS write them (ESRI WKT), and as GDAL writes the OGC form.
        let esri_bng = include_str!("../../tests/fixtures/british-national-grid.prj");
        let ogc_bng = "PROJCS[\"OSGB36 / British National Grid\",GEOGCS[\"OSGB36\",\
            AUTHORITY[\"EPSG\",\"4277\"]],AUTHORITY[\"EPSG\",\"27700\"]]";
        let by_code =
            "PROJCS[\"Ordnance Survey grid\",GEOGCS[\"x\"],AUTHORITY[\"EPSG\",\"27700\"]]";
        let esri_wgs84 = include_str!("../../tests/fixtures/wgs84.prj");
        assert_eq!(projection(esri_bng), Ok(Crs::Bng));
        assert_eq!(projection(ogc_bng), Ok(Crs::Bng));
        assert_eq!(projection(by_code), Ok(Crs::Bng));
        assert_eq!(projection(esri_wgs84), Ok(Crs::LonLat));
        assert_eq!(
            projection("GEOGCS[\"WGS 84\",AUTHORITY[\"EPSG\",\"4326\"]]"),
            Ok(Crs::LonLat)
        );
    }

    #[test]
    fn any_other_prj_is_named_in_the_error() {
        let utm = "PROJCS[\"WGS_1984_UTM_Zone_30N\",GEOGCS[\"GCS_WGS_1984\"]]";
        assert_eq!(
            projection(utm),
            Err(ShapeError::UnknownProjection(
                "WGS_1984_UTM_Zone_30N".into()
            ))
        );
        let irish = "GEOGCS[\"GCS_TM65\",DATUM[\"D_TM65\"]]";
        assert_eq!(
            projection(irish),
            Err(ShapeError::UnknownProjection("GCS_TM65".into()))
        );
        assert_eq!(
            projection("  not wkt  "),
            Err(ShapeError::UnknownProjection("not wkt".into()))
        );
    }
}
