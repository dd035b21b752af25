//! Picking squares by shape: what a dragged rectangle, a circle round a place or an
//! uploaded boundary does to a product's choice, and what the page says of it. The
//! geometry (reading files, projecting, intersecting with squares) is the
//! `area-shapes` crate's; this is what the page makes of its answer.

use area_shapes::Coverage;
use download_api::{Area, GridSquare};

use crate::product::grid_ref::{GridRef, NamedPoint};
use crate::product::places::Gazetteer;
use crate::product::selection::Selection;
use crate::text::t;

/// Largest radius asked for, in km: 1,000 km round any place covers all of Great
/// Britain, so more is a typing slip.
pub const MAX_RADIUS_KM: f64 = 1000.0;

/// Where a shape came from: named in what the page says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeSource {
    /// Dragged on the map, or typed as two corners.
    Rectangle,
    /// A circle round a place or grid reference.
    Circle,
    /// A boundary file, by its name.
    File(String),
}

/// What a shape picks on a product's map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapePick {
    pub source: ShapeSource,
    /// Every square the shape touches, offered or not, and whether part of it lies
    /// outside Great Britain's squares.
    pub touched: Coverage,
    /// The touched squares this product offers: what the pick selects.
    pub picked: Vec<Area>,
}

impl ShapePick {
    /// The pick of a shape touching `touched` on a product offering `offered`.
    pub fn new(source: ShapeSource, touched: Coverage, offered: &[Area]) -> Self {
        let picked = touched
            .squares
            .iter()
            .map(|square| Area::Square(*square))
            .filter(|area| offered.contains(area))
            .collect();
        ShapePick {
            source,
            touched,
            picked,
        }
    }

    /// The touched squares this product does not offer.
    pub fn not_offered(&self) -> Vec<GridSquare> {
        self.touched
            .squares
            .iter()
            .copied()
            .filter(|square| !self.picked.contains(&Area::Square(*square)))
            .collect()
    }

    /// The choice after the pick: a shape is a new study area, so its squares replace
    /// the picked areas (format and subformat stay). Nothing the product offers
    /// touched: the choice stays as it was.
    pub fn applied_to(&self, current: &Selection) -> Selection {
        if self.picked.is_empty() {
            return current.clone();
        }
        let cleared = Selection {
            areas: Vec::new(),
            ..current.clone()
        };
        cleared.with_added(self.picked.iter().cloned())
    }

    /// What the page says: what the shape touches, what of it is not offered or not in
    /// Great Britain, and what is picked.
    pub fn message(&self) -> String {
        let count = self.touched.squares.len();
        let touched = codes(&self.touched.squares);
        let mut sentences = vec![match &self.source {
            _ if count == 0 => t::shape::touches_none().to_owned(),
            ShapeSource::Rectangle => t::shape::rectangle_touches(&touched, count),
            ShapeSource::Circle => t::shape::circle_touches(&touched, count),
            ShapeSource::File(name) => t::shape::file_touches(&touched, count, name),
        }];
        if self.touched.outside {
            sentences.push(t::shape::partly_outside().to_owned());
        }
        let not_offered = self.not_offered();
        if !not_offered.is_empty() && !self.picked.is_empty() {
            sentences.push(t::shape::some_not_offered(codes(&not_offered)));
        }
        sentences.push(if self.picked.is_empty() {
            t::shape::none_offered().to_owned()
        } else {
            t::shape::picked(self.picked.len())
        });
        sentences.join(" ")
    }
}

