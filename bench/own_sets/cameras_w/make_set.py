"""New wording over the cameras catalog: shoppers' and analysts' phrasings the question reader was
never tuned on, written blind to the reader code (nothing under ``dualgraph/``, ``tests/`` or
``docs/`` was read, and the system was not run while writing it), 2026-12-07.

The catalog is the base set's, byte for byte: this script loads ``bench/own_sets/cameras/make_set.py``
as a module and reuses its ``load()`` (1,000 CameraDatabase rows drawn with seed 2027, named
"<Brand> <Model>", one category "Digital Cameras", every column but ``image_file`` a spec under a
section with its raw string) and its ``write_catalog()``, so the same index serves both sets.
Aperture priority, shutter priority and digital zoom are said only in the page prose; everything
else asked here is a spec-table entry. The questions are new sentences; many ask entries the base
set never queries (Sensor size, Macro focus range, Exposure Compensation, White balance presets,
Screen resolution, Metering, Total megapixels, AAA batteries, Memory Stick / SmartMedia / CFexpress
storage, USB 3.0, height, rangefinder / pentamirror viewfinders, Also known as "(US)"), others
re-ask its concepts (weight, zoom, thickness, screen, megapixels, the three prose facts).

    python3 bench/own_sets/cameras_w/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/cameras_w/make_set.py --check     # questions.json is current
    python3 bench/own_sets/cameras_w/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* Missing data is never "no": a product whose field is empty or does not parse by the patterns
  below is left out of a filter, superlative, comparison, average or count on that field.
* Prose-only facts (``gt_retrieval_method`` "tkg") read what the page states (the base loader's
  ``says``): "has / offers / with / can / lets me" needs the page to say yes; "don't / lack /
  without / no / can't" needs the page to say no; a page that says nothing neither has nor lacks
  the fact (it is in neither list and in neither count). "S / Tv mode" is shutter priority,
  "Av mode" / "pick the f-stop myself" aperture priority. A yes/no question's gold is "yes" / "no".
* Comparisons: "under / less than / lighter than / thinner than / over / more than / bigger than /
  taller than / heavier than / before <year>" are strict; "at least / or more / or bigger / or
  later / or brighter / as close as / between A and B" are inclusive.
* Units, exact factors: weight is the grams of "Weight" (1 oz = 28.349523125 g, so "7 ounces" =
  198.446661875 g; "half a kilo" = 500 g, "a kilo" = 1000 g; a sum in kilos = grams / 1000).
  "Dimensions" are "width x height x depth mm": "how tall / stands" is the height, "thick /
  thinner" the depth; 1 in = 25.4 mm ("5 inches" = 127 mm, "an inch and a half" = 38.1 mm), 1 cm =
  10 mm. The screen is the inches of "Screen size". Macro distance is the cm of "Macro focus range"
  (mm = 10 x cm). The sensor is the "W x H mm" of "Sensor size" (the millimetres in brackets for
  inch types), compared by area W x H against 36 x 24 = 864 mm²; "Four Thirds" is a "Sensor size"
  starting with those words; a crop factor is the number of "Crop factor". Screen resolution is
  the dot count of "Screen resolution" (thousands separators "," or "." dropped; "640 x 360 dots"
  does not parse).
* Exposure compensation range is the largest magnitude of "Exposure Compensation" (±5 EV -> 5,
  "-2.1 - +1.5 EV" -> 2.1). White balance presets are the number in that field.
* As the base set: megapixels are "Effective megapixels" where filled, else "Megapixels"; optical
  zoom is the "Nx" of "Optical zoom" ("Yes" / "No" say nothing of the ratio); focal lengths are the
  35mm-equivalent ends of "Focal length (35mm equiv.)" (the wide end is the first number); the
  widest aperture is the first f-number of "Max aperture" ("f/1.8 or brighter" = at most 1.8);
  "xD cards" is "xd" in "Storage types". Total megapixels are the "Total megapixels" field alone.
  "1080p or better" means a "Max. video resolution" at least 1920 pixels wide.
* Batteries: "AA" / "AAA" are whole words in "Battery" (so "AAA" is not "AA"). Storage kinds are
  substrings of "Storage types", case-insensitive: "memory stick", "memorystick" (the Mavica's
  "MemoryStick via adapter" counts), "ms pro" or "ms duo" for Memory Stick; "smartmedia";
  "cfexpress" or "xqd". Viewfinder kinds are the field's words ("Optical (rangefinder)", "Optical
  (pentamirror)", starting with "Electronic"); "3D Matrix" metering is that substring of
  "Metering"; "USB 3.0" is a "USB" field starting with it. "Sold in the US as N" is "N(US)" in
  "Also known as".
* Brands compare as the file writes them ("Canons" = brand Canon). Superlatives and two-product
  comparisons are asserted to have one winner (a superlative tie becomes a list gold); a
  brand-vs-brand comparison (mean weight over the brand's products with a weight; a count) is
  asserted not to tie. "Which other X are lighter than P" leaves P out (strictly lighter).
  Averages and conversions are rounded as the question says, else given exactly (to 6 places).
"""

