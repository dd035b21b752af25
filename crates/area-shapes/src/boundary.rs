use std::fmt::Write as _;

use geo::{Coord, LineString, Simplify};

use crate::grid::Coverage;
use crate::shapes::{PartKind, Shapes};
use crate::{BngPoint, FileKind};

/// A boundary read from a file, in British National Grid metres, with the squares it
/// touches.
#[derive(Debug, Clone, PartialEq)]
pub struct Boundary {
    pub(crate) kind: FileKind,
    pub(crate) shapes: Shapes,
    pub(crate) coverage: Coverage,
}

impl Boundary {
    pub fn kind(&self) -> FileKind {
        self.kind
    }

    /// The squares it touches, and whether any part of it lies outside them.
    pub fn coverage(&self) -> Coverage {
        self.coverage.clone()
    }

    /// SVG path data for drawing it over the map, simplified (Ramer–Douglas–Peucker) to
    /// `tolerance_m`: x = easting / 1000, y = 1300 − northing / 1000 (km, north up), to
    /// 10 m. Rings are closed with `Z`, for an even–odd fill. A point, or a ring or line
    /// that simplifies to one, is `M x y h0`: a dot where the stroke has round or square
    /// caps (`stroke-linecap`).
    pub fn outline(&self, tolerance_m: f64) -> String {
        let tolerance = if tolerance_m > 0.0 { tolerance_m } else { 0.0 };
        let mut path = String::new();
        for (kind, coords) in self.shapes.iter() {
            match kind {
                PartKind::Points => coords.iter().for_each(|&at| dot(&mut path, at)),
                PartKind::Line => {
                    let line = LineString::from(thinned(coords, tolerance)).simplify(tolerance);
                    draw(&mut path, &line.0, false);
                }
                PartKind::Ring { .. } => {
                    let mut ring = LineString::from(thinned(coords, tolerance));
                    ring.close();
                    draw(&mut path, &ring.simplify(tolerance).0, true);
                }
            }
        }
        path
    }
}

/// The vertices less than half `tolerance` from the last one kept dropped (the first and
/// last kept): Ramer–Douglas–Peucker then has a few thousand vertices of a detailed
/// coast, not hundreds of thousands. geo's distances use libm's `hypot`, slow in wasm
/// (a software fused multiply-add): without this the outline of a 5 MB boundary took
/// 100 to 500 ms of one browser task (cargo xtask bench shapes). The drawing stays
/// within 1.5 times `tolerance`.
fn thinned(coords: &[Coord], tolerance: f64) -> Vec<Coord> {
    let least = (tolerance / 2.0) * (tolerance / 2.0);
    let mut kept: Vec<Coord> = Vec::new();
    for (index, &at) in coords.iter().enumerate() {
        let far = kept.last().is_none_or(|&last| {
            let d = at - last;
            d.x * d.x + d.y * d.y >= least
        });
        if far || index + 1 == coords.len() {
            kept.push(at);
        }
    }
    kept
}

/// Writes a line or ring, or a dot when nothing of it is longer than the tolerance.
fn draw(path: &mut String, coords: &[Coord], ring: bool) {
    // A ring keeps its closing vertex (the first again): `Z` draws that edge.
    let coords = if ring {
        &coords[..coords.len().saturating_sub(1)]
    } else {
        coords
    };
    let Some(&first) = coords.first() else {
        return;
    };
    let fewest = if ring { 3 } else { 2 };
    if coords.len() < fewest || coords.iter().all(|&at| at == first) {
        dot(path, first);
        return;
    }
    let _ = write!(path, "M{}L", Km(first));
    for (index, &at) in coords[1..].iter().enumerate() {
        let gap = if index == 0 { "" } else { " " };
        let _ = write!(path, "{gap}{}", Km(at));
    }
    if ring {
        path.push('Z');
    }
}

fn dot(path: &mut String, at: Coord) {
    let _ = write!(path, "M{}h0", Km(at));
}

/// A point as the map's x and y in km, to 10 m, with no trailing zeros.
struct Km(Coord);

impl std::fmt::Display for Km {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let round = |km: f64| (km * 100.0).round() / 100.0 + 0.0;
        let (x, y) = BngPoint::from(self.0).on_map();
        write!(f, "{} {}", round(x), round(y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::PartKind;

    fn boundary(parts: &[(PartKind, &[(f64, f64)])]) -> Boundary {
        let mut shapes = Shapes::default();
        for (kind, coords) in parts {
            shapes.add(*kind, coords.iter().map(|&(x, y)| Coord { x, y }));
        }
        Boundary {
            kind: FileKind::GeoJson,
            shapes,
            coverage: Coverage {
                squares: Vec::new(),
                outside: false,
            },
        }
    }

    #[test]
    fn a_ring_is_drawn_in_map_kilometres_north_up_and_closed() {
        let square = boundary(&[(
            PartKind::Ring { first: true },
            &[
                (400_000.0, 100_000.0),
                (500_000.0, 100_000.0),
                (500_000.0, 200_500.0),
                (400_000.0, 200_000.0),
                (400_000.0, 100_000.0),
            ],
        )]);
        assert_eq!(
            square.outline(0.0),
            "M400 1200L500 1200 500 1099.5 400 1100Z"
        );
    }

    #[test]
    fn detail_under_the_tolerance_is_dropped() {
        // A kink of 300 m on a 100 km line: gone at 1 km, kept at 100 m.
        let line = boundary(&[(
            PartKind::Line,
            &[
                (400_000.0, 100_000.0),
                (450_000.0, 100_300.0),
                (500_000.0, 100_000.0),
            ],
        )]);
        assert_eq!(line.outline(1000.0), "M400 1200L500 1200");
        assert_eq!(line.outline(100.0), "M400 1200L450 1199.7 500 1200");
    }

    #[test]
    fn points_and_what_simplifies_to_a_point_are_dots() {
        let shapes = boundary(&[
            (PartKind::Points, &[(123_456.0, 654_321.0)]),
            (
                PartKind::Ring { first: true },
                &[
                    (300_000.0, 300_000.0),
                    (300_010.0, 300_000.0),
                    (300_010.0, 300_010.0),
                    (300_000.0, 300_000.0),
                ],
            ),
        ]);
        assert_eq!(shapes.outline(1000.0), "M123.46 645.68h0M300 1000h0");
    }
}
