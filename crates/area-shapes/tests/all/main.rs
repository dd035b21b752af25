//! area-shapes against known answers: fixtures made by hand (tests/fixtures/), shapefiles
//! and zips written here, the grid's squares worked out on paper, and Ordnance Survey's
//! published control points.

mod against_geo;
mod common;
mod errors;
mod formats;
mod projection;
mod reading;
mod real_files;
mod shapes;
mod squares;
