//! What is wrong with a file, as the app is told it.

use area_shapes::{FileKind, Reading, ShapeError, read_boundary};

use crate::common::{
    BNG_PRJ, COTSWOLDS, LIMIT, WGS84_PRJ, coverage, fixture, polygon_shapefile, polygons_shapefile,
    zip, zipped_shapefile,
};

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

/// The error for a position out of range.
fn out_of_range(feature: usize, name: Option<&str>, longitude: &str, latitude: &str) -> ShapeError {
    ShapeError::OutOfRange {
        feature,
        name: name.map(str::to_owned),
        longitude: longitude.to_owned(),
        latitude: latitude.to_owned(),
    }
}

/// Checks that a GeoJSON point at `longitude`, `latitude` is refused as out of range,
/// the position quoted as written.
#[track_caller]
fn assert_point_out_of_range(longitude: &str, latitude: &str) {
    let point = format!(r#"{{"type": "Point", "coordinates": [{longitude}, {latitude}]}}"#);
    assert_eq!(
        error("point.geojson", point.as_bytes()),
        out_of_range(1, None, longitude, latitude)
    );
}

#[test]
fn metres_without_a_crs_are_a_position_out_of_range() {
    assert_point_out_of_range("451234", "123456");
}

#[test]
fn a_geojson_position_out_of_range_is_named_with_its_feature() {
    // The second feature, by its name (Natural Earth writes it `NAME`); the first has none.
    let features = br#"{"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"pop": 3},
         "geometry": {"type": "Point", "coordinates": [-1.3, 50.7]}},
        {"type": "Feature", "properties": null, "geometry": null},
        {"type": "Feature", "properties": {"NAME": "Pacific"},
         "geometry": {"type": "LineString", "coordinates": [[170, 10], [190.5, 10]]}}
    ]}"#;
    assert_eq!(
        error("area.geojson", features),
        out_of_range(3, Some("Pacific"), "190.5", "10")
    );
    let latitude = br#"{"type": "Feature", "properties": {"name": 7},
        "geometry": {"type": "Point", "coordinates": [0, -90.5]}}"#;
    assert_eq!(
        error("area.geojson", latitude),
        out_of_range(1, None, "0", "-90.5")
    );
}

#[test]
fn floating_point_noise_past_the_antimeridian_and_the_poles_is_no_error() {
    // 180.00000000000006 is Natural Earth's; up to 1e-6° (10 cm) past is taken as noise.
    for (longitude, latitude) in [
        ("180.00000000000006", "71.5"),
        ("-180.000001", "-16"),
        ("0", "-90.0000000001"),
        ("0", "90.000001"),
    ] {
        let far = format!(
            r#"{{"type": "GeometryCollection", "geometries": [
                {{"type": "Point", "coordinates": [{longitude}, {latitude}]}},
                {{"type": "Point", "coordinates": [-1.3, 50.7]}}]}}"#
        );
        let boundary = read_boundary("far.geojson", far.as_bytes(), LIMIT).unwrap();
        assert_eq!(coverage(&boundary), (vec!["SZ"], true), "{far}");
    }
    assert_point_out_of_range("180.00001", "0");
}

#[test]
fn a_kml_or_gpx_position_out_of_range_is_named_with_its_feature() {
    let kml = br#"<kml><Document><name>Places</name>
        <Placemark><name>Home</name><Point><coordinates>-1.3,50.7</coordinates></Point></Placemark>
        <Placemark><name>Sea &amp; sky</name><LineString><coordinates>
          -1.3,50.7 -1.3,95
        </coordinates></LineString></Placemark></Document></kml>"#;
    assert_eq!(
        error("places.kml", kml),
        out_of_range(2, Some("Sea & sky"), "-1.3", "95")
    );
    let gpx = br#"<gpx><wpt lat="50.7" lon="-1.3"><name>Start</name></wpt>
        <trk><name>Walk</name><trkseg><trkpt lat="50.7" lon="-1.3"/><trkpt lat="50.8" lon="-181"/></trkseg></trk>
        </gpx>"#;
    assert_eq!(
        error("walk.gpx", gpx),
        out_of_range(2, None, "-181", "50.8")
    );
}

#[test]
fn a_shapefile_in_longitude_and_latitude_names_its_record_out_of_range() {
    let far = [(10.0, 0.0), (200.0, 0.0), (10.0, 10.0), (10.0, 0.0)];
    let (shp, dbf) = polygons_shapefile(&[&COTSWOLDS, &far]);
    let zipped = zipped_shapefile(&shp, &dbf, WGS84_PRJ);
    assert_eq!(error("a.zip", &zipped), out_of_range(2, None, "200", "0"));
    // In British National Grid metres the same numbers are metres from the grid's origin.
    let zipped = zipped_shapefile(&shp, &dbf, BNG_PRJ);
    let boundary = read_boundary("a.zip", &zipped, LIMIT).unwrap();
    assert_eq!(coverage(&boundary), (vec!["SV"], true));
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
    let zipped = zipped_shapefile(&padded, &dbf, WGS84_PRJ);
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
