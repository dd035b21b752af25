//! Shapes to British National Grid 100 km squares: a boundary file (GeoJSON, KML, GPX or a
//! zipped shapefile), a rectangle or a circle, and the squares of [`GridSquare::all`] it
//! touches. Plain Rust with no I/O, so the web app runs it in the browser (wasm32).
//!
//! # Exact, and in slices
//!
//! A square is picked when the shape really meets it, not its bounding box: a polygon
//! when its area overlaps the square's (holes and separate parts respected), a line when
//! it passes through the square, a point when it lies in it. Squares are half-open,
//! `[origin, origin + 100 km)`, so a line or point ending exactly on a grid line does not
//! pick the neighbour, and a polygon whose edge runs along one picks only the side its area
//! is on. The work grows with the vertices alone (each edge is walked through the cells it
//! crosses, and one sweep decides the squares no edge crosses), so a 5 MB boundary of
//! hundreds of thousands of vertices takes milliseconds per slice.
//!
//! [`Reading`] is that work as a job done a slice at a time: parsing the file is one
//! step, then each step projects and intersects at most the vertices it is given. The app
//! runs it in a worker (`crates/shape-worker`), off the page's thread, which tells the page
//! how far it is after each slice ([`read_reporting`], [`Reply`]). [`read_boundary`] runs
//! the whole job at once. `cargo xtask bench shapes` measures it (docs/performance.md).
//!
//! The file readers and the projection are the `files` feature (on by default): the app
//! builds without it, so they are in the worker's wasm alone, and the app has only
//! rectangles, circles and the worker's messages.
//!
//! # Far from Britain, and out of range
//!
//! Parts of a boundary far from Britain (other continents, the southern hemisphere, the
//! poles, the antimeridian) are simply outside the squares: the read picks what touches
//! Britain and says part lies outside. An edge that jumps more than 180° of longitude
//! crosses the antimeridian the short way (a shape not cut there, as RFC 7946 asks, or a
//! GPX track over the Pacific), not back across Britain. A longitude up to 1e-6° past ±180° or a latitude
//! past ±90° is floating-point noise (Natural Earth's Russia reaches 180.00000000000006)
//! and reads as the limit; further is [`ShapeError::OutOfRange`], naming the position and
//! its feature. `tools/boundary-check` checks real public files against pyproj and shapely.
//!
//! # How close the projection is
//!
//! Longitude and latitude (WGS84, as GeoJSON, KML and GPX are) go to the British National
//! Grid by proj4rs ([`to_bng`]): EPSG:4326 to EPSG:27700, OS's seven-parameter Helmert
//! transformation (the grid's `towgs84`) and the National Grid's transverse Mercator. OS's
//! definitive transformation, OSTN15, is a grid of measured shifts too large to ship in the
//! app; over OS's 40 OSTN15 test points this is 4.94 m off at worst (St Kilda, the far
//! west, where the old triangulation was weakest), as this crate's tests measure, and WGS84
//! is within about a metre of ETRS89, which those points are in. A square is 100 km wide: a
//! few metres decide only for a shape within metres of a grid line, where no boundary file
//! is that precise anyway.

#[cfg(feature = "files")]
mod boundary;
mod error;
mod grid;
mod point;
#[cfg(feature = "files")]
mod projection;
#[cfg(feature = "files")]
mod read;
#[cfg(feature = "files")]
mod reading;
#[cfg(feature = "files")]
mod shapes;
mod worker;

#[cfg(feature = "files")]
pub use boundary::Boundary;
pub use download_api::GridSquare;
pub use error::{FileKind, ShapeError};
pub use grid::{Coverage, rectangle, within};
pub use point::{BngPoint, MAP_TOP_KM};
#[cfg(feature = "files")]
pub use projection::to_bng;
#[cfg(feature = "files")]
pub use reading::{Reading, Step, read_boundary};
#[cfg(feature = "files")]
pub use worker::read_reporting;
pub use worker::{ReadShape, Reply};
