//! Real public boundary files (tests/fixtures, made from them by tools/boundary-check,
//! whose README gives their sources and licences). The squares expected were worked out
//! by that tool's check.py with pyproj and shapely, not by this crate.

use area_shapes::{FileKind, ShapeError, read_boundary};

use crate::common::{LIMIT, coverage, fixture, read};

/// What pyproj and shapely say Natural Earth's United Kingdom, Ireland and France touch
/// (the rest of the file is far away), in `GridSquare::all()` order.
const NATURAL_EARTH_SQUARES: [&str; 44] = [
    "NB", "NC", "ND", "NG", "NH", "NJ", "NK", "NM", "NN", "NO", "NR", "NS", "NT", "NU", "NW", "NX",
    "NY", "NZ", "OV", "SD", "SE", "TA", "SH", "SJ", "SK", "TF", "TG", "SM", "SN", "SO", "SP", "TL",
    "TM", "SR", "SS", "ST", "SU", "TQ", "TR", "SW", "SX", "SY", "SZ", "TV",
];

#[test]
fn natural_earths_countries_read_past_the_antimeridian_and_the_poles() {
    let geojson = fixture("natural-earth-countries.geojson");
    // The quirk the file is here for: Russia a hair past the antimeridian.
    let text = String::from_utf8_lossy(&geojson);
    assert!(text.contains("[180.00000000000006, 71.51571433642829]"));
    assert!(text.contains("-90.0]") && text.contains("[-180.0, "));
    for (name, kind) in [
        ("natural-earth-countries.geojson", FileKind::GeoJson),
        // The shapefile in a folder, with its .cpg (ISO-8859-1) and WGS84 .prj.
        ("natural-earth-countries.zip", FileKind::ZippedShapefile),
    ] {
        let boundary = read(name).unwrap();
        assert_eq!(boundary.kind(), kind, "{name}");
        assert_eq!(
            coverage(&boundary),
            (NATURAL_EARTH_SQUARES.to_vec(), true),
            "{name}"
        );
    }
}

#[test]
fn natural_earths_far_countries_alone_are_wholly_outside() {
    // Fiji (across the antimeridian, south of the equator), Russia's parts at the
    // antimeridian and Kaliningrad, and Antarctica round the South Pole.
    let document: serde_json::Value =
        serde_json::from_slice(&fixture("natural-earth-countries.geojson")).unwrap();
    for name in ["Fiji", "Russia", "Antarctica"] {
        let feature = document["features"]
            .as_array()
            .unwrap()
            .iter()
            .find(|feature| feature["properties"]["name"] == name)
            .unwrap();
        let bytes = serde_json::to_vec(feature).unwrap();
        assert_eq!(
            read_boundary("far.geojson", &bytes, LIMIT).unwrap_err(),
            ShapeError::OutsideGreatBritain,
            "{name}"
        );
    }
}

#[test]
fn a_shapefile_in_austrias_lambert_projection_is_refused_by_name() {
    // AvaFrame's release area, zipped in a folder with a .cpg, as pyshp's tests ship it.
    assert_eq!(
        read("mgi-austria-lambert.zip").unwrap_err(),
        ShapeError::UnknownProjection("MGI_Austria_Lambert".into())
    );
}
