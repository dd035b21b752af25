//! Random shapes (a fixed seed), each square decided two ways: by the crate's walk along
//! the edges, and by geo's `Intersects` of the whole shape with the square, the slow way
//! the crate avoids. Random coordinates never just touch a square, where the two would
//! differ (the crate wants area in common, geo counts touching).

use std::fmt::Write as _;

use area_shapes::{GridSquare, read_boundary};
use geo::{Coord, Intersects, LineString, Polygon, Rect};

use crate::common::{LIMIT, codes, coverage};

/// A linear congruential generator: numbers in [0, 1).
struct Random(u64);

impl Random {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn square_rect(square: GridSquare) -> Rect {
    let (easting, northing) = square.origin();
    let (x, y) = (f64::from(easting), f64::from(northing));
    let size = f64::from(GridSquare::SIZE_M);
    Rect::new(
        Coord { x, y },
        Coord {
            x: x + size,
            y: y + size,
        },
    )
}

/// What geo says the shape meets, in `GridSquare::all()` order.
fn geo_squares(meets: impl Fn(&Rect) -> bool) -> Vec<&'static str> {
    let squares: Vec<GridSquare> = GridSquare::all()
        .filter(|&square| meets(&square_rect(square)))
        .collect();
    codes(&squares)
}

fn positions(coords: &[Coord]) -> String {
    let mut text = String::new();
    for (index, c) in coords.iter().enumerate() {
        let _ = write!(
            text,
            "{}[{},{}]",
            if index == 0 { "" } else { "," },
            c.x,
            c.y
        );
    }
    text
}

fn crate_squares(geometry: &str) -> Vec<&'static str> {
    let document = format!(
        r#"{{"type": "Feature", "properties": null, "geometry": {geometry},
            "crs": {{"type": "name", "properties": {{"name": "EPSG:27700"}}}}}}"#
    );
    match read_boundary("random.geojson", document.as_bytes(), LIMIT) {
        Ok(boundary) => coverage(&boundary).0,
        Err(_) => Vec::new(),
    }
}

#[test]
fn random_polygons_with_holes_meet_the_squares_geo_says_they_do() {
    let mut random = Random(2026);
    for _ in 0..200 {
        // A star round a point in and about the grid: 5 to 40 vertices, 5 km to 300 km
        // out; half of them with a hole, a star a tenth the size round the same point (well
        // inside: no gap between vertices is over 108°, so the outer ring keeps 17% of its
        // reach from the centre).
        let centre = Coord {
            x: random.next() * 800_000.0 - 50_000.0,
            y: random.next() * 1_400_000.0 - 50_000.0,
        };
        let vertices = 5 + (random.next() * 36.0) as usize;
        let reach = 5_000.0 + random.next() * 295_000.0;
        let star = |random: &mut Random, scale: f64| {
            let mut ring: Vec<Coord> = (0..vertices)
                .map(|index| {
                    let angle = (index as f64 + random.next() * 0.5) / vertices as f64
                        * std::f64::consts::TAU;
                    let radius = reach * scale * (0.3 + 0.7 * random.next());
                    Coord {
                        x: centre.x + radius * angle.cos(),
                        y: centre.y + radius * angle.sin(),
                    }
                })
                .collect();
            ring.push(ring[0]);
            ring
        };
        let outer = star(&mut random, 1.0);
        let hole = (random.next() < 0.5).then(|| star(&mut random, 0.1));
        let polygon = Polygon::new(
            LineString::from(outer.clone()),
            hole.iter().cloned().map(LineString::from).collect(),
        );
        let rings = match &hole {
            Some(hole) => format!("[{}],[{}]", positions(&outer), positions(hole)),
            None => format!("[{}]", positions(&outer)),
        };
        let geometry = format!(r#"{{"type": "Polygon", "coordinates": [{rings}]}}"#);
        assert_eq!(
            crate_squares(&geometry),
            geo_squares(|rect| polygon.intersects(rect)),
            "{geometry}"
        );
    }
}

#[test]
fn random_lines_meet_the_squares_geo_says_they_do() {
    let mut random = Random(1936);
    for _ in 0..200 {
        let vertices = 2 + (random.next() * 10.0) as usize;
        let line: Vec<Coord> = (0..vertices)
            .map(|_| Coord {
                x: random.next() * 800_000.0 - 50_000.0,
                y: random.next() * 1_400_000.0 - 50_000.0,
            })
            .collect();
        let geometry = format!(
            r#"{{"type": "LineString", "coordinates": [{}]}}"#,
            positions(&line)
        );
        let line = LineString::from(line);
        assert_eq!(
            crate_squares(&geometry),
            geo_squares(|rect| line.intersects(rect)),
            "{geometry}"
        );
    }
}
