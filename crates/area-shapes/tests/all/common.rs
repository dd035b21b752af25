//! Fixtures, and shapefiles and zips written with the same crates the reader reads them
//! with (shapefile, rawzip, flate2).

use std::io::{Cursor, Write};
use std::path::Path;

use area_shapes::{Boundary, GridSquare, ShapeError, read_boundary};
use shapefile::dbase::{FieldValue, Record, TableWriterBuilder};
use shapefile::{Point, Polygon, PolygonRing, ShapeWriter};

/// The largest file the app reads.
pub const LIMIT: u64 = 5 << 20;

pub fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Reads a fixture under its own name.
pub fn read(name: &str) -> Result<Boundary, ShapeError> {
    read_boundary(name, &fixture(name), LIMIT)
}

pub fn codes(squares: &[GridSquare]) -> Vec<&'static str> {
    squares.iter().map(|square| square.code()).collect()
}

/// The codes of the squares a boundary touches, and whether it lies partly outside them.
pub fn coverage(boundary: &Boundary) -> (Vec<&'static str>, bool) {
    let coverage = boundary.coverage();
    (codes(&coverage.squares), coverage.outside)
}

/// The Cotswolds fixtures' ring (longitude, latitude), round the corner of SO, SP, ST and
/// SU at (400 km, 200 km).
pub const COTSWOLDS: [(f64, f64); 5] = [
    (-2.4, 51.5),
    (-1.6, 51.5),
    (-1.6, 51.95),
    (-2.4, 51.95),
    (-2.4, 51.5),
];

/// The squares round that corner, in `GridSquare::all()` order.
pub const ROUND_THE_CORNER: [&str; 4] = ["SO", "SP", "ST", "SU"];

/// A shapefile's `.prj` for the British National Grid, as ArcGIS and QGIS write it.
pub const BNG_PRJ: &str = include_str!("../fixtures/british-national-grid.prj");

/// A shapefile's `.prj` for WGS84 longitude and latitude (ESRI's WKT).
pub const WGS84_PRJ: &str = include_str!("../fixtures/wgs84.prj");

/// A shapefile of one polygon record: its `.shp` and `.dbf`.
pub fn polygon_shapefile(ring: &[(f64, f64)]) -> (Vec<u8>, Vec<u8>) {
    polygons_shapefile(&[ring])
}

/// A shapefile of a polygon record for each ring: its `.shp` and `.dbf`.
pub fn polygons_shapefile(rings: &[&[(f64, f64)]]) -> (Vec<u8>, Vec<u8>) {
    let (mut shp, mut shx, mut dbf) = (
        Cursor::new(Vec::new()),
        Cursor::new(Vec::new()),
        Cursor::new(Vec::new()),
    );
    {
        let shapes = ShapeWriter::with_shx(&mut shp, &mut shx);
        let table = TableWriterBuilder::new()
            .add_character_field("name".try_into().unwrap(), 50)
            .build_with_dest(&mut dbf);
        let mut writer = shapefile::Writer::new(shapes, table);
        for ring in rings {
            let points = ring.iter().map(|&(x, y)| Point { x, y }).collect();
            let mut record = Record::default();
            record.insert("name".into(), FieldValue::Character(Some("area".into())));
            writer
                .write_shape_and_record(&Polygon::new(PolygonRing::Outer(points)), &record)
                .unwrap();
        }
    }
    (shp.into_inner(), dbf.into_inner())
}

/// A zip of one shapefile: `a.shp`, `a.dbf` and `a.prj`.
pub fn zipped_shapefile(shp: &[u8], dbf: &[u8], prj: &str) -> Vec<u8> {
    zip(&[("a.shp", shp), ("a.dbf", dbf), ("a.prj", prj.as_bytes())])
}

/// The Cotswolds ring as a zipped shapefile in longitude and latitude.
pub fn zipped_cotswolds() -> Vec<u8> {
    let (shp, dbf) = polygon_shapefile(&COTSWOLDS);
    zipped_shapefile(&shp, &dbf, WGS84_PRJ)
}

/// A zip of these files, deflated.
pub fn zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut archive = rawzip::ZipArchiveWriter::new(Vec::new());
    for (name, bytes) in files {
        let (mut entry, config) = archive
            .new_file(*name)
            .compression_method(rawzip::CompressionMethod::DEFLATE)
            .start()
            .unwrap();
        let encoder =
            flate2::write::DeflateEncoder::new(&mut entry, flate2::Compression::default());
        let mut writer = config.wrap(encoder);
        writer.write_all(bytes).unwrap();
        let (encoder, descriptor) = writer.finish().unwrap();
        encoder.finish().unwrap();
        entry.finish(descriptor).unwrap();
    }
    archive.finish().unwrap()
}
