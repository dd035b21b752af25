//! Zipped shapefiles: the `.shp`'s shapes, in the projection its `.prj` names. The `.dbf`
//! must be there, as in any shapefile, but its attributes are not needed. A zip with a
//! `.kml` and no `.shp` is a KMZ (Google Earth's zipped KML), read as KML.

use std::io::{Cursor, Read};

use flate2::read::DeflateDecoder;
use geo::Coord;
use rawzip::{CompressionMethod, ZipArchive, ZipArchiveEntryWayfinder, ZipSliceArchive};
use shapefile::record::traits::HasXY;
use shapefile::{PolygonRing, Shape, ShapeReader};

use super::{Crs, Parsed, projection_name, xml};
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

pub(super) fn read(bytes: &[u8], limit: u64) -> Result<Parsed, ShapeError> {
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
            Some(kml) => Ok(Parsed {
                kind: FileKind::Kml,
                shapes: xml::read_kml(&contents(&archive, kml, limit)?)?,
                crs: Crs::LonLat,
            }),
            None => Err(ShapeError::MissingPart(".shp")),
        };
    };
    // The parts beside the `.shp` (same folder and name), or else any.
    let stem = &shp.path[..shp.path.len() - ".shp".len()];
    let part = |extension: &'static str| {
        files
            .iter()
            .find(|file| file.path.strip_prefix(stem) == Some(extension))
            .or_else(|| with(extension))
            .ok_or(ShapeError::MissingPart(extension))
    };
    // Every shapefile has one, though its attributes are not needed here.
    part(".dbf")?;
    let prj = contents(&archive, part(".prj")?, limit)?;
    let crs = projection(&String::from_utf8_lossy(&prj))?;
    let shapes = shapes(&contents(&archive, shp, limit)?)?;
    Ok(Parsed {
        kind: FileKind::ZippedShapefile,
        shapes,
        crs,
    })
}

/// A file's bytes, inflated and checked (size and CRC); one over `limit` is too large.
fn contents(
    archive: &ZipSliceArchive<&[u8]>,
    file: &Entry,
    limit: u64,
) -> Result<Vec<u8>, ShapeError> {
    let too_large = |size| ShapeError::TooLarge { size, limit };
    if file.size > limit {
        return Err(too_large(file.size));
    }
    let entry = archive.get_entry(file.wayfinder).map_err(|_| UNREADABLE)?;
    let data = entry.data();
    let reader: Box<dyn Read> = if file.method == CompressionMethod::STORE {
        Box::new(entry.verifying_reader(data))
    } else if file.method == CompressionMethod::DEFLATE {
        Box::new(entry.verifying_reader(DeflateDecoder::new(data)))
    } else {
        return Err(UNREADABLE);
    };
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|_| UNREADABLE)?;
    match bytes.len() as u64 {
        // The zip's directory said less than the entry holds.
        size if size > limit => Err(too_large(size)),
        _ => Ok(bytes),
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
        _ => Err(ShapeError::UnknownProjection(projection_name(
            name.unwrap_or(wkt),
        ))),
    }
}

/// The `.shp`'s points, lines and polygons (each record's rings taken together).
fn shapes(shp: &[u8]) -> Result<Shapes, ShapeError> {
    let records = ShapeReader::new(Cursor::new(shp))
        .and_then(ShapeReader::read)
        .map_err(|_| UNREADABLE)?;
    let mut shapes = Shapes::default();
    for record in records {
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
        let esri_bng = "PROJCS[\"British_National_Grid\",GEOGCS[\"GCS_OSGB_1936\",\
            DATUM[\"D_OSGB_1936\",SPHEROID[\"Airy_1830\",6377563.396,299.3249646]],\
            PRIMEM[\"Greenwich\",0.0],UNIT[\"Degree\",0.0174532925199433]],\
            PROJECTION[\"Transverse_Mercator\"],PARAMETER[\"False_Easting\",400000.0],\
            PARAMETER[\"False_Northing\",-100000.0],PARAMETER[\"Central_Meridian\",-2.0],\
            PARAMETER[\"Scale_Factor\",0.9996012717],PARAMETER[\"Latitude_Of_Origin\",49.0],\
            UNIT[\"Meter\",1.0]]";
        let ogc_bng = "PROJCS[\"OSGB36 / British National Grid\",GEOGCS[\"OSGB36\",\
            AUTHORITY[\"EPSG\",\"4277\"]],AUTHORITY[\"EPSG\",\"27700\"]]";
        let by_code =
            "PROJCS[\"Ordnance Survey grid\",GEOGCS[\"x\"],AUTHORITY[\"EPSG\",\"27700\"]]";
        let esri_wgs84 = "GEOGCS[\"GCS_WGS_1984\",DATUM[\"D_WGS_1984\",\
            SPHEROID[\"WGS_1984\",6378137.0,298.257223563]],PRIMEM[\"Greenwich\",0.0],\
            UNIT[\"Degree\",0.0174532925199433]]";
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
