//! One module per page of the app.

mod gallery;
mod not_found;

pub use gallery::Gallery;
pub use not_found::NotFound;
