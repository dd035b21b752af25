//! Download Explorer: find and fetch geographic data from a Download Service.

mod api;
mod app;
mod auth;
#[cfg(all(test, target_arch = "wasm32"))]
mod browser_tests;
mod chunks;
mod components;
mod config;
mod dropped;
mod fs_access;
mod language;
mod navigation;
mod pages;

fn main() {
    // Leptos sets up its executor in `mount_to_body`, so this first task uses the browser's.
    wasm_bindgen_futures::spawn_local(async {
        let language = language::start().await;
        if let Err(error) = &language {
            leptos::logging::warn!("{error}");
        }
        let language_failed = language.err().map(|error| error.to_string());
        let service = config::load().await;
        leptos::mount::mount_to_body(move || {
            app::App(app::AppProps {
                service,
                language_failed,
            })
        });
    });
}
