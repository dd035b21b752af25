//! What a user picks on a product page (areas, format, subformat), how that choice
//! travels in the page's URL, and what the app makes of the service's answers.
//!
//! The page URL carries the choice as `areas=SU,SZ&format=GeoPackage&subformat=…`,
//! so a reload or a shared link restores it.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::service_error::ServiceError;
use crate::text::t;
use crate::{Totals, format_size};
use area_shapes::BngPoint;
use download_api::{Area, DownloadsQuery, Field, Format, GridSquare, ParseError, ProductDownload};
use download_api::{encode_component, parse_query};

/// The areas, format and subformat picked for one product.
///
/// Areas are kept sorted (`GB`, then squares in the spec's order, then other codes)
/// and without repeats, so equal choices have equal URLs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Selection {
    /// The areas to download; each becomes one query.
    pub areas: Vec<Area>,
    /// Only this format, or every format when `None`.
    pub format: Option<String>,
    /// Only this subformat of the format, or every one when `None`.
    pub subformat: Option<String>,
}

impl Selection {
    /// Builds a selection from the page URL's parameters as the router decoded them.
    /// Empty values count as absent; area codes are read case-insensitively.
    pub fn from_params(areas: Option<&str>, format: Option<&str>, subformat: Option<&str>) -> Self {
        let non_empty = |value: Option<&str>| {
            value
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let mut selection = Selection {
            areas: split_codes(areas.unwrap_or_default())
                .map(|code| Area::from(code.as_str()))
                .collect(),
            format: non_empty(format),
            subformat: non_empty(subformat),
        };
        selection.tidy();
        selection
    }

    /// Reads a raw page query string (without `?`); other parameters are ignored.
    pub fn parse(query: &str) -> Result<Self, ParseError> {
        let pairs = parse_query(query)?;
        let get = |wanted: &str| {
            pairs
                .iter()
                .rev()
                .find(|(name, _)| name == wanted)
                .map(|(_, value)| value.as_str())
        };
        Ok(Self::from_params(
            get("areas"),
            get("format"),
            get("subformat"),
        ))
    }

    /// The page query string (without `?`), empty when nothing is picked. Area codes
    /// are joined by plain commas so the address stays readable: `areas=SU,SZ`.
    pub fn to_query_string(&self) -> String {
        let mut parts = Vec::new();
        if !self.areas.is_empty() {
            let codes: Vec<_> = self
                .areas
                .iter()
                .map(|area| encode_component(area.code()))
                .collect();
            parts.push(format!("areas={}", codes.join(",")));
        }
        for (name, value) in [("format", &self.format), ("subformat", &self.subformat)] {
            if let Some(value) = value {
                parts.push(format!("{name}={}", encode_component(value)));
            }
        }
        parts.join("&")
    }

    /// Whether this area is picked.
    pub fn contains(&self, area: &Area) -> bool {
        self.areas.contains(area)
    }

    /// The same choice with `area` added, or removed when it was picked.
    pub fn toggled(&self, area: &Area) -> Self {
        let mut next = self.clone();
        if next.contains(area) {
            next.areas.retain(|a| a != area);
        } else {
            next.areas.push(area.clone());
            next.tidy();
        }
        next
    }

    /// The same choice with `areas` added.
    pub fn with_added(&self, areas: impl IntoIterator<Item = Area>) -> Self {
        let mut next = self.clone();
        next.areas.extend(areas);
        next.tidy();
        next
    }

    /// The same areas with another format. The subformat is kept only when the new
    /// format offers it.
    pub fn with_format(&self, format: Option<String>, offered: &[Format]) -> Self {
        let format = format.filter(|f| !f.is_empty());
        let subformat = match (&format, &self.subformat) {
            (Some(format), Some(sub)) if subformats(offered, format).contains(&sub.as_str()) => {
                Some(sub.clone())
            }
            _ => None,
        };
        Selection {
            areas: self.areas.clone(),
            format,
            subformat,
        }
    }

    /// The same choice with another subformat (`None` or empty: any).
    pub fn with_subformat(&self, subformat: Option<String>) -> Self {
        Selection {
            subformat: subformat.filter(|s| !s.is_empty()),
            ..self.clone()
        }
    }

    /// One downloads query per picked area, with the format filters.
    pub fn queries(&self) -> Vec<(Area, DownloadsQuery)> {
        self.areas
            .iter()
            .map(|area| {
                let query = DownloadsQuery {
                    area: Some(area.clone()),
                    format: self.format.clone(),
                    subformat: self.subformat.clone(),
                    ..DownloadsQuery::default()
                };
                (area.clone(), query)
            })
            .collect()
    }

    /// The same choice with only the areas in `offered`: what is asked of the service.
    /// Other areas (from a hand-edited address) stay in the address and are named.
    pub fn offered_only(&self, offered: &[Area]) -> Self {
        Selection {
            areas: self
                .areas
                .iter()
                .filter(|area| offered.contains(area))
                .cloned()
                .collect(),
            ..self.clone()
        }
    }

    /// The codes of the picked areas that are not in `offered`.
    pub fn not_offered(&self, offered: &[Area]) -> Vec<String> {
        self.areas
            .iter()
            .filter(|area| !offered.contains(area))
            .map(|area| area.code().to_owned())
            .collect()
    }

    /// What the picked areas hold, for the line above the table:
    /// `3 files · 1.2 MB · 2 areas`, noting when some sizes are unknown.
    pub fn summary(&self, total: &Totals) -> String {
        if self.areas.is_empty() {
            return t::product::no_areas_picked().to_owned();
        }
        let files = t::product::files(total.files);
        let size = format_size(total.bytes);
        let areas = t::product::areas(self.areas.len());
        if total.unsized_files > 0 {
            t::product::summary_some_unknown(areas, files, size)
        } else {
            t::product::summary(areas, files, size)
        }
    }

    /// The title of a bulk export of this choice:
    /// `OS OpenMap Local 2024-07: SU, SZ (GML 3)`.
    pub fn export_title(&self, product_name: &str, product_version: &str) -> String {
        let areas: Vec<&str> = self.areas.iter().map(Area::code).collect();
        let format: Vec<&str> = [&self.format, &self.subformat]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        let format = if format.is_empty() {
            t::product::export_all_formats().to_owned()
        } else {
            format.join(" ")
        };
        format!(
            "{product_name} {product_version}: {} ({format})",
            areas.join(", ")
        )
    }

    fn tidy(&mut self) {
        self.areas.sort();
        self.areas.dedup();
    }
}

/// Splits typed or linked area codes: commas, semicolons and spaces separate them,
/// case does not matter.
fn split_codes(input: &str) -> impl Iterator<Item = String> + '_ {
    input
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|code| !code.is_empty())
        .map(str::to_uppercase)
}

