//! Reads boundary files as the app's worker does and prints, for each, one line of JSON:
//! `{"file": …, "squares": ["SU", …], "outside": true}` or `{"file": …, "error": …}`
//! (the error as the worker sends it to the page, and `message`, its log sentence).
//! `tools/boundary-check/check.py` runs it on real public files and checks the squares
//! against pyproj and shapely.
//!
//! ```sh
//! cargo run -p area-shapes --example squares -- FILE…
//! ```

use area_shapes::{Reply, read_reporting};

/// The app's limit (`src/components/shape_tools`) and outline tolerance.
const LIMIT: u64 = 20 << 20;
const OUTLINE_TOLERANCE_M: f64 = 500.0;

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
        let name = path.rsplit('/').next().unwrap_or(&path);
        let mut read = None;
        read_reporting(name, &bytes, LIMIT, OUTLINE_TOLERANCE_M, |reply| {
            if let Reply::Read(result) = reply {
                read = Some(result);
            }
        });
        let line = match read.expect("the reader always ends with Read") {
            Ok(shape) => serde_json::json!({
                "file": path,
                "squares": shape.coverage.squares.iter().map(|square| square.code()).collect::<Vec<_>>(),
                "outside": shape.coverage.outside,
            }),
            Err(error) => serde_json::json!({
                "file": path,
                "error": error,
                "message": error.to_string(),
            }),
        };
        println!("{line}");
    }
}
