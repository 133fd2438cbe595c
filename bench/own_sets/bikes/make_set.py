"""A first-contact question set over a catalog of another domain: "bikes" (used mountain bikes).

Written and committed before it was run, without reading the question-parsing code, to measure the
system on a second-hand bike marketplace it was never tuned for. The products are real listings
of the Pinkbike Buy/Sell classifieds, sellers in Europe (spring 2023), in
``shared/data/mtb-pinkbike-europe/European_Bikes.csv`` (see its SOURCE.md and README.orig.md).

The catalog (one row per listing):

* a deterministic sample (``random.Random(SEED)``) of 1,000 listings, in file order (the exact
  duplicate row dropped first);
* the seller's title as the name (as written, outer spaces removed); a title two sampled
  listings share gets the city, then the listing ID, appended in brackets;
* the category as the site writes it ("Enduro Bikes", "Trail Bikes", "Ebikes - Mountain",
  "Downhill Bikes", "XC / Cross Country Bikes");
* price: the author's ``Price in USD`` column ("2750.0"), USD; the asking price as the site
  shows it ("$2200", always written with a dollar sign) and its ``Currency`` ("GBP", "EUR",
  "zl") are specs of their own;
* specs: brand, model year, frame size, wheel size, frame material, front travel, city, state,
  country, every value as the source writes it, padding included (" 27.5\\" / 650B            ");
* prose-only facts: the rear suspension (``Rear Travel``: "0 mm (Hardtail)" = a hardtail, a
  travel = full suspension, stated with its travel) and the ``Condition`` are taken out of the spec
  table and written only on the listing's page, in several phrasings, positive and negative; in
  about one page in five a fact is not stated at all (unknown), and a blank source cell is never
  stated.

    python3 bench/own_sets/bikes/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/bikes/make_set.py --check     # questions.json current
    python3 bench/own_sets/bikes/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* "under / less than / below / more than / over" are strict; "at least / or more / or newer"
  inclusive. A blank cell never satisfies a condition; a fact a page does not state is neither
  had nor lacked.
* Prices in dollars compare the ``Price in USD`` column; a question about a listing's own
  currency ("listed in euros") reads ``Currency`` and the number of ``Price``.
* Travel in cm is mm / 10 (exact); wheel sizes: "27.5-inch" = "650B" = the ``27.5" / 650B`` value,
  a "29er" = ``29"``; frame sizes compare the written size only (letters with letters, inches with
  inches), never converted between systems.
* Brands are the ``Brand`` column (derived from the title by the repo author), compared exactly.
* "The UK" is United Kingdom, Scotland, Wales and Northern Ireland (the site splits them).
* Condition order for "better condition": New > Excellent > Good > Poor > For Parts.
* "Steel" frames: the question says which of Steel / Chromoly it counts.
* Superlatives and two-listing comparisons are asserted to have a unique winner; lists hold at
  most 40 listings.
"""

from __future__ import annotations

import csv
import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2].parent / "shared" / "data" / "mtb-pinkbike-europe" / "European_Bikes.csv"
QUESTIONS = HERE / "questions.json"
SEED = 20261205
N = 1000
DEBUG = False  # True: a gold outside its bounds is printed, not asserted (used while choosing thresholds)

sys.path.insert(0, str(HERE.parent))
from shared import (  # noqa: E402
    AGGREGATION,
    GROUP,
    INVERSE,
    MULTI,
    REASONING,
    BoundedBuilder,
    set_main,
)

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
EBIKE, ENDURO, TRAIL, DH, XC = (
    "Ebikes - Mountain",
    "Enduro Bikes",
    "Trail Bikes",
    "Downhill Bikes",
    "XC / Cross Country Bikes",
)
UK = {"United Kingdom", "Scotland", "Wales", "Northern Ireland"}
CONDITIONS = ["New", "Excellent", "Good", "Poor", "For Parts"]  # best first

SPECS = {
    "Brand": "Bike:Brand",
    "Year": "Bike:Model Year",
    "Frame Size": "Frame:Frame Size",
    "Material": "Frame:Frame Material",
    "Wheel Size": "Wheels:Wheel Size",
    "Front Travel": "Suspension:Front Travel",
    "Price": "Listing:Asking Price",
    "Currency": "Listing:Currency",
    "City": "Location:City",
    "State": "Location:State",
    "Country": "Location:Country",
}

