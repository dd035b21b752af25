//! Rectangles and circles, worked out from the grid (see squares.rs).

use area_shapes::{BngPoint, rectangle, within};

use crate::common::codes;

fn at(easting: f64, northing: f64) -> BngPoint {
    BngPoint { easting, northing }
}

#[test]
fn a_rectangle_picks_the_squares_between_its_corners() {
    // Corners in SU and TQ, side by side in the 100 km to 200 km row.
    assert_eq!(
        codes(&rectangle(
            at(450_000.0, 150_000.0),
            at(550_000.0, 120_000.0)
        )),
        ["SU", "TQ"]
    );
    // Corners in ST and TQ: SU lies between.
    let across = rectangle(at(350_000.0, 190_000.0), at(550_000.0, 120_000.0));
    assert_eq!(codes(&across), ["ST", "SU", "TQ"]);
    // Any two opposite corners: the other pair, either way round.
    assert_eq!(
        rectangle(at(550_000.0, 190_000.0), at(350_000.0, 120_000.0)),
        across
    );
    assert_eq!(
        rectangle(at(550_000.0, 120_000.0), at(350_000.0, 190_000.0)),
        across
    );
    // From SU's corner in SS's row... to TL: two rows, four columns, less what is off the list.
    assert_eq!(
        codes(&rectangle(
            at(250_000.0, 150_000.0),
            at(550_000.0, 250_000.0)
        )),
        ["SN", "SO", "SP", "TL", "SS", "ST", "SU", "TQ"]
    );
}

#[test]
fn a_rectangle_on_the_grid_lines_picks_only_what_it_covers() {
    assert_eq!(
        codes(&rectangle(
            at(400_000.0, 100_000.0),
            at(500_000.0, 200_000.0)
        )),
        ["SU"]
    );
    // No height: the line between the corners.
    assert_eq!(
        codes(&rectangle(
            at(350_000.0, 150_000.0),
            at(450_000.0, 150_000.0)
        )),
        ["ST", "SU"]
    );
    // A click: the square under it.
    assert_eq!(
        codes(&rectangle(
            at(450_000.0, 150_000.0),
            at(450_000.0, 150_000.0)
        )),
        ["SU"]
    );
}

#[test]
fn a_rectangle_off_the_grid_picks_nothing() {
    assert!(rectangle(at(800_000.0, 100_000.0), at(900_000.0, 200_000.0)).is_empty());
}

#[test]
fn a_circle_picks_the_squares_closer_than_its_radius() {
    // Bristol, ST 58 72: 58 km from ST's west edge, 28 km from SO's southern edge (the
    // 200 km northing), 42 km from SU's western edge and 50.5 km from SP's corner.
    let bristol = at(358_000.0, 172_000.0);
    assert_eq!(codes(&within(bristol, 20_000.0)), ["ST"]);
    assert_eq!(codes(&within(bristol, 30_000.0)), ["SO", "ST"]);
    // Exactly 28 km only touches SO's edge: no area in common.
    assert_eq!(codes(&within(bristol, 28_000.0)), ["ST"]);
    assert_eq!(codes(&within(bristol, 45_000.0)), ["SO", "ST", "SU"]);
    assert_eq!(codes(&within(bristol, 51_000.0)), ["SO", "SP", "ST", "SU"]);
    // No radius: the square the centre lies in.
    assert_eq!(codes(&within(bristol, 0.0)), ["ST"]);
}
