//! Picking squares by shape on a product page: a rectangle dragged on the map (with a
//! mouse on a laptop, with a finger on a phone, the tool on the map itself) or typed
//! as corners, a circle round a place, and boundary files (GeoJSON, a zipped
//! shapefile, real countries files) chosen in the file box; a broken file keeps the
//! choice and says why.
//! The expected squares are worked out by hand from the grid (100 km squares; SU is
//! 400–500 km east, 100–200 km north), not by the app's code.

use std::path::PathBuf;

use e2e::thirtyfour::prelude::*;
use e2e::{Engine, Harness, axe};

const PRODUCT: &str = "OpenMapLocal";

/// The Isle of Wight, roughly, in longitude and latitude (RFC 7946 GeoJSON): all of it
/// in SZ, north of the Solent's far side in SU.
const ISLE_OF_WIGHT: &str = r#"{"type": "FeatureCollection", "features": [{"type": "Feature",
  "properties": {"name": "Isle of Wight"}, "geometry": {"type": "Polygon", "coordinates": [[
  [-1.586, 50.662], [-1.500, 50.706], [-1.298, 50.763], [-1.162, 50.731], [-1.080, 50.686],
  [-1.150, 50.650], [-1.205, 50.593], [-1.297, 50.576], [-1.400, 50.628], [-1.510, 50.668],
  [-1.586, 50.662]]]}}]}"#;

/// Waits until the address's areas are exactly `areas` (`ST,SU`).
async fn wait_for_areas(h: &Harness, areas: &str) {
    h.wait_for_address(|url| {
        url.contains(&format!("areas={areas}")) && !url.contains(&format!("areas={areas},"))
    })
    .await;
}

/// The squares picked on the map now, in the map's order.
async fn picked(h: &Harness) -> Vec<String> {
    let codes = h
        .js("return [...document.querySelectorAll('.square[aria-selected=\"true\"]')].map(s => s.id.replace('square-', ''));")
        .await;
    serde_json::from_value(codes).expect("codes")
}

/// Types `text` into the box at `css` and presses Enter, as a keyboard user submits it.
async fn submit(h: &Harness, css: &str, text: &str) {
    h.type_into(css, text).await;
    h.find(css)
        .await
        .send_keys(Key::Enter)
        .await
        .expect("press Enter");
}

/// The status line of the shape tools' forms once it says something.
async fn told(h: &Harness) -> String {
    told_at(h, "#shape-status").await
}

/// The status line at `css` once it says something: the forms' (`#shape-status`) or
/// the map's bar's, for a rectangle dragged on the map (`#map-status`).
async fn told_at(h: &Harness, css: &str) -> String {
    h.wait_for_js(&format!(
        "document.querySelector('{css}')?.textContent.trim() && document.querySelector('{css}').getAttribute('aria-busy') !== 'true'"
    ))
    .await;
    h.text(css).await
}

/// Whether the whole of the element at `css` is in the window now.
async fn in_view(h: &Harness, css: &str) -> bool {
    h.js(&format!(
        "const r = document.querySelector('{css}').getBoundingClientRect(); \
         return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;"
    ))
    .await
    .as_bool()
    .unwrap_or(false)
}

/// How far the page is scrolled, across and down, in CSS pixels.
async fn scrolled(h: &Harness) -> (i64, i64) {
    let at = h
        .js("return [Math.round(scrollX), Math.round(scrollY)];")
        .await;
    (at[0].as_i64().unwrap(), at[1].as_i64().unwrap())
}

/// Waits until the drawing tool is pressed (`true`) or not, and the map says so.
async fn wait_for_drawing(h: &Harness, on: bool) {
    h.wait_for_js(&format!(
        "document.querySelector('#draw-rectangle').getAttribute('aria-pressed') === '{on}' \
         && !!document.querySelector('.grid-map.drawing') === {on}"
    ))
    .await;
}

