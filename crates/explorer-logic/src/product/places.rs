//! The towns and cities of Great Britain the place box finds: `places.json`, made by
//! `tools/places` from GeoNames, with each place's position on the British National Grid
//! and, for places in Wales, their Welsh name where it differs from the English one.

use serde::Deserialize;

use crate::text::{Language, current, t};
use area_shapes::BngPoint;

/// The gazetteer as shipped: where it comes from, and its places, largest first.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Gazetteer {
    /// The data's source and licence, to credit where it is shown.
    pub source: String,
    pub places: Vec<Place>,
}

/// A town or city and where it is.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(from = "Row")]
pub struct Place {
    /// The English name (`Cardiff`).
    pub name: String,
    /// `England`, `Scotland` or `Wales`: tells apart places of one name.
    pub country: String,
    pub point: BngPoint,
    /// The Welsh name of a place in Wales (`Caerdydd`), where it has one other than
    /// its English name.
    pub welsh_name: Option<String>,
}

/// The file's compact rows: `["Southampton", "England", 442300, 111800]`, or with a
/// Welsh name fifth, `["Cardiff", "Wales", 318200, 176300, "Caerdydd"]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Row {
    Plain(String, String, u32, u32),
    WithWelsh(String, String, u32, u32, String),
}

impl From<Row> for Place {
    fn from(row: Row) -> Self {
        let (name, country, easting, northing, welsh_name) = match row {
            Row::Plain(name, country, easting, northing) => {
                (name, country, easting, northing, None)
            }
            Row::WithWelsh(name, country, easting, northing, welsh) => {
                (name, country, easting, northing, Some(welsh))
            }
        };
        Place {
            name,
            country,
            point: BngPoint {
                easting: f64::from(easting),
                northing: f64::from(northing),
            },
            welsh_name,
        }
    }
}

/// A place found by [`Gazetteer::search`] or [`Gazetteer::best`], and whether by its
/// Welsh name: then its label gives both names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaceMatch<'a> {
    pub place: &'a Place,
    /// Found by [`Place::welsh_name`], not by the English name.
    pub welsh: bool,
}

impl PlaceMatch<'_> {
    /// The name as offered in the list: the name that matched first, so the browser's
    /// list keeps it as typed, then the other name where the place has one and it
    /// helps (`Casnewydd (Newport), Wales`; on a Welsh page `Newport (Casnewydd),
    /// Cymru`), then the country in the page's language.
    pub fn label(&self) -> String {
        let place = self.place;
        let country = place.country_name();
        match (&place.welsh_name, self.welsh) {
            (Some(welsh), true) => format!("{welsh} ({}), {country}", place.name),
            (Some(welsh), false) if current() == Language::Welsh => {
                format!("{} ({welsh}), {country}", place.name)
            }
            _ => format!("{}, {country}", place.name),
        }
    }

    /// The name to show on the map: the Welsh one when it was typed or the page is in
    /// Welsh (and the place has one), else the English one.
    pub fn name(&self) -> &str {
        self.place
            .name_in(self.welsh || current() == Language::Welsh)
    }
}

impl Gazetteer {
    /// Places whose English or Welsh name matches `typed`, at most `limit`: names
    /// starting with it first, then names with a word starting with it; larger places
    /// first in each. A place is found by its English name when that matches as well.
    /// Case, accents and punctuation do not matter (`st albans` finds St. Albans).
    pub fn search(&self, typed: &str, limit: usize) -> Vec<PlaceMatch<'_>> {
        let wanted = folded(typed);
        if wanted.is_empty() {
            return Vec::new();
        }
        let names: Vec<(String, Option<String>)> = self
            .places
            .iter()
            .map(|p| (folded(&p.name), p.welsh_name.as_deref().map(folded)))
            .collect();
        // Whether place `i` matches by `test`, and if so whether by its Welsh name only.
        let matched = |i: usize, test: &dyn Fn(&str) -> bool| {
            let (english, welsh) = &names[i];
            if test(english) {
                Some(false)
            } else {
                welsh.as_deref().filter(|w| test(w)).map(|_| true)
            }
        };
        let starts = |name: &str| name.starts_with(&wanted);
        let word_starts = |name: &str| {
            name.match_indices(&wanted)
                .any(|(at, _)| at > 0 && name.as_bytes()[at - 1] == b' ')
        };
        let found = |i: usize, welsh: bool| PlaceMatch {
            place: &self.places[i],
            welsh,
        };
        let indices = 0..self.places.len();
        indices
            .clone()
            .filter_map(|i| matched(i, &starts).map(|welsh| found(i, welsh)))
            .chain(indices.filter_map(|i| match matched(i, &starts) {
                Some(_) => None,
                None => matched(i, &word_starts).map(|welsh| found(i, welsh)),
            }))
            .take(limit)
            .collect()
    }

    /// The place named exactly `typed` (as [`Gazetteer::search`] compares names), in
    /// English or Welsh or as labelled in the list, or the first one found.
    pub fn best(&self, typed: &str) -> Option<PlaceMatch<'_>> {
        let wanted = folded(typed);
        self.places
            .iter()
            .flat_map(|place| {
                let welsh = place.welsh_name.is_some().then_some(true);
                [Some(false), welsh]
                    .into_iter()
                    .flatten()
                    .map(move |welsh| PlaceMatch { place, welsh })
            })
            .find(|found| {
                folded(found.place.name_in(found.welsh)) == wanted
                    || folded(&found.label()) == wanted
            })
            .or_else(|| self.search(typed, 1).into_iter().next())
    }
}

