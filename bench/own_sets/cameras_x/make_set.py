"""Held-out forum/chat-style questions over the "cameras" catalogue, written blind to the reader code, 2026-12-07.

The catalogue is the base set's, byte for byte: ``bench/own_sets/cameras/make_set.py`` is loaded
as a module and its ``load()`` and ``write_catalog()`` give the same 1,000 cameras, pages and
mapping. Only the questions are new; they are worded the way forum posters and shop-chat
customers write (first person, context before the ask, loose punctuation, abbreviations,
other units, search-box fragments), not the way a test author writes a template.

    python3 bench/own_sets/cameras_x/make_set.py              # writes questions.json
    python3 bench/own_sets/cameras_x/make_set.py --out DIR    # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/cameras_x/make_set.py --check      # questions.json is current
    python3 bench/own_sets/cameras_x/make_set.py --show       # print every question with its gold

Conventions of the gold, all computed here from the source fields (the raw spec strings the
catalogue carries, and the base loader's record of what each page's prose states):

* Missing data is never "no": a camera whose field is empty, or does not parse by the rules
  below, is left out of every filter, superlative, average and count on that field.
* Prose-only facts (aperture priority, shutter priority, digital zoom; ``gt_retrieval_method``
  "tkg") read what the product page says. "Has / offers" means the page states it has the mode;
  "lacks / doesn't have / without" means the page states it does not. A page that says nothing
  about a fact neither has nor lacks it. Every other question is "sparql".
* "under / less than / lighter than / thinner than / before" are strict; "at least / or more /
  or faster / or wider / or bigger / or beyond / and newer / from ... to ..." are inclusive.
* Units: weight is the grams of "Weight" (the base ``Cam.grams``); 1 oz = 28.349523125 g,
  1 lb = 453.59237 g.
  Thickness is the third number (depth) of "Dimensions" (width x height x depth mm); 1 in =
  25.4 mm. Screen size is the inches of "Screen size".
* Lens: optical zoom is the "Nx" figure of "Optical zoom" ("Yes"/"No" give no ratio); focal
  lengths are the 35mm-equivalent ends of "Focal length (35mm equiv.)" (a single number is both
  ends). "Reach" is the long end, "wide" the short end.
* Shutter: the top speed is "Max. shutter speed" in seconds; "1/3200 or faster" means at most
  1/3200 s.
* Sensor: its size in mm is the last "W x H mm" in "Sensor size"; "full frame" is a sensor 35 to
  37 mm wide (the 36 x 24 class; the 44 x 33 medium format is not); "1-inch type" is exactly
  "13.2 x 8.8 mm"; "Four Thirds" is a "Sensor size" naming Four Thirds; sensor area is W x H.
  Sensor type (CCD, CMOS, Foveon) is the "Sensor type" field.
* Video: "4K" is a "Max. video resolution" at least 3840 pixels wide, "8K" at least 7680.
* ISO: the highest number anywhere in the "ISO" field, boosted / expanded settings included.
* Battery: "AA" is the token AA in "Battery" (AAA is not AA); a named pack (CR-V3, NP-W126S)
  matches as a substring. The AA group is the cameras whose filled "Battery" names AA, the
  other group the cameras whose filled "Battery" does not.
* Storage: a card type matches "Storage types" case-insensitively, spaces ignored ("Compact
  Flash" = "CompactFlash", "microSD" does not match "Microdrive"); "internal memory only" is a
  field that reads just "Internal".
* Viewfinder kinds are substrings of "Viewfinder" ("rangefinder", "pentamirror",
  "pentaprism", "Electronic"). USB 3.2 is a "USB" field naming 3.2. Exposure compensation
  "+/- N EV" is the symmetric "±N EV" of "Exposure Compensation". Macro distance is the cm of
  "Macro focus range". White balance presets is the number in "White balance presets".
  "Also known as" names are matched as written there.
* Averages are over the products that have the field, rounded to 1 decimal; counts are of
  products. Group comparisons compare the two groups' averages (or counts) and are asserted not
  to tie; superlatives and two-product comparisons are asserted to have one winner.
* Brands compare as the file writes them ("Fujifilm", "Leica"); a list gold is sorted and holds
  1..40 names.
"""

from __future__ import annotations

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

BASE = base_set("cameras")
load, write_catalog = BASE.load, BASE.write_catalog

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
OZ, LB, INCH = 28.349523125, 453.59237, 25.4