/// Area codes a user typed, sorted into those the product offers and the rest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypedAreas {
    /// Codes the product offers, in the order typed, without repeats.
    pub offered: Vec<Area>,
    /// Codes it does not offer (or that are no area at all), as typed but upper case.
    pub not_offered: Vec<String>,
}

impl TypedAreas {
    /// Reads `input` such as `SU, sz  tq` against the product's areas.
    pub fn parse(input: &str, product_areas: &[Area]) -> Self {
        let mut typed = TypedAreas::default();
        for code in split_codes(input) {
            let area = Area::from(code.as_str());
            if product_areas.contains(&area) {
                if !typed.offered.contains(&area) {
                    typed.offered.push(area);
                }
            } else if !typed.not_offered.contains(&code) {
                typed.not_offered.push(code);
            }
        }
        typed
    }

    /// A sentence for the codes that could not be used, if any.
    pub fn problem(&self) -> Option<String> {
        let (known, unknown): (Vec<&String>, Vec<&String>) = self
            .not_offered
            .iter()
            .partition(|code| Area::all().any(|area| area.code() == code.as_str()));
        let list = |codes: &[&String]| {
            codes
                .iter()
                .map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut sentences = Vec::new();
        if !known.is_empty() {
            sentences.push(t::product::not_offered_for(list(&known)));
        }
        if !unknown.is_empty() {
            sentences.push(if unknown.len() == 1 {
                t::product::not_an_area_code(list(&unknown))
            } else {
                t::product::not_area_codes(list(&unknown))
            });
        }
        (!sentences.is_empty()).then(|| sentences.join(" "))
    }
}

/// The distinct format names of a product, in the order it lists them.
pub fn format_names(formats: &[Format]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for format in formats {
        if !names.contains(&format.format.as_str()) {
            names.push(&format.format);
        }
    }
    names
}

/// The distinct subformats a product offers for `format`, in its order.
pub fn subformats<'a>(formats: &'a [Format], format: &str) -> Vec<&'a str> {
    let mut subs: Vec<&str> = Vec::new();
    for sub in formats
        .iter()
        .filter(|f| f.format == format)
        .filter_map(|f| f.subformat.as_deref())
    {
        if !subs.contains(&sub) {
            subs.push(sub);
        }
    }
    subs
}

