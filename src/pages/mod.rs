//! One module per page of the app.

mod gallery;
mod not_found;
mod settings;

pub use gallery::Gallery;
pub use not_found::NotFound;
pub use settings::Settings;
