"""A first-contact question set over a catalog of another domain: "fridges".

Written and committed before it was run, to measure the system on a product domain no code or
word list of this project was written for: the US EPA list of ENERGY STAR certified residential
refrigerators in ``shared/data/fridges-energystar/ENERGY_STAR_Certified_Residential_Refrigerators.csv``
(2,962 models, certification dates 2010-2021). A regulator's table, not a shop: the units sit in
the column names ("Height (in)", "Capacity (Total Volume) (ft3)", "Annual Energy Use (kWh/yr)"),
the cells hold bare numbers, yes/no flags and MM/DD/YYYY dates, and the brand is spelled several
ways ("KitchenAid" / "Kitchen Aid", "Jenn-Air" / "Jenn Air").

The catalog: 1,000 rows drawn with a fixed seed (file order kept), one product each, named
"<Brand Name> <Model Number>" as the file writes them (the ENERGY STAR Unique ID appended in
brackets where two rows share that name), one category "Refrigerators", no price (the file has
none), the brand as the brand column, and the other columns as specs with their raw cells and
their own column names as entry names, under sections (Type & build, Dimensions, Capacity, Energy,
Connectivity, Certification, Model). Three yes/no columns are taken out of the table and said only
in the product page's prose, several phrasings each, positive and negative, sometimes two facts of
opposite polarity in one sentence, and for some products not at all: the ice maker, the
through-the-door dispenser and counter depth. "Product Class" is left out of the catalog because
its legal label spells out the ice maker and the door ice service ("... with an automatic icemaker
without through-the-door ice service"); "CB Model Identifier" is left out as an internal key.

    python3 bench/own_sets/fridges/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/fridges/make_set.py --check     # questions.json is current
    python3 bench/own_sets/fridges/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* A brand is the "Brand Name" compared without case, spaces or punctuation ("Kitchen Aid" =
  "KitchenAid", "Jenn Air" = "Jenn-Air"; a misspelling such as "FRIGIAIRE" is another brand).
* Prose-only facts (``gt_retrieval_method`` "tkg") read what the page states; a page that says
  nothing about a fact neither has nor lacks it. Spec yes/no columns read "Yes" / "No".
* "under / less than / narrower than" are strict, "at least / or more / up to / at most" inclusive.
* Inches are 2.54 cm; cubic feet are 28.316846592 litres (exact factors; thresholds in the
  questions are converted exactly, never rounded); a height in feet is 12 inches.
* Dates are the MM/DD/YYYY of "Date Available On Market" / "Date Certified"; a year is its year.
* "Sold in Canada" / "in the US" read the "Markets" list; "Wi-Fi" is "Connects Using" = "Wi-Fi";
  "R-600a" is the "Refrigerant Type" compared without case or hyphen.
* Superlatives and two-product comparisons are asserted to have one winner (a tie in a
  superlative becomes a list gold); lists hold at most 40 names.
"""

from __future__ import annotations

import csv
import json
import random
import re
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = (
    HERE.parents[2].parent
    / "shared"
    / "data"
    / "fridges-energystar"
    / "ENERGY_STAR_Certified_Residential_Refrigerators.csv"
)
QUESTIONS = HERE / "questions.json"
SAMPLE, SEED = 1000, 4242

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
LITRE_PER_FT3 = 28.316846592

SECTIONS = {
    "Type & build": ["Type", "Defrost Type", "Compact", "Built-in", "Refrigerant Type"],
    "Dimensions": ["Height (in)", "Width (in)"],
    "Capacity": ["Capacity (Total Volume) (ft3)", "Adjusted Volume (ft3)"],
    "Energy": [
        "Annual Energy Use (kWh/yr)",
        "US Federal Standard (kWh/yr)",
        "Percent Less Energy Use than US Federal Standard",
        "Meets ENERGY STAR Most Efficient 2021 Criteria",
    ],
    "Connectivity": [
        "Connected Functionality",
        "Connects Using",
        "Communication Standard Application Layer",
        "Direct on-premises Open-standard Based Interconnection",
    ],
    "Certification": ["ENERGY STAR Unique ID", "Date Available On Market", "Date Certified", "Markets"],
    "Model": ["Model Number", "Additional Model Information"],
}
PROSE_ONLY = {"ice": "Ice Maker", "door": "Thru the Door Dispenser", "counter": "Counter Depth"}

