//! What tests and benchmarks start the server with (the `testing` feature): a catalogue
//! made to measure ([`LargeCatalogue`]) and an object store to publish to ([`Garage`]).
//!
//! Each file uses only `std` (and `serde_json`), so xtask includes it as it is
//! (`#[path]`) rather than building the server.

mod catalogue;
mod garage;

pub use catalogue::{
    Gridded, KEY, LargeCatalogue, PACKAGE, SECRET, file_name, file_size, product_id, product_name,
};
pub use garage::{BUCKET, Garage};
