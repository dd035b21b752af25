//! The basket: products picked on their pages, each with its areas and format, whose
//! files are then fetched together, each product's into a sub-folder of its own.
//!
//! It is kept in the browser (localStorage, [`STORAGE_KEY`]), so it survives a reload
//! and other tabs follow it, and it travels as a link (`/basket?items=…`) that opens
//! the same basket in another browser. The page wires a [`Basket`] to both: it hands
//! it [`Event`]s and carries out the [`Action`]s it gets back.

use std::collections::BTreeSet;

use download_api::{Area, ProductDownload};
use percent_encoding::percent_decode_str;

use crate::Totals;
use crate::bulk::export::BulkDownload;
use crate::bulk::naming::safe_name;
use crate::product::selection::{AreaPicking, Selection};
use crate::routes::{Route, basket_link};
use crate::text::t;

/// Where the basket is kept in localStorage (its storage form, [`Basket::to_storage`]).
pub const STORAGE_KEY: &str = "download-explorer.basket";
/// Beside it, how many items it holds, as plain digits: the header shows it without
/// reading the basket itself (the header's code loads with every page).
pub const COUNT_KEY: &str = "download-explorer.basket-count";

/// A field of a link's item with the link's own separators, `%` and control
/// characters escaped (`%2F`). The rest stays as it is (`GeoPackage`, `SU`): the
/// address encodes it once, as it does any query value ([`Route::path`]).
fn link_field(text: &str) -> String {
    let mut field = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || "%/;,".contains(c) {
            let mut bytes = [0; 4];
            for byte in c.encode_utf8(&mut bytes).bytes() {
                field.push_str(&format!("%{byte:02X}"));
            }
        } else {
            field.push(c);
        }
    }
    field
}

/// One product in the basket and what was picked of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Item {
    pub product_id: String,
    /// Its name when it was added (the id, for an item opened from a link).
    pub product_name: String,
    /// Its version when it was added; empty when a link named none.
    pub version: String,
    /// The areas, format and subformat, as the product page's address had them.
    pub selection: Selection,
}

impl Item {
    /// The product page showing this item's choice, to change it there.
    pub fn route(&self) -> Route {
        Route::Product {
            id: self.product_id.clone(),
            selection: self.selection.clone(),
        }
    }

    /// What the item lists of a product offering `offered`, as the product page lists
    /// it for the same choice: a product of one area lists that area whatever was
    /// picked; areas it no longer offers are left out.
    pub fn wanted(&self, offered: &[Area]) -> Selection {
        AreaPicking::of(offered).wanted(&self.selection, offered)
    }

    /// Whether the product is at another version than when it was added. An item
    /// from a link that named no version has none to compare: it never changed.
    pub fn version_changed(&self, now: &str) -> bool {
        !self.version.is_empty() && self.version != now
    }

    /// What to say when the product is at version `now`, if that is not the one added.
    pub fn version_note(&self, now: &str) -> Option<String> {
        self.version_changed(now)
            .then(|| t::basket::version_changed(now, &self.version))
    }

    /// The item in a link: `OpenTOID/2026-01/SU,SZ/GeoPackage` (id, version, areas,
    /// format, subformat; empty fields at the end left out).
    fn link_form(&self) -> String {
        let field = link_field;
        let areas: Vec<String> = self
            .selection
            .areas
            .iter()
            .map(|area| field(area.code()))
            .collect();
        let mut fields = vec![
            field(&self.product_id),
            field(&self.version),
            areas.join(","),
            field(self.selection.format.as_deref().unwrap_or_default()),
            field(self.selection.subformat.as_deref().unwrap_or_default()),
        ];
        while fields.last().is_some_and(String::is_empty) {
            fields.pop();
        }
        fields.join("/")
    }

    /// An item read back from [`Item::link_form`]; its name is its id until the
    /// service names it.
    fn from_link_form(text: &str) -> Option<Item> {
        let fields = text
            .split('/')
            .map(|field| percent_decode_str(field).decode_utf8().ok())
            .collect::<Option<Vec<_>>>()?;
        let field = |index: usize| fields.get(index).map_or("", |field| field.as_ref());
        let product_id = field(0).trim();
        if product_id.is_empty() || fields.len() > 5 {
            return None;
        }
        Some(Item {
            product_id: product_id.to_owned(),
            product_name: product_id.to_owned(),
            version: field(1).to_owned(),
            selection: Selection::from_params(Some(field(2)), Some(field(3)), Some(field(4))),
        })
    }
}