/// Where a square's middle is on the screen now (scroll it into view first).
async fn centre_of(h: &Harness, code: &str) -> (i64, i64) {
    centre_of_element(h, &format!("#square-{code} rect")).await
}

/// Where the middle of the element at `css` is on the screen now.
async fn centre_of_element(h: &Harness, css: &str) -> (i64, i64) {
    let centre = h
        .js(&format!(
            "const r = document.querySelector('{css}').getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2];"
        ))
        .await;
    (
        centre[0].as_f64().unwrap_or_default() as i64,
        centre[1].as_f64().unwrap_or_default() as i64,
    )
}

/// Writes `bytes` to a file called `name` and chooses it in the boundary file box.
async fn choose_file(h: &Harness, dir: &tempfile::TempDir, name: &str, bytes: &[u8]) {
    let path: PathBuf = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write the file");
    let input = h.find("#shape-file").await;
    input
        .send_keys(path.display().to_string())
        .await
        .expect("choose the file");
}

#[tokio::test]
async fn a_dragged_rectangle_picks_every_square_it_touches() {
    let h = Harness::start_at(&format!("/products/{PRODUCT}?areas=NT")).await;
    h.find("#square-ST").await;
    h.click("#draw-rectangle").await;
    h.wait_for_js(
        "document.querySelector('#draw-rectangle').getAttribute('aria-pressed') === 'true'",
    )
    .await;
    // From the middle of ST (350, 150 km) to the middle of SZ (450, 50 km), both in
    // view at once.
    h.js("document.querySelector('#square-SZ').scrollIntoView({block: 'center'}); return true;")
        .await;
    drag(&h, "ST", "SZ").await;
    wait_for_areas(&h, "ST,SU,SY,SZ").await;
    assert_eq!(picked(&h).await, ["ST", "SU", "SY", "SZ"]);
    let status = told_at(&h, "#map-status").await;
    assert!(
        status.contains("The rectangle touches 4 squares: ST, SU, SY, SZ.")
            && status.contains("4 squares are picked."),
        "{status}"
    );
    h.find(".grid-map .shape-outline").await;

    // Drawing off, a click toggles a square again.
    h.click("#draw-rectangle").await;
    h.js("document.querySelector('#square-NT').scrollIntoView({block: 'center'}); return true;")
        .await;
    h.click("#square-NT").await;
    wait_for_areas(&h, "NT,ST,SU,SY,SZ").await;
    h.stop().await;
}

/// Drags the mouse across the map from the middle of square `from` to the middle of `to`.
async fn drag(h: &Harness, from: &str, to: &str) {
    let from = centre_of(h, from).await;
    let to = centre_of(h, to).await;
    h.driver
        .action_chain()
        .move_to(from.0, from.1)
        .click_and_hold()
        .move_to((from.0 + to.0) / 2, (from.1 + to.1) / 2)
        .move_to(to.0, to.1)
        .release()
        .perform()
        .await
        .expect("drag on the map");
}

#[tokio::test]
async fn on_a_laptop_the_drawing_tool_is_on_the_map_and_draws_without_scrolling() {
    let h = Harness::start(&[]).await;
    h.set_viewport(1366, 900).await;
    h.goto(&format!("/products/{PRODUCT}")).await;
    h.find("#draw-rectangle").await;
    h.find("#square-NO").await;
    // The tool and the squares dragged across, NH (200-300 km east, 800-900 km north)
    // and NO (300-400 km east, 700-800 km north), in view as the page opens.
    for css in ["#draw-rectangle", "#square-NH rect", "#square-NO rect"] {
        assert!(in_view(&h, css).await, "{css} is not in view at 1366 x 900");
    }
    h.click("#draw-rectangle").await;
    wait_for_drawing(&h, true).await;
    drag(&h, "NH", "NO").await;
    wait_for_areas(&h, "NH,NJ,NN,NO").await;
    let status = told_at(&h, "#map-status").await;
    assert!(
        status.contains("The rectangle touches 4 squares: NH, NJ, NN, NO."),
        "{status}"
    );
    assert_eq!(scrolled(&h).await, (0, 0), "the page scrolled");
    assert!(
        in_view(&h, "#map-status").await,
        "what it picked is said out of view"
    );

    // Escape leaves drawing; a click picks a square again.
    h.press(Key::Escape).await;
    wait_for_drawing(&h, false).await;
    assert!(h.find_all("#draw-help").await.is_empty());
    h.click("#square-NT").await;
    wait_for_areas(&h, "NH,NJ,NN,NO,NT").await;

    // From the keyboard: Enter presses the tool, Escape lets it go.
    h.js("document.querySelector('#draw-rectangle').focus(); return null;")
        .await;
    h.press(Key::Enter).await;
    wait_for_drawing(&h, true).await;
    let help = h.text("#draw-help").await;
    assert!(
        help.contains("Press Escape or this button again to stop drawing."),
        "{help}"
    );
    let problems = axe::check_all_looks(&h, "product page, drawing").await;
    axe::assert_none(&problems);
    h.press(Key::Escape).await;
    wait_for_drawing(&h, false).await;
    h.stop().await;
}

