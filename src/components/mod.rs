//! Reusable pieces of the interface.

mod error_view;
pub mod files_table;
mod product_card;
pub mod save_file;
mod session_badge;

pub use error_view::{ErrorView, Errors};
pub use session_badge::SessionBadge;
pub use product_card::{ProductCard, ProductCardSkeleton};
