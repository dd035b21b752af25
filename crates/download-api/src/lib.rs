//! The Download Service's wire types and URL building, shared by the web app and the server.
//!
//! Nothing here does I/O, so it compiles for native targets and for `wasm32`. Field names
//! follow the service's API exactly; `docs/api.md` describes it.

mod area;
mod error;
mod flag;
pub mod listed;
mod params;
mod query;
mod types;
mod urls;

pub use area::{Area, GridSquare};
pub use error::ParseError;
pub use flag::parse_flag;
pub use listed::{Field, Flaw, is_web_address};
pub use params::{QueryParams, decode_component, encode_component, parse_query};
pub use query::DownloadsQuery;
pub use types::*;
pub use urls::ServiceUrls;
