//! The Download Explorer web app's plain logic: the rules behind its pages, kept out of
//! the components so they can be tested natively.
//!
//! Nothing here does I/O; the wire types it works on come from `download_api`.

pub mod address;
pub mod basket;
pub mod bulk;
pub mod flaws;
pub mod gallery;
pub mod product;
pub mod routes;
pub mod service_error;
pub mod session;
mod size;
pub mod table_tools;
pub mod text;
mod totals;
pub mod versions;
pub mod virtual_list;

pub use size::format_size;
pub use totals::Totals;
