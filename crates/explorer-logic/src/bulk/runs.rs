//! The downloads of a tab, kept by the app rather than by the panel that started them,
//! so that moving to another page does not end them: found again by the panel they
//! belong to, listed in the header while they run, and the reason the tab asks before
//! it closes.

use crate::routes::Route;

/// How a panel downloads: its two ways each have a run of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunKind {
    Folder,
    Zip,
}

/// The page a bulk panel is on, as far as it tells one panel from another: a
/// product's page, a data package's version page, the basket. The rest of the address
/// (the squares and formats picked, a version's comparison, its table's filter) is left
/// out: what it changes about the files is in the panel's title.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum PanelPage {
    Product(String),
    /// A version of the data package of this id; which version is in the title.
    Version(String),
    Basket,
}

/// Which panel a run belongs to, to show it again when the person comes back: the page
/// and the panel's title, which names the files as a person knows them (the product,
/// its version, squares and format; the data package's version; the basket's
/// products). Coming back to the same selection, by the header's link, the back
/// button or by picking the same squares again, shows the run; another selection is a
/// new panel, offering a new download. A version's `latest` and its real id are one
/// panel (the title names the real id).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RunKey {
    page: PanelPage,
    title: String,
    kind: RunKind,
}

impl RunKey {
    /// The key of the `kind` run of the panel titled `title` on the page `route`;
    /// `None` on a page without a bulk panel.
    pub fn new(route: &Route, title: &str, kind: RunKind) -> Option<RunKey> {
        let page = match route {
            Route::Product { id, .. } => PanelPage::Product(id.clone()),
            Route::Version { package_id, .. } => PanelPage::Version(package_id.clone()),
            Route::Basket => PanelPage::Basket,
            _ => return None,
        };
        Some(RunKey {
            page,
            title: title.to_owned(),
            kind,
        })
    }

    /// The panel's title: what the run fetches.
    pub fn title(&self) -> &str {
        &self.title
    }
}

/// What the runs kept need to say of themselves.
pub trait Finished {
    /// Whether the run has ended (every file done, failed or cancelled; every part of a
    /// zip saved or given up).
    fn is_finished(&self) -> bool;
}

/// A run, which panel it belongs to and the page it was started on.
#[derive(Debug)]
pub struct Started<R> {
    pub key: RunKey,
    /// The address it was started from, selection and all: the header's way back.
    pub page: Route,
    pub run: R,
}

/// A tab's runs, one per panel and kind, finished ones too (coming back shows their
/// summary) until the panel starts another.
#[derive(Debug)]
pub struct Runs<R> {
    each: Vec<Started<R>>,
}

impl<R> Default for Runs<R> {
    fn default() -> Self {
        Runs { each: Vec::new() }
    }
}

impl<R: Finished> Runs<R> {
    /// The run of the panel `key`, if it has one.
    pub fn find(&self, key: &RunKey) -> Option<&R> {
        self.each.iter().find(|s| s.key == *key).map(|s| &s.run)
    }

    /// Keeps `run`, the panel `key`'s new run, started on `page`; gives back the run it
    /// replaces.
    pub fn add(&mut self, key: RunKey, page: Route, run: R) -> Option<R> {
        let old = self
            .each
            .iter()
            .position(|s| s.key == key)
            .map(|at| self.each.remove(at).run);
        self.each.push(Started { key, page, run });
        old
    }

    /// The runs not finished, oldest first: what the header lists.
    pub fn running(&self) -> impl Iterator<Item = &Started<R>> {
        self.each.iter().filter(|s| !s.run.is_finished())
    }

    /// Whether no run has started in the tab yet.
    pub fn is_empty(&self) -> bool {
        self.each.is_empty()
    }

    /// Whether any run has not finished: closing the tab would end it.
    pub fn any_running(&self) -> bool {
        self.running().next().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Run(&'static str, bool);

    impl Finished for Run {
        fn is_finished(&self) -> bool {
            self.1
        }
    }

    fn at(path: &str) -> Route {
        Route::parse(path).expect("an app path")
    }

    #[test]
    fn a_panel_is_its_page_and_title_whatever_else_the_address_says() {
        let title = "OS Open TOID 2026-01: SU, SZ (all formats)";
        let picked = RunKey::new(&at("/products/OpenTOID?areas=SU,SZ"), title, RunKind::Zip);
        assert!(picked.is_some());
        assert_eq!(
            picked,
            RunKey::new(
                &at("/products/OpenTOID?areas=SZ,SU&lang=cy"),
                title,
                RunKind::Zip
            )
        );
        assert_ne!(
            picked,
            RunKey::new(
                &at("/products/OpenTOID?areas=SU"),
                "OS Open TOID 2026-01: SU (all formats)",
                RunKind::Zip
            ),
            "another selection is another panel"
        );
        assert_ne!(
            picked,
            RunKey::new(
                &at("/products/OpenTOID?areas=SU,SZ"),
                title,
                RunKind::Folder
            ),
            "the folder and the zip of one panel are two runs"
        );
        assert_ne!(picked, RunKey::new(&at("/basket"), title, RunKind::Zip));

        let version = "Data package 0040046952, version 110012";
        assert_eq!(
            RunKey::new(
                &at("/packages/0040046952/versions/latest"),
                version,
                RunKind::Zip
            ),
            RunKey::new(
                &at("/packages/0040046952/versions/110012?compare=110011&filter=SU"),
                version,
                RunKind::Zip
            ),
            "a version's latest and its id, compared or filtered, are one panel"
        );
        for page in [
            "/",
            "/packages",
            "/packages/0040046952",
            "/login",
            "/settings",
        ] {
            assert_eq!(RunKey::new(&at(page), title, RunKind::Zip), None, "{page}");
        }
    }

    #[test]
    fn a_panel_finds_its_run_and_a_new_one_replaces_it() {
        let key = |title: &str| RunKey::new(&Route::Basket, title, RunKind::Zip).unwrap();
        let mut runs = Runs::default();
        assert_eq!(runs.find(&key("a")), None);
        assert_eq!(runs.add(key("a"), Route::Basket, Run("first", false)), None);
        assert_eq!(runs.add(key("b"), Route::Basket, Run("other", false)), None);
        assert_eq!(runs.find(&key("a")), Some(&Run("first", false)));
        assert_eq!(
            runs.add(key("a"), Route::Basket, Run("second", false)),
            Some(Run("first", false))
        );
        assert_eq!(runs.find(&key("a")), Some(&Run("second", false)));
        assert_eq!(runs.find(&key("b")), Some(&Run("other", false)));
    }

    #[test]
    fn only_runs_not_finished_are_listed_and_keep_the_tab() {
        let product = at("/products/OpenTOID?areas=SU");
        let key = |title: &str| RunKey::new(&product, title, RunKind::Folder).unwrap();
        let mut runs = Runs::default();
        assert!(runs.is_empty() && !runs.any_running());
        runs.add(key("done"), product.clone(), Run("done", true));
        assert!(
            !runs.any_running(),
            "a finished run is kept but not running"
        );
        assert!(runs.find(&key("done")).is_some());
        runs.add(key("going"), product.clone(), Run("going", false));
        assert!(runs.any_running());
        let listed: Vec<(&str, &Route)> =
            runs.running().map(|s| (s.key.title(), &s.page)).collect();
        assert_eq!(listed, [("going", &product)]);
    }
}
