//! How soon the gallery shows its first product name on a slow phone network, next to a
//! plain-JavaScript page that fetches the same `/downloads/v1/products` and writes the
//! names: both served by our server (same origin as the API), in headless Chromium with
//! the network slowed as on slow 4G (1.6 Mbit/s down, 150 ms round trip) and the cache
//! off. Three runs each, alternating; prints every run and the medians.
//!
//! ```sh
//! cargo xtask build && cargo run -p e2e --bin first_load
//! ```

use std::time::Duration;

use e2e::bench::median;
use e2e::{Harness, eventually, our_server};
use serde_json::json;

const RUNS: usize = 3;

/// The plain page: one request, the names written as they come.
const PLAIN_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Products</title>
<link rel="icon" href="data:,"></head>
<body><h1>Products</h1><ul id="names"></ul>
<script>
fetch("/downloads/v1/products").then(r => r.json()).then(products => {
  document.getElementById("names").innerHTML =
    products.map(p => "<li class=product-name>" + p.name + "</li>").join("");
});
</script></body></html>"#;

/// Notes when a product name is first in the page (ms since the navigation began):
/// `__firstName`, any name (the plain page's, or one index.html's script wrote into
/// the skeleton), and `__firstCard`, the app's first real card.
const FIRST_NAME_RECORDER: &str = r#"
new MutationObserver((_, observer) => {
  const named = element => element && element.textContent.trim();
  if (!window.__firstName && named(document.querySelector(".card-title, .product-name"))) {
    window.__firstName = performance.now();
  }
  if (named(document.querySelector(".product-card:not(.skeleton-card) .card-title, .product-name"))) {
    window.__firstCard = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"#;

#[tokio::main]
async fn main() {
    let plain_root = std::env::temp_dir().join(format!("first-load-{}", std::process::id()));
    std::fs::create_dir_all(&plain_root).expect("create the plain page's directory");
    std::fs::write(plain_root.join("index.html"), PLAIN_PAGE).expect("write the plain page");
    let plain_root_arg = plain_root.display().to_string();
    let plain = our_server(&["--web-root", &plain_root_arg]).await;

    let h = Harness::start(&[]).await;
    h.slow_4g().await;
    let cdp = h.driver.cdp();
    cdp.send_raw("Network.setCacheDisabled", json!({ "cacheDisabled": true }))
        .await
        .expect("disable the cache");
    cdp.send_raw(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": FIRST_NAME_RECORDER }),
    )
    .await
    .expect("install the recorder");

    let (mut app, mut cards, mut plain_js) = (Vec::new(), Vec::new(), Vec::new());
    for run in 1..=RUNS {
        let (name_ms, card_ms) = first_name(&h, &h.url("/")).await;
        let (plain_ms, _) = first_name(&h, &format!("{}/", plain.origin)).await;
        println!(
            "run {run}: app first name {name_ms:.0} ms, first card {card_ms:.0} ms; plain JS {plain_ms:.0} ms"
        );
        app.push(name_ms);
        cards.push(card_ms);
        plain_js.push(plain_ms);
    }
    let middle = |values: Vec<f64>| median(values).expect("a run");
    let (app, cards, plain_js) = (middle(app), middle(cards), middle(plain_js));
    println!(
        "slow 4G, median of {RUNS}: app first product name {:.2} s ({:.2}x plain JS), \
         first app card {:.2} s ({:.2}x); plain JS {:.2} s",
        app / 1000.0,
        app / plain_js,
        cards / 1000.0,
        cards / plain_js,
        plain_js / 1000.0,
    );
    h.stop().await;
    let _ = std::fs::remove_dir_all(&plain_root);
}

/// Opens `url` and returns when its first product name and its first real card
/// appeared, in ms.
async fn first_name(h: &Harness, url: &str) -> (f64, f64) {
    h.driver.goto(url).await.expect("navigate");
    let found = eventually(Duration::from_secs(30), async || {
        let at = h
            .js("return window.__firstCard ? [window.__firstName, window.__firstCard] : [];")
            .await;
        match (at[0].as_f64(), at[1].as_f64()) {
            (Some(name), Some(card)) => Ok((name, card)),
            _ => Err(format!("{url}: no product name yet")),
        }
    })
    .await;
    // What the page still loads (the app's thumbnails) would share the next run's slow
    // link: leave it and let it settle (a measurement's quiet time, not a wait).
    h.driver.goto("about:blank").await.expect("leave the page");
    tokio::time::sleep(Duration::from_secs(3)).await;
    found
}
