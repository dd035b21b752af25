//! British National Grid references as people type them (`SU 41 11`, `SU4111`,
//! `441000,111000`), and the 100 km square a point lies in.

use download_api::GridSquare;

use crate::text::t;

/// A point on the British National Grid, in metres from the false origin (the
/// south-west corner of `SV`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridPoint {
    pub easting: u32,
    pub northing: u32,
}

impl GridPoint {
    /// The 100 km square of the map this point lies in, if it is one of Great Britain's.
    pub fn square(self) -> Option<GridSquare> {
        let size = GridSquare::SIZE_M;
        GridSquare::all().find(|square| {
            let (east, north) = square.origin();
            (east..east + size).contains(&self.easting)
                && (north..north + size).contains(&self.northing)
        })
    }

    /// The 1 km reference of this point, e.g. `SU 42 12`, when it lies in one of
    /// Great Britain's squares.
    pub fn reference(self) -> Option<String> {
        let square = self.square()?;
        let (east, north) = square.origin();
        Some(format!(
            "{square} {:02} {:02}",
            (self.easting - east) / 1000,
            (self.northing - north) / 1000
        ))
    }
}

/// A grid reference read from text: the south-west corner of the cell it names and
/// the cell's size (100 km for `SU`, 1 km for `SU 41 11`, 1 m for eastings and northings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridRef {
    pub corner: GridPoint,
    pub precision_m: u32,
}

impl GridRef {
    /// The middle of the named cell: where to show it on a map.
    pub fn centre(self) -> GridPoint {
        let half = self.precision_m / 2;
        GridPoint {
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
        let offset = |digits: &str| digits.parse::<u32>().unwrap_or(0) * precision_m;
        let (east, north) = square.origin();
        Ok(GridRef {
            corner: GridPoint {
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
    let metres = |n: &str| n.parse::<u32>().map_err(|_| GridRefError::NotUnderstood);
    let corner = GridPoint {
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

    fn point(easting: u32, northing: u32) -> GridPoint {
        GridPoint { easting, northing }
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
    fn a_point_lies_in_its_square_and_reads_back_as_a_reference() {
        // Southampton and Edinburgh city centres.
        let southampton = point(442_000, 112_000);
        assert_eq!(southampton.square().map(GridSquare::code), Some("SU"));
        assert_eq!(southampton.reference().as_deref(), Some("SU 42 12"));
        let edinburgh = point(325_900, 673_600);
        assert_eq!(edinburgh.reference().as_deref(), Some("NT 25 73"));
        assert_eq!(point(0, 0).square().map(GridSquare::code), Some("SV"));
        assert_eq!(
            point(699_999, 100_000).square().map(GridSquare::code),
            Some("TR")
        );
        assert_eq!(point(800_000, 0).square(), None);
        assert_eq!(point(800_000, 0).reference(), None);
    }
}