/// What a selection lists out of a product's whole downloads list: each picked area's
/// files, filtered here exactly as the service filters that area's query.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    /// Every file listed, in the order of the areas, each once.
    pub downloads: Vec<ProductDownload>,
    /// Totals of each picked area (zero files included).
    pub by_area: BTreeMap<Area, Totals>,
    /// All files together.
    pub total: Totals,
}

impl Selection {
    /// The files of `all` (the product's unfiltered downloads) that this selection's
    /// queries would list. A file listed under two areas (same `url`) appears once;
    /// files without a usable address (an empty `url`) are each their own.
    pub fn listing(&self, all: &[ProductDownload]) -> Listing {
        let mut listing = Listing::default();
        for (area, query) in self.queries() {
            let mut files: Vec<&ProductDownload> = Vec::new();
            for file in all.iter().filter(|file| lists(&query, file)) {
                if !files.iter().any(|f| same_file(f, file)) {
                    files.push(file);
                }
            }
            listing
                .by_area
                .insert(area, Totals::of(files.iter().map(|d| d.file.size)));
            for file in files {
                if !listing.downloads.iter().any(|d| same_file(d, file)) {
                    listing.downloads.push(file.clone());
                }
            }
        }
        listing.total = Totals::of(listing.downloads.iter().map(|d| d.file.size));
        listing
    }
}

/// Whether `query` lists `file`, as the service filters it. A file whose area or format
/// the service sent unusable cannot be placed: it is listed whatever is picked, and the
/// page's note says why, rather than hidden by every selection.
fn lists(query: &DownloadsQuery, file: &ProductDownload) -> bool {
    let matches = |query: &DownloadsQuery| {
        query.matches(
            &file.file.file_name,
            &file.area,
            &file.format,
            file.subformat.as_deref(),
        )
    };
    let unknown = |field| crate::flaws::has(&file.file.flaws, field);
    if !unknown(Field::Area) && !unknown(Field::Format) {
        return matches(query);
    }
    // Only what is known of the file is filtered on.
    matches(&DownloadsQuery {
        area: query.area.clone().filter(|_| !unknown(Field::Area)),
        format: query.format.clone().filter(|_| !unknown(Field::Format)),
        subformat: query.subformat.clone().filter(|_| !unknown(Field::Format)),
        ..query.clone()
    })
}

/// Whether `a` and `b` are one file listed twice: the same usable address.
fn same_file(a: &ProductDownload, b: &ProductDownload) -> bool {
    a.file.is_offered() && a.file.url == b.file.url
}

/// How long a product's downloads list may take before the page offers to try again.
pub const LIST_DEADLINE: Duration = Duration::from_secs(20);

/// Why a product's downloads list is not there.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ListError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("{}", t::product::list_too_slow(LIST_DEADLINE.as_secs() as usize))]
    TooSlow,
}

impl ListError {
    /// The panel's heading.
    pub fn title(&self) -> String {
        match self {
            ListError::Service(error) => error.title(),
            ListError::TooSlow => t::product::slow_title().to_owned(),
        }
    }

    /// What went wrong, for a person (see [`ServiceError::plain_message`]).
    pub fn message(&self) -> String {
        match self {
            ListError::Service(error) => error.plain_message(),
            slow => slow.to_string(),
        }
    }
}

impl Selection {
    /// The line above the files: what is picked and how much it lists, or where the
    /// list of files is (`listing` is `None` while it loads).
    pub fn listing_summary(&self, listing: Option<Result<&Listing, &ListError>>) -> String {
        match listing {
            _ if self.areas.is_empty() => self.summary(&Totals::default()),
            None => t::product::listing_files().to_owned(),
            Some(Err(_)) => t::product::files_not_listed().to_owned(),
            Some(Ok(listing)) => self.summary(&listing.total),
        }
    }
}

