//! Component tests in a real browser (wasm-bindgen-test): each mounts one component
//! into the page and checks what a person would see, waiting for the page to catch
//! up frame by frame rather than for a fixed time.
//!
//! Run headless in Chromium, with wasm-bindgen-test-runner (of wasm-bindgen-cli, which
//! `cargo xtask` installs) as the wasm target's runner:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//! CHROMEDRIVER=chromedriver cargo test -p download-explorer --target wasm32-unknown-unknown`

use leptos::mount::mount_to;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{DomParser, HtmlElement, HtmlInputElement, SupportedType};

use crate::components::virtual_list::BoxedList;
use crate::components::{ProductCardSkeleton, TextField};
use crate::pages::gallery::SKELETON_CARDS;

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element of the page to mount a component into, with `css` in force.
pub fn stage(css: &str) -> HtmlElement {
    let document = document();
    let style = document.create_element("style").expect("a style element");
    style.set_text_content(Some(css));
    document
        .head()
        .expect("a head")
        .append_child(&style)
        .expect("styled");
    let stage = document.create_element("div").expect("a div");
    document
        .body()
        .expect("a body")
        .append_child(&stage)
        .expect("staged");
    stage.unchecked_into()
}

/// The element of `within` that `selector` finds.
pub fn find(within: &HtmlElement, selector: &str) -> web_sys::Element {
    within
        .query_selector(selector)
        .expect("a valid selector")
        .unwrap_or_else(|| panic!("no {selector} in {}", within.inner_html()))
}

/// How many elements of `within` `selector` finds.
pub fn count(within: &HtmlElement, selector: &str) -> u32 {
    within
        .query_selector_all(selector)
        .map_or(0, |all| all.length())
}

/// Waits, one frame at a time, until `ready` holds; fails after about five seconds.
pub async fn until(what: &str, mut ready: impl FnMut() -> bool) {
    for _ in 0..300 {
        if ready() {
            return;
        }
        next_frame().await;
    }
    panic!("still not so after 300 frames: {what}");
}

/// Resolves at the next frame the page draws.
pub async fn next_frame() {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().request_animation_frame(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(frame).await;
}

#[wasm_bindgen_test]
async fn a_boxed_list_of_thousands_draws_a_few_dozen_and_follows_its_box() {
    let stage =
        stage(".test-box { max-height: 200px; overflow: auto; } .test-box li { height: 20px; }");
    let _mounted = mount_to(stage.clone(), || {
        view! { <BoxedList total=5000 class="test-box" item=|pos| format!("item {pos}") /> }
    });
    until("the list is windowed", || {
        (1..=100).contains(&count(&stage, "li"))
    })
    .await;
    let first = find(&stage, "li");
    assert_eq!(first.text_content().as_deref(), Some("item 0"));
    assert_eq!(first.get_attribute("aria-setsize").as_deref(), Some("5000"));

    let scroller = find(&stage, ".test-box");
    scroller.set_scroll_top(scroller.scroll_height());
    until(
        "the last item shows once the box is scrolled to its end",
        || count(&stage, "li[aria-posinset='5000']") == 1,
    )
    .await;
    assert!(count(&stage, "li") <= 100, "still windowed at the end");
}

#[wasm_bindgen_test]
async fn a_text_field_says_when_it_is_wrong_and_takes_what_is_typed() {
    let stage = stage("");
    let value = RwSignal::new(String::new());
    let invalid = RwSignal::new(false);
    let _mounted = mount_to(stage.clone(), move || {
        view! { <TextField id="test-key" label="API key" value invalid problem_id="test-problem" /> }
    });
    let input: HtmlInputElement = find(&stage, "#test-key").unchecked_into();
    assert_eq!(
        find(&stage, "label[for='test-key']")
            .text_content()
            .as_deref(),
        Some("API key")
    );
    assert_eq!(
        input.get_attribute("aria-invalid").as_deref(),
        Some("false")
    );
    assert_eq!(input.get_attribute("aria-describedby"), None);

    invalid.set(true);
    until("the field is marked wrong", || {
        input.get_attribute("aria-invalid").as_deref() == Some("true")
    })
    .await;
    assert_eq!(
        input.get_attribute("aria-describedby").as_deref(),
        Some("test-problem")
    );

    input.set_value("my-key");
    let typed = web_sys::Event::new("input").expect("an input event");
    input.dispatch_event(&typed).expect("dispatched");
    until("the value follows the typing", || {
        value.get_untracked() == "my-key"
    })
    .await;
}

/// index.html's first view shows the gallery's skeleton before the app's code has
/// arrived: its card must be the app's own, or the page jumps when the app takes over.
#[wasm_bindgen_test]
fn the_boot_skeleton_card_is_the_apps() {
    let stage = stage("");
    let _mounted = mount_to(stage.clone(), || view! { <ProductCardSkeleton /> });
    let apps = find(&stage, ".product-card").outer_html();

    let page = DomParser::new()
        .expect("a parser")
        .parse_from_string(include_str!("../index.html"), SupportedType::TextHtml)
        .expect("index.html parses");
    let boot = page
        .query_selector(".boot-gallery .product-card")
        .expect("a valid selector")
        .expect("index.html's skeleton card");
    // Its words carry the message they are (`data-text`), for a Welsh first view.
    let boot = without_layout(&without_message_names(&boot.outer_html()));
    let apps = without_layout(&apps);
    assert!(
        same_markup(&boot, &apps),
        "index.html's card:\n{boot}\nthe app's:\n{apps}"
    );
    // Its script copies the card into as many as the gallery's skeleton shows.
    let copies = format!("i < {SKELETON_CARDS}; i++");
    assert!(
        include_str!("../index.html").contains(&copies),
        "index.html lacks {copies:?}"
    );
}

/// Whether two pieces of markup make the same elements, as the DOM compares them (its
/// attributes in any order: the order Leptos writes them in is its own).
fn same_markup(one: &str, other: &str) -> bool {
    let parsed = |html: &str| {
        let holder = document().create_element("div").expect("a div");
        holder.set_inner_html(html);
        holder
    };
    parsed(one).is_equal_node(Some(&parsed(other)))
}

/// `html` without its ` data-text="…"` attributes.
fn without_message_names(html: &str) -> String {
    let mut rest = html;
    let mut kept = String::with_capacity(html.len());
    while let Some(start) = rest.find(" data-text=\"") {
        kept.push_str(&rest[..start]);
        let value = &rest[start + " data-text=\"".len()..];
        rest = value.find('"').map_or("", |end| &value[end + 1..]);
    }
    kept.push_str(rest);
    kept
}

/// The markup of `html`: without the white space between tags (index.html is
/// indented) and Leptos's empty marker comments (a debug build's placeholders).
fn without_layout(html: &str) -> String {
    let html = html.replace("<!---->", "");
    let pieces: Vec<&str> = html
        .split('>')
        .map(|piece| match piece.trim_start() {
            tag if tag.starts_with('<') => tag,
            _ => piece,
        })
        .collect();
    pieces.join(">")
}
