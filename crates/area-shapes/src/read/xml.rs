//! KML and GPX: always WGS84 longitude and latitude.

use geo::Coord;
use quick_xml::Reader;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};

use super::{check_lon_lat, number};
use crate::shapes::{PartKind, Shapes};
use crate::{FileKind, ShapeError};

/// KML's points, lines and polygons (outer and inner rings), wherever they are (Document,
/// Folder, Placemark, MultiGeometry), and Google Earth's tracks (`gx:Track`) as lines.
pub(super) fn read_kml(bytes: &[u8]) -> Result<Shapes, ShapeError> {
    let unreadable = || ShapeError::Unreadable(FileKind::Kml);
    let mut reader = Reader::from_reader(bytes);
    let mut root = Root::new(b"kml");
    let mut shapes = Shapes::default();
    // The geometry whose coordinates come next, whether in a polygon's inner boundary, the
    // text of the `coordinates` (or a track's `coord`) being read, and a track's points.
    let mut geometry = None;
    let mut inner = false;
    let mut text: Option<String> = None;
    let mut track: Option<Vec<Coord>> = None;
    // The placemarks so far, and the current one's name: its `name` comes before its
    // geometry (KML's schema orders them so), so a bad position can be named.
    let mut placemarks = 0;
    let mut name: Option<String> = None;
    let mut name_text: Option<String> = None;
    loop {
        let event = reader.read_event().map_err(|_| unreadable())?;
        match &event {
            Event::Start(element) | Event::Empty(element) => {
                root.check(element).ok_or_else(unreadable)?;
                if element.local_name().as_ref() == b"Placemark" {
                    placemarks += 1;
                    name = None;
                }
                if matches!(event, Event::Empty(_)) {
                    continue;
                }
                match element.local_name().as_ref() {
                    b"name" if placemarks > 0 && name.is_none() => name_text = Some(String::new()),
                    b"Point" => geometry = Some(PartKind::Points),
                    b"LineString" => geometry = Some(PartKind::Line),
                    b"LinearRing" => geometry = Some(PartKind::Ring { first: !inner }),
                    b"innerBoundaryIs" => inner = true,
                    b"coordinates" | b"coord" => text = Some(String::new()),
                    b"Track" => track = Some(Vec::new()),
                    _ => {}
                }
            }
            Event::Text(part) => {
                if let Some(text) = text.as_mut().or(name_text.as_mut()) {
                    text.push_str(&part.decode().map_err(|_| unreadable())?);
                }
            }
            Event::CData(part) => {
                if let Some(text) = text.as_mut().or(name_text.as_mut()) {
                    text.push_str(&part.decode().map_err(|_| unreadable())?);
                }
            }
            // `&amp;` and the like, in a placemark's name.
            Event::GeneralRef(reference) => {
                if let Some(name) = &mut name_text {
                    let entity = reference.decode().map_err(|_| unreadable())?;
                    match reference.resolve_char_ref() {
                        Ok(Some(character)) => name.push(character),
                        _ => name.push_str(resolve_predefined_entity(&entity).unwrap_or_default()),
                    }
                }
            }
            Event::End(element) => match element.local_name().as_ref() {
                b"name" => name = name_text.take().or(name.take()),
                b"coordinates" => {
                    let text = text.take().unwrap_or_default();
                    if let Some(kind) = geometry {
                        let start = shapes.coords.len();
                        shapes.add(kind, tuples(&text).ok_or_else(unreadable)?);
                        check_lon_lat(&shapes, start, placemarks.max(1), name.as_deref())?;
                    }
                }
                b"coord" => {
                    let text = text.take().unwrap_or_default();
                    if let Some(track) = &mut track {
                        track.push(lon_lat(text.split_ascii_whitespace()).ok_or_else(unreadable)?);
                    }
                }
                b"Track" => {
                    let start = shapes.coords.len();
                    shapes.add(PartKind::Line, track.take().unwrap_or_default());
                    check_lon_lat(&shapes, start, placemarks.max(1), name.as_deref())?;
                }
                b"innerBoundaryIs" => inner = false,
                b"Point" | b"LineString" | b"LinearRing" => geometry = None,
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    root.found().ok_or_else(unreadable)?;
    Ok(shapes)
}

/// `lon,lat[,alt]` tuples separated by white space.
fn tuples(text: &str) -> Option<Vec<Coord>> {
    text.split_ascii_whitespace()
        .map(|tuple| lon_lat(tuple.split(',')))
        .collect()
}

/// A longitude and a latitude, the first two of `numbers` (an altitude may follow).
fn lon_lat<'a>(mut numbers: impl Iterator<Item = &'a str>) -> Option<Coord> {
    Some(Coord {
        x: number(numbers.next()?)?,
        y: number(numbers.next()?)?,
    })
}

/// GPX's waypoints as points, and its routes and track segments as lines.
pub(super) fn read_gpx(bytes: &[u8]) -> Result<Shapes, ShapeError> {
    let unreadable = || ShapeError::Unreadable(FileKind::Gpx);
    let mut reader = Reader::from_reader(bytes);
    let mut root = Root::new(b"gpx");
    let mut shapes = Shapes::default();
    let mut line: Option<Vec<Coord>> = None;
    // Waypoints, routes and tracks so far: the features a bad position is said to be in.
    let mut features = 0;
    loop {
        let event = reader.read_event().map_err(|_| unreadable())?;
        match &event {
            Event::Start(element) | Event::Empty(element) => {
                root.check(element).ok_or_else(unreadable)?;
                match element.local_name().as_ref() {
                    b"wpt" => {
                        features += 1;
                        let start = shapes.coords.len();
                        shapes.add(PartKind::Points, [lat_lon(element).ok_or_else(unreadable)?]);
                        check_lon_lat(&shapes, start, features, None)?;
                    }
                    b"rtept" | b"trkpt" => {
                        if let Some(line) = &mut line {
                            line.push(lat_lon(element).ok_or_else(unreadable)?);
                        }
                    }
                    // A route is a line; a track's lines are its segments.
                    b"rte" if matches!(event, Event::Start(_)) => {
                        features += 1;
                        line = Some(Vec::new());
                    }
                    b"rte" | b"trk" => features += 1,
                    b"trkseg" if matches!(event, Event::Start(_)) => line = Some(Vec::new()),
                    _ => {}
                }
            }
            Event::End(element) => {
                if let b"rte" | b"trkseg" = element.local_name().as_ref() {
                    let start = shapes.coords.len();
                    shapes.add(PartKind::Line, line.take().unwrap_or_default());
                    check_lon_lat(&shapes, start, features.max(1), None)?;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    root.found().ok_or_else(unreadable)?;
    Ok(shapes)
}

/// A GPX point's `lon` and `lat` attributes.
fn lat_lon(element: &BytesStart) -> Option<Coord> {
    let value = |name: &str| {
        let attribute = element.try_get_attribute(name).ok()??;
        number(std::str::from_utf8(&attribute.value).ok()?)
    };
    Some(Coord {
        x: value("lon")?,
        y: value("lat")?,
    })
}

/// The document's root element, which must be the one expected.
struct Root {
    expected: &'static [u8],
    seen: bool,
}

impl Root {
    fn new(expected: &'static [u8]) -> Self {
        Root {
            expected,
            seen: false,
        }
    }

    /// `None` when the first element is not the expected root.
    fn check(&mut self, element: &BytesStart) -> Option<()> {
        if !self.seen {
            self.seen = true;
            return (element.local_name().as_ref() == self.expected).then_some(());
        }
        Some(())
    }

    /// `None` when there was no element at all.
    fn found(&self) -> Option<()> {
        self.seen.then_some(())
    }
}