#[tokio::test]
async fn on_a_phone_a_finger_draws_a_rectangle_and_a_tap_picks_a_square() {
    // Chromium emulates the phone, its touch layout with it; Firefox zooms the page to
    // 390 px (`set_phone_viewport`). WebKit's window is no narrower than 447 px: the
    // page has the same one-column layout there (below 600 px). Firefox's finger fires
    // touch and pointer events as Chromium's does; WebKitGTK's WebDriver moves a touch
    // pointer as a mouse, so there the drawing is tested with a pointer, not a finger
    // (checked below).
    let h = Harness::start_at(&format!("/products/{PRODUCT}?areas=NT")).await;
    h.set_phone_viewport(390, 844).await;
    if e2e::runs_in(
        &[Engine::Chromium, Engine::Firefox],
        "WebKit's window is never narrower than 447 px",
    ) {
        assert_eq!(h.js("return innerWidth;").await, 390);
    }
    h.find("#draw-rectangle").await;
    // Scrolled to the south coast: the tool comes along, on the map.
    h.js("document.querySelector('#square-SZ').scrollIntoView({block: 'center'}); return true;")
        .await;
    h.wait_for_js("document.querySelector('#draw-rectangle').getBoundingClientRect().top >= 0")
        .await;
    for css in ["#draw-rectangle", "#square-ST rect", "#square-SZ rect"] {
        assert!(in_view(&h, css).await, "{css} is not in view at 390 x 844");
    }
    let button = centre_of_element(&h, "#draw-rectangle").await;
    h.touch(&[button]).await;
    wait_for_drawing(&h, true).await;

    // A finger from the middle of ST (350, 150 km) to the middle of SZ (450, 50 km):
    // the page stays put under it. Where it is scrolled is noted as the finger goes
    // down and as it lifts (a page that pans for the finger cancels the pointer).
    h.js("window.__finger = []; window.__pointers = new Set(); \
          for (const type of ['pointerdown', 'pointerup', 'pointercancel']) \
            addEventListener(type, event => { \
              __finger.push(type + ' ' + Math.round(scrollY)); \
              __pointers.add(event.pointerType); \
            }, true); \
          return null;")
        .await;
    let (_, top) = scrolled(&h).await;
    let from = centre_of(&h, "ST").await;
    let to = centre_of(&h, "SZ").await;
    h.touch(&[from, ((from.0 + to.0) / 2, (from.1 + to.1) / 2), to])
        .await;
    wait_for_areas(&h, "ST,SU,SY,SZ").await;
    assert_eq!(
        h.js("return __finger;").await,
        serde_json::json!([format!("pointerdown {top}"), format!("pointerup {top}")]),
        "the page moved under the finger"
    );
    if e2e::runs_in(
        &[Engine::Chromium, Engine::Firefox],
        "WebKitGTK's WebDriver performs a touch pointer as a mouse (pointerType 'mouse', no touch events)",
    ) {
        assert_eq!(
            h.js("return [...__pointers];").await,
            serde_json::json!(["touch"]),
            "the drag was not a finger's"
        );
    }
    assert_eq!(
        h.js(
            "const page = document.documentElement; return page.scrollWidth === page.clientWidth;"
        )
        .await,
        true,
        "the page is wider than the phone"
    );

    // Drawing off, a finger on the map scrolls the page as anywhere else (so the
    // page staying put above is the map's doing, and a phone can scroll past it).
    let button = centre_of_element(&h, "#draw-rectangle").await;
    h.touch(&[button]).await;
    wait_for_drawing(&h, false).await;
    if e2e::runs_in(
        &[Engine::Chromium],
        "only Chromium's WebDriver scrolls the page for a finger (Firefox's fires its touch events but never pans; WebKitGTK's touch pointer is a mouse)",
    ) {
        let (_, before) = scrolled(&h).await;
        let from = centre_of(&h, "SZ").await;
        let to = centre_of(&h, "ST").await;
        h.touch(&[from, ((from.0 + to.0) / 2, (from.1 + to.1) / 2), to])
            .await;
        h.wait_for_js(&format!("Math.round(scrollY) > {before}"))
            .await;
        assert_eq!(picked(&h).await, ["ST", "SU", "SY", "SZ"]);
    }

    // A tap picks a square.
    let square = centre_of(&h, "SS").await;
    h.touch(&[square]).await;
    wait_for_areas(&h, "SS,ST,SU,SY,SZ").await;
    h.stop().await;
}