impl Place {
    /// The place's country in the page's language (`Wales`, `Cymru`).
    pub fn country_name(&self) -> &str {
        match self.country.as_str() {
            "England" => t::product::country_england(),
            "Scotland" => t::product::country_scotland(),
            "Wales" => t::product::country_wales(),
            other => other,
        }
    }

    /// The name to show in Welsh (`welsh`) or English: the Welsh name where the place
    /// has one, else the English name.
    pub fn name_in(&self, welsh: bool) -> &str {
        match &self.welsh_name {
            Some(name) if welsh => name,
            _ => &self.name,
        }
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
    use crate::product::grid_ref::reference;

    fn gazetteer() -> Gazetteer {
        serde_json::from_str(
            r#"{"source": "GeoNames (CC BY 4.0)", "places": [
                ["London", "England", 529900, 180400],
                ["Cardiff", "Wales", 318200, 176300, "Caerdydd"],
                ["Swansea", "Wales", 265600, 193100, "Abertawe"],
                ["Southampton", "England", 442300, 111800],
                ["Newport", "Wales", 331300, 188100, "Casnewydd"],
                ["St. Albans", "England", 515000, 207100],
                ["Newport", "England", 449800, 89000],
                ["Ystradgynlais", "Wales", 278800, 210300],
                ["West Bromwich", "England", 400000, 291000],
                ["Bromley", "England", 540500, 169200],
                ["Castleford", "England", 442900, 425700],
                ["Abergavenny", "Wales", 329900, 214200, "Y Fenni"],
                ["Wrexham", "Wales", 333300, 350300, "Wrecsam"],
                ["Cwmbran", "Wales", 329300, 195600, "Cwmbrân"]
            ]}"#,
        )
        .unwrap()
    }

    fn names(found: Vec<PlaceMatch>) -> Vec<String> {
        found.iter().map(PlaceMatch::label).collect()
    }

    /// The labels of what `g` finds for `text`, ten at the most.
    fn found(g: &Gazetteer, text: &str) -> Vec<String> {
        names(g.search(text, 10))
    }

    #[test]
    fn the_shipped_rows_read_as_places() {
        let g = gazetteer();
        assert_eq!(g.source, "GeoNames (CC BY 4.0)");
        assert_eq!(g.places.len(), 14);
        assert_eq!(g.places[3].name, "Southampton");
        assert_eq!(g.places[3].welsh_name, None, "a four-element row");
        assert_eq!(
            g.places[3].point,
            BngPoint {
                easting: 442_300.0,
                northing: 111_800.0
            }
        );
        assert_eq!(reference(g.places[3].point).as_deref(), Some("SU 42 11"));
        let cardiff = &g.places[1];
        assert_eq!(cardiff.name, "Cardiff");
        assert_eq!(cardiff.welsh_name.as_deref(), Some("Caerdydd"));
        assert_eq!(reference(cardiff.point).as_deref(), Some("ST 18 76"));
    }

    #[test]
    fn rows_of_other_lengths_or_types_are_refused() {
        for row in [
            r#"["Cardiff", "Wales", 318200]"#,
            r#"["Cardiff", "Wales", 318200, 176300, "Caerdydd", "x"]"#,
            r#"["Cardiff", "Wales", 318200, 176300, 7]"#,
        ] {
            assert!(serde_json::from_str::<Place>(row).is_err(), "{row}");
        }
    }

    #[test]
    fn names_starting_with_the_text_come_before_words_inside_names() {
        let g = gazetteer();
        assert_eq!(
            found(&g, "brom"),
            ["Bromley, England", "West Bromwich, England"]
        );
        assert_eq!(found(&g, "NEWP"), ["Newport, Wales", "Newport, England"]);
        assert_eq!(names(g.search("newp", 1)), ["Newport, Wales"]);
        assert_eq!(found(&g, "st albans"), ["St. Albans, England"]);
        assert!(g.search("  ", 10).is_empty());
        assert!(g.search("ondon", 10).is_empty(), "only whole-word starts");
    }

    #[test]
    fn welsh_names_find_their_places_and_label_them_with_both_names() {
        let g = gazetteer();
        assert_eq!(found(&g, "caerdydd"), ["Caerdydd (Cardiff), Wales"]);
        assert_eq!(found(&g, "Abertawe"), ["Abertawe (Swansea), Wales"]);
        assert_eq!(
            found(&g, "casnewydd"),
            ["Casnewydd (Newport), Wales"],
            "the Newport in Wales only"
        );
        assert_eq!(found(&g, "wrecs"), ["Wrecsam (Wrexham), Wales"]);
        // The Welsh article may be typed or left out (a word inside the name).
        assert_eq!(found(&g, "y fenni"), ["Y Fenni (Abergavenny), Wales"]);
        assert_eq!(found(&g, "fenni"), ["Y Fenni (Abergavenny), Wales"]);
        // Both languages in one list, larger places first among names starting with it.
        assert_eq!(
            found(&g, "cas"),
            ["Casnewydd (Newport), Wales", "Castleford, England"]
        );
    }

    #[test]
    fn english_names_still_find_places_in_english() {
        let g = gazetteer();
        assert_eq!(found(&g, "cardiff"), ["Cardiff, Wales"]);
        assert_eq!(found(&g, "swan"), ["Swansea, Wales"]);
        // A Welsh name spelt as the English one but for its accent reads as English.
        assert_eq!(found(&g, "cwmbran"), ["Cwmbran, Wales"]);
        assert_eq!(found(&g, "Cwmbrân"), ["Cwmbran, Wales"]);
        assert!(!g.search("cardiff", 10)[0].welsh);
    }

    #[test]
    fn the_best_match_prefers_the_exact_name_or_label() {
        let g = gazetteer();
        assert_eq!(g.best("southampton").unwrap().place.name, "Southampton");
        assert_eq!(g.best("Newport, England").unwrap().place.country, "England");
        assert_eq!(g.best("newport").unwrap().place.country, "Wales");
        assert_eq!(g.best("south").unwrap().place.name, "Southampton");
        assert_eq!(g.best("nowhere"), None);
    }

    #[test]
    fn the_best_match_takes_welsh_names_and_labels() {
        let g = gazetteer();
        let found = g.best("caerdydd").unwrap();
        assert_eq!((found.place.name.as_str(), found.welsh), ("Cardiff", true));
        let found = g.best("Casnewydd (Newport), Wales").unwrap();
        assert_eq!(found.label(), "Casnewydd (Newport), Wales");
        assert_eq!(reference(found.place.point).as_deref(), Some("ST 31 88"));
        let found = g.best("Cardiff, Wales").unwrap();
        assert_eq!((found.place.name.as_str(), found.welsh), ("Cardiff", false));
        assert_eq!(g.best("aber").unwrap().label(), "Abertawe (Swansea), Wales");
    }

    #[test]
    fn a_place_is_named_in_welsh_where_it_has_a_welsh_name() {
        let g = gazetteer();
        assert_eq!(g.places[1].name_in(true), "Caerdydd");
        assert_eq!(g.places[1].name_in(false), "Cardiff");
        assert_eq!(g.places[0].name_in(true), "London");
        assert_eq!(g.places[0].name_in(false), "London");
    }

    #[test]
    fn a_welsh_page_gives_countries_and_map_names_in_welsh() {
        let g = gazetteer();
        let cardiff = g.best("Cardiff").unwrap();
        let london = g.best("London").unwrap();
        let labels = crate::text::in_welsh(|| {
            (
                cardiff.label(),
                cardiff.name().to_owned(),
                london.label(),
                london.name().to_owned(),
            )
        });
        assert_eq!(
            labels,
            (
                "Cardiff (Caerdydd), Cymru".to_owned(),
                "Caerdydd".to_owned(),
                "London, Lloegr".to_owned(),
                "London".to_owned()
            )
        );
        assert_eq!(cardiff.label(), "Cardiff, Wales");
        assert_eq!(cardiff.name(), "Cardiff");
    }

    /// The shipped `public/places.json` (made by `tools/places`) gives the known answers.
    #[test]
    fn the_shipped_gazetteer_finds_welsh_names() {
        let g: Gazetteer =
            serde_json::from_str(include_str!("../../../../public/places.json")).unwrap();
        assert!(g.source.contains("GeoNames"), "{}", g.source);
        for (typed, label) in [
            ("Caerdydd", "Caerdydd (Cardiff), Wales"),
            ("Abertawe", "Abertawe (Swansea), Wales"),
            ("Casnewydd", "Casnewydd (Newport), Wales"),
            ("Wrecsam", "Wrecsam (Wrexham), Wales"),
            ("Caerfyrddin", "Caerfyrddin (Carmarthen), Wales"),
            ("Y Fenni", "Y Fenni (Abergavenny), Wales"),
            ("Yr Wyddgrug", "Yr Wyddgrug (Mold), Wales"),
            ("Cardiff", "Cardiff, Wales"),
            ("Southampton", "Southampton, England"),
            ("Newport, England", "Newport, England"),
        ] {
            assert_eq!(
                g.best(typed).map(|found| found.label()).as_deref(),
                Some(label)
            );
            if !typed.contains(',') {
                let first = g.search(typed, 1);
                assert_eq!(names(first), [label], "{typed}");
            }
        }
        let newport = g.best("casnewydd").unwrap().place;
        assert_eq!(newport.country, "Wales");
        assert!(
            g.places
                .iter()
                .all(|p| p.welsh_name.is_none() || p.country == "Wales")
        );
    }
}