/// Why a shared link's basket could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("{}", t::basket::link_empty())]
    Empty,
    /// `item` is the part of the link that is no product with its choice.
    #[error("{}", t::basket::link_unreadable(item))]
    Unreadable { item: String },
}

/// The items of a link's `items` value (as the address decoded it).
pub fn items_from_link(text: &str) -> Result<Vec<Item>, LinkError> {
    let items = text
        .split(';')
        .filter(|item| !item.trim().is_empty())
        .map(|item| {
            Item::from_link_form(item).ok_or_else(|| LinkError::Unreadable {
                item: item.to_owned(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if items.is_empty() {
        return Err(LinkError::Empty);
    }
    Ok(items)
}

/// What happened to the basket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// "Add to basket" on a product page: a new item, or the product's item replaced
    /// by this one (another choice, the current version).
    Add(Item),
    /// "Remove" on the basket page.
    Remove { product_id: String },
    /// "Empty the basket".
    Clear,
    /// The stored basket, read on opening or after another tab changed it (`None`
    /// when there is none); what cannot be read counts as empty.
    Loaded(Option<String>),
    /// A shared link was opened: its items join the basket, each replacing its
    /// product's item.
    OpenedLink(Vec<Item>),
}

/// What to do after an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Keep the basket: [`Basket::to_storage`] under [`STORAGE_KEY`], its length
    /// under [`COUNT_KEY`].
    Store,
    /// Tell the person what changed.
    Show(Notice),
}

/// What the person is told after a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Added { name: String },
    Updated { name: String },
    Removed { name: String },
    Cleared,
    FromLink { count: usize },
}

impl Notice {
    /// The sentence, in the page's language.
    pub fn text(&self) -> String {
        match self {
            Notice::Added { name } => t::basket::added(name),
            Notice::Updated { name } => t::basket::updated(name),
            Notice::Removed { name } => t::basket::removed(name),
            Notice::Cleared => t::basket::empty().to_owned(),
            Notice::FromLink { count } => t::basket::from_link(*count),
        }
    }
}

/// The products picked for download together, in the order they were added; one item
/// per product.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Basket {
    items: Vec<Item>,
}

impl Basket {
    /// The basket kept in `stored` (its storage form), empty when there is none or it
    /// cannot be read.
    pub fn from_storage(stored: Option<&str>) -> Basket {
        let mut lines = stored.unwrap_or_default().lines();
        if lines.next() != Some(STORAGE_HEADER) {
            return Basket::default();
        }
        let items = lines
            .map(|line| {
                let (name, item) = line.split_once('/')?;
                let name = percent_decode_str(name).decode_utf8().ok()?;
                let item = Item::from_link_form(item)?;
                Some(Item {
                    product_name: name.into_owned(),
                    ..item
                })
            })
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        Basket { items }
    }

    /// The storage form: a version line, then a line per item, its name and its link
    /// form (`OS Open TOID/OpenTOID/2026-01/SU,SZ/GeoPackage`). Plain text rather than
    /// JSON: serde's code for it moved the shared serde code of the first load about.
    pub fn to_storage(&self) -> String {
        let mut text = STORAGE_HEADER.to_owned();
        for item in &self.items {
            text.push('\n');
            text.push_str(&link_field(&item.product_name));
            text.push('/');
            text.push_str(&item.link_form());
        }
        text
    }

    pub fn items(&self) -> &[Item] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The item of a product, if it is in the basket.
    pub fn item(&self, product_id: &str) -> Option<&Item> {
        self.items.iter().find(|item| item.product_id == product_id)
    }

    /// Applies `event`, saying what to do.
    pub fn handle(&mut self, event: Event) -> Vec<Action> {
        match event {
            Event::Add(item) => {
                let name = item.product_name.clone();
                let notice = if self.put(item) {
                    Notice::Updated { name }
                } else {
                    Notice::Added { name }
                };
                vec![Action::Store, Action::Show(notice)]
            }
            Event::Remove { product_id } => {
                let Some(at) = self.items.iter().position(|i| i.product_id == product_id) else {
                    return Vec::new();
                };
                let removed = self.items.remove(at);
                let name = removed.product_name;
                vec![Action::Store, Action::Show(Notice::Removed { name })]
            }
            Event::Clear => {
                self.items.clear();
                vec![Action::Store, Action::Show(Notice::Cleared)]
            }
            Event::Loaded(stored) => {
                *self = Basket::from_storage(stored.as_deref());
                Vec::new()
            }
            Event::OpenedLink(items) => {
                let count = items.len();
                for item in items {
                    self.put(item);
                }
                vec![Action::Store, Action::Show(Notice::FromLink { count })]
            }
        }
    }

    /// Puts `item` in, in place of its product's item if there is one (then true).
    fn put(&mut self, item: Item) -> bool {
        match self
            .items
            .iter_mut()
            .find(|old| old.product_id == item.product_id)
        {
            Some(old) => {
                *old = item;
                true
            }
            None => {
                self.items.push(item);
                false
            }
        }
    }

    /// The `items` value of a link to this basket (see [`basket_link`]):
    /// `OpenTOID/2026-01/SU,SZ/GeoPackage;OpenRoads/2026-10//GML`.
    pub fn link_text(&self) -> String {
        let items: Vec<String> = self.items.iter().map(Item::link_form).collect();
        items.join(";")
    }

    /// The app path that opens this basket in another browser.
    pub fn share_path(&self) -> String {
        basket_link(&self.link_text())
    }

    /// Each item's sub-folder, in the items' order: its product id made safe as a
    /// folder name on every system, and told apart from the others where two would
    /// be the same to a system that ignores case (`-2`, `-3`…).
    pub fn folders(&self) -> Vec<String> {
        let mut taken = BTreeSet::new();
        self.items
            .iter()
            .map(|item| {
                let base = folder_name(&item.product_id);
                let mut name = base.clone();
                let mut n = 1;
                while !taken.insert(name.to_lowercase()) {
                    n += 1;
                    name = format!("{base}-{n}");
                }
                name
            })
            .collect()
    }

    /// The files of the whole basket, each in its product's sub-folder: `listed`
    /// holds each item's listed files, in the items' order.
    pub fn files(&self, listed: &[Vec<ProductDownload>]) -> Vec<BulkDownload> {
        self.folders()
            .into_iter()
            .zip(listed)
            .flat_map(|(folder, files)| {
                files.iter().map(move |file| BulkDownload {
                    folder: Some(folder.clone()),
                    ..BulkDownload::from(file)
                })
            })
            .collect()
    }

    /// What the bulk downloads call the basket (and name its script and lists by).
    pub fn export_title(&self) -> String {
        t::basket::export_title(self.len())
    }
}

/// The whole basket's totals: products, files and bytes, from each item's totals.
pub fn totals_text(per_item: &[Totals]) -> String {
    let total = per_item.iter().fold(Totals::default(), |sum, item| Totals {
        files: sum.files + item.files,
        bytes: sum.bytes.saturating_add(item.bytes),
        unsized_files: sum.unsized_files + item.unsized_files,
    });
    // A message's placeholders are its function's parameters in alphabetical order.
    t::basket::totals(
        t::product::files(total.files),
        t::gallery::products(per_item.len()),
        crate::format_size(total.bytes),
    )
}

/// `name` as a folder name every system takes: Windows refuses `<>:"/\|?*` and
/// control characters, a name ending in a dot or a space, and device names (`CON`,
/// `com1.txt`); [`safe_name`] then keeps it out of `.`-hidden and `-`option names.
pub fn folder_name(name: &str) -> String {
    let replaced: String = name
        .chars()
        .map(|c| {
            if c.is_control() || r#"<>:"/\|?*"#.contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    let trimmed = replaced.trim_end_matches(['.', ' ']);
    let stem = trimmed.split('.').next().unwrap_or_default().to_uppercase();
    let device = matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.ends_with(|c: char| c.is_ascii_digit()));
    let name = if device {
        format!("_{trimmed}")
    } else {
        trimmed.to_owned()
    };
    safe_name(&name, 0)
}

/// The first line of the storage form: its version, for a later change of form.
const STORAGE_HEADER: &str = "basket 1";

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: &str, version: &str, areas: &str, format: Option<&str>) -> Item {
        Item {
            product_id: id.into(),
            product_name: format!("Name of {id}"),
            version: version.into(),
            selection: Selection::from_params(Some(areas), format, None),
        }
    }

    fn basket(items: &[Item]) -> Basket {
        let mut basket = Basket::default();
        for item in items {
            basket.handle(Event::Add(item.clone()));
        }
        basket
    }

    #[test]
    fn adding_a_product_again_replaces_its_item() {
        let mut basket = Basket::default();
        let actions = basket.handle(Event::Add(item("OpenTOID", "2026-01", "SU", None)));
        assert_eq!(
            actions,
            [
                Action::Store,
                Action::Show(Notice::Added {
                    name: "Name of OpenTOID".into()
                })
            ]
        );
        basket.handle(Event::Add(item("OpenRoads", "2026-10", "", Some("GML"))));
        let actions = basket.handle(Event::Add(item("OpenTOID", "2026-02", "SZ,SU", None)));
        assert_eq!(
            actions[1].clone(),
            Action::Show(Notice::Updated {
                name: "Name of OpenTOID".into()
            })
        );
        assert_eq!(basket.len(), 2);
        let toid = basket.item("OpenTOID").unwrap();
        assert_eq!(toid.version, "2026-02");
        assert_eq!(toid.selection.areas, [Area::from("SU"), Area::from("SZ")]);
        // Still first: the order is the order products were first added.
        assert_eq!(basket.items()[0].product_id, "OpenTOID");
        assert_eq!(
            Notice::Updated {
                name: "OS Open TOID".into()
            }
            .text(),
            "OS Open TOID is updated in your basket."
        );
    }

    #[test]
    fn removing_and_clearing() {
        let mut basket = basket(&[
            item("OpenTOID", "1", "SU", None),
            item("OpenRoads", "1", "", None),
        ]);
        assert_eq!(
            basket.handle(Event::Remove {
                product_id: "OpenTOID".into()
            }),
            [
                Action::Store,
                Action::Show(Notice::Removed {
                    name: "Name of OpenTOID".into()
                })
            ]
        );
        assert_eq!(basket.len(), 1);
        // Removing what is not there (a second click, another tab) does nothing.
        assert_eq!(
            basket.handle(Event::Remove {
                product_id: "OpenTOID".into()
            }),
            []
        );
        assert_eq!(
            basket.handle(Event::Clear),
            [Action::Store, Action::Show(Notice::Cleared)]
        );
        assert!(basket.is_empty());
        assert_eq!(Notice::Cleared.text(), "Your basket is empty.");
    }

    #[test]
    fn the_storage_form_round_trips_and_reads_as_written() {
        let basket = basket(&[
            item("OpenTOID", "2026-01", "SU,SZ", Some("GeoPackage")),
            item("OpenRoads", "2026-10", "", None),
        ]);
        let stored = basket.to_storage();
        assert_eq!(
            stored,
            "basket 1\n\
             Name of OpenTOID/OpenTOID/2026-01/SU,SZ/GeoPackage\n\
             Name of OpenRoads/OpenRoads/2026-10"
        );
        // A name with the form's own separators and a line break reads back whole.
        let odd = Basket {
            items: vec![Item {
                product_name: "a/b;c,d%e\nf".into(),
                ..item("x", "1", "", None)
            }],
        };
        assert_eq!(odd.to_storage(), "basket 1\na%2Fb%3Bc%2Cd%25e%0Af/x/1");
        assert_eq!(Basket::from_storage(Some(&odd.to_storage())), odd);
        assert_eq!(Basket::from_storage(Some(&stored)), basket);
        // Another tab's change arrives as a `Loaded`; nothing is stored again.
        let mut other = Basket::default();
        assert_eq!(other.handle(Event::Loaded(Some(stored))), []);
        assert_eq!(other, basket);
        assert_eq!(other.handle(Event::Loaded(None)), []);
        assert!(other.is_empty());
        assert!(Basket::from_storage(Some("not a basket")).is_empty());
        assert!(Basket::from_storage(Some("basket 1\nno-item")).is_empty());
    }

    #[test]
    fn the_link_form_is_short_readable_and_round_trips() {
        let mut greenspace = item("OpenGreenspace", "2025-10", "SU", Some("GML"));
        greenspace.selection.subformat = Some("3".into());
        let basket = basket(&[
            item("OpenTOID", "2026-01", "SU,SZ", Some("GeoPackage")),
            item("OpenRoads", "2026-10", "", Some("ESRI® Shapefile")),
            greenspace,
            item("odd/id;x", "v,1", "", None),
        ]);
        assert_eq!(
            basket.link_text(),
            "OpenTOID/2026-01/SU,SZ/GeoPackage;OpenRoads/2026-10//ESRI® Shapefile;\
             OpenGreenspace/2025-10/SU/GML/3;odd%2Fid%3Bx/v%2C1"
        );
        assert_eq!(
            basket.share_path(),
            "/basket?items=OpenTOID/2026-01/SU,SZ/GeoPackage;OpenRoads/2026-10//ESRI%C2%AE%20Shapefile;\
             OpenGreenspace/2025-10/SU/GML/3;odd%252Fid%253Bx/v%252C1"
        );
        // Read back as the basket page reads its address's `items`.
        let path = basket.share_path();
        assert_eq!(Route::parse(&path), Some(Route::Basket));
        let query = download_api::parse_query(path.split_once('?').unwrap().1).unwrap();
        let text = &query[0].1;
        let opened = items_from_link(text).unwrap();
        assert_eq!(opened.len(), 4);
        for (opened, added) in opened.iter().zip(basket.items()) {
            assert_eq!(opened.product_id, added.product_id);
            assert_eq!(opened.version, added.version);
            assert_eq!(opened.selection, added.selection);
            // A link carries no names: the service gives them.
            assert_eq!(opened.product_name, added.product_id);
        }
    }

    #[test]
    fn a_broken_link_says_where() {
        assert_eq!(items_from_link(""), Err(LinkError::Empty));
        assert_eq!(items_from_link(";;"), Err(LinkError::Empty));
        assert_eq!(
            items_from_link("OpenTOID/1/SU;/2/SZ"),
            Err(LinkError::Unreadable {
                item: "/2/SZ".into()
            })
        );
        assert_eq!(
            LinkError::Unreadable {
                item: "/2/SZ".into()
            }
            .to_string(),
            "The basket in this link could not be read at “/2/SZ”."
        );
        assert!(items_from_link("a/1/SU/GML/3/extra").is_err());
        // Area codes are read as the product page reads them.
        let items = items_from_link("OpenTOID/1/sz,su").unwrap();
        assert_eq!(
            items[0].selection.areas,
            [Area::from("SU"), Area::from("SZ")]
        );
    }

    #[test]
    fn opening_a_link_joins_its_items_to_the_basket() {
        let mut basket = basket(&[
            item("OpenTOID", "1", "SU", None),
            item("OpenRoads", "1", "", None),
        ]);
        let actions = basket.handle(Event::OpenedLink(vec![
            item("OpenTOID", "2", "SZ", None),
            item("BoundaryLine", "3", "", Some("GML")),
        ]));
        assert_eq!(
            actions,
            [Action::Store, Action::Show(Notice::FromLink { count: 2 })]
        );
        let ids: Vec<&str> = basket
            .items()
            .iter()
            .map(|i| i.product_id.as_str())
            .collect();
        assert_eq!(ids, ["OpenTOID", "OpenRoads", "BoundaryLine"]);
        assert_eq!(basket.item("OpenTOID").unwrap().version, "2");
        assert_eq!(
            Notice::FromLink { count: 2 }.text(),
            "2 products from the link are in your basket."
        );
    }

    #[test]
    fn an_item_lists_what_its_product_page_would() {
        let squares = [Area::from("SU"), Area::from("SZ")];
        let toid = item("OpenTOID", "1", "SU,TQ", Some("GML"));
        let wanted = toid.wanted(&squares);
        assert_eq!(wanted.areas, [Area::from("SU")]);
        assert_eq!(wanted.format.as_deref(), Some("GML"));
        let roads = item("OpenRoads", "1", "", None);
        assert_eq!(roads.wanted(&[Area::Gb]).areas, [Area::Gb]);
    }

    #[test]
    fn an_item_from_a_link_without_a_version_says_nothing_of_versions() {
        let opened = items_from_link("OpenTOID//SU").unwrap();
        assert_eq!(opened[0].version, "");
        assert!(!opened[0].version_changed("2026-04"));
        assert_eq!(opened[0].version_note("2026-04"), None);
        // Shared again, the link still names none.
        assert_eq!(opened[0].link_form(), "OpenTOID//SU");
    }

    #[test]
    fn an_item_says_when_its_product_has_a_new_version() {
        let toid = item("OpenTOID", "2026-01", "SU", None);
        assert!(!toid.version_changed("2026-01"));
        assert_eq!(toid.version_note("2026-01"), None);
        assert_eq!(
            toid.version_note("2026-04").as_deref(),
            Some("Version 2026-04 is out; this was added at version 2026-01.")
        );
        assert_eq!(
            toid.route().path(),
            "/products/OpenTOID?areas=SU",
            "Change goes to the product page with the item's choice"
        );
    }

    #[test]
    fn sub_folders_are_safe_on_every_system_and_distinct() {
        assert_eq!(folder_name("OpenTOID"), "OpenTOID");
        assert_eq!(folder_name("a/b\\c:d*e?"), "a_b_c_d_e_");
        assert_eq!(folder_name("../up"), "download-1.._up");
        assert_eq!(folder_name("name. "), "name");
        assert_eq!(folder_name("CON"), "_CON");
        assert_eq!(folder_name("com1.data"), "_com1.data");
        assert_eq!(folder_name("COM10"), "COM10");
        assert_eq!(folder_name("Console"), "Console");
        assert_eq!(folder_name(""), "download-1");
        assert_eq!(folder_name("tab\there"), "tab_here");
        let basket = basket(&[
            item("OpenTOID", "1", "SU", None),
            item("opentoid", "1", "SU", None),
            item("a:b", "1", "", None),
            item("a?b", "1", "", None),
        ]);
        assert_eq!(basket.folders(), ["OpenTOID", "opentoid-2", "a_b", "a_b-2"]);
    }

    #[test]
    fn the_basket_s_files_go_into_their_product_s_folder_and_add_up() {
        let file = |name: &str, size: Option<u64>| ProductDownload {
            file: download_api::Download {
                url: format!("https://x/{name}"),
                file_name: name.into(),
                size,
                md5: Some("m".into()),
                flaws: Vec::new(),
            },
            area: Area::from("SU"),
            format: "GML".into(),
            subformat: None,
        };
        let basket = basket(&[
            item("OpenTOID", "1", "SU", None),
            item("OpenRoads", "1", "", None),
        ]);
        let files = basket.files(&[
            vec![file("su.zip", Some(1000)), file("sz.zip", Some(500))],
            vec![file("gb.zip", None)],
        ]);
        let placed: Vec<(Option<&str>, &str)> = files
            .iter()
            .map(|f| (f.folder.as_deref(), f.download.file_name.as_str()))
            .collect();
        assert_eq!(
            placed,
            [
                (Some("OpenTOID"), "su.zip"),
                (Some("OpenTOID"), "sz.zip"),
                (Some("OpenRoads"), "gb.zip")
            ]
        );
        assert_eq!(basket.export_title(), "Basket of 2 products");
        let per_item = [Totals::of([Some(1000), Some(500)]), Totals::of([None])];
        assert_eq!(totals_text(&per_item), "2 products · 3 files · 1.50 kB");
    }

    #[test]
    fn in_welsh() {
        let (notice, note, title, totals) = crate::text::in_welsh(|| {
            (
                Notice::FromLink { count: 3 }.text(),
                item("OpenTOID", "1", "SU", None).version_note("2"),
                basket(&[item("a", "1", "", None), item("b", "1", "", None)]).export_title(),
                totals_text(&[Totals::of([Some(1000)]), Totals::of([Some(500)])]),
            )
        });
        assert_eq!(notice, "Mae 3 chynnyrch o'r ddolen yn eich basged.");
        assert_eq!(
            note.as_deref(),
            Some("Mae fersiwn 2 ar gael; fersiwn 1 oedd hi pan ychwanegwyd y cynnyrch.")
        );
        assert_eq!(title, "Basged o 2 gynnyrch");
        assert_eq!(totals, "2 gynnyrch · 2 ffeil · 1.50 kB");
    }
}
