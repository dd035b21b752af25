//! Which squares boundaries touch: exact intersections, worked out from the grid.
//!
//! The grid, 100 km squares by easting (columns, from 0) and northing (rows):
//!
//! ```text
//!  2  .. SM SN SO SP TL TM
//!  1  .. SR SS ST SU TQ TR
//!  0  SV SW SX SY SZ TV ..
//! ```

use area_shapes::{FileKind, GridSquare, ShapeError, read_boundary};

use crate::common::{LIMIT, coverage, read};

#[test]
fn the_isle_of_wight_lies_in_sz_alone() {
    // Its outline runs from 429 km to 466 km east and 75 km to 97 km north: all in SZ.
    let wight = read("wight.geojson").unwrap();
    assert_eq!(wight.kind(), FileKind::GeoJson);
    assert_eq!(coverage(&wight), (vec!["SZ"], false));
}

#[test]
fn a_boundary_across_the_100_km_northing_picks_su_and_sz() {
    // 428 km to 456 km east, 91 km to 117 km north.
    assert_eq!(
        coverage(&read("solent.geojson").unwrap()),
        (vec!["SU", "SZ"], false)
    );
}

#[test]
fn a_square_wholly_inside_a_hole_is_not_picked() {
    // 250 km to 550 km east and 50 km to 350 km north (British National Grid metres): the
    // columns of SX to TV and the rows of SX to SH, but SP, inside the hole from 395 km to
    // 505 km both ways. The squares the hole's edge crosses stay picked: the polygon's area
    // still meets them.
    let holed = read("holed.geojson").unwrap();
    let expected = [
        "SH", "SJ", "SK", "TF", "SN", "SO", "TL", "SS", "ST", "SU", "TQ", "SX", "SY", "SZ", "TV",
    ];
    assert_eq!(coverage(&holed), (expected.to_vec(), false));
}

#[test]
fn a_line_from_london_to_bristol_picks_the_squares_it_crosses() {
    // Charing Cross (530 km, 180 km, in TQ) to Bristol (359 km, 173 km, in ST): due west
    // along the 100 km to 200 km row, through SU.
    let line = read("london-bristol.geojson").unwrap();
    assert_eq!(coverage(&line), (vec!["ST", "SU", "TQ"], false));
}

/// A GeoJSON document in British National Grid metres.
fn bng(geometry: &str) -> String {
    format!(
        r#"{{"type": "Feature", "properties": null, "geometry": {geometry},
            "crs": {{"type": "name", "properties": {{"name": "EPSG:27700"}}}}}}"#
    )
}

fn read_bng(geometry: &str) -> Result<(Vec<&'static str>, bool), ShapeError> {
    read_boundary("shape.geojson", bng(geometry).as_bytes(), LIMIT).map(|b| coverage(&b))
}

#[test]
fn a_point_picks_the_square_it_lies_in() {
    let point = r#"{"type": "Point", "coordinates": [451234, 123456]}"#;
    assert_eq!(read_bng(point), Ok((vec!["SU"], false)));
}

#[test]
fn a_shape_ending_on_a_grid_line_does_not_pick_the_neighbour() {
    // The square SU itself, to the metre: not TQ east of it or SP north of it, nor SY or
    // SZ below.
    let su = r#"{"type": "Polygon", "coordinates":
        [[[400000, 100000], [500000, 100000], [500000, 200000], [400000, 200000], [400000, 100000]]]}"#;
    assert_eq!(read_bng(su), Ok((vec!["SU"], false)));
    // A line from inside SU east to the TQ line, and one from inside TQ west to the SU
    // line: each stays in its square.
    let east = r#"{"type": "LineString", "coordinates": [[450000, 150000], [500000, 150000]]}"#;
    let west = r#"{"type": "LineString", "coordinates": [[550000, 150000], [500000, 150000]]}"#;
    assert_eq!(read_bng(east), Ok((vec!["SU"], false)));
    assert_eq!(read_bng(west), Ok((vec!["TQ"], false)));
}

#[test]
fn every_part_of_a_multi_polygon_counts() {
    // One part in SZ and one round Edinburgh in NT (300 km to 400 km, 600 km to 700 km).
    let parts = r#"{"type": "MultiPolygon", "coordinates": [
        [[[440000, 80000], [460000, 80000], [460000, 90000], [440000, 80000]]],
        [[[320000, 660000], [330000, 660000], [330000, 680000], [320000, 660000]]]]}"#;
    assert_eq!(read_bng(parts), Ok((vec!["NT", "SZ"], false)));
}

