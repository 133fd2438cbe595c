"""Held-out fridges questions in a procurement / market-analyst voice, written blind to the reader code, 2026-12-07.

The catalogue is the base set's, byte for byte: ``load()`` and ``write_catalog()`` of
``bench/own_sets/fridges/make_set.py`` (1,000 ENERGY STAR refrigerator rows, their cells as specs
under the file's own column names, the ice maker / through-the-door dispenser / counter depth said
only in each page's prose). Only the questions are new. They are phrased the way a procurement
officer or a market analyst writes to a data desk (long, formal requests), with a few terse
search-box queries, and every gold is computed below from the source fields.

    python3 bench/own_sets/fridges_x/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/fridges_x/make_set.py --check     # questions.json is current
    python3 bench/own_sets/fridges_x/make_set.py --show      # print every question with its gold

Conventions of the gold:

* A brand is the "Brand Name" column compared without case, spaces or punctuation ("Kitchen Aid"
  = "KitchenAid"); a sub-brand ("GE Profile", "Gallery") or a misspelling ("FRIGIAIRE") written in
  that column is another brand.
* A type is the "Type" cell as written ("Compact", "Top Freezer", "Bottom Freezer",
  "Side-by-Side", "Freezerless and Single Door"). "Built-in" and "freestanding" read the
  "Built-in" column (Yes / No); "manual defrost" is "Defrost Type" = "Manual".
* Prose-only facts (method "tkg": ice maker, through-the-door dispenser, counter depth) read what
  the page states. A page that says nothing about a fact neither has nor lacks it: a "has" question
  takes the pages that say so, a "lacks / not / without" question the pages that say the opposite,
  and a share or mean over such a fact counts only the pages that state it either way.
* Missing data is never "no": a product without a value for the attribute asked about is left out
  of that question (its lists, its means and its superlatives).
* "under / below / less than / narrower than / above / over / more than / exceeds" are strict;
  "at least / or more / no more than / up to / at most" are inclusive.
* Units: an inch is 2.54 cm, a foot 12 inches, a metre 100 cm, a millimetre 0.1 cm; a cubic foot
  is 28.316846592 litres; a MWh is 1,000 kWh. Thresholds are converted exactly, never rounded.
* "Wi-Fi" is "Connects Using" = "Wi-Fi"; "isobutane" / "R-600a" is "Refrigerant Type" compared
  without case or hyphen ("r-600a" = "R-600a"); "ThinQ" in "Communication Standard Application
  Layer" also takes the file's misspelling "ThinkQ". "Sold in Canada / the US" reads the "Markets"
  list; "only" means that market and no other.
* The savings percentage is "Percent Less Energy Use than US Federal Standard", read with its sign
  (two rows are negative). A year is the year of the MM/DD/YYYY date named; a lag in days is
  "Date Available On Market" minus "Date Certified".
* Means, medians and differences are rounded to one decimal unless the question says otherwise;
  shares are percentages. Superlatives and two-product comparisons are asserted to have one
  winner; a list holds 1..40 names.
"""

from __future__ import annotations

import datetime as dt
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

base = base_set("fridges")
load, write_catalog, brand_key = base.load, base.write_catalog, base.brand_key

CM_PER_IN = 2.54
LITRE_PER_FT3 = 28.316846592
EFFICIENT = "Meets ENERGY STAR Most Efficient 2021 Criteria"
FEDERAL = "US Federal Standard (kWh/yr)"
ADJUSTED = "Adjusted Volume (ft3)"
LAYER = "Communication Standard Application Layer"
OPEN_LINK = "Direct on-premises Open-standard Based Interconnection"
MARKET, CERTIFIED = "Date Available On Market", "Date Certified"


# ---- readings of one product (each returns None where the source has no value)


def saving(x) -> float | None:
    """The savings percentage with its sign (the base loader's number reader drops negatives)."""
    v = x.f("Percent Less Energy Use than US Federal Standard")
    return float(v) if re.fullmatch(r"-?\d+(\.\d+)?", v) else None


