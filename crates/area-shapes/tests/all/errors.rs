//! What is wrong with a file, as the app is told it.

use area_shapes::{FileKind, Reading, ShapeError, read_boundary};

use crate::common::{COTSWOLDS, LIMIT, WGS84_PRJ, fixture, polygon_shapefile, zip};

fn error(name: &str, bytes: &[u8]) -> ShapeError {
    read_boundary(name, bytes, LIMIT).unwrap_err()
}

#[test]
fn a_geojson_that_is_not_json_is_unreadable() {
    assert_eq!(
        error("area.geojson", b"type: Polygon"),
        ShapeError::Unreadable(FileKind::GeoJson)
    );
    // JSON, but not GeoJSON.
    assert_eq!(
        error("area.json", br#"{"type": "Circle", "radius": 3}"#),
        ShapeError::Unreadable(FileKind::GeoJson)
    );
    // A position of one number.
    assert_eq!(
        error(
            "area.geojson",
            br#"{"type": "LineString", "coordinates": [[1], [2]]}"#
        ),
        ShapeError::Unreadable(FileKind::GeoJson)
    );
}

#[test]
fn metres_without_a_crs_are_not_longitudes_and_latitudes() {
    let metres = br#"{"type": "Point", "coordinates": [451234, 123456]}"#;
    assert_eq!(
        error("area.geojson", metres),
        ShapeError::Unreadable(FileKind::GeoJson)
    );
}

#[test]
fn broken_kml_and_gpx_are_unreadable() {
    assert_eq!(
        error(
            "area.kml",
            b"<kml><Placemark><Point><coordinates>1,2</Point></kml>"
        ),
        ShapeError::Unreadable(FileKind::Kml)
    );
    assert_eq!(
        error(
            "area.kml",
            b"<kml><Point><coordinates>west,north</coordinates></Point></kml>"
        ),
        ShapeError::Unreadable(FileKind::Kml)
    );
    assert_eq!(
        error("area.kml", &fixture("cotswolds.gpx")),
        ShapeError::Unreadable(FileKind::Kml)
    );
    assert_eq!(
        error("track.gpx", br#"<gpx><wpt lat="51.5"/></gpx>"#),
        ShapeError::Unreadable(FileKind::Gpx)
    );
}

#[test]
fn a_file_with_no_geometry_says_so() {
    let empty = br#"{"type": "FeatureCollection", "features": []}"#;
    assert_eq!(error("empty.geojson", empty), ShapeError::NoGeometry);
    let unlocated = br#"{"type": "Feature", "geometry": null, "properties": {"name": "x"}}"#;
    assert_eq!(error("empty.geojson", unlocated), ShapeError::NoGeometry);
    assert_eq!(
        error(
            "empty.kml",
            b"<kml><Document><name>Nothing</name></Document></kml>"
        ),
        ShapeError::NoGeometry
    );
    assert_eq!(error("empty.gpx", b"<gpx></gpx>"), ShapeError::NoGeometry);
}

#[test]
fn a_crs_other_than_wgs84_or_the_national_grid_is_named() {
    let mercator = br#"{"type": "Point", "coordinates": [-100000, 6700000],
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::3857"}}}"#;
    assert_eq!(
        error("web.geojson", mercator),
        ShapeError::UnknownProjection("urn:ogc:def:crs:EPSG::3857".into())
    );
    // CRS84 and EPSG:4326 are the RFC's longitude and latitude.
    let crs84 = br#"{"type": "Point", "coordinates": [-1.3, 50.67],
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}}}"#;
    assert!(read_boundary("wight.geojson", crs84, LIMIT).is_ok());
}

#[test]
fn a_zipped_shapefile_needs_its_shp_dbf_and_prj() {
    let (shp, dbf) = polygon_shapefile(&COTSWOLDS);
    let prj = WGS84_PRJ.as_bytes();
    let missing = |files: &[(&str, &[u8])]| error("area.zip", &zip(files));
    assert_eq!(
        missing(&[("a.shp", &shp), ("a.dbf", &dbf)]),
        ShapeError::MissingPart(".prj".to_owned())
    );
    assert_eq!(
        missing(&[("a.shp", &shp), ("a.prj", prj)]),
        ShapeError::MissingPart(".dbf".to_owned())
    );
    assert_eq!(
        missing(&[("a.dbf", &dbf), ("a.prj", prj)]),
        ShapeError::MissingPart(".shp".to_owned())
    );
    assert_eq!(
        missing(&[
            ("a.shp", b"not a shapefile"),
            ("a.dbf", &dbf),
            ("a.prj", prj)
        ]),
        ShapeError::Unreadable(FileKind::ZippedShapefile)
    );
    assert_eq!(
        missing(&[
            ("a.shp", &shp),
            ("a.dbf", &dbf),
            ("a.prj", b"PROJCS[\"Irish_Grid\"]")
        ]),
        ShapeError::UnknownProjection("Irish_Grid".into())
    );
    assert_eq!(
        error("area.zip", b"PK\x03\x04 but cut short"),
        ShapeError::Unreadable(FileKind::ZippedShapefile)
    );
}

#[test]
fn a_file_over_the_limit_is_too_large() {
    let wight = fixture("wight.geojson");
    let size = wight.len() as u64;
    assert_eq!(
        read_boundary("wight.geojson", &wight, size - 1).unwrap_err(),
        ShapeError::TooLarge {
            size,
            limit: size - 1
        }
    );
    assert!(read_boundary("wight.geojson", &wight, size).is_ok());
    // A small zip whose .shp inflates past the limit.
    let (shp, dbf) = polygon_shapefile(&COTSWOLDS);
    let mut padded = shp.clone();
    padded.resize(100_000, 0);
    let zipped = zip(&[
        ("a.shp", &padded),
        ("a.dbf", &dbf),
        ("a.prj", WGS84_PRJ.as_bytes()),
    ]);
    assert!(zipped.len() < 10_000);
    assert_eq!(
        read_boundary("a.zip", &zipped, 50_000).unwrap_err(),
        ShapeError::TooLarge {
            size: 100_000,
            limit: 50_000
        }
    );
}

#[test]
fn a_png_is_of_no_known_kind() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
    assert_eq!(error("map.png", png), ShapeError::UnknownKind);
    assert_eq!(
        Reading::new("notes.txt", b"Cotswolds: SO, SP, ST, SU", LIMIT).unwrap_err(),
        ShapeError::UnknownKind
    );
}