# Phrasings of the prose-only facts. Written before any question; questions use other words.
SAYS = {
    ("ice", True): [
        "It has an automatic ice maker.",
        "Ice is made automatically in the freezer.",
        "A built-in icemaker keeps the bin full.",
    ],
    ("ice", False): [
        "It has no ice maker.",
        "There is no automatic icemaker, so you will need trays.",
        "The maker left out the ice maker.",
    ],
    ("door", True): [
        "Water and ice come through the door dispenser.",
        "It has a through-the-door dispenser.",
        "An in-door dispenser serves chilled water without opening the fridge.",
    ],
    ("door", False): [
        "The maker left out the through-the-door dispenser.",
        "There is no dispenser in the door.",
        "It lacks a through-the-door water and ice dispenser.",
    ],
    ("counter", True): [
        "Its counter-depth design sits flush with the cabinets.",
        "It is a counter-depth model.",
        "Built to counter depth, it does not stick out past the worktop.",
    ],
    ("counter", False): [
        "It is a standard-depth model, not counter-depth.",
        "It is not counter depth, so it sticks out past the counters.",
        "This is a full-depth fridge rather than a counter-depth one.",
    ],
}
BOTH = {  # ice maker and door dispenser of opposite polarity in one sentence
    (True, False): "It makes its own ice but has no through-the-door dispenser.",
    (False, True): "It has a door dispenser for water but no ice maker.",
}


