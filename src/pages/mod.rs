//! One module per page of the app.

mod gallery;
mod login;
mod not_found;
mod package;
mod packages;
mod product;
mod settings;
mod version;

pub use gallery::Gallery;
pub use login::Login;
pub use not_found::NotFound;
pub use package::Package;
pub use packages::Packages;
pub use product::ProductPage;
pub use settings::Settings;
pub use version::Version;
