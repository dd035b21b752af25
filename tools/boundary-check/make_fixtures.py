"""Makes area-shapes' fixtures from real public files (see sources.py), small enough to
commit and keeping what makes them hard:

- natural-earth-countries.geojson and .zip: six of Natural Earth's countries, in the
  file's order: Fiji (across the antimeridian, at 180 and -180, southern hemisphere),
  Russia (only the parts at the antimeridian, one of them at 180.00000000000006, and
  Kaliningrad), Antarctica (the part round the South Pole, at -90 and across the
  antimeridian, every tenth vertex but those on ±180 and -90), France (with French
  Guiana), Ireland and the United Kingdom whole. The GeoJSON as Python writes it; the zip
  a folder holding the shapefile written by pyshp, with the original .prj and .cpg.
- mgi-austria-lambert.zip: pyshp's REL.zip as it is (CC BY 4.0, AvaFrame).

    python3 -m venv .venv && .venv/bin/pip install -r requirements.txt
    .venv/bin/python make_fixtures.py
"""

import io
import zipfile

import shapefile

import sources

FIXTURES = sources.HERE.parents[1] / "crates/area-shapes/tests/fixtures"
NAME = "natural-earth-countries"
WHOLE = {"Fiji", "France", "Ireland", "United Kingdom"}
# Russia's polygons (in the file's order) at the antimeridian, and Kaliningrad.
RUSSIA = {0, 8, 11, 12}
ANTARCTICA_POLE = 7


def thinned(ring):
    """Every tenth vertex, and every one on the antimeridian or at the pole."""
    return [
        (x, y) for i, (x, y) in enumerate(ring)
        if i % 10 == 0 or i == len(ring) - 1 or abs(x) == 180 or y == -90
    ]


def subset(shape_record):
    """The feature's polygons kept for the fixture (lists of rings), or None."""
    name = shape_record.record["name"]
    geometry = shape_record.shape.__geo_interface__
    polygons = (
        geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
    )
    polygons = [[list(ring) for ring in polygon] for polygon in polygons]
    if name in WHOLE:
        return polygons
    if name == "Russia":
        return [p for i, p in enumerate(polygons) if i in RUSSIA]
    if name == "Antarctica":
        return [[thinned(ring) for ring in polygons[ANTARCTICA_POLE]]]
    return None


def main():
    parts = sources.natural_earth_files()
    kept = []
    with sources.natural_earth_reader(parts) as reader:
        fields = reader.fields[1:]
        for shape_record in reader.iterShapeRecords():
            polygons = subset(shape_record)
            if polygons is not None:
                kept.append((shape_record.record, polygons))
    features = [
        {
            "type": "Feature",
            "properties": record.as_dict(),
            "geometry": {"type": "MultiPolygon", "coordinates": polygons},
        }
        for record, polygons in kept
    ]
    (FIXTURES / f"{NAME}.geojson").write_bytes(sources.geojson(features))

    shp, shx, dbf = io.BytesIO(), io.BytesIO(), io.BytesIO()
    with shapefile.Writer(shp=shp, shx=shx, dbf=dbf, shapeType=shapefile.POLYGON,
                          encoding="latin1") as writer:
        for field in fields:
            writer.field(*field)
        for record, polygons in kept:
            writer.poly([ring for polygon in polygons for ring in polygon])
            writer.record(*record)
    files = [(".shp", shp.getvalue()), (".shx", shx.getvalue()), (".dbf", dbf.getvalue())]
    files += [(suffix, parts[suffix]) for suffix in [".prj", ".cpg"]]
    with zipfile.ZipFile(FIXTURES / f"{NAME}.zip", "w") as z:
        for suffix, data in files:
            # A fixed date, so that the zip is the same bytes every time it is made.
            entry = zipfile.ZipInfo(f"{NAME}/{NAME}{suffix}", date_time=(2026, 11, 27, 0, 0, 0))
            z.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED)

    (FIXTURES / "mgi-austria-lambert.zip").write_bytes(sources.pyshp_test_file("REL.zip"))
    for name in [f"{NAME}.geojson", f"{NAME}.zip", "mgi-austria-lambert.zip"]:
        print(name, (FIXTURES / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
