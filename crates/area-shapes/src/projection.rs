//! WGS84 longitude and latitude to the British National Grid (EPSG:4326 to EPSG:27700),
//! by proj4rs: OS's seven-parameter Helmert transformation (the grid's `towgs84`) and the
//! National Grid's transverse Mercator on Airy 1830.
//!
//! Within 4.94 m of OS's definitive OSTN15 over its 40 test points (the worst at St Kilda;
//! `tests/all/projection.rs`): ample for picking 100 km squares, where metres matter only
//! for a shape within metres of a grid line.

use std::sync::LazyLock;

use geo::Coord;
use proj4rs::Proj;
use proj4rs::transform::{Transform, TransformClosure, transform};

use crate::shapes::{PartKind, Shapes};
use crate::{BngPoint, ShapeError};

/// EPSG:4326.
const WGS84: &str = "+proj=longlat +datum=WGS84 +no_defs";

/// EPSG:27700, as PROJ writes it.
const BRITISH_NATIONAL_GRID: &str = "+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 \
    +x_0=400000 +y_0=-100000 +ellps=airy \
    +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs";

/// Both ends, parsed once (fixed strings: the tests show they parse).
static PROJS: LazyLock<(Proj, Proj)> = LazyLock::new(|| {
    let parse = |s| Proj::from_proj_string(s).expect("a fixed, valid proj string");
    (parse(WGS84), parse(BRITISH_NATIONAL_GRID))
});

/// The grid's central meridian, in degrees.
const LONGITUDE_0: f64 = -2.0;

/// How far from the central meridian (degrees of longitude) and which latitudes the
/// projection is asked about: further points are moved onto this box's edge, which lies
/// far beyond the grid, so they still count as outside and a polygon around Great Britain
/// still holds it (and the transverse Mercator, which fails 90° from its meridian, never
/// sees them).
const LONGITUDE_REACH: f64 = 30.0;
const LATITUDES: (f64, f64) = (30.0, 85.0);

/// How far past ±180° of longitude or ±90° of latitude a coordinate may be and still count
/// as one, in degrees (about 10 cm): floating-point noise in real data, such as Natural
/// Earth's 180.00000000000006 on Russia's side of the antimeridian. Such a point is moved
/// onto the projection's box like any other far from Great Britain.
const NOISE: f64 = 1e-6;

/// Whether a coordinate is a longitude and latitude in degrees (up to [`NOISE`] past the
/// limits). Not `NaN` nor infinite.
pub(crate) fn is_lon_lat(coord: Coord) -> bool {
    coord.x.abs() <= 180.0 + NOISE && coord.y.abs() <= 90.0 + NOISE
}

/// The shapes with each edge that jumps more than 180° of longitude taken the short way,
/// across the antimeridian, as such a file means it (RFC 7946 §3.1.9 asks for such shapes
/// to be cut there, and a GPX track from Japan to America runs straight from 179.9° to
/// −179.9°): a line is cut where it crosses, and a ring goes round by the pole on its side
/// of the equator, along the antimeridian. Clamped onto the projection's box, that way
/// round stays far from Great Britain; the straight edge would cross it. An edge along the
/// ±180° seam itself, from one side to the other (at a pole, as Natural Earth's Antarctica
/// has it), is left as it is.
pub(crate) fn round_the_antimeridian(shapes: Shapes) -> Shapes {
    // Most files cross nowhere: they are kept as they are, not copied.
    let crosses = shapes.iter().any(|(kind, coords)| {
        let ends = coords.iter().skip(1).chain(closing(kind, coords));
        kind != PartKind::Points
            && (coords.iter().zip(ends)).any(|(&a, &b)| crossing(a, b).is_some())
    });
    if !crosses {
        return shapes;
    }
    let mut round = Shapes::default();
    for (kind, coords) in shapes.iter() {
        if kind == PartKind::Points {
            round.add(kind, coords.iter().copied());
            continue;
        }
        let mut part: Vec<Coord> = Vec::with_capacity(coords.len());
        let ring = matches!(kind, PartKind::Ring { .. });
        for (index, &at) in coords.iter().chain(closing(kind, coords)).enumerate() {
            match part.last().and_then(|&before| crossing(before, at)) {
                None => {}
                Some(Crossing { from, to, pole }) if ring => {
                    part.extend([from, Coord { x: from.x, y: pole }]);
                    part.extend([Coord { x: to.x, y: pole }, to]);
                }
                Some(Crossing { from, to, .. }) => {
                    part.push(from);
                    round.add(kind, part.drain(..));
                    part.push(to);
                }
            }
            if index < coords.len() {
                part.push(at);
            }
        }
        round.add(kind, part);
    }
    round
}

/// A ring's first vertex again, the end of its closing edge; nothing for a line.
fn closing(kind: PartKind, coords: &[Coord]) -> Option<&Coord> {
    matches!(kind, PartKind::Ring { .. })
        .then(|| coords.first())
        .flatten()
}

/// Where an edge crosses the antimeridian: its point on the side it leaves and on the
/// side it reaches, and the latitude of the pole on the crossing's side of the equator.
struct Crossing {
    from: Coord,
    to: Coord,
    pole: f64,
}

/// The crossing of the edge from `a` to `b`, if it jumps more than 180° of longitude and
/// does not run along the seam.
fn crossing(a: Coord, b: Coord) -> Option<Crossing> {
    let on_seam = |at: Coord| at.x.abs() >= 180.0 - NOISE;
    if (b.x - a.x).abs() <= 180.0 || (on_seam(a) && on_seam(b)) {
        return None;
    }
    // The short way, east or west across ±180°: how far each end is from it.
    let (side, a_to_seam) = (180f64.copysign(a.x), 180.0 - a.x.abs());
    let span = a_to_seam + (180.0 - b.x.abs());
    let latitude = a.y + (b.y - a.y) * a_to_seam / span;
    Some(Crossing {
        from: Coord {
            x: side,
            y: latitude,
        },
        to: Coord {
            x: -side,
            y: latitude,
        },
        pole: 90f64.copysign(latitude),
    })
}

