//! The measuring half of `cargo xtask bench shapes` (which builds and runs it in release):
//! reads a generated, detailed boundary of Great Britain as GeoJSON, KML, GPX and a zipped
//! shapefile, each as large as the app reads (5 MB), the way the app does, a slice at a
//! time, and prints how long the parse, the longest slice and the whole took, and the
//! outline for the map after.
//!
//! With `--write DIR` it also writes the four files into `DIR`, and its figures into
//! `DIR/native.tsv` (file, total ms, longest step ms): the browser half of the bench
//! (`crates/e2e/src/bin/bench_shapes.rs`) reads the very same files and sets its figures
//! beside these.
//!
//! The boundary is made here, the same every run: a hand-made outline of Great Britain
//! (about fifty points) with each edge cut into many short ones, each vertex nudged by up
//! to about 100 m, as a surveyed coastline wanders.

use std::fmt::Write as _;
use std::io::{Cursor, Write as _};
use std::time::{Duration, Instant};

use area_shapes::{Reading, Step};
use shapefile::dbase::{FieldValue, Record, TableWriterBuilder};
use shapefile::{Point, Polygon, PolygonRing, ShapeWriter};

/// Vertices projected and intersected in one step: the slice the page ran before the
/// worker (which reports every 100,000), kept so that the figures compare.
const BUDGET_VERTICES: usize = 20_000;

/// The size of the GeoJSON: a detailed boundary (the issue's 5 MB; the app reads up to
/// 20 MB).
const TARGET_BYTES: usize = 5 << 20;

/// The app's `OUTLINE_TOLERANCE_M` (`src/components/shape_tools/reader.rs`).
const OUTLINE_TOLERANCE_M: f64 = 500.0;

/// Great Britain's coast, roughly, clockwise from Land's End (longitude, latitude).
const OUTLINE: [(f64, f64); 47] = [
    (-5.70, 50.05),
    (-5.20, 49.96),
    (-4.10, 50.35),
    (-2.45, 50.52),
    (-1.30, 50.57),
    (-0.79, 50.72),
    (0.25, 50.73),
    (1.35, 51.13),
    (1.45, 51.38),
    (0.90, 51.50),
    (1.15, 51.78),
    (1.76, 52.47),
    (1.30, 52.93),
    (0.30, 52.90),
    (0.10, 53.58),
    (-0.08, 54.12),
    (-0.60, 54.49),
    (-1.42, 55.00),
    (-2.00, 55.77),
    (-3.10, 55.95),
    (-2.58, 56.28),
    (-2.05, 57.15),
    (-2.00, 57.70),
    (-4.20, 57.50),
    (-3.08, 58.44),
    (-3.37, 58.67),
    (-5.00, 58.63),
    (-5.16, 57.90),
    (-5.70, 57.30),
    (-5.83, 57.00),
    (-6.23, 56.73),
    (-5.47, 56.41),
    (-5.70, 55.30),
    (-5.05, 54.90),
    (-3.60, 54.90),
    (-2.90, 54.07),
    (-3.05, 53.43),
    (-4.60, 53.30),
    (-4.75, 52.80),
    (-4.08, 52.41),
    (-5.30, 51.88),
    (-3.95, 51.60),
    (-2.70, 51.50),
    (-3.47, 51.21),
    (-4.53, 51.02),
    (-4.94, 50.54),
    (-5.70, 50.05),
];

/// The outline cut into `vertices` vertices (the first again at the end), each nudged.
fn coast(vertices: usize) -> Vec<(f64, f64)> {
    let edges = OUTLINE.len() - 1;
    let per_edge = vertices / edges;
    // A linear congruential generator: the same nudges every run.
    let mut seed: u64 = 0x5EED;
    let mut nudge = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.002
    };
    let mut points = Vec::with_capacity(vertices + 1);
    for pair in OUTLINE.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        for step in 0..per_edge {
            let t = step as f64 / per_edge as f64;
            points.push((x0 + (x1 - x0) * t + nudge(), y0 + (y1 - y0) * t + nudge()));
        }
    }
    points.push(points[0]);
    points
}