from __future__ import annotations

import random
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "questions.json"

sys.path.insert(0, str(HERE.parent))
from shared import (  # noqa: E402
    AGGREGATION,
    GROUP,
    INVERSE,
    MULTI,
    REASONING,
    SetBuilder,
    base_set,
    clean_number,
    set_main,
)

base = base_set("cameras")

load, write_catalog = base.load, base.write_catalog
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
OZ, INCH = base.OZ, 25.4


# ---- field readers (the patterns the docstring states)
def sensor_mm(c) -> tuple[float, float] | None:
    m = re.search(r"([\d.]+)\s*x\s*([\d.]+)\s*mm", c.f("Sensor size"))
    return (float(m.group(1)), float(m.group(2))) if m else None


def sensor_area(c) -> float | None:
    wh = sensor_mm(c)
    return wh[0] * wh[1] if wh else None


def cm(c, col: str) -> float | None:
    m = re.fullmatch(r"([\d.]+)\s*cm", c.f(col))
    return float(m.group(1)) if m else None


def ev(c) -> float | None:
    v = c.f("Exposure Compensation")
    m = re.match(r"±([\d.]+)\s*EV", v)
    if m:
        return float(m.group(1))
    m = re.match(r"-([\d.]+)\s*-\s*\+([\d.]+)\s*EV", v)
    return max(float(m.group(1)), float(m.group(2))) if m else None


def wb(c) -> float | None:
    v = c.f("White balance presets")
    return float(v) if v else None


def dots(c) -> int | None:
    m = re.fullmatch(r"([\d][\d,.]*)\s*dots", c.f("Screen resolution"))
    return int(re.sub(r"[,.]", "", m.group(1))) if m else None


def total_mp(c) -> float | None:
    v = c.f("Total megapixels")
    return float(v) if v else None


def battery(c, word: str) -> bool:
    return re.search(rf"\b{word}\b", c.f("Battery")) is not None


def storage(c, *words: str) -> bool:
    s = c.f("Storage types").lower()
    return any(w in s for w in words)


def memory_stick(c) -> bool:
    return storage(c, "memory stick", "memorystick", "ms pro", "ms duo")


def video_ok(c, width: int) -> bool:
    return (c.video_w or 0) >= width


