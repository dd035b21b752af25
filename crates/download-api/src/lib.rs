//! Types and pure logic of the Download Service, shared by the web app and the server.
//!
//! Nothing here does I/O, so it compiles for native targets and for `wasm32`.
//! The spec is `shared/spec/download-service.md`; field names follow it exactly.

pub mod address;
mod area;
pub mod bulk;
pub mod catalogue;
pub mod compare;
mod error;
mod flag;
mod query;
pub mod selection;
pub mod session;
mod size;
mod types;
mod urls;

pub use area::{Area, GridSquare};
pub use error::ParseError;
pub use flag::parse_flag;
pub use query::DownloadsQuery;
pub use size::format_size;
pub use types::*;
pub use urls::{ServiceUrls, encode_component, parse_query};