/// What finding a place (`name`, at `point`) on a product's map does: the square it
/// lies in, to pick when the product offers it, and what to tell the user.
pub fn found_place(name: &str, point: BngPoint, offered: &[Area]) -> (Option<Area>, String) {
    let Some(square) = point.square() else {
        return (None, t::product::place_outside(name));
    };
    let area = Area::Square(square);
    if offered.contains(&area) {
        let told = t::product::place_picked(name, square);
        (Some(area), told)
    } else {
        let told = t::product::place_not_offered(name, square);
        (None, told)
    }
}

/// How a product's areas are picked, from the areas it offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AreaPicking {
    /// One whole area only (`GB`): it is picked for the user and nothing is shown to
    /// pick with.
    Fixed(Area),
    /// Whole areas only (`GB` and `NI`, say): a toggle for each, no map.
    Chips,
    /// Grid squares: the map, a toggle for each whole area and the typed-codes box.
    Map,
}

impl AreaPicking {
    /// The way to pick among `offered`.
    pub fn of(offered: &[Area]) -> Self {
        match offered {
            [only] if only.square().is_none() => AreaPicking::Fixed(only.clone()),
            _ if offered.iter().any(|a| a.square().is_some()) => AreaPicking::Map,
            _ => AreaPicking::Chips,
        }
    }

    /// What is listed for `picked` (the address's choice): a fixed area whatever the
    /// address says, else the picked areas the product offers.
    pub fn wanted(&self, picked: &Selection, offered: &[Area]) -> Selection {
        match self {
            AreaPicking::Fixed(area) => Selection {
                areas: vec![area.clone()],
                ..picked.clone()
            },
            _ => picked.offered_only(offered),
        }
    }

    /// What to say of a product with one area only: it is the whole of it.
    pub fn whole_area(&self) -> Option<String> {
        match self {
            AreaPicking::Fixed(Area::Gb) => Some(t::product::only_area_gb().to_owned()),
            AreaPicking::Fixed(area) => Some(t::product::only_area(area)),
            _ => None,
        }
    }

    /// What to say while nothing is picked.
    pub fn empty_hint(&self) -> &'static str {
        match self {
            AreaPicking::Map => t::product::hint_map(),
            _ => t::product::hint_chips(),
        }
    }
}

/// A point of the compass an arrow key moves to, on a map with north up (not
/// `table_tools::Direction`, the order of a sorted column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compass {
    North,
    South,
    West,
    East,
}

impl Compass {
    /// The direction of an arrow key (`KeyboardEvent.key`), if it is one.
    pub fn from_key(key: &str) -> Option<Self> {
        match key {
            "ArrowUp" => Some(Compass::North),
            "ArrowDown" => Some(Compass::South),
            "ArrowLeft" => Some(Compass::West),
            "ArrowRight" => Some(Compass::East),
            _ => None,
        }
    }
}