def day(x, col: str) -> dt.date:
    y, m, d = x.date(col)
    return dt.date(y, m, d)


def lag_days(x) -> int:
    return (day(x, MARKET) - day(x, CERTIFIED)).days


def wifi(x) -> bool:
    return x.f("Connects Using") == "Wi-Fi"


def isobutane(x) -> bool:
    return brand_key(x.f("Refrigerant Type")) == "r600a"


def thinq(x) -> bool:
    return x.f(LAYER).lower() in {"thinq", "thinkq"}


def efficient(x) -> bool | None:
    return x.yes(EFFICIENT)


def one(pool, key, *, low=False):
    """The single product with the largest (smallest) ``key``; a tie fails."""
    scored = [(key(x), x) for x in pool if key(x) is not None]
    top = (min if low else max)(v for v, _ in scored)
    winners = [x for v, x in scored if v == top]
    assert len(winners) == 1, [w.name for w in winners]
    return winners[0]


def mean(values) -> float:
    values = [v for v in values if v is not None]
    return statistics.fmean(values)


def stated_share(pool, fact: str) -> float:
    """The share of the pages stating ``fact`` either way that state it as present."""
    stated = [x.says[fact] for x in pool if x.says.get(fact) is not None]
    return sum(stated) / len(stated)


def r1(v: float) -> float | int:
    return clean_number(round(v, 1))


def pick(a: str, b: str, va: float, vb: float, *, low=False) -> str:
    """The name of the two with the larger (smaller) value; asserts they differ."""
    assert va != vb, (a, b, va)
    return (a if va < vb else b) if low else (a if va > vb else b)