# ---- field readers beyond the base Cam's (each returns None where the field says nothing) ----


def sensor_mm(c) -> tuple[float, float] | None:
    found = re.findall(r"([\d.]+) x ([\d.]+) mm", c.f("Sensor size"))
    return (float(found[-1][0]), float(found[-1][1])) if found else None


def sensor_area(c) -> float | None:
    wh = sensor_mm(c)
    return wh[0] * wh[1] if wh else None


def full_frame(c) -> bool:
    wh = sensor_mm(c)
    return wh is not None and 35 <= wh[0] <= 37


def iso_top(c) -> int | None:
    nums = [int(n) for n in re.findall(r"\d+", c.f("ISO"))]
    return max(nums) if nums else None


def takes_aa(c) -> bool:
    return re.search(r"\bAA\b", c.f("Battery")) is not None


def storage(c, card: str) -> bool:
    return card.lower().replace(" ", "") in c.f("Storage types").lower().replace(" ", "")


def macro_cm(c) -> float | None:
    m = re.fullmatch(r"([\d.]+)\s*cm", c.f("Macro focus range"))
    return float(m.group(1)) if m else None


def ev_range(c) -> float | None:
    m = re.match(r"±([\d.]+) EV", c.f("Exposure Compensation"))
    return float(m.group(1)) if m else None


def wb_presets(c) -> float | None:
    v = c.f("White balance presets")
    return float(v) if v else None


def thickness(c) -> float | None:
    return c.dim(2)


def video_4k(c) -> bool:
    return (c.video_w or 0) >= 3840


def says(c, fact: str, value: bool) -> bool:
    """The page states ``fact`` ("aperture", "shutter", "dzoom") with this polarity."""
    return c.says.get(fact) is value


# ---- gold helpers ----


def mean(pool, key) -> float:
    vals = [key(c) for c in pool if key(c) is not None]
    assert vals
    return statistics.mean(vals)


def higher(a: str, va: float, b: str, vb: float) -> str:
    """The label of the larger of two group figures; a tie is refused."""
    assert va != vb, (a, va, b, vb)
    return a if va > vb else b


def lower(a: str, va: float, b: str, vb: float) -> str:
    """The label of the smaller of two group figures; a tie is refused."""
    assert va != vb, (a, va, b, vb)
    return a if va < vb else b


def yes_no(flag: bool) -> str:
    return "Yes" if flag else "No"


