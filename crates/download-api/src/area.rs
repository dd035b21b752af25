use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The geographical area a download covers, as the service names it.
///
/// Parsing never fails: codes outside the spec's list (partner products send
/// `"UK"` or `"NI"`) are kept as [`Area::Other`] so they can still be shown.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Area {
    /// `GB`: all of Great Britain.
    Gb,
    /// One British National Grid 100 km square.
    Square(GridSquare),
    /// A code the spec does not list.
    Other(String),
}

/// The 55 grid squares of the spec's Area enumeration, in the spec's order.
const SQUARES: [&str; 55] = [
    "HP", "HT", "HU", "HW", "HX", "HY", "HZ", "NA", "NB", "NC", "ND", "NF", "NG", "NH", "NJ", "NK",
    "NL", "NM", "NN", "NO", "NR", "NS", "NT", "NU", "NW", "NX", "NY", "NZ", "OV", "SD", "SE", "TA",
    "SH", "SJ", "SK", "TF", "TG", "SM", "SN", "SO", "SP", "TL", "TM", "SR", "SS", "ST", "SU", "TQ",
    "TR", "SV", "SW", "SX", "SY", "SZ", "TV",
];

impl Area {
    /// Every area the spec lists: `GB` followed by the 55 grid squares.
    pub fn all() -> impl Iterator<Item = Area> {
        std::iter::once(Area::Gb).chain(GridSquare::all().map(Area::Square))
    }

    /// The code as the service writes it.
    pub fn code(&self) -> &str {
        match self {
            Area::Gb => "GB",
            Area::Square(square) => square.code(),
            Area::Other(code) => code,
        }
    }

    /// The grid square, when this area is one.
    pub fn square(&self) -> Option<GridSquare> {
        match self {
            Area::Square(square) => Some(*square),
            _ => None,
        }
    }
}

impl FromStr for Area {
    type Err = std::convert::Infallible;

    fn from_str(code: &str) -> Result<Self, Self::Err> {
        Ok(if code == "GB" {
            Area::Gb
        } else if let Some(square) = GridSquare::from_code(code) {
            Area::Square(square)
        } else {
            Area::Other(code.to_owned())
        })
    }
}

impl From<&str> for Area {
    fn from(code: &str) -> Self {
        code.parse().unwrap_or_else(|never| match never {})
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Area {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Area {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Code;
        impl serde::de::Visitor<'_> for Code {
            type Value = Area;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an area code")
            }
            fn visit_str<E: serde::de::Error>(self, code: &str) -> Result<Area, E> {
                Ok(Area::from(code))
            }
        }
        // Read in place: a catalogue of a thousand products lists tens of thousands of
        // areas, nearly all the spec's codes, which need no string of their own.
        deserializer.deserialize_str(Code)
    }
}

/// In the OpenAPI document an area is a string: the spec's codes, and the other codes
/// partner products use (`UK`, `NI`), which a fixed enumeration would reject.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Area {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let codes: Vec<String> = Area::all().map(|area| area.code().to_owned()).collect();
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(format!(
                "The area a download covers: GB (all of Great Britain) or a British National Grid \
                 100 km square ({}); partner products may use other codes such as UK or NI.",
                codes[1..].join(", ")
            )))
            .examples(["SU"])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Area {}

/// Each listed square's position in [`SQUARES`] by its two letters (`A` is 0), or
/// `u8::MAX`: parsing a code is two lookups.
const SQUARE_BY_LETTERS: [[u8; 26]; 26] = {
    let mut table = [[u8::MAX; 26]; 26];
    let mut i = 0;
    while i < SQUARES.len() {
        let letters = SQUARES[i].as_bytes();
        table[(letters[0] - b'A') as usize][(letters[1] - b'A') as usize] = i as u8;
        i += 1;
    }
    table
};

/// One of the 55 British National Grid 100 km squares the spec lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GridSquare(u8);

impl GridSquare {
    /// Side of a square in metres.
    pub const SIZE_M: u32 = 100_000;

    /// The squares in the spec's order.
    pub fn all() -> impl Iterator<Item = GridSquare> + Clone {
        (0..SQUARES.len() as u8).map(GridSquare)
    }

    /// The square with this two-letter code (upper case), if the spec lists it.
    pub fn from_code(code: &str) -> Option<GridSquare> {
        let &[first, second] = code.as_bytes() else {
            return None;
        };
        let letter = |byte: u8| usize::from(byte.wrapping_sub(b'A'));
        let index = *SQUARE_BY_LETTERS.get(letter(first))?.get(letter(second))?;
        (index != u8::MAX).then_some(GridSquare(index))
    }

