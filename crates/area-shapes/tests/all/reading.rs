//! The sliced job gives the one-shot reader's answer, a bounded slice at a time.

use std::fmt::Write as _;

use area_shapes::{Reading, Reply, ShapeError, Step, read_boundary};

use crate::common::{LIMIT, codes, coverage, fixture, zipped_cotswolds};

/// Runs a job to the end with `budget` vertices a step: the boundary, and each step's
/// (done, total).
fn run(name: &str, bytes: &[u8], budget: usize) -> (area_shapes::Boundary, Vec<(usize, usize)>) {
    let mut reading = Reading::new(name, bytes, LIMIT).unwrap();
    let mut steps = Vec::new();
    loop {
        match reading.step(budget) {
            Step::Working { done, total } => steps.push((done, total)),
            Step::Done(result) => {
                let total = steps.last().map_or(0, |&(_, total)| total);
                steps.push((total, total));
                return (result.unwrap(), steps);
            }
        }
    }
}

/// A ring of `vertices` points round the Midlands (British National Grid metres): 145 km
/// to 155 km from (420 km, 300 km), wavy so that it crosses grid lines many times.
fn wavy_ring(vertices: usize) -> String {
    let mut ring = String::new();
    for index in 0..=vertices {
        let angle = index as f64 / vertices as f64 * std::f64::consts::TAU;
        let radius = 150_000.0 + 5_000.0 * (angle * 40.0).sin();
        let (x, y) = (
            420_000.0 + radius * angle.cos(),
            300_000.0 + radius * angle.sin(),
        );
        let _ = write!(ring, "{}[{x:.1},{y:.1}]", if index == 0 { "" } else { "," });
    }
    format!(
        r#"{{"type": "Polygon", "coordinates": [[{ring}]],
            "crs": {{"type": "name", "properties": {{"name": "EPSG:27700"}}}}}}"#
    )
}

#[test]
fn slices_of_any_size_give_the_one_shot_answer() {
    let wavy = wavy_ring(2000);
    for (name, bytes) in [
        ("wight.geojson", fixture("wight.geojson")),
        ("cotswolds.kml", fixture("cotswolds.kml")),
        ("cotswolds.gpx", fixture("cotswolds.gpx")),
        ("wavy.geojson", wavy.into_bytes()),
        ("cotswolds.zip", zipped_cotswolds()),
    ] {
        let whole = read_boundary(name, &bytes, LIMIT).unwrap();
        for budget in [1, 3, 7, 100, 5000] {
            let (sliced, _) = run(name, &bytes, budget);
            assert_eq!(sliced, whole, "{name} in slices of {budget}");
        }
    }
}

#[test]
fn the_wavy_ring_picks_the_squares_within_its_reach() {
    // Worked out from the grid: every square whose nearest point is under 145 km from the
    // centre, none over 155 km. That is columns 2 to 5 (SN's to TL's) and rows 1 to 4 (ST's
    // to SD's), but their two western corners, 156 km away: SS, and the sea west of SD.
    let (boundary, _) = run("wavy.geojson", wavy_ring(2000).as_bytes(), 500);
    let expected = [
        "SD", "SE", "TA", "SH", "SJ", "SK", "TF", "SN", "SO", "SP", "TL", "ST", "SU", "TQ",
    ];
    assert_eq!(coverage(&boundary), (expected.to_vec(), false));
}

#[test]
fn every_step_stays_within_its_vertex_budget() {
    let bytes = wavy_ring(2000);
    let budget = 128;
    let (_, steps) = run("wavy.geojson", bytes.as_bytes(), budget);
    let total = 2001;
    // The parse, then the vertices a budget at a time, then done.
    assert_eq!(steps[0], (0, total));
    for pair in steps.windows(2) {
        let (before, after) = (pair[0].0, pair[1].0);
        assert!(after > before && after - before <= budget, "{pair:?}");
    }
    assert_eq!(steps.len(), 1 + total.div_ceil(budget));
    assert_eq!(steps.last(), Some(&(total, total)));
}

