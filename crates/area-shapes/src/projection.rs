//! WGS84 longitude and latitude to the British National Grid (EPSG:27700), by the formulae
//! of Ordnance Survey's "A guide to coordinate systems in Great Britain": the point to
//! earth-centred cartesian coordinates on GRS80, OS's seven-parameter Helmert
//! transformation to OSGB36, back to latitude and longitude on Airy 1830, then the
//! National Grid's transverse Mercator (the guide's annex C series).
//!
//! Written out here rather than taken from proj4rs: on wasm32 proj4rs always exports its
//! own JavaScript API (`Projection`, `transform`, …), which would sit in the app's main
//! module whether used or not, and this is forty lines.

use std::f64::consts::PI;

use geo::Coord;

use crate::{BngPoint, ShapeError};

/// An ellipsoid's semi-major and semi-minor axes, in metres.
struct Ellipsoid {
    a: f64,
    b: f64,
}

impl Ellipsoid {
    /// The first eccentricity squared.
    fn e2(&self) -> f64 {
        1.0 - (self.b * self.b) / (self.a * self.a)
    }
}

/// ETRS89's ellipsoid; WGS84 is within a metre of ETRS89 in Great Britain.
const GRS80: Ellipsoid = Ellipsoid {
    a: 6_378_137.0,
    b: 6_356_752.314_140,
};

/// OSGB36's ellipsoid.
const AIRY_1830: Ellipsoid = Ellipsoid {
    a: 6_377_563.396,
    b: 6_356_256.909,
};

/// ETRS89 to OSGB36 (the guide's table 4): translations in metres, rotations in
/// arc-seconds, scale in parts per million.
const TRANSLATION: [f64; 3] = [-446.448, 125.157, -542.060];
const ROTATION: [f64; 3] = [-0.1502, -0.2470, -0.8421];
const SCALE_PPM: f64 = 20.4894;

/// The National Grid: scale on the central meridian, true origin (degrees) and its
/// easting and northing (metres).
const F0: f64 = 0.999_601_271_7;
const LATITUDE_0: f64 = 49.0;
const LONGITUDE_0: f64 = -2.0;
const E0: f64 = 400_000.0;
const N0: f64 = -100_000.0;

/// How far from the central meridian (degrees of longitude) and which latitudes the
/// projection is asked about. The series is exact to the millimetre across Great Britain
/// and still smooth out here; further points are moved onto this box's edge, which lies
/// far beyond the grid, so they still count as outside and a polygon around Great Britain
/// still holds it.
const LONGITUDE_REACH: f64 = 30.0;
const LATITUDES: (f64, f64) = (30.0, 85.0);

/// A coordinate that is not a longitude and latitude.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotLonLat;

/// Longitudes and latitudes in degrees to eastings and northings in metres, in place.
pub(crate) fn project(coords: &mut [Coord]) -> Result<(), NotLonLat> {
    for coord in coords {
        if !(coord.x.abs() <= 180.0 && coord.y.abs() <= 90.0) {
            return Err(NotLonLat);
        }
        let longitude = coord
            .x
            .clamp(LONGITUDE_0 - LONGITUDE_REACH, LONGITUDE_0 + LONGITUDE_REACH);
        let latitude = coord.y.clamp(LATITUDES.0, LATITUDES.1);
        let (latitude, longitude) = etrs89_to_osgb36(latitude.to_radians(), longitude.to_radians());
        *coord = national_grid(latitude, longitude);
    }
    Ok(())
}

/// WGS84 longitude and latitude in degrees to the British National Grid, as the reader
/// projects files. Not a longitude and latitude, or more than 30° of longitude from the
/// grid's central meridian (2° W) or outside 30° N to 85° N: nowhere near Great Britain,
/// [`ShapeError::OutsideGreatBritain`].
pub fn to_bng(longitude: f64, latitude: f64) -> Result<BngPoint, ShapeError> {
    let near = (longitude - LONGITUDE_0).abs() <= LONGITUDE_REACH
        && (LATITUDES.0..=LATITUDES.1).contains(&latitude);
    if !near {
        return Err(ShapeError::OutsideGreatBritain);
    }
    let mut coords = [Coord {
        x: longitude,
        y: latitude,
    }];
    project(&mut coords).map_err(|NotLonLat| ShapeError::OutsideGreatBritain)?;
    Ok(BngPoint {
        easting: coords[0].x,
        northing: coords[0].y,
    })
}

/// Latitude and longitude (radians) on ETRS89 to the same on OSGB36, at the ellipsoid's
/// surface (heights move a point sideways by millimetres here).
fn etrs89_to_osgb36(latitude: f64, longitude: f64) -> (f64, f64) {
    // To cartesian (the guide's B1–B3), with h = 0.
    let e2 = GRS80.e2();
    let (sin_lat, cos_lat) = latitude.sin_cos();
    let nu = GRS80.a / (1.0 - e2 * sin_lat * sin_lat).sqrt();
    let [x, y, z] = [
        nu * cos_lat * longitude.cos(),
        nu * cos_lat * longitude.sin(),
        (1.0 - e2) * nu * sin_lat,
    ];
    // Helmert (6.3).
    let s = SCALE_PPM * 1e-6;
    let [rx, ry, rz] = ROTATION.map(|seconds| seconds / 3600.0 * PI / 180.0);
    let [tx, ty, tz] = TRANSLATION;
    let x2 = tx + (1.0 + s) * x - rz * y + ry * z;
    let y2 = ty + rz * x + (1.0 + s) * y - rx * z;
    let z2 = tz - ry * x + rx * y + (1.0 + s) * z;
    // Back to latitude and longitude on Airy 1830, by Bowring's formula (good to well
    // under a millimetre this close to the ellipsoid, with no iterating).
    let Ellipsoid { a, b } = AIRY_1830;
    let e2 = AIRY_1830.e2();
    let second_e2 = (a * a - b * b) / (b * b);
    // Not `hypot`: libm's is correctly rounded with a software fused multiply-add, which
    // wasm lacks; it took most of a slice's time in the browser (cargo xtask bench
    // shapes). Here x and y are near 4e6 m: no overflow, and within an ulp.
    let p = (x2 * x2 + y2 * y2).sqrt();
    let (sin_t, cos_t) = (z2 * a).atan2(p * b).sin_cos();
    let latitude = (z2 + second_e2 * b * sin_t.powi(3)).atan2(p - e2 * a * cos_t.powi(3));
    (latitude, y2.atan2(x2))
}