def build_questions(cams) -> list[dict]:
    b = SetBuilder(cams)

    def by(brand: str):
        assert any(c.brand == brand for c in cams), brand
        return [c for c in cams if c.brand == brand]

    def named(name: str):
        (c,) = [c for c in cams if c.name == name]
        return c

    def names(pool, pred):
        return [c.name for c in pool if pred(c)]

    def g(c):
        return c.grams

    def best(question, category, pool, key, *, low=False, method="sparql"):
        """A superlative whose single winner is the gold (a tie is refused)."""
        winners, _ = b.best(pool, key, low=low)
        assert len(winners) == 1, (question, [w.name for w in winners])
        b.add(question, category, value=winners[0].name, method=method)

    # ---------------- Inverse: a value or trait -> the products that carry it ----------------
    b.add(
        "been wanting to try a rangefinder for street photography. which cameras in here have the rangefinder-style optical viewfinder?",
        L, names=names(cams, lambda c: "rangefinder" in c.f("Viewfinder")),
    )  # fmt: skip
    (kiss,) = names(cams, lambda c: "EOS Kiss X7(Japan)" in c.f("Also known as").split(","))
    b.add(
        "My cousin brought a Canon back from Japan, the box says EOS Kiss X7. What model is that under the name you sell it as?",
        L, value=kiss,
    )  # fmt: skip
    b.add(
        "got a few spare NP-W126S batteries. which bodies list the NP-W126S specifically (not the older plain NP-W126)?",
        L, names=names(cams, lambda c: "NP-W126S" in c.f("Battery")),
    )  # fmt: skip
    b.add("cameras that run on CR-V3 lithium packs", L, names=names(cams, lambda c: "CR-V3" in c.f("Battery")))
    b.add("foveon sensor cameras?", L, names=names(cams, lambda c: c.f("Sensor type") == "Foveon"))
    b.add(
        "Is there anything here that records 8K video? If so which ones",
        L, names=names(cams, lambda c: (c.video_w or 0) >= 7680),
    )  # fmt: skip
    b.add(
        "I tether a lot so transfer speed matters to me. Which models have USB 3.2 (the 10 Gbit/s kind)?",
        L, names=names(cams, lambda c: "3.2" in c.f("USB")),
    )  # fmt: skip
    b.add(
        "Read that the budget DSLRs use a pentamirror instead of a proper prism... which models in your list have the pentamirror finder?",
        L, names=names(cams, lambda c: "pentamirror" in c.f("Viewfinder")),
    )  # fmt: skip
    b.add(
        'cams w/ the 1" type sensor (13.2 x 8.8mm)',
        L, names=names(cams, lambda c: c.f("Sensor size") == "13.2 x 8.8 mm"),
    )  # fmt: skip
    b.add(
        "what cameras have 12 white balance presets?? seems like a lot lol",
        L, names=names(cams, lambda c: wb_presets(c) == 12),
    )  # fmt: skip
    b.add("olympus models with +/- 5 EV exposure comp", L, names=names(by("Olympus"), lambda c: ev_range(c) == 5))
    b.add(
        "I only have microSD cards lying around and no adapter. Which cameras take micro SD?",
        L, names=names(cams, lambda c: storage(c, "microSD")),
    )  # fmt: skip
    b.add(
        "Which cameras can be pushed to ISO 204800 or beyond? boost / expanded settings count",
        L, names=names(cams, lambda c: (iso_top(c) or 0) >= 204800),
    )  # fmt: skip
    b.add(
        "i can't stand digital zoom, optical only for me. Which Leicas don't have digital zoom?",
        L, names=names(by("Leica"), lambda c: says(c, "dzoom", False)), method="tkg",
    )  # fmt: skip
    b.add(
        "kodak cameras w/ an Av (aperture priority) mode",
        L, names=names(by("Kodak"), lambda c: says(c, "aperture", True)), method="tkg",
    )  # fmt: skip

    # ---------------- Multi-condition ----------------
    b.add(
        "Going on a long hike and want something tiny. Under 150g but still at least 10x optical zoom, anything like that?",
        M, names=names(cams, lambda c: g(c) is not None and g(c) < 150 and (c.zoom or 0) >= 10),
    )  # fmt: skip
    b.add(
        "full frame, shoots 4K, and under 1.5 lbs - what are my options",
        M, names=names(cams, lambda c: full_frame(c) and video_4k(c) and g(c) is not None and g(c) < 1.5 * LB),
    )  # fmt: skip
    b.add(
        "I mostly shoot birds from a hide so reach is everything. I need 1000mm equivalent or more at the long end, "
        "and I want an electronic viewfinder. What fits?",
        M, names=names(cams, lambda c: (c.focal(1) or 0) >= 1000 and "Electronic" in c.f("Viewfinder")),
    )  # fmt: skip
    b.add(
        "Looking for something that has both aperture priority and shutter priority, runs on AA batteries, "
        "and has a top shutter speed of 1/3200s or faster.",
        M,
        names=names(
            cams,
            lambda c: says(c, "aperture", True) and says(c, "shutter", True) and takes_aa(c)
            and c.fastest_s is not None and c.fastest_s <= 1 / 3200,
        ),
        method="tkg",
    )  # fmt: skip
    b.add(
        "which cameras give you aperture priority but NOT shutter priority?",
        M, names=names(cams, lambda c: says(c, "aperture", True) and says(c, "shutter", False)), method="tkg",
    )  # fmt: skip
    b.add(
        "four thirds sensor + 4k video, which models?",
        M, names=names(cams, lambda c: "Four Thirds" in c.f("Sensor size") and video_4k(c)),
    )  # fmt: skip
    b.add(
        "I do estate agent interiors and want something pocketable for it: 24mm or wider at the short end, "
        "a 3 in screen or bigger, and lighter than 160 g.",
        M,
        names=names(
            cams,
            lambda c: (c.focal(0) or 99) <= 24 and (c.screen_in or 0) >= 3 and g(c) is not None and g(c) < 160,
        ),
    )  # fmt: skip
    b.add(
        "Super slim ones? It has to weigh under 3.5 oz and be thinner than 0.7 inch.",
        M,
        names=names(
            cams,
            lambda c: g(c) is not None and g(c) < 3.5 * OZ and thickness(c) is not None and thickness(c) < 0.7 * INCH,
        ),
    )  # fmt: skip
    b.add(
        "canon with an optical viewfinder that runs on AA's?",
        M, names=names(by("Canon"), lambda c: takes_aa(c) and "Optical" in c.f("Viewfinder")),
    )  # fmt: skip
    b.add(
        "Which cameras without a digital zoom weigh under 300g?",
        M, names=names(cams, lambda c: says(c, "dzoom", False) and g(c) is not None and g(c) < 300), method="tkg",
    )  # fmt: skip
    b.add(
        "CompactFlash cameras from 2000 to 2003 with 5MP or more",
        M,
        names=names(cams, lambda c: 2000 <= c.year <= 2003 and (c.mp or 0) >= 5 and storage(c, "CompactFlash")),
    )  # fmt: skip
    b.add(
        "I have a drawer full of old xD picture cards. Which Fujifilm cameras use them?",
        M, names=names(by("Fujifilm"), lambda c: storage(c, "xD Picture")),
    )  # fmt: skip
    (casio_tv,) = names(by("Casio"), lambda c: says(c, "shutter", True) and says(c, "aperture", False))
    b.add(
        "my son plays football so I want to fix the shutter speed myself. which casio does shutter priority (Tv) but lacks an aperture priority mode?",
        M, value=casio_tv, method="tkg",
    )  # fmt: skip

    # ---------------- Group comparison ----------------
    b.add(
        "Casio vs Sony — who makes the lighter cameras on average, going by the listed weights?",
        G, value=lower("Casio", mean(by("Casio"), g), "Sony", mean(by("Sony"), g)),
    )  # fmt: skip
    ccd = [c for c in cams if c.f("Sensor type") == "CCD"]
    cmos = [c for c in cams if c.f("Sensor type") == "CMOS"]
    b.add(
        "CCD or CMOS: which sensor type's cameras have the bigger optical zoom on average (just the ones with an Nx figure)?",
        G, value=higher("CCD", mean(ccd, lambda c: c.zoom), "CMOS", mean(cmos, lambda c: c.zoom)),
    )  # fmt: skip
    b.add(
        "who has more 4K-capable models here, Sony or Nikon?",
        G, value=higher("Sony", len(names(by("Sony"), video_4k)), "Nikon", len(names(by("Nikon"), video_4k))),
    )  # fmt: skip
    tv = {brand: len(names(by(brand), lambda c: says(c, "shutter", True))) for brand in ("Canon", "Olympus")}
    b.add(
        "Canon or Olympus, which one has more models that offer shutter priority?",
        G, value=higher("Canon", tv["Canon"], "Olympus", tv["Olympus"]), method="tkg",
    )  # fmt: skip
    b.add(
        "pentax or ricoh, whose bodies are thinner on avg (depth)?",
        G,
        value=lower("Pentax", mean(by("Pentax"), thickness), "Ricoh", mean(by("Ricoh"), thickness)),
    )  # fmt: skip
    b.add(
        "Are Leica cameras heavier on average than Sony's in this list?",
        G, value=yes_no(mean(by("Leica"), g) > mean(by("Sony"), g)),
    )  # fmt: skip
    prism = [c for c in cams if "pentaprism" in c.f("Viewfinder")]
    mirror = [c for c in cams if "pentamirror" in c.f("Viewfinder")]
    b.add(
        "pentaprism bodies vs pentamirror bodies: which kind is heavier on average?",
        G, value=higher("pentaprism", mean(prism, g), "pentamirror", mean(mirror, g)),
    )  # fmt: skip
    b.add(
        "Macro question. On average who focuses closer in macro mode, Canon or Panasonic?",
        G, value=lower("Canon", mean(by("Canon"), macro_cm), "Panasonic", mean(by("Panasonic"), macro_cm)),
    )  # fmt: skip
    no_av = {brand: len(names(by(brand), lambda c: says(c, "aperture", False))) for brand in ("Kodak", "Casio")}
    b.add(
        "Kodak vs Casio - which brand has more cameras that lack aperture priority?",
        G, value=higher("Kodak", no_av["Kodak"], "Casio", no_av["Casio"]), method="tkg",
    )  # fmt: skip
    aa_group = [c for c in cams if c.f("Battery") and takes_aa(c)]
    other_group = [c for c in cams if c.f("Battery") and not takes_aa(c)]
    b.add(
        "I assumed AA cameras would be the chunky ones. Are the AA-powered cameras lighter on average than the ones using other batteries?",
        G, value=yes_no(mean(aa_group, g) < mean(other_group, g)),
    )  # fmt: skip

    # ---------------- Reasoning ----------------
    z8, z9 = named("Nikon Z8"), named("Nikon Z9")
    b.add(
        "Torn between the Z8 and Z9 for travel. How much extra weight does the Nikon Z9 add over the Z8, in grams?",
        R, value=clean_number(z9.grams - z8.grams),
    )  # fmt: skip
    old, new = named("Canon EOS 350D"), named("Canon EOS 5D Mark IV")
    b.add(
        "upgrading from my old EOS 350D to a 5D Mark IV - how many more megapixels is that?",
        R, value=clean_number(new.mp - old.mp),
    )  # fmt: skip
    best("lightest full frame camera you have?", R, [c for c in cams if full_frame(c)], g, low=True)
    dp1, gh7 = named("Sigma DP1 Merrill"), named("Panasonic Lumix DC-GH7")
    b.add(
        "Is the sensor in the Sigma DP1 Merrill physically bigger than the one in the Lumix DC-GH7?",
        R, value=yes_no(sensor_area(dp1) > sensor_area(gh7)),
    )  # fmt: skip
    best(
        "I want max zoom reach but it has to stay under 300g. Which one gets the longest 35mm-equiv focal length?",
        R, [c for c in cams if g(c) is not None and g(c) < 300], lambda c: c.focal(1),
    )  # fmt: skip
    best(
        "Of the 1-inch (13.2x8.8) sensor cameras that have both A and S modes, which is the lightest?",
        R,
        [
            c for c in cams
            if c.f("Sensor size") == "13.2 x 8.8 mm" and says(c, "aperture", True) and says(c, "shutter", True)
        ],
        g, low=True, method="tkg",
    )  # fmt: skip
    best(
        "widest angle of view in the whole catalogue? i.e. shortest 35mm equivalent focal length",
        R, cams, lambda c: c.focal(0), low=True,
    )  # fmt: skip
    b.add(
        "which cameras have no memory card slot at all, only internal memory?",
        R, names=names(cams, lambda c: c.f("Storage types") == "Internal"),
    )  # fmt: skip
    c350, c1000 = named("Canon EOS 350D"), named("Canon EOS 1000D")
    b.add(
        "How many years apart were the Canon EOS 350D and the EOS 1000D announced?",
        R, value=abs(c1000.year - c350.year),
    )  # fmt: skip

    # ---------------- Aggregation ----------------
    b.add(
        "how many 2004 cameras in here have a 3x optical zoom?",
        A, value=len(names(cams, lambda c: c.year == 2004 and c.zoom == 3)),
    )  # fmt: skip
    b.add("avg weight of the canon cameras, in ounces approx.?", A, value=round(mean(by("Canon"), g) / OZ, 1))
    b.add(
        "Highest MP count among the Praktica cams?",
        A, value=clean_number(max(c.mp for c in by("Praktica") if c.mp is not None)),
    )  # fmt: skip
    b.add(
        "how many olympus models have a shutter priority mode",
        A, value=len(names(by("Olympus"), lambda c: says(c, "shutter", True))), method="tkg",
    )  # fmt: skip
    b.add(
        "Number of Pentax cameras that DON'T have aperture priority?",
        A, value=len(names(by("Pentax"), lambda c: says(c, "aperture", False))), method="tkg",
    )  # fmt: skip
    b.add(
        "How many of the cameras take CompactFlash cards?",
        A, value=len(names(cams, lambda c: storage(c, "CompactFlash"))),
    )  # fmt: skip
    b.add(
        "average screen size of the 2012 models, in inches",
        A, value=round(mean([c for c in cams if c.year == 2012], lambda c: c.screen_in), 1),
    )  # fmt: skip
    b.add(
        "What's the closest macro focusing distance on any Ricoh, in cm?",
        A, value=clean_number(min(v for v in map(macro_cm, by("Ricoh")) if v is not None)),
    )  # fmt: skip
    b.add(
        "Counting 2010 and newer only: how many cameras come without digital zoom?",
        A, value=len(names(cams, lambda c: c.year >= 2010 and says(c, "dzoom", False))), method="tkg",
    )  # fmt: skip
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
