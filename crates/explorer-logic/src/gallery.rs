//! The gallery's search, filters and sort: plain functions over the product list,
//! and their encoding in the page's query string
//! (`?q=road&category=Mapping&format=GeoPackage&area=SU&sort=newest`).
//!
//! Reading a query string never fails: unknown parameters, unknown sort orders and
//! broken encodings are ignored, so an old or hand-edited link still opens the gallery.

use std::collections::BTreeSet;

use download_api::{Area, GridSquare, Product};
use download_api::{encode_component, parse_query};

use crate::table_tools::sort_positions;
use crate::text::{group_digits, t};

/// How the gallery orders products.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Sort {
    /// By name, A to Z.
    #[default]
    Name,
    /// Newest `YYYY-MM` version first; free-form versions (`"Version 5"`) after, by name.
    Newest,
}

impl Sort {
    /// Every order, as offered in the sort menu.
    pub const ALL: [Sort; 2] = [Sort::Name, Sort::Newest];

    /// The value in the query string.
    pub fn code(self) -> &'static str {
        match self {
            Sort::Name => "name",
            Sort::Newest => "newest",
        }
    }

    /// The order with this query-string value (any case), if there is one.
    pub fn from_code(code: &str) -> Option<Sort> {
        Sort::ALL
            .into_iter()
            .find(|sort| sort.code().eq_ignore_ascii_case(code.trim()))
    }

    /// What the sort menu shows.
    pub fn label(self) -> &'static str {
        match self {
            Sort::Name => t::gallery::sort_name(),
            Sort::Newest => t::gallery::sort_newest(),
        }
    }
}

/// What the user searches for and filters by in the gallery.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogueQuery {
    /// Free text, as typed (so the input keeps its spaces); matched word by word,
    /// case-insensitively, against id, name and description.
    pub text: String,
    /// Keep only this category.
    pub category: Option<String>,
    /// Keep only products with this data structure (`Raster` or `Vector`).
    pub structure: Option<String>,
    /// Keep only products offered in this format (the `format`, any subformat).
    pub format: Option<String>,
    /// Keep only products whose data covers this area (see [`covers`]).
    pub area: Option<Area>,
    /// The order of the results.
    pub sort: Sort,
}

impl CatalogueQuery {
    /// Reads the page's query string (with or without the leading `?`).
    pub fn parse(query: &str) -> Self {
        let mut parsed = CatalogueQuery::default();
        let pairs = query.trim_start_matches('?').split('&');
        // Each pair on its own: one badly encoded pair must not lose the others.
        for (name, value) in pairs.filter_map(|pair| parse_query(pair).ok()?.pop()) {
            let non_empty = || Some(value.trim().to_owned()).filter(|v| !v.is_empty());
            match name.as_str() {
                "q" => parsed.text = value.clone(),
                "category" => parsed.category = non_empty(),
                "structure" => parsed.structure = non_empty(),
                "format" => parsed.format = non_empty(),
                "area" => {
                    parsed.area = non_empty().map(|code| Area::from(code.to_uppercase().as_str()))
                }
                "sort" => parsed.sort = Sort::from_code(&value).unwrap_or_default(),
                _ => {}
            }
        }
        parsed
    }

    /// The query string (without `?`); empty when nothing is chosen, and the
    /// default sort is left out so the plain gallery keeps its plain address.
    pub fn to_query_string(&self) -> String {
        let sort = (self.sort != Sort::default()).then(|| self.sort.code());
        let text = Some(self.text.as_str()).filter(|text| !text.trim().is_empty());
        [
            ("q", text),
            ("category", self.category.as_deref()),
            ("structure", self.structure.as_deref()),
            ("format", self.format.as_deref()),
            ("area", self.area.as_ref().map(Area::code)),
            ("sort", sort),
        ]
        .into_iter()
        .filter_map(|(name, value)| Some(format!("{name}={}", encode_component(value?))))
        .collect::<Vec<_>>()
        .join("&")
    }

    /// The gallery address `path` showing this query.
    pub fn href(&self, path: &str) -> String {
        match self.to_query_string() {
            query if query.is_empty() => path.to_owned(),
            query => format!("{path}?{query}"),
        }
    }

