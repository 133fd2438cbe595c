"""A held-out question set over the "cameras" catalogue, asked the way a camera club writes: "cameras_y".

Written 2026-12-08, blind: its author read only ``shared.py``, devmix's ``Builder`` (for the
record format) and the docstring, ``load()``, ``write_catalog()`` and data classes of
``bench/own_sets/cameras/make_set.py`` (to learn the fields and which facts are said only in the
page prose), plus the raw CSV. No other set's questions, no code of the QA system, its tests or
its docs were read, and the system was not run while writing it.

STYLE: a photography teacher or camera-club secretary writing requirement lists and checklists:
"Needs: ...; must have ...; anything but ...", imperative "Find", "List", "Give me",
bullet-like fragments joined with semicolons, parenthetical asides, "excluding", "other than",
"apart from", years as "'09" or "the late 2000s", weights in grams and ounces, and a few questions
asking for one value in a stated unit.

The catalogue is the base set's, byte-identical: ``load()`` and ``write_catalog()`` are those of
``cameras/make_set.py`` (loaded through ``shared.base_set("cameras")``), so ``--out DIR`` writes
the same ``catalog.jsonl`` + ``mapping.yaml``.

    python3 bench/own_sets/cameras_y/make_set.py            # write questions.json
    python3 bench/own_sets/cameras_y/make_set.py --check    # questions.json is current
    python3 bench/own_sets/cameras_y/make_set.py --show     # every question with its gold

Conventions of the gold, every one computed here from the source fields (never typed by hand):

* Missing data is never "no": a camera whose field is empty or does not parse is left out of any
  filter, superlative, average or count on that field. The three prose-only facts (aperture
  priority, shutter priority, digital zoom; ``gt_retrieval_method`` "tkg") read what the page
  states (``Cam.says``); a page that says nothing neither has nor lacks the feature, so "without /
  lacking / no X" means the page says it lacks X, and a count of cameras "with X" counts pages
  that say so.
* "under / less than / lighter than / thinner than / before / after / more than / over" are
  strict; "at least / or more / or less / no more than / up to / or wider / or faster / or
  brighter / from ... on / since" are inclusive.
* Years: "'09" is 2009; "the early 2000s" 2000-2003, "the mid-2000s" 2004-2006, "the late 2000s"
  2007-2009, "the early 2010s" 2010-2013, all inclusive; "since '15" / "'15 onward" is >= 2015,
  "before '05" is < 2005. A camera's year is its "Year" (announcement year).
* Weight is grams of "Weight"; ounces are 28.349523125 g, pounds 453.59237 g (exact factors; a
  threshold given in both units is compared in grams exactly as written in grams, the ounces being
  the approximate aside). Thickness is the depth (third number) of "Dimensions" in mm.
* Megapixels, optical zoom ("Nx"), 35mm-equivalent focal ends, widest aperture (first f-number),
  fastest and longest shutter (seconds) and "4K" (video >= 3840 px wide) are the base set's
  parsed properties (``Cam.mp``, ``zoom``, ``focal``, ``widest_f``, ``fastest_s``, ``longest_s``,
  ``video_w``). "Wider than / 24 mm or wider" compares the short focal end (smaller is wider);
  "f1.8 or brighter" is an f-number <= 1.8; "1/4000 sec or faster" is <= 0.00025 s.
* "Optical viewfinder of any kind" is a "Viewfinder" starting "Optical"; "electronic viewfinder"
  is "Electronic". "AA-powered" is a "Battery" naming AA cells (the token "AA", so "AAA" is not
  AA). "xD" storage is "xD Picture card" in "Storage types", case-insensitive.
* Brands compare as the file writes them. A brand question names the brand as the file writes it.
  Brand-vs-brand questions are asserted to have a clear winner (no tie).
* Averages are rounded to one decimal place, as the question asks; ounce values too.
  Superlatives are asserted to have one winner, or a tie becomes a list gold; lists hold 1..40
  names, sorted. Yes/no golds are the strings "yes" / "no".
* The two randomly chosen products of two-product questions come from ``random.Random(SEED)``.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
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
QUESTIONS = HERE / "questions.json"
SEED = 20261208
OZ, LB = 28.349523125, 453.59237
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION

LATE_2000S, MID_2000S, EARLY_2010S = range(2007, 2010), range(2004, 2007), range(2010, 2014)


def says(c, fact):
    """True / False as the page states, None when it says nothing."""
    return c.says.get(fact)


def aa(c):
    return re.search(r"\bAA\b", c.f("Battery")) is not None if c.f("Battery") else None


def optical_vf(c):
    return c.f("Viewfinder").startswith("Optical")


def xd(c):
    return "xd picture card" in c.f("Storage types").lower()


def yn(b: bool) -> str:
    return "yes" if b else "no"


def mean(vals, nd=1):
    vals = [v for v in vals if v is not None]
    return round(statistics.mean(vals), nd)


def build_questions(cams):
    b = SetBuilder(cams)
    by = lambda brand: [c for c in cams if c.brand == brand]  # noqa: E731
    rng = random.Random(SEED)

    def winner(scores: dict, low=False):
        """The one key with the highest (lowest) score; refuses a tie."""
        top = (min if low else max)(scores.values())
        ks = [k for k, v in scores.items() if v == top]
        assert len(ks) == 1, scores
        return ks[0]

    # ------------------------------------------------------------------ INVERSE
    b.add(
        "Find every camera announced in '24 — list them all, any brand.",
        L,
        names=[c.name for c in cams if c.year == 2024],
    )
    b.add(
        "List the cameras built on a Foveon sensor (not CCD, not CMOS).",
        L,
        names=[c.name for c in cams if c.f("Sensor type") == "Foveon"],
    )
    (kiss,) = [c for c in cams if "EOS Kiss X8i" in c.f("Also known as")]
    b.add(
        "Give me the model that Japanese members know as the 'EOS Kiss X8i' — which camera is it?", L, value=kiss.name
    )
    b.add(
        "Find the cameras with USB 3.2 (the 10 Gbit/s kind); nothing older.",
        L,
        names=[c.name for c in cams if c.f("USB").startswith("USB 3.2")],
    )
    b.add(
        "List the heavyweights: cameras at 1,000 g (about 35.3 oz) or more.",
        L,
        names=[c.name for c in cams if c.grams is not None and c.grams >= 1000],
    )
    b.add(
        "Find the Leicas whose description says they have no digital zoom.",
        L,
        names=[c.name for c in by("Leica") if says(c, "dzoom") is False],
        method="tkg",
    )
    b.add(
        "Needs: a pentaprism optical viewfinder (not pentamirror, not tunnel) — list every body that has one.",
        L,
        names=[c.name for c in cams if c.f("Viewfinder") == "Optical (pentaprism)"],
    )
    b.add(
        "Give me the Casio models that offer shutter priority (as their pages put it).",
        L,
        names=[c.name for c in by("Casio") if says(c, "shutter") is True],
        method="tkg",
    )
    b.add(
        "Fast-glass list: cameras whose widest aperture is f1.8 or brighter.",
        L,
        names=[c.name for c in cams if c.widest_f is not None and c.widest_f <= 1.8],
    )
    b.add(
        "Find the cameras whose longest exposure is over a minute (strictly more than 60 sec).",
        L,
        names=[c.name for c in cams if c.longest_s is not None and c.longest_s > 60],
    )
    b.add(
        "List the Kodaks whose page says they lack aperture priority; '07 models only.",
        L,
        names=[c.name for c in by("Kodak") if says(c, "aperture") is False and c.year == 2007],
        method="tkg",
    )

    # ------------------------------------------------------------------ MULTI
    b.add(
        "Needs: CMOS sensor; 4K video (3840 px wide or more); under 500 g (roughly 17.6 oz). List them.",
        M,
        names=[
            c.name
            for c in cams
            if c.f("Sensor type") == "CMOS"
            and c.video_w is not None
            and c.video_w >= 3840
            and c.grams is not None
            and c.grams < 500
        ],
    )
    b.add(
        "Find the Canons from the late 2000s ('07–'09) whose pages confirm both aperture priority and shutter priority.",
        M,
        names=[
            c.name
            for c in by("Canon")
            if c.year in LATE_2000S and says(c, "aperture") is True and says(c, "shutter") is True
        ],
        method="tkg",
    )
    b.add(
        "Must have: electronic viewfinder; 3-inch screen or bigger; anything but Sony, Panasonic or Fujifilm.",
        M,
        names=[
            c.name
            for c in cams
            if c.f("Viewfinder") == "Electronic"
            and c.screen_in is not None
            and c.screen_in >= 3
            and c.brand not in ("Sony", "Panasonic", "Fujifilm")
        ],
    )
    b.add(
        "Pocket list for the beginners' class: thinner than 20 mm; lighter than 130 g; announced '10 or later.",
        M,
        names=[
            c.name
            for c in cams
            if c.dim(2) is not None and c.dim(2) < 20 and c.grams is not None and c.grams < 130 and c.year >= 2010
        ],
    )
    b.add(
        "Give me the superzooms: 20x optical or more; no more than 16 oz (453.6 g) on the scale.",
        M,
        names=[
            c.name for c in cams if c.zoom is not None and c.zoom >= 20 and c.grams is not None and c.grams <= 453.6
        ],
    )
    b.add(
        "Pentax only; fastest shutter 1/4000 sec or quicker; exposures of 30 sec or longer; an optical viewfinder of any kind.",
        M,
        names=[
            c.name
            for c in by("Pentax")
            if c.fastest_s is not None
            and c.fastest_s <= 1 / 4000
            and c.longest_s is not None
            and c.longest_s >= 30
            and optical_vf(c)
        ],
    )
    b.add(
        "Find the AA-powered cameras (AAA doesn't count) from '08 with 10 megapixels or more.",
        M,
        names=[c.name for c in cams if aa(c) and c.year == 2008 and c.mp is not None and c.mp >= 10],
    )
    b.add(
        "Needs: shutter priority (stated on the page); no aperture priority (also per the page); any brand other than Canon.",
        M,
        names=[
            c.name for c in cams if says(c, "shutter") is True and says(c, "aperture") is False and c.brand != "Canon"
        ],
        method="tkg",
    )
    b.add(
        "Olympus from the mid-2000s ('04–'06); 150 g or less; takes xD Picture cards.",
        M,
        names=[
            c.name for c in by("Olympus") if c.year in MID_2000S and c.grams is not None and c.grams <= 150 and xd(c)
        ],
    )
    b.add(
        "Wide-angle checklist: 24 mm or wider at the short end (35mm equiv.); 10x optical zoom or more; excluding Sony and Panasonic.",
        M,
        names=[
            c.name
            for c in cams
            if c.focal(0) is not None
            and c.focal(0) <= 24
            and c.zoom is not None
            and c.zoom >= 10
            and c.brand not in ("Sony", "Panasonic")
        ],
    )

    # ------------------------------------------------------------------ GROUP
    w = {br: mean((c.grams for c in by(br)), 3) for br in ("Nikon", "Fujifilm")}
    b.add("Nikon vs Fujifilm: whose cameras weigh more on average? Give me the brand.", G, value=winner(w))
    n = {br: sum(says(c, "aperture") is True for c in by(br)) for br in ("Olympus", "Samsung")}
    b.add(
        "Olympus or Samsung — which brand has more cameras whose page says they offer aperture priority?",
        G,
        value=winner(n),
        method="tkg",
    )
    mp = {br: mean((c.mp for c in by(br)), 3) for br in ("Sony", "Samsung")}
    b.add("Sony versus Samsung: which has the higher average megapixel count?", G, value=winner(mp))
    w = {br: mean((c.grams for c in by(br)), 3) for br in ("Kodak", "Casio", "HP")}
    b.add("Of Kodak, Casio and HP, which brand's cameras are the lightest on average?", G, value=winner(w, low=True))
    s = {t: mean((c.screen_in for c in cams if c.f("Sensor type") == t), 4) for t in ("CCD", "CMOS")}
    b.add("CCD bodies vs CMOS bodies: which sensor type has the larger average screen size?", G, value=winner(s))
    n = {br: sum(c.year in LATE_2000S for c in by(br)) for br in ("Fujifilm", "Olympus")}
    b.add("Fujifilm or Olympus: which has more models announced in the late 2000s ('07 to '09)?", G, value=winner(n))
    n12 = {}
    for c in cams:
        if c.year == 2012:
            n12[c.brand] = n12.get(c.brand, 0) + 1
    top = max(n12.values())
    tops = [k for k, v in n12.items() if v == top]
    if len(tops) == 1:
        b.add("Which brand has the most cameras announced in '12?", G, value=tops[0])
    else:
        b.add("Which brand has the most cameras announced in '12?", G, names=tops)
    t = {br: mean((c.focal(1) for c in by(br)), 3) for br in ("Sony", "Olympus")}
    b.add("Sony or Olympus — which averages the longer telephoto end (35mm equivalent)?", G, value=winner(t))
    dz = {br: sum(says(c, "dzoom") is True for c in by(br)) for br in ("Olympus", "Panasonic")}
    assert dz["Olympus"] > dz["Panasonic"], dz
    b.add(
        "How many more Olympus cameras than Panasonic cameras have a page that mentions having digital zoom? (A count.)",
        G,
        value=dz["Olympus"] - dz["Panasonic"],
        method="tkg",
    )
    w = {br: mean((c.grams for c in by(br)), 3) for br in ("Leica", "Sigma", "Minox")}
    b.add("Leica, Sigma or Minox: whose cameras average the heaviest?", G, value=winner(w))

    # ------------------------------------------------------------------ REASONING
    hn = max(c.grams for c in by("Nikon") if c.grams is not None)
    hc = max(c.grams for c in by("Canon") if c.grams is not None)
    assert hn != hc
    b.add("Is the heaviest Nikon heavier than the heaviest Canon? Yes or no.", R, value=yn(hn > hc))
    b.add(
        "Quick check for the video evening: did any Kodak in the list shoot 4K (3840 px wide or more)? Yes or no.",
        R,
        value=yn(any(c.video_w is not None and c.video_w >= 3840 for c in by("Kodak"))),
    )
    pool = [c for c in cams if c.grams is not None and c.year >= 2010 and c.brand in ("Fujifilm", "Nikon", "Olympus")]
    while True:
        x, y = rng.sample(pool, 2)
        if x.brand != y.brand and x.grams != y.grams:
            break
    b.add(
        f"Which is lighter, the {x.name} or the {y.name}?",
        R,
        value=(x if x.grams < y.grams else y).name,
    )
    pool = sorted(
        (c for c in cams if says(c, "shutter") is False and c.brand in ("Sony", "Samsung")), key=lambda c: c.name
    )
    z = rng.choice(pool)
    b.add(f"Does the {z.name} have shutter priority, according to its page? Yes or no.", R, value="no", method="tkg")
    pool = sorted((c for c in cams if says(c, "aperture") is True and c.brand == "Fujifilm"), key=lambda c: c.name)
    z = rng.choice(pool)
    b.add(
        f"Can I pick the f-stop myself (aperture priority) on the {z.name}? Yes or no, as its page says.",
        R,
        value="yes",
        method="tkg",
    )
    sg = [c.grams for c in by("Sony") if c.grams is not None]
    b.add(
        "How many grams separate the lightest and the heaviest Sony? (Just the difference in g.)",
        R,
        value=clean_number(max(sg) - min(sg)),
    )
    b.add(
        "Is there any camera over 2 lb (907.2 g) that was announced before 2010? Yes or no.",
        R,
        value=yn(any(c.grams is not None and c.grams > 2 * LB and c.year < 2010 for c in cams)),
    )
    b.add(
        "Travel-zoom check: is there a Ricoh that reaches 28 mm or wider and has at least 10x optical zoom? Yes or no.",
        R,
        value=yn(
            any(
                c.focal(0) is not None and c.focal(0) <= 28 and c.zoom is not None and c.zoom >= 10 for c in by("Ricoh")
            )
        ),
    )
    longest_tele, _ = b.best(cams, lambda c: c.focal(1))
    assert len(longest_tele) == 1 and longest_tele[0].zoom is not None, [c.name for c in longest_tele]
    b.add(
        "What optical zoom ratio does the camera with the longest telephoto end (35mm equiv.) have? (Give the 'x' number.)",
        R,
        value=clean_number(longest_tele[0].zoom),
    )
    pool = [c for c in cams if c.brand in ("Canon", "Pentax", "Minolta", "Konica")]
    while True:
        x, y = rng.sample(pool, 2)
        if x.year != y.year and x.brand != y.brand:
            break
    b.add(
        f"Which came out first, the {x.name} or the {y.name}?",
        R,
        value=(x if x.year < y.year else y).name,
    )
    recent = [c for c in cams if c.year >= 2020 and c.grams is not None]
    b.add(
        "Of the cameras from 2020 onward (weight known), are more than half heavier than 500 g? Yes or no.",
        R,
        value=yn(sum(c.grams > 500 for c in recent) * 2 > len(recent)),
    )

    # ------------------------------------------------------------------ AGGREGATION
    b.add(
        "What's the heaviest camera in the catalogue weigh? Answer in grams.",
        A,
        value=clean_number(max(c.grams for c in cams if c.grams is not None)),
    )
    b.add("How many cameras were announced in '05?", A, value=sum(c.year == 2005 for c in cams))
    b.add(
        "Average weight of the Fujifilm cameras, in grams (one decimal place), please.",
        A,
        value=clean_number(mean(c.grams for c in by("Fujifilm"))),
    )
    b.add(
        "Count the cameras whose page says there's no digital zoom.",
        A,
        value=sum(says(c, "dzoom") is False for c in cams),
        method="tkg",
    )
    b.add_best(
        "Lightest camera with an optical viewfinder (any kind) — which one is it?",
        A,
        [c for c in cams if optical_vf(c)],
        lambda c: c.grams,
        low=True,
    )
    b.add(
        "What does the heaviest Pentax weigh in ounces? (One decimal.)",
        A,
        value=clean_number(round(max(c.grams for c in by("Pentax") if c.grams is not None) / OZ, 1)),
    )
    b.add(
        "Count the cameras that shoot 4K video (3840 px wide or more).",
        A,
        value=sum(c.video_w is not None and c.video_w >= 3840 for c in cams),
    )
    b.add(
        "How many different brands have at least one camera announced in '20 or later?",
        A,
        value=len({c.brand for c in cams if c.year >= 2020}),
    )
    b.add(
        "What's the longest exposure any Olympus offers, in seconds?",
        A,
        value=clean_number(max(c.longest_s for c in by("Olympus") if c.longest_s is not None)),
    )
    b.add_best(
        "Which camera has the most megapixels, Sony apart?",
        A,
        [c for c in cams if c.brand != "Sony"],
        lambda c: c.mp,
    )
    b.add(
        "Average megapixels of the cameras announced in '09 (to one decimal)?",
        A,
        value=clean_number(mean(c.mp for c in cams if c.year == 2009)),
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
