//! Accessibility and orientation of every page but the product page: axe-core finds
//! nothing wrong on a phone and a laptop, in light and dark; each page has its own
//! title; focus goes to the new page's heading; the skip link comes first; on a phone
//! nothing important is off screen.

use e2e::axe::{self, DESKTOP, PHONE, Scheme};
use e2e::demo::{KEY, PACKAGE, SECRET};
use e2e::thirtyfour::prelude::*;
use e2e::{Harness, WAIT, eventually};

/// Waits up to 10 s for the page's JavaScript `expression` to equal `want`.
async fn wait_for_value(h: &Harness, expression: &str, want: &str) {
    let script = format!("return String({expression});");
    eventually(WAIT, async || match h.js(&script).await {
        got if got.as_str() == Some(want) => Ok(()),
        got => Err(format!("{expression} never became {want:?}: {got}")),
    })
    .await
}

/// Waits until the page titled `title` shows, its heading focused.
async fn wait_for_page(h: &Harness, title: &str) {
    wait_for_value(h, "document.title", &format!("{title} · Download Explorer")).await;
    wait_for_value(h, "document.activeElement.tagName", "H1").await;
}

async fn title(h: &Harness) -> String {
    h.driver.title().await.expect("document title")
}

/// The focused element: its tag, id and text.
async fn focused(h: &Harness) -> String {
    h.js("const e = document.activeElement; return e ? e.tagName + '#' + e.id + ' ' + e.textContent.trim() : '';")
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn public_pages_pass_axe_on_phones_and_laptops_in_light_and_dark() {
    let h = Harness::start(&[]).await;
    let mut problems = Vec::new();
    for (path, ready) in [
        ("/", ".product-grid .product-card"),
        ("/login", ".login-form"),
        ("/settings", ".connection-status.ok"),
        ("/no-such-page", "main h1"),
    ] {
        problems.extend(axe::check_page(&h, path, ready, path).await);
    }
    // The gallery's filters open behind their button on a phone.
    h.goto("/").await;
    h.find(".product-grid .product-card").await;
    let scheme = if axe::can_emulate(Scheme::Dark) {
        Scheme::Dark
    } else {
        Scheme::Light
    };
    axe::emulate(&h, PHONE, scheme).await;
    let toggle = h.find(".filters-toggle").await;
    assert_eq!(
        toggle.attr("aria-expanded").await.unwrap().as_deref(),
        Some("false")
    );
    assert!(!h.find("#filter-format").await.is_displayed().await.unwrap());
    toggle.click().await.unwrap();
    assert_eq!(
        toggle.attr("aria-expanded").await.unwrap().as_deref(),
        Some("true")
    );
    assert!(h.find("#filter-format").await.is_displayed().await.unwrap());
    problems.extend(
        axe::violations(&h)
            .await
            .into_iter()
            .map(|v| format!("/ with the filters open on a phone: {v}")),
    );
    axe::assert_none(&problems);
    h.stop().await;
}

#[tokio::test]
async fn a_wrong_secret_marks_both_fields_and_passes_axe() {
    let h = Harness::start_at("/login").await;
    h.sign_in_with_secret(KEY, "not-the-secret").await;
    let error = h.find("#login-error").await;
    let message = error.text().await.unwrap();
    // One sentence saying what to check.
    assert!(message.contains("did not accept") && message.contains("swapped"));
    assert_eq!(message.matches(". ").count(), 0, "{message}");
    for field in ["#login-key", "#login-secret"] {
        let input = h.find(field).await;
        assert_eq!(
            input.attr("aria-invalid").await.unwrap().as_deref(),
            Some("true")
        );
        assert_eq!(
            input.attr("aria-describedby").await.unwrap().as_deref(),
            Some("login-error")
        );
    }
    axe::assert_none(&axe::check_all_looks(&h, "/login with a wrong secret").await);
    h.stop().await;
}

#[tokio::test]
async fn signed_in_pages_pass_axe_on_phones_and_laptops_in_light_and_dark() {
    let h = Harness::start_signed_in_at("/packages").await;
    h.find(".packages-table tbody tr").await;
    let mut problems = axe::check_all_looks(&h, "/packages").await;
    // Kept on this tab, so each address opens signed in.
    for (path, ready) in [
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
        problems.extend(axe::check_page(&h, &path, ready, &path).await);
    }
    axe::assert_none(&problems);
    h.stop().await;
}

#[tokio::test]
async fn each_page_has_its_title_and_focus_moves_to_its_heading() {
    let h = Harness::start_at("/settings").await;
    h.find(".settings-form").await;
    assert_eq!(title(&h).await, "Settings · Download Explorer");
    // A first load leaves the focus alone.
    assert!(
        focused(&h).await.starts_with("BODY"),
        "{}",
        focused(&h).await
    );
    assert_eq!(
        h.text("nav[aria-label='Main'] [aria-current='page']").await,
        "Settings"
    );

    // In-app navigation: the new page's heading takes the focus.
    h.click("nav[aria-label='Main'] a[href='/packages']").await;
    wait_for_value(&h, "document.activeElement.textContent", "Sign in").await;
    assert_eq!(title(&h).await, "Sign in · Download Explorer");
    h.sign_in_with_secret(KEY, SECRET).await;
    wait_for_value(&h, "document.activeElement.textContent", "Data packages").await;
    assert_eq!(title(&h).await, "Data packages · Download Explorer");

    h.click(&format!(".packages-table a[href='/packages/{PACKAGE}']"))
        .await;
    wait_for_page(&h, "Southampton Addresses").await;
    // The section is marked in the main navigation; the breadcrumb's parent is not current.
    let current = h.find_all("[aria-current='page']").await;
    let mut marked = Vec::new();
    for element in current {
        marked.push(element.text().await.unwrap());
    }
    assert_eq!(marked, ["Data packages", "Southampton Addresses"]);

    h.click(".versions-table a[href$='/versions/110012']").await;
    wait_for_page(&h, "Version 110012 of Southampton Addresses").await;
    let breadcrumbs = h.text(".breadcrumbs").await;
    assert_eq!(
        breadcrumbs,
        "Data packages / Southampton Addresses / Version 110012"
    );
    // Choosing a version to compare changes the query, not the page: focus stays.
    // Focused as a keyboard user reaches it (a click opens Firefox's and WebKit's
    // option popup, which then takes the keys).
    let select = h.find("#compare-select").await;
    h.js("document.querySelector('#compare-select').focus(); return null;")
        .await;
    select.send_keys(Key::Down).await.unwrap();
    select.send_keys(Key::Enter).await.unwrap();
    wait_for_value(&h, "location.search.startsWith('?compare=')", "true").await;
    // Once the comparison shows, the page has answered the change.
    h.wait_for_text(".compare-counts", "added").await;
    assert_eq!(
        h.js("return document.activeElement.id;").await,
        "compare-select"
    );

    // Product pages are under Products.
    h.click("nav[aria-label='Main'] a[href='/']").await;
    h.click(".product-grid .product-card a").await;
    wait_for_value(&h, "location.pathname.startsWith('/products/')", "true").await;
    assert_eq!(
        h.text("nav[aria-label='Main'] [aria-current='page']").await,
        "Products"
    );
    h.stop().await;
}

#[tokio::test]
async fn the_skip_link_comes_first_and_goes_to_the_content() {
    let h = Harness::start_at("/settings").await;
    h.find(".settings-form").await;
    h.driver
        .action_chain()
        .send_keys(Key::Tab)
        .perform()
        .await
        .unwrap();
    assert_eq!(focused(&h).await, "A# Skip to content");
    h.driver
        .action_chain()
        .send_keys(Key::Enter)
        .perform()
        .await
        .unwrap();
    wait_for_value(&h, "document.activeElement.id", "main").await;
    assert_eq!(h.current_url().await, h.url("/settings"));
    h.stop().await;
}

#[tokio::test]
async fn on_a_phone_the_files_and_packages_fit_the_screen() {
    let h = Harness::start_signed_in_at("/packages").await;
    h.find(".packages-table tbody tr").await;
    axe::emulate(&h, PHONE, Scheme::Light).await;
    let fits = "document.documentElement.scrollWidth <= innerWidth";
    wait_for_value(&h, fits, "true").await;
    // Dates stay whole: each on one line (the text of its `<time>`).
    let wrapped = h
        .js("return [...document.querySelectorAll('.packages-table .date')].filter(d => { const r = document.createRange(); r.selectNodeContents(d.querySelector('time') || d); return r.getClientRects().length > 1; }).length;")
        .await;
    assert_eq!(wrapped, 0);

    h.goto(&format!("/packages/{PACKAGE}/versions/110012"))
        .await;
    h.find(".files-table").await;
    wait_for_value(&h, fits, "true").await;
    // Every download link and size is on screen.
    let off_screen = h
        .js("return [...document.querySelectorAll('.files-table .download-link, .files-table tbody td.num')].filter(e => { const r = e.getBoundingClientRect(); return r.width === 0 || r.left < 0 || r.right > innerWidth; }).length;")
        .await;
    assert_eq!(off_screen, 0);
    axe::emulate(&h, DESKTOP, Scheme::Light).await;
    h.stop().await;
}

/// Every page at a phone's width: its content (`scrollWidth`) exactly as wide as the
/// page's width, so nothing slides sideways under a thumb, and every link of the
/// header in view (they wrap; once they scrolled sideways in their own bar, the
/// basket's link out of sight at 390 px). The width of the page's
/// box is `clientWidth` (the window less a scrollbar, where the engine draws one);
/// Chromium's phone emulation widens the window's layout to the content instead, so
/// the window's own width is checked too. Chromium emulates the phone; Firefox's window
/// (headless) is never narrower than 500 px, so its page is zoomed to 200% in a window
/// twice as wide ([`Harness::set_phone_viewport`]); WebKit's MiniBrowser's window stops
/// at 447 px and WebKitWebDriver can neither zoom nor emulate.
#[tokio::test]
#[cfg_attr(
    engine = "webkit",
    ignore = "WebKit's MiniBrowser window is never narrower than 447 px, and WebKitWebDriver can neither zoom the page nor emulate a phone"
)]
async fn no_page_is_wider_than_a_phone_at_320_and_390_pixels() {
    let h = Harness::start(&[]).await;
    // Signed in first: the data-package pages are listed with the others.
    h.sign_in_to("/packages", KEY, SECRET).await;
    h.find(".packages-table tbody tr").await;
    let package = format!("/packages/{PACKAGE}");
    let version = format!("/packages/{PACKAGE}/versions/110012");
    let pages = [
        ("/", ".product-grid .product-card"),
        ("/products/OpenMapLocal?areas=SU,SZ", ".shape-tools"),
        ("/products/OpenRoads", ".downloads-table"),
        (
            "/basket?items=OpenTOID//SU;OpenGreenspace/2025-10/SU,SZ/GeoPackage",
            ".basket-items details",
        ),
        ("/login", ".login-form"),
        ("/settings", ".connection-status.ok"),
        ("/no-such-page", "main h1"),
        ("/packages", ".packages-table tbody tr"),
        (package.as_str(), ".versions-table"),
        (version.as_str(), ".files-table"),
        // Welsh words are longer; the choice of language stays for what follows.
        ("/products/OpenMapLocal?areas=SU&lang=cy", ".shape-tools"),
    ];
    let mut too_wide = Vec::new();
    for width in [320, 390] {
        h.set_phone_viewport(width, 844).await;
        for (path, ready) in pages {
            h.goto(path).await;
            h.find(ready).await;
            // The page's own stylesheets, loaded with its code, are in.
            h.wait_for_js(
                "[...document.querySelectorAll('link[rel=stylesheet]')].every(l => l.sheet)",
            )
            .await;
            h.next_frames().await;
            let sizes = h
                .js("const page = document.documentElement; \
                     return [innerWidth, page.clientWidth, page.scrollWidth];")
                .await;
            let [window, page, content] = [0, 1, 2].map(|i| sizes[i].as_i64().unwrap());
            if window != i64::from(width) || content != page {
                too_wide.push(format!(
                    "{path} at {width} px: the window {window} px, the page {page} px, its content {content} px"
                ));
            }
            // The header's links wrap rather than scroll sideways in their own bar:
            // each is whole in the window, none behind a scrollbar.
            let hidden = h
                .js("const nav = document.querySelector('.site-header nav'); \
                     return [...nav.querySelectorAll('a')] \
                       .filter(a => { const r = a.getBoundingClientRect(); \
                         return r.left < 0 || r.right > innerWidth; }) \
                       .map(a => a.textContent.trim()) \
                       .concat(nav.scrollWidth > nav.clientWidth \
                         ? [`its bar scrolls: ${nav.scrollWidth} px in ${nav.clientWidth}`] : []);")
                .await;
            if hidden.as_array().is_some_and(|hidden| !hidden.is_empty()) {
                too_wide.push(format!(
                    "{path} at {width} px: the header's links not all in view: {hidden}"
                ));
            }
        }
    }
    assert!(too_wide.is_empty(), "{}", too_wide.join("\n"));
    h.stop().await;
}
