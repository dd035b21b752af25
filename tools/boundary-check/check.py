"""Checks area-shapes against an independent reader on real public boundary files: the
committed fixtures (crates/area-shapes/tests/fixtures, made by make_fixtures.py) and the
files whole as their packages ship them (sources.py).

For each file the crate's answer (`cargo run -p area-shapes --example squares`, the
worker's reader) is set beside the one worked out here with pyshp, pyproj and shapely:

- a file in longitude and latitude must have every position within ±180° and ±90° (up to
  1e-6°, floating-point noise), else the crate must name the first one out of range and
  its feature;
- a .prj other than WGS84 or the British National Grid must be refused, named as pyproj
  names it; a zip without its .shp, .dbf or .prj must name the part;
- otherwise the squares are those whose 100 km box shares area with a polygon (or length
  with a line, or holds a point) once clipped to 20° W to 15° E, 40° N to 70° N and
  projected to EPSG:27700 by pyproj; "partly outside" when anything lies beyond the
  squares. Each square's origin is worked out here from its letters.

Prints each file's result as the app words it in English (locales/en.json) and exits 1 on
any difference.

    python3 -m venv .venv && .venv/bin/pip install -r requirements.txt
    .venv/bin/python check.py
"""

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import shapefile
from pyproj import CRS, Transformer
from shapely.geometry import Point, box, shape
from shapely.ops import transform, unary_union

import sources

ROOT = sources.HERE.parents[1]
FIXTURES = ROOT / "crates/area-shapes/tests/fixtures"
# The spec's 55 squares, in its order.
SQUARES = (
    "HP HT HU HW HX HY HZ NA NB NC ND NF NG NH NJ NK NL NM NN NO NR NS NT NU NW NX NY NZ OV "
    "SD SE TA SH SJ SK TF TG SM SN SO SP TL TM SR SS ST SU TQ TR SV SW SX SY SZ TV"
).split()
NOISE = 1e-6
WINDOW = box(-20, 40, 15, 70)
TO_BNG = Transformer.from_crs("EPSG:4326", "EPSG:27700", always_xy=True)
WORDS = json.loads((ROOT / "locales/en.json").read_text())["shape"]


def origin(code):
    """A square's south-west corner in metres, from its two letters (A–Z without I)."""
    def index(letter):
        i = ord(letter) - ord("A")
        return i - 1 if i > 8 else i
    first, second = index(code[0]), index(code[1])
    # The first letter's 500 km squares from V (the far south-west), the second's 100 km.
    east = (first % 5) * 500 + (second % 5) * 100 - 1000
    north = (4 - first // 5) * 500 + (4 - second // 5) * 100 - 500
    return east * 1000, north * 1000


BOXES = {code: box(*origin(code), origin(code)[0] + 100_000, origin(code)[1] + 100_000)
         for code in SQUARES}
assert origin("SV") == (0, 0) and origin("TQ") == (500_000, 100_000) and origin("HP") == (400_000, 1_200_000)


class Refused(Exception):
    """What the crate must say instead of squares."""

    def __init__(self, error):
        super().__init__(error)
        self.error = error


def features_of(path):
    """The file's (name, geometry as GeoJSON) in order, and whether it is in longitude and
    latitude; or Refused."""
    if path.suffix == ".geojson":
        document = json.loads(path.read_bytes())
        features = [
            (next((v for k, v in (f.get("properties") or {}).items()
                   if k.lower() == "name" and isinstance(v, str)), None), f["geometry"])
            for f in document["features"]
        ]
        return features, True
    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if not n.endswith("/")]
        by_suffix = {Path(n).suffix.lower(): n for n in names}
        for part in [".shp", ".dbf", ".prj"]:
            if part not in by_suffix:
                raise Refused({"MissingPart": part})
        crs = CRS.from_wkt(z.read(by_suffix[".prj"]).decode())
        if crs.to_epsg() == 27700:
            lon_lat = False
        elif crs.is_geographic and crs.datum.name in ("WGS_1984", "World Geodetic System 1984"):
            lon_lat = True
        else:
            report_projected(z, by_suffix, crs)
            raise Refused({"UnknownProjection": crs.name})
        reader = shapefile.Reader(shp=io.BytesIO(z.read(by_suffix[".shp"])),
                                  dbf=io.BytesIO(z.read(by_suffix[".dbf"])))
        return [(None, s.__geo_interface__ if s.shapeType else None) for s in reader.shapes()], lon_lat


def report_projected(z, by_suffix, crs):
    """Prints where pyproj puts a file in a projection the crate refuses."""
    reader = shapefile.Reader(shp=io.BytesIO(z.read(by_suffix[".shp"])),
                              dbf=io.BytesIO(z.read(by_suffix[".dbf"])))
    to_bng = Transformer.from_crs(crs, "EPSG:27700", always_xy=True)
    geometry = unary_union([transform(to_bng.transform, shape(s.__geo_interface__))
                            for s in reader.shapes()])
    touched = [c for c in SQUARES if geometry.intersects(BOXES[c])]
    x, y = geometry.centroid.x, geometry.centroid.y
    print(f"  pyproj: {crs.name} puts it at easting {x / 1000:,.0f} km, northing "
          f"{y / 1000:,.0f} km, touching {touched or 'none'} of the squares")


