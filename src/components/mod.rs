//! Reusable pieces of the interface.

mod error_view;
mod product_card;
pub mod save_file;

pub use error_view::{ErrorView, Errors};
pub use product_card::{ProductCard, ProductCardSkeleton};
