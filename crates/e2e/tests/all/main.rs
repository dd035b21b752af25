//! The browser tests: the built web app in headless Chromium against servers started in
//! this process (see the `e2e` library). One test binary for them all: each binary links
//! the harness, the server and thirtyfour (about 135 MB), and one per file once filled
//! CI's disk. Run one module with a filter, e.g. `cargo test -p e2e -- gallery::`.

mod a11y;
mod basket;
mod bulk;
mod gallery;
mod hostile_service;
mod packages;
mod product;
mod quirky_service;
mod scale;
mod session;
mod shapes;
mod shell;
mod split;
mod static_host;
mod storage;
mod welsh;
mod zip;
