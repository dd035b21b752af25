//! GeoJSON (RFC 7946), with the 2008 format's `crs` member for British National Grid files.

use geo::Coord;
use geojson::{Feature, GeoJson, Geometry, GeometryValue, JsonObject, JsonValue, Position};

use super::{Crs, check_lon_lat, short_name};
use crate::shapes::{PartKind, Shapes};
use crate::{FileKind, ShapeError};

pub(super) fn read(bytes: &[u8]) -> Result<(Shapes, Crs), ShapeError> {
    let unreadable = |_| ShapeError::Unreadable(FileKind::GeoJson);
    let document: GeoJson = serde_json::from_slice(bytes).map_err(unreadable)?;
    let members = match &document {
        GeoJson::FeatureCollection(collection) => &collection.foreign_members,
        GeoJson::Feature(feature) => &feature.foreign_members,
        GeoJson::Geometry(geometry) => &geometry.foreign_members,
    };
    let crs = crs(members.as_ref())?;
    let mut shapes = Shapes::default();
    // Each feature is checked as it is added, to name the one a bad position is in.
    let mut add_feature = |number: usize, geometry: &Geometry, name: Option<&str>| {
        let start = shapes.coords.len();
        add(&mut shapes, geometry)?;
        match crs {
            Crs::LonLat => check_lon_lat(&shapes, start, number, name),
            Crs::Bng => Ok(()),
        }
    };
    match &document {
        GeoJson::FeatureCollection(collection) => {
            for (index, feature) in collection.features.iter().enumerate() {
                if let Some(geometry) = &feature.geometry {
                    add_feature(index + 1, geometry, name(feature))?;
                }
            }
        }
        GeoJson::Feature(feature) => {
            if let Some(geometry) = &feature.geometry {
                add_feature(1, geometry, name(feature))?;
            }
        }
        GeoJson::Geometry(geometry) => add_feature(1, geometry, None)?,
    }
    Ok((shapes, crs))
}

/// A feature's `name` property (in any case: `NAME` in Natural Earth's files), if a string.
fn name(feature: &Feature) -> Option<&str> {
    let properties = feature.properties.as_ref()?;
    let (_, name) = properties
        .iter()
        .find(|(key, value)| key.eq_ignore_ascii_case("name") && value.is_string())?;
    name.as_str()
}

/// The coordinates by the legacy `crs` member: none (RFC 7946), CRS84 or EPSG:4326 are
/// longitude and latitude, EPSG:27700 the British National Grid.
fn crs(members: Option<&JsonObject>) -> Result<Crs, ShapeError> {
    let Some(crs) = members.and_then(|members| members.get("crs")) else {
        return Ok(Crs::LonLat);
    };
    let properties = crs.get("properties");
    // `{"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::27700"}}`, or the
    // older `{"type": "EPSG", "properties": {"code": 27700}}`.
    let name = match (
        properties.and_then(|p| p.get("name")),
        properties.and_then(|p| p.get("code")),
    ) {
        (Some(JsonValue::String(name)), _) => name.clone(),
        (_, Some(code @ JsonValue::Number(_))) => format!("EPSG:{code}"),
        _ if crs.is_null() => return Ok(Crs::LonLat),
        _ => {
            return Err(ShapeError::UnknownProjection(short_name(&crs.to_string())));
        }
    };
    let upper = name.trim().to_ascii_uppercase();
    // The code is last: `EPSG:27700`, `urn:ogc:def:crs:EPSG::27700`, `…/EPSG/0/27700`.
    let code = upper.rsplit([':', '/']).next().unwrap_or_default();
    match (upper.contains("EPSG"), code) {
        (true, "27700") => Ok(Crs::Bng),
        (true, "4326") | (_, "CRS84") => Ok(Crs::LonLat),
        _ => Err(ShapeError::UnknownProjection(short_name(&name))),
    }
}

fn add(shapes: &mut Shapes, geometry: &Geometry) -> Result<(), ShapeError> {
    let coords =
        |positions: &[Position]| positions.iter().map(coord).collect::<Result<Vec<_>, _>>();
    let polygon = |shapes: &mut Shapes, rings: &[Vec<Position>]| {
        for (index, ring) in rings.iter().enumerate() {
            shapes.add(PartKind::Ring { first: index == 0 }, coords(ring)?);
        }
        Ok(())
    };
    match &geometry.value {
        GeometryValue::Point { coordinates } => {
            shapes.add(PartKind::Points, [coord(coordinates)?]);
        }
        GeometryValue::MultiPoint { coordinates } => {
            shapes.add(PartKind::Points, coords(coordinates)?);
        }
        GeometryValue::LineString { coordinates } => {
            shapes.add(PartKind::Line, coords(coordinates)?);
        }
        GeometryValue::MultiLineString { coordinates } => {
            for line in coordinates {
                shapes.add(PartKind::Line, coords(line)?);
            }
        }
        GeometryValue::Polygon { coordinates } => polygon(shapes, coordinates)?,
        GeometryValue::MultiPolygon { coordinates } => {
            for rings in coordinates {
                polygon(shapes, rings)?;
            }
        }
        GeometryValue::GeometryCollection { geometries } => {
            for geometry in geometries {
                add(shapes, geometry)?;
            }
        }
    }
    Ok(())
}

/// A position's first two numbers; one with fewer is not GeoJSON.
fn coord(position: &Position) -> Result<Coord, ShapeError> {
    match position.as_slice() {
        [x, y, ..] => Ok(Coord { x: *x, y: *y }),
        _ => Err(ShapeError::Unreadable(FileKind::GeoJson)),
    }
}