/// The square of `among` an arrow key moves to from `from`: the nearest one that way,
/// preferring squares in line over diagonal ones. `None` at the edge.
pub fn neighbour(from: GridSquare, direction: Compass, among: &[GridSquare]) -> Option<GridSquare> {
    let cell = |square: GridSquare| {
        let (e, n) = square.origin();
        (
            (e / GridSquare::SIZE_M) as i64,
            (n / GridSquare::SIZE_M) as i64,
        )
    };
    let (x0, y0) = cell(from);
    among
        .iter()
        .copied()
        .filter(|&square| square != from)
        .filter_map(|square| {
            let (dx, dy) = (cell(square).0 - x0, cell(square).1 - y0);
            let (ahead, aside) = match direction {
                Compass::North => (dy, dx),
                Compass::South => (-dy, dx),
                Compass::East => (dx, dy),
                Compass::West => (-dx, dy),
            };
            // Sideways steps cost more than steps ahead, so a straight neighbour wins.
            (ahead > 0).then_some((ahead + 3 * aside.abs(), aside.abs(), square))
        })
        .min()
        .map(|(_, _, square)| square)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn areas(codes: &[&str]) -> Vec<Area> {
        codes.iter().map(|c| Area::from(*c)).collect()
    }

    fn square(code: &str) -> GridSquare {
        GridSquare::from_code(code).unwrap()
    }

    fn download(url: &str, area: &str, size: Option<u64>) -> ProductDownload {
        ProductDownload {
            file: download_api::Download {
                url: url.into(),
                file_name: format!("{url}.zip"),
                size,
                ..Default::default()
            },
            area: Area::from(area),
            format: "GML".into(),
            subformat: Some("3".into()),
        }
    }

    /// The summary of picking `areas` (as the address writes them) with these totals.
    fn summary(areas: &str, files: usize, bytes: u64, unsized_files: usize) -> String {
        let totals = Totals {
            files,
            bytes,
            unsized_files,
        };
        Selection::from_params(Some(areas), None, None).summary(&totals)
    }

    fn formats() -> Vec<Format> {
        let f = |format: &str, sub: Option<&str>| Format {
            format: format.into(),
            subformat: sub.map(Into::into),
        };
        vec![
            f("ESRI® Shapefile", None),
            f("GML", Some("3")),
            f("GeoTIFF", Some("Full Colour")),
            f("GeoTIFF", Some("Backdrop")),
            f("GeoPackage", None),
        ]
    }

    #[test]
    fn a_found_place_picks_its_square_when_offered() {
        let southampton = BngPoint {
            easting: 441_000.0,
            northing: 111_000.0,
        };
        assert_eq!(
            found_place("Southampton", southampton, &areas(&["SU", "SZ"])),
            (
                Some(Area::Square(square("SU"))),
                "Southampton is in SU: SU is picked.".to_owned()
            )
        );
        assert_eq!(
            found_place("Southampton", southampton, &areas(&["TQ"])).1,
            "Southampton is in SU, which this product does not offer."
        );
        let far = BngPoint {
            easting: 5_000_000.0,
            northing: 111_000.0,
        };
        assert_eq!(
            found_place("Atlantis", far, &areas(&["SU"])),
            (
                None,
                "Atlantis is outside Great Britain's grid squares.".to_owned()
            )
        );
    }

    #[test]
    fn a_product_of_one_area_says_it_is_the_whole() {
        let whole = |codes| AreaPicking::of(&areas(codes)).whole_area();
        assert_eq!(
            whole(&["GB"]).as_deref(),
            Some("All of Great Britain (GB), the only area of this product.")
        );
        assert!(
            whole(&["NI"])
                .unwrap()
                .ends_with(", the only area of this product.")
        );
        assert_eq!(whole(&["SU", "SZ"]), None);
        assert_eq!(whole(&["GB", "NI"]), None);
    }

    #[test]
    fn the_listing_summary_says_where_the_list_is() {
        let picked = Selection {
            areas: areas(&["SU"]),
            ..Selection::default()
        };
        assert_eq!(picked.listing_summary(None), "Getting the list of files…");
        assert_eq!(
            picked.listing_summary(Some(Err(&ListError::TooSlow))),
            "Files not listed"
        );
        let listing = picked.listing(&[download("a", "SU", Some(2_000))]);
        assert_eq!(
            picked.listing_summary(Some(Ok(&listing))),
            "1 file · 2.00 kB · 1 area"
        );
        assert_eq!(
            Selection::default().listing_summary(None),
            "No areas picked yet."
        );
    }

    #[test]
    fn a_slow_list_says_how_long_it_was_given() {
        assert_eq!(
            ListError::TooSlow.message(),
            "The service did not send the list of files within 20 seconds."
        );
        assert_eq!(ListError::TooSlow.title(), "The service is slow to answer");
    }

    #[test]
    fn url_state_round_trips_with_readable_areas_and_encoded_formats() {
        let selection = Selection {
            areas: areas(&["SU", "SZ", "GB", "NI"]),
            format: Some("ESRI® Shapefile".into()),
            subformat: Some("Full Colour".into()),
        };
        let query = Selection::parse(&selection.to_query_string())
            .unwrap()
            .to_query_string();
        assert_eq!(
            query,
            "areas=GB,SU,SZ,NI&format=ESRI%C2%AE%20Shapefile&subformat=Full%20Colour"
        );
        assert_eq!(
            Selection::parse(&query).unwrap().areas,
            areas(&["GB", "SU", "SZ", "NI"])
        );
        assert_eq!(Selection::default().to_query_string(), "");
    }

    #[test]
    fn url_params_are_read_forgivingly() {
        let selection = Selection::from_params(Some("sz, SU,,su tq"), Some(""), None);
        assert_eq!(selection.areas, areas(&["SU", "TQ", "SZ"]));
        assert_eq!(selection.format, None);
        let parsed = Selection::parse("areas=SU%2CSZ&format=GML&subformat=3&other=x").unwrap();
        assert_eq!(parsed.areas, areas(&["SU", "SZ"]));
        assert_eq!(parsed.format.as_deref(), Some("GML"));
        assert_eq!(parsed.subformat.as_deref(), Some("3"));
        assert!(Selection::parse("areas=%FF").is_err());
    }

    #[test]
    fn toggling_adds_and_removes_an_area() {
        let picked = Selection::default()
            .toggled(&Area::from("SZ"))
            .toggled(&Area::from("SU"));
        assert_eq!(picked.areas, areas(&["SU", "SZ"]));
        assert!(picked.contains(&Area::from("SU")));
        assert_eq!(picked.toggled(&Area::from("SU")).areas, areas(&["SZ"]));
        assert_eq!(
            picked.with_added(areas(&["SU", "UK"])).areas,
            areas(&["SU", "SZ", "UK"])
        );
    }

    #[test]
    fn changing_format_drops_a_subformat_the_new_format_lacks() {
        let offered = formats();
        let tiff = Selection::default()
            .with_format(Some("GeoTIFF".into()), &offered)
            .with_subformat(Some("Backdrop".into()));
        assert_eq!(tiff.subformat.as_deref(), Some("Backdrop"));
        let still_tiff = tiff.with_format(Some("GeoTIFF".into()), &offered);
        assert_eq!(still_tiff.subformat.as_deref(), Some("Backdrop"));
        let gml = tiff.with_format(Some("GML".into()), &offered);
        assert_eq!((gml.format.as_deref(), gml.subformat), (Some("GML"), None));
        let any = tiff.with_format(Some(String::new()), &offered);
        assert_eq!(any.format, None);
        assert_eq!(tiff.with_subformat(Some(String::new())).subformat, None);
    }

    #[test]
    fn formats_and_subformats_are_listed_once_each() {
        let offered = formats();
        assert_eq!(
            format_names(&offered),
            ["ESRI® Shapefile", "GML", "GeoTIFF", "GeoPackage"]
        );
        assert_eq!(subformats(&offered, "GeoTIFF"), ["Full Colour", "Backdrop"]);
        assert!(subformats(&offered, "GeoPackage").is_empty());
    }

    #[test]
    fn one_query_per_area_with_the_format_filters() {
        let selection = Selection::from_params(Some("SZ,SU"), Some("GML"), Some("3"));
        let queries = selection.queries();
        assert_eq!(queries.len(), 2);
        assert_eq!(queries[0].0, Area::from("SU"));
        assert_eq!(
            queries[0].1.to_query_string(),
            "area=SU&format=GML&subformat=3"
        );
        assert_eq!(queries[1].1.area, Some(Area::from("SZ")));
        assert!(Selection::default().queries().is_empty());
    }

    #[test]
    fn areas_the_product_does_not_offer_are_set_apart() {
        let offered = areas(&["GB", "SU", "SZ"]);
        let picked = Selection::from_params(Some("SU,TQ,UK"), Some("GML"), None);
        let wanted = picked.offered_only(&offered);
        assert_eq!(wanted.areas, areas(&["SU"]));
        assert_eq!(wanted.format.as_deref(), Some("GML"));
        assert_eq!(picked.not_offered(&offered), ["TQ", "UK"]);
        assert!(wanted.not_offered(&offered).is_empty());
    }

    #[test]
    fn summary_counts_files_bytes_and_areas() {
        assert_eq!(
            Selection::default().summary(&Totals::default()),
            "No areas picked yet."
        );
        assert_eq!(summary("SU", 1, 631_663, 0), "1 file · 632 kB · 1 area");
        assert_eq!(
            summary("SU,SZ", 3, 2_000_000, 1),
            "3 files · 2.00 MB · 2 areas (some sizes unknown)"
        );
    }

    #[test]
    fn the_picker_speaks_welsh() {
        crate::text::in_welsh(|| {
            assert_eq!(summary("SU", 0, 0, 0), "Dim ffeiliau · 0 B · 1 ardal");
            assert_eq!(
                summary("SU,SZ", 3, 2_000_000, 1),
                "3 ffeil · 2.00 MB · 2 ardal (rhai meintiau'n anhysbys)"
            );
            let offered = areas(&["SU", "SZ"]);
            assert_eq!(
                TypedAreas::parse("su hp xx yy", &offered)
                    .problem()
                    .unwrap(),
                "Nid yw'r cynnyrch hwn ar gael ar gyfer HP. \
                 Nid yw XX, YY yn godau ardal y mae'r cynnyrch hwn yn eu cynnig."
            );
            let southampton = BngPoint {
                easting: 441_000.0,
                northing: 111_000.0,
            };
            assert_eq!(
                found_place("Southampton", southampton, &offered).1,
                "Mae Southampton yn SU: mae SU wedi'i ddewis."
            );
            assert_eq!(
                ListError::TooSlow.message(),
                "Nid anfonodd y gwasanaeth y rhestr ffeiliau o fewn 20 eiliad."
            );
            assert_eq!(
                crate::product::grid_ref::GridRefError::UnknownSquare("XX".into()).to_string(),
                "Nid yw XX yn un o sgwariau 100 km Prydain Fawr."
            );
        });
    }

    #[test]
    fn export_title_names_product_areas_and_format() {
        let picked = Selection::from_params(Some("SZ,SU"), Some("GML"), Some("3"));
        assert_eq!(
            picked.export_title("OS OpenMap Local", "2024-07"),
            "OS OpenMap Local 2024-07: SU, SZ (GML 3)"
        );
        let any = Selection::from_params(Some("GB"), None, None);
        assert_eq!(
            any.export_title("P", "Version 5"),
            "P Version 5: GB (all formats)"
        );
    }

    #[test]
    fn typed_codes_are_split_upper_cased_and_checked_against_the_product() {
        let offered = areas(&["GB", "SU", "SZ", "TQ", "UK"]);
        let typed = TypedAreas::parse("SU, sz  tq;su, uk", &offered);
        assert_eq!(typed.offered, areas(&["SU", "SZ", "TQ", "UK"]));
        assert!(typed.not_offered.is_empty());
        assert_eq!(typed.problem(), None);

        let typed = TypedAreas::parse("su hp xx", &offered);
        assert_eq!(typed.offered, areas(&["SU"]));
        assert_eq!(typed.not_offered, ["HP", "XX"]);
        assert_eq!(
            typed.problem().unwrap(),
            "This product is not offered for HP. XX is not an area code this product offers."
        );
        assert_eq!(TypedAreas::parse("  ", &offered), TypedAreas::default());
    }

    #[test]
    fn the_whole_list_is_filtered_per_area_like_the_service_filters_each_query() {
        let mut other_format = download("d", "SU", Some(7));
        other_format.format = "GeoPackage".into();
        other_format.subformat = None;
        let all = [
            download("a", "SU", Some(100)),
            download("b", "SU", None),
            download("c", "TQ", Some(5)),
            download("g", "GB", Some(1000)),
            // Listed twice by the service: shown once.
            download("a", "SU", Some(100)),
            other_format,
        ];
        let picked = Selection::from_params(Some("TQ,SU,SV"), None, None);
        let listing = picked.listing(&all);
        let urls: Vec<_> = listing
            .downloads
            .iter()
            .map(|d| d.file.url.as_str())
            .collect();
        assert_eq!(urls, ["a", "b", "d", "c"]);
        assert_eq!(
            listing.total,
            Totals {
                files: 4,
                bytes: 112,
                unsized_files: 1
            }
        );
        assert_eq!(listing.by_area[&Area::from("SU")].bytes, 107);
        assert_eq!(listing.by_area[&Area::from("SV")], Totals::default());
        assert!(!listing.by_area.contains_key(&Area::from("GB")));

        let gml = Selection::from_params(Some("SU,GB"), Some("GML"), Some("3")).listing(&all);
        let urls: Vec<_> = gml.downloads.iter().map(|d| d.file.url.as_str()).collect();
        assert_eq!(urls, ["g", "a", "b"]);
        assert_eq!(gml.by_area[&Area::from("SU")].files, 2);
        let gpkg = Selection::from_params(Some("SU"), Some("GeoPackage"), None).listing(&all);
        assert_eq!(gpkg.downloads.len(), 1);
        assert_eq!(gpkg.downloads[0].file.url, "d");
        assert_eq!(Selection::default().listing(&all), Listing::default());

        // Files without a usable address are not one file: each is listed.
        let unoffered = [download("", "SU", None), download("", "SU", None)];
        let su = Selection::from_params(Some("SU"), None, None).listing(&unoffered);
        assert_eq!(su.downloads.len(), 2);
    }

    #[test]
    fn a_file_of_unusable_area_or_format_is_listed_whatever_is_picked() {
        let listing: Vec<ProductDownload> = serde_json::from_str(
            r#"[{"url":"https://x/a","fileName":"a.zip","area":5,"format":"GML"},
                {"url":"https://x/b","fileName":"b.zip","area":"SU","format":7},
                {"url":"https://x/c","fileName":"c.zip","area":"SU","format":"GML"}]"#,
        )
        .unwrap();
        let urls = |picked: Selection| -> Vec<String> {
            picked
                .listing(&listing)
                .downloads
                .into_iter()
                .map(|d| d.file.url)
                .collect()
        };
        let tq_gml = urls(Selection::from_params(Some("TQ"), Some("GML"), None));
        assert_eq!(
            tq_gml,
            ["https://x/a"],
            "its area is unknown: listed in TQ too"
        );
        let su_gpkg = urls(Selection::from_params(Some("SU"), Some("GeoPackage"), None));
        assert_eq!(su_gpkg, ["https://x/b"], "its format is unknown");
        let su_gml = urls(Selection::from_params(Some("SU"), Some("GML"), None));
        assert_eq!(su_gml, ["https://x/a", "https://x/b", "https://x/c"]);
    }

    #[test]
    fn a_product_with_one_whole_area_has_it_picked_and_squares_get_the_map() {
        let gb_only = areas(&["GB"]);
        let fixed = AreaPicking::of(&gb_only);
        assert_eq!(fixed, AreaPicking::Fixed(Area::Gb));
        let wanted = fixed.wanted(
            &Selection::from_params(Some("SU"), Some("CSV"), None),
            &gb_only,
        );
        assert_eq!(wanted.areas, areas(&["GB"]));
        assert_eq!(wanted.format.as_deref(), Some("CSV"));
        assert_eq!(
            fixed.wanted(&Selection::default(), &gb_only).areas,
            areas(&["GB"])
        );

        let squares = areas(&["GB", "SU", "SZ"]);
        let map = AreaPicking::of(&squares);
        assert_eq!(map, AreaPicking::Map);
        assert!(map.empty_hint().contains("map"));
        let picked = Selection::from_params(Some("SU,TQ"), None, None);
        assert_eq!(map.wanted(&picked, &squares).areas, areas(&["SU"]));
        assert_eq!(AreaPicking::of(&areas(&["SU"])), AreaPicking::Map);

        let whole = AreaPicking::of(&areas(&["GB", "NI"]));
        assert_eq!(whole, AreaPicking::Chips);
        assert!(!whole.empty_hint().contains("map"));
        assert_eq!(
            AreaPicking::of(&areas(&["UK"])),
            AreaPicking::Fixed(Area::from("UK"))
        );
    }

    #[test]
    fn arrow_keys_move_to_the_nearest_square_that_way() {
        let all: Vec<GridSquare> = GridSquare::all().collect();
        let go =
            |from: &str, direction| neighbour(square(from), direction, &all).map(GridSquare::code);
        assert_eq!(go("SU", Compass::East), Some("TQ"));
        assert_eq!(go("SU", Compass::West), Some("ST"));
        assert_eq!(go("SU", Compass::North), Some("SP"));
        assert_eq!(go("SU", Compass::South), Some("SZ"));
        assert_eq!(go("SV", Compass::West), None);
        assert_eq!(go("HP", Compass::North), None);
        // Only some squares offered: skip the gap rather than stop.
        let few = [square("SV"), square("SX"), square("NT")];
        assert_eq!(
            neighbour(square("SV"), Compass::East, &few),
            Some(square("SX"))
        );
        assert_eq!(
            neighbour(square("SX"), Compass::North, &few),
            Some(square("NT"))
        );
        assert_eq!(Compass::from_key("ArrowLeft"), Some(Compass::West));
        assert_eq!(Compass::from_key("a"), None);
    }
}