#[test]
fn a_zip_is_inflated_over_steps_before_its_vertices_count() {
    // 236 bytes of .shp (a header of 100, a record of 8 + 44 + 4 + 5 × 16), 2 vertices'
    // worth (32 bytes) a step: the open, 8 steps to inflate, the last of them reading the
    // 5 vertices, then 3 steps of vertices.
    let (_, steps) = run("cotswolds.zip", &zipped_cotswolds(), 2);
    assert_eq!(
        steps,
        [
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 5),
            (2, 5),
            (4, 5),
            (5, 5)
        ]
    );
}

#[test]
fn a_finished_job_gives_its_error_as_a_step() {
    let mut reading = Reading::new(
        "sea.geojson",
        br#"{"type": "Point", "coordinates": [4.5, 55]}"#,
        LIMIT,
    )
    .unwrap();
    assert!(matches!(
        reading.step(10),
        Step::Working { done: 0, total: 1 }
    ));
    assert!(matches!(
        reading.step(10),
        Step::Done(Err(area_shapes::ShapeError::OutsideGreatBritain))
    ));
}

/// What the worker tells the page: how far it is, in order, then the squares; or, last,
/// why there are none.
#[test]
fn the_worker_reports_progress_then_what_it_read() {
    let mut replies = Vec::new();
    let wavy = wavy_ring(250_000);
    area_shapes::read_reporting("wavy.geojson", wavy.as_bytes(), LIMIT, 500.0, |reply| {
        replies.push(reply)
    });
    let (last, working) = replies.split_last().unwrap();
    let Reply::Read(Ok(shape)) = last else {
        panic!("{last:?}");
    };
    // The one-shot reader's squares (its own tests check them against known answers).
    let whole = read_boundary("wavy.geojson", wavy.as_bytes(), LIMIT).unwrap();
    assert_eq!(shape.coverage, whole.coverage());
    assert!(!shape.coverage.outside);
    assert!(shape.outline.starts_with('M') && shape.outline.ends_with('Z'));
    let done: Vec<usize> = working
        .iter()
        .map(|reply| match reply {
            Reply::Working {
                done,
                total: 250_001,
            } => *done,
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(done.len() >= 2, "{done:?}");
    assert!(done.is_sorted() && done.last() < Some(&250_001), "{done:?}");

    let mut replies = Vec::new();
    area_shapes::read_reporting(
        "sea.geojson",
        br#"{"type": "Point", "coordinates": [-20.0, 45.0]}"#,
        LIMIT,
        500.0,
        |reply| replies.push(reply),
    );
    assert_eq!(
        replies.last(),
        Some(&Reply::Read(Err(ShapeError::OutsideGreatBritain)))
    );
}

/// The page reads the worker's replies as JSON: a square by its code, and an error
/// with what its sentence needs.
#[test]
fn replies_cross_to_the_page_as_json() {
    let json =
        r#"{"Read":{"Ok":{"coverage":{"squares":["SU","SZ"],"outside":true},"outline":"M1 2Z"}}}"#;
    let reply: Reply = serde_json::from_str(json).unwrap();
    let Reply::Read(Ok(shape)) = &reply else {
        panic!("{reply:?}");
    };
    assert_eq!(codes(&shape.coverage.squares), ["SU", "SZ"]);
    assert_eq!(serde_json::to_string(&reply).unwrap(), json);
    let missing =
        serde_json::to_string(&Reply::Read(Err(ShapeError::MissingPart(".prj".into())))).unwrap();
    assert_eq!(missing, r#"{"Read":{"Err":{"MissingPart":".prj"}}}"#);
    assert!(
        serde_json::from_str::<Reply>(
            r#"{"Read":{"Ok":{"squares":["XX"],"outside":false,"outline":""}}}"#
        )
        .is_err()
    );
}