fn geojson(points: &[(f64, f64)]) -> String {
    let mut text = String::from(
        r#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Great Britain"},"geometry":{"type":"Polygon","coordinates":[["#,
    );
    for (index, (x, y)) in points.iter().enumerate() {
        let comma = if index == 0 { "" } else { "," };
        let _ = write!(text, "{comma}[{x:.6},{y:.6}]");
    }
    text.push_str("]]}}]}");
    text
}

fn kml(points: &[(f64, f64)]) -> String {
    let mut text = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Great Britain</name><Polygon><outerBoundaryIs><LinearRing><coordinates>"#,
    );
    for (x, y) in points {
        let _ = write!(text, "{x:.6},{y:.6},0 ");
    }
    text.push_str(
        "</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>",
    );
    text
}

fn gpx(points: &[(f64, f64)]) -> String {
    let mut text = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Great Britain</name><trkseg>"#,
    );
    for (x, y) in points {
        let _ = write!(text, r#"<trkpt lat="{y:.6}" lon="{x:.6}"/>"#);
    }
    text.push_str("</trkseg></trk></gpx>");
    text
}

/// The zip, and the size of its `.shp` (what the app's limit applies to).
fn zipped_shapefile(points: &[(f64, f64)]) -> (Vec<u8>, usize) {
    let (mut shp, mut shx, mut dbf) = (
        Cursor::new(Vec::new()),
        Cursor::new(Vec::new()),
        Cursor::new(Vec::new()),
    );
    {
        let table = TableWriterBuilder::new()
            .add_character_field("name".try_into().expect("a short name"), 20)
            .build_with_dest(&mut dbf);
        let mut writer = shapefile::Writer::new(ShapeWriter::with_shx(&mut shp, &mut shx), table);
        let ring = points.iter().map(|&(x, y)| Point { x, y }).collect();
        let mut record = Record::default();
        record.insert("name".into(), FieldValue::Character(Some("GB".into())));
        writer
            .write_shape_and_record(&Polygon::new(PolygonRing::Outer(ring)), &record)
            .expect("an in-memory shapefile");
    }
    let prj = "GEOGCS[\"GCS_WGS_1984\",DATUM[\"D_WGS_1984\",SPHEROID[\"WGS_1984\",6378137.0,298.257223563]],PRIMEM[\"Greenwich\",0.0],UNIT[\"Degree\",0.0174532925199433]]";
    let shp = shp.into_inner();
    let shp_size = shp.len();
    let mut archive = rawzip::ZipArchiveWriter::new(Vec::new());
    for (name, bytes) in [
        ("gb.shp", shp),
        ("gb.dbf", dbf.into_inner()),
        ("gb.prj", prj.as_bytes().to_vec()),
    ] {
        let (mut entry, config) = archive
            .new_file(name)
            .compression_method(rawzip::CompressionMethod::DEFLATE)
            .start()
            .expect("a zip entry");
        let encoder =
            flate2::write::DeflateEncoder::new(&mut entry, flate2::Compression::default());
        let mut writer = config.wrap(encoder);
        writer.write_all(&bytes).expect("an in-memory zip");
        let (encoder, descriptor) = writer.finish().expect("an in-memory zip");
        encoder.finish().expect("an in-memory zip");
        entry.finish(descriptor).expect("an in-memory zip");
    }
    (archive.finish().expect("an in-memory zip"), shp_size)
}

/// One file read as the app reads it.
struct Run {
    vertices: usize,
    /// The steps before the vertices are known: the parse (a zip's inflating too), summed.
    file: Duration,
    /// The longest of those, and of the steps on the vertices.
    longest_file_step: Duration,
    longest_vertex_step: Duration,
    steps: usize,
    total: Duration,
    outline: Duration,
    squares: usize,
}