/// The National Grid's transverse Mercator of OSGB36 latitude and longitude (radians),
/// the guide's equations C1–C3 (Redfearn's series).
fn national_grid(latitude: f64, longitude: f64) -> Coord {
    let Ellipsoid { a, b } = AIRY_1830;
    let e2 = AIRY_1830.e2();
    let (phi, phi0) = (latitude, LATITUDE_0.to_radians());
    let n = (a - b) / (a + b);
    let (n2, n3) = (n * n, n * n * n);
    let (sin, cos) = phi.sin_cos();
    let tan2 = (sin / cos).powi(2);
    let w = 1.0 - e2 * sin * sin;
    let nu = a * F0 / w.sqrt();
    let rho = nu * (1.0 - e2) / w;
    let eta2 = nu / rho - 1.0;
    // The meridional arc (C3), its sines and cosines of multiple angles from one of each.
    let (sin_d, cos_d) = (phi - phi0).sin_cos();
    let cos_s = (phi + phi0).cos();
    let sin_2d = 2.0 * sin_d * cos_d;
    let cos_2s = 2.0 * cos_s * cos_s - 1.0;
    let sin_3d = sin_d * (3.0 - 4.0 * sin_d * sin_d);
    let cos_3s = cos_s * (4.0 * cos_s * cos_s - 3.0);
    let m = b
        * F0
        * ((1.0 + n + 5.0 / 4.0 * n2 + 5.0 / 4.0 * n3) * (phi - phi0)
            - (3.0 * n + 3.0 * n2 + 21.0 / 8.0 * n3) * sin_d * cos_s
            + (15.0 / 8.0 * n2 + 15.0 / 8.0 * n3) * sin_2d * cos_2s
            - 35.0 / 24.0 * n3 * sin_3d * cos_3s);
    let i = m + N0;
    let ii = nu / 2.0 * sin * cos;
    let iii = nu / 24.0 * sin * cos.powi(3) * (5.0 - tan2 + 9.0 * eta2);
    let iii_a = nu / 720.0 * sin * cos.powi(5) * (61.0 - 58.0 * tan2 + tan2 * tan2);
    let iv = nu * cos;
    let v = nu / 6.0 * cos.powi(3) * (nu / rho - tan2);
    let vi = nu / 120.0
        * cos.powi(5)
        * (5.0 - 18.0 * tan2 + tan2 * tan2 + 14.0 * eta2 - 58.0 * tan2 * eta2);
    let l = longitude - LONGITUDE_0.to_radians();
    Coord {
        x: E0 + iv * l + v * l.powi(3) + vi * l.powi(5),
        y: i + ii * l.powi(2) + iii * l.powi(4) + iii_a * l.powi(6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn degrees(d: f64, m: f64, s: f64) -> f64 {
        (d + m / 60.0 + s / 3600.0).to_radians()
    }

    /// The projection alone against published worked examples, on OSGB36 itself (no datum
    /// shift), so to the millimetre or the centimetre they are given to.
    #[test]
    fn the_grid_projection_matches_the_published_worked_examples() {
        // OS's "A guide to coordinate systems in Great Britain", annex C.
        let os = national_grid(degrees(52.0, 39.0, 27.2531), degrees(1.0, 43.0, 4.5177));
        assert!((os.x - 651_409.903).abs() < 0.001, "{os:?}");
        assert!((os.y - 313_177.270).abs() < 0.001, "{os:?}");
        // EPSG Guidance Note 7-2, Transverse Mercator (9807) for the National Grid.
        let epsg = national_grid(degrees(50.0, 30.0, 0.0), degrees(0.0, 30.0, 0.0));
        assert!((epsg.x - 577_274.99).abs() < 0.01, "{epsg:?}");
        assert!((epsg.y - 69_740.50).abs() < 0.01, "{epsg:?}");
    }

    #[test]
    fn what_is_not_near_great_britain_is_outside_it() {
        assert_eq!(
            to_bng(450_000.0, 120_000.0),
            Err(ShapeError::OutsideGreatBritain)
        );
        assert_eq!(to_bng(f64::NAN, 51.0), Err(ShapeError::OutsideGreatBritain));
        assert_eq!(to_bng(151.2, -33.9), Err(ShapeError::OutsideGreatBritain));
    }

    #[test]
    fn points_far_away_land_far_beyond_the_grid() {
        // Sydney and the North Pole are moved onto the box's edge: still far outside.
        let mut coords = [Coord { x: 151.2, y: -33.9 }, Coord { x: 0.0, y: 90.0 }];
        project(&mut coords).unwrap();
        assert!(
            coords[0].x > 1_500_000.0 || coords[0].y < -1_000_000.0,
            "{coords:?}"
        );
        assert!(coords[1].y > 3_000_000.0, "{coords:?}");
        assert_eq!(project(&mut [Coord { x: 200.0, y: 0.0 }]), Err(NotLonLat));
    }
}
