//! The towns and cities of Great Britain the place box finds: `places.json`, made by
//! `tools/places` from GeoNames, with each place's position on the British National Grid.

use serde::Deserialize;

use crate::product::grid_ref::GridPoint;

/// The gazetteer as shipped: where it comes from, and its places, largest first.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Gazetteer {
    /// The data's source and licence, to credit where it is shown.
    pub source: String,
    pub places: Vec<Place>,
}

/// A town or city and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "(String, String, u32, u32)")]
pub struct Place {
    pub name: String,
    /// `England`, `Scotland` or `Wales`: tells apart places of one name.
    pub country: String,
    pub point: GridPoint,
}

/// The file's compact rows: `["Southampton", "England", 442300, 111800]`.
impl From<(String, String, u32, u32)> for Place {
    fn from((name, country, easting, northing): (String, String, u32, u32)) -> Self {
        Place {
            name,
            country,
            point: GridPoint { easting, northing },
        }
    }
}

impl Gazetteer {
    /// Places whose name matches `typed`, at most `limit`: names starting with it
    /// first, then names with a word starting with it; larger places first in each.
    /// Case, accents and punctuation do not matter (`st albans` finds St. Albans).
    pub fn search(&self, typed: &str, limit: usize) -> Vec<&Place> {
        let wanted = folded(typed);
        if wanted.is_empty() {
            return Vec::new();
        }
        let names: Vec<String> = self.places.iter().map(|p| folded(&p.name)).collect();
        let starts = |i: &usize| names[*i].starts_with(&wanted);
        let word_starts = |i: &usize| {
            !starts(i)
                && names[*i]
                    .match_indices(&wanted)
                    .any(|(at, _)| names[*i].as_bytes()[at - 1] == b' ')
        };
        let indices = 0..self.places.len();
        indices
            .clone()
            .filter(starts)
            .chain(indices.filter(word_starts))
            .take(limit)
            .map(|i| &self.places[i])
            .collect()
    }

    /// The place named exactly `typed` (as [`Gazetteer::search`] compares names), or
    /// the first one found.
    pub fn best(&self, typed: &str) -> Option<&Place> {
        let wanted = folded(typed);
        self.places
            .iter()
            .find(|p| folded(&p.name) == wanted || folded(&p.label()) == wanted)
            .or_else(|| self.search(typed, 1).into_iter().next())
    }
}

impl Place {
    /// `Newport, Wales`: the name as offered in the list.
    pub fn label(&self) -> String {
        format!("{}, {}", self.name, self.country)
    }
}

/// Lower case, common accents dropped, punctuation as spaces, spaces collapsed.
fn folded(text: &str) -> String {
    let plain: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ŵ' => 'w',
            'ŷ' | 'ÿ' => 'y',
            c if c.is_alphanumeric() => c,
            _ => ' ',
        })
        .collect();
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gazetteer() -> Gazetteer {
        serde_json::from_str(
            r#"{"source": "GeoNames (CC BY 4.0)", "places": [
                ["London", "England", 529900, 180400],
                ["Southampton", "England", 442300, 111800],
                ["Newport", "Wales", 331300, 188100],
                ["St. Albans", "England", 515000, 207100],
                ["Newport", "England", 449800, 89000],
                ["Ystradgynlais", "Wales", 278800, 210300],
                ["West Bromwich", "England", 400000, 291000],
                ["Bromley", "England", 540500, 169200]
            ]}"#,
        )
        .unwrap()
    }

    fn names(places: Vec<&Place>) -> Vec<String> {
        places.into_iter().map(Place::label).collect()
    }

    #[test]
    fn the_shipped_rows_read_as_places() {
        let g = gazetteer();
        assert_eq!(g.source, "GeoNames (CC BY 4.0)");
        assert_eq!(g.places.len(), 8);
        assert_eq!(g.places[1].name, "Southampton");
        assert_eq!(
            g.places[1].point,
            GridPoint {
                easting: 442_300,
                northing: 111_800
            }
        );
        assert_eq!(g.places[1].point.reference().as_deref(), Some("SU 42 11"));
    }

    #[test]
    fn names_starting_with_the_text_come_before_words_inside_names() {
        let g = gazetteer();
        assert_eq!(
            names(g.search("brom", 10)),
            ["Bromley, England", "West Bromwich, England"]
        );
        assert_eq!(
            names(g.search("NEWP", 10)),
            ["Newport, Wales", "Newport, England"]
        );
        assert_eq!(names(g.search("newp", 1)), ["Newport, Wales"]);
        assert_eq!(names(g.search("st albans", 10)), ["St. Albans, England"]);
        assert!(g.search("  ", 10).is_empty());
        assert!(g.search("ondon", 10).is_empty(), "only whole-word starts");
    }

    #[test]
    fn the_best_match_prefers_the_exact_name_or_label() {
        let g = gazetteer();
        assert_eq!(g.best("southampton").unwrap().name, "Southampton");
        assert_eq!(g.best("Newport, England").unwrap().country, "England");
        assert_eq!(g.best("newport").unwrap().country, "Wales");
        assert_eq!(g.best("south").unwrap().name, "Southampton");
        assert_eq!(g.best("nowhere"), None);
    }
}
