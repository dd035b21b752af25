//! Reusable pieces of the interface.

mod add_to_basket;
mod area_grid;
pub mod bulk_export;
mod coastline;
mod copy_button;
mod downloads_table;
mod error_view;
pub mod files_table;
mod image_strip;
mod language_switch;
mod loaded;
mod message;
mod place_finder;
mod product_card;
pub mod save_file;
mod session_badge;
mod shape_tools;
pub mod table_tools;
mod text_field;
mod towns;
pub mod virtual_list;

pub use add_to_basket::AddToBasket;
pub use area_grid::{AreaGrid, MapMarker};
pub use copy_button::{CopyButton, copy_then};
pub use downloads_table::DownloadsTable;
pub use error_view::{ErrorPanel, Errors, service_links};
pub use image_strip::ImageStrip;
pub use language_switch::LanguageSwitch;
pub use loaded::Loaded;
pub use message::{mark, with_elements};
pub use place_finder::{Found, PlaceFinder, Places};
pub use product_card::{ProductCard, ProductCardSkeleton};
pub use session_badge::{SessionBadge, SessionReminder};
pub use shape_tools::{MapTools, ShapeState, ShapeTools};
pub use text_field::{CodeField, TextField};