# Phrasings of the prose-only facts (questions use other words).
SAYS = {
    ("hardtail", True): [
        "There is no rear suspension: it is a hardtail.",
        "A hardtail, so no rear shock to service.",
        "Rigid rear end (hardtail frame).",
        "It's a hardtail.",
    ],
    ("hardtail", False): [
        "Full suspension with {rear} of rear travel.",
        "The rear shock gives {rear} of travel.",
        "A full-suspension bike, {rear} at the back.",
        "Dual suspension: {rear} rear travel, so it is not a hardtail.",
    ],
    "New": [
        "Brand new and never ridden, tags still on.",
        "Unridden, still with its tags.",
        "New bike, it has never been ridden.",
    ],
    "Excellent": [
        "Lightly ridden and in excellent condition.",
        "Barely used, excellent shape.",
        "In excellent condition with only light use.",
    ],
    "Good": [
        "Used but mechanically sound, in good condition.",
        "Good condition: it shows some wear but everything works.",
        "Ridden regularly and in good working order.",
    ],
    "Poor": [
        "It needs servicing before it is ridden again.",
        "Poor condition: it is due a full service.",
        "Needs some work; not in good condition.",
    ],
    "For Parts": [
        "Sold for parts: it is not rideable.",
        "Not working, for spares or repair.",
        "Unrideable, parts only.",
    ],
}


@dataclass
class Bike:
    name: str
    raw: dict
    hardtail: bool | None = None  # what the page states; None = not stated
    condition: str | None = None  # one of CONDITIONS as the page states it; None = not stated
    page: str = ""
    specs: dict = field(default_factory=dict)

    def col(self, key: str) -> str:
        return self.raw.get(key, "").strip()

    @property
    def category(self) -> str:
        return self.col("Category")

    @property
    def brand(self) -> str:
        return self.col("Brand")

    @property
    def country(self) -> str:
        return self.col("Country")

    def usd(self) -> float:
        return float(self.raw["Price in USD"])

    def asking(self) -> float:
        return float(self.col("Price").lstrip("$").replace(",", ""))

    def year(self) -> int | None:
        return int(self.col("Year")) if self.col("Year") else None

    def front_mm(self) -> int | None:
        m = re.match(r"(\d+) mm", self.col("Front Travel"))
        return int(m.group(1)) if m else None

    def rear_mm(self) -> int | None:
        m = re.match(r"(\d+) mm", self.col("Rear Travel"))
        return int(m.group(1)) if m else None

    def wheel(self) -> str:
        return self.col("Wheel Size")

    def material(self) -> str:
        return self.col("Material")

    def frame(self) -> str:
        return self.col("Frame Size")

    def source_condition(self) -> str | None:
        c = self.col("Condition")
        return next((x for x in CONDITIONS if c.startswith(x)), None) if c else None


def _key(name: str) -> str:
    """Names that differ only in case or spacing are one name to the import and the scorer."""
    return re.sub(r"\s+", "", name.casefold())


def load() -> list[Bike]:
    with open(DATA, encoding="utf-8", newline="") as f:
        rows, seen = [], set()
        for r in csv.DictReader(f):
            key = tuple(r.values())
            if key not in seen:
                seen.add(key)
                rows.append(r)
    rng = random.Random(SEED)
    keep = sorted(rng.sample(range(len(rows)), N))
    bikes = [Bike(rows[i]["Title"].strip(), rows[i]) for i in keep]
    for extra in (lambda b: b.col("City"), lambda b: b.col("ID")):
        count: dict[str, int] = {}
        for b in bikes:
            count[_key(b.name)] = count.get(_key(b.name), 0) + 1
        for b in bikes:
            if count[_key(b.name)] > 1:
                b.name = f"{b.name} ({extra(b)})"
    names = [_key(b.name) for b in bikes]
    assert len(set(names)) == len(names)
    prose = random.Random(SEED + 1)
    for b in bikes:
        b.specs = {label: b.raw[col] for col, label in SPECS.items() if b.raw.get(col, "").strip()}
        where = ", ".join(x for x in (b.col("City"), b.col("Country")) if x)
        sentences = []
        rear = b.rear_mm()
        if rear is not None and prose.random() < 0.8:
            b.hardtail = rear == 0
            text = prose.choice(SAYS[("hardtail", b.hardtail)])
            sentences.append(text.format(rear=b.col("Rear Travel")))
        cond = b.source_condition()
        if cond is not None and prose.random() < 0.8:
            b.condition = cond
            sentences.append(prose.choice(SAYS[cond]))
        prose.shuffle(sentences)
        b.page = " ".join([f"{b.name}: a used mountain bike for sale in {where}.", *sentences])
    return bikes


