//! One module per page of the app. The gallery and the not-found page (a heading
//! and a link: smaller than a chunk's loading code) stay in the main wasm; the others
//! are loaded on demand (see `chunks.rs`).

pub mod basket;
pub mod gallery;
pub mod login;
pub mod not_found;
pub mod package;
pub mod packages;
pub mod product;
pub mod settings;
pub mod version;

pub use gallery::Gallery;
pub use not_found::NotFound;
