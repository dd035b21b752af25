//! Fetching many files at once: the exports a script or a download manager takes,
//! the download into a folder or a zip, the runs a tab keeps going from page to page,
//! and checking a folder against the listing.

pub mod export;
pub mod queue;
pub mod runs;
pub mod verify;
pub mod zip;
