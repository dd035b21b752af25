//! The same boundary in every format picks the same squares.

use area_shapes::{FileKind, read_boundary};

use crate::common::{
    BNG_PRJ, COTSWOLDS, LIMIT, ROUND_THE_CORNER, WGS84_PRJ, coverage, fixture, polygon_shapefile,
    read, zip, zipped_cotswolds,
};

fn round_the_corner() -> (Vec<&'static str>, bool) {
    (ROUND_THE_CORNER.to_vec(), false)
}

/// The Cotswolds fixtures in the text formats, with the kind each is read as.
const TEXT_FIXTURES: [(&str, FileKind); 3] = [
    ("cotswolds.geojson", FileKind::GeoJson),
    ("cotswolds.kml", FileKind::Kml),
    ("cotswolds.gpx", FileKind::Gpx),
];

#[test]
fn geojson_kml_and_gpx_pick_the_same_squares() {
    for (name, kind) in TEXT_FIXTURES {
        let boundary = read(name).unwrap();
        assert_eq!(boundary.kind(), kind, "{name}");
        assert_eq!(coverage(&boundary), round_the_corner(), "{name}");
    }
}

#[test]
fn a_zipped_shapefile_in_longitude_and_latitude_picks_the_same_squares() {
    let (shp, dbf) = polygon_shapefile(&COTSWOLDS);
    // In a folder, its names in capitals, as some tools write them.
    let zipped = zip(&[
        ("cotswolds/COTSWOLDS.SHP", &shp),
        ("cotswolds/COTSWOLDS.DBF", &dbf),
        ("cotswolds/COTSWOLDS.PRJ", WGS84_PRJ.as_bytes()),
    ]);
    let boundary = read_boundary("cotswolds.zip", &zipped, LIMIT).unwrap();
    assert_eq!(boundary.kind(), FileKind::ZippedShapefile);
    assert_eq!(coverage(&boundary), round_the_corner());
}

#[test]
fn a_shapefile_on_the_british_national_grid_is_read_in_metres() {
    // 370 km to 430 km east, 180 km to 230 km north: round the same corner.
    let ring = [
        (370_000.0, 180_000.0),
        (370_000.0, 230_000.0),
        (430_000.0, 230_000.0),
        (430_000.0, 180_000.0),
        (370_000.0, 180_000.0),
    ];
    let (shp, dbf) = polygon_shapefile(&ring);
    let zipped = zip(&[
        ("area.shp", &shp),
        ("area.dbf", &dbf),
        ("area.prj", BNG_PRJ.as_bytes()),
        // What macOS adds to the zips it makes, not a second shapefile.
        ("__MACOSX/._area.shp", b"\0\x05\x16\x07"),
    ]);
    let boundary = read_boundary("area.zip", &zipped, LIMIT).unwrap();
    assert_eq!(coverage(&boundary), round_the_corner());
}

#[test]
fn a_kmz_is_read_as_the_kml_inside_it() {
    let kmz = zip(&[("doc.kml", &fixture("cotswolds.kml"))]);
    let boundary = read_boundary("cotswolds.kmz", &kmz, LIMIT).unwrap();
    assert_eq!(boundary.kind(), FileKind::Kml);
    assert_eq!(coverage(&boundary), round_the_corner());
}

#[test]
fn a_file_with_another_extension_is_known_by_its_content() {
    for (fixture_name, kind) in TEXT_FIXTURES {
        let boundary = read_boundary("boundary.txt", &fixture(fixture_name), LIMIT).unwrap();
        assert_eq!(boundary.kind(), kind, "{fixture_name}");
        assert_eq!(coverage(&boundary), round_the_corner(), "{fixture_name}");
    }
    let boundary = read_boundary("download", &zipped_cotswolds(), LIMIT).unwrap();
    assert_eq!(boundary.kind(), FileKind::ZippedShapefile);
}

#[test]
fn kml_reads_inner_boundaries_as_holes() {
    // 4° W to 0° and 51° N to 52.7° N, less a hole from 2.1° W to 0.4° W and 51.65° N to
    // 52.65° N: 393 km to 511 km east and 194 km to 306 km north, a little more than all
    // of SP. SP is not picked; SO west of it and TL east of it are.
    let kml = r#"<kml><Placemark><Polygon>
        <outerBoundaryIs><LinearRing><coordinates>
          -4,51 0,51 0,52.7 -4,52.7 -4,51
        </coordinates></LinearRing></outerBoundaryIs>
        <innerBoundaryIs><LinearRing><coordinates>
          -2.1,51.65 -0.4,51.65 -0.4,52.65 -2.1,52.65 -2.1,51.65
        </coordinates></LinearRing></innerBoundaryIs>
      </Polygon></Placemark></kml>"#;
    let boundary = read_boundary("holed.kml", kml.as_bytes(), LIMIT).unwrap();
    let (squares, outside) = coverage(&boundary);
    assert!(!squares.contains(&"SP"), "{squares:?}");
    assert!(
        squares.contains(&"SO") && squares.contains(&"TL"),
        "{squares:?}"
    );
    assert!(!outside);
}
