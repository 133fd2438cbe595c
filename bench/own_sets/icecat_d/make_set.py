"""A first-contact question set over the Open Icecat sample alone: "icecat_d".

Written before any code change for it, and without reading the query code, to measure the system
on a product domain other than phones: laptops, desktop PCs and workstations, TVs, TV mounts,
tablets and laptop spare parts, with a few phone and phone-case questions. Its score is evidence,
not a ceiling: nothing was tuned against it.

The catalog is every product of every category file in ``shared/data/icecat-sample/*.ndjson``
(83 products), one row each: the Icecat title as the name, the first category, the feed's price
string (synthetic: no question asks about price), the flat attribute table as the specs with its
raw strings untouched ("35.6 cm (14\\")", "1.09 kg", "16 GB") and the whole description text
(marketing prose plus its "Key Specifications" digest) as the page prose. The row format and
mapping are devmix's (``../devmix/make_set.py``), whose ``Builder`` this script reuses.

    python3 bench/own_sets/icecat_d/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/icecat_d/make_set.py --check     # golds well formed, questions.json current
    python3 bench/own_sets/icecat_d/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* Brand: the feed's ``brand`` field where it agrees with the first word of the title
  (case-insensitively), else the first word of the title. The field sometimes names a reseller or
  a mount vendor ("Neomounts" on a Samsung TV, "R-Go Tools" on a ThinkPad, "mcare" on Samsung
  phones, "iiyama" on a ThinkCentre, "C2G" on a Philips TV), so in effect the brand is the title's
  first word; brands compare case-insensitively ("DELL" = "Dell").
* Units: screen sizes are read from the inches in brackets of strings like '35.6 cm (14")';
  weights from "kg" or "g" (questions state the unit they want); memory and storage in GB
  (MB / 1024, TB = 1000 GB; no gold depends on the TB factor); clocks in GHz; counts of ports and
  cores are the integers of their attributes. A value that does not parse by these patterns, or
  an attribute a product lacks, is skipped (the product is left out of that filter, superlative or
  average), and questions were chosen so that no gold plausibly hinges on such a product: the
  Sony KDL-65W855A, whose table states no screen size or weight, is why no TV question asks for
  large or heavy sets; tablet batteries given in Wh are why the mAh question is about Android
  tablets only.
* "under / less than / more than" are strict, "at least / or more / or larger" inclusive.
* Prose-only questions (``gt_retrieval_method`` "tkg") read the marketing text before
  "Key Specifications:" with a regular expression; a product whose text does not say it is not a
  negative, so those questions only ask for the products that say it, and each is checked to be
  absent from the gold products' attribute tables.
* "Desktop PCs" are the PCs/Workstations category; "TV mounts" are TV Mounts & Stands; "laptop
  spare parts" are Laptop Spare Parts; superlatives refuse ties (a tie becomes a list gold).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2].parent / "shared" / "data" / "icecat-sample"
QUESTIONS = HERE / "questions.json"
MAX_LIST = 25

sys.path.insert(0, str(HERE.parent))
from shared import AGGREGATION, GROUP, INVERSE, MULTI, REASONING  # noqa: E402
from shared import devmix as dm  # noqa: E402

LAPTOPS, PCS, TVS, MOUNTS = "Laptops", "PCs/Workstations", "TVs", "TV Mounts & Stands"
TABLETS, PARTS, CASES = "Tablets", "Laptop Spare Parts", "Mobile Phone Cases"
SMARTPHONES, FEATURE_PHONES = "Smartphones", "Mobile Phones"

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION


@dataclass
class Product:
    name: str
    brand: str  # see the brand rule in the module docstring
    feed_brand: str
    category: str
    price: str
    attrs: dict
    description: str

    @property
    def prose(self) -> str:
        """The marketing text: the description before its "Key Specifications" digest, less the title."""
        return self.description.split("Key Specifications:")[0].replace(self.name, "", 1).strip()


def load() -> list[Product]:
    out = []
    for path in sorted(DATA.glob("*.ndjson")):
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            cats = d["categories"]
            cats = ast.literal_eval(cats) if isinstance(cats, str) else cats
            attrs = d["attrs"] if isinstance(d["attrs"], dict) else ast.literal_eval(d["attrs"])
            title = d["title"].strip()
            first, feed = title.split()[0], (d.get("brand") or "").strip()
            brand = feed if feed.lower() == first.lower() else first
            price = f"{d['price']} {d.get('currency') or 'USD'}" if d.get("price") is not None else ""
            out.append(Product(title, brand, feed, cats[0], price, attrs, d["description"]))
    names = [p.name for p in out]
    assert len(names) == len(set(names)), "duplicate titles"
    return out


# ---- parsers of the raw strings, written for this set only ----------------------------------------

_NUM = r"(\d+(?:\.\d+)?)"


def _raw(p: Product, key: str) -> str | None:
    v = p.attrs.get(key)
    return v.strip() if isinstance(v, str) else None


def number(p: Product, key: str, unit: str = "") -> float | None:
    """The number of an attribute written exactly "<number> <unit>" (or a bare number)."""
    v = _raw(p, key)
    if v is None:
        return None
    m = re.fullmatch(_NUM + (r"\s*" + re.escape(unit) if unit else ""), v)
    return float(m.group(1)) if m else None


def inches(p: Product, key: str = "Display diagonal") -> float | None:
    """'35.6 cm (14")' -> 14.0."""
    v = _raw(p, key)
    m = re.fullmatch(_NUM + r" cm \(" + _NUM + r'"\)', v or "")
    return float(m.group(2)) if m else None


def kg(p: Product, key: str = "Weight") -> float | None:
    """'1.09 kg' -> 1.09, '430 g' -> 0.43."""
    v = _raw(p, key)
    m = re.fullmatch(_NUM + r" (kg|g)", v or "")
    if not m:
        return None
    return float(m.group(1)) / (1000 if m.group(2) == "g" else 1)


def grams(p: Product, key: str = "Weight") -> float | None:
    w = kg(p, key)
    return None if w is None else round(w * 1000, 6)


def gb(p: Product, key: str) -> float | None:
    """'16 GB' -> 16, '512 MB' -> 0.5, '1 TB' -> 1000."""
    v = _raw(p, key)
    m = re.fullmatch(_NUM + r" (MB|GB|TB)", v or "")
    if not m:
        return None
    return float(m.group(1)) * {"MB": 1 / 1024, "GB": 1, "TB": 1000}[m.group(2)]


def count(p: Product, key: str) -> int | None:
    v = _raw(p, key)
    return int(v) if v is not None and re.fullmatch(r"\d+", v) else None


def pixels(p: Product, key: str = "Display resolution") -> tuple[int, int] | None:
    m = re.fullmatch(r"(\d+) x (\d+) pixels", _raw(p, key) or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def vesa(p: Product, key: str) -> tuple[int, int] | None:
    m = re.fullmatch(r"(\d+) x (\d+) mm", _raw(p, key) or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def screen_range(p: Product) -> tuple[float, float] | None:
    """The TV sizes a mount takes, in inches: min/max screen size, else a '762 - 1397 mm (30 - 55")' range."""
    lo, hi = inches(p, "Minimum screen size"), inches(p, "Maximum screen size")
    if lo is not None and hi is not None:
        return lo, hi
    m = re.fullmatch(
        _NUM + r" - " + _NUM + r" mm \(" + _NUM + r" - " + _NUM + r'"\)', _raw(p, "Screen size compatibility") or ""
    )
    return (float(m.group(3)), float(m.group(4))) if m else None


def says(p: Product, pattern: str, flags: int = 0) -> bool:
    return re.search(pattern, p.prose, flags) is not None


# ---- questions -----------------------------------------------------------------------------------


class Set:
    def __init__(self, items: list[Product]):
        self.items = items
        self.b = dm.Builder([], items)

    def cat(self, category: str, brand: str | None = None) -> list[Product]:
        return [p for p in self.items if p.category == category and (brand is None or p.brand.lower() == brand.lower())]

    def one(self, fragment: str, category: str | None = None) -> Product:
        """The single product whose title contains ``fragment`` (case-insensitively)."""
        hits = [
            p for p in self.items if fragment.lower() in p.name.lower() and (category is None or p.category == category)
        ]
        assert len(hits) == 1, (fragment, [p.name for p in hits])
        return hits[0]

    def add(self, question: str, category: str, method: str, *, names=None, value=None) -> None:
        if names is not None:
            known = {p.name for p in self.items}
            assert all(n in known for n in names), question
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        self.b.add(question, category, method, names=names, value=value, min_len=1, max_len=MAX_LIST)

    def best(self, question: str, category: str, pool: list[Product], key, *, low: bool = False) -> None:
        winners, _ = self.b.best(pool, key, low=low)
        self.b.add_best(question, category, "sparql", winners)

    def top(self, pool: list[Product], key, *, low: bool = False):
        return self.b.top_value(pool, key, low=low)

    def compare(self, question: str, x: Product, y: Product, key, *, low: bool = False) -> None:
        """A two-product comparison; the two values must differ."""
        kx, ky = key(x), key(y)
        assert kx is not None and ky is not None and kx != ky, (question, kx, ky)
        winner = (x if kx < ky else y) if low else (x if kx > ky else y)
        self.add(question, G, "sparql", value=winner.name)

    def prose(self, question: str, category: str, pool: list[Product], pattern: str, flags: int = 0, *, keep=None):
        """A prose-only list question: the products of ``pool`` whose marketing text matches ``pattern``."""
        hits = [p for p in pool if says(p, pattern, flags) and (keep is None or keep(p))]
        for p in hits:  # prose-only: the attribute table must not state it
            assert not any(re.search(pattern, f"{k} {v}", flags) for k, v in p.attrs.items()), (question, p.name)
        self.add(question, category, "tkg", names=[p.name for p in hits])
        return hits


def _avg(values: list[float]) -> float:
    v = sum(values) / len(values)
    assert abs(round(v, 2) - v) < 1e-9, ("average would need rounding", v)
    return round(v, 2)


def build_questions(s: Set) -> list[dict]:
    laptops, pcs, tvs, mounts = s.cat(LAPTOPS), s.cat(PCS), s.cat(TVS), s.cat(MOUNTS)
    tablets, parts = s.cat(TABLETS), s.cat(PARTS)
    names = lambda pool: [p.name for p in pool]  # noqa: E731
    wall = [p for p in mounts if _raw(p, "Mounting type") == "Wall"]
    android = [p for p in tablets if _raw(p, "Platform") == "Android"]

    # ---- scope: brand x category --------------------------------------------------------------
    s.add("Which Lenovo desktop computers do you carry?", L, "sparql", names=names(s.cat(PCS, "Lenovo")))
    s.add("Show me the Lenovo replacement parts for laptops.", L, "sparql", names=names(s.cat(PARTS, "Lenovo")))
    s.add("How many HP laptop spare parts are listed?", A, "sparql", value=len(s.cat(PARTS, "HP")))
    s.add("Which Dell laptops are available?", L, "sparql", names=names(s.cat(LAPTOPS, "Dell")))
    s.add("Which Hama TV mounts are there?", L, "sparql", names=names(s.cat(MOUNTS, "Hama")))
    s.add(
        "Which ceiling mounts for TVs do you sell?",
        L,
        "sparql",
        names=[p.name for p in mounts if _raw(p, "Mounting type") == "Ceiling"],
    )
    s.add("How many of the TV mounts are wall mounts?", A, "sparql", value=len(wall))
    s.add("How many Android tablets are in the catalog?", A, "sparql", value=len(android))
    s.add(
        "Which mini PCs are available?",
        L,
        "sparql",
        names=[p.name for p in pcs if _raw(p, "Chassis type") == "Mini PC"],
    )
    s.add(
        "Which desktop PCs have an AMD processor?",
        L,
        "sparql",
        names=[p.name for p in pcs if _raw(p, "Processor manufacturer") == "AMD"],
    )

    # ---- attributes, one condition -------------------------------------------------------------
    s.add("Which laptops have a 14-inch screen?", L, "sparql", names=[p.name for p in laptops if inches(p) == 14])
    s.add(
        "Which tablets have a screen of 10 inches or larger?",
        L,
        "sparql",
        names=[p.name for p in tablets if (inches(p) or 0) >= 10],
    )
    s.add(
        "Which TVs have a screen between 30 and 45 inches?",
        L,
        "sparql",
        names=[p.name for p in tvs if inches(p) is not None and 30 <= inches(p) <= 45],
    )
    s.add("Which laptops weigh more than 2 kg?", L, "sparql", names=[p.name for p in laptops if (kg(p) or 0) > 2])
    s.add(
        "Which tablets weigh under 400 grams?",
        L,
        "sparql",
        names=[p.name for p in tablets if grams(p) is not None and grams(p) < 400],
    )
    s.add(
        "Which desktop PCs come with 16 GB of RAM?",
        L,
        "sparql",
        names=[p.name for p in pcs if gb(p, "Internal memory") == 16],
    )
    s.add(
        "Which laptops have a 1 TB SSD?",
        L,
        "sparql",
        names=[p.name for p in laptops if _raw(p, "SSD capacity") == "1 TB"],
    )
    s.add(
        "Which desktop PCs have a 256 GB SSD?",
        L,
        "sparql",
        names=[p.name for p in pcs if gb(p, "SSD capacity") == 256],
    )
    s.add(
        "Which desktop PCs have at least 10 processor cores?",
        L,
        "sparql",
        names=[p.name for p in pcs if (count(p, "Processor cores") or 0) >= 10],
    )
    s.add(
        "Which desktop PCs have a processor that turbo boosts to 5 GHz or more?",
        L,
        "sparql",
        names=[p.name for p in pcs if (number(p, "Processor boost frequency", "GHz") or 0) >= 5],
    )
    s.add(
        "Which tablets have an eight-core processor?",
        L,
        "sparql",
        names=[p.name for p in tablets if count(p, "Processor cores") == 8],
    )
    s.add(
        "Which desktop PCs can take up to 128 GB of memory?",
        L,
        "sparql",
        names=[p.name for p in pcs if gb(p, "Maximum internal memory") == 128],
    )
    s.add(
        "Which laptops have a display with a 120 Hz refresh rate?",
        L,
        "sparql",
        names=[p.name for p in laptops if number(p, "Maximum refresh rate", "Hz") == 120],
    )
    s.add(
        "Which laptops have two Thunderbolt 4 ports?",
        L,
        "sparql",
        names=[p.name for p in laptops if count(p, "Thunderbolt 4 ports quantity") == 2],
    )
    s.add(
        "Which desktop PCs have an HDMI port?",
        L,
        "sparql",
        names=[p.name for p in pcs if (count(p, "HDMI ports quantity") or 0) >= 1],
    )
    s.add(
        "Which TVs have four HDMI inputs?",
        L,
        "sparql",
        names=[p.name for p in tvs if count(p, "HDMI ports quantity") == 4],
    )
    s.add(
        "Which TVs have a resolution of 1366 x 768 pixels?",
        L,
        "sparql",
        names=[p.name for p in tvs if pixels(p) == (1366, 768)],
    )
    s.add(
        "Which TVs are rated energy class A on the old label?",
        L,
        "sparql",
        names=[p.name for p in tvs if _raw(p, "Energy efficiency class (old)") == "A"],
    )
    s.add(
        "Which TV mounts support VESA patterns up to 800 x 400 mm?",
        L,
        "sparql",
        names=[p.name for p in mounts if vesa(p, "Maximum VESA mount") == (800, 400)],
    )
    s.add(
        "Which TV mounts accept a VESA pattern as small as 50 x 50 mm?",
        L,
        "sparql",
        names=[p.name for p in mounts if vesa(p, "Minimum VESA mount") == (50, 50)],
    )
    s.add(
        "Which wall mounts are rated for more than 35 kg?",
        L,
        "sparql",
        names=[p.name for p in wall if (kg(p, "Maximum weight capacity") or 0) > 35],
    )
    s.add(
        "Which replacement laptop displays are 15.6 inches?",
        L,
        "sparql",
        names=[p.name for p in parts if inches(p) == 15.6],
    )
    s.add(
        "Which laptop spare parts fit an HP Pavilion?",
        L,
        "sparql",
        names=[p.name for p in parts if "pavilion" in (_raw(p, "Compatibility") or "").lower()],
    )
    s.add(
        "Which Android tablets have a battery of at least 7000 mAh?",
        L,
        "sparql",
        names=[p.name for p in android if (number(p, "Battery capacity", "mAh") or 0) >= 7000],
    )
    s.add(
        "Which desktop PCs have an Intel Core i5 processor?",
        L,
        "sparql",
        names=[p.name for p in pcs if re.fullmatch(r"Intel® Core™ i5", _raw(p, "Processor family") or "")],
    )

    # ---- several conditions ----------------------------------------------------------------------
    s.add(
        "Which Lenovo laptops have 32 GB of RAM and a 1 TB SSD?",
        M,
        "sparql",
        names=[
            p.name
            for p in s.cat(LAPTOPS, "Lenovo")
            if gb(p, "Internal memory") == 32 and _raw(p, "SSD capacity") == "1 TB"
        ],
    )
    s.add(
        "Which tower PCs have 16 GB of RAM and a 512 GB SSD?",
        M,
        "sparql",
        names=[
            p.name
            for p in pcs
            if "Tower" in (_raw(p, "Chassis type") or "")
            and gb(p, "Internal memory") == 16
            and gb(p, "SSD capacity") == 512
        ],
    )
    s.add(
        "Which Android tablets have 4 GB of RAM and at least 64 GB of storage?",
        M,
        "sparql",
        names=[
            p.name for p in android if gb(p, "Internal memory") == 4 and (gb(p, "Internal storage capacity") or 0) >= 64
        ],
    )
    s.add(
        "Which Lenovo tablets have a 10.1-inch screen and 2 GB of RAM?",
        M,
        "sparql",
        names=[p.name for p in s.cat(TABLETS, "Lenovo") if inches(p) == 10.1 and gb(p, "Internal memory") == 2],
    )
    s.add(
        "Which Chief mounts can hold at least 90 kg?",
        M,
        "sparql",
        names=[p.name for p in s.cat(MOUNTS, "Chief") if (kg(p, "Maximum weight capacity") or 0) >= 90],
    )
    s.add(
        "Which Lenovo mini PCs have 8 GB of RAM or less?",
        M,
        "sparql",
        names=[
            p.name
            for p in s.cat(PCS, "Lenovo")
            if _raw(p, "Chassis type") == "Mini PC" and (gb(p, "Internal memory") or 99) <= 8
        ],
    )
    s.add(
        "Which Samsung tablets have Wi-Fi 5 and at least 32 GB of storage?",
        M,
        "sparql",
        names=[
            p.name
            for p in s.cat(TABLETS, "Samsung")
            if (_raw(p, "Top Wi-Fi standard") or "").startswith("Wi-Fi 5")
            and (gb(p, "Internal storage capacity") or 0) >= 32
        ],
    )
    s.add(
        "Which Lenovo laptops weigh less than 1.25 kg and have a 400-nit screen?",
        M,
        "sparql",
        names=[
            p.name
            for p in s.cat(LAPTOPS, "Lenovo")
            if (kg(p) or 9) < 1.25 and number(p, "Display brightness", "cd/m²") == 400
        ],
    )
    s.add(
        "Which HP desktop PCs have an SSD and at least 8 processor cores?",
        M,
        "sparql",
        names=[
            p.name
            for p in s.cat(PCS, "HP")
            if _raw(p, "Storage media") == "SSD" and (count(p, "Processor cores") or 0) >= 8
        ],
    )
    s.add(
        "Which Lenovo Android tablets weigh less than 350 g?",
        M,
        "sparql",
        names=[
            p.name
            for p in s.cat(TABLETS, "Lenovo")
            if _raw(p, "Platform") == "Android" and grams(p) is not None and grams(p) < 350
        ],
    )
    s.add(
        "Which wall mounts take VESA 400 x 400 and hold at least 35 kg?",
        M,
        "sparql",
        names=[
            p.name
            for p in wall
            if vesa(p, "Maximum VESA mount") == (400, 400) and (kg(p, "Maximum weight capacity") or 0) >= 35
        ],
    )
    s.add(
        "Which HP replacement displays are 15.6 inches?",
        M,
        "sparql",
        names=[p.name for p in s.cat(PARTS, "HP") if inches(p) == 15.6],
    )
    s.add(
        "Which Intel-powered laptops have at least 12 processor cores?",
        M,
        "sparql",
        names=[
            p.name
            for p in laptops
            if _raw(p, "Processor manufacturer") == "Intel" and (count(p, "Processor cores") or 0) >= 12
        ],
    )
    s.add(
        "Which Samsung smartphones have a 120 Hz display?",
        M,
        "sparql",
        names=[p.name for p in s.cat(SMARTPHONES, "Samsung") if number(p, "Maximum refresh rate", "Hz") == 120],
    )

    # ---- reasoning: unit conversion, fit, single facts -------------------------------------------
    s.add(
        "Which wall mounts are made for a 46-inch TV?",
        R,
        "sparql",
        names=[p.name for p in wall if screen_range(p) and screen_range(p)[0] <= 46 <= screen_range(p)[1]],
    )
    p = s.one("Galaxy Note 10.1", TABLETS)
    s.add("How heavy is the Samsung Galaxy Note 10.1 tablet in kilograms?", R, "sparql", value=kg(p))
    p = s.one("ThinkPad 8 ", TABLETS)
    s.add("What is the screen size of the Lenovo ThinkPad 8 tablet in inches?", R, "sparql", value=inches(p))
    p = s.one("HP Z2 SFF G4", PCS)
    s.add("How much does the HP Z2 SFF G4 workstation weigh, in kg?", R, "sparql", value=kg(p))
    p = s.one("Hama 00118083", MOUNTS)
    s.add(
        "What is the heaviest TV the Hama 00118083 mount can carry, in kg?",
        R,
        "sparql",
        value=number(p, "Maximum weight capacity", "kg"),
    )
    p = s.one("ESPRIMO E9900", PCS)
    s.add(
        "How many USB 2.0 ports does the Fujitsu ESPRIMO E9900 have?",
        R,
        "sparql",
        value=count(p, "USB 20 ports quantity"),
    )
    p = s.one("42CS460S", TVS)
    s.add(
        "What is the annual energy consumption of the LG 42CS460S TV, in kWh?",
        R,
        "sparql",
        value=number(p, "Annual energy consumption", "kWh"),
    )
    p = s.one("Fujitsu ARROWS Tab", TABLETS)
    s.add(
        "How many hours can the Fujitsu ARROWS Tab WQ2/D1 run on battery at most?",
        R,
        "sparql",
        value=number(p, "Battery life (max)", "h"),
    )
    p = s.one("Hisense 32A4K", TVS)
    s.add(
        "What energy efficiency class (SDR) does the Hisense 32A4K have?",
        R,
        "sparql",
        value=_raw(p, "Energy efficiency class (SDR)"),
    )
    p = s.one("ThinkPad T14s Gen 5", LAPTOPS)
    s.add(
        "What is the battery capacity of the ThinkPad T14s Gen 5, in Wh?",
        R,
        "sparql",
        value=number(p, "Battery capacity", "Wh"),
    )
    p = s.one("486901-061", PARTS)
    s.add(
        "Which keyboard language does the HP 486901-061 replacement keyboard have?",
        R,
        "sparql",
        value=_raw(p, "Keyboard language"),
    )

    # ---- superlatives and aggregates ---------------------------------------------------------------
    s.best("Which laptop is the heaviest?", A, laptops, kg)
    s.best("Which desktop PC is the heaviest?", A, pcs, kg)
    s.best("Which tablet has the largest screen?", A, tablets, inches)
    s.best("Which tablet is the heaviest?", A, tablets, kg)
    s.best("Which desktop PC has the most powerful power supply?", A, pcs, lambda p: number(p, "Power supply", "W"))
    s.best("Which desktop PC has the most DisplayPort outputs?", A, pcs, lambda p: count(p, "DisplayPorts quantity"))
    s.best(
        "Which tablet has the highest screen resolution?",
        A,
        tablets,
        lambda p: pixels(p) and pixels(p)[0] * pixels(p)[1],
    )
    s.best("Which Motorola phone is the lightest?", A, s.cat(FEATURE_PHONES, "Motorola"), kg, low=True)
    s.add(
        "What is the average weight of the Lenovo ThinkPad laptops, in kg?",
        A,
        "sparql",
        value=_avg([kg(p) for p in s.cat(LAPTOPS, "Lenovo") if "ThinkPad" in p.name and kg(p) is not None]),
    )
    s.add(
        "Among the Chief TV mounts that list a maximum load, what is their average load capacity, in kg?",
        A,
        "sparql",
        value=_avg(
            [
                kg(p, "Maximum weight capacity")
                for p in s.cat(MOUNTS, "Chief")
                if kg(p, "Maximum weight capacity") is not None
            ]
        ),
    )
    s.add(
        "What is the highest weight capacity of any TV wall mount, in kg?",
        A,
        "sparql",
        value=s.top(wall, lambda p: kg(p, "Maximum weight capacity")),
    )
    s.add("What is the smallest TV screen size, in inches?", A, "sparql", value=s.top(tvs, inches, low=True))
    s.add(
        "What is the highest processor core count among the desktop PCs?",
        A,
        "sparql",
        value=s.top(pcs, lambda p: count(p, "Processor cores")),
    )
    s.add(
        "How many TVs have a 16:9 screen?",
        A,
        "sparql",
        value=len([p for p in tvs if _raw(p, "Native aspect ratio") == "16:9"]),
    )
    s.add(
        "How many laptops come with an SSD?",
        A,
        "sparql",
        value=len([p for p in laptops if _raw(p, "Storage media") == "SSD"]),
    )
    s.add(
        "What is the largest battery among the Lenovo laptops, in Wh?",
        A,
        "sparql",
        value=s.top(s.cat(LAPTOPS, "Lenovo"), lambda p: number(p, "Battery capacity", "Wh")),
    )

    # ---- comparisons between two named products (named by a short part of the title) -------------
    s.compare(
        "Which is lighter: the ThinkPad X1 Carbon Gen 12 or the ThinkPad T14s Gen 5?",
        s.one("X1 Carbon Gen 12"),
        s.one("T14s Gen 5"),
        kg,
        low=True,
    )
    s.compare(
        "Which has the bigger screen, the Dell Inspiron 15R or the HP Compaq 6730b?",
        s.one("Inspiron 15R"),
        s.one("Compaq 6730b"),
        inches,
    )
    s.compare(
        "Which has more processor cores, the HP Z2 G9 or the ThinkCentre neo 50t Gen 5?",
        s.one("HP Z2 G9"),
        s.one("neo 50t Gen 5"),
        lambda p: count(p, "Processor cores"),
    )
    s.compare(
        "Which has the higher base clock speed, the ThinkCentre M70q Gen 4 or the ThinkCentre M910 Tiny?",
        s.one("M70q Gen 4"),
        s.one("M910 Tiny"),
        lambda p: number(p, "Processor frequency", "GHz"),
    )
    s.compare(
        "Which has more RAM, the ThinkCentre M910 Tiny or the ThinkCentre M75q?",
        s.one("M910 Tiny"),
        s.one("M75q"),
        lambda p: gb(p, "Internal memory"),
    )
    s.compare(
        "Which tablet has the bigger battery, the Galaxy Tab S6 Lite or the Lenovo Tab 2 A10-70?",
        s.one("Galaxy Tab S6 Lite"),
        s.one("Tab 2 A10-70"),
        lambda p: number(p, "Battery capacity", "mAh"),
    )
    s.compare(
        "Which TV is heavier with its stand, the Samsung UE40S9AS or the LG 42CS460S?",
        s.one("UE40S9AS"),
        s.one("42CS460S"),
        lambda p: kg(p, "Weight (with stand)"),
    )
    s.compare(
        "Which TV draws less power in standby, the Sharp LC-20SD5E or the Samsung UE40C6000?",
        s.one("LC-20SD5E"),
        s.one("UE40C6000"),
        lambda p: number(p, "Power consumption (standby)", "W"),
        low=True,
    )
    s.compare(
        "Which mount holds more weight, the Vogel's PHW 100 M or the Hama 00220808?",
        s.one("PHW 100 M"),
        s.one("Hama 00220808"),
        lambda p: kg(p, "Maximum weight capacity"),
    )
    s.compare(
        "Which replacement screen is larger, the Lenovo SIC1677678LCD0 or the Lenovo SIC1630731LCD0?",
        s.one("SIC1677678LCD0"),
        s.one("SIC1630731LCD0"),
        inches,
    )
    s.compare(
        "Which laptop has the brighter screen, the ThinkPad T14s Gen 3 or the ThinkPad T14s Gen 4?",
        s.one("T14s Gen 3"),
        s.one("T14s Gen 4"),
        lambda p: number(p, "Display brightness", "cd/m²"),
    )

    # ---- phones and cases (a minority on purpose) ---------------------------------------------------
    s.add(
        "Which smartphones have 12 GB of RAM?",
        L,
        "sparql",
        names=[p.name for p in s.cat(SMARTPHONES) if gb(p, "RAM capacity") == 12],
    )
    s.add(
        "Which smartphones are IP68 rated?",
        L,
        "sparql",
        names=[p.name for p in s.cat(SMARTPHONES) if _raw(p, "International Protection (IP) code") == "IP68"],
    )
    s.add(
        "Which phone cases are made for the Galaxy S4?",
        L,
        "sparql",
        names=[p.name for p in s.cat(CASES) if _raw(p, "Compatibility") == "Galaxy S4"],
    )
    s.add(
        "Which phone cases are folio cases?",
        L,
        "sparql",
        names=[p.name for p in s.cat(CASES) if _raw(p, "Case type") == "Folio"],
    )
    s.best("Which smartphone is the heaviest?", A, s.cat(SMARTPHONES), kg)
    s.compare("Which is lighter, the Sony W995 or the LG KU990?", s.one("Sony W995"), s.one("LG KU990"), kg, low=True)

    # ---- prose only (marketing text; silence is not a "no") -----------------------------------------
    s.prose("Which TV mounts come with a 10-year warranty?", L, mounts, r"10-year warranty")
    s.prose("Which TV mounts let you hang the screen in portrait orientation?", L, mounts, r"\bportrait\b")
    s.prose(
        "Which Chief mounts offer fingertip tilt adjustment with Centris technology?",
        M,
        s.cat(MOUNTS, "Chief"),
        r"Centris",
    )
    s.prose("Which wall mounts install on 16-inch center studs?", L, wall, r'16" center studs')
    s.prose("Which products ship in plastic-free packaging?", L, s.items, r"plastic-free", re.I)
    s.prose("Which desktop PCs can be mounted on a wall?", R, pcs, r"mount(?:ed)? (?:it )?on (?:a|the) wall", re.I)
    s.prose("Which Samsung tablets work with an S Pen?", M, s.cat(TABLETS, "Samsung"), r"S Pen")
    s.prose(
        "Which Samsung tablets with at least 4 GB of RAM come with an S Pen?",
        M,
        s.cat(TABLETS, "Samsung"),
        r"S Pen",
        keep=lambda p: (gb(p, "Internal memory") or 0) >= 4,
    )
    s.prose("Which tablet comes with free Dropbox cloud storage?", L, tablets, r"Dropbox")
    s.prose("Which desktop PC has Beats Audio?", L, pcs, r"Beats Audio")
    s.prose("Which laptop lets you swap its lid for a different design?", R, laptops, r"interchangeable lids")
    s.prose("Which laptop is certified for Zoom meetings?", L, laptops, r"Zoom-certified")
    s.prose("Which TV offers virtual 5.1-channel surround sound?", L, tvs, r"5\.1-channel")
    s.prose("Which TV can show my phone's screen wirelessly with Miracast?", R, tvs, r"Miracast")
    s.prose("Which workstation supports real-time ray tracing?", L, pcs, r"ray tracing")
    s.prose("Which desktop PC has a halogen-free mainboard?", L, pcs, r"[Hh]alogen-free")
    s.prose("Which TV mounts include Fischer wall plugs?", L, mounts, r"Fischer")
    s.prose("Which TV mounts lock the TV in place with a click?", R, mounts, r"\bclick", re.I)
    s.prose(
        "Which wall mounts that hold at least 50 kg allow portrait orientation?",
        M,
        wall,
        r"\bportrait\b",
        keep=lambda p: (kg(p, "Maximum weight capacity") or 0) >= 50,
    )
    s.prose("Which phone case includes a tempered glass screen protector?", L, s.cat(CASES), r"tempered glass")
    s.prose("Which Sony phone is a Walkman phone?", M, s.cat(FEATURE_PHONES, "Sony"), r"Walkman")
    cables = [p for p in mounts if says(p, r"CableTrac|cable management")]
    assert all(not any("cable" in f"{k} {v}".lower() for k, v in p.attrs.items()) for p in cables)
    s.add("How many TV mounts come with a cable management system?", A, "tkg", value=len(cables))
    return s.b.out


# ---- catalog and command line --------------------------------------------------------------------


def write_catalog(items: list[Product], out: Path) -> None:
    """One row per product, devmix's keys: name, category, price, specs (raw attribute strings), page."""
    rows = [
        {"name": p.name, "category": p.category, "price": p.price, "specs": p.attrs, "page": p.description}
        for p in items
    ]
    dm.write_rows(rows, out, "icecat_d: one row per Icecat product; specs come as an object, prose as the page text")


