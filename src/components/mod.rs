//! Reusable pieces of the interface.

mod error_view;

pub use error_view::{ErrorView, Errors};
