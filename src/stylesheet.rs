//! Stylesheets that load with their pages' code rather than with the gallery's first
//! load: `map.css` (the product page's map, images, place boxes, shape tools, format
//! choosers and downloads table), `bulk.css` (the bulk download panel and the long tables
//! of the product, basket and version pages) and `pages.css` (the sign-in and
//! data-package pages), copied beside the app.
//!
//! A route loaded on demand adds its stylesheets to the document's head when its code is
//! fetched (a link to it hovered, or the route entered), so both travel side by side.
//! The page is not held back for them: a few kilobytes of css started with a chunk of a
//! hundred arrive first, and the product page shows its loading skeleton (first-load
//! styles) until its product's details come. Waiting on each sheet's `load` event cost
//! 0.9 kB of the first load (the promise and closure glue), more than the sheets saved.

use leptos::prelude::document;

use crate::navigation::base_path;

/// The product page's map, image strip, place boxes, shape tools and downloads table.
pub const MAP: &str = "map.css";
/// The bulk download panel and the long (windowed) tables and lists.
pub const BULK: &str = "bulk.css";
/// The sign-in page and the data-package pages.
pub const PAGES: &str = "pages.css";

/// Adds the stylesheets `names` to the document's head, each once.
pub fn start(names: &[&str]) {
    let Some(head) = document().head() else {
        return;
    };
    for name in names {
        let selector = format!("link[data-sheet=\"{name}\"]");
        if head.query_selector(&selector).ok().flatten().is_some() {
            continue;
        }
        if let Ok(link) = document().create_element("link") {
            let _ = link.set_attribute("rel", "stylesheet");
            let _ = link.set_attribute("href", &base_path().file(name));
            let _ = link.set_attribute("data-sheet", name);
            let _ = head.append_child(&link);
        }
    }
}
