//! Fetching many files at once: the exports a script or a download manager takes,
//! the download into a folder, and checking a folder against the listing.

pub mod export;
pub mod queue;
pub mod verify;
pub mod worker;
pub mod zip;