#[test]
fn a_point_far_out_at_sea_is_outside_great_britain() {
    // 4.5° E 55° N, in the North Sea: 816 km east, beyond the grid.
    let sea = br#"{"type": "Point", "coordinates": [4.5, 55.0]}"#;
    assert_eq!(
        read_boundary("sea.geojson", sea, LIMIT),
        Err(ShapeError::OutsideGreatBritain)
    );
}

#[test]
fn a_shape_partly_outside_the_squares_says_so() {
    // London and Amsterdam (870 km east).
    let points = br#"{"type": "MultiPoint", "coordinates": [[-0.1276, 51.5072], [4.9, 52.37]]}"#;
    let boundary = read_boundary("two.geojson", points, LIMIT).unwrap();
    assert_eq!(coverage(&boundary), (vec!["TQ"], true));
    // A line from TG east past the grid's edge at 700 km.
    let line = r#"{"type": "LineString", "coordinates": [[650000, 350000], [750000, 350000]]}"#;
    assert_eq!(read_bng(line), Ok((vec!["TG"], true)));
    // A polygon reaching from TV into the sea cell east of it, which no square covers.
    let corner = r#"{"type": "Polygon", "coordinates":
        [[[550000, 50000], [650000, 50000], [650000, 60000], [550000, 50000]]]}"#;
    assert_eq!(read_bng(corner), Ok((vec!["TV"], true)));
}

#[test]
fn a_geometry_collection_mixes_points_lines_and_polygons() {
    let mixed = r#"{"type": "GeometryCollection", "geometries": [
        {"type": "Point", "coordinates": [50000, 50000]},
        {"type": "MultiLineString", "coordinates": [[[150000, 150000], [160000, 160000]]]},
        {"type": "Polygon", "coordinates": [[[610000, 310000], [620000, 310000], [620000, 320000], [610000, 310000]]]}]}"#;
    assert_eq!(read_bng(mixed), Ok((vec!["TG", "SR", "SV"], false)));
}

#[test]
fn shapes_across_the_antimeridian_stay_far_from_great_britain() {
    // Not cut there as RFC 7946 asks: an island from 179° E to 179° W, and a flight over
    // it, 17,000 km from Britain. Taken straight, their edges would run through it.
    let island = r#"{"type": "Polygon",
        "coordinates": [[[179, 52], [-179, 52], [-179, 53], [179, 53], [179, 52]]]}"#;
    let flight = r#"{"type": "LineString", "coordinates": [[170, 52.5], [-170, 52.5]]}"#;
    for far in [island, flight] {
        assert_eq!(
            read_boundary("far.geojson", far.as_bytes(), LIMIT).unwrap_err(),
            ShapeError::OutsideGreatBritain,
            "{far}"
        );
    }
    // A GPX track across the Pacific beside a waypoint in Southampton (SU 42 12).
    let gpx = br#"<gpx><wpt lat="50.9" lon="-1.4"/><trk><trkseg>
        <trkpt lat="35.5" lon="139.8"/><trkpt lat="45" lon="179.5"/>
        <trkpt lat="46" lon="-179.5"/><trkpt lat="33.9" lon="-118.4"/>
        </trkseg></trk></gpx>"#;
    let boundary = read_boundary("pacific.gpx", gpx, LIMIT).unwrap();
    assert_eq!(coverage(&boundary), (vec!["SU"], true));
}

#[test]
fn a_ring_round_a_pole_across_the_antimeridian_holds_what_it_goes_round() {
    // At 45° N, round the North Pole: all of Great Britain is inside.
    let north = r#"{"type": "Polygon", "coordinates": [[[-90, 45], [0, 45], [90, 45],
        [170, 45], [-170, 45], [-90, 45]]]}"#;
    let boundary = read_boundary("arctic.geojson", north.as_bytes(), LIMIT).unwrap();
    let all: Vec<&str> = GridSquare::all().map(|square| square.code()).collect();
    assert_eq!(coverage(&boundary), (all, true));
    // At 70° S, round the South Pole: none of it.
    let south = r#"{"type": "Polygon", "coordinates": [[[-90, -70], [0, -70], [90, -70],
        [170, -70], [-170, -70], [-90, -70]]]}"#;
    assert_eq!(
        read_boundary("antarctic.geojson", south.as_bytes(), LIMIT).unwrap_err(),
        ShapeError::OutsideGreatBritain
    );
}