fn read(name: &str, bytes: &[u8]) -> Run {
    let started = Instant::now();
    let mut reading = Reading::new(name, bytes, TARGET_BYTES as u64).expect("within the limit");
    // Each step's time, and whether the vertices were known before it.
    let mut steps = Vec::new();
    let mut vertices = 0;
    let boundary = loop {
        let step_started = Instant::now();
        let step = reading.step(BUDGET_VERTICES);
        steps.push((step_started.elapsed(), vertices > 0));
        match step {
            Step::Working { total, .. } => vertices = total,
            Step::Done(result) => break result.expect("the boundary reads"),
        }
    };
    let total = started.elapsed();
    let outline_started = Instant::now();
    std::hint::black_box(boundary.outline(OUTLINE_TOLERANCE_M));
    let longest = |on_vertices: bool| {
        let times = steps.iter().filter(|&&(_, known)| known == on_vertices);
        times.map(|&(time, _)| time).max().unwrap_or_default()
    };
    Run {
        vertices,
        file: steps
            .iter()
            .filter(|(_, known)| !known)
            .map(|(time, _)| *time)
            .sum(),
        longest_file_step: longest(false),
        longest_vertex_step: longest(true),
        steps: steps.len(),
        total,
        outline: outline_started.elapsed(),
        squares: boundary.coverage().squares.len(),
    }
}

fn ms(duration: Duration) -> String {
    format!("{:.1} ms", millis(duration))
}

/// A file's bytes and the size the app's limit applies to.
type Writer = fn(&[(f64, f64)]) -> (Vec<u8>, usize);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let write_to = match args.get(1..) {
        Some([flag, dir]) if flag == "--write" => Some(std::path::PathBuf::from(dir)),
        Some([]) => None,
        _ => panic!("usage: bench [--write DIR]"),
    };
    let formats: [(&str, Writer); 4] = [
        ("gb.geojson", |points| whole(geojson(points).into_bytes())),
        ("gb.kml", |points| whole(kml(points).into_bytes())),
        ("gb.gpx", |points| whole(gpx(points).into_bytes())),
        ("gb.zip", zipped_shapefile),
    ];
    println!(
        "Each file as large as the app reads (5 MB; a zipped shapefile's .shp inflated), \
         {BUDGET_VERTICES} vertices a slice, natively in release, best of 5 runs each:"
    );
    let mut rows = Vec::new();
    for (name, write) in formats {
        // As many vertices as fill the limit, from the bytes a vertex takes in this format.
        let sample = 10_000;
        let per_vertex = write(&coast(sample)).1 as f64 / sample as f64;
        let (bytes, _) = write(&coast((TARGET_BYTES as f64 * 0.98 / per_vertex) as usize));
        if let Some(dir) = &write_to {
            std::fs::write(dir.join(name), &bytes).expect("write the file");
        }
        // The best of five: the least disturbed by other work on the machine.
        let run = (0..5)
            .map(|_| read(name, &bytes))
            .min_by_key(|run| run.total)
            .expect("five runs");
        rows.push((name, bytes.len(), run));
    }
    if let Some(dir) = &write_to {
        write_figures(&dir.join("native.tsv"), &rows);
    }
    println!(
        "\n| file | size | vertices | parse (longest step) | longest step on vertices | steps | total | squares | outline at 500 m |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, size, run) in &rows {
        let parse = if run.file == run.longest_file_step {
            ms(run.file)
        } else {
            format!("{} ({})", ms(run.file), ms(run.longest_file_step))
        };
        println!(
            "| {name} | {:.2} MB | {} | {parse} | {} | {} | {} | {} | {} |",
            *size as f64 / 1_048_576.0,
            run.vertices,
            ms(run.longest_vertex_step),
            run.steps,
            ms(run.total),
            run.squares,
            ms(run.outline),
        );
    }
}

/// Each file's total as the app spends it (its steps, then the outline) and its longest
/// task (a step or the outline), for the browser half's table.
fn write_figures(path: &std::path::Path, rows: &[(&str, usize, Run)]) {
    let mut text = String::new();
    for (name, _, run) in rows {
        let total = run.total + run.outline;
        let longest = run
            .longest_file_step
            .max(run.longest_vertex_step)
            .max(run.outline);
        let _ = writeln!(text, "{name}\t{:.1}\t{:.1}", millis(total), millis(longest));
    }
    std::fs::write(path, text).expect("write native.tsv");
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn whole(bytes: Vec<u8>) -> (Vec<u8>, usize) {
    let size = bytes.len();
    (bytes, size)
}