fn codes(squares: &[GridSquare]) -> String {
    squares
        .iter()
        .map(|square| square.code())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a typed point was not found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointProblem {
    Empty,
    /// Neither a grid reference nor a known place.
    Unknown(String),
    /// Not a grid reference, and the places are not here (yet, or at all).
    NoPlaces(String),
}

impl PointProblem {
    /// The sentence for the user.
    pub fn message(&self) -> String {
        match self {
            PointProblem::Empty => t::shape::point_empty().to_owned(),
            PointProblem::Unknown(typed) => t::shape::point_unknown(typed.trim()),
            PointProblem::NoPlaces(typed) => t::shape::point_no_places(typed.trim()),
        }
    }
}

/// Reads a grid reference (`SU 41 11`, `441000,111000`: the middle of the cell it
/// names) or a place name, tried in that order.
pub fn find_point(typed: &str, places: Option<&Gazetteer>) -> Result<NamedPoint, PointProblem> {
    let trimmed = typed.trim();
    if trimmed.is_empty() {
        return Err(PointProblem::Empty);
    }
    if let Ok(reference) = GridRef::parse(trimmed) {
        return Ok(NamedPoint {
            name: trimmed.to_owned(),
            point: reference.centre(),
        });
    }
    let Some(places) = places else {
        return Err(PointProblem::NoPlaces(trimmed.to_owned()));
    };
    places
        .best(trimmed)
        .map(|found| NamedPoint {
            name: found.name().to_owned(),
            point: found.place.point,
        })
        .ok_or_else(|| PointProblem::Unknown(trimmed.to_owned()))
}

/// Whether `typed` looks like a grid reference: no places are needed to read it.
pub fn is_grid_ref(typed: &str) -> bool {
    GridRef::parse(typed.trim()).is_ok()
}

/// Reads a radius typed in km (`20`, `7.5`, `20 km`).
pub fn parse_radius_km(typed: &str) -> Result<f64, String> {
    let number = typed.trim().trim_end_matches("km").trim().replace(',', ".");
    match number.parse::<f64>() {
        Ok(km) if km > 0.0 && km <= MAX_RADIUS_KM => Ok(km),
        _ => Err(t::shape::radius_not_understood().to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use area_shapes::BngPoint;

    use super::*;
    use crate::text::in_welsh;

    fn squares(codes: &[&str]) -> Vec<GridSquare> {
        codes
            .iter()
            .map(|code| GridSquare::from_code(code).unwrap())
            .collect()
    }

    fn areas(codes: &[&str]) -> Vec<Area> {
        codes.iter().map(|code| Area::from(*code)).collect()
    }

    #[test]
    fn a_pick_selects_only_the_offered_squares_it_touches() {
        let pick = ShapePick::new(
            ShapeSource::Rectangle,
            Coverage {
                squares: squares(&["SU", "SZ", "TV"]),
                outside: false,
            },
            &areas(&["GB", "SU", "SZ"]),
        );
        assert_eq!(pick.picked, areas(&["SU", "SZ"]));
        assert_eq!(pick.not_offered(), squares(&["TV"]));
        assert_eq!(
            pick.message(),
            "The rectangle touches 3 squares: SU, SZ, TV. This product does not offer TV. \
             2 squares are picked."
        );
    }

    #[test]
    fn a_pick_replaces_the_areas_and_keeps_the_format() {
        let current = Selection::from_params(Some("GB,NT"), Some("GeoPackage"), None);
        let pick = ShapePick::new(
            ShapeSource::File("wight.geojson".into()),
            Coverage {
                squares: squares(&["SZ"]),
                outside: false,
            },
            &areas(&["SU", "SZ", "NT"]),
        );
        let next = pick.applied_to(&current);
        assert_eq!(next.to_query_string(), "areas=SZ&format=GeoPackage");
        assert_eq!(
            pick.message(),
            "The boundary in wight.geojson touches 1 square: SZ. 1 square is picked."
        );
    }

    #[test]
    fn a_pick_of_nothing_offered_keeps_the_choice() {
        let current = Selection::from_params(Some("NT"), None, None);
        let pick = ShapePick::new(
            ShapeSource::Circle,
            Coverage {
                squares: squares(&["TV"]),
                outside: true,
            },
            &areas(&["SU", "NT"]),
        );
        assert_eq!(pick.applied_to(&current), current);
        assert_eq!(
            pick.message(),
            "The circle touches 1 square: TV. Part of the shape lies outside Great Britain's \
             squares. This product offers none of them, so the choice is unchanged."
        );
    }

    #[test]
    fn a_pick_in_welsh() {
        let pick = ShapePick::new(
            ShapeSource::Rectangle,
            Coverage {
                squares: squares(&["SU", "SZ"]),
                outside: false,
            },
            &areas(&["SU", "SZ"]),
        );
        assert_eq!(
            in_welsh(|| pick.message()),
            "Mae'r petryal yn cyffwrdd â 2 sgwâr: SU, SZ. Mae 2 sgwâr wedi'u dewis."
        );
    }

    fn gazetteer() -> Gazetteer {
        serde_json::from_str(
            r#"{"source": "test", "places": [["Bristol", "England", 358900, 172900]]}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_point_is_a_grid_reference_or_a_place() {
        let places = gazetteer();
        let reference = find_point(" SU 41 11 ", None).unwrap();
        assert_eq!(reference.name, "SU 41 11");
        assert_eq!(
            reference.point,
            BngPoint {
                easting: 441_500.0,
                northing: 111_500.0
            }
        );
        let place = find_point("bristol", Some(&places)).unwrap();
        assert_eq!(place.name, "Bristol");
        assert_eq!(place.point.northing, 172_900.0);
        assert_eq!(find_point("  ", Some(&places)), Err(PointProblem::Empty));
        assert_eq!(
            find_point("Atlantis", Some(&places)),
            Err(PointProblem::Unknown("Atlantis".into()))
        );
        assert_eq!(
            find_point("Bristol", None),
            Err(PointProblem::NoPlaces("Bristol".into()))
        );
        assert!(is_grid_ref("441000,111000"));
        assert!(!is_grid_ref("Bristol"));
    }

    #[test]
    fn a_radius_is_read_in_kilometres() {
        assert_eq!(parse_radius_km("20"), Ok(20.0));
        assert_eq!(parse_radius_km(" 7,5 km"), Ok(7.5));
        assert!(parse_radius_km("0").is_err());
        assert!(parse_radius_km("-3").is_err());
        assert!(parse_radius_km("twenty").is_err());
        assert!(parse_radius_km("5000").is_err());
    }
}
