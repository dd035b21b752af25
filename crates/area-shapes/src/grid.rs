//! Which 100 km cells a shape meets, exactly, in time that grows with its vertices alone.
//!
//! The grid is the 7 × 13 cells from the false origin that hold Great Britain's squares;
//! cells no square is listed for, and anything beyond the grid, count as outside. An edge
//! is cut where it crosses grid lines and each piece marks the cell it lies in. For
//! polygons that leaves the cells no edge enters: each is wholly inside or wholly outside,
//! which the even–odd count of edge crossings east of its centre decides, kept per row
//! while the edges go by (a scanline, not a point-in-polygon test per cell).

use download_api::GridSquare;
use geo_types::Coord;
use serde::{Deserialize, Serialize};

use crate::BngPoint;

/// The squares a shape touches, and whether it reaches beyond them: what a rectangle, a
/// circle and a boundary file each pick.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Coverage {
    /// In [`GridSquare::all`] order.
    pub squares: Vec<GridSquare>,
    /// Some part of the shape lies outside every square.
    pub outside: bool,
}

const SIZE: f64 = GridSquare::SIZE_M as f64;
const COLUMNS: usize = 7;
const ROWS: usize = 13;
const CELLS: usize = COLUMNS * ROWS;
const WIDTH: f64 = COLUMNS as f64 * SIZE;
const HEIGHT: f64 = ROWS as f64 * SIZE;

/// The cell a point lies in, the cells being half-open: `[origin, origin + 100 km)`.
fn cell(point: Coord) -> Option<usize> {
    let column = (point.x / SIZE).floor();
    let row = (point.y / SIZE).floor();
    let inside = (0.0..COLUMNS as f64).contains(&column) && (0.0..ROWS as f64).contains(&row);
    inside.then(|| row as usize * COLUMNS + column as usize)
}

/// Each square's cell.
fn square_cells() -> impl Iterator<Item = (GridSquare, usize)> {
    GridSquare::all().map(|square| {
        let (easting, northing) = square.origin();
        let at = Coord {
            x: f64::from(easting),
            y: f64::from(northing),
        };
        (square, cell(at).expect("every square is inside the grid"))
    })
}

/// Whether a point lies beyond the closed rectangle of the grid.
fn beyond_grid(point: Coord) -> bool {
    !((0.0..=WIDTH).contains(&point.x) && (0.0..=HEIGHT).contains(&point.y))
}

/// The part of the segment from `a` to `b` inside the grid's closed rectangle, as the
/// range of `t` in `a + t (b - a)` (Liang–Barsky), if any.
fn clip(a: Coord, b: Coord) -> Option<(f64, f64)> {
    let d = b - a;
    let (mut t0, mut t1) = (0.0, 1.0);
    for (p, q) in [
        (-d.x, a.x),
        (d.x, WIDTH - a.x),
        (-d.y, a.y),
        (d.y, HEIGHT - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = f64::max(t0, r);
            } else {
                t1 = f64::min(t1, r);
            }
        }
    }
    (t0 <= t1).then_some((t0, t1))
}

/// Calls `visit` with the midpoint of each piece of positive length the segment from `a`
/// to `b` is cut into by the grid lines, within the grid's rectangle. A piece lies within
/// one closed cell; its midpoint tells which (or, on a grid line, that it runs along one).
fn pieces(a: Coord, b: Coord, mut visit: impl FnMut(Coord)) {
    if a == b {
        return;
    }
    // Nearly every edge of a detailed boundary stays inside one cell.
    if !beyond_grid(a) && !beyond_grid(b) && cell(a) == cell(b) {
        visit((a + b) / 2.0);
        return;
    }
    let Some((t0, t1)) = clip(a, b) else {
        return;
    };
    let d = b - a;
    // The pieces' ends: at most every inner grid line, and the two clipped ends.
    let mut cuts = [0.0; COLUMNS + ROWS];
    let mut count = 0;
    for (lines, from, step) in [(COLUMNS, a.x, d.x), (ROWS, a.y, d.y)] {
        if step == 0.0 {
            continue;
        }
        for line in 1..lines {
            let t = (line as f64 * SIZE - from) / step;
            if t0 < t && t < t1 {
                cuts[count] = t;
                count += 1;
            }
        }
    }
    cuts[count] = t1;
    count += 1;
    let cuts = &mut cuts[..count];
    cuts.sort_by(f64::total_cmp);
    let mut start = t0;
    for &end in cuts.iter() {
        if end > start {
            visit(a + d * ((start + end) / 2.0));
            start = end;
        }
    }
}