def build(cams: list) -> list[dict]:
    b = SetBuilder(cams)
    by = lambda brand: [c for c in cams if c.brand == brand]  # noqa: E731
    says = lambda c, k: c.says.get(k)  # noqa: E731
    names = lambda pool: [c.name for c in pool]  # noqa: E731
    g = lambda c: c.grams  # noqa: E731
    height = lambda c: c.dim(1)  # noqa: E731
    depth = lambda c: c.dim(2)  # noqa: E731
    lt = lambda v, t: v is not None and v < t  # noqa: E731
    gt = lambda v, t: v is not None and v > t  # noqa: E731
    ge = lambda v, t: v is not None and v >= t  # noqa: E731
    le = lambda v, t: v is not None and v <= t  # noqa: E731
    yn = lambda v: "yes" if v else "no"  # noqa: E731

    def one(pool, key, *, low=False):
        winners, _ = b.best(pool, key, low=low)
        assert len(winners) == 1, [w.name for w in winners]
        return winners[0]

    rng = random.Random(1207)

    def pair(pool, key):
        """Two products of ``pool`` whose ``key`` is known and differs."""
        pool = [c for c in pool if key(c) is not None]
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    # ================= Inverse: one condition, spec table
    b.add(
        "Show me the cameras that take SmartMedia cards.", L, names=names(c for c in cams if storage(c, "smartmedia"))
    )
    b.add(
        "Any cameras with a rangefinder-style optical viewfinder?",
        L,
        names=names(c for c in cams if c.f("Viewfinder") == "Optical (rangefinder)"),
    )
    b.add("List all the cameras that run on AAA batteries.", L, names=names(c for c in cams if battery(c, "AAA")))
    b.add(
        "Which Olympus models can focus as close as 1 cm in macro?",
        L,
        names=names(c for c in by("Olympus") if le(cm(c, "Macro focus range"), 1)),
    )
    b.add(
        "Do you have anything with a sensor bigger than 36 x 24 mm?",
        L,
        names=names(c for c in cams if gt(sensor_area(c), 36 * 24)),
    )
    b.add(
        "I'm after a Nikon with ±5 EV of exposure compensation. Which ones do that?",
        L,
        names=names(c for c in by("Nikon") if ge(ev(c), 5)),
    )
    b.add(
        "Which cameras come with more than ten white balance presets?",
        L,
        names=names(c for c in cams if gt(wb(c), 10)),
    )
    b.add(
        "Show me cameras whose LCD has over two million dots.",
        L,
        names=names(c for c in cams if gt(dots(c), 2_000_000)),
    )
    b.add("Any USB 3.0 cameras?", L, names=names(c for c in cams if c.f("USB").startswith("USB 3.0")))
    b.add(
        "Which cameras stand more than 5 inches tall?",
        L,
        names=names(c for c in cams if gt(height(c), 5 * INCH)),
    )
    b.add("Got any Panasonics from before 2004?", L, names=names(c for c in by("Panasonic") if c.year < 2004))
    b.add("Which cameras meter with 3D Matrix?", L, names=names(c for c in cams if "3D Matrix" in c.f("Metering")))
    b.add(
        "List every camera that records to CFexpress or XQD.",
        L,
        names=names(c for c in cams if storage(c, "cfexpress", "xqd")),
    )

    # ================= Inverse: one prose-only fact
    b.add(
        "Which Casio models have no S / Tv mode?",
        L,
        names=names(c for c in by("Casio") if says(c, "shutter") is False),
        method="tkg",
    )
    b.add(
        "Do you have any Samsung cameras with an Av (aperture-priority) mode?",
        L,
        names=names(c for c in by("Samsung") if says(c, "aperture")),
        method="tkg",
    )
    b.add(
        "I'd like a Sony that can't digitally zoom. Which ones are there?",
        L,
        names=names(c for c in by("Sony") if says(c, "dzoom") is False),
        method="tkg",
    )

    # ================= Multi-condition: spec table
    b.add(
        "Which Four Thirds cameras come in under 400 grams?",
        M,
        names=names(c for c in cams if c.f("Sensor size").startswith("Four Thirds") and lt(g(c), 400)),
    )
    b.add(
        "Show me Canons that shoot 1080p or better and weigh less than 300 g.",
        M,
        names=names(c for c in by("Canon") if video_ok(c, 1920) and lt(g(c), 300)),
    )
    b.add(
        "Which Sony cameras use Memory Stick and have a 3-inch LCD?",
        M,
        names=names(c for c in by("Sony") if memory_stick(c) and c.screen_in == 3.0),
    )
    b.add(
        'Anything from before 2002 with at least a 3x optical zoom and a 2" screen or bigger?',
        M,
        names=names(c for c in cams if c.year < 2002 and ge(c.zoom, 3) and ge(c.screen_in, 2)),
    )
    b.add(
        "Looking for a Nikon with 12x zoom or more that's thinner than an inch and a half.",
        M,
        names=names(c for c in by("Nikon") if ge(c.zoom, 12) and lt(depth(c), 1.5 * INCH)),
    )
    b.add(
        "Which cameras with a crop factor between 1.5 and 1.6 weigh under half a kilo?",
        M,
        names=names(c for c in cams if c.crop is not None and 1.5 <= c.crop <= 1.6 and lt(g(c), 500)),
    )
    b.add(
        "Kodak cameras that take AA batteries and zoom 5x or more?",
        M,
        names=names(c for c in by("Kodak") if battery(c, "AA") and ge(c.zoom, 5)),
    )
    b.add(
        "Which pentamirror-viewfinder cameras were announced in 2010 or later?",
        M,
        names=names(c for c in cams if c.f("Viewfinder") == "Optical (pentamirror)" and c.year >= 2010),
    )

    # ================= Multi-condition with prose-only facts
    b.add(
        "Which Olympus cameras that use xD cards don't have shutter priority?",
        M,
        names=names(c for c in by("Olympus") if storage(c, "xd") and says(c, "shutter") is False),
        method="tkg",
    )
    b.add(
        "Show me Panasonics under 300 g where I can set the aperture myself (aperture priority).",
        M,
        names=names(c for c in by("Panasonic") if lt(g(c), 300) and says(c, "aperture")),
        method="tkg",
    )
    b.add(
        "Which 2008 Nikons have digital zoom but no aperture priority?",
        M,
        names=names(c for c in by("Nikon") if c.year == 2008 and says(c, "dzoom") and says(c, "aperture") is False),
        method="tkg",
    )
    b.add(
        "Which cameras with an electronic viewfinder lack shutter priority?",
        M,
        names=names(c for c in cams if c.f("Viewfinder").startswith("Electronic") and says(c, "shutter") is False),
        method="tkg",
    )
    b.add(
        "Pentax cameras with a three-inch screen and without digital zoom?",
        M,
        names=names(c for c in by("Pentax") if c.screen_in == 3.0 and says(c, "dzoom") is False),
        method="tkg",
    )

    # ================= Group comparison: two products, two brands
    x, y = pair(by("Olympus") + by("Panasonic"), g)
    b.add(f"Is the {x.name} heavier than the {y.name}?", G, value=yn(g(x) > g(y)))
    x, y = pair(by("Canon") + by("Nikon"), height)
    b.add(f"Which is taller, the {x.name} or the {y.name}?", G, value=max((x, y), key=height).name)
    x, y = pair(by("Sony") + by("Samsung"), dots)
    b.add(
        f"Between the {x.name} and the {y.name}, which one has the sharper screen (more dots)?",
        G,
        value=max((x, y), key=dots).name,
    )
    x, y = pair(by("Fujifilm"), lambda c: cm(c, "Macro focus range"))
    b.add(
        f"{x.name} vs {y.name}: which one focuses closer in macro?",
        G,
        value=min((x, y), key=lambda c: cm(c, "Macro focus range")).name,
    )
    # one product against its brand: the others strictly lighter / with strictly more megapixels
    x = rng.choice([c for c in by("Leica") if g(c) is not None])
    b.add(
        f"Which other Leicas are lighter than the {x.name}?",
        G,
        names=names(c for c in by("Leica") if lt(g(c), g(x))),
    )
    x = rng.choice([c for c in by("Fujifilm") if c.mp is not None and c.mp >= 12])
    b.add(
        f"Show me the Fujifilm cameras with more megapixels than the {x.name}.",
        G,
        names=names(c for c in by("Fujifilm") if gt(c.mp, x.mp)),
    )

    def mean_g(brand):
        return statistics.mean(g(c) for c in by(brand) if g(c) is not None)

    assert mean_g("Canon") != mean_g("Nikon")
    b.add(
        "On average, whose cameras are lighter, Canon's or Nikon's?",
        G,
        value=min(("Canon", "Nikon"), key=mean_g),
    )
    cmos = {br: sum(c.f("Sensor type") == "CMOS" for c in by(br)) for br in ("Sony", "Panasonic")}
    assert cmos["Sony"] != cmos["Panasonic"]
    b.add("Who has more CMOS models here, Sony or Panasonic?", G, value=max(cmos, key=cmos.get))

    yes = [c for c in by("Canon") + by("Sony") if says(c, "shutter") is True]
    no = [c for c in by("Canon") + by("Sony") if says(c, "shutter") is False]
    x, y = rng.choice(yes), rng.choice(no)
    b.add(
        f"Between the {y.name} and the {x.name}, which one lets me lock the shutter speed and have the camera set the aperture?",
        G,
        value=x.name,
        method="tkg",
    )
    nodz = {br: sum(says(c, "dzoom") is False for c in by(br)) for br in ("Kodak", "Fujifilm")}
    assert nodz["Kodak"] != nodz["Fujifilm"]
    b.add(
        "Which brand has more cameras without digital zoom: Kodak or Fujifilm?",
        G,
        value=max(nodz, key=nodz.get),
        method="tkg",
    )

    # ================= Reasoning: a need -> an explicit rule
    # rule: the lightest camera among those with optical zoom >= 20x whose page says aperture priority
    w = one([c for c in cams if ge(c.zoom, 20) and says(c, "aperture")], g, low=True)
    b.add(
        "I travel light but want at least a 20x zoom and aperture priority. What's the lightest option?",
        R,
        value=w.name,
        method="tkg",
    )
    # rule: pocketable = thinner than 1.8 cm (depth < 18 mm) and lighter than 120 g
    b.add(
        "I need something truly pocketable: under 1.8 cm thick and under 120 g. What fits?",
        R,
        names=names(c for c in cams if lt(depth(c), 18) and lt(g(c), 120)),
    )
    # rule: the Rollei(s) with the smallest "Macro focus range" (a tie is a list)
    b.add_best(
        "I shoot a lot of close-ups. Which Rollei gets closest in macro mode?",
        R,
        by("Rollei"),
        lambda c: cm(c, "Macro focus range"),
        low=True,
    )
    # rule: the camera whose "Also known as" lists "PowerShot ELPH 165 IS(US)"
    (aka,) = [c for c in cams if "PowerShot ELPH 165 IS(US)" in c.f("Also known as")]
    b.add("What's sold in the US as the PowerShot ELPH 165 IS?", R, value=aka.name)
    # rule: the smallest 35mm-equivalent wide end among cameras lighter than 7 oz
    w = one([c for c in cams if lt(g(c), 7 * OZ)], lambda c: c.focal(0), low=True)
    b.add(
        "What's the widest-angle camera (shortest 35mm-equivalent focal length) that weighs under 7 ounces?",
        R,
        value=w.name,
    )
    # rule: bright lens = widest aperture (first f-number of "Max aperture") f/1.8 or wider (<= 1.8),
    # and "Screen size" at least 3 inches
    b.add(
        "For low-light snapshots I want a fast lens, f/1.8 or brighter, plus a screen of 3 inches or more. Options?",
        R,
        names=names(c for c in cams if le(c.widest_f, 1.8) and ge(c.screen_in, 3)),
    )
    # rule: the "Dimensions" height of one Nikon, mm / 25.4, rounded to 2 decimals
    pick = random.Random(712)
    c = pick.choice([c for c in by("Nikon") if height(c) is not None])
    b.add(f"How tall is the {c.name} in inches? Two decimals is fine.", R, value=round(height(c) / INCH, 2))
    # rule: what the page says about aperture priority for one Fujifilm camera
    c = pick.choice([c for c in by("Fujifilm") if says(c, "aperture") is not None])
    b.add(
        f"Can I pick the f-stop myself and let the {c.name} choose the shutter speed?",
        R,
        value=yn(says(c, "aperture")),
        method="tkg",
    )

    # ================= Aggregation
    b.add("How many cameras take Memory Stick?", A, value=sum(memory_stick(c) for c in cams))
    b.add(
        "What's the average screen size of the Samsung cameras, in inches, to 2 decimal places?",
        A,
        value=round(statistics.mean(c.screen_in for c in by("Samsung") if c.screen_in is not None), 2),
    )
    b.add("How many cameras weigh more than a kilo?", A, value=sum(gt(g(c), 1000) for c in cams))
    b.add(
        "What's the highest screen resolution in the catalogue, in dots?",
        A,
        value=max(dots(c) for c in cams if dots(c) is not None),
    )
    x, y = pair(by("Canon") + by("Sony") + by("Nikon"), lambda c: g(c) if g(c) and g(c) > 400 else None)
    b.add(
        f"If I buy both the {x.name} and the {y.name}, how much do they weigh together, in kilos?",
        A,
        value=clean_number((g(x) + g(y)) / 1000),
    )
    b.add_best("What's the tallest camera you have?", A, cams, height)
    b.add(
        "What's the highest total megapixel count of any Pentax?",
        A,
        value=clean_number(max(total_mp(c) for c in by("Pentax") if total_mp(c) is not None)),
    )
    b.add(
        "What's the closest macro focus distance among the Fujifilm cameras, in millimetres?",
        A,
        value=clean_number(
            min(cm(c, "Macro focus range") for c in by("Fujifilm") if cm(c, "Macro focus range") is not None) * 10
        ),
    )
    b.add(
        "How many Canons don't offer shutter priority?",
        A,
        value=sum(says(c, "shutter") is False for c in by("Canon")),
        method="tkg",
    )
    b.add(
        "What's the average weight of the Sony cameras with aperture priority, to the nearest gram?",
        A,
        value=round(statistics.mean(g(c) for c in by("Sony") if says(c, "aperture") and g(c) is not None)),
        method="tkg",
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build, write_catalog)


if __name__ == "__main__":
    main()