def build_questions(fs) -> list[dict]:
    b = SetBuilder(fs)
    by = lambda brand: [x for x in fs if x.brand == brand_key(brand)]  # noqa: E731
    of = lambda kind, pool=fs: [x for x in pool if x.type == kind]  # noqa: E731
    says = lambda x, k: x.says.get(k)  # noqa: E731  True / False as the page states, None = unstated
    names = lambda pool: [x.name for x in pool]  # noqa: E731
    named = lambda name: next(x for x in fs if x.name == name)  # noqa: E731
    yesno = lambda flag: "Yes" if flag else "No"  # noqa: E731

    compact = of("Compact")

    # ================= Inverse: which products have a given value
    b.add(
        "Please list every Whirlpool unit whose product description states that it comes with an automatic ice maker.",
        INVERSE,
        names=names(x for x in by("Whirlpool") if says(x, "ice")),
        method="tkg",
    )
    b.add(
        "For our tender we must exclude appliances that cannot produce ice. Identify all Hisense models whose "
        "listing states that they do not make ice.",
        INVERSE,
        names=names(x for x in by("Hisense") if says(x, "ice") is False),
        method="tkg",
    )
    b.add(
        "Provide the names of all side-by-side refrigerators that the catalogue describes as counter-depth.",
        INVERSE,
        names=names(x for x in of("Side-by-Side") if says(x, "counter")),
        method="tkg",
    )
    b.add(
        "Kindly identify the Thermador appliances whose descriptions make clear they are not counter-depth.",
        INVERSE,
        names=names(x for x in by("Thermador") if says(x, "counter") is False),
        method="tkg",
    )
    b.add(
        "Which Frigidaire models feature a water/ice dispenser built into the door?",
        INVERSE,
        names=names(x for x in by("Frigidaire") if says(x, "door")),
        method="tkg",
    )
    b.add("fridges under 160 kWh/yr", INVERSE, names=names(x for x in fs if x.kwh < 160))
    b.add(
        "List each unit that measures more than 1.2 metres across.",
        INVERSE,
        names=names(x for x in fs if x.width * CM_PER_IN > 120),
    )
    b.add(
        "Which certified models rely on the Smart Energy Profile 2.x application layer for their smart features?",
        INVERSE,
        names=names(x for x in fs if x.f(LAYER).startswith("Smart Energy Profile (SEP) 2")),
    )
    b.add(
        "We are reviewing low-GWP refrigerants. Which Samsung refrigerators run on isobutane?",
        INVERSE,
        names=names(x for x in by("Samsung") if isobutane(x)),
    )
    b.add(
        "Name the models whose rated annual consumption is higher than the US federal standard allows for them.",
        INVERSE,
        names=names(x for x in fs if x.kwh > x.num(FEDERAL)),
    )
    b.add(
        "Which listed refrigerators integrate with LG's ThinQ platform?",
        INVERSE,
        names=names(x for x in fs if thinq(x)),
    )
    b.add(
        "Which units are recorded as lacking a direct on-premises, open-standard based interconnection?",
        INVERSE,
        names=names(x for x in fs if x.yes(OPEN_LINK) is False),
    )
    (gaggenau_wifi,) = [x for x in by("Gaggenau") if wifi(x)]
    b.add("gaggenau wifi fridge", INVERSE, value=gaggenau_wifi.name)
    b.add(
        "Which models offer an adjusted volume of 36 cubic feet or more?",
        INVERSE,
        names=names(x for x in fs if x.num(ADJUSTED) >= 36),
    )
    b.add(
        "Which entries in the catalogue first went on sale before 2013?",
        INVERSE,
        names=names(x for x in fs if x.year(MARKET) < 2013),
    )

    # ================= Multi-condition
    b.add(
        "I need every bottom-freezer model that is Wi-Fi enabled and is described on its page as counter-depth.",
        MULTI,
        names=names(x for x in of("Bottom Freezer") if wifi(x) and says(x, "counter")),
        method="tkg",
    )
    b.add(
        "Please supply the compact, manual-defrost refrigerators that are narrower than 45 cm and have a total "
        "capacity of no more than 1.6 cubic feet.",
        MULTI,
        names=names(
            x for x in of("Compact") if x.f("Defrost Type") == "Manual" and x.width * CM_PER_IN < 45 and x.volume <= 1.6
        ),
    )
    b.add(
        "Identify top-freezer units marketed in both the United States and Canada that use less than 300 kWh "
        "per year and also qualify as ENERGY STAR Most Efficient 2021.",
        MULTI,
        names=names(
            x for x in of("Top Freezer") if {"United States", "Canada"} <= x.markets and x.kwh < 300 and efficient(x)
        ),
    )
    b.add(
        "Which Liebherr refrigerators are described as having neither an ice maker nor a through-the-door dispenser?",
        MULTI,
        names=names(x for x in by("Liebherr") if says(x, "ice") is False and says(x, "door") is False),
        method="tkg",
    )
    b.add(
        "List all built-in Thermador or Sub-Zero units standing at least 2.13 m tall.",
        MULTI,
        names=names(x for x in by("Thermador") + by("Sub-Zero") if x.yes("Built-in") and x.height * CM_PER_IN >= 213),
    )
    b.add(
        "2021 market launches, total capacity over 25 cu ft",
        MULTI,
        names=names(x for x in fs if x.year(MARKET) == 2021 and x.volume > 25),
    )
    b.add(
        "Which refrigerators certified during 2020 use R-600a refrigerant and are under two feet wide?",
        MULTI,
        names=names(x for x in fs if x.year(CERTIFIED) == 2020 and isobutane(x) and x.width < 24),
    )
    b.add(
        "Which Frigidaire units have a through-the-door dispenser yet are stated not to be counter-depth?",
        MULTI,
        names=names(x for x in by("Frigidaire") if says(x, "door") and says(x, "counter") is False),
        method="tkg",
    )
    b.add(
        "Enumerate the Midea compact models that draw under 215 kWh a year and are offered in Canada.",
        MULTI,
        names=names(x for x in of("Compact", by("Midea")) if x.kwh < 215 and "Canada" in x.markets),
    )
    b.add(
        "Which bottom-freezer refrigerators narrower than 650 mm still offer at least 350 litres of total storage?",
        MULTI,
        names=names(x for x in of("Bottom Freezer") if x.width * CM_PER_IN < 65 and x.volume * LITRE_PER_FT3 >= 350),
    )
    b.add(
        "Is there any Viking refrigerator in the catalogue that is both built-in and Wi-Fi connected?",
        MULTI,
        value=yesno(any(x.yes("Built-in") and wifi(x) for x in by("Viking"))),
    )
    b.add(
        "manual defrost compact fridge canada only",
        MULTI,
        names=names(x for x in compact if x.f("Defrost Type") == "Manual" and x.markets == {"Canada"}),
    )

    # ================= Group comparison
    sbs, bf = of("Side-by-Side"), of("Bottom Freezer")
    b.add(
        "Between side-by-side and bottom-freezer configurations, which type shows the higher mean annual energy use?",
        GROUP,
        value=pick("Side-by-Side", "Bottom Freezer", mean(x.kwh for x in sbs), mean(x.kwh for x in bf)),
    )
    b.add(
        "Comparing Samsung and Whirlpool, which brand's catalogued refrigerators have the larger average total volume?",
        GROUP,
        value=pick(
            "Samsung", "Whirlpool", mean(x.volume for x in by("Samsung")), mean(x.volume for x in by("Whirlpool"))
        ),
    )
    built = [x for x in fs if x.yes("Built-in")]
    free = [x for x in fs if x.yes("Built-in") is False]
    b.add(
        "Do built-in refrigerators, on average, consume more electricity per year than freestanding ones?",
        GROUP,
        value=yesno(mean(x.kwh for x in built) > mean(x.kwh for x in free)),
    )
    b.add(
        "Report the difference, in kWh per year and to one decimal, between the average consumption of compact "
        "units that do not meet the Most Efficient 2021 criteria and that of compact units that do.",
        GROUP,
        value=r1(mean(x.kwh for x in compact if efficient(x) is False) - mean(x.kwh for x in compact if efficient(x))),
    )
    b.add(
        "Among bottom-freezer models, is the mean total capacity of those described as counter-depth smaller "
        "than that of those described as standard depth?",
        GROUP,
        value=yesno(
            mean(x.volume for x in bf if says(x, "counter")) < mean(x.volume for x in bf if says(x, "counter") is False)
        ),
        method="tkg",
    )
    luxury = {brand: mean(x.height for x in by(brand)) for brand in ("Thermador", "Sub-Zero", "Gaggenau")}
    (tallest_brand,) = [k for k, v in luxury.items() if v == max(luxury.values())]
    b.add(
        "Of Thermador, Sub-Zero and Gaggenau, which brand's units are tallest on average?",
        GROUP,
        value=tallest_brand,
    )
    share_eff = lambda pool: sum(bool(efficient(x)) for x in pool) / len(pool)  # noqa: E731
    b.add(
        "Which of the two brands, Midea or Insignia, has the larger proportion of its models meeting the Most "
        "Efficient 2021 criteria?",
        GROUP,
        value=pick("Midea", "Insignia", share_eff(by("Midea")), share_eff(by("Insignia"))),
    )
    us_only = [x for x in fs if x.markets == {"United States"}]
    ca_only = [x for x in fs if x.markets == {"Canada"}]
    b.add(
        "Comparing units listed for the United States alone with those listed for Canada alone, which market's "
        "group has the lower median annual energy use?",
        GROUP,
        value=pick(
            "United States",
            "Canada",
            statistics.median(x.kwh for x in us_only),
            statistics.median(x.kwh for x in ca_only),
            low=True,
        ),
    )
    b.add(
        "Within the compact segment, which defrost type, automatic or manual, achieves the higher average "
        "percentage saving against the federal standard?",
        GROUP,
        value=pick(
            "Automatic",
            "Manual",
            mean(saving(x) for x in compact if x.f("Defrost Type") == "Automatic"),
            mean(saving(x) for x in compact if x.f("Defrost Type") == "Manual"),
        ),
    )
    b.add(
        "Is the share of models described as having an ice maker higher for Kenmore than for Frigidaire?",
        GROUP,
        value=yesno(stated_share(by("Kenmore"), "ice") > stated_share(by("Frigidaire"), "ice")),
        method="tkg",
    )

    # ================= Reasoning: derived values, superlatives, two named products
    b.add(
        "Among top-freezer units, which one undercuts its federal standard allowance by the widest margin in "
        "absolute kWh per year?",
        REASONING,
        value=one(of("Top Freezer"), lambda x: x.num(FEDERAL) - x.kwh).name,
    )
    b.add(
        "Among Whirlpool units, which offers the most total capacity per inch of cabinet width?",
        REASONING,
        value=one(by("Whirlpool"), lambda x: x.volume / x.width).name,
    )
    b.add(
        "Which model went on sale the longest time before its ENERGY STAR certification date?",
        REASONING,
        value=one(fs, lag_days, low=True).name,
    )
    b.add(
        "By how many kWh per year does the thirstiest side-by-side unit exceed the most frugal one?",
        REASONING,
        value=clean_number(max(x.kwh for x in sbs) - min(x.kwh for x in sbs)),
    )
    a, c = named("LG LFC24786**"), named("LG LRFNS2200*")
    b.add(
        f"Which is taller, the {a.name} or the {c.name}?",
        REASONING,
        value=pick(a.name, c.name, a.height, c.height),
    )
    b.add(
        "Of the refrigerators whose pages mention a through-the-door dispenser, which is the narrowest?",
        REASONING,
        value=one([x for x in fs if says(x, "door")], lambda x: x.width, low=True).name,
        method="tkg",
    )
    b.add(
        "Which side-by-side refrigerator uses the least energy per cubic foot of total capacity?",
        REASONING,
        value=one(sbs, lambda x: x.kwh / x.volume, low=True).name,
    )
    subzero = by("Sub-Zero")
    b.add(
        "How many centimetres separate the widest and the narrowest Sub-Zero unit?",
        REASONING,
        value=r1((max(x.width for x in subzero) - min(x.width for x in subzero)) * CM_PER_IN),
    )
    old, new = named("LG LBNC15231*"), named("LG LRBNC1104*")
    b.add(
        f"A client is choosing between the {old.name} and the {new.name}. How many kWh a year would the "
        "more economical of the two save?",
        REASONING,
        value=clean_number(abs(old.kwh - new.kwh)),
    )

    # ================= Aggregation
    b.add(
        "Provide the number of units certified in calendar year 2019.",
        AGGREGATION,
        value=sum(x.year(CERTIFIED) == 2019 for x in fs),
    )
    b.add(
        "Report the mean annual energy use, in kWh, of all side-by-side refrigerators, rounded to one decimal.",
        AGGREGATION,
        value=r1(mean(x.kwh for x in sbs)),
    )
    galanz = by("Galanz")
    b.add(
        "What share of the Galanz units meet the ENERGY STAR Most Efficient 2021 criteria? Give a percentage "
        "rounded to the nearest whole number.",
        AGGREGATION,
        value=round(100 * share_eff(galanz)),
    )
    b.add(
        "How many compact models are described as having no ice maker?",
        AGGREGATION,
        value=sum(says(x, "ice") is False for x in compact),
        method="tkg",
    )
    b.add(
        "What is the combined adjusted volume, in cubic feet, of every Thermador unit listed?",
        AGGREGATION,
        value=r1(sum(x.num(ADJUSTED) for x in by("Thermador"))),
    )
    b.add(
        "State the median height of top-freezer refrigerators in centimetres, to one decimal.",
        AGGREGATION,
        value=r1(statistics.median(x.height for x in of("Top Freezer")) * CM_PER_IN),
    )
    b.add(
        "How many of the catalogued units are listed solely for the United States market?",
        AGGREGATION,
        value=len(us_only),
    )
    b.add("number of r600a fridges", AGGREGATION, value=sum(isobutane(x) for x in fs))
    b.add(
        "What is the average width, in inches, of the Freezerless and Single Door units (one decimal)?",
        AGGREGATION,
        value=r1(mean(x.width for x in of("Freezerless and Single Door"))),
    )
    b.add(
        "What does the combined rated annual consumption of all Bosch refrigerators come to, expressed in MWh?",
        AGGREGATION,
        value=clean_number(sum(x.kwh for x in by("Bosch")) / 1000),
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