/// What a shape has met so far: fed its points, lines and polygons' edges.
#[derive(Debug, Clone)]
pub(crate) struct Cover {
    touched: [bool; CELLS],
    /// Some part lies beyond the grid's rectangle.
    beyond: bool,
    /// Per row, bit `c`: the centre of cell `c` has an odd number of the current polygon's
    /// edges crossing east of it, so far.
    parity: [u8; ROWS],
    /// Per row, bit `c`: the centre of cell `c` is inside some finished polygon.
    inside: [u8; ROWS],
}

impl Default for Cover {
    fn default() -> Self {
        Cover {
            touched: [false; CELLS],
            beyond: false,
            parity: [0; ROWS],
            inside: [0; ROWS],
        }
    }
}

impl Cover {
    /// A point: the cell it lies in.
    pub fn point(&mut self, point: Coord) {
        match cell(point) {
            Some(index) => self.touched[index] = true,
            None => self.beyond = true,
        }
    }

    /// A line's segment: the cells it passes through (a piece along a grid line goes to
    /// the cell east or north of it, as the cells are half-open).
    pub fn line(&mut self, a: Coord, b: Coord) {
        self.beyond |= beyond_grid(a) || beyond_grid(b);
        pieces(a, b, |middle| match cell(middle) {
            Some(index) => self.touched[index] = true,
            // Along the grid's own east or north edge: in no square.
            None => self.beyond = true,
        });
    }

    /// A disc: the cells closer to its centre than `radius` (the exact distance to the
    /// nearest point of each cell).
    pub fn disc(&mut self, centre: Coord, radius: f64) {
        self.beyond |= centre.x - radius < 0.0
            || centre.y - radius < 0.0
            || centre.x + radius > WIDTH
            || centre.y + radius > HEIGHT;
        for (index, touched) in self.touched.iter_mut().enumerate() {
            let west = (index % COLUMNS) as f64 * SIZE;
            let south = (index / COLUMNS) as f64 * SIZE;
            let dx = (west - centre.x).max(centre.x - (west + SIZE)).max(0.0);
            let dy = (south - centre.y).max(centre.y - (south + SIZE)).max(0.0);
            *touched |= dx.hypot(dy) < radius;
        }
    }

    /// A polygon's edge: the cells whose inside it passes through (one running along a grid
    /// line marks neither side: the polygon's area decides, through the other edges or the
    /// cells' centres), and its crossings of the rows' centre lines.
    pub fn edge(&mut self, a: Coord, b: Coord) {
        self.beyond |= beyond_grid(a) || beyond_grid(b);
        // Only an edge along a grid line has pieces on one (any other crosses them).
        let on_grid_line = |u: f64, v: f64| u == v && u.rem_euclid(SIZE) == 0.0;
        if !(on_grid_line(a.x, b.x) || on_grid_line(a.y, b.y)) {
            pieces(a, b, |middle| {
                if let Some(index) = cell(middle) {
                    self.touched[index] = true;
                }
            });
        }
        let (low, high) = (a.y.min(b.y), a.y.max(b.y));
        let first = ((low / SIZE - 0.5).floor().max(0.0) as usize).min(ROWS);
        let last = ((high / SIZE - 0.5).ceil().max(0.0) as usize).min(ROWS - 1);
        for row in first..=last {
            let centre = (row as f64 + 0.5) * SIZE;
            if (a.y > centre) != (b.y > centre) {
                let x = a.x + (centre - a.y) / (b.y - a.y) * (b.x - a.x);
                // The cells whose centre lies west of the crossing.
                let west = ((x / SIZE - 0.5).ceil().max(0.0) as u32).min(COLUMNS as u32);
                self.parity[row] ^= ((1u16 << west) - 1) as u8;
            }
        }
    }

