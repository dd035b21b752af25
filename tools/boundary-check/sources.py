"""The real public boundary files the checks use, from the packages that ship them.

- Natural Earth's 1:110m countries ("naturalearth_lowres", public domain), as the test data
  of the PyPI package pyogrio (MIT) ships it: a shapefile with a .cpg (ISO-8859-1) and a
  WGS84 .prj, whose Russia reaches a longitude of 180.00000000000006.
- `REL.zip` from the test data of the PyPI package pyshp (MIT): an avalanche release area
  in Austria from the AvaFrame project (CC BY 4.0), a shapefile inside a folder in the zip,
  with a .cpg (UTF-8) and a .prj in MGI / Austria Lambert.
- `blockgroups.zip` from the same test data: US census block groups (US Census Bureau,
  public domain), a zipped shapefile without its .prj.

Downloaded with pip (no dependencies) into .cache/ beside this file, once.
"""

import io
import json
import subprocess
import sys
import tarfile
import warnings
import zipfile
from pathlib import Path

import shapefile

# pyshp notes that "latin1" is what the .cpg calls ISO-8859-1: the same encoding.
warnings.filterwarnings("ignore", message="Specified encoding")

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
PYOGRIO = "pyogrio==0.13.0"
PYSHP = "pyshp==3.1.6"
NATURAL_EARTH = "pyogrio/tests/fixtures/naturalearth_lowres/"


def download(requirement, *options):
    """The file pip downloads for `requirement`, into the cache."""
    name, version = requirement.split("==")
    found = [p for p in CACHE.glob(f"{name}-{version}*") if p.is_file()]
    if not found:
        CACHE.mkdir(exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(CACHE),
             *options, requirement],
            check=True,
        )
        found = [p for p in CACHE.glob(f"{name}-{version}*") if p.is_file()]
    return found[0]


def natural_earth_files():
    """The Natural Earth shapefile's parts as pyogrio ships them: {".shp": bytes, …}."""
    with zipfile.ZipFile(download(PYOGRIO, "--only-binary", ":all:")) as wheel:
        return {
            Path(name).suffix: wheel.read(name)
            for name in wheel.namelist()
            if name.startswith(NATURAL_EARTH) and not name.endswith("/")
        }


def pyshp_test_file(name):
    """A file of pyshp's test data, from its source distribution."""
    with tarfile.open(download(PYSHP, "--no-binary", ":all:")) as sdist:
        member = next(m for m in sdist.getmembers() if m.name.endswith(f"tests/shapefiles/{name}"))
        return sdist.extractfile(member).read()


def natural_earth_reader(parts):
    return shapefile.Reader(
        shp=io.BytesIO(parts[".shp"]), shx=io.BytesIO(parts[".shx"]),
        dbf=io.BytesIO(parts[".dbf"]), encoding="latin1",
    )


def geojson(features):
    """A FeatureCollection as Python writes it (json.dumps keeps every digit, as geopandas'
    to_json does): GDAL's writer would round 180.00000000000006 to 180.0."""
    return json.dumps({"type": "FeatureCollection", "features": features}).encode()


def feature(shape_record):
    return {
        "type": "Feature",
        "properties": shape_record.record.as_dict(),
        "geometry": shape_record.shape.__geo_interface__,
    }


def originals():
    """The files as their packages ship them, written into .cache/originals/: their paths."""
    out = CACHE / "originals"
    out.mkdir(parents=True, exist_ok=True)
    parts = natural_earth_files()
    # Zipped as a person zips the folder the shapefile came in.
    with zipfile.ZipFile(out / "naturalearth_lowres.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for suffix, data in sorted(parts.items()):
            z.writestr(f"naturalearth_lowres/naturalearth_lowres{suffix}", data)
    with natural_earth_reader(parts) as reader:
        countries = [feature(sr) for sr in reader.iterShapeRecords()]
    (out / "naturalearth_lowres.geojson").write_bytes(geojson(countries))
    for name in ["REL.zip", "blockgroups.zip"]:
        (out / name).write_bytes(pyshp_test_file(name))
    return sorted(out.iterdir())
