//! Reusable pieces of the interface.

mod error_view;
pub mod save_file;

pub use error_view::{ErrorView, Errors};
