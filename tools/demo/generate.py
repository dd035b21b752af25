#!/usr/bin/env python3
"""Generate the embedded demo catalogue of the Download Service.

Writes `catalogue.json`, `files/`, `packages/` and `images/` into
`crates/download-server/demo/`, in the catalogue format that `docs/catalogue.md`
describes. Everything is derived from fixed seeds and fixed zip timestamps, so running
it again on the same toolchain (Python 3.11, Pillow, zlib, SQLite) gives byte-identical
output.

    python3 -m pip install Pillow
    python3 tools/demo/generate.py
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import random
import shutil
import sqlite3
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageOps, TiffImagePlugin

#: The demo catalogue's directory in the server crate, which embeds it.
OUT = Path(__file__).resolve().parents[2] / "crates" / "download-server" / "demo"

# --------------------------------------------------------------------------------------
# The National Grid
# --------------------------------------------------------------------------------------

#: The spec's 55 grid squares, in the spec's order.
SQUARES = (
    "HP HT HU HW HX HY HZ NA NB NC ND NF NG NH NJ NK NL NM NN NO NR NS NT NU NW NX NY NZ OV "
    "SD SE TA SH SJ SK TF TG SM SN SO SP TL TM SR SS ST SU TQ TR SV SW SX SY SZ TV"
).split()

#: Full extent of the grid (the GB area), in metres.
GB_BOX = (0, 0, 700_000, 1_300_000)

#: Rough share of each square that is land: sea squares get small files.
LAND_SHARE = {
    "HP": 0.15, "HT": 0.03, "HU": 0.35, "HW": 0.01, "HX": 0.01, "HY": 0.4, "HZ": 0.02,
    "NA": 0.02, "NB": 0.4, "NC": 0.6, "ND": 0.35, "NF": 0.3, "NG": 0.5, "NH": 0.9,
    "NJ": 0.9, "NK": 0.15, "NL": 0.05, "NM": 0.5, "NN": 0.95, "NO": 0.8, "NR": 0.45,
    "NS": 0.85, "NT": 0.9, "NU": 0.25, "NW": 0.15, "NX": 0.6, "NY": 0.95, "NZ": 0.6,
    "OV": 0.005, "SD": 0.75, "SE": 0.98, "TA": 0.35, "SH": 0.55, "SJ": 0.98, "SK": 1.0,
    "TF": 0.85, "TG": 0.4, "SM": 0.3, "SN": 0.8, "SO": 1.0, "SP": 1.0, "TL": 1.0,
    "TM": 0.55, "SR": 0.08, "SS": 0.6, "ST": 0.9, "SU": 0.95, "TQ": 0.95, "TR": 0.35,
    "SV": 0.02, "SW": 0.45, "SX": 0.7, "SY": 0.45, "SZ": 0.3, "TV": 0.1,
}

#: A few real places in each square, named in the READMEs.
PLACES = {
    "HP": "Unst, Baltasound", "HT": "Foula", "HU": "Lerwick, Mainland Shetland",
    "HW": "North Rona", "HX": "Sule Skerry", "HY": "Kirkwall, Stromness", "HZ": "Fair Isle",
    "NA": "St Kilda, the Flannan Isles", "NB": "Stornoway, Lewis",
    "NC": "Durness, Lochinver", "ND": "Thurso, Wick", "NF": "Benbecula, South Uist",
    "NG": "Portree, Kyle of Lochalsh", "NH": "Inverness, Dingwall", "NJ": "Elgin, Aberdeen",
    "NK": "Peterhead", "NL": "Tiree, Castlebay", "NM": "Oban, Tobermory",
    "NN": "Fort William, Pitlochry", "NO": "Dundee, Perth, St Andrews",
    "NR": "Campbeltown, Bowmore", "NS": "Glasgow, Ayr, Stirling", "NT": "Edinburgh, Galashiels",
    "NU": "Alnwick, Holy Island", "NW": "Portpatrick", "NX": "Dumfries, Stranraer",
    "NY": "Carlisle, Penrith, Keswick", "NZ": "Newcastle upon Tyne, Durham, Middlesbrough",
    "OV": "open North Sea", "SD": "Lancaster, Preston, Blackpool", "SE": "Leeds, York, Bradford",
    "TA": "Hull, Scarborough", "SH": "Bangor, Caernarfon, Anglesey",
    "SJ": "Chester, Stoke-on-Trent, Manchester", "SK": "Sheffield, Nottingham, Derby",
    "TF": "Boston, King's Lynn, Peterborough", "TG": "Norwich, Cromer",
    "SM": "St Davids, Haverfordwest", "SN": "Aberystwyth, Carmarthen",
    "SO": "Hereford, Worcester, Gloucester", "SP": "Birmingham, Oxford, Coventry",
    "TL": "Cambridge, Bedford", "TM": "Ipswich, Lowestoft", "SR": "Castlemartin",
    "SS": "Swansea, Barnstaple", "ST": "Bristol, Cardiff, Taunton",
    "SU": "Southampton, Winchester, Reading", "TQ": "London, Brighton",
    "TR": "Canterbury, Dover", "SV": "the Isles of Scilly", "SW": "Penzance, Truro",
    "SX": "Plymouth, Exeter", "SY": "Weymouth, Lyme Regis",
    "SZ": "Bournemouth, the Isle of Wight", "TV": "Eastbourne, Beachy Head",
}


def square_origin(code: str) -> tuple[int, int]:
    """South-west corner of a 100 km square in metres (same rule as download-api's area.rs)."""

    def index(letter: str) -> int:
        i = ord(letter) - ord("A")
        return i - 1 if letter > "I" else i

    major, minor = index(code[0]), index(code[1])
    east = ((major % 5) + 3) % 5 * 5 + minor % 5
    north = (3 - major // 5) * 5 + (4 - minor // 5)
    return east * 100_000, north * 100_000


def area_box(area: str) -> tuple[int, int, int, int]:
    """Bounding box (min E, min N, max E, max N) of an area code, in metres."""
    if area in SQUARES:
        e, n = square_origin(area)
        return (e, n, e + 100_000, n + 100_000)
    if area == "NI":
        # Northern Ireland lies outside the British grid: use the Irish Grid's extent.
        return (180_000, 300_000, 370_000, 460_000)
    return GB_BOX


def area_label(area: str) -> str:
    if area == "GB":
        return "Great Britain"
    if area == "UK":
        return "the United Kingdom"
    if area == "NI":
        return "Northern Ireland"
    return f"grid square {area} ({PLACES[area]})"


def seeded(*parts: object) -> random.Random:
    """A random generator whose sequence depends only on `parts`."""
    return random.Random("/".join(str(p) for p in parts))


# --------------------------------------------------------------------------------------
# Thumbnail pictures
# --------------------------------------------------------------------------------------

FONT_DIRS = [
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
]


def font(size: int, bold: bool = False) -> ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)


# Colours close to the printed style of national mapping.
SEA = (166, 207, 233)
SEA_DEEP = (128, 178, 218)
LAND = (247, 244, 234)
WOOD = (205, 227, 186)
WATER = (76, 146, 212)
BUILDING = (229, 196, 166)
BUILDING_EDGE = (176, 138, 108)
URBAN = (238, 229, 216)
CASING = (150, 145, 138)
ROAD_COLOURS = {
    "motorway": (64, 128, 206),
    "a": (226, 86, 76),
    "b": (244, 166, 72),
    "minor": (255, 252, 240),
}

W, H = 1600, 1200  # drawing size; pictures are scaled down from it for smooth edges


class Scene:
    """A made-up landscape: a height field, its sea level, and towns on the land."""

    def __init__(self, key: str, sea: float, detail: float = 1.0, island: bool = True):
        self.rng = seeded("scene", key)
        rng = self.rng
        layers = []
        for cells, weight in ((3, 0.42), (6, 0.28), (12, 0.17), (24, 0.09), (48, 0.04)):
            cw = max(2, round(cells * detail * 4 / 3))
            ch = max(2, round(cells * detail))
            small = Image.frombytes("L", (cw, ch), bytes(rng.randrange(256) for _ in range(cw * ch)))
            layers.append((small.resize((W, H), Image.Resampling.BICUBIC), weight))
        acc, total = layers[0][0], layers[0][1]
        for layer, weight in layers[1:]:
            total += weight
            acc = Image.blend(acc, layer, weight / total)
        if island:
            # Lift the middle and sink the edges so the land sits inside the frame.
            dome = ImageOps.invert(Image.radial_gradient("L")).resize((W, H), Image.Resampling.BICUBIC)
            acc = Image.blend(acc, dome, 0.45)
        else:
            # Tilt the land towards one corner, so a coast shows along one side.
            ramp = Image.linear_gradient("L").rotate(rng.choice((0, 90, 180, 270)))
            acc = Image.blend(acc, ramp.resize((W, H), Image.Resampling.BICUBIC), 0.35)
        self.height = ImageOps.autocontrast(acc, cutoff=0.5)
        histogram = self.height.histogram()
        target, seen = sea * W * H, 0
        for level, count in enumerate(histogram):
            seen += count
            if seen >= target:
                break
        self.sea_level = level
        self.grid_w, self.grid_h = 200, 150
        self.grid = list(self.height.resize((self.grid_w, self.grid_h), Image.Resampling.BILINEAR).tobytes())
        # Rivers follow a smoother surface, so they are not trapped in every small hollow.
        valleys = self.height.filter(ImageFilter.GaussianBlur(24))
        self.valleys = list(valleys.resize((self.grid_w, self.grid_h), Image.Resampling.BILINEAR).tobytes())
        self.towns = self._towns(rng.randint(5, 8))

    def h(self, x: float, y: float) -> int:
        gx = min(self.grid_w - 1, max(0, int(x * self.grid_w / W)))
        gy = min(self.grid_h - 1, max(0, int(y * self.grid_h / H)))
        return self.grid[gy * self.grid_w + gx]

    def valley(self, x: float, y: float) -> int:
        gx = min(self.grid_w - 1, max(0, int(x * self.grid_w / W)))
        gy = min(self.grid_h - 1, max(0, int(y * self.grid_h / H)))
        return self.valleys[gy * self.grid_w + gx]

    def land(self, x: float, y: float, margin: int = 2) -> bool:
        return self.h(x, y) > self.sea_level + margin

    def land_point(self, rng: random.Random, lo: int = 2, hi: int = 255, pad: int = 60):
        for _ in range(400):
            x, y = rng.uniform(pad, W - pad), rng.uniform(pad, H - pad)
            if self.sea_level + lo < self.h(x, y) < self.sea_level + hi:
                return (x, y)
        return (W / 2, H / 2)

    def _towns(self, count: int):
        towns: list[tuple[float, float]] = []
        for _ in range(count * 30):
            # Towns like low ground near the coast or in valleys.
            p = self.land_point(self.rng, lo=6, hi=70, pad=120)
            if all(math.dist(p, t) > 260 for t in towns):
                towns.append(p)
            if len(towns) == count:
                break
        return towns

    def land_mask(self) -> Image.Image:
        return self.height.point(lambda v: 255 if v > self.sea_level else 0)

    def woodland_mask(self, key: str, share: float = 0.22) -> Image.Image:
        rng = seeded("wood", key)
        cw, ch = 20, 15
        small = Image.frombytes("L", (cw, ch), bytes(rng.randrange(256) for _ in range(cw * ch)))
        field_ = small.resize((W, H), Image.Resampling.BICUBIC)
        cut = 255 - int(255 * share * 1.6)
        wood = field_.point(lambda v: 255 if v > cut else 0)
        return ImageChops.multiply(wood, self.land_mask())


def ramp(stops: list[tuple[int, tuple[int, int, int]]]) -> list[tuple[int, int, int]]:
    """A 256-entry colour table interpolated between (level, colour) stops."""
    table = []
    for v in range(256):
        for (a, ca), (b, cb) in zip(stops, stops[1:]):
            if a <= v <= b:
                t = 0 if b == a else (v - a) / (b - a)
                table.append(tuple(round(ca[i] + (cb[i] - ca[i]) * t) for i in range(3)))
                break
        else:
            table.append(stops[-1][1])
    return table


def colour_by_height(height: Image.Image, table) -> Image.Image:
    bands = [height.point([c[i] for c in table]) for i in range(3)]
    return Image.merge("RGB", bands)


def hillshade(scene: Scene, image: Image.Image, strength: float = 0.55) -> Image.Image:
    relief = scene.height.filter(ImageFilter.GaussianBlur(3)).filter(ImageFilter.EMBOSS)
    relief = ImageOps.autocontrast(relief, cutoff=1)
    # Keep the sea flat: relief only on land.
    flat = Image.new("L", (W, H), 128)
    relief = Image.composite(relief, flat, scene.land_mask())
    shaded = ImageChops.overlay(image, Image.merge("RGB", [relief] * 3))
    return Image.blend(image, shaded, strength)


def base_map(scene: Scene, key: str, wood: float = 0.2, sea=SEA, land=LAND) -> Image.Image:
    """Flat map colours: sea, land, woodland."""
    table = ramp([(0, SEA_DEEP), (scene.sea_level, sea), (scene.sea_level + 1, land), (255, land)])
    image = colour_by_height(scene.height, table)
    if wood:
        image.paste(WOOD, mask=scene.woodland_mask(key, wood))
    coast = scene.land_mask().filter(ImageFilter.FIND_EDGES).filter(ImageFilter.MaxFilter(3))
    image.paste((110, 160, 200), mask=coast)
    return image


def wobble(rng: random.Random, a, b, depth: int = 5, rough: float = 0.18):
    """A wandering line from a to b (midpoint displacement)."""
    points = [a, b]
    for level in range(depth):
        out = [points[0]]
        for p, q in zip(points, points[1:]):
            length = math.dist(p, q)
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            nx, ny = -(q[1] - p[1]), q[0] - p[0]
            if length:
                nx, ny = nx / length, ny / length
            off = rng.gauss(0, rough * length / (1 + level * 0.3))
            out += [(mx + nx * off, my + ny * off), q]
        points = out
    return points


def draw_roads(scene: Scene, image: Image.Image, key: str, scale: float = 1.0, minor: int = 14):
    """A road network joining the towns, plus minor roads off it."""
    rng = seeded("roads", key)
    draw = ImageDraw.Draw(image)
    towns = scene.towns
    links = []
    # Join each town to its nearest neighbours: a small plausible network.
    for i, t in enumerate(towns):
        near = sorted(range(len(towns)), key=lambda j: math.dist(t, towns[j]))[1:3]
        for j in near:
            if (j, i) not in [(a, b) for a, b, _ in links]:
                links.append((i, j, "a" if rng.random() < 0.7 else "b"))
    if len(links) > 2:
        a, b, _ = max(links, key=lambda l: math.dist(towns[l[0]], towns[l[1]]))
        links.append((a, b, "motorway"))
    lines = []
    for i, j, kind in links:
        line = wobble(rng, towns[i], towns[j], rough=0.08 if kind == "motorway" else 0.15)
        if sum(not scene.land(*p, margin=-2) for p in line) <= len(line) // 12:
            lines.append((line, kind))
    for _ in range(minor):
        t = rng.choice(towns)
        angle = rng.uniform(0, math.tau)
        length = rng.uniform(120, 380) * scale
        end = (t[0] + math.cos(angle) * length, t[1] + math.sin(angle) * length)
        if scene.land(*end):
            lines.append((wobble(rng, t, end, depth=4, rough=0.2), "minor"))
    widths = {"motorway": 13, "a": 11, "b": 9, "minor": 6}
    order = ["minor", "b", "a", "motorway"]
    for kind in order:
        for line, k in lines:
            if k == kind:
                draw.line(line, fill=CASING, width=int((widths[k] + 4) * scale), joint="curve")
        for line, k in lines:
            if k == kind:
                draw.line(line, fill=ROAD_COLOURS[k], width=int(widths[k] * scale), joint="curve")
    return lines


def river_paths(scene: Scene, key: str, count: int = 6, source: int = 50):
    """Rivers that run downhill from high ground to the sea, joining ones already drawn."""
    rng = seeded("rivers", key)
    cell = 18
    taken: dict[tuple[int, int], tuple[int, int]] = {}  # coarse cells crossed: (river, step)
    paths = []
    for number in range(count):
        x, y = scene.land_point(rng, lo=source, hi=256)
        if (int(x // cell), int(y // cell)) in taken:
            continue
        path = [(x, y)]
        heading = rng.uniform(0, math.tau)
        climbing, turned = 0, 0.0
        for _ in range(500):
            best = None
            for turn in (-0.9, -0.45, 0, 0.45, 0.9):
                a = heading + turn + rng.gauss(0, 0.12)
                nx, ny = x + math.cos(a) * 12, y + math.sin(a) * 12
                score = scene.valley(nx, ny) + abs(turn) * 1.5
                if best is None or score < best[0]:
                    best = (score, a, nx, ny)
            turned += best[1] - heading
            _, heading, nx, ny = best
            if abs(turned) > 3.5:
                break  # circling in a hollow
            climbing = climbing + 1 if scene.valley(nx, ny) >= scene.valley(x, y) else 0
            if climbing > 10:
                break  # a hollow: the river ends in a lake
            x, y = nx, ny
            path.append((x, y))
            here = (int(x // cell), int(y // cell))
            owner, step = taken.get(here, (number, len(path)))
            if owner != number or step < len(path) - 3:
                break  # joined another river, or came back on itself
            taken[here] = (number, len(path))
            if not scene.land(x, y, margin=-3) or not (0 < x < W and 0 < y < H):
                break
        if len(path) > 10:
            paths.append(path)
    return paths


def draw_rivers(scene: Scene, image: Image.Image, key: str, count: int = 6, width: float = 1.0, source: int = 50):
    draw = ImageDraw.Draw(image)
    paths = river_paths(scene, key, count, source)
    for path in paths:
        # Rivers widen as they flow.
        n = len(path)
        for i in range(0, n - 1, 3):
            seg = path[i : i + 4]
            w = int((2 + 7 * i / n) * width)
            draw.line(seg, fill=WATER, width=max(2, w), joint="curve")
    return paths


def draw_buildings(scene: Scene, image: Image.Image, key: str, per_town: int = 60, spread: float = 90,
                   size: float = 1.0, fill=BUILDING, edge=BUILDING_EDGE):
    rng = seeded("buildings", key)
    draw = ImageDraw.Draw(image)
    boxes = []
    for t in scene.towns:
        for _ in range(per_town):
            x, y = rng.gauss(t[0], spread), rng.gauss(t[1], spread)
            if not scene.land(x, y, margin=4):
                continue
            w, h = rng.uniform(8, 22) * size, rng.uniform(8, 16) * size
            a = rng.choice((0, 0, 0.3, -0.3, 1.1))
            corners = []
            for dx, dy in ((-w, -h), (w, -h), (w, h), (-w, h)):
                corners.append((x + dx * math.cos(a) - dy * math.sin(a), y + dx * math.sin(a) + dy * math.cos(a)))
            draw.polygon(corners, fill=fill, outline=edge, width=max(1, int(2 * size)))
            boxes.append((x, y))
    return boxes


def draw_urban(scene: Scene, image: Image.Image, key: str, radius: float = 110, colour=URBAN):
    draw = ImageDraw.Draw(image)
    rng = seeded("urban", key)
    for t in scene.towns:
        for _ in range(7):
            r = rng.uniform(0.4, 1.0) * radius
            x, y = rng.gauss(t[0], radius * 0.5), rng.gauss(t[1], radius * 0.5)
            draw.ellipse((x - r, y - r * 0.8, x + r, y + r * 0.8), fill=colour)
    # Built-up land never runs into the sea.
    sea = ImageOps.invert(scene.land_mask())
    image.paste(SEA, mask=sea)


def street_grid(rng: random.Random, centre, radius: float, step: float, angle: float):
    """Straight streets in a slightly rotated grid around a centre."""
    streets = []
    ca, sa = math.cos(angle), math.sin(angle)
    k = int(radius / step)
    for i in range(-k, k + 1):
        for horizontal in (True, False):
            off = i * step + rng.uniform(-step * 0.15, step * 0.15)
            half = math.sqrt(max(0, radius**2 - off**2)) * rng.uniform(0.6, 1.0)
            if half < step:
                continue
            a = (-half, off) if horizontal else (off, -half)
            b = (half, off) if horizontal else (off, half)
            pa = (centre[0] + a[0] * ca - a[1] * sa, centre[1] + a[0] * sa + a[1] * ca)
            pb = (centre[0] + b[0] * ca - b[1] * sa, centre[1] + b[0] * sa + b[1] * ca)
            streets.append((pa, pb))
    return streets


def name_generator(rng: random.Random, scottish: bool = False):
    heads = ["Ash", "Brad", "Kings", "Long", "Nether", "Ox", "Sand", "Thorn", "Whit", "Marl",
             "Hol", "Ald", "Bram", "Staple", "Wood", "Stan", "Lit", "Brom", "Chil", "Fern"]
    tails = ["ton", "ley", "by", "ham", "field", "worth", "wick", "bury", "combe", "stead",
             "ford", "hurst", "thorpe", "well", "den", "cote"]
    if scottish:
        heads = ["Kil", "Ach", "Inver", "Glen", "Strath", "Bal", "Dal", "Auchen", "Tor", "Ard"]
        tails = ["more", "ness", "lochy", "garry", "beg", "muir", "rannoch", "carron", "shiel", "dearg"]
    while True:
        yield rng.choice(heads) + rng.choice(tails)


def draw_label(draw: ImageDraw.ImageDraw, xy, text: str, size: int, fill=(40, 40, 40), bold=False,
               halo=(255, 255, 255), anchor="mm"):
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor,
              stroke_width=max(2, size // 7), stroke_fill=halo)


def draw_grid(image: Image.Image, step: int = 200, colour=(120, 150, 190), alpha: int = 70):
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for x in range(step, W, step):
        draw.line(((x, 0), (x, H)), fill=colour + (alpha,), width=2)
    for y in range(step, H, step):
        draw.line(((0, y), (W, y)), fill=colour + (alpha,), width=2)
    image.paste(overlay, mask=overlay)


# --- one drawing per theme -------------------------------------------------------------
# Each takes (key, variant) and returns an RGB image W×H. Variant 0 is an overview,
# variant 1 a closer or differently styled view.


def theme_colour_raster(key: str, variant: int) -> Image.Image:
    """1:250 000 colour raster: hypsometric tints, hill shading, towns, roads, rivers."""
    scene = Scene(key, sea=0.38 if variant == 0 else 0.15, detail=1.0 if variant == 0 else 1.5,
                  island=variant == 0)
    s = scene.sea_level
    tints = ramp([(0, SEA_DEEP), (s, SEA), (s + 1, (196, 224, 170)), (s + 60, (230, 232, 170)),
                  (s + 120, (222, 196, 140)), (min(254, s + 180), (196, 160, 120)), (255, (250, 248, 245))])
    image = hillshade(scene, colour_by_height(scene.height, tints), 0.6)
    draw_rivers(scene, image, key, 7)
    draw_urban(scene, image, key, 60, colour=(240, 200, 120))
    draw_roads(scene, image, key, scale=0.8 if variant == 0 else 1.0)
    draw = ImageDraw.Draw(image)
    names = name_generator(seeded("names", key))
    for t in scene.towns:
        draw.ellipse((t[0] - 9, t[1] - 9, t[0] + 9, t[1] + 9), fill=(30, 30, 30))
        draw_label(draw, (t[0] + 16, t[1] - 16), next(names), 30, anchor="ls")
    return image


def theme_overview(key: str, variant: int) -> Image.Image:
    """Small-scale overview: calm land colours, big coasts, major roads only."""
    scene = Scene(key, sea=0.5, detail=0.8)
    s = scene.sea_level
    if variant == 0:
        table = ramp([(0, (110, 160, 205)), (s, (160, 200, 230)), (s + 1, (233, 238, 214)),
                      (s + 90, (214, 222, 180)), (255, (190, 178, 150))])
    else:
        table = ramp([(0, (40, 80, 130)), (s, (70, 120, 170)), (s + 1, (120, 160, 100)),
                      (s + 80, (170, 170, 110)), (255, (235, 235, 225))])
    image = hillshade(scene, colour_by_height(scene.height, table), 0.7)
    draw_grid(image, 200, (255, 255, 255) if variant else (90, 120, 170), 90)
    draw_rivers(scene, image, key, 5, 0.8)
    draw_roads(scene, image, key, scale=0.7, minor=0)
    draw = ImageDraw.Draw(image)
    for t in scene.towns:
        draw.rectangle((t[0] - 8, t[1] - 8, t[0] + 8, t[1] + 8), fill=(200, 40, 40), outline="white", width=3)
    return image


def theme_miniscale(key: str, variant: int) -> Image.Image:
    """MiniScale: the whole country on one sheet, pale and clean."""
    scene = Scene(key, sea=0.55, detail=0.7)
    image = base_map(scene, key, wood=0, sea=(200, 228, 244) if variant == 0 else (220, 236, 246),
                     land=(252, 250, 240) if variant == 0 else (246, 241, 226))
    draw_urban(scene, image, key, 50, colour=(250, 205, 170))
    draw_rivers(scene, image, key, 6, 0.6)
    draw_roads(scene, image, key, scale=0.6, minor=0)
    draw = ImageDraw.Draw(image)
    names = name_generator(seeded("names", key))
    for t in scene.towns:
        draw_label(draw, (t[0], t[1] - 34), next(names).upper(), 26, fill=(60, 60, 80), bold=True)
    if variant:
        draw_grid(image, 100, (150, 150, 150), 60)
    return image


def contours(scene: Scene, step: int) -> Image.Image:
    """Mask of contour lines: the edges between height bands `step` levels apart."""
    smooth = scene.height.filter(ImageFilter.GaussianBlur(2))
    bands = smooth.point(lambda v: (v - scene.sea_level) // step * 40 % 256 if v > scene.sea_level else 0)
    return bands.filter(ImageFilter.FIND_EDGES).point(lambda v: 255 if v else 0)


def theme_terrain(key: str, variant: int) -> Image.Image:
    """Terrain 50: contour lines, thicker index contours, spot heights."""
    scene = Scene(key, sea=0.2, detail=1.0 if variant == 0 else 0.7, island=variant == 0)
    s = scene.sea_level
    if variant == 0:
        table = ramp([(0, SEA_DEEP), (s, SEA), (s + 1, (250, 246, 234)), (255, (236, 224, 204))])
    else:
        table = ramp([(0, SEA_DEEP), (s, SEA), (s + 1, (214, 232, 196)), (s + 70, (238, 234, 200)),
                      (255, (226, 206, 180))])
    image = colour_by_height(scene.height, table)
    if variant:
        image = hillshade(scene, image, 0.4)
    image.paste((200, 160, 120), mask=contours(scene, 6))
    image.paste((150, 96, 52), mask=contours(scene, 30).filter(ImageFilter.MaxFilter(3)))
    draw_rivers(scene, image, key, 5, 0.7)
    draw = ImageDraw.Draw(image)
    rng = seeded("spots", key)
    for _ in range(9):
        x, y = scene.land_point(rng, lo=40, pad=80)
        metres = (scene.h(x, y) - s) * 4
        draw.polygon(((x, y - 10), (x - 9, y + 7), (x + 9, y + 7)), fill=(90, 60, 30))
        draw_label(draw, (x + 14, y), str(metres), 24, fill=(90, 60, 30), anchor="lm")
    return image


def district_map(scene: Scene, key: str, count: int, palette, line=(120, 60, 150)) -> tuple[Image.Image, list]:
    """Land split into districts (a warped Voronoi diagram), each tinted, with border lines."""
    rng = seeded("districts", key)
    seeds: list[tuple[float, float]] = []
    for _ in range(count * 40):
        p = scene.land_point(rng, pad=60)
        if all(math.dist(p, q) > 230 for q in seeds):
            seeds.append(p)
        if len(seeds) == count:
            break
    gw, gh = 400, 300
    warp_data = list(scene.height.resize((gw, gh)).tobytes())
    regions = bytearray(gw * gh)
    sx, sy = W / gw, H / gh
    for y in range(gh):
        for x in range(gw):
            # Borders bend with the terrain a little, like real ones following rivers and ridges.
            jitter = (warp_data[y * gw + x] - 128) * 0.45
            px, py = x * sx + jitter, y * sy - jitter
            best = min(range(len(seeds)), key=lambda i: (seeds[i][0] - px) ** 2 + (seeds[i][1] - py) ** 2)
            regions[y * gw + x] = best * 17 % 256
    region_img = Image.frombytes("L", (gw, gh), bytes(regions)).resize((W, H), Image.Resampling.NEAREST)
    region_img = region_img.filter(ImageFilter.ModeFilter(9))
    table = [palette[(v // 17) % len(palette)] for v in range(256)]
    tinted = colour_by_height(region_img, table)
    image = Image.composite(tinted, Image.new("RGB", (W, H), SEA), scene.land_mask())
    edges = region_img.filter(ImageFilter.FIND_EDGES).point(lambda v: 255 if v else 0)
    edges = ImageChops.multiply(edges.filter(ImageFilter.MaxFilter(5)), scene.land_mask())
    image.paste(line, mask=edges)
    coast = scene.land_mask().filter(ImageFilter.FIND_EDGES).filter(ImageFilter.MaxFilter(5))
    image.paste((70, 110, 160), mask=coast)
    return image, seeds


def theme_boundaries(key: str, variant: int) -> Image.Image:
    """Boundary-Line: districts tinted, bounded by purple lines."""
    scene = Scene(key, sea=0.4, detail=0.9)
    palette = [(246, 222, 226), (226, 236, 214), (222, 228, 244), (248, 238, 210), (232, 222, 242),
               (214, 236, 236)]
    image, seeds = district_map(scene, key, 12 if variant == 0 else 8, palette)
    draw = ImageDraw.Draw(image)
    names = name_generator(seeded("names", key))
    for p in seeds:
        name = next(names)
        draw_label(draw, p, name.upper() if variant == 0 else name + " Ward", 24 if variant == 0 else 28,
                   fill=(90, 40, 120), bold=variant == 0)
    return image


def theme_points(key: str, variant: int, colour=(210, 60, 60), label: str = "") -> Image.Image:
    """Point data (postcodes, addresses): coloured dots clustered in towns."""
    scene = Scene(key, sea=0.3 if variant == 0 else 0.08, detail=1.0 if variant == 0 else 0.6,
                  island=variant == 0)
    image = base_map(scene, key, wood=0.15)
    if variant:
        scene.towns = scene.towns[:3]
        for t in scene.towns:
            for a, b in street_grid(seeded("grid", key, t), t, 220, 70, seeded("a", t).uniform(-0.4, 0.4)):
                ImageDraw.Draw(image).line((a, b), fill=(210, 205, 195), width=14)
                ImageDraw.Draw(image).line((a, b), fill=(255, 255, 255), width=9)
    else:
        draw_roads(scene, image, key, scale=0.7, minor=6)
    draw = ImageDraw.Draw(image)
    rng = seeded("points", key)
    hues = [colour, (60, 110, 200), (40, 150, 90), (220, 140, 40), (150, 70, 170)]
    for n, t in enumerate(scene.towns):
        c = hues[n % len(hues)] if variant == 0 else colour
        for _ in range(160 if variant == 0 else 260):
            spread = 70 if variant == 0 else 150
            x, y = rng.gauss(t[0], spread), rng.gauss(t[1], spread)
            if scene.land(x, y, margin=3):
                r = 5 if variant == 0 else 6
                draw.ellipse((x - r, y - r, x + r, y + r), fill=c, outline=(255, 255, 255), width=2)
    if label:
        draw_label(draw, (W / 2, 70), label, 34, fill=(70, 70, 70))
    return image


def theme_names(key: str, variant: int) -> Image.Image:
    """OS Open Names: a gazetteer: many labelled places of different kinds."""
    scene = Scene(key, sea=0.35, detail=1.0)
    image = base_map(scene, key, wood=0.18)
    draw_rivers(scene, image, key, 5, 0.7)
    draw = ImageDraw.Draw(image)
    rng = seeded("names-places", key)
    names = name_generator(seeded("names", key), scottish=variant == 1)
    for t in scene.towns:
        draw.ellipse((t[0] - 10, t[1] - 10, t[0] + 10, t[1] + 10), fill=(40, 40, 40), outline="white", width=3)
        draw_label(draw, (t[0], t[1] - 36), next(names), 38, bold=True)
    for _ in range(28):
        x, y = scene.land_point(rng, pad=80)
        if min(math.dist((x, y), t) for t in scene.towns) < 90:
            continue
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=(90, 90, 90))
        draw_label(draw, (x, y - 20), next(names), 22, fill=(70, 70, 70))
    for path in river_paths(scene, key, 3)[:2]:
        mid = path[len(path) // 2]
        draw_label(draw, mid, "River " + next(names), 22, fill=(40, 100, 170), halo=(230, 240, 250))
    return image


def theme_rivers(key: str, variant: int) -> Image.Image:
    """OS Open Rivers: a dense watercourse network over faint land."""
    scene = Scene(key, sea=0.3, detail=1.0)
    image = base_map(scene, key, wood=0, land=(250, 250, 246) if variant == 0 else (236, 240, 232))
    if variant:
        image = hillshade(scene, image, 0.5)
    draw_rivers(scene, image, key, 70 if variant == 0 else 50, 1.3 if variant == 0 else 1.6)
    return image


def theme_roads(key: str, variant: int) -> Image.Image:
    """OS Open Roads: the road network coloured by class."""
    scene = Scene(key, sea=0.3 if variant == 0 else 0.1, detail=1.0, island=variant == 0)
    image = base_map(scene, key, wood=0.1, land=(248, 247, 242))
    if variant:
        for t in scene.towns:
            for a, b in street_grid(seeded("g", key, t), t, 200, 55, seeded("a", t).uniform(-0.5, 0.5)):
                ImageDraw.Draw(image).line((a, b), fill=CASING, width=10)
                ImageDraw.Draw(image).line((a, b), fill=(255, 255, 255), width=6)
    draw_roads(scene, image, key, scale=1.0 if variant == 0 else 1.3, minor=26)
    draw = ImageDraw.Draw(image)
    rng = seeded("road-numbers", key)
    for t in scene.towns[:5]:
        text = rng.choice(("A", "A", "B", "M")) + str(rng.randint(1, 99) if rng.random() < 0.5 else rng.randint(100, 4999))
        colour = {"A": (0, 110, 70), "B": (230, 140, 40), "M": (40, 90, 190)}[text[0]]
        x, y = t[0] + 60, t[1] + 40
        box = draw.textbbox((x, y), text, font=font(24, True), anchor="mm")
        draw.rectangle((box[0] - 8, box[1] - 6, box[2] + 8, box[3] + 6), fill=colour, outline="white", width=2)
        draw.text((x, y), text, font=font(24, True), fill=(255, 230, 0) if text[0] == "A" else "white", anchor="mm")
    return image


def theme_streets(key: str, variant: int) -> Image.Image:
    """OS Open USRN: close-up streets, each street drawn in its own colour."""
    scene = Scene(key, sea=0.05, detail=0.5, island=False)
    image = base_map(scene, key, wood=0.12)
    draw = ImageDraw.Draw(image)
    rng = seeded("usrn", key)
    colours = [(230, 80, 80), (60, 120, 210), (50, 160, 100), (240, 150, 40), (150, 80, 180), (0, 160, 170)]
    centres = [(W * 0.28, H * 0.32), (W * 0.72, H * 0.36), (W * 0.48, H * 0.74)]
    for centre in centres:
        streets = street_grid(rng, centre, 330, 120, rng.uniform(-0.5, 0.5))
        for house in buildings_along(rng, streets, 30, 12, 13):
            draw.polygon(house, fill=(226, 222, 214), outline=(186, 180, 170), width=2)
        for a, b in streets:
            draw.line((a, b), fill=(200, 196, 188), width=18)
        for a, b in streets:
            colour = rng.choice(colours)
            draw.line((a, b), fill=(255, 255, 255), width=13)
            draw.line((a, b), fill=colour, width=7 if variant == 0 else 4)
            if variant:
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                draw_label(draw, mid, f"USRN {rng.randint(1000001, 99999999)}", 20, fill=colour)
    return image


def theme_zoomstack(key: str, variant: int) -> Image.Image:
    """OS Open Zoomstack: vector-tile styles, light (0) and night (1)."""
    scene = Scene(key, sea=0.35, detail=1.0)
    if variant == 0:
        image = base_map(scene, key, wood=0.2)
        draw_urban(scene, image, key, 90)
        draw_rivers(scene, image, key, 6)
        draw_buildings(scene, image, key, per_town=40, spread=70, size=0.8)
        draw_roads(scene, image, key, minor=20)
        return image
    image = base_map(scene, key, wood=0.2, sea=(24, 36, 58), land=(44, 48, 56))
    image.paste((40, 58, 50), mask=scene.woodland_mask(key, 0.2))
    draw_urban(scene, image, key, 90, colour=(58, 62, 72))
    image.paste((24, 36, 58), mask=ImageOps.invert(scene.land_mask()))
    draw = ImageDraw.Draw(image)
    for path in river_paths(scene, key, 6):
        draw.line(path, fill=(50, 90, 140), width=5, joint="curve")
    draw_buildings(scene, image, key, per_town=40, spread=70, size=0.8, fill=(80, 84, 96), edge=(100, 104, 118))
    glow = Image.new("RGB", (W, H), (0, 0, 0))
    lines = draw_roads(Scene(key, sea=0.35, detail=1.0), Image.new("RGB", (W, H)), key, minor=20)
    gdraw = ImageDraw.Draw(glow)
    night = {"motorway": (90, 170, 255), "a": (255, 150, 90), "b": (240, 200, 110), "minor": (150, 150, 160)}
    for line, kind in lines:
        gdraw.line(line, fill=night[kind], width=10 if kind != "minor" else 5, joint="curve")
    image = ImageChops.add(image, glow.filter(ImageFilter.GaussianBlur(6)))
    draw = ImageDraw.Draw(image)
    for line, kind in lines:
        draw.line(line, fill=tuple(min(255, c + 60) for c in night[kind]), width=4 if kind != "minor" else 2)
    return image


def theme_greenspace(key: str, variant: int) -> Image.Image:
    """OS Open Greenspace: parks, playing fields and allotments in and around towns."""
    scene = Scene(key, sea=0.25 if variant == 0 else 0.05, detail=1.0 if variant == 0 else 0.6,
                  island=variant == 0)
    if variant:
        # A close-up of one town: spread its parts across the picture.
        rng = seeded("town", key)
        scene.towns = [(W * fx + rng.uniform(-60, 60), H * fy + rng.uniform(-60, 60))
                       for fx, fy in ((0.25, 0.3), (0.7, 0.28), (0.45, 0.68), (0.8, 0.72))]
    image = base_map(scene, key, wood=0.08)
    draw_urban(scene, image, key, 130 if variant == 0 else 200)
    draw_roads(scene, image, key, scale=0.8, minor=10)
    draw = ImageDraw.Draw(image)
    rng = seeded("greens", key)
    kinds = [((120, 190, 100), (70, 140, 60)), ((170, 210, 120), (110, 160, 70)),
             ((150, 200, 170), (80, 150, 110)), ((200, 225, 140), (140, 170, 80))]
    for t in scene.towns:
        for _ in range(10 if variant == 0 else 18):
            x, y = rng.gauss(t[0], 120), rng.gauss(t[1], 120)
            if not scene.land(x, y, margin=5):
                continue
            fill, edge = rng.choice(kinds)
            w, h = rng.uniform(20, 60), rng.uniform(16, 44)
            if rng.random() < 0.5:
                draw.rounded_rectangle((x - w, y - h, x + w, y + h), radius=10, fill=fill, outline=edge, width=3)
            else:
                draw.ellipse((x - w, y - h, x + w, y + h), fill=fill, outline=edge, width=3)
            if variant and rng.random() < 0.3:
                # A pitch marked out on a playing field.
                draw.rectangle((x - w * 0.5, y - h * 0.5, x + w * 0.5, y + h * 0.5), outline="white", width=2)
    return image


def theme_builtup(key: str, variant: int) -> Image.Image:
    """Built Up Areas: generalised urban extents over a quiet background."""
    scene = Scene(key, sea=0.35, detail=1.0)
    image = base_map(scene, key, wood=0.15)
    draw_rivers(scene, image, key, 4, 0.6)
    mask = Image.new("L", (W, H), 0)
    mdraw = ImageDraw.Draw(mask)
    rng = seeded("bua", key)
    for t in scene.towns:
        for _ in range(9):
            r = rng.uniform(40, 120)
            x, y = rng.gauss(t[0], 60), rng.gauss(t[1], 60)
            mdraw.ellipse((x - r, y - r * 0.8, x + r, y + r * 0.8), fill=255)
    mask = ImageChops.multiply(mask.filter(ImageFilter.GaussianBlur(12)).point(lambda v: 255 if v > 110 else 0),
                               scene.land_mask())
    fill = (232, 150, 100) if variant == 0 else (160, 160, 175)
    image.paste(fill, mask=mask)
    edge = mask.filter(ImageFilter.FIND_EDGES).filter(ImageFilter.MaxFilter(3))
    image.paste((180, 90, 60) if variant == 0 else (90, 90, 110), mask=edge)
    draw = ImageDraw.Draw(image)
    names = name_generator(seeded("names", key))
    for t in scene.towns:
        draw_label(draw, t, next(names), 30, bold=True, fill=(60, 40, 30))
    return image


def theme_toid(key: str, variant: int) -> Image.Image:
    """OS Open TOID: building footprints each tagged with its identifier."""
    scene = Scene(key, sea=0.02, detail=0.4, island=False)
    image = base_map(scene, key, wood=0.05, land=(244, 242, 236))
    draw = ImageDraw.Draw(image)
    rng = seeded("toid", key)
    angle = rng.uniform(-0.3, 0.3)
    centre = (W / 2, H / 2)
    for a, b in street_grid(rng, centre, 900, 240, angle):
        draw.line((a, b), fill=(200, 196, 188), width=34)
        draw.line((a, b), fill=(255, 255, 255), width=28)
    ca, sa = math.cos(angle), math.sin(angle)
    for gx in range(-4, 5):
        for gy in range(-3, 4):
            for k in range(4):
                bx = gx * 240 + 60 + (k % 2) * 70 + rng.uniform(-6, 6)
                by = gy * 240 + 60 + (k // 2) * 70 + rng.uniform(-6, 6)
                w, h = rng.uniform(44, 58), rng.uniform(40, 56)
                pts = [(bx, by), (bx + w, by), (bx + w, by + h), (bx, by + h)]
                pts = [(centre[0] + x * ca - y * sa, centre[1] + x * sa + y * ca) for x, y in pts]
                fill = (233, 200, 170) if variant == 0 else (205, 214, 232)
                draw.polygon(pts, fill=fill, outline=(150, 110, 90) if variant == 0 else (90, 110, 150), width=3)
                if rng.random() < 0.07:
                    cx = sum(p[0] for p in pts) / 4
                    cy = sum(p[1] for p in pts) / 4
                    toid = "osgb1000" + str(rng.randint(10**9, 10**10 - 1))
                    draw_label(draw, (cx, cy - 44), toid, 24, fill=(60, 60, 60))
                    draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=(210, 60, 60), outline="white", width=2)
    return image


def buildings_along(rng: random.Random, streets, spacing: float, setback: float, size: float):
    """House footprints in rows facing each street."""
    houses = []
    for a, b in streets:
        length = math.dist(a, b)
        if not length:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        for side in (-1, 1):
            d = spacing
            while d < length - spacing:
                if rng.random() < 0.82:
                    w = rng.uniform(0.55, 0.8) * spacing / 2
                    depth = rng.uniform(0.7, 1.2) * size
                    cx = a[0] + ux * d - uy * side * (setback + depth)
                    cy = a[1] + uy * d + ux * side * (setback + depth)
                    corners = [(cx + ux * sx * w - uy * sy * depth, cy + uy * sx * w + ux * sy * depth)
                               for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
                    houses.append(corners)
                d += spacing * rng.uniform(0.9, 1.15)
    return houses


def theme_local(key: str, variant: int) -> Image.Image:
    """OS Open Map - Local: street-level mapping, buildings, woods, water."""
    scene = Scene(key, sea=0.08, detail=0.5, island=False)
    image = base_map(scene, key, wood=0.22, land=(250, 248, 242))
    draw = ImageDraw.Draw(image)
    rng = seeded("local", key)
    draw_rivers(scene, image, key, 2, 2.2)
    fill = (236, 180, 140) if variant == 0 else (216, 200, 190)
    edge = (170, 120, 90) if variant == 0 else (150, 130, 120)
    all_streets = []
    for t in scene.towns[:3]:
        streets = street_grid(rng, t, 380, 150, rng.uniform(-0.6, 0.6))
        streets = [(a, b) for a, b in streets if scene.land(*a, margin=4) and scene.land(*b, margin=4)]
        all_streets += streets
        for house in buildings_along(rng, streets, 34, 14, 16):
            if all(scene.land(*c, margin=4) for c in house):
                draw.polygon(house, fill=fill, outline=edge, width=2)
    for a, b in all_streets:
        draw.line((a, b), fill=(190, 186, 180), width=20)
    for a, b in all_streets:
        draw.line((a, b), fill=(255, 255, 255), width=14)
    # The street through each town centre is a B or A road.
    mains = [min(all_streets, key=lambda s: math.dist(((s[0][0] + s[1][0]) / 2, (s[0][1] + s[1][1]) / 2), t))
             for t in scene.towns[:3] if all_streets]
    for a, b in mains:
        draw.line((a, b), fill=CASING, width=24)
        draw.line((a, b), fill=ROAD_COLOURS["b"] if variant == 0 else ROAD_COLOURS["a"], width=18)
    names = name_generator(seeded("streets", key))
    for a, b in all_streets[:: max(1, len(all_streets) // 6)]:
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        draw_label(draw, mid, next(names) + (" Road" if variant == 0 else " Street"), 18, fill=(90, 90, 90))
    return image


def theme_district(key: str, variant: int) -> Image.Image:
    """OS VectorMap District: roads, railways, buildings and woodland at district scale."""
    scene = Scene(key, sea=0.2 if variant == 0 else 0.06, detail=0.9, island=variant == 0)
    if variant == 0:
        image = base_map(scene, key, wood=0.25)
    else:
        # The 'backdrop' style: muted colours meant to sit under other data.
        image = base_map(scene, key, wood=0.25, sea=(210, 222, 230), land=(240, 240, 238))
        image.paste((222, 230, 216), mask=scene.woodland_mask(key, 0.25))
    draw_urban(scene, image, key, 100, colour=URBAN if variant == 0 else (232, 230, 228))
    draw_rivers(scene, image, key, 5, 1.0)
    draw_buildings(scene, image, key, per_town=70, spread=80, size=0.9,
                   fill=BUILDING if variant == 0 else (206, 204, 202), edge=(150, 130, 120))
    draw = ImageDraw.Draw(image)
    rng = seeded("rail", key)
    towns = scene.towns
    if len(towns) >= 2:
        rail = wobble(rng, towns[0], towns[-1], depth=4, rough=0.06)
        draw.line(rail, fill=(40, 40, 40), width=9)
        for (x0, y0), (x1, y1) in zip(rail, rail[1:]):
            steps = max(1, int(math.dist((x0, y0), (x1, y1)) / 24))
            for i in range(0, steps, 2):
                a = (x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
                b = (x0 + (x1 - x0) * (i + 1) / steps, y0 + (y1 - y0) * (i + 1) / steps)
                draw.line((a, b), fill=(255, 255, 255), width=4)
    draw_roads(scene, image, key, minor=18)
    return image


def theme_partner(key: str, variant: int) -> Image.Image:
    """Partner product covering the UK: GB as the main map, Northern Ireland in an inset."""
    scene = Scene(key, sea=0.5, detail=0.7)
    palette = [(236, 226, 246), (222, 236, 246), (246, 236, 222), (228, 244, 228)] if variant == 0 else \
        [(250, 232, 214), (240, 222, 200), (232, 236, 214), (246, 242, 222)]
    image, seeds = district_map(scene, key, 6, palette, line=(90, 70, 140))
    draw = ImageDraw.Draw(image)
    for p in seeds:
        draw.regular_polygon((p[0], p[1], 12), 5, fill=(110, 60, 160), outline="white")
    inset_scene = Scene(key + "-ni", sea=0.45, detail=0.6)
    inset, _ = district_map(inset_scene, key + "-ni", 4, palette, line=(90, 70, 140))
    inset = inset.resize((440, 330), Image.Resampling.LANCZOS)
    image.paste(inset, (60, 60))
    draw.rectangle((60, 60, 500, 390), outline=(60, 60, 80), width=5)
    draw_label(draw, (90, 100), "NI", 40, fill=(60, 60, 80), bold=True, anchor="lm")
    draw_label(draw, (W - 160, 120), "GB", 52, fill=(60, 60, 80), bold=True)
    return image


THEMES = {
    "colour-raster": theme_colour_raster,
    "overview": theme_overview,
    "miniscale": theme_miniscale,
    "terrain": theme_terrain,
    "boundaries": theme_boundaries,
    "postcodes": lambda k, v: theme_points(k, v, (200, 50, 60)),
    "addresses": lambda k, v: theme_points(k, v, (40, 100, 200)),
    "names": theme_names,
    "rivers": theme_rivers,
    "roads": theme_roads,
    "streets": theme_streets,
    "zoomstack": theme_zoomstack,
    "greenspace": theme_greenspace,
    "builtup": theme_builtup,
    "toid": theme_toid,
    "local": theme_local,
    "district": theme_district,
    "partner": theme_partner,
}


def north_arrow(draw: ImageDraw.ImageDraw, x: float, y: float, size: float):
    draw.polygon(((x, y - size), (x - size * 0.45, y + size * 0.6), (x, y + size * 0.3)), fill=(40, 40, 40))
    draw.polygon(((x, y - size), (x + size * 0.45, y + size * 0.6), (x, y + size * 0.3)), fill=(255, 255, 255),
                 outline=(40, 40, 40))
    draw.text((x, y - size * 1.15), "N", font=font(int(size * 0.8), True), fill=(40, 40, 40), anchor="ms",
              stroke_width=2, stroke_fill=(255, 255, 255))


def fit_text(draw, text: str, width: float, size: int, bold: bool):
    while size > 8 and draw.textlength(text, font=font(size, bold)) > width:
        size -= 1
    return font(size, bold)


def finish(picture: Image.Image, title: str, subtitle: str, large: bool) -> Image.Image:
    """Lay the product's name over a scaled picture: a readable card at the bottom."""
    image = picture.convert("RGBA")
    w, h = image.size
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    if large:
        pad = 22
        title_font = fit_text(draw, title, w - 2 * pad - 40, 40, True)
        sub_font = font(20)
        band = 104
        draw.rectangle((0, h - band, w, h), fill=(255, 255, 255, 214))
        draw.rectangle((0, h - band, 10, h), fill=(212, 64, 58, 255))
        draw.text((pad + 12, h - band + 18), title, font=title_font, fill=(28, 32, 40))
        draw.text((pad + 12, h - 36), subtitle, font=sub_font, fill=(80, 84, 92))
        north_arrow(draw, w - 40, 64, 26)
        # Scale bar: decorative but tidy.
        bx, by = w - 200, h - band - 26
        draw.rectangle((bx - 6, by - 22, bx + 172, by + 14), fill=(255, 255, 255, 190))
        for i in range(4):
            draw.rectangle((bx + i * 40, by, bx + (i + 1) * 40, by + 8),
                           fill=(40, 40, 40) if i % 2 == 0 else (255, 255, 255), outline=(40, 40, 40))
        draw.text((bx, by - 4), "0", font=font(14), fill=(40, 40, 40), anchor="ms")
        draw.text((bx + 160, by - 4), "km", font=font(14), fill=(40, 40, 40), anchor="ms")
    else:
        band = 34
        draw.rectangle((0, h - band, w, h), fill=(255, 255, 255, 220))
        draw.rectangle((0, h - band, 4, h), fill=(212, 64, 58, 255))
        title_font = fit_text(draw, title, w - 16, 15, True)
        draw.text((9, h - band / 2), title, font=title_font, fill=(28, 32, 40), anchor="lm")
    image.alpha_composite(overlay)
    return image.convert("RGB")


def jpeg(image: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, optimize=True, progressive=False)
    return out.getvalue()


def thumbnails(product: "Product", index: int) -> tuple[bytes, bytes]:
    """Small (200×150) and large (800×600) JPEGs of one picture of a product."""
    picture = THEMES[product.theme](f"{product.id}-{index}", index)
    picture = picture.resize((800, 600), Image.Resampling.LANCZOS)
    subtitle = " · ".join(x for x in (product.category, "/".join(product.structures), product.version) if x)
    large = finish(picture, product.name, subtitle, large=True)
    small = finish(picture.resize((200, 150), Image.Resampling.LANCZOS), product.name, subtitle, large=False)
    return jpeg(small, 80), jpeg(large, 80)


# --------------------------------------------------------------------------------------
# Coordinates
# --------------------------------------------------------------------------------------


def grid_to_latlon(e: float, n: float) -> tuple[float, float]:
    """British National Grid easting/northing to OSGB36 latitude/longitude (degrees).

    The inverse transverse Mercator projection on the Airy 1830 ellipsoid; close enough
    (within about 100 m of WGS84) for demo attributes.
    """
    a, b = 6377563.396, 6356256.909
    f0, lat0, lon0 = 0.9996012717, math.radians(49), math.radians(-2)
    n0, e0 = -100000, 400000
    e2 = 1 - (b * b) / (a * a)
    nn = (a - b) / (a + b)
    lat, m = lat0, 0.0
    while abs(n - n0 - m) >= 0.00001:
        lat = (n - n0 - m) / (a * f0) + lat
        ma = (1 + nn + 1.25 * nn**2 + 1.25 * nn**3) * (lat - lat0)
        mb = (3 * nn + 3 * nn**2 + 2.625 * nn**3) * math.sin(lat - lat0) * math.cos(lat + lat0)
        mc = (1.875 * nn**2 + 1.875 * nn**3) * math.sin(2 * (lat - lat0)) * math.cos(2 * (lat + lat0))
        md = (35 / 24) * nn**3 * math.sin(3 * (lat - lat0)) * math.cos(3 * (lat + lat0))
        m = b * f0 * (ma - mb + mc - md)
    sin, cos, tan = math.sin(lat), math.cos(lat), math.tan(lat)
    nu = a * f0 / math.sqrt(1 - e2 * sin * sin)
    rho = a * f0 * (1 - e2) / (1 - e2 * sin * sin) ** 1.5
    eta2 = nu / rho - 1
    vii = tan / (2 * rho * nu)
    viii = tan / (24 * rho * nu**3) * (5 + 3 * tan**2 + eta2 - 9 * tan**2 * eta2)
    ix = tan / (720 * rho * nu**5) * (61 + 90 * tan**2 + 45 * tan**4)
    x = 1 / (cos * nu)
    xi = 1 / (cos * 6 * nu**3) * (nu / rho + 2 * tan**2)
    xii = 1 / (cos * 120 * nu**5) * (5 + 28 * tan**2 + 24 * tan**4)
    xiia = 1 / (cos * 5040 * nu**7) * (61 + 662 * tan**2 + 1320 * tan**4 + 720 * tan**6)
    de = e - e0
    lat = lat - vii * de**2 + viii * de**4 - ix * de**6
    lon = lon0 + x * de - xi * de**3 + xii * de**5 - xiia * de**7
    return math.degrees(lat), math.degrees(lon)


BNG_WKT = (
    'PROJCS["British_National_Grid",GEOGCS["GCS_OSGB_1936",DATUM["D_OSGB_1936",'
    'SPHEROID["Airy_1830",6377563.396,299.3249646]],PRIMEM["Greenwich",0.0],'
    'UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],'
    'PARAMETER["False_Easting",400000.0],PARAMETER["False_Northing",-100000.0],'
    'PARAMETER["Central_Meridian",-2.0],PARAMETER["Scale_Factor",0.9996012717],'
    'PARAMETER["Latitude_Of_Origin",49.0],UNIT["Meter",1.0]]'
)
WGS84_WKT = (
    'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],'
    'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]'
)


# --------------------------------------------------------------------------------------
# Made-up features
# --------------------------------------------------------------------------------------

SCOTLAND = set("HP HT HU HW HX HY HZ NA NB NC ND NF NG NH NJ NK NL NM NN NO NR NS NT NW NX".split())
WALES = {"SH", "SJ", "SM", "SN", "SO", "SR", "SS", "ST"}

POSTCODE_AREAS = {
    "SU": "SO RG GU PO SP", "TQ": "E N SE SW W BN CR KT RH", "ST": "BS CF TA BA NP",
    "SP": "B OX CV MK NN", "SK": "S NG DE LE", "SJ": "M CH ST WA CW", "SE": "LS YO BD HX WF",
    "NZ": "NE DH SR TS", "NT": "EH TD", "NS": "G KA FK PA ML", "NJ": "AB IV", "NH": "IV",
    "NO": "DD PH KY", "SX": "PL EX TQ", "SW": "TR", "TL": "CB SG AL PE", "TM": "IP CO",
    "TG": "NR", "TF": "PE LN", "SO": "HR WR GL", "SN": "SY SA", "SH": "LL", "SD": "LA PR FY BB BL",
    "NY": "CA", "NX": "DG", "TR": "CT", "SZ": "BH PO", "SY": "DT", "SS": "SA EX", "TA": "HU YO",
    "ND": "KW", "HY": "KW", "HU": "ZE", "NB": "HS", "NG": "IV", "NM": "PA", "NN": "PH", "NR": "PA",
    "NU": "NE", "SM": "SA", "TV": "BN",
}
SCOTTISH_POSTCODES = set("EH TD G KA FK PA ML AB IV DD PH KY DG KW ZE HS".split())
WELSH_POSTCODES = set("CF NP SA LL SY LD".split())


def country_of(square: str) -> str:
    if square in SCOTLAND:
        return "Scotland"
    if square in WALES:
        return "Wales"
    return "England"


def land_squares(rng: random.Random) -> str:
    """A square chosen in proportion to its land: where features in a GB file fall."""
    squares = [s for s in SQUARES if LAND_SHARE[s] > 0.02]
    return rng.choices(squares, weights=[LAND_SHARE[s] for s in squares])[0]


def place_in(rng: random.Random, area: str) -> tuple[str, float, float]:
    """A random spot (its square, easting, northing) inside an area."""
    square = land_squares(rng) if area not in SQUARES else area
    e, n = square_origin(square)
    return square, e + rng.uniform(500, 99_500), n + rng.uniform(500, 99_500)


def uid(rng: random.Random) -> str:
    """A UUID-like identifier drawn from `rng` (uuid4 would not be reproducible)."""
    h = "%032X" % rng.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89AB'[rng.randrange(4)]}{h[17:20]}-{h[20:]}"


def postcode(rng: random.Random, square: str) -> str:
    area = rng.choice(POSTCODE_AREAS.get(square, "ZZ").split())
    letters = "ABDEFGHJLNPQRSTUWXYZ"
    return f"{area}{rng.randint(1, 28)} {rng.randint(1, 9)}{rng.choice(letters)}{rng.choice(letters)}"


def line_from(rng: random.Random, x: float, y: float, steps: int, stride: float, box):
    points = [(x, y)]
    heading = rng.uniform(0, math.tau)
    for _ in range(steps):
        heading += rng.gauss(0, 0.5)
        x = min(box[2], max(box[0], x + math.cos(heading) * stride * rng.uniform(0.5, 1.5)))
        y = min(box[3], max(box[1], y + math.sin(heading) * stride * rng.uniform(0.5, 1.5)))
        points.append((x, y))
    return [(round(px, 2), round(py, 2)) for px, py in points]


def polygon_at(rng: random.Random, x: float, y: float, radius: float, corners: int = 7):
    """A closed, anticlockwise ring around (x, y)."""
    ring = []
    for i in range(corners):
        a = math.tau * i / corners + rng.uniform(-0.2, 0.2)
        r = radius * rng.uniform(0.6, 1.2)
        ring.append((round(x + math.cos(a) * r, 2), round(y + math.sin(a) * r, 2)))
    return ring + [ring[0]]


@dataclass
class Layer:
    """What a product's files hold: one feature type with its attributes."""

    name: str
    geometry: str  # "Point", "LineString" or "Polygon"
    fields: list[tuple[str, str]]  # (name, "text" | "int" | "real")
    make: object  # (rng, index, area) -> (geometry, attributes)


def layer_for(product: "Product") -> Layer:
    """The feature type of a product's vector files, with a generator of plausible features."""
    pid = product.id
    names_scot = name_generator(seeded("names-scot", pid), scottish=True)
    names_eng = name_generator(seeded("names-eng", pid))

    def name_for(square: str) -> str:
        return next(names_scot) if square in SCOTLAND else next(names_eng)

    def point(rng, area):
        square, e, n = place_in(rng, area)
        return square, (round(e), round(n))

    if pid == "BoundaryLine":
        def make(rng, i, area):
            square, e, n = place_in(rng, area)
            kind = rng.choice([("District", "DIS", "E07"), ("Unitary Authority", "UTA", "E06"),
                               ("Metropolitan District", "MTD", "E08")])
            if square in SCOTLAND:
                kind = ("Unitary Authority", "UTA", "S12")
            elif square in WALES:
                kind = ("Unitary Authority", "UTA", "W06")
            ring = polygon_at(rng, e, n, rng.uniform(6_000, 14_000), 9)
            return ring, {"NAME": f"{name_for(square)} {kind[0]}", "AREA_CODE": kind[1],
                          "DESCRIPTION": kind[0], "CODE": f"{kind[2]}{rng.randint(0, 999):06d}",
                          "HECTARES": round(rng.uniform(5_000, 60_000), 3)}
        return Layer("district_borough_unitary", "Polygon",
                     [("NAME", "text"), ("AREA_CODE", "text"), ("DESCRIPTION", "text"), ("CODE", "text"),
                      ("HECTARES", "real")], make)
    if pid == "CodePointOpen":
        def make(rng, i, area):
            square, (e, n) = point(rng, area)
            pc = postcode(rng, square)
            outward = pc.split()[0].rstrip("0123456789")
            country = ("S92000003" if outward in SCOTTISH_POSTCODES else
                       "W92000004" if outward in WELSH_POSTCODES else "E92000001")
            return (e, n), {"Postcode": pc, "Positional_quality_indicator": rng.choice((10, 10, 10, 20, 30)),
                            "Eastings": e, "Northings": n, "Country_code": country,
                            "NHS_regional_HA_code": f"E{rng.randint(19000000, 19000010)}",
                            "NHS_HA_code": f"E{rng.randint(18000001, 18000010)}",
                            "Admin_county_code": f"E{rng.randint(10000001, 10000034)}",
                            "Admin_district_code": f"E{rng.randint(7000001, 7000250):08d}",
                            "Admin_ward_code": f"E{rng.randint(5000001, 5015000):08d}"}
        return Layer("code_point_open", "Point",
                     [("Postcode", "text"), ("Positional_quality_indicator", "int"), ("Eastings", "int"),
                      ("Northings", "int"), ("Country_code", "text"), ("NHS_regional_HA_code", "text"),
                      ("NHS_HA_code", "text"), ("Admin_county_code", "text"), ("Admin_district_code", "text"),
                      ("Admin_ward_code", "text")], make)
    if pid == "BuiltUpAreas":
        def make(rng, i, area):
            square, e, n = place_in(rng, area)
            ring = polygon_at(rng, e, n, rng.uniform(400, 3_000), 8)
            hectares = round(rng.uniform(20, 2_500), 2)
            return ring, {"GSSCODE": f"E63{rng.randint(0, 99999):06d}", "NAME1_TEXT": name_for(square),
                          "AREAHECTARES": hectares, "GEOMETRY_AREA_M": round(hectares * 10_000, 1)}
        return Layer("os_open_built_up_areas", "Polygon",
                     [("GSSCODE", "text"), ("NAME1_TEXT", "text"), ("AREAHECTARES", "real"),
                      ("GEOMETRY_AREA_M", "real")], make)
    if pid == "OpenNames":
        def make(rng, i, area):
            square, (e, n) = point(rng, area)
            number = rng.randint(4000000074000000, 4000000075999999)
            local = rng.choice(("Town", "Village", "Village", "Hamlet", "Hamlet", "Other Settlement"))
            return (e, n), {"ID": f"osgb{number}", "NAMES_URI": f"http://data.os.uk/id/{number}",
                            "NAME1": name_for(square), "TYPE": "populatedPlace", "LOCAL_TYPE": local,
                            "GEOMETRY_X": e, "GEOMETRY_Y": n,
                            "POSTCODE_DISTRICT": postcode(rng, square).split()[0],
                            "COUNTRY": country_of(square)}
        return Layer("NamedPlace", "Point",
                     [("ID", "text"), ("NAMES_URI", "text"), ("NAME1", "text"), ("TYPE", "text"),
                      ("LOCAL_TYPE", "text"), ("GEOMETRY_X", "int"), ("GEOMETRY_Y", "int"),
                      ("POSTCODE_DISTRICT", "text"), ("COUNTRY", "text")], make)
    if pid == "OpenRivers":
        def make(rng, i, area):
            square, e, n = place_in(rng, area)
            line = line_from(rng, e, n, rng.randint(3, 8), 400, area_box(area))
            length = sum(math.dist(p, q) for p, q in zip(line, line[1:]))
            named = rng.random() < 0.6
            return line, {"identifier": uid(rng), "startNode": uid(rng), "endNode": uid(rng),
                          "form": rng.choice(("inlandRiver", "inlandRiver", "inlandRiver", "canal", "lake")),
                          "flow": "in direction", "fictitious": "false", "length": round(length),
                          "name1": ("River " + name_for(square)) if named else ""}
        return Layer("WatercourseLink", "LineString",
                     [("identifier", "text"), ("startNode", "text"), ("endNode", "text"), ("form", "text"),
                      ("flow", "text"), ("fictitious", "text"), ("length", "int"), ("name1", "text")], make)
    if pid in ("OpenRoads", "OpenZoomstack", "VectorMapDistrict"):
        def make(rng, i, area):
            square, e, n = place_in(rng, area)
            cls, number = rng.choice((("A Road", "A"), ("B Road", "B"), ("Unclassified", ""),
                                      ("Unclassified", ""), ("Not Classified", ""), ("Motorway", "M")))
            number = f"{number}{rng.randint(1, 999)}" if number else ""
            line = line_from(rng, e, n, rng.randint(2, 6), 250, area_box(area))
            length = round(sum(math.dist(p, q) for p, q in zip(line, line[1:])))
            street = f"{name_for(square)} {rng.choice(('Road', 'Lane', 'Street', 'Way', 'Avenue'))}"
            if pid == "OpenZoomstack":
                return line, {"type": cls, "name": street if not number else "", "number": number,
                              "level": 0}
            if pid == "VectorMapDistrict":
                return line, {"ID": uid(rng), "DISTNAME": street, "ROADNUMBER": number,
                              "CLASSIFICA": cls, "DRAWLEVEL": 0, "FEATCODE": 25710 + rng.randint(0, 9)}
            return line, {"id": uid(rng), "fictitious": "false", "roadClassification": cls,
                          "roadFunction": cls if cls != "Unclassified" else "Minor Road",
                          "formOfWay": rng.choice(("Single Carriageway", "Single Carriageway",
                                                   "Dual Carriageway", "Roundabout", "Slip Road")),
                          "length": length, "name1": street if cls != "Motorway" else "",
                          "roadClassificationNumber": number, "primaryRoute": str(cls == "A Road").lower()}
        if pid == "OpenZoomstack":
            fields = [("type", "text"), ("name", "text"), ("number", "text"), ("level", "int")]
            return Layer("roads_local", "LineString", fields, make)
        if pid == "VectorMapDistrict":
            fields = [("ID", "text"), ("DISTNAME", "text"), ("ROADNUMBER", "text"), ("CLASSIFICA", "text"),
                      ("DRAWLEVEL", "int"), ("FEATCODE", "int")]
            return Layer("Road", "LineString", fields, make)
        fields = [("id", "text"), ("fictitious", "text"), ("roadClassification", "text"),
                  ("roadFunction", "text"), ("formOfWay", "text"), ("length", "int"), ("name1", "text"),
                  ("roadClassificationNumber", "text"), ("primaryRoute", "text")]
        return Layer("RoadLink", "LineString", fields, make)
    if pid in ("OpenUPRN", "OpenTOID"):
        def make(rng, i, area):
            square, (e, n) = point(rng, area)
            lat, lon = grid_to_latlon(e, n)
            if pid == "OpenUPRN":
                return (e, n), {"UPRN": rng.randint(1, 200_000_000_000), "X_COORDINATE": e,
                                "Y_COORDINATE": n, "LATITUDE": round(lat, 7), "LONGITUDE": round(lon, 7)}
            return (e, n), {"TOID": f"osgb{rng.randint(1000000000000000, 5000005999999999)}",
                            "VERSION_NUMBER": rng.randint(1, 12),
                            "VERSION_DATE": f"{rng.randint(2001, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                            "SOURCE_PRODUCT": rng.choice(("OS MasterMap Topography Layer",
                                                          "OS MasterMap Topography Layer",
                                                          "OS MasterMap Highways Network - Roads")),
                            "EASTING": e, "NORTHING": n}
        if pid == "OpenUPRN":
            return Layer("osopenuprn_address", "Point", [("UPRN", "int"), ("X_COORDINATE", "int"),
                         ("Y_COORDINATE", "int"), ("LATITUDE", "real"), ("LONGITUDE", "real")], make)
        return Layer("OpenTOID", "Point", [("TOID", "text"), ("VERSION_NUMBER", "int"), ("VERSION_DATE", "text"),
                     ("SOURCE_PRODUCT", "text"), ("EASTING", "int"), ("NORTHING", "int")], make)
    if pid == "OpenUSRN":
        def make(rng, i, area):
            square, e, n = place_in(rng, area)
            return line_from(rng, e, n, rng.randint(1, 4), 120, area_box(area)), {
                "usrn": rng.randint(1000001, 99999999),
                "street_type": rng.choice(("Designated Street Name", "Designated Street Name",
                                           "Officially Described Street", "Numbered Street"))}
        return Layer("openUSRN", "LineString", [("usrn", "int"), ("street_type", "text")], make)
    if pid == "Terrain50":
        def make(rng, i, area):
            square, e, n = place_in(rng, area)
            return line_from(rng, e, n, rng.randint(5, 12), 180, area_box(area)), {
                "PROP_VALUE": rng.randint(0, 90) * 10}
        return Layer("ContourLine", "LineString", [("PROP_VALUE", "int")], make)
    if pid == "OpenGreenspace":
        functions = ("Public Park Or Garden", "Playing Field", "Allotments Or Community Growing Spaces",
                     "Play Space", "Religious Grounds", "Cemetery", "Golf Course", "Other Sports Facility",
                     "Bowling Green", "Tennis Court")

        def make(rng, i, area):
            square, e, n = place_in(rng, area)
            function = rng.choice(functions)
            named = function in functions[:2] and rng.random() < 0.7
            return polygon_at(rng, e, n, rng.uniform(40, 300), 6), {
                "id": uid(rng), "function": function,
                "distinctiveName1": f"{name_for(square)} {'Park' if function == functions[0] else 'Recreation Ground'}" if named else ""}
        return Layer("GreenspaceSite", "Polygon", [("id", "text"), ("function", "text"),
                                                   ("distinctiveName1", "text")], make)
    if pid == "OpenMapLocal":
        def make(rng, i, area):
            square, e, n = place_in(rng, area)
            return polygon_at(rng, e, n, rng.uniform(6, 25), 4), {"ID": uid(rng), "FEATCODE": 15014}
        return Layer("Building", "Polygon", [("ID", "text"), ("FEATCODE", "int")], make)
    if pid == "PartnerUKCoastline":
        def make(rng, i, area):
            # Latitude/longitude boxes: Northern Ireland lies off the British grid.
            boxes = {"GB": (50.1, -5.6, 58.5, 1.7), "NI": (54.05, -8.1, 55.25, -5.5)}
            which = area if area in boxes else rng.choice(("GB", "GB", "GB", "NI"))
            s, w, n, e = boxes[which]
            lat, lon = rng.uniform(s, n), rng.uniform(w, e)
            ring = polygon_at(rng, lon, lat, rng.uniform(0.02, 0.15), 8)
            ring = [(round(x, 6), round(y, 6)) for x, y in ring]
            return ring, {"name": f"Coastal cell {which}-{i + 1:03d}",
                          "country": "Northern Ireland" if which == "NI" else rng.choice(("England", "Scotland", "Wales")),
                          "shoreline": rng.choice(("rock", "sand", "shingle", "mud", "artificial")),
                          "source": "Partner survey 2024"}
        return Layer("coastal_cells", "Polygon", [("name", "text"), ("country", "text"), ("shoreline", "text"),
                                                  ("source", "text")], make)
    raise KeyError(pid)


# --------------------------------------------------------------------------------------
# File formats
# --------------------------------------------------------------------------------------
# Each writer takes the features of one file and returns {name inside the zip: bytes}.


def xml_text(value: object) -> str:
    from xml.sax.saxutils import escape

    return escape(str(value))


def bounds(geoms, geometry: str):
    xs, ys = [], []
    for g in geoms:
        pts = [g] if geometry == "Point" else g
        xs += [p[0] for p in pts]
        ys += [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)


def write_csv(layer: Layer, features, stem: str, ctx) -> dict[str, bytes]:
    import csv

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = [f for f, _ in layer.fields]
    writer.writerow(names)
    for _, attrs in features:
        writer.writerow([attrs[f] for f in names])
    return {f"Data/{stem}.csv": out.getvalue().encode()}


def write_geojson(layer: Layer, features, stem: str, ctx) -> dict[str, bytes]:
    def coords(g):
        if layer.geometry == "Point":
            return list(g)
        return [list(p) for p in g] if layer.geometry == "LineString" else [[list(p) for p in g]]

    doc = {"type": "FeatureCollection", "name": layer.name,
           "features": [{"type": "Feature", "properties": attrs,
                         "geometry": {"type": layer.geometry, "coordinates": coords(g)}} for g, attrs in features]}
    return {f"Data/{stem}.geojson": json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()}


def write_gml(layer: Layer, features, stem: str, ctx) -> dict[str, bytes]:
    version = ctx["subformat"] or "3"
    gml_ns = "http://www.opengis.net/gml/3.2" if version == "3.2" else "http://www.opengis.net/gml"
    srs = "urn:ogc:def:crs:EPSG::27700"
    box = ctx["box"]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<os:FeatureCollection xmlns:os="https://docs.example.org/schemas/{ctx["product"].id}/1.0" '
        f'xmlns:gml="{gml_ns}" gml:id="{stem}">',
        f'  <gml:boundedBy><gml:Envelope srsName="{srs}"><gml:lowerCorner>{box[0]} {box[1]}</gml:lowerCorner>'
        f'<gml:upperCorner>{box[2]} {box[3]}</gml:upperCorner></gml:Envelope></gml:boundedBy>',
    ]
    for i, (g, attrs) in enumerate(features):
        lines.append(f'  <os:member><os:{layer.name} gml:id="{stem}.{i + 1}">')
        for key, value in attrs.items():
            if value != "":
                lines.append(f"    <os:{key}>{xml_text(value)}</os:{key}>")
        if layer.geometry == "Point":
            geom = f'<gml:Point srsName="{srs}"><gml:pos>{g[0]} {g[1]}</gml:pos></gml:Point>'
        else:
            pos = " ".join(f"{x} {y}" for x, y in g)
            if layer.geometry == "LineString":
                geom = f'<gml:LineString srsName="{srs}"><gml:posList>{pos}</gml:posList></gml:LineString>'
            else:
                geom = (f'<gml:Polygon srsName="{srs}"><gml:exterior><gml:LinearRing><gml:posList>{pos}'
                        f'</gml:posList></gml:LinearRing></gml:exterior></gml:Polygon>')
        lines.append(f"    <os:geometry>{geom}</os:geometry>")
        lines.append(f"  </os:{layer.name}></os:member>")
    lines.append("</os:FeatureCollection>")
    return {f"Data/{stem}.gml": ("\n".join(lines) + "\n").encode()}


def dbf_bytes(layer: Layer, features, date: tuple[int, int, int]) -> bytes:
    """A dBase III table of the attributes (as used by shapefiles and MapInfo .DAT)."""
    specs = []
    for name, kind in layer.fields:
        values = [attrs[name] for _, attrs in features]
        if kind == "text":
            width = max([1] + [len(str(v).encode()) for v in values])
            specs.append((name, "C", min(254, width), 0))
        elif kind == "int":
            specs.append((name, "N", 18, 0))
        else:
            specs.append((name, "N", 19, 7 if "LAT" in name or "LON" in name else 3))
    record_len = 1 + sum(s[2] for s in specs)
    header_len = 32 + 32 * len(specs) + 1
    out = bytearray(struct.pack("<BBBBIHH20x", 3, date[0] - 1900, date[1], date[2], len(features),
                                header_len, record_len))
    for name, kind, width, decimals in specs:
        out += struct.pack("<11sc4xBB14x", name[:10].encode(), kind.encode(), width, decimals)
    out += b"\r"
    for _, attrs in features:
        out += b" "
        for (name, kind, width, decimals), (field_name, _) in zip(specs, layer.fields):
            value = attrs[field_name]
            if kind == "C":
                out += str(value).encode()[:width].ljust(width)
            else:
                text = f"{value:.{decimals}f}" if decimals else str(int(value))
                out += text.encode().rjust(width)
    out += b"\x1a"
    return bytes(out)


def write_shapefile(layer: Layer, features, stem: str, ctx) -> dict[str, bytes]:
    shape_type = {"Point": 1, "LineString": 3, "Polygon": 5}[layer.geometry]
    geoms = [g for g, _ in features]
    box = bounds(geoms, layer.geometry)
    records = []
    for g in geoms:
        if layer.geometry == "Point":
            content = struct.pack("<i2d", 1, *g)
        else:
            pts = list(reversed(g)) if layer.geometry == "Polygon" else g  # outer rings run clockwise
            b = bounds([pts], layer.geometry)
            content = struct.pack("<i4dii", shape_type, *b, 1, len(pts)) + struct.pack("<i", 0)
            content += b"".join(struct.pack("<2d", *p) for p in pts)
        records.append(content)

    def header(length_bytes: int) -> bytes:
        return struct.pack(">i20xi", 9994, length_bytes // 2) + struct.pack("<ii4d4d", 1000, shape_type, *box, 0, 0, 0, 0)

    shp, shx = bytearray(), bytearray()
    offset = 100
    for number, content in enumerate(records, 1):
        shx += struct.pack(">ii", offset // 2, len(content) // 2)
        shp += struct.pack(">ii", number, len(content) // 2) + content
        offset += 8 + len(content)
    shp = header(100 + len(shp)) + shp
    shx = header(100 + len(shx)) + shx
    return {
        f"Data/{stem}.shp": bytes(shp),
        f"Data/{stem}.shx": bytes(shx),
        f"Data/{stem}.dbf": dbf_bytes(layer, features, ctx["date"][:3]),
        f"Data/{stem}.prj": BNG_WKT.encode(),
        f"Data/{stem}.cpg": b"UTF-8",
    }


def write_mapinfo(layer: Layer, features, stem: str, ctx) -> dict[str, bytes]:
    """A MapInfo TAB set: the text .TAB is real; .MAP and .ID are small stand-ins."""
    kinds = {"text": "Char (254)", "int": "Integer", "real": "Float"}
    tab = ["!table", "!version 300", "!charset Neutral", "", "Definition Table",
           '  Type NATIVE Charset "Neutral"', f"  Fields {len(layer.fields)}"]
    tab += [f"    {name} {kinds[kind]} ;" for name, kind in layer.fields]
    tab += ["begin_metadata", f'"\\DemoProduct" = "{ctx["product"].name}"', "end_metadata", ""]
    ids = b"".join(struct.pack("<i", 512 + 64 * i) for i in range(len(features)))
    geoms = [g for g, _ in features]
    box = bounds(geoms, layer.geometry)
    map_header = struct.pack("<16s4d", b"MapInfo demo MAP", *box).ljust(512, b"\0")
    return {
        f"Data/{stem}.TAB": "\r\n".join(tab).encode(),
        f"Data/{stem}.DAT": dbf_bytes(layer, features, ctx["date"][:3]),
        f"Data/{stem}.MAP": map_header,
        f"Data/{stem}.ID": ids,
    }


def gpkg_geometry(geometry: str, g, srs_id: int) -> bytes:
    """A GeoPackage geometry blob: the GP header (no envelope) then little-endian WKB."""
    if geometry == "Point":
        wkb = struct.pack("<BI2d", 1, 1, *g)
    elif geometry == "LineString":
        wkb = struct.pack("<BII", 1, 2, len(g)) + b"".join(struct.pack("<2d", *p) for p in g)
    else:
        wkb = struct.pack("<BIII", 1, 3, 1, len(g)) + b"".join(struct.pack("<2d", *p) for p in g)
    return b"GP" + struct.pack("<BBi", 0, 1, srs_id) + wkb


def sqlite_bytes(build) -> bytes:
    """Run `build(connection)` on a fresh in-memory database and return the file's bytes."""
    db = sqlite3.connect(":memory:")
    db.execute("PRAGMA page_size = 1024")
    build(db)
    db.commit()
    db.execute("VACUUM")
    data = db.serialize()
    db.close()
    return data


def write_geopackage(layer: Layer, features, stem: str, ctx) -> dict[str, bytes]:
    srs_id = 4326 if ctx["product"].id == "PartnerUKCoastline" else 27700
    stamp = "%04d-%02d-%02dT00:00:00.000Z" % ctx["date"][:3]
    geoms = [g for g, _ in features]
    box = bounds(geoms, layer.geometry)
    sql_types = {"text": "TEXT", "int": "INTEGER", "real": "REAL"}

    def build(db):
        db.execute("PRAGMA application_id = 1196444487")  # 'GPKG'
        db.execute("PRAGMA user_version = 10400")
        db.execute("CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, "
                   "organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, "
                   "definition TEXT NOT NULL, description TEXT)")
        db.executemany("INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)", [
            ("Undefined cartesian SRS", -1, "NONE", -1, "undefined", None),
            ("Undefined geographic SRS", 0, "NONE", 0, "undefined", None),
            ("WGS 84 geodetic", 4326, "EPSG", 4326, WGS84_WKT, None),
            ("OSGB36 / British National Grid", 27700, "EPSG", 27700, BNG_WKT, None),
        ])
        db.execute("CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, "
                   "identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME NOT NULL, "
                   "min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER)")
        db.execute("INSERT INTO gpkg_contents VALUES (?, 'features', ?, ?, ?, ?, ?, ?, ?, ?)",
                   (layer.name, layer.name, ctx["product"].name, stamp, *box, srs_id))
        db.execute("CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, "
                   "geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, "
                   "m TINYINT NOT NULL, PRIMARY KEY (table_name, column_name))")
        db.execute("INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, ?, 0, 0)",
                   (layer.name, layer.geometry.upper(), srs_id))
        columns = ", ".join(f'"{name}" {sql_types[kind]}' for name, kind in layer.fields)
        db.execute(f'CREATE TABLE "{layer.name}" (fid INTEGER PRIMARY KEY, geom {layer.geometry.upper()}, {columns})')
        marks = ", ".join("?" * (len(layer.fields) + 1))
        db.executemany(f'INSERT INTO "{layer.name}" (geom, {", ".join(chr(34) + n + chr(34) for n, _ in layer.fields)}) '
                       f"VALUES ({marks})",
                       [(gpkg_geometry(layer.geometry, g, srs_id), *[attrs[n] for n, _ in layer.fields])
                        for g, attrs in features])

    return {f"Data/{stem}.gpkg": sqlite_bytes(build)}


def write_mbtiles(layer: Layer, features, stem: str, ctx) -> dict[str, bytes]:
    """An MBTiles container; the tiles are gzip-compressed stand-ins, not real vector tiles."""
    import gzip

    product = ctx["product"]
    rng = seeded("tiles", product.id, ctx["area"])

    def build(db):
        db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        db.executemany("INSERT INTO metadata VALUES (?, ?)", [
            ("name", product.name), ("format", "pbf"), ("minzoom", "0"), ("maxzoom", "4"),
            ("bounds", "-8.8,49.8,2.0,60.9"), ("center", "-2.0,54.5,3"),
            ("attribution", "Demo data for Download Explorer"),
            ("json", json.dumps({"vector_layers": [{"id": layer.name, "fields": dict(
                (n, "String" if k == "text" else "Number") for n, k in layer.fields)}]})),
        ])
        db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
        db.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
        rows = []
        for z in range(0, 4):
            for x in range(2**z):
                for y in range(2**z):
                    if z > 1 and rng.random() < 0.5:
                        continue  # sea: no tile
                    payload = f"{layer.name} z{z}/{x}/{y} ".encode() * 4 + rng.randbytes(24 * (z + 1))
                    rows.append((z, x, y, gzip.compress(payload, mtime=0)))
        db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", rows)

    return {f"Data/{stem}.mbtiles": sqlite_bytes(build)}


def raster_picture(product: "Product", area: str, style: str, size: tuple[int, int]) -> Image.Image:
    """A small map image for a raster file: a window onto the product's own picture."""
    base = product.raster_base()
    rng = seeded("window", product.id, area)
    w, h = size
    scale = rng.uniform(2.2, 3.5) if area != "GB" else H / h
    cw, ch = min(W, int(w * scale)), min(H, int(h * scale))
    x, y = rng.randint(0, W - cw), rng.randint(0, H - ch)
    image = base.crop((x, y, x + cw, y + ch)).resize(size, Image.Resampling.LANCZOS)
    if style == "Backdrop":
        image = Image.blend(ImageOps.grayscale(image).convert("RGB"), image, 0.35)
        image = Image.blend(image, Image.new("RGB", size, (255, 255, 255)), 0.35)
    return image.quantize(colors=32, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def tiff_bytes(image: Image.Image, box, geo: bool) -> bytes:
    info = TiffImagePlugin.ImageFileDirectory_v2()
    if geo:
        w, h = image.size
        info[33550] = ((box[2] - box[0]) / w, (box[3] - box[1]) / h, 0.0)  # ModelPixelScale
        info.tagtype[33550] = 12
        info[33922] = (0.0, 0.0, 0.0, float(box[0]), float(box[3]), 0.0)  # ModelTiepoint: top-left
        info.tagtype[33922] = 12
        # GeoKeyDirectory: projected, pixel-is-area, EPSG:27700.
        info[34735] = (1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, 27700)
        info.tagtype[34735] = 3
    out = io.BytesIO()
    image.save(out, "TIFF", compression="tiff_lzw", tiffinfo=info)
    return out.getvalue()


def world_file(image: Image.Image, box) -> bytes:
    w, h = image.size
    px, py = (box[2] - box[0]) / w, (box[3] - box[1]) / h
    return f"{px:.4f}\n0.0\n0.0\n{-py:.4f}\n{box[0] + px / 2:.4f}\n{box[3] - py / 2:.4f}\n".encode()


def write_raster(layer, features, stem: str, ctx) -> dict[str, bytes]:
    area, box = ctx["area"], ctx["box"]
    size = (140, 260) if area == "GB" else (64, 64)
    image = raster_picture(ctx["product"], area, ctx["subformat"] or "", size)
    geo = ctx["format"] == "GeoTIFF"
    files = {f"Data/{stem}.tif": tiff_bytes(image, box, geo)}
    if not geo:
        files[f"Data/{stem}.tfw"] = world_file(image, box)
    return files


def write_ascii_grid(layer, features, stem: str, ctx) -> dict[str, bytes]:
    """Terrain heights as an Esri ASCII grid, plus a GML grid coverage header."""
    box = ctx["box"]
    cols, rows = (70, 130) if ctx["area"] == "GB" else (20, 20)
    cell = (box[2] - box[0]) // cols
    scene = ctx["product"].scene()
    values = list(scene.height.resize((cols, rows), Image.Resampling.BILINEAR).tobytes())
    lines = [f"ncols {cols}", f"nrows {rows}", f"xllcorner {box[0]}", f"yllcorner {box[1]}",
             f"cellsize {cell}", "NODATA_value -9999"]
    for r in range(rows):
        lines.append(" ".join(f"{max(0, v - scene.sea_level) * 4.1:.1f}" for v in values[r * cols:(r + 1) * cols]))
    gml = (f'<?xml version="1.0" encoding="UTF-8"?>\n<gml:RectifiedGridCoverage xmlns:gml="http://www.opengis.net/gml" '
           f'gml:id="{stem}">\n  <gml:domainSet><gml:RectifiedGrid dimension="2" srsName="urn:ogc:def:crs:EPSG::27700">'
           f'<gml:limits><gml:GridEnvelope><gml:low>0 0</gml:low><gml:high>{cols - 1} {rows - 1}</gml:high>'
           f'</gml:GridEnvelope></gml:limits><gml:origin><gml:Point><gml:pos>{box[0]} {box[3]}</gml:pos></gml:Point>'
           f'</gml:origin><gml:offsetVector>{cell} 0</gml:offsetVector><gml:offsetVector>0 -{cell}</gml:offsetVector>'
           f'</gml:RectifiedGrid></gml:domainSet>\n  <gml:rangeSet><gml:File><gml:fileName>{stem}.asc</gml:fileName>'
           f'<gml:fileStructure>Record Interleaved</gml:fileStructure></gml:File></gml:rangeSet>\n'
           f'</gml:RectifiedGridCoverage>\n')
    return {f"Data/{stem}.asc": ("\n".join(lines) + "\n").encode(), f"Data/{stem}.gml": gml.encode()}


def write_miniscale(layer, features, stem: str, ctx) -> dict[str, bytes]:
    """MiniScale's bundle: PostScript and Illustrator stand-ins and an LZW TIFF."""
    product = ctx["product"]
    image = raster_picture(product, "GB", "", (140, 260))
    eps = ["%!PS-Adobe-3.0 EPSF-3.0", "%%BoundingBox: 0 0 700 1300", f"%%Title: {product.name}",
           "%%Creator: Download Explorer demo", "%%EndComments", "0.6 0.8 0.9 setrgbcolor",
           "0 0 700 1300 rectfill"]
    rng = seeded("eps", product.id)
    for _ in range(120):
        x, y = rng.uniform(50, 650), rng.uniform(50, 1250)
        eps.append(f"newpath {x:.1f} {y:.1f} moveto {x + rng.uniform(-40, 40):.1f} "
                   f"{y + rng.uniform(-40, 40):.1f} lineto 0.8 0.2 0.2 setrgbcolor 1.5 setlinewidth stroke")
    eps += ["showpage", "%%EOF", ""]
    ai = ["%!PS-Adobe-3.0", "%%Creator: Adobe Illustrator(R) 24.0 (demo stand-in)", f"%%Title: {product.name}",
          "%%BoundingBox: 0 0 700 1300", "%%EndComments", "%%EOF", ""]
    return {
        f"Data/EPS/{stem}.eps": "\n".join(eps).encode(),
        f"Data/Illustrator/{stem}.ai": "\n".join(ai).encode(),
        f"Data/TIFF-LZW/{stem}.tif": tiff_bytes(image, GB_BOX, geo=False),
        f"Data/TIFF-LZW/{stem}.tfw": world_file(image, GB_BOX),
    }


@dataclass(frozen=True)
class Format:
    """A format a product is offered in, with its file-name code and writer."""

    format: str
    subformat: str | None
    code: str
    writer: object
    gb_only: bool = False  # offered for the GB area only (the squares lack it)


SHP = ("ESRI® Shapefile", None, "essh", write_shapefile)
GML3 = ("GML", "3", "gml3", write_gml)
GML32 = ("GML", "3.2", "gml32", write_gml)
TAB = ("MapInfo® TAB", None, "mitab", write_mapinfo)
GPKG = ("GeoPackage", None, "gpkg", write_geopackage)
MBTILES = ("Vector Tiles", "(MBTiles)", "mbtiles", write_mbtiles)
CSV = ("CSV", None, "csv", write_csv)
RGB_TIF = ("GeoTIFF", "Full Colour", "rgbtif", write_raster)
BACKDROP_TIF = ("GeoTIFF", "Backdrop", "bdtif", write_raster)
LZW_TIF = ("TIFF-LZW", None, "tif", write_raster)
GEOJSON = ("GeoJSON", None, "geojson", write_geojson)
ASCII_GRID = ("ASCII Grid and GML (Grid)", None, "gagg", write_ascii_grid)
CONTOUR_SHP = ("ESRI® Shapefile", "(Contours)", "cesh", write_shapefile)
CONTOUR_GML = ("GML", "(Contours)", "cgml", write_gml)
MINISCALE_ZIP = ("Zip file (containing EPS, Illustrator and TIFF-LZW)", None, "zip", write_miniscale)


def fmt(spec, gb_only: bool = False) -> Format:
    return Format(*spec, gb_only=gb_only)


# --------------------------------------------------------------------------------------
# Products
# --------------------------------------------------------------------------------------

DOCS = "https://docs.example.org/products"


@dataclass
class Product:
    id: str
    name: str
    short: str  # file-name prefix, as the real service's files use
    description: str
    version: str
    category: str | None
    structures: list[str]
    theme: str
    formats: list[Format]
    areas: list[str]
    gb_features: int  # features in a GB (or UK) file
    square_features: int  # features in an all-land square's file
    documentation: str | None = "auto"
    warning: str | None = None
    images: int = 2
    _base: Image.Image | None = field(default=None, repr=False)
    _scene: Scene | None = field(default=None, repr=False)

    @property
    def documentation_url(self) -> str | None:
        if self.documentation == "auto":
            slug = "".join("-" + c.lower() if c.isupper() else c for c in self.id).strip("-")
            return f"{DOCS}/{slug}/"
        return self.documentation

    def date(self) -> tuple[int, int, int, int, int, int]:
        """The release's date, used as every zip entry's timestamp."""
        try:
            year, month = (int(x) for x in self.version.split("-"))
            return (year, month, 1, 0, 0, 0)
        except ValueError:
            return (2024, 3, 1, 0, 0, 0)  # free-form partner versions

    def raster_base(self) -> Image.Image:
        """The product's picture at drawing size: raster files are windows onto it."""
        if self._base is None:
            self._base = THEMES[self.theme](f"{self.id}-raster", 0)
        return self._base

    def scene(self) -> Scene:
        if self._scene is None:
            self._scene = Scene(f"{self.id}-raster", sea=0.2)
        return self._scene

    def feature_count(self, area: str) -> int:
        if area in SQUARES:
            return max(1, round(self.square_features * LAND_SHARE[area] + 0.5))
        return self.gb_features if area != "NI" else self.gb_features // 4


ALL_SQUARES = list(SQUARES)
GB_ONLY = ["GB"]

PRODUCTS = [
    Product("250kScaleColourRaster", "1:250 000 Scale Colour Raster", "ras250",
            "A regional-scale colour map of Great Britain, showing towns and villages, roads, railways and "
            "administrative boundaries over hill-shaded relief. Supplied as tiled raster images for use "
            "as a backdrop in GIS.",
            "2025-06", "Mapping", ["Raster"], "colour-raster", [fmt(LZW_TIF)], GB_ONLY, 1, 1),
    Product("BoundaryLine", "Boundary-Line", "bdline",
            "Every administrative and electoral boundary in Great Britain, from counties and districts to "
            "wards and parliamentary constituencies. Updated twice a year.",
            "2025-05", "Boundaries", ["Vector"], "boundaries",
            [fmt(SHP), fmt(GML3), fmt(TAB), fmt(GPKG), fmt(MBTILES)], GB_ONLY, 200, 0),
    Product("CodePointOpen", "Code-Point Open", "codepo",
            "A precise point for each of the 1.7 million postcode units in Great Britain, with the codes of "
            "the health and administrative areas it falls in.",
            "2026-02", "Addresses", ["Vector"], "postcodes", [fmt(CSV), fmt(GPKG)], GB_ONLY, 260, 0,
            warning="This release holds 312 postcodes with positional quality 90 (no coordinates) after a "
                    "supplier delay. A corrected release follows in 2026-05."),
    Product("GBOverviewMaps", "GB Overview Maps", "gbovmp",
            "Small-scale overview maps of Great Britain for page layouts and presentations, in full colour "
            "on a shaded-relief background.",
            "2023-01", "Mapping", ["Raster"], "overview", [fmt(RGB_TIF)], GB_ONLY, 1, 1),
    Product("MiniScale", "MiniScale", "minisc",
            "The whole of Great Britain on a single sheet at 1:1 000 000, with roads, railways, towns and "
            "the National Grid. Supplied as print-ready artwork and as a georeferenced image.",
            "2026-01", "Mapping", ["Raster"], "miniscale", [fmt(MINISCALE_ZIP)], GB_ONLY, 1, 1),
    Product("BuiltUpAreas", "OS Open Built Up Areas", "opbua",
            "The extent of every built-up area of 20 hectares or more in Great Britain, with its name and a "
            "statistical code.",
            "2024-06", "Names & places", ["Vector"], "builtup", [fmt(CSV), fmt(GPKG)], GB_ONLY, 300, 0),
    Product("OpenNames", "OS Open Names", "opname",
            "A gazetteer of place names, road names and postcodes in Great Britain, each with a location. "
            "Ideal for search boxes and geocoding.",
            "2026-04", "Names & places", ["Vector"], "names", [fmt(CSV), fmt(GML3), fmt(GPKG)], GB_ONLY, 170, 0),
    Product("OpenRivers", "OS Open Rivers", "oprvrs",
            "The watercourses of Great Britain as a connected network of links and nodes, with names, flow "
            "direction and form.",
            "2025-10", "Water networks", ["Vector"], "rivers",
            [fmt(SHP), fmt(GML3), fmt(GPKG), fmt(MBTILES)], GB_ONLY, 110, 0),
    Product("OpenRoads", "OS Open Roads", "oproad",
            "A high-level view of the road network of Great Britain: every road from motorways to country "
            "lanes as connected links, with classifications, names and road numbers.",
            "2026-10", "Transport networks", ["Vector"], "roads",
            [fmt(SHP), fmt(GML3), fmt(GPKG), fmt(MBTILES)], GB_ONLY, 100, 0),
    Product("OpenUPRN", "OS Open UPRN", "osopenuprn",
            "Every Unique Property Reference Number in Great Britain with its coordinates, the open key to "
            "linking address data sets.",
            "2026-03", "Addresses", ["Vector"], "addresses", [fmt(CSV), fmt(GPKG)], GB_ONLY, 320, 0),
    Product("OpenUSRN", "OS Open USRN", "osopenusrn",
            "Every Unique Street Reference Number in Great Britain with a simplified line for its street, "
            "for linking street and highway records.",
            "2026-03", "Transport networks", ["Vector"], "streets", [fmt(GPKG)], GB_ONLY, 260, 0),
    Product("OpenZoomstack", "OS Open Zoomstack", "opzoom",
            "A single, seamless map of Great Britain from national to street level, styled and ready to use "
            "as vector tiles or in desktop GIS.",
            "2025-12", "Mapping", ["Vector"], "zoomstack", [fmt(GPKG), fmt(MBTILES)], GB_ONLY, 140, 0),
    Product("Terrain50", "OS Terrain 50", "terr50",
            "The landscape of Great Britain as a 50 m grid of heights and as contours at 10 m intervals. Use "
            "it for line-of-sight, flood and landscape studies.",
            "2025-07", "Land & height", ["Raster", "Vector"], "terrain",
            [fmt(ASCII_GRID), fmt(CONTOUR_SHP), fmt(GPKG), fmt(CONTOUR_GML), fmt(MBTILES)], GB_ONLY, 120, 0),
    Product("OpenGreenspace", "OS Open Greenspace", "opgrsp",
            "Parks, playing fields, allotments and other green spaces open to the public, with their "
            "access points. Available for the whole of Great Britain or by 100 km grid square.",
            "2025-10", "Land & height", ["Vector"], "greenspace",
            [fmt(SHP), fmt(GML3), fmt(GPKG), fmt(MBTILES, gb_only=True)],
            ["GB"] + [s for s in SQUARES if s not in ("HW", "HX", "OV")], 150, 10),
    Product("OpenTOID", "OS Open TOID", "optoid",
            "The TOID (topographic identifier) and a point for every feature in the national topographic "
            "database, so other data can reference them. Supplied by 100 km grid square.",
            "2026-01", "Mapping", ["Vector"], "toid", [fmt(CSV), fmt(GPKG)],
            [s for s in SQUARES if s != "OV"], 0, 18),
    Product("OpenMapLocal", "OS Open Map - Local", "opmplc",
            "Our most detailed open map: buildings, roads, water, woodland and named places at street level. "
            "Available as vector data and as ready-made raster tiles, for Great Britain or by grid square.",
            "2026-04", "Mapping", ["Raster", "Vector"], "local",
            [fmt(SHP), fmt(GML3), fmt(RGB_TIF), fmt(GPKG)], ["GB"] + ALL_SQUARES, 150, 9),
    Product("VectorMapDistrict", "OS VectorMap District", "vmd",
            "A mid-scale map of Great Britain for district and regional work, as vector features and as "
            "full-colour or backdrop raster tiles.",
            "2025-11", "Mapping", ["Raster", "Vector"], "district",
            [fmt(SHP), fmt(BACKDROP_TIF), fmt(RGB_TIF), fmt(GML32), fmt(GPKG)], ["GB"] + ALL_SQUARES, 120, 8),
    Product("PartnerUKCoastline", "UK Coastal Cells (partner data)", "ukcoast",
            "Coastal management cells around the United Kingdom, published by a partner organisation. "
            "Versions follow the partner's numbering; Northern Ireland is supplied separately.",
            "Version 5", "Boundaries", [], "partner", [fmt(GPKG), fmt(GEOJSON)], ["UK", "GB", "NI"], 140, 0,
            documentation=None),
]


def zip_bytes(entries: dict[str, bytes], date: tuple[int, ...]) -> bytes:
    """A zip archive with fixed timestamps and permissions, so the bytes are reproducible."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=date)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=9)
    return out.getvalue()


def box_text(box) -> str:
    return f"E {box[0]} to {box[2]}, N {box[1]} to {box[3]} (EPSG:27700, British National Grid)"


def product_readme(product: Product, area: str, f: Format, layer: Layer | None, count: int, names) -> bytes:
    fmt_name = f.format + (f" {f.subformat}" if f.subformat else "")
    if product.id == "PartnerUKCoastline":
        extent = "longitude/latitude (EPSG:4326)"
    else:
        extent = box_text(area_box(area))
    lines = [
        f"{product.name}",
        "=" * len(product.name),
        "",
        f"Product id:  {product.id}",
        f"Version:     {product.version}",
        f"Area:        {area}, {area_label(area)}",
        f"Extent:      {extent}",
        f"Format:      {fmt_name}",
    ]
    if layer is not None and f.writer not in (write_raster, write_miniscale, write_ascii_grid):
        lines.append(f"Features:    {count} {layer.name}")
    lines += [f"Files:       {', '.join(n.split('/')[-1] for n in names)}", ""]
    lines += wrap(product.description) + [""]
    lines += wrap("This archive is part of the Download Explorer demo catalogue. Its features are made up, "
                  "generated from fixed seeds to look like the real product; they were never surveyed and "
                  "must not be used for anything but trying the software.")
    if product.documentation_url:
        lines += ["", f"Documentation: {product.documentation_url}"]
    return ("\r\n".join(lines) + "\r\n").encode()


def wrap(text: str, width: int = 78) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width)


def product_file(product: Product, area: str, f: Format) -> tuple[str, bytes]:
    """The file name and zip bytes of one download of a product."""
    stem = f"{product.short}_{f.code}_{area}".lower()
    layer = layer_for(product) if f.writer not in (write_raster, write_miniscale, write_ascii_grid) else None
    features = []
    count = product.feature_count(area)
    if layer is not None:
        rng = seeded("features", product.id, area, f.code)
        features = [layer.make(rng, i, area) for i in range(count)]
    ctx = {"product": product, "area": area, "box": area_box(area), "format": f.format,
           "subformat": f.subformat, "date": product.date()}
    data = f.writer(layer, features, stem, ctx)
    readme = product_readme(product, area, f, layer, count, list(data))
    return f"{stem}.zip", zip_bytes({"Doc/README.txt": readme, **data}, product.date())


# --------------------------------------------------------------------------------------
# Data packages
# --------------------------------------------------------------------------------------
# A package's versions list files as (file name, edition). A file keeps its bytes while
# its edition stays the same, so comparing versions shows added, removed, changed and
# unchanged files.


@dataclass
class PackageVersion:
    id: str
    created_on: str
    reason: str
    supply_type: str
    product_version: str
    files: list[tuple[str, int]]


@dataclass
class Package:
    id: str
    name: str
    created_on: str
    product_id: str
    product_name: str
    format: str
    kind: str  # which made-up content its files hold
    versions: list[PackageVersion]


def tile_box(tile: str) -> tuple[int, int, int, int]:
    """Extent of a 10 km tile such as `SU41`."""
    e, n = square_origin(tile[:2])
    e += int(tile[2]) * 10_000
    n += int(tile[3]) * 10_000
    return (e, n, e + 10_000, n + 10_000)


STREETS = ["High Street", "Church Road", "Station Road", "London Road", "Mill Lane", "Victoria Road",
           "Park Avenue", "The Avenue", "Queens Road", "Kings Road", "Manor Way", "Shirley Road",
           "Portswood Road", "Bassett Avenue", "Winchester Road", "Cathedral Road", "Penarth Road",
           "Whiteladies Road", "Gloucester Road", "Stokes Croft"]


def package_layer(package: Package, tile: str) -> Layer:
    box = tile_box(tile)
    town = {"SU": "SOUTHAMPTON", "ST": "BRISTOL" if int(tile[2]) >= 5 else "CARDIFF"}.get(tile[:2], "DEMO")
    if package.kind == "addresses":
        def make(rng, i, area):
            e, n = round(rng.uniform(box[0], box[2]), 2), round(rng.uniform(box[1], box[3]), 2)
            lat, lon = grid_to_latlon(e, n)
            return (e, n), {"UPRN": rng.randint(10_000_000_000, 10_099_999_999),
                            "UDPRN": rng.randint(10_000_000, 59_999_999),
                            "BUILDING_NUMBER": rng.randint(1, 240), "THOROUGHFARE": rng.choice(STREETS).upper(),
                            "POST_TOWN": town, "POSTCODE": postcode(rng, tile[:2]),
                            "X_COORDINATE": e, "Y_COORDINATE": n, "LATITUDE": round(lat, 7),
                            "LONGITUDE": round(lon, 7), "RPC": rng.choice((1, 1, 1, 2)),
                            "CLASS": rng.choice(("RD02", "RD03", "RD04", "RD06", "CR01", "CO01")),
                            "CHANGE_TYPE": "I"}
        fields = [("UPRN", "int"), ("UDPRN", "int"), ("BUILDING_NUMBER", "int"), ("THOROUGHFARE", "text"),
                  ("POST_TOWN", "text"), ("POSTCODE", "text"), ("X_COORDINATE", "real"), ("Y_COORDINATE", "real"),
                  ("LATITUDE", "real"), ("LONGITUDE", "real"), ("RPC", "int"), ("CLASS", "text"),
                  ("CHANGE_TYPE", "text")]
        return Layer("AddressBase", "Point", fields, make)
    if package.kind == "topography":
        def make(rng, i, area):
            e, n = rng.uniform(box[0] + 50, box[2] - 50), rng.uniform(box[1] + 50, box[3] - 50)
            group, theme, code = rng.choice((("Building", "Buildings", 10021), ("Road Or Track", "Roads Tracks And Paths", 10172),
                                             ("General Surface", "Land", 10056), ("Natural Environment", "Land", 10111),
                                             ("Inland Water", "Water", 10089)))
            ring = polygon_at(rng, e, n, rng.uniform(5, 40), rng.randint(4, 7))
            return ring, {"fid": f"osgb{rng.randint(1000000000000000, 1000005999999999)}",
                          "version": rng.randint(1, 9), "featureCode": code, "theme": theme,
                          "descriptiveGroup": group, "make": rng.choice(("Manmade", "Natural", "Multiple")),
                          "calculatedAreaValue": round(rng.uniform(20, 4000), 2), "changeDate": "2020-11-30"}
        fields = [("fid", "text"), ("version", "int"), ("featureCode", "int"), ("theme", "text"),
                  ("descriptiveGroup", "text"), ("make", "text"), ("calculatedAreaValue", "real"),
                  ("changeDate", "text")]
        return Layer("TopographicArea", "Polygon", fields, make)
    if package.kind == "highways":
        def make(rng, i, area):
            e, n = rng.uniform(box[0], box[2]), rng.uniform(box[1], box[3])
            line = line_from(rng, e, n, rng.randint(2, 6), 90, box)
            cls = rng.choice(("A Road", "B Road", "Classified Unnumbered", "Unclassified", "Unclassified"))
            return line, {"gml_id": f"osgb{rng.randint(4000000020000000, 4000000029999999)}",
                          "roadClassification": cls, "routeHierarchy": rng.choice(("A Road", "Minor Road", "Local Road")),
                          "formOfWay": rng.choice(("Single Carriageway", "Dual Carriageway", "Roundabout")),
                          "operationalState": "Open", "roadName": rng.choice(STREETS),
                          "length": round(sum(math.dist(p, q) for p, q in zip(line, line[1:])), 1),
                          "highwayAuthority": "Cardiff Council"}
        fields = [("gml_id", "text"), ("roadClassification", "text"), ("routeHierarchy", "text"),
                  ("formOfWay", "text"), ("operationalState", "text"), ("roadName", "text"), ("length", "real"),
                  ("highwayAuthority", "text")]
        return Layer("RoadLink", "LineString", fields, make)
    if package.kind == "rami":
        def make(rng, i, area):
            e, n = rng.uniform(box[0], box[2]), rng.uniform(box[1], box[3])
            return (round(e, 2), round(n, 2)), {
                "gml_id": f"osgb{rng.randint(4000000030000000, 4000000039999999)}",
                "restriction": rng.choice(("No Turn", "One Way", "Max Height 4.4m", "Max Weight 7.5t", "Bus Gate")),
                "exemption": rng.choice(("", "Buses", "Cycles", "Access")),
                "timeInterval": rng.choice(("", "Mon-Fri 07:00-10:00", "At Any Time"))}
        return Layer("Restriction", "Point", [("gml_id", "text"), ("restriction", "text"), ("exemption", "text"),
                                              ("timeInterval", "text")], make)
    if package.kind == "heights":
        def make(rng, i, area):
            e, n = rng.uniform(box[0], box[2]), rng.uniform(box[1], box[3])
            ground = rng.uniform(5, 90)
            rel = rng.uniform(2.5, 32)
            return (round(e, 2), round(n, 2)), {
                "OS_TOPO_TOID": f"osgb{rng.randint(1000000000000000, 1000005999999999)}",
                "OS_TOPO_VERSION": rng.randint(1, 12), "BHA_ProcessDate": "2022-10-12",
                "TileRef": tile, "AbsHMin": round(ground, 1), "AbsH2": round(ground + rel * 0.7, 1),
                "AbsHMax": round(ground + rel, 1), "RelH2": round(rel * 0.7, 1), "RelHMax": round(rel, 1),
                "BHA_Conf": rng.choice((0, 0, 1))}
        fields = [("OS_TOPO_TOID", "text"), ("OS_TOPO_VERSION", "int"), ("BHA_ProcessDate", "text"),
                  ("TileRef", "text"), ("AbsHMin", "real"), ("AbsH2", "real"), ("AbsHMax", "real"),
                  ("RelH2", "real"), ("RelHMax", "real"), ("BHA_Conf", "int")]
        return Layer("BuildingHeight", "Point", fields, make)
    raise KeyError(package.kind)


def edition_features(package: Package, file_name: str, tile: str, edition: int):
    """The features of one edition of a file: each edition changes some and adds a few."""
    layer = package_layer(package, tile)
    rng = seeded("package", package.id, file_name)
    features = [layer.make(rng, i, tile) for i in range(rng.randint(40, 70))]
    for ed in range(2, edition + 1):
        rng = seeded("package", package.id, file_name, ed)
        for i in rng.sample(range(len(features)), k=len(features) // 8):
            geom, attrs = layer.make(rng, i, tile)
            attrs = dict(attrs)
            if "CHANGE_TYPE" in attrs:
                attrs["CHANGE_TYPE"] = "U"
            features[i] = (features[i][0], attrs)
        features += [layer.make(rng, len(features) + j, tile) for j in range(rng.randint(3, 9))]
    return layer, features


PACKAGE_WRITERS = {"CSV": write_csv, "GML": write_gml, "GeoPackage": write_geopackage}


def package_file(package: Package, file_name: str, edition: int, date: tuple[int, ...]) -> bytes:
    tile = next(part for part in file_name.replace(".", "_").split("_") if len(part) == 4 and part[2:].isdigit())
    layer, features = edition_features(package, file_name, tile, edition)
    if "deletions" in file_name:
        features = [(g, {**attrs, "CHANGE_TYPE": "D"}) for g, attrs in features]
    stem = file_name.removesuffix(".zip")
    fmt_name = package.format
    writer = PACKAGE_WRITERS[fmt_name]
    ctx = {"product": Product(package.product_id, package.product_name, "", "", "", None, [], "", [], [], 0, 0),
           "area": tile, "box": tile_box(tile), "format": fmt_name, "subformat": "3.2" if fmt_name == "GML" else None,
           "date": date}
    data = writer(layer, features, stem, ctx)
    readme = [
        f"{package.product_name}: {package.name}",
        "",
        f"Data package: {package.id}",
        f"Tile:         {tile}, {box_text(tile_box(tile))}",
        f"Format:       {fmt_name}",
        f"Edition:      {edition} of this file ({len(features)} {layer.name} records)",
        "",
    ] + wrap("Part of the Download Explorer demo catalogue: made-up records in the shape of the real "
             "product, generated from fixed seeds.")
    return zip_bytes({"Doc/README.txt": ("\r\n".join(readme) + "\r\n").encode(), **data}, date)


V = PackageVersion
PROJECTS = [
    ("Alpha", "alpha-demo-key", "alpha-demo-secret", [
        Package("0040046952", "Southampton Addresses", "2021-01-20", "ABPOSTSLA", "AddressBase", "CSV",
                "addresses", [
                    V("110012", "2021-01-20", "INITIAL", "FULL", "E37 December 2015 Update",
                      [("SU41_addresses.zip", 1), ("SU42_addresses.zip", 1), ("SU31_addresses.zip", 1)]),
                    V("118429", "2021-04-21", "UPDATE", "COU", "E39 March 2016 Update",
                      [("SU41_addresses.zip", 2), ("SU42_addresses.zip", 1), ("COU_E39_deletions_SU41.zip", 1)]),
                    V("124307", "2021-08-11", "EXPANSION", "FULL", "E40 June 2016 Update",
                      [("SU31_addresses.zip", 1), ("SU41_addresses.zip", 2), ("SU42_addresses.zip", 2),
                       ("SU51_addresses.zip", 1)]),
                    V("131866", "2022-02-02", "RESUPPLY", "FULL", "E40 June 2016 Update",
                      [("SU31_addresses.zip", 1), ("SU41_addresses.zip", 3), ("SU42_addresses.zip", 2),
                       ("SU51_addresses.zip", 1)]),
                ]),
        Package("0040047411", "Hampshire Topography", "2021-03-02", "MMTOPO", "OS MasterMap Topography Layer",
                "GML", "topography", [
                    V("112540", "2021-03-02", "INITIAL", "FULL", "Epoch 381",
                      [("mastermap-topo_SU40.zip", 1), ("mastermap-topo_SU41.zip", 1)]),
                    V("117002", "2021-04-06", "UPDATE", "COU", "Epoch 382",
                      [("mastermap-topo_SU40.zip", 2), ("mastermap-topo_SU41.zip", 2)]),
                    V("120913", "2021-06-15", "EXPANSION", "FULL", "Epoch 383",
                      [("mastermap-topo_SU40.zip", 2), ("mastermap-topo_SU41.zip", 3),
                       ("mastermap-topo_SU50.zip", 1), ("mastermap-topo_SU51.zip", 1)]),
                ]),
    ]),
    ("Beta", "beta-demo-key", "beta-demo-secret", [
        Package("0040062213", "Cardiff Highways", "2022-05-17", "MMHWYRD", "OS MasterMap Highways Network - Roads",
                "GeoPackage", "highways", [
                    V("140118", "2022-05-17", "ONLINE_ORDER", "FULL", "Highways April 2022",
                      [("highways_roads_ST17.zip", 1), ("highways_roads_ST18.zip", 1)]),
                    V("146702", "2022-08-09", "UPDATE", "COU", "Highways July 2022",
                      [("highways_roads_ST17.zip", 2), ("highways_roads_ST18.zip", 1)]),
                    V("152390", "2022-11-08", "UPDATE", "FULL", "Highways October 2022",
                      [("highways_roads_ST17.zip", 2), ("highways_roads_ST18.zip", 2),
                       ("highways_rami_ST17.zip", 1)]),
                    V("159871", "2023-02-07", "UPDATE", "COU", "Highways January 2023",
                      [("highways_roads_ST17.zip", 3), ("highways_rami_ST17.zip", 1)]),
                    V("163004", "2023-05-02", "RESUPPLY", "FULL", "Highways January 2023",
                      [("highways_roads_ST17.zip", 3), ("highways_roads_ST18.zip", 3),
                       ("highways_rami_ST17.zip", 2)]),
                ]),
        Package("0040071890", "Bristol Buildings", "2023-01-24", "BHA", "OS MasterMap Building Height Attribute",
                "CSV", "heights", [
                    V("155560", "2023-01-24", "INITIAL", "FULL", "BHA 2022 Release 4",
                      [("bha_ST57.zip", 1), ("bha_ST58.zip", 1), ("bha_ST67.zip", 1)]),
                    V("161122", "2023-04-18", "UPDATE", "FULL", "BHA 2023 Release 1",
                      [("bha_ST57.zip", 2), ("bha_ST58.zip", 1)]),
                    V("167300", "2023-07-11", "EXPANSION", "FULL", "BHA 2023 Release 2",
                      [("bha_ST57.zip", 2), ("bha_ST58.zip", 2), ("bha_ST67.zip", 2), ("bha_ST68.zip", 1)]),
                ]),
    ]),
]


# --------------------------------------------------------------------------------------
# The catalogue
# --------------------------------------------------------------------------------------


def area_order(area: str) -> tuple[int, int]:
    if area == "GB":
        return (0, 0)
    if area in SQUARES:
        return (1, SQUARES.index(area))
    return (2, 0)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def build(out: Path) -> dict:
    for folder in ("files", "packages", "images"):
        shutil.rmtree(out / folder, ignore_errors=True)
    products = []
    for product in PRODUCTS:
        print(f"  {product.id}", flush=True)
        images = []
        for index in range(product.images):
            small, large = thumbnails(product, index)
            images.append({"small": f"images/{product.id}-{index}.jpg",
                           "large": f"images/{product.id}-{index}-large.jpg"})
            write(out / images[-1]["small"], small)
            write(out / images[-1]["large"], large)
        downloads = []
        for area in product.areas:
            for f in product.formats:
                if f.gb_only and area != "GB":
                    continue
                name, data = product_file(product, area, f)
                path = f"files/{product.id}/{name}"
                write(out / path, data)
                entry = {"area": area, "format": f.format}
                if f.subformat:
                    entry["subformat"] = f.subformat
                entry["path"] = path
                downloads.append(entry)
        record = {"id": product.id, "name": product.name, "description": product.description,
                  "version": product.version}
        if product.category:
            record["category"] = product.category
        if product.documentation_url:
            record["documentationUrl"] = product.documentation_url
        if product.structures:
            record["dataStructures"] = product.structures
        if product.warning:
            record["warning"] = product.warning
        record["images"] = images
        record["downloads"] = downloads
        products.append(record)

    projects = []
    for name, key, secret, packages in PROJECTS:
        print(f"  project {name}", flush=True)
        records = []
        for package in packages:
            first_seen: dict[tuple[str, int], str] = {}
            versions = []
            for version in package.versions:
                files = []
                for file_name, edition in version.files:
                    created = first_seen.setdefault((file_name, edition), version.created_on)
                    date = tuple(int(x) for x in created.split("-")) + (0, 0, 0)
                    path = f"packages/{package.id}/{version.id}/{file_name}"
                    write(out / path, package_file(package, file_name, edition, date))
                    files.append(path)
                versions.append({"id": version.id, "createdOn": version.created_on, "reason": version.reason,
                                 "supplyType": version.supply_type, "productVersion": version.product_version,
                                 "productFormat": package.format, "format": package.format, "files": files})
            records.append({"id": package.id, "name": package.name, "createdOn": package.created_on,
                            "productId": package.product_id, "productName": package.product_name,
                            "versions": versions})
        projects.append({"name": name, "keySha256": sha256(key), "secretSha256": sha256(secret),
                         "dataPackages": records})
    catalogue = {"products": products, "projects": projects}
    write(out / "catalogue.json", (json.dumps(catalogue, indent=2, ensure_ascii=False) + "\n").encode())
    return catalogue


def check(out: Path, catalogue: dict) -> None:
    """Fail loudly if the catalogue breaks the format's rules."""
    allowed_areas = {"GB", *SQUARES}
    ids = set()
    for product in catalogue["products"]:
        assert product["id"] not in ids, product["id"]
        ids.add(product["id"])
        names = [d["path"].rsplit("/", 1)[-1] for d in product["downloads"]]
        assert len(names) == len(set(names)), f"{product['id']}: duplicate file names"
        keys = [(d["area"], d["format"], d.get("subformat")) for d in product["downloads"]]
        assert len(keys) == len(set(keys)), f"{product['id']}: duplicate area/format"
        for d in product["downloads"]:
            assert (out / d["path"]).is_file(), d["path"]
            if product["id"] != "PartnerUKCoastline":
                assert d["area"] in allowed_areas, d["area"]
        for image in product["images"]:
            for size in ("small", "large"):
                assert (out / image[size]).is_file(), image[size]
        assert len(product["images"]) >= 2
    package_ids = set()
    for project in catalogue["projects"]:
        for package in project["dataPackages"]:
            assert package["id"] not in package_ids
            package_ids.add(package["id"])
            version_ids = [v["id"] for v in package["versions"]]
            assert len(version_ids) == len(set(version_ids))
            for version in package["versions"]:
                names = [p.rsplit("/", 1)[-1] for p in version["files"]]
                assert len(names) == len(set(names))
                for path in version["files"]:
                    assert (out / path).is_file(), path
    for path in out.rglob("*"):
        assert ".." not in path.relative_to(out).parts


def main() -> None:
    print(f"Writing the demo catalogue to {OUT}")
    catalogue = build(OUT)
    check(OUT, catalogue)
    files = [p for p in OUT.rglob("*") if p.is_file() and p.parent != OUT]
    total = sum(p.stat().st_size for p in files)
    print(f"{len(catalogue['products'])} products, {len(files)} files, {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