# ---- questions ----------------------------------------------------------------------------


def build_questions(bikes: list[Bike]) -> list[dict]:
    b = BoundedBuilder(bikes, debug=DEBUG)
    cat = lambda c: [x for x in bikes if x.category == c]  # noqa: E731
    brand = lambda s: [x for x in bikes if x.brand == s]  # noqa: E731
    names = lambda pool: [x.name for x in pool]  # noqa: E731
    w275, w29, w26 = '27.5" / 650B', '29"', '26"'

    # ---- one condition, spec table
    b.add("Which bikes are for sale in Portugal?", L, names=names(x for x in bikes if x.country == "Portugal"))
    b.add("Which titanium bikes are listed?", L, names=names(x for x in bikes if x.material() == "Titanium"))
    b.add(
        "Which bikes have more than 20 cm of front travel?",
        L,
        names=names(x for x in bikes if (x.front_mm() or 0) > 200),
    )
    b.add("Which listings are model year 2023 or newer?", L, names=names(x for x in bikes if (x.year() or 0) >= 2023))
    b.add("Which bikes are priced in Polish złoty?", L, names=names(x for x in bikes if x.col("Currency") == "zl"))
    b.add("Which Yeti bikes are for sale?", L, names=names(brand("Yeti")))
    b.add("Which bikes cost more than $9,000?", L, names=names(x for x in bikes if x.usd() > 9000))
    b.add("Which bikes come in a frame size of XXL?", L, names=names(x for x in bikes if x.frame() == "XXL"))
    b.add("Which bikes have no front suspension?", L, names=names(x for x in bikes if x.front_mm() == 0))
    b.add("Which mountain bikes are being sold in Greece?", L, names=names(x for x in bikes if x.country == "Greece"))
    b.add("Which bikes have a 19-inch frame?", L, names=names(x for x in bikes if x.frame() == '19"'))

    # ---- one condition, prose only
    b.add(
        "Which downhill bikes are hardtails?",
        L,
        "tkg",
        names=names(x for x in cat(DH) if x.hardtail is True),
        min_len=0,
    )
    b.add(
        "Which Trek bikes have never been ridden?",
        L,
        "tkg",
        names=names(x for x in brand("Trek") if x.condition == "New"),
    )
    b.add("Which bikes need servicing?", L, "tkg", names=names(x for x in bikes if x.condition == "Poor"))
    b.add("Which cross-country bikes are hardtails?", L, "tkg", names=names(x for x in cat(XC) if x.hardtail is True))
    b.add(
        "Which Orange bikes have full suspension?",
        L,
        "tkg",
        names=names(x for x in brand("Orange") if x.hardtail is False),
    )

    # ---- several conditions
    b.add(
        "Which carbon enduro bikes cost under $1,500?",
        M,
        names=names(x for x in cat(ENDURO) if x.material() == "Carbon Fiber" and x.usd() < 1500),
    )
    b.add(
        "Which 29er trail bikes from 2022 or later have 150 mm or more of fork travel?",
        M,
        names=names(
            x for x in cat(TRAIL) if x.wheel() == w29 and (x.year() or 0) >= 2022 and (x.front_mm() or 0) >= 150
        ),
    )
    b.add(
        "Which Specialized e-bikes cost less than $4,000?",
        M,
        names=names(x for x in cat(EBIKE) if x.brand == "Specialized" and x.usd() < 4000),
    )
    b.add(
        "Which aluminium downhill bikes with 27.5-inch wheels cost under $2,000?",
        M,
        names=names(x for x in cat(DH) if x.material() == "Aluminium" and x.wheel() == w275 and x.usd() < 2000),
    )
    b.add(
        "Which Santa Cruz bikes in size XL are under 3000 dollars?",
        M,
        names=names(x for x in brand("Santa Cruz") if x.frame() == "XL" and x.usd() < 3000),
    )
    b.add(
        "Which bikes listed in euros cost less than €1,000?",
        M,
        names=names(x for x in bikes if x.col("Currency") == "EUR" and x.asking() < 1000),
    )
    b.add(
        "Which carbon e-bikes are for sale in Scotland?",
        M,
        names=names(x for x in cat(EBIKE) if x.country == "Scotland" and x.material() == "Carbon Fiber"),
    )
    b.add(
        "Which aluminum hardtails cost less than $600?",
        M,
        "tkg",
        names=names(x for x in bikes if x.material() == "Aluminium" and x.hardtail is True and x.usd() < 600),
    )
    b.add(
        "Which full-suspension XC bikes are in excellent condition?",
        M,
        "tkg",
        names=names(x for x in cat(XC) if x.hardtail is False and x.condition == "Excellent"),
    )
    b.add(
        "Which brand-new enduro bikes cost under $3,000?",
        M,
        "tkg",
        names=names(x for x in cat(ENDURO) if x.condition == "New" and x.usd() < 3000),
    )
    b.add(
        "Which steel or chromoly hardtails are listed for under $800?",
        M,
        "tkg",
        names=names(x for x in bikes if x.material() in ("Steel", "Chromoly") and x.hardtail is True and x.usd() < 800),
    )
    b.add(
        "Which 26-inch wheeled bikes in good condition cost less than $400?",
        M,
        "tkg",
        names=names(x for x in bikes if x.wheel() == w26 and x.condition == "Good" and x.usd() < 400),
    )
    b.add(
        "Which titanium downhill bikes are for sale?",
        M,
        names=names(x for x in cat(DH) if x.material() == "Titanium"),
        min_len=0,
    )

    # ---- two named listings
    rng = random.Random(SEED + 2)
    plain = [x for x in bikes if "(" not in x.name]

    def pick(pool, key):
        pool = [x for x in pool if key(x) is not None and "(" not in x.name]
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pick(cat(ENDURO), Bike.usd)
    b.add(f"Which is cheaper: {x.name} or {y.name}?", G, value=min((x, y), key=Bike.usd).name)
    x, y = pick(cat(TRAIL) + cat(ENDURO), Bike.front_mm)
    b.add(f"Which has more fork travel, the {x.name} or the {y.name}?", G, value=max((x, y), key=Bike.front_mm).name)
    x, y = pick(brand("Specialized"), Bike.year)
    b.add(f"{x.name} vs {y.name}: which one is the newer model?", G, value=max((x, y), key=Bike.year).name)
    x, y = rng.choice([x for x in plain if x.wheel() == w29]), rng.choice([x for x in plain if x.wheel() == w275])
    b.add(f"Which rolls on bigger wheels, the {y.name} or the {x.name}?", G, value=x.name)
    x, y = pick(cat(DH), Bike.usd)
    b.add(f"Which costs more, {x.name} or {y.name}?", G, value=max((x, y), key=Bike.usd).name)
    x = rng.choice([x for x in plain if x.material() == "Carbon Fiber"])
    y = rng.choice([x for x in plain if x.material() == "Aluminium"])
    b.add(f"Which of these has a carbon frame: {y.name} or {x.name}?", G, value=x.name)
    x = rng.choice([x for x in plain if x.hardtail is True])
    y = rng.choice([x for x in plain if x.hardtail is False])
    b.add(f"Which one is a hardtail, the {y.name} or the {x.name}?", G, "tkg", value=x.name)
    x = rng.choice([x for x in plain if x.condition == "New"])
    y = rng.choice([x for x in plain if x.condition == "Good"])
    b.add(f"Which is in better condition, {y.name} or {x.name}?", G, "tkg", value=x.name)

    # ---- counts, extremes
    b.add("How many electric mountain bikes are listed?", A, value=len(cat(EBIKE)))
    b.add("How many bikes are for sale in Wales?", A, value=len([x for x in bikes if x.country == "Wales"]))
    b.add("What is the cheapest downhill bike?", A, value=b.best_one(cat(DH), Bike.usd, low=True).name)
    b.add("Which Commencal bike is the most expensive?", A, value=b.best_one(brand("Commencal"), Bike.usd).name)
    b.add(
        "What is the most front travel on any cross-country bike, in mm?",
        A,
        value=b.top_value(cat(XC), Bike.front_mm),
    )
    trek = [x for x in brand("Trek") if x.material() == "Carbon Fiber"]
    b.add("What is the lowest price of a carbon Trek, in US dollars?", A, value=b.top_value(trek, Bike.usd, low=True))
    b.add(
        "How many hardtails are listed among the trail bikes?",
        A,
        "tkg",
        value=len([x for x in cat(TRAIL) if x.hardtail is True]),
    )
    b.add("How many bikes are sold as brand new?", A, "tkg", value=len([x for x in bikes if x.condition == "New"]))
    b.add("How many bikes have 650B wheels?", A, value=len([x for x in bikes if x.wheel() == w275]))
    b.add(
        "How many Nukeproof bikes are 2021 models?", A, value=len([x for x in brand("Nukeproof") if x.year() == 2021])
    )
    b.add(
        "What is the longest fork travel on an enduro bike, in centimetres?",
        A,
        value=b.top_value(cat(ENDURO), Bike.front_mm) / 10,
    )
    b.add("How many listings are priced in euros?", A, value=len([x for x in bikes if x.col("Currency") == "EUR"]))
    b.add(
        "Which e-bike is the cheapest?",
        A,
        value=b.best_one(cat(EBIKE), Bike.usd, low=True).name,
    )

    # ---- single facts, reasoning
    rng = random.Random(SEED + 3)
    b.add("How many bikes are for sale in the UK?", R, value=len([x for x in bikes if x.country in UK]))
    x = rng.choice([x for x in plain if x.category == ENDURO])
    b.add(f"What is the price of the {x.name} in dollars?", R, value=x.usd())
    x = rng.choice([x for x in plain if x.front_mm()])
    b.add(f"How much front travel does the {x.name} have, in millimetres?", R, value=x.front_mm())
    x = rng.choice([x for x in plain if x.col("Currency") == "GBP"])
    b.add(f"How much is the seller asking for the {x.name}, in pounds?", R, value=x.asking())
    x = rng.choice([x for x in plain if x.hardtail is not None and x.category == TRAIL])
    b.add(f"Is the {x.name} a hardtail?", R, "tkg", value="yes" if x.hardtail else "no")
    b.add(
        "Which downhill bikes have a steel frame (chromoly counts)?",
        R,
        names=names(x for x in cat(DH) if x.material() in ("Steel", "Chromoly")),
        min_len=0,
    )
    b.add(
        "Which carbon bikes are from before 2014?",
        R,
        names=names(x for x in bikes if x.material() == "Carbon Fiber" and x.year() is not None and x.year() < 2014),
    )
    b.add(
        "Which downhill bikes are for sale outside the UK and Ireland?",
        R,
        names=names(x for x in cat(DH) if x.country not in UK | {"Ireland"}),
    )
    b.add(
        "Which XC bikes have at least 13 cm of fork travel?",
        R,
        names=names(x for x in cat(XC) if (x.front_mm() or 0) >= 130),
    )
    return b.out


def write_catalog(bikes: list[Bike], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "catalog.jsonl", "w", encoding="utf-8") as f:
        for x in bikes:
            row = {
                "name": x.name,
                "category": x.category,
                "price": x.raw["Price in USD"],
                "specs": x.specs,
                "page": x.page,
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    (out / "mapping.yaml").write_text(
        "# bikes: one row per used-bike listing; specs come as an object (raw padded strings),\n"
        "# the rear suspension and the condition as the page text; price is the listing's USD column\n"
        "name: name\ncategories: category\nprice: {column: price, currency: USD}\ngroup_by: name\n"
        "specs_from: specs\ntext: [page]\nunmapped: drop\n",
        encoding="utf-8",
    )


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
