//! British National Grid references as people type them (`SU 41 11`, `SU4111`,
//! `441000,111000`), and the 100 km square a point lies in.

use area_shapes::BngPoint;
use download_api::GridSquare;

use crate::text::t;

/// A point and what the page calls it: a place's name, or a reference as typed (a place
/// found, a rectangle's corner, a circle's centre, the map's marker).
#[derive(Debug, Clone, PartialEq)]
pub struct NamedPoint {
    pub name: String,
    pub point: BngPoint,
}

/// The 1 km reference of `point`, e.g. `SU 42 12`, when it lies in one of Great
/// Britain's squares.
pub fn reference(point: BngPoint) -> Option<String> {
    let square = point.square()?;
    let (east, north) = square.origin();
    let km = |metres: f64, origin: u32| ((metres - f64::from(origin)) / 1000.0).floor();
    Some(format!(
        "{square} {:02} {:02}",
        km(point.easting, east),
        km(point.northing, north)
    ))
}

/// A grid reference read from text: the south-west corner of the cell it names and
/// the cell's size (100 km for `SU`, 1 km for `SU 41 11`, 1 m for eastings and northings).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridRef {
    pub corner: BngPoint,
    pub precision_m: u32,
}

impl GridRef {
    /// The middle of the named cell: where to show it on a map.
    pub fn centre(self) -> BngPoint {
        // Whole metres: a 1 m reference is its own centre.
        let half = f64::from(self.precision_m / 2);
        BngPoint {
            easting: self.corner.easting + half,
            northing: self.corner.northing + half,
        }
    }

    /// Reads `SU 41 11`, `su4111`, `SU 4123 1187`, `SU` or `441000,111000`
    /// (easting then northing in metres, separated by a comma or spaces).
    pub fn parse(input: &str) -> Result<Self, GridRefError> {
        let text = input.trim();
        if text.is_empty() {
            return Err(GridRefError::Empty);
        }
        if text.starts_with(|c: char| c.is_ascii_digit()) {
            return parse_metres(text);
        }
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let letters: String = compact.chars().take(2).collect::<String>().to_uppercase();
        let digits = compact.get(letters.len()..).unwrap_or_default();
        if letters.len() != 2 || !letters.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(GridRefError::NotUnderstood);
        }
        let square =
            GridSquare::from_code(&letters).ok_or(GridRefError::UnknownSquare(letters.clone()))?;
        if !digits.chars().all(|c| c.is_ascii_digit()) || digits.len() > 10 {
            return Err(GridRefError::NotUnderstood);
        }
        if digits.len() % 2 != 0 {
            return Err(GridRefError::OddDigits);
        }
        let half = digits.len() / 2;
        // Each extra digit pair is ten times finer: 0 pairs 100 km, 1 pair 10 km, …
        let precision_m = GridSquare::SIZE_M / 10u32.pow(half as u32);
        let offset = |digits: &str| f64::from(digits.parse::<u32>().unwrap_or(0) * precision_m);
        let (east, north) = square.origin();
        let (east, north) = (f64::from(east), f64::from(north));
        Ok(GridRef {
            corner: BngPoint {
                easting: east + offset(&digits[..half]),
                northing: north + offset(&digits[half..]),
            },
            precision_m,
        })
    }
}

/// `441000,111000` or `441000 111000`.
fn parse_metres(text: &str) -> Result<GridRef, GridRefError> {
    let numbers: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .collect();
    let [easting, northing] = numbers[..] else {
        return Err(GridRefError::NotUnderstood);
    };
    let metres = |n: &str| {
        n.parse::<u32>()
            .map(f64::from)
            .map_err(|_| GridRefError::NotUnderstood)
    };
    let corner = BngPoint {
        easting: metres(easting)?,
        northing: metres(northing)?,
    };
    if corner.square().is_none() {
        return Err(GridRefError::OutsideGreatBritain);
    }
    Ok(GridRef {
        corner,
        precision_m: 1,
    })
}

/// Why a grid reference could not be read, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridRefError {
    #[error("{}", t::product::grid_ref_empty())]
    Empty,
    #[error("{}", t::product::grid_ref_not_understood())]
    NotUnderstood,
    #[error("{}", t::product::grid_ref_unknown_square(.0))]
    UnknownSquare(String),
    #[error("{}", t::product::grid_ref_odd_digits())]
    OddDigits,
    #[error("{}", t::product::grid_ref_outside())]
    OutsideGreatBritain,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(easting: u32, northing: u32) -> BngPoint {
        BngPoint {
            easting: f64::from(easting),
            northing: f64::from(northing),
        }
    }

    #[test]
    fn letters_and_digits_name_the_cell_at_their_precision() {
        let su = GridRef::parse("SU 41 11").unwrap();
        assert_eq!(su.corner, point(441_000, 111_000));
        assert_eq!(su.precision_m, 1000);
        assert_eq!(su.centre(), point(441_500, 111_500));
        assert_eq!(GridRef::parse("su4111").unwrap(), su);
        assert_eq!(GridRef::parse("  SU 4 1 1 1 ").unwrap(), su);
        // Ben Nevis, NN 166 712, as the Ordnance Survey gives it.
        let ben = GridRef::parse("NN 166 712").unwrap();
        assert_eq!(
            (ben.corner, ben.precision_m),
            (point(216_600, 771_200), 100)
        );
        let square = GridRef::parse("tq").unwrap();
        assert_eq!(
            (square.corner, square.precision_m),
            (point(500_000, 100_000), 100_000)
        );
        let metre = GridRef::parse("TQ 30123 80456").unwrap();
        assert_eq!(
            (metre.corner, metre.precision_m),
            (point(530_123, 180_456), 1)
        );
    }

    #[test]
    fn eastings_and_northings_are_read_in_metres() {
        let metres = GridRef::parse("441000,111000").unwrap();
        assert_eq!(metres.corner, point(441_000, 111_000));
        assert_eq!(GridRef::parse("441000 111000").unwrap(), metres);
        assert_eq!(GridRef::parse("441000, 111000").unwrap(), metres);
        assert_eq!(
            GridRef::parse("900000,111000"),
            Err(GridRefError::OutsideGreatBritain)
        );
    }

    #[test]
    fn what_cannot_be_read_is_said_plainly() {
        assert_eq!(GridRef::parse(" "), Err(GridRefError::Empty));
        assert_eq!(GridRef::parse("SU 411 11"), Err(GridRefError::OddDigits));
        assert_eq!(
            GridRef::parse("XX 41 11"),
            Err(GridRefError::UnknownSquare("XX".into()))
        );
        assert_eq!(
            GridRef::parse("Southampton"),
            Err(GridRefError::NotUnderstood)
        );
        assert_eq!(GridRef::parse("S1 41 11"), Err(GridRefError::NotUnderstood));
        assert_eq!(GridRef::parse("441000"), Err(GridRefError::NotUnderstood));
        assert!(
            GridRefError::OddDigits.to_string().contains("SU 41 11"),
            "examples help"
        );
    }

    #[test]
    fn a_point_reads_back_as_a_reference() {
        // Southampton and Edinburgh city centres.
        let southampton = point(442_000, 112_000);
        assert_eq!(reference(southampton).as_deref(), Some("SU 42 12"));
        let edinburgh = point(325_900, 673_600);
        assert_eq!(reference(edinburgh).as_deref(), Some("NT 25 73"));
        // 999 m into a kilometre is still that kilometre.
        assert_eq!(
            reference(point(441_999, 111_999)).as_deref(),
            Some("SU 41 11")
        );
        assert_eq!(reference(point(800_000, 0)), None);
    }
}