    /// True when the search or a filter hides products (the sort does not count).
    pub fn is_narrowed(&self) -> bool {
        !self.text.trim().is_empty()
            || self.category.is_some()
            || self.structure.is_some()
            || self.format.is_some()
            || self.area.is_some()
    }

    /// How many filter menus are set (the search and the sort do not count).
    pub fn active_filters(&self) -> usize {
        [
            self.category.is_some(),
            self.structure.is_some(),
            self.format.is_some(),
            self.area.is_some(),
        ]
        .into_iter()
        .filter(|set| *set)
        .count()
    }

    /// The same query with the search and filters cleared, keeping the sort.
    pub fn cleared(&self) -> Self {
        CatalogueQuery {
            sort: self.sort,
            ..CatalogueQuery::default()
        }
    }

    /// Whether a product passes the search (`words`, lower-cased) and every filter;
    /// `text` is its lower-cased id, name and description.
    fn matches(&self, product: &Product, text: &[String; 3], words: &[String]) -> bool {
        let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
        words
            .iter()
            .all(|word| text.iter().any(|field| field.contains(word.as_str())))
            && self.category.as_deref().is_none_or(|wanted| {
                product
                    .category
                    .as_deref()
                    .is_some_and(|category| same(category, wanted))
            })
            && self.structure.as_deref().is_none_or(|wanted| {
                product
                    .data_structures()
                    .iter()
                    .any(|structure| same(structure, wanted))
            })
            && self.format.as_deref().is_none_or(|wanted| {
                product
                    .formats()
                    .iter()
                    .any(|format| same(&format.format, wanted))
            })
            && self
                .area
                .as_ref()
                .is_none_or(|wanted| covers(product, wanted))
    }

    /// The products that pass, in the chosen order.
    pub fn apply<'a>(&self, catalogue: &'a Catalogue) -> Vec<&'a Product> {
        self.positions(catalogue)
            .into_iter()
            .map(|i| &catalogue.products[i])
            .collect()
    }

    /// Where in the catalogue's products the ones that pass are, in the chosen order:
    /// the gallery keeps the list and shows it through these, never copying a product.
    pub fn positions(&self, catalogue: &Catalogue) -> Vec<usize> {
        let words: Vec<String> = self
            .text
            .to_lowercase()
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let Catalogue { products, text } = catalogue;
        let mut shown: Vec<usize> = (0..products.len())
            .filter(|&i| self.matches(&products[i], &text[i], &words))
            .collect();
        sort_positions(&mut shown, &|a, b| {
            // Ties by name, then id, so the gallery never reshuffles between renders.
            let by_name = || {
                text[a][NAME]
                    .cmp(&text[b][NAME])
                    .then_with(|| products[a].id.cmp(&products[b].id))
            };
            match self.sort {
                Sort::Name => by_name(),
                // `Some` beats `None` reversed: dated versions first, newest first.
                Sort::Newest => products[b]
                    .year_month()
                    .cmp(&products[a].year_month())
                    .then_with(by_name),
            }
        });
        shown
    }
}

/// The gallery's products with what searching and sorting compare lower-cased once,
/// when the list arrives: a keystroke then filters and sorts a thousand products
/// without lower-casing any of them again (sorting by name alone lower-cased two
/// names per comparison, about 20,000 a keystroke).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalogue {
    products: Vec<Product>,
    /// Each product's id, name and description, lower-cased.
    text: Vec<[String; 3]>,
}

/// Where the name is in [`Catalogue`]'s lower-cased text.
const NAME: usize = 1;

impl Catalogue {
    pub fn new(products: Vec<Product>) -> Self {
        let text = products
            .iter()
            .map(|p| [&p.id, &p.name, &p.description].map(|field| field.to_lowercase()))
            .collect();
        Catalogue { products, text }
    }

    /// The products, in the service's order.
    pub fn products(&self) -> &[Product] {
        &self.products
    }
}

/// Whether `product`'s data covers `area`: it lists the area itself, or it lists
/// `GB` and the area is one of the grid squares of Great Britain.
pub fn covers(product: &Product, area: &Area) -> bool {
    product
        .areas()
        .iter()
        .any(|offered| offered == area || (*offered == Area::Gb && area.square().is_some()))
}

