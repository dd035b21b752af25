//! Download Explorer: find and fetch geographic data from a Download Service.

mod api;
mod app;
mod auth;
mod basket;
#[cfg(all(test, target_arch = "wasm32"))]
mod browser_tests;
mod chunks;
mod components;
mod config;
mod downloads;
mod dropped;
mod fs_access;
mod language;
mod navigation;
mod pages;
mod stylesheet;
mod time;
mod words;
mod workers;

fn main() {
    language::start();
    // Leptos sets up its executor in `mount_to_body`, so this first task uses the browser's.
    wasm_bindgen_futures::spawn_local(async {
        let service = config::load().await;
        leptos::mount::mount_to_body(move || app::App(app::AppProps { service }));
    });
}
