//! A point on the British National Grid, and where the app's map draws it.

use download_api::GridSquare;
use geo_types::Coord;

/// A point on the British National Grid in metres from the false origin (the south-west
/// corner of `SV`): a place, a typed reference, a rectangle's corner, a circle's centre.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BngPoint {
    pub easting: f64,
    pub northing: f64,
}

/// The map's SVG y of the grid's north edge, in km (13 rows of 100 km squares: SV to HP):
/// the map draws north up.
pub const MAP_TOP_KM: f64 = 1300.0;

impl BngPoint {
    /// The 100 km square this point lies in (squares are half-open:
    /// `[origin, origin + 100 km)`), if it is one of Great Britain's.
    pub fn square(self) -> Option<GridSquare> {
        let size = f64::from(GridSquare::SIZE_M);
        GridSquare::all().find(|square| {
            let (east, north) = square.origin();
            let (east, north) = (f64::from(east), f64::from(north));
            (east..east + size).contains(&self.easting)
                && (north..north + size).contains(&self.northing)
        })
    }

    /// Where the map draws this point: km east, and km down from the grid's north edge.
    pub fn on_map(self) -> (f64, f64) {
        (self.easting / 1000.0, MAP_TOP_KM - self.northing / 1000.0)
    }

    /// The point the map draws at `(x, y)` ([`BngPoint::on_map`] undone).
    pub fn from_map((x, y): (f64, f64)) -> Self {
        BngPoint {
            easting: x * 1000.0,
            northing: (MAP_TOP_KM - y) * 1000.0,
        }
    }
}

impl From<BngPoint> for Coord {
    fn from(point: BngPoint) -> Self {
        Coord {
            x: point.easting,
            y: point.northing,
        }
    }
}

impl From<Coord> for BngPoint {
    fn from(coord: Coord) -> Self {
        BngPoint {
            easting: coord.x,
            northing: coord.y,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(easting: f64, northing: f64) -> BngPoint {
        BngPoint { easting, northing }
    }

    #[test]
    fn a_point_lies_in_the_square_whose_half_open_cell_holds_it() {
        let code = |point: BngPoint| point.square().map(GridSquare::code);
        assert_eq!(code(at(442_000.0, 112_000.0)), Some("SU"));
        assert_eq!(code(at(0.0, 0.0)), Some("SV"));
        // On SU's east edge: TQ's.
        assert_eq!(code(at(500_000.0, 150_000.0)), Some("TQ"));
        assert_eq!(code(at(699_999.0, 100_000.0)), Some("TR"));
        assert_eq!(code(at(800_000.0, 0.0)), None);
        assert_eq!(code(at(-1.0, 0.0)), None);
    }

    #[test]
    fn the_map_draws_north_up_in_kilometres() {
        // Southampton, 442 km east and 112 km north: 1,188 km down from the grid's top.
        assert_eq!(at(442_000.0, 112_000.0).on_map(), (442.0, 1188.0));
        assert_eq!(at(0.0, 1_300_000.0).on_map(), (0.0, 0.0));
        let point = at(123_456.0, 654_321.0);
        let back = BngPoint::from_map(point.on_map());
        assert!((back.easting - point.easting).abs() < 1e-6);
        assert!((back.northing - point.northing).abs() < 1e-6);
    }
}