    /// The square's position in the spec's order, 0 to 54.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The two-letter code, e.g. `"SU"`.
    pub fn code(self) -> &'static str {
        SQUARES[self.0 as usize]
    }

    /// Easting and northing in metres of the square's south-west corner.
    ///
    /// Derived from the letters: the first picks a 500 km square and the second a
    /// 100 km square inside it, each from a 5×5 grid of the alphabet without `I`,
    /// lettered from the north-west. The false origin is the south-west corner of `SV`.
    pub fn origin(self) -> (u32, u32) {
        let mut letters = self.code().bytes().map(letter_index);
        let (major, minor) = (letters.next().unwrap_or(0), letters.next().unwrap_or(0));
        // `S` (index 17) is the 500 km square at the false origin: shift columns so it
        // comes out as column 0, and count rows up from the grid's southern edge.
        let east = ((major % 5) + 3) % 5 * 5 + minor % 5;
        let north = (3 - major / 5) * 5 + (4 - minor / 5);
        (east * Self::SIZE_M, north * Self::SIZE_M)
    }
}

/// Position of a letter in the 25-letter grid alphabet (A–Z without I).
fn letter_index(letter: u8) -> u32 {
    let index = u32::from(letter - b'A');
    if letter > b'I' { index - 1 } else { index }
}

impl fmt::Display for GridSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// As its code, `"SU"`.
impl Serialize for GridSquare {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for GridSquare {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        GridSquare::from_code(&code).ok_or_else(|| {
            serde::de::Error::custom(format_args!("{code:?} is not a 100 km square's code"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin_km(code: &str) -> (u32, u32) {
        let (e, n) = GridSquare::from_code(code).unwrap().origin();
        (e / 1000, n / 1000)
    }

    #[test]
    fn known_squares_sit_at_their_published_origins() {
        // Values from the Ordnance Survey's guide to the National Grid.
        assert_eq!(origin_km("SV"), (0, 0));
        assert_eq!(origin_km("SU"), (400, 100));
        assert_eq!(origin_km("TQ"), (500, 100));
        assert_eq!(origin_km("TV"), (500, 0));
        assert_eq!(origin_km("NT"), (300, 600));
        assert_eq!(origin_km("NA"), (0, 900));
        assert_eq!(origin_km("HU"), (400, 1100));
        assert_eq!(origin_km("HP"), (400, 1200));
        assert_eq!(origin_km("OV"), (500, 500));
        assert_eq!(origin_km("TG"), (600, 300));
    }

    #[test]
    fn every_square_has_its_own_place_inside_the_grid() {
        let mut seen = std::collections::HashSet::new();
        for square in GridSquare::all() {
            let (e, n) = square.origin();
            assert!(e <= 600_000 && n <= 1_200_000, "{square} at {e},{n}");
            assert!(seen.insert((e, n)), "{square} shares a place");
        }
        assert_eq!(seen.len(), 55);
    }

    #[test]
    fn squares_of_one_row_line_up_west_to_east() {
        // SV SW SX SY SZ TV: the southernmost row of the grid, 100 km apart.
        let row: Vec<_> = ["SV", "SW", "SX", "SY", "SZ", "TV"].map(origin_km).into();
        for (i, origin) in row.iter().enumerate() {
            assert_eq!(*origin, (100 * i as u32, 0));
        }
    }

    #[test]
    fn spec_codes_parse_and_others_are_kept() {
        assert_eq!(Area::from("GB"), Area::Gb);
        assert_eq!(Area::from("SU").square().map(GridSquare::code), Some("SU"));
        assert_eq!(Area::from("UK"), Area::Other("UK".into()));
        assert_eq!(Area::from("su"), Area::Other("su".into()));
        assert_eq!(Area::all().count(), 56);
        for (index, square) in GridSquare::all().enumerate() {
            assert_eq!(GridSquare::from_code(square.code()), Some(square));
            assert_eq!(square.index(), index);
        }
        for code in [
            "",
            "S",
            "SUU",
            "SA",
            "AA",
            "ZZ",
            "[S",
            "S[",
            "@U",
            "é",
            "\u{0}\u{0}",
        ] {
            assert_eq!(GridSquare::from_code(code), None, "{code:?}");
        }
    }

    #[test]
    fn areas_round_trip_through_json() {
        let json = r#"["GB","NI","TQ"]"#;
        let areas: Vec<Area> = serde_json::from_str(json).unwrap();
        assert_eq!(areas[1], Area::Other("NI".into()));
        assert_eq!(serde_json::to_string(&areas).unwrap(), json);
        // Escaped, so not readable in place; and from a reader, which copies.
        let escaped: Vec<Area> = serde_json::from_str(r#"["\u0053U","N\u0049"]"#).unwrap();
        assert_eq!(escaped, [Area::from("SU"), Area::Other("NI".into())]);
        let read: Vec<Area> = serde_json::from_reader(json.as_bytes()).unwrap();
        assert_eq!(read, areas);
        assert!(serde_json::from_str::<Area>("7").is_err());
    }
}
