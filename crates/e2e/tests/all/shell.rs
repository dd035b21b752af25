//! The app shell as a user first meets it.

use e2e::Harness;

#[tokio::test]
async fn first_load_shows_the_catalogue_without_console_errors() {
    let h = Harness::start_at("/").await;
    h.find("a[href^='/products/']").await;
    h.stop_clean().await;
}

#[tokio::test]
async fn an_unknown_app_address_shows_a_way_back() {
    let h = Harness::start_at("/no/such/page").await;
    let heading = h.text("h1").await;
    assert_eq!(heading, "Page not found");
    h.find("main a[href='/']").await;
    h.stop().await;
}
