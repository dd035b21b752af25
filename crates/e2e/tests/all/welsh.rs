//! The app in Welsh: every page and state the accessibility tests visit shows no
//! English message of the catalogue (data from the service aside) and passes axe with
//! `lang="cy"`; the switch keeps the route and the selection; links, reloads and a new
//! visit keep the language; a browser in Welsh gets Welsh; a Welsh page loads the
//! Welsh build alone, its first view in Welsh from the start.

use e2e::demo::{KEY, PACKAGE, SECRET};
use e2e::{Harness, axe};
use std::collections::BTreeSet;

use serde_json::{Map, Value};

const PRODUCT: &str = "OpenMapLocal";

/// The catalogue's English messages whose Welsh differs, each as its literal pieces
/// around the placeholders (`"Preview of {name}"` is `["Preview of ", ""]`). Read from
/// the catalogue files, not from the app.
fn english_only() -> Vec<(String, Vec<String>)> {
    let read = |text: &str| -> Map<String, Value> {
        serde_json::from_str(text).expect("a catalogue is a JSON object")
    };
    let english = read(include_str!("../../../../locales/en.json"));
    let welsh = read(include_str!("../../../../locales/cy.json"));
    let forms = |value: &Value| -> Vec<String> {
        match value {
            Value::String(text) => vec![text.clone()],
            Value::Object(forms) => forms
                .values()
                .filter_map(|form| form.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut found = Vec::new();
    for (part, messages) in &english {
        for (key, message) in messages.as_object().expect("a part is an object") {
            let welsh_forms = forms(&welsh[part][key]);
            for form in forms(message) {
                if welsh_forms.contains(&form) {
                    continue; // the same in both: a name, a code, a symbol
                }
                let pieces = literal_pieces(&form);
                // A form that is (nearly) all placeholders cannot be told from data.
                if pieces.iter().map(|piece| piece.trim().len()).sum::<usize>() >= 4 {
                    found.push((format!("{part}.{key}"), pieces));
                }
            }
        }
    }
    found
}

/// The text around a message's `{placeholders}`.
fn literal_pieces(form: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut rest = form;
    while let Some(start) = rest.find('{') {
        pieces.push(rest[..start].to_owned());
        rest = rest[start..].split_once('}').map_or("", |(_, after)| after);
    }
    pieces.push(rest.to_owned());
    pieces
}

/// Whether `text` is the message made of `pieces` (whatever its placeholders hold,
/// within one line).
fn is_message(text: &str, pieces: &[String]) -> bool {
    // Runs of white space as one space; a piece's own leading or trailing space kept.
    let squash = |text: &str| {
        let mut out = String::new();
        for (index, word) in text.split(char::is_whitespace).enumerate() {
            if index > 0 && !out.ends_with(' ') {
                out.push(' ');
            }
            out.push_str(word);
        }
        out
    };
    let multiline = text.trim().contains('\n');
    let text = squash(text.trim());
    let pieces: Vec<String> = pieces.iter().map(|piece| squash(piece)).collect();
    if pieces.len() == 1 {
        return text == pieces[0].trim();
    }
    if multiline {
        return false;
    }
    let (first, last) = (&pieces[0], &pieces[pieces.len() - 1]);
    let Some(mut rest) = text.strip_prefix(first.as_str()) else {
        return false;
    };
    let Some(middle) = rest.strip_suffix(last.as_str()) else {
        return false;
    };
    rest = middle;
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece.as_str()) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// Every text a person may meet on the page: each element's own text and its whole
/// text (when short), the labels, titles, placeholders and alternatives, the title.
async fn texts_on_page(h: &Harness) -> Vec<String> {
    let texts = h
        .js("const texts = new Set([document.title]); \
             for (const element of document.body.querySelectorAll('*')) { \
               if (['SCRIPT', 'STYLE'].includes(element.tagName)) continue; \
               const own = Array.from(element.childNodes) \
                 .filter(node => node.nodeType === Node.TEXT_NODE) \
                 .map(node => node.textContent).join(''); \
               texts.add(own); \
               const whole = element.innerText || element.textContent || ''; \
               if (whole.length < 300) texts.add(whole); \
               for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-roledescription']) \
                 texts.add(element.getAttribute(name) || ''); \
             } \
             return Array.from(texts).map(text => text.trim()).filter(Boolean);")
        .await;
    serde_json::from_value(texts).expect("a list of texts")
}

/// The English messages on the page now, as readable lines.
async fn english_on_page(
    h: &Harness,
    page: &str,
    english: &[(String, Vec<String>)],
    data: &BTreeSet<String>,
) -> Vec<String> {
    let mut found = Vec::new();
    for text in texts_on_page(h).await {
        // What the service sent, and what is the same in both languages, aside.
        if data.contains(&text) {
            continue;
        }
        for (name, pieces) in english {
            if is_message(&text, pieces) {
                found.push(format!("{page}: {text:?} is English ({name})"));
            }
        }
    }
    found
}

/// Every text the service sends (names, versions, categories, formats, file names …)
/// and every message that is the same in both languages (a name such as Download
/// Explorer): on a Welsh page these are not English of ours.
async fn service_data(h: &Harness) -> BTreeSet<String> {
    fn strings(value: &Value, into: &mut BTreeSet<String>) {
        match value {
            Value::String(text) => {
                into.insert(text.trim().to_owned());
            }
            Value::Array(items) => items.iter().for_each(|item| strings(item, into)),
            Value::Object(fields) => fields.values().for_each(|field| strings(field, into)),
            _ => {}
        }
    }
    let mut data = BTreeSet::new();
    let products: Value = e2e::get_json(&h.url("/downloads/v1/products?expanded"), None).await;
    strings(&products, &mut data);
    let token = h.fetch_token(KEY, SECRET).await;
    let packages: Value = e2e::get_json(&h.url("/downloads/v1/dataPackages"), Some(&token)).await;
    strings(&packages, &mut data);
    let english: Value = serde_json::from_str(include_str!("../../../../locales/en.json")).unwrap();
    let welsh: Value = serde_json::from_str(include_str!("../../../../locales/cy.json")).unwrap();
    for (part, messages) in english.as_object().unwrap() {
        for (key, message) in messages.as_object().unwrap() {
            if message == &welsh[part][key]
                && let Some(text) = message.as_str()
            {
                data.insert(text.to_owned());
            }
        }
    }
    data
}

/// The language the page says it is in (`<html lang>`).
async fn page_language(h: &Harness) -> serde_json::Value {
    h.js("return document.documentElement.lang;").await
}

/// Waits for the gallery's own cards (not index.html's skeleton).
async fn gallery_shown(h: &Harness) {
    h.find(".product-grid .product-card:not(.skeleton-card)")
        .await;
}

/// `path` asking for Welsh.
fn in_welsh(path: &str) -> String {
    let separator = if path.contains('?') { '&' } else { '?' };
    format!("{path}{separator}lang=cy")
}

/// Opens `path` in Welsh, waits for `ready`, and returns what is wrong: English on
/// screen, a page not marked Welsh, and what axe finds in every look.
async fn check_in_welsh(
    h: &Harness,
    english: &[(String, Vec<String>)],
    data: &BTreeSet<String>,
    path: &str,
    ready: &str,
) -> Vec<String> {
    h.goto(&in_welsh(path)).await;
    h.find(ready).await;
    h.wait_for_js("document.documentElement.lang === 'cy'")
        .await;
    let mut problems = english_on_page(h, path, english, data).await;
    problems.extend(axe::check_all_looks(h, path).await);
    problems
}

#[test]
fn the_english_finder_finds_messages_with_their_placeholders_filled() {
    let pieces = literal_pieces("{shown} of {count} products");
    assert!(is_message("12 of 18 products", &pieces));
    assert!(is_message(" 12 of  18 products ", &pieces));
    assert!(!is_message("12 o 18 cynnyrch", &pieces));
    assert!(is_message("Products", &literal_pieces("Products")));
    assert!(!is_message(
        "Products and more",
        &literal_pieces("Products")
    ));
    assert!(!english_only().is_empty());
}

#[tokio::test]
async fn every_page_and_state_in_welsh_shows_no_english_and_passes_axe() {
    let english = english_only();
    let h = Harness::start(&[]).await;
    let data = service_data(&h).await;
    // Signed in first, in English (the helpers find the form by its English labels);
    // the session lasts for the tab.
    h.sign_in_to("/packages", KEY, SECRET).await;
    h.find(".packages-table tbody tr").await;
    let mut problems = Vec::new();
    for (path, ready) in [
        ("/", ".product-grid .product-card:not(.skeleton-card)"),
        ("/?q=no-such-words", ".empty-state h2"),
        ("/login", ".login-form"),
        ("/settings", ".connection-status.ok"),
        ("/no-such-page", "main h1"),
        (&format!("/products/{PRODUCT}"), ".grid-map"),
        (
            &format!("/products/{PRODUCT}?areas=SU,SZ"),
            ".downloads-table",
        ),
        ("/products/OpenRoads", ".downloads-table"),
        ("/products/NoSuchProduct", ".product-problem"),
        ("/basket", ".basket-page .empty-state"),
        // A shared link with an older version: the items, the note and the downloads.
        (
            "/basket?items=OpenTOID/2020-01/SU;BoundaryLine/2025-05//GeoPackage",
            ".basket-page .bulk",
        ),
    ] {
        problems.extend(check_in_welsh(&h, &english, &data, path, ready).await);
    }
    for (path, ready) in [
        ("/packages".to_owned(), ".packages-table tbody tr"),
        (format!("/packages/{PACKAGE}"), ".versions-table"),
        (
            format!("/packages/{PACKAGE}/versions/110012"),
            ".files-table",
        ),
        (
            format!("/packages/{PACKAGE}/versions/latest"),
            ".files-table",
        ),
    ] {
        problems.extend(check_in_welsh(&h, &english, &data, &path, ready).await);
    }
    axe::assert_none(&problems);
    h.stop().await;
}

#[tokio::test]
async fn the_switch_keeps_the_page_and_the_selection_and_the_choice_is_kept() {
    let h = Harness::start(&[]).await;
    let page = format!("/products/{PRODUCT}?areas=SU,SZ");
    h.goto(&page).await;
    h.find(".downloads-table").await;
    assert_eq!(page_language(&h).await, "en");
    let switch = h.find(".language-switch").await;
    assert_eq!(switch.text().await.unwrap(), "Cymraeg");
    assert_eq!(switch.attr("lang").await.unwrap().as_deref(), Some("cy"));

    h.click(".language-switch").await;
    h.wait_for_js("document.documentElement.lang === 'cy'")
        .await;
    let address = h.wait_for_address(|url| url.contains("lang=cy")).await;
    assert_eq!(address, format!("/products/{PRODUCT}?areas=SU,SZ&lang=cy"));
    h.find(".downloads-table").await;
    assert!(h.square_is_selected("SU").await && h.square_is_selected("SZ").await);
    assert_eq!(h.text(".language-switch").await, "English");
    assert_eq!(h.text("header nav a").await, "Cynhyrchion");

    // In-app links keep asking for Welsh, so a copied address opens in Welsh.
    h.click("header nav a[href*='settings']").await;
    let address = h.wait_for_address(|url| url.contains("/settings")).await;
    assert_eq!(address, "/settings?lang=cy");

    // A reload, and a later visit to a plain address, stay Welsh: the choice is kept.
    h.driver.refresh().await.unwrap();
    h.wait_for_js("document.documentElement.lang === 'cy'")
        .await;
    h.goto("/").await;
    gallery_shown(&h).await;
    assert_eq!(page_language(&h).await, "cy");
    assert_eq!(h.text("main h1").await, "Cynhyrchion");
    assert!(h.driver.title().await.unwrap().starts_with("Cynhyrchion"));

    // And back: English again, kept too.
    h.click(".language-switch").await;
    h.wait_for_js("document.documentElement.lang === 'en'")
        .await;
    h.goto("/settings").await;
    h.find(".settings-form").await;
    assert_eq!(page_language(&h).await, "en");
    assert_eq!(h.text(".language-switch").await, "Cymraeg");
    h.stop().await;
}

#[tokio::test]
async fn a_browser_in_welsh_gets_welsh_until_english_is_chosen() {
    let h = Harness::start(&[]).await;
    h.preload("languages", serde_json::json!(["fr-FR", "cy-GB", "en"]))
        .await;
    h.goto("/").await;
    gallery_shown(&h).await;
    assert_eq!(page_language(&h).await, "cy");
    assert_eq!(h.text("main h1").await, "Cynhyrchion");

    h.click(".language-switch").await;
    h.wait_for_js("document.documentElement.lang === 'en'")
        .await;
    h.goto("/").await;
    gallery_shown(&h).await;
    assert_eq!(page_language(&h).await, "en");
    assert_eq!(h.text("main h1").await, "Products");
    h.stop().await;
}

#[tokio::test]
async fn a_welsh_page_loads_the_welsh_build_alone_and_starts_in_welsh() {
    let h = Harness::start(&[]).await;
    let html = h.html("/?lang=cy").await;
    // The first view carries its Welsh, put in place before the page is first drawn.
    assert!(
        html.contains(r#"<p class="boot-heading" data-cy="Cynhyrchion">Products</p>"#),
        "index.html lacks the heading's Welsh"
    );
    h.goto("/?lang=cy").await;
    h.find(".gallery .product-card:not(.skeleton-card)").await;
    assert_eq!(h.text("main h1").await, "Cynhyrchion");
    let wasm = h
        .js("return performance.getEntriesByType('resource') \
               .map(e => new URL(e.name).pathname).filter(p => p.endsWith('.wasm'));")
        .await;
    let wasm: Vec<String> = serde_json::from_value(wasm).expect("wasm addresses");
    assert!(!wasm.is_empty(), "no wasm was fetched");
    assert!(
        wasm.iter().all(|path| path.starts_with("/cy/")),
        "a Welsh page fetched English code: {wasm:?}"
    );
    let errors = h.console_errors().await;
    assert!(errors.is_empty(), "console errors: {errors:?}");
    h.stop().await;
}
