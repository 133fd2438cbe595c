"""A first-contact question set over a catalog of another domain: "cameras".

Written and committed before it was run, to measure the system on a product domain no code or
word list of this project was written for: digital cameras (compacts, bridge, DSLR, mirrorless)
from the CameraDatabase spec sheets in ``shared/data/cameras-cameradatabase/camera_data.csv``
(3,586 models, 36 brands, 1994-2024; values as the spec site writes them: "96 x 61 x 29 mm",
"f2.8 - f4.8", "1/1500 sec", "180 g", '2.8"', "±2 EV (in 1/3 EV steps)").

The catalog: 1,000 rows drawn with a fixed seed (file order kept), one product each, named
"<Brand> <Model>" (unique in the file), one category "Digital Cameras", no price (the file has
none), the brand as the brand column, and every other column but ``image_file`` as a spec under a
section (Sensor, Lens, Exposure, Screen & viewfinder, Video, Storage & connectivity, Body,
General) with its raw string untouched. Three yes/no columns are taken out of the table and said
only in the product page's prose, several phrasings each, positive and negative, sometimes in one
sentence of opposite polarity, and for some products not at all: aperture priority, shutter
priority and digital zoom. The page also says the brand, model and year in a sentence.

    python3 bench/own_sets/cameras/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/cameras/make_set.py --check     # questions.json is current
    python3 bench/own_sets/cameras/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* A product whose field is empty (or does not parse by the patterns below) is left out of a
  filter, superlative, average or count on that field: missing data is never "no". Prose-only
  facts (``gt_retrieval_method`` "tkg") read what the page states; a page that says nothing about
  a fact neither has nor lacks it.
* "under / less than / lighter than" are strict, "at least / or more / or larger" inclusive.
* Weight is the grams of "Weight" (pounds 453.59237 g, ounces 28.349523125 g, exact factors);
  dimensions are "width x height x depth mm" (depth = thickness), inches 25.4 mm; the screen is
  the inches of "Screen size" (a decimal comma read as a point; cm = 2.54 x inches).
* Megapixels: the "Effective megapixels" field where filled, else "Megapixels" (the file fills
  exactly one of the two).
* Optical zoom: the "Nx" of "Optical zoom" ("Yes"/"No" say nothing of the ratio); focal lengths are
  the 35mm-equivalent ends of "Focal length (35mm equiv.)" (one number = a fixed lens, both ends);
  the widest aperture is the first f-number of "Max aperture".
* Shutter: the fastest speed is "Max. shutter speed" in seconds (1/4000 sec = 0.00025 s), the
  longest exposure is "Min. shutter speed" in seconds.
* "4K video" means a "Max. video resolution" at least 3840 pixels wide.
* Brands compare as the file writes them; superlatives and two-product comparisons are asserted
  to have one winner (a tie in a superlative becomes a list gold).
"""

from __future__ import annotations

import csv
import json
import random
import re
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2].parent / "shared" / "data" / "cameras-cameradatabase" / "camera_data.csv"
QUESTIONS = HERE / "questions.json"
SAMPLE, SEED = 1000, 2027

sys.path.insert(0, str(HERE.parent))
from shared import (  # noqa: E402
    AGGREGATION,
    GROUP,
    INVERSE,
    MULTI,
    REASONING,
    SetBuilder,
    clean_number,
    set_main,
)

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
LB, OZ = 453.59237, 28.349523125

SECTIONS = {
    "Sensor": [
        "Sensor size", "Sensor type", "Crop factor", "Sensor resolution", "Max. image resolution",
        "Megapixels", "Effective megapixels", "Total megapixels", "ISO", "White balance presets",
    ],
    "Lens": [
        "Focal length (35mm equiv.)", "Optical zoom", "Max aperture", "Max. aperture (35mm equiv.)",
        "Normal focus range", "Macro focus range",
    ],
    "Exposure": ["Min. shutter speed", "Max. shutter speed", "Exposure Compensation", "Metering"],
    "Screen & viewfinder": ["Screen size", "Screen resolution", "Viewfinder"],
    "Video": ["Max. video resolution"],
    "Storage & connectivity": ["Storage types", "USB"],
    "Body": ["Dimensions", "Weight", "Battery"],
    "General": ["Year", "Also known as"],
}  # fmt: skip
PROSE_ONLY = {"aperture": "Aperture priority", "shutter": "Shutter priority", "dzoom": "Digital zoom"}