def validate(qs: list[dict]) -> list[str]:
    """Problems with the golds: every question has one, lists are 1..MAX_LIST long, no repeats."""
    problems = []
    seen = set()
    for i, q in enumerate(qs):
        if q["question"] in seen:
            problems.append(f"{i}: repeated question")
        seen.add(q["question"])
        if q["is_list"]:
            n = len(q["gt_answer_list"] or [])
            if not 1 <= n <= MAX_LIST:
                problems.append(f"{i}: list gold of {n}")
        elif q["gt_value"] is None or q["gt_value"] == "":
            problems.append(f"{i}: no value gold")
    return problems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write catalog.jsonl and mapping.yaml here")
    ap.add_argument("--check", action="store_true", help="fail if a gold is missing or questions.json is stale")
    ap.add_argument("--show", action="store_true", help="print every question with its gold")
    args = ap.parse_args()
    items = load()
    qs = build_questions(Set(items))
    problems = validate(qs)
    doc = {str(i): q for i, q in enumerate(qs)}
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if args.check:
        if problems:
            sys.exit("bad golds:\n" + "\n".join(problems))
        stale = not QUESTIONS.exists() or QUESTIONS.read_text(encoding="utf-8") != text
        sys.exit("questions.json is stale" if stale else 0)
    if problems:
        sys.exit("bad golds:\n" + "\n".join(problems))
    QUESTIONS.write_text(text, encoding="utf-8")
    if args.show:
        for i, q in enumerate(qs):
            gold = q["gt_answer_list"] if q["is_list"] else q["gt_value"]
            print(f"{i:2d} [{q['category'][:5]}|{q['gt_retrieval_method']}] {q['question']}\n    -> {gold}")
    print(f"{len(qs)} questions, {len(items)} Icecat products", file=sys.stderr)
    if args.out:
        write_catalog(items, Path(args.out))


if __name__ == "__main__":
    main()