#[tokio::test]
async fn typed_corners_and_a_circle_round_a_place_pick_their_squares() {
    let h = Harness::start_at(&format!("/products/{PRODUCT}")).await;
    // SU 41 11 (441.5, 111.5 km) to TQ 30 80 (530.5, 180.5 km): SU and TQ only.
    h.type_into("#corner-one", "SU 41 11").await;
    submit(&h, "#corner-other", "TQ 30 80").await;
    wait_for_areas(&h, "SU,TQ").await;
    assert!(
        told(&h)
            .await
            .contains("The rectangle touches 2 squares: SU, TQ.")
    );

    // Bristol is at about (358.9, 172.9) km: 30 km reaches 202.9 km north, into SO,
    // and stays inside ST's other edges (300 and 400 km east, 100 km north).
    h.type_into("#circle-centre", "Bristol").await;
    submit(&h, "#circle-radius", "30").await;
    wait_for_areas(&h, "SO,ST").await;
    let status = told(&h).await;
    assert!(
        status.contains("The circle touches 2 squares: SO, ST."),
        "{status}"
    );
    h.find(".grid-map .shape-outline").await;

    // A typing slip keeps the choice and says why.
    submit(&h, "#circle-radius", "lots").await;
    h.wait_for_text("#shape-status", "Type the radius in kilometres")
        .await;
    assert!(
        h.text("#shape-status")
            .await
            .contains("The choice is unchanged.")
    );
    submit(&h, "#corner-one", "Atlantis").await;
    h.wait_for_text("#shape-status", "“Atlantis” is neither a grid reference")
        .await;
    wait_for_areas(&h, "SO,ST").await;
    assert!(!status.contains("outside"), "{status}");

    // Land's End, SW 35 25 (135.5, 25.5 km): 30 km round it reaches the sea south of the
    // grid's false origin, which no square covers.
    h.type_into("#circle-centre", "SW 35 25").await;
    submit(&h, "#circle-radius", "30").await;
    h.wait_for_text(
        "#shape-status",
        "The circle touches 1 square: SW. Part of the shape lies outside Great Britain's squares.",
    )
    .await;
    h.stop().await;
}