# Phrasings of the prose-only facts. Written before any question; questions use other words.
SAYS = {
    ("aperture", True): [
        "An aperture-priority mode (A/Av) is available.",
        "You can set the f-stop yourself and let the camera pick the shutter speed.",
        "It offers aperture priority for control over depth of field.",
    ],
    ("aperture", False): [
        "There is no aperture-priority mode.",
        "It lacks an aperture priority setting.",
        "The maker left out aperture priority, so the f-stop cannot be chosen by hand.",
    ],
    ("shutter", True): [
        "Shutter priority (S/Tv) is supported.",
        "You can fix the shutter speed and let the camera choose the aperture.",
        "It has a shutter-priority mode for freezing motion.",
    ],
    ("shutter", False): [
        "It has no shutter-priority mode.",
        "Shutter priority is not offered.",
        "You cannot lock the shutter speed: shutter priority is missing.",
    ],
    ("dzoom", True): [
        "A digital zoom extends the reach beyond the lens.",
        "It adds digital zoom on top of the optics.",
        "Digital zoom is included.",
    ],
    ("dzoom", False): [
        "There is no digital zoom.",
        "It does without digital zoom.",
        "The maker left out digital zoom.",
    ],
}
BOTH = {  # aperture and shutter priority of opposite polarity in one sentence
    (True, False): "It has aperture priority but no shutter priority.",
    (False, True): "It offers shutter priority but lacks aperture priority.",
}


def _num(text: str, pattern: str) -> float | None:
    m = re.search(pattern, text.replace(",", ".") if '"' in text else text)
    return float(m.group(1)) if m else None


def _seconds(text: str) -> float | None:
    m = re.fullmatch(r"\s*(\d+)/(\d+)\s*sec\s*", text)
    if m:
        return int(m.group(1)) / int(m.group(2))
    m = re.fullmatch(r"\s*([\d.]+)\s*sec\s*", text)
    return float(m.group(1)) if m else None


@dataclass
class Cam:
    name: str
    brand: str
    raw: dict
    says: dict = field(default_factory=dict)  # prose-only fact -> True/False as the page states, absent = unstated
    page: str = ""

    def f(self, col: str) -> str:
        return self.raw.get(col, "").strip()

    @property
    def year(self) -> int:
        return int(self.f("Year"))

    @property
    def grams(self) -> float | None:
        return _num(self.f("Weight"), r"^([\d.]+)\s*g$")

    def dim(self, i: int) -> float | None:
        m = re.fullmatch(r"([\d.,]+)\s*[x×]\s*([\d.,]+)\s*[x×]\s*([\d.,]+)\s*mm", self.f("Dimensions"))
        return float(m.group(i + 1).replace(",", ".")) if m else None

    @property
    def screen_in(self) -> float | None:
        return _num(self.f("Screen size"), r'^([\d.]+)"$')

    @property
    def mp(self) -> float | None:
        v = self.f("Effective megapixels") or self.f("Megapixels")
        return float(v) if v else None

    @property
    def zoom(self) -> float | None:
        return _num(self.f("Optical zoom"), r"^([\d.]+)x$")

    def focal(self, end: int) -> float | None:
        nums = re.findall(r"[\d.]+", self.f("Focal length (35mm equiv.)"))
        return float(nums[end] if len(nums) > 1 else nums[0]) if nums else None

    @property
    def widest_f(self) -> float | None:
        return _num(self.f("Max aperture"), r"^f?([\d.]+)")

    @property
    def fastest_s(self) -> float | None:
        return _seconds(self.f("Max. shutter speed"))

    @property
    def longest_s(self) -> float | None:
        return _seconds(self.f("Min. shutter speed"))

    @property
    def video_w(self) -> int | None:
        m = re.match(r"(\d+)x(\d+)", self.f("Max. video resolution"))
        return int(m.group(1)) if m else None

    @property
    def crop(self) -> float | None:
        v = self.f("Crop factor")
        return float(v) if v else None


