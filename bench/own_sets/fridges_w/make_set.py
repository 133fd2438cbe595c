"""New wording over the fridges catalogue: questions the reader was never tuned on (2026-12-07).

Written blind to the reader code (nothing under ``dualgraph/``, ``tests/`` or ``docs/`` was read,
and the system was not run while writing it), over the very catalogue of ``bench/own_sets/fridges``:
this script imports that set's ``make_set.py`` by file path and reuses its ``load()`` and
``write_catalog()`` unchanged, so the catalogue (1,000 ENERGY STAR refrigerators, fixed seed) and its
index are byte-identical to the base set's. Only the questions are new: shoppers' and analysts'
phrasings ("Show me …", "Any … under …?", "Do you have …", "Between X and Y, which …"), synonyms
for the column names ("how tall" for "Height (in)", "roomier" / "storage" for the capacity,
"power-hungry" for the annual kWh), informal units and number words ("6 ft", "half a metre",
"a metre", "five hundred litres"), and attributes the base set never asks about (adjusted volume,
the federal standard, the communication standard, the open-standard interconnection, the market
date, the brand-level comparisons).

    python3 bench/own_sets/fridges_w/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/fridges_w/make_set.py --check     # questions.json is current
    python3 bench/own_sets/fridges_w/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields (never typed by hand):

* "under / less than / below / shorter / narrower / more than / over / taller / wider / before /
  after" are strict; "at least / or more / up to / at most / or later / fit (a gap)" inclusive.
* Units: an inch is 2.54 cm exactly, a foot 12 inches, a metre 100 cm; a cubic foot is
  28.316846592 litres exactly. Thresholds given in other units are converted exactly (the source
  value is converted, never a rounded threshold); a value asked in another unit is the source
  value converted by code and rounded only as the question says.
* A brand is the "Brand Name" compared without case, spaces or punctuation ("Kitchen Aid" =
  "KitchenAid", "Sub-Zero" = "SubZero"; a misspelling such as "Meile" is another brand); "GE" is the brand "GE" alone (not "GE Profile"), "LG" not
  "LG SIGNATURE", "Danby" not "Danby Designer". A brand gold is written as the catalogue writes it.
* Types are the "Type" cell ("Compact", "Bottom Freezer", "Top Freezer", "Side-by-Side",
  "Freezerless and Single Door"); built-in, manual/automatic defrost, the Most Efficient 2021 label
  and connected functionality read their Yes/No or value cells; "R-600a" / "R-134a" are the
  "Refrigerant Type" compared without case or hyphen; "sold in Canada" reads the "Markets" list,
  and "only in the US" means the list is exactly "United States".
* "Came out / hit the market" is the year of "Date Available On Market"; "certified" is the year of
  "Date Certified".
* "Beats the federal standard by N %" reads "Percent Less Energy Use than US Federal Standard"
  (two negative cells read as their signed numbers); "the federal limit" is "US Federal Standard
  (kWh/yr)".
* Prose-only facts (``gt_retrieval_method`` "tkg": ice maker, through-the-door dispenser, counter
  depth) read what the product page states; a page that says nothing about a fact neither has nor
  lacks it, so "without / no / not / lacks" asks for pages that state the negative, and counts and
  rules never count an unstated fact either way.
* Superlatives and two-product comparisons are asserted to have one winner (a tie in a superlative
  becomes a list gold); lists hold 1..40 names unless written to be empty. Named products are
  written exactly as the catalogue names them, and never one whose name carries a bracketed ID.
"""

from __future__ import annotations

import random
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

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
CM_PER_IN = 2.54
LITRE_PER_FT3 = 28.316846592