    /// The end of a polygon's rings: the cells whose centre it holds are inside it.
    pub fn end_polygon(&mut self) {
        for (inside, parity) in self.inside.iter_mut().zip(&mut self.parity) {
            *inside |= std::mem::take(parity);
        }
    }

    /// The squares met, and whether anything else was.
    pub fn coverage(&self) -> Coverage {
        let mut touched = self.touched;
        for (index, touched) in touched.iter_mut().enumerate() {
            *touched |= self.inside[index / COLUMNS] & (1 << (index % COLUMNS)) != 0;
        }
        let mut listed = [false; CELLS];
        let squares = square_cells()
            .filter(|&(_, index)| {
                listed[index] = true;
                touched[index]
            })
            .map(|(square, _)| square)
            .collect();
        let unlisted = touched
            .iter()
            .zip(listed)
            .any(|(&touched, listed)| touched && !listed);
        Coverage {
            squares,
            outside: self.beyond || unlisted,
        }
    }
}

/// What a rectangle with these opposite corners (any two) touches: the squares its area
/// overlaps; a rectangle with no width or height is the line between its corners.
pub fn rectangle(a: BngPoint, b: BngPoint) -> Coverage {
    let (a, b) = (Coord::from(a), Coord::from(b));
    let mut cover = Cover::default();
    if a.x == b.x || a.y == b.y {
        if a == b {
            cover.point(a);
        } else {
            cover.line(a, b);
        }
    } else {
        let corners = [a, Coord { x: b.x, y: a.y }, b, Coord { x: a.x, y: b.y }];
        for (index, &corner) in corners.iter().enumerate() {
            cover.edge(corner, corners[(index + 1) % corners.len()]);
        }
        cover.end_polygon();
    }
    cover.coverage()
}

/// What a circle touches: the squares closer to its centre than the radius (the exact
/// distance to the nearest point of each square). A radius of zero or less is the square
/// the centre lies in.
pub fn within(centre: BngPoint, radius_m: f64) -> Coverage {
    let mut cover = Cover::default();
    if radius_m.is_nan() || radius_m <= 0.0 {
        cover.point(centre.into());
    } else {
        cover.disc(centre.into(), radius_m);
    }
    cover.coverage()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, y: f64) -> Coord {
        Coord { x, y }
    }

    fn codes(cover: &Cover) -> Vec<&'static str> {
        cover
            .coverage()
            .squares
            .iter()
            .map(|square| square.code())
            .collect()
    }

    #[test]
    fn a_segment_is_cut_at_every_grid_line_it_crosses() {
        let mut middles = Vec::new();
        pieces(at(150_000.0, 50_000.0), at(350_000.0, 250_000.0), |m| {
            middles.push(m)
        });
        // Through (200 km, 100 km) diagonally and then (300 km, 200 km): two corners cut it
        // into three pieces, each a diagonal of one cell.
        assert_eq!(
            middles,
            [
                at(175_000.0, 75_000.0),
                at(250_000.0, 150_000.0),
                at(325_000.0, 225_000.0)
            ]
        );
    }

    #[test]
    fn a_segment_from_far_away_is_clipped_to_the_grid() {
        let mut middles = Vec::new();
        pieces(at(-1.0e9, 50_000.0), at(50_000.0, 50_000.0), |m| {
            middles.push(m)
        });
        assert_eq!(middles, [at(25_000.0, 50_000.0)]);
        let mut cover = Cover::default();
        cover.line(at(-1.0e9, 50_000.0), at(50_000.0, 50_000.0));
        assert_eq!(codes(&cover), ["SV"]);
        assert!(cover.coverage().outside);
    }

    #[test]
    fn a_polygon_that_is_exactly_a_square_picks_that_square_alone() {
        let mut cover = Cover::default();
        let corners = [
            at(400_000.0, 100_000.0),
            at(500_000.0, 100_000.0),
            at(500_000.0, 200_000.0),
            at(400_000.0, 200_000.0),
        ];
        for index in 0..4 {
            cover.edge(corners[index], corners[(index + 1) % 4]);
        }
        cover.end_polygon();
        assert_eq!(codes(&cover), ["SU"]);
        assert!(!cover.coverage().outside);
    }
}