/// The values the gallery's filter menus offer: what the catalogue actually holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facets {
    /// Categories, sorted.
    pub categories: Vec<String>,
    /// Data structures (`Raster`, `Vector`), sorted.
    pub structures: Vec<String>,
    /// Format names (subformats merged), sorted case-insensitively.
    pub formats: Vec<String>,
    /// Areas: `GB` first, then grid squares in the spec's order, then other codes.
    pub areas: Vec<Area>,
}

impl Facets {
    /// Collects the distinct values of `products`.
    pub fn of(products: &[Product]) -> Self {
        let sorted = |values: BTreeSet<String>| {
            let mut values: Vec<String> = values.into_iter().collect();
            values.sort_by_key(|value| value.to_lowercase());
            values
        };
        Facets {
            categories: sorted(products.iter().filter_map(|p| p.category.clone()).collect()),
            structures: sorted(
                products
                    .iter()
                    .flat_map(|p| p.data_structures().iter().cloned())
                    .collect(),
            ),
            formats: sorted(
                products
                    .iter()
                    .flat_map(|p| p.formats().iter().map(|f| f.format.clone()))
                    .collect(),
            ),
            areas: distinct_areas(products),
        }
    }
}

/// The areas `products` cover, in [`Area`]'s order. A thousand products list tens of
/// thousands of areas, nearly all of them the spec's 56: those are ticked off in a
/// table, and only other codes are sorted.
fn distinct_areas(products: &[Product]) -> Vec<Area> {
    let mut gb = false;
    let mut squares = [false; 55];
    let mut others = BTreeSet::new();
    for area in products.iter().flat_map(Product::areas) {
        match area {
            Area::Gb => gb = true,
            Area::Square(square) => squares[square.index()] = true,
            Area::Other(code) => {
                others.insert(code.as_str());
            }
        }
    }
    let squares = GridSquare::all().filter(|square| squares[square.index()]);
    gb.then_some(Area::Gb)
        .into_iter()
        .chain(squares.map(Area::Square))
        .chain(others.into_iter().map(Area::from))
        .collect()
}

/// The result line: `"18 products"`, or `"12 of 18 products"` when some are hidden.
pub fn result_summary(shown: usize, total: usize) -> String {
    if shown == total {
        t::gallery::products(total)
    } else {
        t::gallery::some_of_products(total, group_digits(shown as u64))
    }
}

/// How the area filter names an area: `GB (Great Britain)`, else its code.
pub fn area_label(area: &Area) -> String {
    match area {
        Area::Gb => t::gallery::area_gb().to_owned(),
        other => other.code().to_owned(),
    }
}