/// A coordinate that is not a longitude and latitude.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotLonLat;

/// A slice of coordinates for proj4rs, so one `transform` call takes a whole slice. Heights
/// are taken as 0: they move a point by millimetres here.
struct Coords<'a>(&'a mut [Coord]);

impl Transform for Coords<'_> {
    fn transform_coordinates<F: TransformClosure>(
        &mut self,
        f: &mut F,
    ) -> proj4rs::errors::Result<()> {
        for coord in self.0.iter_mut() {
            let (x, y, _) = f(coord.x, coord.y, 0.0)?;
            *coord = Coord { x, y };
        }
        Ok(())
    }
}

/// Longitudes and latitudes in degrees to eastings and northings in metres, in place.
pub(crate) fn project(coords: &mut [Coord]) -> Result<(), NotLonLat> {
    for coord in coords.iter_mut() {
        if !is_lon_lat(*coord) {
            return Err(NotLonLat);
        }
        *coord = Coord {
            x: coord
                .x
                .clamp(LONGITUDE_0 - LONGITUDE_REACH, LONGITUDE_0 + LONGITUDE_REACH)
                .to_radians(),
            y: coord.y.clamp(LATITUDES.0, LATITUDES.1).to_radians(),
        };
    }
    let (wgs84, grid) = &*PROJS;
    // Within the box proj4rs does not fail; were it to, the points are as unusable as ones
    // that are not longitudes and latitudes.
    transform(wgs84, grid, &mut Coords(coords)).map_err(|_| NotLonLat)
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
    Ok(coords[0].into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn radians(d: f64, m: f64, s: f64) -> f64 {
        (d + m / 60.0 + s / 3600.0).to_radians()
    }

    /// The transverse Mercator alone, from OSGB36 latitude and longitude (no datum shift):
    /// OS's "A guide to coordinate systems in Great Britain", annex C, to the millimetre.
    #[test]
    fn the_grid_projection_matches_the_os_worked_example() {
        let osgb36 = Proj::from_proj_string("+proj=longlat +ellps=airy +no_defs").unwrap();
        let mut point = (
            radians(1.0, 43.0, 4.5177),
            radians(52.0, 39.0, 27.2531),
            0.0,
        );
        transform(&osgb36, &PROJS.1, &mut point).unwrap();
        assert!((point.0 - 651_409.903).abs() < 0.001, "{point:?}");
        assert!((point.1 - 313_177.270).abs() < 0.001, "{point:?}");
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

    fn shapes(parts: &[(PartKind, &[(f64, f64)])]) -> Shapes {
        let mut shapes = Shapes::default();
        for (kind, coords) in parts {
            shapes.add(*kind, coords.iter().map(|&(x, y)| Coord { x, y }));
        }
        shapes
    }

    #[test]
    fn a_line_across_the_antimeridian_is_cut_there() {
        // 1° west of it to 3° east of it: it crosses a quarter of the way, at 50.5° N.
        let line = shapes(&[(PartKind::Line, &[(179.0, 50.0), (-177.0, 52.0)])]);
        let cut = shapes(&[
            (PartKind::Line, &[(179.0, 50.0), (180.0, 50.5)]),
            (PartKind::Line, &[(-180.0, 50.5), (-177.0, 52.0)]),
        ]);
        assert_eq!(round_the_antimeridian(line), cut);
    }

    #[test]
    fn a_ring_across_the_antimeridian_goes_round_by_its_pole() {
        // South of the equator, by the South Pole; the closing edge crosses back.
        let first = PartKind::Ring { first: true };
        let ring = shapes(&[(first, &[(179.0, -10.0), (-179.0, -10.0), (-179.0, -12.0)])]);
        let round = shapes(&[(
            first,
            &[
                (179.0, -10.0),
                (180.0, -10.0),
                (180.0, -90.0),
                (-180.0, -90.0),
                (-180.0, -10.0),
                (-179.0, -10.0),
                (-179.0, -12.0),
                (-180.0, -11.0),
                (-180.0, -90.0),
                (180.0, -90.0),
                (180.0, -11.0),
            ],
        )]);
        assert_eq!(round_the_antimeridian(ring), round);
    }

    #[test]
    fn the_seam_and_points_are_left_as_they_are() {
        // Natural Earth's Antarctica runs along ±180° and the pole; points are no edges.
        let seam = shapes(&[
            (
                PartKind::Ring { first: true },
                &[
                    (180.0, -84.7),
                    (180.0, -90.0),
                    (-180.0, -90.0),
                    (-180.0, -84.7),
                ],
            ),
            (PartKind::Points, &[(179.0, 0.0), (-179.0, 0.0)]),
        ]);
        assert_eq!(round_the_antimeridian(seam.clone()), seam);
    }

    #[test]
    fn floating_point_noise_past_the_limits_is_a_longitude_and_latitude() {
        let noisy = Coord {
            x: 180.00000000000006,
            y: -90.0000000001,
        };
        assert!(is_lon_lat(noisy));
        let mut coords = [noisy];
        project(&mut coords).unwrap();
        assert!(coords[0].y < -1_000_000.0, "{coords:?}");
        assert!(!is_lon_lat(Coord {
            x: 180.00001,
            y: 0.0
        }));
        assert!(!is_lon_lat(Coord {
            x: 0.0,
            y: f64::NAN
        }));
    }
}