def expected(path):
    """The answer worked out here: {"squares": [...], "outside": bool} or {"error": ...}."""
    try:
        features, lon_lat = features_of(path)
    except Refused as refused:
        return {"error": refused.error}
    geometries = []
    clipped_away = False
    for number, (name, geometry) in enumerate(features, 1):
        if geometry is None:
            continue
        if lon_lat:
            for x, y in positions(geometry["coordinates"]):
                if not (abs(x) <= 180 + NOISE and abs(y) <= 90 + NOISE):
                    return {"error": {"OutOfRange": {"feature": number, "name": name,
                                                     "longitude": fmt(x), "latitude": fmt(y)}}}
        g = shape(geometry)
        if lon_lat:
            inside = g.intersection(WINDOW)
            clipped_away |= not g.difference(WINDOW).is_empty
            g = transform(TO_BNG.transform, inside)
        geometries.append(g)
    whole = unary_union(geometries)
    squares = [c for c in SQUARES if meets(whole, BOXES[c])]
    rest = whole.difference(unary_union(list(BOXES.values())))
    outside = clipped_away or measure(rest) > 0
    if not squares:
        return {"error": "OutsideGreatBritain"}
    return {"squares": squares, "outside": outside}


def positions(coordinates):
    if isinstance(coordinates[0], (int, float)):
        yield coordinates[0], coordinates[1]
    else:
        for c in coordinates:
            yield from positions(c)


def fmt(value):
    """A number as Rust's Display writes an f64: no trailing ".0"."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def measure(geometry):
    """Area, else length, else whether there are points: more than a square metre's
    floating-point sliver."""
    if geometry.is_empty:
        return 0
    if geometry.area > 1:
        return geometry.area
    if geometry.area == 0 and geometry.length > 0:
        return geometry.length
    return 1 if geometry.geom_type in ("Point", "MultiPoint") else 0


def meets(geometry, square):
    return measure(geometry.intersection(square)) > 0


def crate(paths):
    """The crate's answers, by path."""
    run = subprocess.run(
        ["cargo", "run", "-q", "-p", "area-shapes", "--example", "squares", "--", *map(str, paths)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    return {Path(a.pop("file")).resolve(): a for a in answers}


def message(name, answer):
    """What the app tells a person, in English."""
    w = WORDS
    if "squares" in answer:
        squares = answer["squares"]
        form = "one" if len(squares) == 1 else "other"
        text = w["file_touches"][form].format(name=name, count=len(squares), codes=", ".join(squares))
        return text + (" " + w["partly_outside"] if answer["outside"] else "")
    error = answer["error"]
    if error == "OutsideGreatBritain":
        return w["error_outside"].format(name=name)
    (kind, value), = error.items()
    if kind == "OutOfRange":
        feature = (w["feature_named"].format(number=value["feature"], feature_name=value["name"])
                   if value["name"] else w["feature_numbered"].format(number=value["feature"]))
        return w["error_out_of_range"].format(name=name, feature=feature,
                                              longitude=value["longitude"], latitude=value["latitude"])
    if kind == "UnknownProjection":
        return w["error_projection"].format(name=name, projection=value)
    if kind == "MissingPart":
        return w["error_missing_part"].format(name=name, part=value)
    if kind == "Unreadable":
        key = {"GeoJson": "error_not_geojson", "Kml": "error_not_kml", "Gpx": "error_not_gpx",
               "ZippedShapefile": "error_not_shapefile"}[value]
        return w[key].format(name=name)
    return json.dumps(error)


def same(got, want):
    """Whether the crate's answer is the one worked out here. A projection is named as its
    .prj writes it (`MGI_Austria_Lambert`), pyproj as EPSG does (`MGI / Austria Lambert`)."""
    got = {k: v for k, v in got.items() if k != "message"}
    projection = lambda answer: isinstance(answer.get("error"), dict) and answer["error"].get("UnknownProjection")
    if projection(got) and projection(want):
        letters = lambda name: "".join(c for c in name.lower() if c.isalnum())
        return letters(projection(got)) == letters(projection(want))
    return got == want


def main():
    paths = sorted(p for p in FIXTURES.iterdir() if p.name.startswith(("natural-earth", "mgi")))
    paths += sources.originals()
    answers = crate(paths)
    differences = 0
    for path in paths:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name)
        want = expected(path)
        got = answers[path.resolve()]
        print("  " + message(path.name, got))
        if not same(got, want):
            differences += 1
            print(f"  DIFFERS: pyproj and shapely say {json.dumps(want)}")
    print(f"{len(paths) - differences} passed, {differences} failed")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