def load() -> list[Cam]:
    with open(DATA, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    rng = random.Random(SEED)
    keep = sorted(rng.sample(range(len(rows)), SAMPLE))
    cams = []
    for i in keep:
        r = rows[i]
        c = Cam(name=f"{r['Brand'].strip()} {r['Model'].strip()}", brand=r["Brand"].strip(), raw=r)
        truth = {k: {"Yes": True, "No": False}.get(r[col].strip()) for k, col in PROSE_ONLY.items()}
        stated = {k: v for k, v in truth.items() if v is not None and rng.random() < 0.85}
        sentences = [f"The {c.name} is a digital camera from {c.brand}, announced in {r['Year']}."]
        a, s = stated.get("aperture"), stated.get("shutter")
        if a is not None and s is not None and a != s and rng.random() < 0.35:
            sentences.append(BOTH[(a, s)])
            rest = ["dzoom"]
        else:
            rest = ["aperture", "shutter", "dzoom"]
        for k in rest:
            if k in stated:
                sentences.append(rng.choice(SAYS[(k, stated[k])]))
        head, tail = sentences[0], sentences[1:]
        rng.shuffle(tail)
        c.says, c.page = stated, " ".join([head, *tail])
        cams.append(c)
    assert len({c.name for c in cams}) == len(cams)
    return cams


def build_questions(cams: list[Cam]) -> list[dict]:
    b = SetBuilder(cams)
    by = lambda brand: [c for c in cams if c.brand == brand]  # noqa: E731
    says = lambda c, k: c.says.get(k)  # noqa: E731
    names = lambda pool: [c.name for c in pool]  # noqa: E731
    storage = lambda c, word: word in c.f("Storage types").lower()  # noqa: E731
    aa = lambda c: re.search(r"\bAA\b", c.f("Battery")) is not None  # noqa: E731
    ff = lambda c: c.crop == 1.0  # noqa: E731
    uhd = lambda c: (c.video_w or 0) >= 3840  # noqa: E731

    # ---- Inverse: one condition (spec)
    b.add("Which cameras have a full-frame sensor (crop factor 1)?", L, names=names(c for c in cams if ff(c)))
    b.add("Which Nikon cameras can record 4K video?", L, names=names(c for c in by("Nikon") if uhd(c)))
    b.add("Which cameras use a Foveon sensor?", L, names=names(c for c in cams if c.f("Sensor type") == "Foveon"))
    b.add("Which cameras weigh more than two pounds?", L, names=names(c for c in cams if (c.grams or 0) > 2 * LB))
    b.add(
        "Which models have a pentaprism viewfinder?",
        L,
        names=names(c for c in cams if c.f("Viewfinder") == "Optical (pentaprism)"),
    )
    b.add(
        "Which Fujifilm cameras take xD-Picture Cards?", L, names=names(c for c in by("Fujifilm") if storage(c, "xd"))
    )
    b.add("Which cameras connect over USB 3.2?", L, names=names(c for c in cams if c.f("USB").startswith("USB 3.2")))
    b.add("Which cameras have a 50x optical zoom or more?", L, names=names(c for c in cams if (c.zoom or 0) >= 50))
    b.add(
        "Which cameras reach shutter speeds of 1/32,000 s or faster?",
        L,
        names=names(c for c in cams if c.fastest_s is not None and c.fastest_s <= 1 / 32000),
    )
    b.add(
        "Which cameras have a screen larger than 8.5 cm?",
        L,
        names=names(c for c in cams if c.screen_in is not None and c.screen_in * 2.54 > 8.5),
    )
    b.add(
        "List the Canon cameras that take CompactFlash.",
        L,
        names=names(c for c in by("Canon") if storage(c, "compact")),
    )
    b.add("Which Sony cameras came out in 2014 or later?", L, names=names(c for c in by("Sony") if c.year >= 2014))

    # ---- Inverse: one prose-only fact (the page says it; unstated pages are neither)
    b.add(
        "Which Leica cameras let me choose the aperture while the camera sets the shutter speed?",
        L,
        names=names(c for c in by("Leica") if says(c, "aperture")),
        method="tkg",
    )
    b.add(
        "Which Ricoh cameras have a Tv / shutter-priority mode?",
        L,
        names=names(c for c in by("Ricoh") if says(c, "shutter")),
        method="tkg",
    )
    b.add(
        "Which Kodak cameras come without digital zoom?",
        L,
        names=names(c for c in by("Kodak") if says(c, "dzoom") is False),
        method="tkg",
    )
    b.add(
        "Which Pentax models don't offer aperture priority?",
        L,
        names=names(c for c in by("Pentax") if says(c, "aperture") is False),
        method="tkg",
    )

    # ---- Multi-condition (spec)
    b.add(
        "Which CMOS cameras from 2015 or later weigh under 10 oz?",
        M,
        names=names(
            c
            for c in cams
            if c.f("Sensor type") == "CMOS" and c.year >= 2015 and c.grams is not None and c.grams < 10 * OZ
        ),
    )
    b.add(
        "Which cameras with an electronic viewfinder weigh less than 400 g and were announced after 2012?",
        M,
        names=names(
            c
            for c in cams
            if c.f("Viewfinder").startswith("Electronic") and c.grams is not None and c.grams < 400 and c.year > 2012
        ),
    )
    b.add(
        'Which Olympus cameras have a 2.7" screen and use xD cards?',
        M,
        names=names(c for c in by("Olympus") if c.screen_in == 2.7 and storage(c, "xd")),
    )
    b.add(
        "Which Canon cameras have at least a 20x zoom and a three-inch display?",
        M,
        names=names(c for c in by("Canon") if (c.zoom or 0) >= 20 and c.screen_in == 3.0),
    )
    b.add(
        "Which full-frame cameras weigh under 1.5 lb?",
        M,
        names=names(c for c in cams if ff(c) and c.grams is not None and c.grams < 1.5 * LB),
    )
    b.add(
        "Which Fujifilm cameras run on AA batteries and weigh less than 250 grams?",
        M,
        names=names(c for c in by("Fujifilm") if aa(c) and c.grams is not None and c.grams < 250),
    )
    b.add(
        "Which Sony models shoot 4K and weigh under half a kilo?",
        M,
        names=names(c for c in by("Sony") if uhd(c) and c.grams is not None and c.grams < 500),
    )
    b.add(
        "Which Leica cameras weigh under 150 grams and have a full-frame sensor?",
        M,
        names=names(c for c in by("Leica") if ff(c) and c.grams is not None and c.grams < 150),
        empty=True,
    )

    # ---- Multi-condition with prose-only facts
    b.add(
        "Which Nikon cameras from 2010 or newer have shutter priority?",
        M,
        names=names(c for c in by("Nikon") if c.year >= 2010 and says(c, "shutter")),
        method="tkg",
    )
    b.add(
        "Which Samsung cameras with a 3-inch screen have no aperture-priority mode?",
        M,
        names=names(c for c in by("Samsung") if c.screen_in == 3.0 and says(c, "aperture") is False),
        method="tkg",
    )
    b.add(
        "Which Canon cameras offer both aperture priority and shutter priority?",
        M,
        names=names(c for c in by("Canon") if says(c, "aperture") and says(c, "shutter")),
        method="tkg",
    )
    b.add(
        "Which Panasonic cameras with a zoom of 10x or more lack digital zoom?",
        M,
        names=names(c for c in by("Panasonic") if (c.zoom or 0) >= 10 and says(c, "dzoom") is False),
        method="tkg",
        empty=True,
    )
    b.add(
        "Which Casio cameras weighing under 150 g have no shutter priority?",
        M,
        names=names(c for c in by("Casio") if c.grams is not None and c.grams < 150 and says(c, "shutter") is False),
        method="tkg",
    )

    # ---- two named products
    rng = random.Random(31)

    def pair(pool, key):
        pool = [c for c in pool if key(c) is not None]
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pair(by("Canon") + by("Nikon"), lambda c: c.grams)
    b.add(f"Which is lighter, the {x.name} or the {y.name}?", G, value=min((x, y), key=lambda c: c.grams).name)
    x, y = pair(by("Sony"), lambda c: c.screen_in)
    b.add(f"Which has the bigger screen, {x.name} or {y.name}?", G, value=max((x, y), key=lambda c: c.screen_in).name)
    x, y = pair(by("Fujifilm"), lambda c: c.mp)
    b.add(f"{x.name} or {y.name}: which has more megapixels?", G, value=max((x, y), key=lambda c: c.mp).name)
    x, y = pair(by("Panasonic") + by("Olympus"), lambda c: c.zoom)
    b.add(f"{x.name} vs {y.name} - which zooms further?", G, value=max((x, y), key=lambda c: c.zoom).name)
    x, y = pair(by("Olympus") + by("Pentax"), lambda c: c.fastest_s)
    b.add(
        f"Which camera has the faster top shutter speed, the {x.name} or the {y.name}?",
        G,
        value=min((x, y), key=lambda c: c.fastest_s).name,
    )
    x, y = pair(by("Samsung") + by("Casio"), lambda c: c.dim(2))
    b.add(f"Which is thinner: {x.name} or {y.name}?", G, value=min((x, y), key=lambda c: c.dim(2)).name)
    x, y = pair(by("Kodak") + by("HP"), lambda c: c.year)
    b.add(f"Which of these is newer, the {x.name} or the {y.name}?", G, value=max((x, y), key=lambda c: c.year).name)
    x, y = pair(by("Canon") + by("Sony"), lambda c: c.widest_f)
    b.add(
        f"Which has the brighter lens (wider maximum aperture), the {x.name} or the {y.name}?",
        G,
        value=min((x, y), key=lambda c: c.widest_f).name,
    )
    yes = [c for c in by("Nikon") + by("Fujifilm") if says(c, "aperture") is True]
    no = [c for c in by("Nikon") + by("Fujifilm") if says(c, "aperture") is False]
    x, y = rng.choice(yes), rng.choice(no)
    b.add(f"Which one has an aperture-priority mode, the {y.name} or the {x.name}?", G, value=x.name, method="tkg")
    yes = [c for c in by("Olympus") if says(c, "dzoom") is True]
    no = [c for c in by("Olympus") if says(c, "dzoom") is False]
    x, y = rng.choice(yes), rng.choice(no)
    b.add(f"Of the {x.name} and the {y.name}, which has no digital zoom?", G, value=y.name, method="tkg")

    # ---- Aggregation
    b.add("How many cameras have a CMOS sensor?", A, value=sum(c.f("Sensor type") == "CMOS" for c in cams))
    b.add("How many Olympus cameras take xD Picture Cards?", A, value=sum(storage(c, "xd") for c in by("Olympus")))
    b.add("How many cameras were announced in 2010?", A, value=sum(c.year == 2010 for c in cams))
    b.add_best("What is the heaviest camera in the catalog?", A, cams, lambda c: c.grams)
    b.add(
        "How much does the lightest Canon camera weigh, in grams?",
        A,
        value=clean_number(min(c.grams for c in by("Canon") if c.grams is not None)),
    )
    b.add(
        "What is the average weight of a Pentax camera, to the nearest gram?",
        A,
        value=round(statistics.mean(c.grams for c in by("Pentax") if c.grams is not None)),
    )
    b.add(
        "What is the largest screen size in the catalog, in centimetres?",
        A,
        value=clean_number(max(c.screen_in for c in cams if c.screen_in is not None) * 2.54),
    )
    b.add(
        "What is the longest optical zoom among the Canon cameras?",
        A,
        value=clean_number(max(c.zoom for c in by("Canon") if c.zoom)),
    )
    b.add_best("Which Nikon camera has the most megapixels?", A, by("Nikon"), lambda c: c.mp)
    b.add(
        "How thin is the slimmest Casio camera, in centimetres?",
        A,
        value=clean_number(min(c.dim(2) for c in by("Casio") if c.dim(2) is not None) / 10),
    )
    b.add("What's the earliest year of any Leica camera listed?", A, value=min(c.year for c in by("Leica")))
    b.add(
        "How many Sony cameras offer shutter priority?",
        A,
        value=sum(says(c, "shutter") is True for c in by("Sony")),
        method="tkg",
    )
    b.add(
        "How many Fujifilm cameras have no aperture priority?",
        A,
        value=sum(says(c, "aperture") is False for c in by("Fujifilm")),
        method="tkg",
    )

    # ---- Reasoning: single facts, conversions, shopper needs
    pick = random.Random(5)
    c = pick.choice([c for c in by("Nikon") if c.grams])
    b.add(f"How much does the {c.name} weigh in kilograms?", R, value=clean_number(c.grams / 1000))
    c = pick.choice([c for c in by("Olympus") if c.dim(2)])
    b.add(f"How thick is the {c.name}, in cm?", R, value=clean_number(c.dim(2) / 10))
    c = pick.choice([c for c in by("Canon") if c.longest_s and c.longest_s >= 1])
    b.add(f"What is the longest exposure the {c.name} can take, in seconds?", R, value=clean_number(c.longest_s))
    c = pick.choice([c for c in by("Sony") if c.screen_in])
    b.add(f"What size is the screen of the {c.name} in centimetres?", R, value=clean_number(c.screen_in * 2.54))
    aka = [c for c in by("Canon") if "EOS Kiss X7(Japan)" in c.f("Also known as")]
    b.add("Which camera is sold in Japan as the EOS Kiss X7?", R, value=aka[0].name)
    b.add(
        "I want a superzoom (30x or more) that weighs under a pound. Which ones fit?",
        R,
        names=names(c for c in cams if (c.zoom or 0) >= 30 and c.grams is not None and c.grams < LB),
    )
    b.add_best("Which is the lightest full-frame camera?", R, [c for c in cams if ff(c)], lambda c: c.grams, low=True)
    b.add(
        "For wildlife I need at least 1000 mm of reach (35mm equivalent). Which cameras get there?",
        R,
        names=names(c for c in cams if (c.focal(1) or 0) >= 1000),
    )
    c = pick.choice([c for c in by("Panasonic") if says(c, "shutter") is not None])
    b.add(f"Does the {c.name} have shutter priority?", R, value="yes" if says(c, "shutter") else "no", method="tkg")
    c = pick.choice([c for c in by("Samsung") if says(c, "dzoom") is not None])
    b.add(f"Does the {c.name} offer digital zoom?", R, value="yes" if says(c, "dzoom") else "no", method="tkg")
    return b.out


def write_catalog(cams: list[Cam], out: Path) -> None:
    rows = []
    for c in cams:
        specs = {}
        for section, cols in SECTIONS.items():
            entries = {col: c.f(col) for col in cols if c.f(col)}
            if entries:
                specs[section] = entries
        rows.append({"name": c.name, "brand": c.brand, "category": "Digital Cameras", "specs": specs, "page": c.page})
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "catalog.jsonl", "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    (out / "mapping.yaml").write_text(
        "# cameras: one row per camera; specs by section as the spec site writes them, three yes/no facts as page prose\n"
        "name: name\ncategories: category\nbrand: brand\ngroup_by: name\n"
        "specs_from: specs\ntext: [page]\nunmapped: drop\n",
        encoding="utf-8",
    )


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