def brand_key(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


@dataclass
class Fridge:
    name: str
    raw: dict
    says: dict = field(default_factory=dict)  # prose-only fact -> True/False as the page states, absent = unstated
    page: str = ""

    def f(self, col: str) -> str:
        return self.raw.get(col, "").strip()

    def num(self, col: str) -> float | None:
        v = self.f(col)
        return float(v) if re.fullmatch(r"\d+(\.\d+)?", v) else None

    def yes(self, col: str) -> bool | None:
        return {"Yes": True, "No": False}.get(self.f(col))

    @property
    def brand(self) -> str:
        return brand_key(self.f("Brand Name"))

    @property
    def type(self) -> str:
        return self.f("Type")

    @property
    def height(self) -> float | None:
        return self.num("Height (in)")

    @property
    def width(self) -> float | None:
        return self.num("Width (in)")

    @property
    def volume(self) -> float | None:
        return self.num("Capacity (Total Volume) (ft3)")

    @property
    def kwh(self) -> float | None:
        return self.num("Annual Energy Use (kWh/yr)")

    @property
    def pct(self) -> float | None:
        return self.num("Percent Less Energy Use than US Federal Standard")

    def year(self, col: str) -> int:
        return int(re.fullmatch(r"\d\d/\d\d/(\d{4})", self.f(col)).group(1))

    def date(self, col: str) -> tuple[int, int, int]:
        m, d, y = (int(x) for x in self.f(col).split("/"))
        return (y, m, d)

    @property
    def markets(self) -> set[str]:
        return {m.strip() for m in self.f("Markets").split(",")}


def load() -> list[Fridge]:
    with open(DATA, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    rng = random.Random(SEED)
    keep = sorted(rng.sample(range(len(rows)), SAMPLE))
    base = lambda r: f"{r['Brand Name'].strip()} {r['Model Number'].strip()}"  # noqa: E731
    seen = Counter(base(rows[i]).lower() for i in keep)
    out = []
    for i in keep:
        r = rows[i]
        name = base(r)
        if seen[name.lower()] > 1:
            name = f"{name} ({r['ENERGY STAR Unique ID'].strip()})"
        fr = Fridge(name=name, raw=r)
        truth = {k: {"Yes": True, "No": False}.get(r[col].strip()) for k, col in PROSE_ONLY.items()}
        stated = {k: v for k, v in truth.items() if v is not None and rng.random() < 0.85}
        kind = r["Type"].strip().lower()
        sentences = [f"The {name} is a {kind} refrigerator model from {r['Brand Name'].strip()}."]
        ice, door = stated.get("ice"), stated.get("door")
        if ice is not None and door is not None and ice != door and rng.random() < 0.4:
            sentences.append(BOTH[(ice, door)])
            rest = ["counter"]
        else:
            rest = ["ice", "door", "counter"]
        for k in rest:
            if k in stated:
                sentences.append(rng.choice(SAYS[(k, stated[k])]))
        head, tail = sentences[0], sentences[1:]
        rng.shuffle(tail)
        fr.says, fr.page = stated, " ".join([head, *tail])
        out.append(fr)
    assert len({x.name.lower() for x in out}) == len(out)
    return out


def build_questions(fs: list[Fridge]) -> list[dict]:
    b = SetBuilder(fs)
    by = lambda brand: [x for x in fs if x.brand == brand_key(brand)]  # noqa: E731
    of = lambda kind: [x for x in fs if x.type == kind]  # noqa: E731
    says = lambda x, k: x.says.get(k)  # noqa: E731
    names = lambda pool: [x.name for x in pool]  # noqa: E731
    wifi = lambda x: x.f("Connects Using") == "Wi-Fi"  # noqa: E731
    r600a = lambda x: brand_key(x.f("Refrigerant Type")) == "r600a"  # noqa: E731

    # ---- Inverse (spec)
    b.add("Which LG fridges can connect to Wi-Fi?", L, names=names(x for x in by("LG") if wifi(x)))
    b.add(
        "Which Samsung refrigerators meet the ENERGY STAR Most Efficient 2021 criteria?",
        L,
        names=names(x for x in by("Samsung") if x.yes("Meets ENERGY STAR Most Efficient 2021 Criteria")),
    )
    b.add("Which refrigerators are taller than 213 cm?", L, names=names(x for x in fs if x.height * 2.54 > 213))
    b.add(
        "Which fridges hold at least 800 litres?",
        L,
        names=names(x for x in fs if x.volume * LITRE_PER_FT3 >= 800),
    )
    b.add(
        "Which side-by-side refrigerators use less than 600 kWh a year?",
        L,
        names=names(x for x in of("Side-by-Side") if x.kwh < 600),
    )
    b.add(
        "Which compact models are sold only in Canada?",
        L,
        names=names(x for x in of("Compact") if x.markets == {"Canada"}),
    )
    b.add(
        "Which bottom-freezer fridges run on R600a refrigerant?",
        L,
        names=names(x for x in of("Bottom Freezer") if r600a(x)),
    )
    b.add(
        "Which Whirlpool refrigerators need manual defrosting?",
        L,
        names=names(x for x in by("Whirlpool") if x.f("Defrost Type") == "Manual"),
        empty=not any(x.f("Defrost Type") == "Manual" for x in by("Whirlpool")),
    )
    b.add(
        "Which fridges use at least 35% less energy than the federal standard?",
        L,
        names=names(x for x in fs if x.pct is not None and x.pct >= 35),
    )
    b.add(
        "Which KitchenAid refrigerators are built in?", L, names=names(x for x in by("KitchenAid") if x.yes("Built-in"))
    )
    b.add("Which fridges are also sold in Taiwan?", L, names=names(x for x in fs if "Taiwan" in x.markets))

    # ---- Inverse (prose-only)
    b.add(
        "Which Frigidaire refrigerators come with an icemaker?",
        L,
        names=names(x for x in by("Frigidaire") if says(x, "ice")),
        method="tkg",
    )
    b.add(
        "Which Samsung fridges have no water and ice dispenser on the door?",
        L,
        names=names(x for x in by("Samsung") if says(x, "door") is False),
        method="tkg",
    )
    b.add(
        "Which Samsung refrigerators are counter-depth?",
        L,
        names=names(x for x in by("Samsung") if says(x, "counter")),
        method="tkg",
    )
    b.add(
        "Which Whirlpool fridges don't make ice?",
        L,
        names=names(x for x in by("Whirlpool") if says(x, "ice") is False),
        method="tkg",
    )

    # ---- Multi-condition (spec)
    b.add(
        "Which bottom-freezer fridges under 70 inches tall hold at least 26 cubic feet?",
        M,
        names=names(x for x in of("Bottom Freezer") if x.height < 70 and x.volume >= 26),
    )
    b.add(
        "Which compact fridges with automatic defrost use under 220 kWh per year?",
        M,
        names=names(x for x in of("Compact") if x.f("Defrost Type") == "Automatic" and x.kwh < 220),
    )
    b.add(
        "Which top-freezer refrigerators narrower than 25 in use less than 300 kWh/yr?",
        M,
        names=names(x for x in of("Top Freezer") if x.width < 25 and x.kwh < 300),
    )
    b.add(
        "Which GE fridges certified in 2020 are at most 30 inches wide?",
        M,
        names=names(x for x in by("GE") if x.year("Date Certified") == 2020 and x.width <= 30),
    )
    b.add(
        "Which compact refrigerators shorter than 50 cm hold more than 50 litres?",
        M,
        names=names(x for x in of("Compact") if x.height * 2.54 < 50 and x.volume * LITRE_PER_FT3 > 50),
    )
    b.add(
        "Which manual-defrost fridges can connect to Wi-Fi?",
        M,
        names=names(x for x in fs if x.f("Defrost Type") == "Manual" and wifi(x)),
        empty=True,
    )

    # ---- Multi-condition with prose-only facts
    b.add(
        "Which counter-depth KitchenAid fridges make their own ice?",
        M,
        names=names(x for x in by("KitchenAid") if says(x, "counter") and says(x, "ice")),
        method="tkg",
    )
    b.add(
        "Which Hisense fridges over 60 inches tall lack a through-the-door dispenser?",
        M,
        names=names(x for x in by("Hisense") if x.height > 60 and says(x, "door") is False),
        method="tkg",
    )
    b.add(
        "Which bottom-freezer KitchenAid fridges have an ice maker but no door dispenser?",
        M,
        names=names(
            x for x in by("KitchenAid") if x.type == "Bottom Freezer" and says(x, "ice") and says(x, "door") is False
        ),
        method="tkg",
    )
    b.add(
        "Which compact refrigerators have a through-the-door dispenser?",
        M,
        names=names(x for x in of("Compact") if says(x, "door")),
        method="tkg",
        empty=True,
    )
    b.add(
        "Which GE Profile refrigerators over 35 inches wide are not counter depth?",
        M,
        names=names(x for x in by("GE Profile") if x.width > 35 and says(x, "counter") is False),
        method="tkg",
    )

    # ---- two named products
    rng = random.Random(17)

    def pair(pool, key):
        pool = [x for x in pool if key(x) is not None and "(" not in x.name]
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pair(by("GE") + by("Frigidaire"), lambda x: x.kwh)
    b.add(f"Which uses less electricity, the {x.name} or the {y.name}?", G, value=min((x, y), key=lambda x: x.kwh).name)
    x, y = pair(of("Bottom Freezer"), lambda x: x.volume)
    b.add(f"Which is roomier inside: {x.name} or {y.name}?", G, value=max((x, y), key=lambda x: x.volume).name)
    x, y = pair(of("Compact"), lambda x: x.height)
    b.add(f"Which is taller, the {x.name} or the {y.name}?", G, value=max((x, y), key=lambda x: x.height).name)
    x, y = pair(of("Top Freezer"), lambda x: x.width)
    b.add(f"{x.name} vs {y.name}: which one is narrower?", G, value=min((x, y), key=lambda x: x.width).name)
    x, y = pair(by("Whirlpool") + by("Maytag") + by("KitchenAid"), lambda x: x.date("Date Certified"))
    b.add(
        f"Which was certified first, the {x.name} or the {y.name}?",
        G,
        value=min((x, y), key=lambda x: x.date("Date Certified")).name,
    )
    x, y = pair(by("Samsung") + by("LG"), lambda x: x.pct)
    b.add(
        f"Which beats the federal energy standard by more, {x.name} or {y.name}?",
        G,
        value=max((x, y), key=lambda x: x.pct).name,
    )
    pool = [x for x in of("Bottom Freezer") if "(" not in x.name]
    yes = [x for x in pool if says(x, "ice") is True]
    no = [x for x in pool if says(x, "ice") is False]
    x, y = rng.choice(yes), rng.choice(no)
    b.add(f"Which one has an ice maker, the {y.name} or the {x.name}?", G, value=x.name, method="tkg")
    yes = [x for x in pool if says(x, "counter") is True]
    no = [x for x in pool if says(x, "counter") is False]
    x, y = rng.choice(yes), rng.choice(no)
    b.add(f"Of the {x.name} and the {y.name}, which is counter depth?", G, value=x.name, method="tkg")

    # ---- Aggregation
    b.add(
        "How many refrigerators have automatic defrost?", A, value=sum(x.f("Defrost Type") == "Automatic" for x in fs)
    )
    b.add(
        "How many Frigidaire fridges have an ice maker?",
        A,
        value=sum(says(x, "ice") is True for x in by("Frigidaire")),
        method="tkg",
    )
    b.add(
        "What is the largest total capacity among the GE refrigerators, in cubic feet?",
        A,
        value=clean_number(max(x.volume for x in by("GE"))),
    )
    b.add(
        "What is the average annual energy use of the compact fridges, to the nearest kWh?",
        A,
        value=round(statistics.mean(x.kwh for x in of("Compact"))),
    )
    b.add_best("Which refrigerator uses the least energy per year?", A, fs, lambda x: x.kwh, low=True)
    b.add("How many fridges were certified in 2020?", A, value=sum(x.year("Date Certified") == 2020 for x in fs))
    b.add(
        "How tall is the tallest fridge, in centimetres?",
        A,
        value=clean_number(max(x.height for x in fs) * 2.54),
    )
    b.add_best("Which Whirlpool fridge has the largest capacity?", A, by("Whirlpool"), lambda x: x.volume)
    b.add(
        "How many models are sold in both the US and Canada?",
        A,
        value=sum({"United States", "Canada"} <= x.markets for x in fs),
    )
    b.add(
        "How many GE fridges come without a door dispenser?",
        A,
        value=sum(says(x, "door") is False for x in by("GE")),
        method="tkg",
    )
    b.add("How many Danby Designer refrigerators are listed?", A, value=len(by("Danby Designer")))
    b.add("What's the narrowest refrigerator width in inches?", A, value=clean_number(min(x.width for x in fs)))
    b.add(
        "How many RCA refrigerators are built to counter depth?",
        A,
        value=sum(says(x, "counter") is True for x in by("RCA")),
        method="tkg",
    )

    # ---- Reasoning: single facts, conversions, shopper needs
    pick = random.Random(23)
    x = pick.choice([x for x in of("Bottom Freezer") if "(" not in x.name])
    b.add(f"How tall is the {x.name} in cm?", R, value=clean_number(x.height * 2.54))
    x = pick.choice([x for x in by("Frigidaire") if "(" not in x.name])
    b.add(f"How many kWh does the {x.name} use per year?", R, value=clean_number(x.kwh))
    x = pick.choice([x for x in of("Top Freezer") if "(" not in x.name])
    b.add(f"How wide is the {x.name}, in centimeters?", R, value=clean_number(x.width * 2.54))
    x = pick.choice([x for x in by("LG") if "(" not in x.name])
    b.add(f"In which year did the {x.name} come on the market?", R, value=x.year("Date Available On Market"))
    x = pick.choice([x for x in of("Bottom Freezer") if says(x, "ice") is not None and "(" not in x.name])
    b.add(f"Does the {x.name} have an ice maker?", R, value="yes" if says(x, "ice") else "no", method="tkg")
    b.add(
        "My alcove is 30 inches wide and 67 inches high. Which Frigidaire fridges with at least 18 cubic feet fit?",
        R,
        names=names(x for x in by("Frigidaire") if x.width <= 30 and x.height <= 67 and x.volume >= 18),
    )
    b.add_best(
        "Which fridge certified in 2021 uses the least energy?",
        R,
        [x for x in fs if x.year("Date Certified") == 2021],
        lambda x: x.kwh,
        low=True,
    )
    b.add(
        "I need a fridge with ice and water in the door that uses under 680 kWh a year. Which Samsung models qualify?",
        R,
        names=names(x for x in by("Samsung") if says(x, "door") and x.kwh < 680),
        method="tkg",
    )
    b.add_best(
        "What is the most energy-efficient side-by-side fridge (least kWh per year)?",
        R,
        of("Side-by-Side"),
        lambda x: x.kwh,
        low=True,
    )
    return b.out


def write_catalog(fs: list[Fridge], out: Path) -> None:
    rows = []
    for x in fs:
        specs = {}
        for section, cols in SECTIONS.items():
            entries = {col: x.f(col) for col in cols if x.f(col)}
            if entries:
                specs[section] = entries
        rows.append(
            {"name": x.name, "brand": x.f("Brand Name"), "category": "Refrigerators", "specs": specs, "page": x.page}
        )
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "catalog.jsonl", "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    (out / "mapping.yaml").write_text(
        "# fridges: one row per ENERGY STAR refrigerator; the file's cells as specs under its own column names, "
        "ice maker / door dispenser / counter depth as page prose\n"
        "name: name\ncategories: category\nbrand: brand\ngroup_by: name\n"
        "specs_from: specs\ntext: [page]\nunmapped: drop\n",
        encoding="utf-8",
    )


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
