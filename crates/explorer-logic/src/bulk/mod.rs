//! Fetching many files at once: the exports a script or a download manager takes,
//! the download into a folder or into zips, the runs a tab keeps going from page to
//! page, and checking a folder against the listing.
//!
//! The download itself is split by job: the listed files ([`file`](mod@file)), where
//! each is saved ([`naming`]), reading the service's answers ([`answer`]), the rules
//! of the run ([`queue`]), the worker's queue and the page's copy of it ([`journal`]),
//! what people read of it ([`progress`]), its report ([`report`]), the zips it writes
//! ([`zip`]) and what the page and the worker say ([`worker`]).

pub mod answer;
pub mod export;
pub mod file;
pub mod journal;
pub mod naming;
pub mod progress;
pub mod queue;
pub mod report;
pub mod runs;
pub mod verify;
pub mod worker;
pub mod zip;
