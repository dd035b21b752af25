//! `cargo xtask bench shapes`: a detailed 5 MB boundary of Great Britain read the way the
//! web app reads a dropped file (area-shapes' `Reading`, a slice at a time), as GeoJSON,
//! KML, GPX and a zipped shapefile. The measuring is `crates/area-shapes/examples/bench.rs`,
//! built and run here in release, natively: the browser's wasm is about 1.5 to 2 times
//! slower, so a slice must stay well under the app's 100 ms a task.

use crate::exec::{Result, cargo, run};

pub fn bench() -> Result {
    run(cargo().args([
        "run",
        "--release",
        "--quiet",
        "-p",
        "area-shapes",
        "--example",
        "bench",
    ]))
}
