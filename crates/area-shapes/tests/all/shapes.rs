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
        codes(&rectangle(at(450_000.0, 150_000.0), at(550_000.0, 120_000.0)).squares),
        ["SU", "TQ"]
    );
    // Corners in ST and TQ: SU lies between.
    let across = rectangle(at(350_000.0, 190_000.0), at(550_000.0, 120_000.0));
    assert_eq!(codes(&across.squares), ["ST", "SU", "TQ"]);
    assert!(!across.outside);
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
        codes(&rectangle(at(250_000.0, 150_000.0), at(550_000.0, 250_000.0)).squares),
        ["SN", "SO", "SP", "TL", "SS", "ST", "SU", "TQ"]
    );
}

#[test]
fn a_rectangle_on_the_grid_lines_picks_only_what_it_covers() {
    assert_eq!(
        codes(&rectangle(at(400_000.0, 100_000.0), at(500_000.0, 200_000.0)).squares),
        ["SU"]
    );
    // No height: the line between the corners.
    assert_eq!(
        codes(&rectangle(at(350_000.0, 150_000.0), at(450_000.0, 150_000.0)).squares),
        ["ST", "SU"]
    );
    // A click: the square under it.
    assert_eq!(
        codes(&rectangle(at(450_000.0, 150_000.0), at(450_000.0, 150_000.0)).squares),
        ["SU"]
    );
}

#[test]
fn a_rectangle_off_the_grid_picks_nothing() {
    let off = rectangle(at(800_000.0, 100_000.0), at(900_000.0, 200_000.0));
    assert!(off.squares.is_empty());
    assert!(off.outside);
}

#[test]
fn a_rectangle_or_circle_reaching_past_the_squares_says_part_lies_outside() {
    // From SZ out over the Channel, south of the grid.
    let channel = rectangle(at(450_000.0, 50_000.0), at(480_000.0, -20_000.0));
    assert_eq!(codes(&channel.squares), ["SZ"]);
    assert!(channel.outside);
    // Inside SU alone: all of it in a square.
    assert!(!rectangle(at(410_000.0, 110_000.0), at(490_000.0, 190_000.0)).outside);
    // 150 km round Land's End reaches west of the grid's false origin.
    let lands_end = at(134_000.0, 25_000.0);
    assert!(within(lands_end, 150_000.0).outside);
    // Bristol with 20 km round it lies within ST.
    assert!(!within(at(358_000.0, 172_000.0), 20_000.0).outside);
    // A circle 30 km round a point in TV reaches south of the grid.
    let south = within(at(550_000.0, 20_000.0), 30_000.0);
    assert_eq!(codes(&south.squares), ["TV"]);
    assert!(south.outside);
}

#[test]
fn a_circle_picks_the_squares_closer_than_its_radius() {
    // Bristol, ST 58 72: 58 km from ST's west edge, 28 km from SO's southern edge (the
    // 200 km northing), 42 km from SU's western edge and 50.5 km from SP's corner.
    let bristol = at(358_000.0, 172_000.0);
    assert_eq!(codes(&within(bristol, 20_000.0).squares), ["ST"]);
    assert_eq!(codes(&within(bristol, 30_000.0).squares), ["SO", "ST"]);
    // Exactly 28 km only touches SO's edge: no area in common.
    assert_eq!(codes(&within(bristol, 28_000.0).squares), ["ST"]);
    assert_eq!(
        codes(&within(bristol, 45_000.0).squares),
        ["SO", "ST", "SU"]
    );
    assert_eq!(
        codes(&within(bristol, 51_000.0).squares),
        ["SO", "SP", "ST", "SU"]
    );
    // No radius: the square the centre lies in.
    assert_eq!(codes(&within(bristol, 0.0).squares), ["ST"]);
}