#[tokio::test]
async fn an_uploaded_geojson_picks_the_squares_it_touches() {
    let h = Harness::start(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    h.goto(&format!(
        "/products/{PRODUCT}?areas=NT,SU&format=GeoPackage"
    ))
    .await;
    h.find("#shape-file").await;
    choose_file(&h, &dir, "wight.geojson", ISLE_OF_WIGHT.as_bytes()).await;
    wait_for_areas(&h, "SZ&format=GeoPackage").await;
    assert_eq!(picked(&h).await, ["SZ"]);
    let status = told(&h).await;
    assert!(
        status.contains("The boundary in wight.geojson touches 1 square: SZ.")
            && status.contains("1 square is picked."),
        "{status}"
    );
    h.find(".grid-map .shape-outline").await;
    let problems = axe::check_all_looks(&h, "product page with a boundary picked").await;
    axe::assert_none(&problems);
    h.stop().await;
}

/// The British National Grid as ESRI writes it in a shapefile's `.prj`.
const BNG_PRJ: &str = r#"PROJCS["British_National_Grid",GEOGCS["GCS_OSGB_1936",DATUM["D_OSGB_1936",SPHEROID["Airy_1830",6377563.396,299.3249646]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",400000.0],PARAMETER["False_Northing",-100000.0],PARAMETER["Central_Meridian",-2.0],PARAMETER["Scale_Factor",0.9996012717],PARAMETER["Latitude_Of_Origin",49.0],UNIT["Meter",1.0]]"#;

/// A zipped shapefile (`.shp`, `.shx`, `.dbf`, `.prj` in a folder) of one polygon in
/// British National Grid metres: a square from (440, 90) to (460, 110) km, astride the
/// line between SZ and SU.
fn zipped_shapefile(dir: &tempfile::TempDir) -> Vec<u8> {
    use shapefile::dbase::{FieldName, FieldValue, Record, TableWriterBuilder};
    use shapefile::{Point, Polygon, PolygonRing};
    let shp = dir.path().join("solent.shp");
    let table =
        TableWriterBuilder::new().add_character_field(FieldName::try_from("NAME").unwrap(), 20);
    let mut writer = shapefile::Writer::from_path(&shp, table).expect("shapefile writer");
    let ring = [
        (440_000.0, 90_000.0),
        (440_000.0, 110_000.0),
        (460_000.0, 110_000.0),
        (460_000.0, 90_000.0),
        (440_000.0, 90_000.0),
    ];
    let polygon = Polygon::new(PolygonRing::Outer(
        ring.iter().map(|&(x, y)| Point::new(x, y)).collect(),
    ));
    let mut record = Record::default();
    record.insert(
        "NAME".to_owned(),
        FieldValue::Character(Some("Solent".to_owned())),
    );
    writer
        .write_shape_and_record(&polygon, &record)
        .expect("write the polygon");
    drop(writer);
    std::fs::write(shp.with_extension("prj"), BNG_PRJ).unwrap();

    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for extension in ["shp", "shx", "dbf", "prj"] {
        zip.start_file(format!("solent/solent.{extension}"), options)
            .unwrap();
        std::io::Write::write_all(
            &mut zip,
            &std::fs::read(shp.with_extension(extension)).unwrap(),
        )
        .unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[tokio::test]
async fn a_zipped_shapefile_picks_the_squares_it_touches() {
    let h = Harness::start(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let zipped = zipped_shapefile(&dir);
    h.goto(&format!("/products/{PRODUCT}?areas=NT")).await;
    h.find("#shape-file").await;
    choose_file(&h, &dir, "solent.zip", &zipped).await;
    wait_for_areas(&h, "SU,SZ").await;
    assert_eq!(picked(&h).await, ["SU", "SZ"]);
    let status = told(&h).await;
    assert!(
        status.contains("The boundary in solent.zip touches 2 squares: SU, SZ."),
        "{status}"
    );
    h.stop().await;
}

#[tokio::test]
async fn a_file_reader_that_cannot_start_says_so_and_keeps_the_choice() {
    let h = Harness::start(&[]).await;
    h.preload("missingWorkers", serde_json::json!(true)).await;
    let dir = tempfile::tempdir().unwrap();
    h.goto(&format!("/products/{PRODUCT}?areas=SU,SZ")).await;
    h.find("#shape-file").await;
    choose_file(&h, &dir, "wight.geojson", ISLE_OF_WIGHT.as_bytes()).await;
    h.wait_for_text(
        "#shape-status",
        "wight.geojson could not be read: the page's file reader stopped. Reload the page and \
         try again. The choice is unchanged.",
    )
    .await;
    assert!(h.find_all(".shape-progress").await.is_empty());
    assert_eq!(picked(&h).await, ["SU", "SZ"]);
    h.stop().await;
}

#[tokio::test]
async fn a_shape_picked_while_a_file_is_read_wins_and_stops_the_read() {
    let h = Harness::start(&[]).await;
    h.preload("silentWorkers", serde_json::json!(true)).await;
    let dir = tempfile::tempdir().unwrap();
    h.goto(&format!("/products/{PRODUCT}?areas=SZ")).await;
    h.find("#shape-file").await;
    choose_file(&h, &dir, "wight.geojson", ISLE_OF_WIGHT.as_bytes()).await;
    h.wait_for_text("#shape-status", "Reading wight.geojson…")
        .await;
    h.wait_for_js("window.__workers.length === 1 && !window.__workers[0].terminated")
        .await;

    h.type_into("#corner-one", "SU 41 11").await;
    submit(&h, "#corner-other", "TQ 30 80").await;
    wait_for_areas(&h, "SU,TQ").await;
    assert!(
        told(&h)
            .await
            .contains("The rectangle touches 2 squares: SU, TQ.")
    );
    // The file's worker is stopped: nothing of it can replace the rectangle.
    h.wait_for_js("window.__workers[0].terminated").await;

    // Clearing the shape stops a read as well.
    choose_file(&h, &dir, "wight.geojson", ISLE_OF_WIGHT.as_bytes()).await;
    h.wait_for_js("window.__workers.length === 2 && !window.__workers[1].terminated")
        .await;
    // "Clear the shape" is on the map: scrolled back up to it, as a person would.
    h.js("document.querySelector('.grid-map').scrollIntoView({block: 'center'}); return true;")
        .await;
    h.click("#clear-shape").await;
    h.wait_for_js("window.__workers[1].terminated").await;
    assert_eq!(picked(&h).await, ["SU", "TQ"]);
    h.stop().await;
}

#[tokio::test]
async fn a_broken_or_distant_file_keeps_the_choice_and_says_why() {
    let h = Harness::start(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    h.goto(&format!("/products/{PRODUCT}?areas=SU,SZ")).await;
    h.find("#shape-file").await;

    choose_file(
        &h,
        &dir,
        "broken.geojson",
        b"{ \"type\": \"FeatureCollection\", ",
    )
    .await;
    let status = told(&h).await;
    assert!(
        status.contains("broken.geojson is not GeoJSON")
            && status.contains("The choice is unchanged."),
        "{status}"
    );
    assert!(
        h.find("#shape-status.problem")
            .await
            .is_displayed()
            .await
            .unwrap()
    );

    let sea = r#"{"type": "Point", "coordinates": [4.5, 55.0]}"#;
    choose_file(&h, &dir, "north-sea.geojson", sea.as_bytes()).await;
    h.wait_for_text(
        "#shape-status",
        "north-sea.geojson lies wholly outside Great Britain's squares.",
    )
    .await;

    choose_file(&h, &dir, "notes.txt", b"just some notes").await;
    h.wait_for_text(
        "#shape-status",
        "notes.txt is not GeoJSON, KML, GPX or a zipped shapefile.",
    )
    .await;
    wait_for_areas(&h, "SU,SZ").await;
    assert_eq!(picked(&h).await, ["SU", "SZ"]);
    if h.engine == Engine::Chromium {
        let problems = axe::check_all_looks(&h, "product page after a broken file").await;
        axe::assert_none(&problems);
    }
    h.stop().await;
}

/// Natural Earth's countries as GIS people download them (area-shapes' fixtures, made by
/// tools/boundary-check from public-domain data): Fiji and Russia across the antimeridian,
/// one of Russia's longitudes 180.00000000000006, Antarctica round the South Pole, France,
/// Ireland and the United Kingdom.
const NATURAL_EARTH_ZIP: &[u8] =
    include_bytes!("../../../area-shapes/tests/fixtures/natural-earth-countries.zip");
const NATURAL_EARTH_GEOJSON: &[u8] =
    include_bytes!("../../../area-shapes/tests/fixtures/natural-earth-countries.geojson");

/// The squares those countries touch, as pyproj and shapely work them out
/// (tools/boundary-check), in the map's order.
const NATURAL_EARTH_SQUARES: [&str; 44] = [
    "NB", "NC", "ND", "NG", "NH", "NJ", "NK", "NM", "NN", "NO", "NR", "NS", "NT", "NU", "NW", "NX",
    "NY", "NZ", "OV", "SD", "SE", "TA", "SH", "SJ", "SK", "TF", "TG", "SM", "SN", "SO", "SP", "TL",
    "TM", "SR", "SS", "ST", "SU", "TQ", "TR", "SW", "SX", "SY", "SZ", "TV",
];

#[tokio::test]
async fn a_world_countries_file_picks_britains_squares_and_says_part_lies_outside() {
    let h = Harness::start(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    h.goto(&format!("/products/{PRODUCT}?areas=SU")).await;
    h.find("#shape-file").await;
    for (name, bytes) in [
        ("ne_countries.zip", NATURAL_EARTH_ZIP),
        ("ne_countries.geojson", NATURAL_EARTH_GEOJSON),
    ] {
        choose_file(&h, &dir, name, bytes).await;
        let said = format!(
            "The boundary in {name} touches 44 squares: {}. Part of the shape lies outside \
             Great Britain's squares.",
            NATURAL_EARTH_SQUARES.join(", ")
        );
        h.wait_for_text("#shape-status", &said).await;
        wait_for_areas(&h, &NATURAL_EARTH_SQUARES.join(",")).await;
        assert_eq!(picked(&h).await, NATURAL_EARTH_SQUARES, "{name}");
    }
    h.stop().await;
}

#[tokio::test]
async fn a_position_out_of_range_is_named_with_its_feature_in_english_and_welsh() {
    let h = Harness::start(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    // The second feature runs past the antimeridian by 10.5°: not noise.
    let pacific = r#"{"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": "Wight"},
         "geometry": {"type": "Point", "coordinates": [-1.3, 50.7]}},
        {"type": "Feature", "properties": {"name": "Pacific"},
         "geometry": {"type": "LineString", "coordinates": [[170, 10], [190.5, 10]]}}]}"#;
    for (language, said, kept) in [
        (
            "en",
            "pacific.geojson has a position out of range in feature 2 (Pacific): longitude \
             190.5, latitude 10. Longitudes run from −180 to 180 and latitudes from −90 to 90.",
            "The choice is unchanged.",
        ),
        (
            "cy",
            "Mae gan pacific.geojson safle y tu hwnt i'r terfynau yn nodwedd 2 (Pacific): \
             hydred 190.5, lledred 10. Mae hydredau'n rhedeg o −180 i 180 a lledredau o −90 \
             i 90.",
            "Nid yw'r dewis wedi newid.",
        ),
    ] {
        h.goto(&format!("/products/{PRODUCT}?areas=SU,SZ&lang={language}"))
            .await;
        h.find("#shape-file").await;
        choose_file(&h, &dir, "pacific.geojson", pacific.as_bytes()).await;
        let status = told(&h).await;
        assert!(
            status.contains(said) && status.contains(kept),
            "{language}: {status}"
        );
        wait_for_areas(&h, "SU,SZ").await;
        assert_eq!(picked(&h).await, ["SU", "SZ"], "{language}");
    }
    h.stop().await;
}