def build(fs: list) -> list[dict]:
    b = SetBuilder(fs)
    by = lambda brand: [x for x in fs if x.brand == brand_key(brand)]  # noqa: E731
    of = lambda kind: [x for x in fs if x.type == kind]  # noqa: E731
    says = lambda x, k: x.says.get(k)  # noqa: E731
    names = lambda pool: [x.name for x in pool]  # noqa: E731
    wifi = lambda x: x.f("Connects Using") == "Wi-Fi"  # noqa: E731
    refrigerant = lambda x: brand_key(x.f("Refrigerant Type"))  # noqa: E731
    on_market = lambda x: x.year("Date Available On Market")  # noqa: E731
    certified = lambda x: x.year("Date Certified")  # noqa: E731
    adjusted = lambda x: x.num("Adjusted Volume (ft3)")  # noqa: E731
    federal = lambda x: x.num("US Federal Standard (kWh/yr)")  # noqa: E731
    pct = lambda x: float(x.f("Percent Less Energy Use than US Federal Standard"))  # noqa: E731
    rng = random.Random(20261207)

    def plain(pool):
        return [x for x in pool if "(" not in x.name]

    def pair(pool, key):
        pool = [x for x in plain(pool) if key(x) is not None]
        for _ in range(1000):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    def one(pool, key, *, low=False):
        winners, _ = b.best(pool, key, low=low)
        assert len(winners) == 1, [w.name for w in winners]
        return winners[0]

    # ---------------- Inverse: one condition -> list (spec)
    b.add("Show me the Miele fridges that are built in.", L, names=names(x for x in by("Miele") if x.yes("Built-in")))
    b.add(
        "Any side-by-side fridges under 6 ft tall?",
        L,
        names=names(x for x in of("Side-by-Side") if x.height < 6 * 12),
    )
    b.add(
        "List all refrigerators that support the Smart Energy Profile standard.",
        L,
        names=names(x for x in fs if "Smart Energy Profile" in x.f("Communication Standard Application Layer")),
    )
    b.add(
        "Which fridges first hit the market before 2014?",
        L,
        names=names(x for x in fs if on_market(x) < 2014),
    )
    b.add(
        "Which refrigerators are real power hogs, using more than 750 kWh a year?",
        L,
        names=names(x for x in fs if x.kwh > 750),
    )
    b.add(
        "Show me fridges wider than a metre.",
        L,
        names=names(x for x in fs if x.width * CM_PER_IN > 100),
    )
    b.add(
        "I'm looking for Marvel units that run on R-600a. Which ones?",
        L,
        names=names(x for x in by("Marvel") if refrigerant(x) == "r600a"),
    )
    b.add(
        "Which models have an adjusted volume above 35 cu. ft.?",
        L,
        names=names(x for x in fs if adjusted(x) > 35),
    )
    b.add(
        "Which Avanti fridges do you have to defrost by hand?",
        L,
        names=names(x for x in by("Avanti") if x.f("Defrost Type") == "Manual"),
    )
    b.add(
        "Which Galanz refrigerators are sold only in the US?",
        L,
        names=names(x for x in by("Galanz") if x.markets == {"United States"}),
    )
    b.add(
        "Do you have any single-door fridges without a freezer from Liebherr?",
        L,
        names=names(x for x in by("Liebherr") if x.type == "Freezerless and Single Door"),
    )

    b.add(
        "Which models offer direct on-premises open-standard interconnection?",
        L,
        names=names(x for x in fs if x.yes("Direct on-premises Open-standard Based Interconnection")),
    )
    b.add("Anything that runs on R-441A refrigerant?", L, names=names(x for x in fs if refrigerant(x) == "r441a"))

    # ---------------- Inverse (prose-only)
    b.add(
        "Which LG fridges make ice automatically?",
        L,
        names=names(x for x in by("LG") if says(x, "ice") is True),
        method="tkg",
    )
    b.add(
        "Which Kenmore refrigerators don't have an ice maker?",
        L,
        names=names(x for x in by("Kenmore") if says(x, "ice") is False),
        method="tkg",
    )
    b.add(
        "Show me GE Profile models with a water dispenser in the door.",
        L,
        names=names(x for x in by("GE Profile") if says(x, "door") is True),
        method="tkg",
    )
    b.add(
        "Which Bosch fridges aren't counter-depth?",
        L,
        names=names(x for x in by("Bosch") if says(x, "counter") is False),
        method="tkg",
    )
    b.add(
        "Do you carry any counter-depth Liebherr fridges?",
        L,
        names=names(x for x in by("Liebherr") if says(x, "counter") is True),
        method="tkg",
    )

    # ---------------- Multi-condition (spec)
    b.add(
        "Looking for a top-freezer model that holds 20 cu ft or more and uses under 400 kWh a year. What are my options?",
        M,
        names=names(x for x in of("Top Freezer") if x.volume >= 20 and x.kwh < 400),
    )
    b.add(
        "Which built-in bottom-freezer refrigerators are narrower than 30 inches?",
        M,
        names=names(x for x in of("Bottom Freezer") if x.yes("Built-in") and x.width < 30),
    )
    b.add(
        "Wi-Fi fridges that came out in 2020 or later?",
        M,
        names=names(x for x in fs if wifi(x) and on_market(x) >= 2020),
    )
    b.add(
        "Compact fridges shorter than 2 ft that use less than 200 kWh per year - which are there?",
        M,
        names=names(x for x in of("Compact") if x.height < 24 and x.kwh < 200),
    )
    b.add(
        "Which built-in fridges without a freezer are at least 7 feet tall?",
        M,
        names=names(x for x in of("Freezerless and Single Door") if x.yes("Built-in") and x.height >= 7 * 12),
    )
    b.add(
        "Which Samsung fridges use R-134a and beat the federal energy standard by at least 10%?",
        M,
        names=names(x for x in by("Samsung") if refrigerant(x) == "r134a" and pct(x) >= 10),
    )
    b.add(
        "List Frigidaire top-freezers certified in 2019 that hold at least five hundred litres.",
        M,
        names=names(
            x
            for x in by("Frigidaire")
            if x.type == "Top Freezer" and certified(x) == 2019 and x.volume * LITRE_PER_FT3 >= 500
        ),
    )

    # ---------------- Multi-condition with prose-only facts
    b.add(
        "Which LG bottom-freezer fridges have both an ice maker and a door dispenser?",
        M,
        names=names(x for x in by("LG") if x.type == "Bottom Freezer" and says(x, "ice") and says(x, "door")),
        method="tkg",
    )
    b.add(
        "Which Whirlpool bottom-freezers come without an ice maker?",
        M,
        names=names(x for x in by("Whirlpool") if x.type == "Bottom Freezer" and says(x, "ice") is False),
        method="tkg",
    )
    b.add(
        "Are there counter-depth fridges that connect over Wi-Fi?",
        M,
        names=names(x for x in fs if says(x, "counter") is True and wifi(x)),
        method="tkg",
    )
    b.add(
        "GE top-freezer fridges with no icemaker that use below 400 kWh/yr?",
        M,
        names=names(x for x in by("GE") if x.type == "Top Freezer" and says(x, "ice") is False and x.kwh < 400),
        method="tkg",
    )
    b.add(
        "Which top-freezer refrigerators over 30 inches wide make their own ice?",
        M,
        names=names(x for x in of("Top Freezer") if x.width > 30 and says(x, "ice") is True),
        method="tkg",
    )

    b.add(
        "Frigidaire bottom-freezers with no dispenser in the door: which are there?",
        M,
        names=names(x for x in by("Frigidaire") if x.type == "Bottom Freezer" and says(x, "door") is False),
        method="tkg",
    )
    b.add(
        "Which Wi-Fi-enabled refrigerators are not counter-depth?",
        M,
        names=names(x for x in fs if wifi(x) and says(x, "counter") is False),
        method="tkg",
    )

    # ---------------- Group comparison: two products or two groups
    x, y = pair(of("Bottom Freezer"), lambda x: x.height)
    b.add(f"Is the {x.name} taller than the {y.name}?", G, value="yes" if x.height > y.height else "no")
    x, y = pair(by("Midea") + by("Galanz") + by("Insignia"), lambda x: x.kwh)
    b.add(
        f"Which is easier on the power bill, the {x.name} or the {y.name}?",
        G,
        value=min((x, y), key=lambda x: x.kwh).name,
    )
    x, y = pair(of("Top Freezer"), adjusted)
    b.add(
        f"Between {x.name} and {y.name}, which has the bigger adjusted volume?",
        G,
        value=max((x, y), key=adjusted).name,
    )
    x, y = pair(by("Danby") + by("Magic Chef") + by("RCA"), lambda x: x.date("Date Available On Market"))
    b.add(
        f"Which came onto the market earlier: {x.name} or {y.name}?",
        G,
        value=min((x, y), key=lambda x: x.date("Date Available On Market")).name,
    )
    lg, ss = (statistics.mean(x.kwh for x in by(k)) for k in ("LG", "Samsung"))
    assert lg != ss
    b.add(
        "On average, whose fridges use less electricity per year, LG's or Samsung's?",
        G,
        value="LG" if lg < ss else "Samsung",
    )
    mi, ga = (statistics.mean(x.height for x in by(k)) for k in ("Midea", "Galanz"))
    assert mi != ga
    b.add(
        "Which brand makes taller fridges on average, Midea or Galanz?",
        G,
        value="Midea" if mi > ga else "Galanz",
    )
    pool = plain(of("Compact"))
    x = rng.choice([p for p in pool if says(p, "ice") is True])
    y = rng.choice([p for p in pool if says(p, "ice") is False])
    b.add(f"Which one lacks an ice maker, the {x.name} or the {y.name}?", G, value=y.name, method="tkg")
    x, y = pair(of("Side-by-Side"), lambda x: x.kwh)
    b.add(
        f"How many more kWh per year does the {max((x, y), key=lambda v: v.kwh).name} use than the "
        f"{min((x, y), key=lambda v: v.kwh).name}?",
        G,
        value=clean_number(abs(x.kwh - y.kwh)),
    )

    # ---------------- Reasoning: a need -> a gold by an explicit rule
    # rule: width <= 24 in (2 ft) (fits the gap), page states an ice maker, then the largest total capacity
    fit = [x for x in fs if x.width <= 2 * 12 and says(x, "ice") is True]
    b.add(
        "My gap is two feet wide and I want automatic ice. What's the roomiest fridge that fits?",
        R,
        value=one(fit, lambda x: x.volume).name,
        method="tkg",
    )
    # rule: counter depth stated on the page, type Bottom Freezer, then the lowest annual kWh
    cd = [x for x in of("Bottom Freezer") if says(x, "counter") is True]
    b.add_best(
        "I want a counter-depth bottom-freezer that's cheap to run. Which one uses the least energy?",
        R,
        cd,
        lambda x: x.kwh,
        low=True,
        method="tkg",
    )
    # rule: height < 36 in, automatic defrost, total capacity >= 4 cu ft, "Canada" in Markets, kWh < 250
    b.add(
        "For a dorm room: under 3 feet tall, auto-defrost, at least 4 cubic feet, sold in Canada and using less "
        "than 250 kWh a year. What fits?",
        R,
        names=names(
            x
            for x in fs
            if x.height < 36
            and x.f("Defrost Type") == "Automatic"
            and x.volume >= 4
            and "Canada" in x.markets
            and x.kwh < 250
        ),
    )
    # rule: annual kWh times $0.15, rounded to cents
    x = rng.choice(plain(by("Whirlpool")))
    b.add(
        f"At 15 cents per kWh, what would the {x.name} cost to run for a year, in dollars (to the cent)?",
        R,
        value=round(x.kwh * 0.15, 2),
    )
    # rule: total capacity (ft3) / annual kWh, largest among the Top Freezer type
    b.add_best(
        "Among top-freezer fridges, which gives the most storage per kWh (total cubic feet divided by yearly kWh)?",
        R,
        of("Top Freezer"),
        lambda x: x.volume / x.kwh,
    )
    # rule: US Federal Standard (kWh/yr) minus Annual Energy Use (kWh/yr) of one product
    x = rng.choice(plain(by("Hisense")))
    b.add(
        f"How many kWh a year does the {x.name} stay under its federal limit?",
        R,
        value=clean_number(federal(x) - x.kwh),
    )

    # ---------------- Aggregation
    b.add(
        "How many smart fridges with connected functionality are listed?",
        A,
        value=sum(bool(x.yes("Connected Functionality")) for x in fs),
    )
    b.add(
        "What's the average height of the bottom-freezer fridges in cm, rounded to one decimal?",
        A,
        value=round(statistics.mean(x.height * CM_PER_IN for x in of("Bottom Freezer")), 1),
    )
    b.add(
        "How many fridges have no ice maker?",
        A,
        value=sum(says(x, "ice") is False for x in fs),
        method="tkg",
    )
    b.add(
        "What's the combined yearly energy use of all the Liebherr fridges, in kWh?",
        A,
        value=clean_number(sum(x.kwh for x in by("Liebherr"))),
    )
    b.add(
        "How tall is the tallest compact fridge in feet? Give two decimals.",
        A,
        value=round(max(x.height for x in of("Compact")) / 12, 2),
    )
    b.add(
        "What's the smallest side-by-side capacity in litres, to the nearest litre?",
        A,
        value=round(min(x.volume for x in of("Side-by-Side")) * LITRE_PER_FT3),
    )
    b.add("How many refrigerators hit the market in 2018?", A, value=sum(on_market(x) == 2018 for x in fs))
    top = statistics.multimode(x.brand for x in fs)
    assert len(top) == 1
    b.add(
        "Which brand has the most fridges in the catalogue?",
        A,
        value=next(x.f("Brand Name") for x in fs if x.brand == top[0]),
    )
    b.add(
        "How many bottom-freezer fridges have a through-the-door dispenser?",
        A,
        value=sum(says(x, "door") is True for x in of("Bottom Freezer")),
        method="tkg",
    )
    b.add(
        "What is the average percentage by which Miele fridges beat the federal standard? Round to one decimal.",
        A,
        value=round(statistics.mean(pct(x) for x in by("Miele")), 1),
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build, write_catalog)


if __name__ == "__main__":
    main()