/// How a card sums up a product's areas: `"Great Britain"`, `"1 area: UK"`, `"56 areas"`;
/// `None` when the product lists none.
pub fn areas_summary(product: &Product) -> Option<String> {
    match product.areas() {
        [] => None,
        [Area::Gb] => Some(t::gallery::great_britain().to_owned()),
        [only] => Some(t::gallery::one_area(only)),
        areas => Some(t::gallery::areas(areas.len())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use download_api::Format;

    fn product(id: &str, name: &str, version: &str) -> Product {
        Product {
            id: id.into(),
            name: name.into(),
            description: format!("About {name}."),
            version: version.into(),
            url: format!("https://x/products/{id}"),
            documentation_url: None,
            areas: None,
            data_structures: None,
            category: None,
            formats: None,
            image_count: None,
            image_template: None,
            downloads_url: None,
            warning: None,
        }
    }

    fn catalogue() -> Vec<Product> {
        let mut roads = product("OpenRoads", "OS Open Roads", "2024-04");
        roads.category = Some("Transport networks".into());
        roads.data_structures = Some(vec!["Vector".into()]);
        roads.areas = Some(vec![Area::Gb]);
        roads.formats = Some(vec![
            Format {
                format: "GeoPackage".into(),
                subformat: None,
            },
            Format {
                format: "GML".into(),
                subformat: Some("3".into()),
            },
        ]);
        let mut local = product("OpenMapLocal", "OS Open Map - Local", "2024-10");
        local.category = Some("Mapping".into());
        local.data_structures = Some(vec!["Raster".into(), "Vector".into()]);
        local.areas = Some(vec![Area::Gb, Area::from("SU"), Area::from("SS")]);
        local.formats = Some(vec![Format {
            format: "ESRI® Shapefile".into(),
            subformat: None,
        }]);
        local.description = "Street-level mapping with ROAD names.".into();
        let mut toid = product("OpenTOID", "OS Open TOID", "2023-12");
        toid.category = Some("Addresses".into());
        toid.areas = Some(vec![Area::from("SU"), Area::from("TQ")]);
        let mut partner = product("PartnerMap", "Partner map", "Version 5");
        partner.category = Some("Mapping".into());
        partner.areas = Some(vec![Area::from("UK")]);
        vec![roads, local, toid, partner]
    }

    fn ids(products: &[&Product]) -> Vec<String> {
        products.iter().map(|p| p.id.clone()).collect()
    }

    /// The ids of the products `query` keeps, in its order.
    fn found(products: &[Product], query: &CatalogueQuery) -> Vec<String> {
        ids(&query.apply(&Catalogue::new(products.to_vec())))
    }

    fn full_query() -> CatalogueQuery {
        CatalogueQuery {
            text: "road & rail ".into(),
            category: Some("Land & height".into()),
            structure: Some("Vector".into()),
            format: Some("ESRI® Shapefile".into()),
            area: Some(Area::from("SU")),
            sort: Sort::Newest,
        }
    }

    #[test]
    fn query_string_round_trips() {
        for query in [
            full_query(),
            CatalogueQuery::default(),
            CatalogueQuery {
                area: Some(Area::from("UK")),
                ..CatalogueQuery::default()
            },
            CatalogueQuery {
                text: "naïve = 100% ?".into(),
                ..CatalogueQuery::default()
            },
        ] {
            assert_eq!(CatalogueQuery::parse(&query.to_query_string()), query);
            assert_eq!(
                CatalogueQuery::parse(query.href("/").trim_start_matches('/')),
                query
            );
        }
    }

    #[test]
    fn query_string_is_encoded_and_leaves_defaults_out() {
        assert_eq!(
            full_query().to_query_string(),
            "q=road%20%26%20rail%20&category=Land%20%26%20height&structure=Vector\
             &format=ESRI%C2%AE%20Shapefile&area=SU&sort=newest"
        );
        assert_eq!(CatalogueQuery::default().href("/"), "/");
        let blank = CatalogueQuery {
            text: "   ".into(),
            ..CatalogueQuery::default()
        };
        assert_eq!(blank.to_query_string(), "");
    }

    #[test]
    fn parse_is_tolerant_of_unknown_and_broken_values() {
        let query = CatalogueQuery::parse("?q=roads&sort=random&colour=red&format=%FF&area=su&x");
        assert_eq!(
            query,
            CatalogueQuery {
                text: "roads".into(),
                area: Some(Area::from("SU")),
                ..CatalogueQuery::default()
            }
        );
        assert_eq!(
            CatalogueQuery::parse("q=open+roads&category=&sort=NEWEST"),
            CatalogueQuery {
                text: "open roads".into(),
                sort: Sort::Newest,
                ..CatalogueQuery::default()
            }
        );
        assert_eq!(CatalogueQuery::parse(""), CatalogueQuery::default());
    }

    #[test]
    fn search_is_case_insensitive_over_id_name_and_description_word_by_word() {
        let products = catalogue();
        let search = |text: &str| {
            let query = CatalogueQuery {
                text: text.into(),
                ..CatalogueQuery::default()
            };
            found(&products, &query)
        };
        assert_eq!(search("road"), ["OpenMapLocal", "OpenRoads"]);
        assert_eq!(search("OPENTOID"), ["OpenTOID"]);
        assert_eq!(search("  open   local "), ["OpenMapLocal"]);
        assert_eq!(search("roads nowhere"), Vec::<String>::new());
        assert_eq!(search("").len(), 4);
    }

    #[test]
    fn filters_combine_and_ignore_case() {
        let products = catalogue();
        let mapped_vectors = CatalogueQuery {
            category: Some("mapping".into()),
            structure: Some("vector".into()),
            ..CatalogueQuery::default()
        };
        assert_eq!(found(&products, &mapped_vectors), ["OpenMapLocal"]);
        let gml = CatalogueQuery {
            format: Some("GML".into()),
            ..CatalogueQuery::default()
        };
        assert_eq!(found(&products, &gml), ["OpenRoads"]);
        let unknown = CatalogueQuery {
            category: Some("Unknown".into()),
            ..CatalogueQuery::default()
        };
        assert!(found(&products, &unknown).is_empty());
    }

    #[test]
    fn area_filter_counts_great_britain_as_covering_its_squares() {
        let products = catalogue();
        let within = |code: &str| {
            let query = CatalogueQuery {
                area: Some(Area::from(code)),
                ..CatalogueQuery::default()
            };
            found(&products, &query)
        };
        assert_eq!(within("TQ"), ["OpenMapLocal", "OpenRoads", "OpenTOID"]);
        assert_eq!(within("GB"), ["OpenMapLocal", "OpenRoads"]);
        assert_eq!(within("UK"), ["PartnerMap"]);
        assert_eq!(within("NI"), Vec::<String>::new());
    }

    #[test]
    fn newest_puts_dated_versions_first_then_free_form_ones() {
        let mut products = catalogue();
        products.push(product("Older", "A older", "2019-01"));
        products.push(product("Odd", "Another odd", "v2"));
        let query = CatalogueQuery {
            sort: Sort::Newest,
            ..CatalogueQuery::default()
        };
        assert_eq!(
            found(&products, &query),
            [
                "OpenMapLocal",
                "OpenRoads",
                "OpenTOID",
                "Older",
                "Odd",
                "PartnerMap"
            ]
        );
        let by_name = found(&products, &CatalogueQuery::default());
        assert_eq!(
            by_name,
            [
                "Older",
                "Odd",
                "OpenMapLocal",
                "OpenRoads",
                "OpenTOID",
                "PartnerMap"
            ]
        );
    }

    #[test]
    fn narrowing_and_clearing_keep_the_sort() {
        let query = full_query();
        assert!(query.is_narrowed());
        let cleared = query.cleared();
        assert!(!cleared.is_narrowed());
        assert_eq!(cleared.sort, Sort::Newest);
        assert_eq!(cleared.href("/"), "/?sort=newest");
    }

    #[test]
    fn facets_list_distinct_values_in_a_stable_order() {
        let facets = Facets::of(&catalogue());
        assert_eq!(
            facets.categories,
            ["Addresses", "Mapping", "Transport networks"]
        );
        assert_eq!(facets.structures, ["Raster", "Vector"]);
        assert_eq!(facets.formats, ["ESRI® Shapefile", "GeoPackage", "GML"]);
        let areas: Vec<&str> = facets.areas.iter().map(Area::code).collect();
        assert_eq!(areas, ["GB", "SS", "SU", "TQ", "UK"]);

        // Squares in the spec's order (TV last), other codes after them sorted.
        let mut products = catalogue();
        products[2].areas = Some(
            ["UK", "TV", "NI", "HP", "SU", "TV"]
                .map(Area::from)
                .to_vec(),
        );
        let areas: Vec<Area> = Facets::of(&products).areas;
        let sorted: Vec<Area> = products
            .iter()
            .flat_map(Product::areas)
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        assert_eq!(areas, sorted);
        let codes: Vec<&str> = areas.iter().map(Area::code).collect();
        assert_eq!(codes, ["GB", "HP", "SS", "SU", "TV", "NI", "UK"]);
    }

    #[test]
    fn summaries_read_naturally() {
        assert_eq!(result_summary(18, 18), "18 products");
        assert_eq!(result_summary(12, 18), "12 of 18 products");
        assert_eq!(result_summary(0, 1), "0 of 1 product");
        let products = catalogue();
        assert_eq!(
            areas_summary(&products[0]).as_deref(),
            Some("Great Britain")
        );
        assert_eq!(areas_summary(&products[1]).as_deref(), Some("3 areas"));
        assert_eq!(areas_summary(&products[3]).as_deref(), Some("1 area: UK"));
        assert_eq!(areas_summary(&product("x", "x", "1")), None);
        assert_eq!(area_label(&Area::Gb), "GB (Great Britain)");
        assert_eq!(area_label(&Area::from("UK")), "UK");
    }

    #[test]
    fn active_filters_count_the_menus_only() {
        let query = CatalogueQuery::parse("q=road&category=Mapping&format=GeoPackage&sort=newest");
        assert_eq!(query.active_filters(), 2);
        assert_eq!(query.cleared().active_filters(), 0);
    }
}
