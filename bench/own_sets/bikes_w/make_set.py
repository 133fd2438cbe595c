"""New wording over the bikes catalogue: shoppers' and analysts' questions in phrasings the reader was never tuned on.

Written 2026-12-07 blind to the question-reading code (nothing under ``dualgraph/``, ``tests/`` or
``docs/`` was read, and the system was not run), to measure how the reader handles new wording over
a catalogue it already knows. The catalogue is the ``bikes`` set's, byte for byte: this script
imports ``bench/own_sets/bikes/make_set.py`` and reuses its ``load()`` and ``write_catalog()``
unchanged (1,000 used mountain-bike listings of the Pinkbike Buy/Sell classifieds, sellers in
Europe, drawn with the base set's seed), so the same index serves both sets. Only the questions are
new: other sentence forms ("Show me…", "Any … under …?", "Got anything …", "Between X and Y …"),
informal units and number words ("a grand", "ten grand", "fifteen hundred quid", "0.2 m",
"six inches"), abbreviations (FS, HT, XC, DH, e-MTB, alu) and attributes the base set does not ask
about (city, 650C and 44 cm sizes, 110 and 190 mm forks, rear travel amounts, averages and sums).

    python3 bench/own_sets/bikes_w/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/bikes_w/make_set.py --check     # questions.json current
    python3 bench/own_sets/bikes_w/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* "Bikes", "listings", "anything" cover all five categories, e-bikes included; "e-bike" / "e-MTB"
  is "Ebikes - Mountain", "XC" "XC / Cross Country Bikes", "DH" "Downhill Bikes".
* "under / less than / below / more than / over / older than" are strict; "at least / or more /
  or newer / or earlier / from … on" inclusive; "a budget of X" is at most X. A blank cell never
  satisfies a condition (nor is it counted in an average or an extreme).
* Prices in dollars ("$3k", "a grand" = $1,000, "two grand" = $2,000, "ten grand" = $10,000) compare
  the ``Price in USD`` column. "Quid" / "£" is pounds: the listing's ``Currency`` is GBP and the
  number of its asking ``Price`` is compared. Averages and sums are over ``Price in USD``.
* Lengths convert with exact factors: cm = mm / 10, m = mm / 1000, 1 inch = 25.4 mm (so "more than
  six inches of rear travel" is more than 152.4 mm). Frame sizes are matched as written ("44 cm" is
  the ``44cm`` value, "extra small" is ``XS``, "a large" is ``L``, "medium" is ``M``), never converted.
  Wheel sizes: "29er" / "29-inch" is ``29"``, "650C" its own value, "27.5" is ``27.5" / 650B``.
* Brands are the ``Brand`` column compared exactly; a city is the ``City`` column compared
  exactly; countries are the ``Country`` column ("Scottish" = Scotland).
* Prose-only facts (the page text; never in the spec table): the rear suspension and the condition.
  A page that states a hardtail has no rear suspension ("hardtail", "HT", "no rear suspension",
  "no rear shock", "rigid rear"); a page that states full suspension ("FS", "full-sus", "rear
  suspension", "not a hardtail") has it, with the rear travel it states. Condition words: "unridden"
  / "brand new" / "with tags" = New, "excellent" = Excellent, "good" = Good, "needs work" = Poor.
  A negated question ("not …", "without …", "no …", "aren't …") holds only the listings whose page
  states the opposite; a page that says nothing neither has nor lacks the fact, so it is never in a
  positive or a negated gold, nor counted.
* Superlatives and two-listing comparisons are asserted to have a unique winner, or are written as
  a list where the rule says ties are kept; lists hold 1..40 listings. Averages are rounded as the
  question says; a whole number is written as an integer.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "questions.json"
SEED = 20261207
DEBUG = False  # True: a gold outside its bounds is printed, not asserted (used while choosing values)


sys.path.insert(0, str(HERE.parent))
from shared import (  # noqa: E402
    AGGREGATION,
    GROUP,
    INVERSE,
    MULTI,
    REASONING,
    BoundedBuilder,
    base_set,
    clean_number,
    set_main,
)

base = base_set("bikes")
load = base.load
write_catalog = base.write_catalog
Bike = base.Bike
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
EBIKE, ENDURO, TRAIL, DH, XC = base.EBIKE, base.ENDURO, base.TRAIL, base.DH, base.XC
W275, W29 = '27.5" / 650B', '29"'
INCH = 25.4  # mm, exact


def build(bikes: list[Bike]) -> list[dict]:
    b = BoundedBuilder(bikes, debug=DEBUG)
    cat = lambda c: [x for x in bikes if x.category == c]  # noqa: E731
    brand = lambda s: [x for x in bikes if x.brand == s]  # noqa: E731
    names = lambda pool: [x.name for x in pool]  # noqa: E731
    rear = lambda x: x.rear_mm() if x.hardtail is False else None  # noqa: E731  (rear travel the page states)
    plain = [x for x in bikes if "(" not in x.name]  # names without a disambiguating suffix

    # ---- Inverse: one condition -> list ---------------------------------------------------------
    b.add("Show me everything you have in Cardiff.", L, names=names(x for x in bikes if x.col("City") == "Cardiff"))
    b.add("Got any Kona bikes?", L, names=names(brand("Kona")))
    b.add(
        "Which sellers are asking in US dollars rather than pounds or euros?",
        L,
        names=names(x for x in bikes if x.col("Currency") == "USD"),
    )
    b.add("Anything with a 44 cm frame?", L, names=names(x for x in bikes if x.frame() == "44cm"))
    b.add("Do you have anything running a 110mm fork?", L, names=names(x for x in bikes if x.front_mm() == 110))
    b.add(
        "Got anything older than 2010?",
        L,
        names=names(x for x in bikes if x.year() is not None and x.year() < 2010),
    )
    b.add("Any bikes going for more than ten grand?", L, names=names(x for x in bikes if x.usd() > 10000))
    b.add("Which bikes have 19 cm of travel up front?", L, names=names(x for x in bikes if x.front_mm() == 190))
    b.add("Any bikes in extra small?", L, names=names(x for x in bikes if x.frame() == "XS"))
    b.add(
        "Do you have anything for sale in Germany or Austria?",
        L,
        names=names(x for x in bikes if x.country in ("Germany", "Austria")),
    )
    b.add("I'm looking for a bike with 650C wheels.", L, names=names(x for x in bikes if x.wheel() == "650C"))
    b.add(
        "Show me bikes with over 20 cm of rear suspension travel.",
        L,
        "tkg",
        names=names(x for x in bikes if (rear(x) or 0) > 200),
    )
    b.add("Which e-MTBs are still unridden?", L, "tkg", names=names(x for x in cat(EBIKE) if x.condition == "New"))
    b.add(
        "Which Whyte bikes have no rear suspension?",
        L,
        "tkg",
        names=names(x for x in brand("Whyte") if x.hardtail is True),
    )
    b.add(
        "Which Santa Cruz bikes aren't in excellent condition?",
        L,
        "tkg",
        names=names(x for x in brand("Santa Cruz") if x.condition is not None and x.condition != "Excellent"),
    )
    b.add(
        "List all the YT bikes that are not hardtails.",
        L,
        "tkg",
        names=names(x for x in brand("YT") if x.hardtail is False),
    )
    b.add(
        "Which bikes come with 80 mm of rear travel?",
        L,
        "tkg",
        names=names(x for x in bikes if rear(x) == 80),
    )

    # ---- Multi-Condition: 2-3 conditions -> list ------------------------------------------------
    b.add(
        "Show me carbon trail 29ers under two grand.",
        M,
        names=names(x for x in cat(TRAIL) if x.material() == "Carbon Fiber" and x.wheel() == W29 and x.usd() < 2000),
    )
    b.add(
        "I'm looking for an alloy e-bike in a large for less than $3k.",
        M,
        names=names(x for x in cat(EBIKE) if x.material() == "Aluminium" and x.frame() == "L" and x.usd() < 3000),
    )
    b.add(
        "Any Scottish DH bikes under fifteen hundred quid?",
        M,
        names=names(x for x in cat(DH) if x.country == "Scotland" and x.col("Currency") == "GBP" and x.asking() < 1500),
    )
    b.add(
        "Medium Cube bikes with a 160mm fork - do you have any?",
        M,
        names=names(x for x in brand("Cube") if x.frame() == "M" and x.front_mm() == 160),
    )
    b.add(
        "Which Specialized bikes from 2016 or earlier are priced below $1,000?",
        M,
        names=names(x for x in brand("Specialized") if x.year() is not None and x.year() <= 2016 and x.usd() < 1000),
    )
    b.add(
        "List all 2023 models with a 170 mm fork.",
        M,
        names=names(x for x in bikes if x.year() == 2023 and x.front_mm() == 170),
    )
    b.add(
        "Anything in Bristol or Bath for under a grand?",
        M,
        names=names(x for x in bikes if x.col("City") in ("Bristol", "Bath") and x.usd() < 1000),
    )
    b.add(
        "Any full-sus trail bikes for sale in London?",
        M,
        "tkg",
        names=names(x for x in cat(TRAIL) if x.col("City") == "London" and x.hardtail is False),
    )
    b.add(
        "Which alu enduro bikes under $1,000 aren't hardtails?",
        M,
        "tkg",
        names=names(x for x in cat(ENDURO) if x.material() == "Aluminium" and x.usd() < 1000 and x.hardtail is False),
    )
    b.add(
        "Any steel bikes (chromoly included) in excellent shape?",
        M,
        "tkg",
        names=names(x for x in bikes if x.material() in ("Steel", "Chromoly") and x.condition == "Excellent"),
    )
    b.add(
        "Which e-bikes over $5,000 are not brand new?",
        M,
        "tkg",
        names=names(x for x in cat(EBIKE) if x.usd() > 5000 and x.condition is not None and x.condition != "New"),
    )
    b.add(
        "Which 29ers have more than six inches of rear travel and cost under $2,500?",
        M,
        "tkg",
        names=names(x for x in bikes if x.wheel() == W29 and (rear(x) or 0) > 6 * INCH and x.usd() < 2500),
    )
    b.add(
        "Which carbon XC bikes don't have a rear shock?",
        M,
        "tkg",
        names=names(x for x in cat(XC) if x.material() == "Carbon Fiber" and x.hardtail is True),
    )

    # ---- Group Comparison: two listings or two groups -> winner or value -------------------------
    rng = random.Random(SEED)

    def pair(pool, key):
        pool = [x for x in pool if key(x) is not None and "(" not in x.name and "  " not in x.name]
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pair(brand("Trek"), Bike.year)
    b.add(f"Which is older, the {x.name} or the {y.name}?", G, value=min((x, y), key=Bike.year).name)
    x, y = pair(cat(TRAIL) + cat(XC), Bike.front_mm)
    b.add(
        f"Between {x.name} and {y.name}, which has less travel up front?",
        G,
        value=min((x, y), key=Bike.front_mm).name,
    )
    x, y = pair(brand("Santa Cruz"), Bike.usd)
    b.add(f"Is the {x.name} more expensive than the {y.name}?", G, value="yes" if x.usd() > y.usd() else "no")
    x, y = pair(cat(DH), Bike.usd)
    b.add(
        f"What's the price difference between {x.name} and {y.name}, in dollars?",
        G,
        value=clean_number(abs(x.usd() - y.usd())),
    )
    mean = lambda pool: sum(p.usd() for p in pool) / len(pool)  # noqa: E731
    sc, spec = mean(brand("Santa Cruz")), mean(brand("Specialized"))
    assert sc != spec
    b.add(
        "On average, which brand's bikes are pricier here: Santa Cruz or Specialized?",
        G,
        value="Santa Cruz" if sc > spec else "Specialized",
    )
    n_yt, n_nuke = len(brand("YT")), len(brand("Nukeproof"))
    assert n_yt != n_nuke
    b.add("Are there more YT or Nukeproof bikes listed?", G, value="YT" if n_yt > n_nuke else "Nukeproof")
    x, y = pair(cat(ENDURO), rear)
    b.add(f"Which has more rear travel, {x.name} or {y.name}?", G, "tkg", value=max((x, y), key=rear).name)
    ht_trail = len([x for x in cat(TRAIL) if x.hardtail is True])
    ht_enduro = len([x for x in cat(ENDURO) if x.hardtail is True])
    assert ht_trail != ht_enduro
    b.add(
        "Are hardtails more common among the trail bikes or the enduro bikes?",
        G,
        "tkg",
        value=TRAIL if ht_trail > ht_enduro else ENDURO,
    )

    # ---- Reasoning: a need -> gold by an explicit rule ----------------------------------------------
    # Rule: full suspension stated on the page, 29" wheels, frame size L, Price in USD at most 2000
    # ("two grand at most"); the most rear travel the page states (unique).
    pool = [x for x in bikes if x.hardtail is False and x.wheel() == W29 and x.frame() == "L" and x.usd() <= 2000]
    b.add(
        "I've got two grand at most for a full-suspension 29er in size L. Which one gives me the most rear travel?",
        R,
        "tkg",
        value=b.best_one(pool, rear).name,
    )
    # Rule: Price in USD at most 1000 ("a budget of a grand"); the largest front travel; ties all kept (list).
    winners, _ = b.best([x for x in bikes if x.usd() <= 1000], Bike.front_mm)
    q = "My budget is a grand. Which bike gets me the most fork travel for that?"
    if len(winners) == 1:
        b.add(q, R, value=winners[0].name)
    else:
        b.add(q, R, names=names(winners))
    # Rule: hardtail stated on the page and Price in USD under 800; the latest model year; ties all kept (list).
    winners, _ = b.best([x for x in bikes if x.hardtail is True and x.usd() < 800], Bike.year)
    b.add("What's the newest hardtail I can get for under $800?", R, "tkg", names=names(winners))
    # Rule: front travel (spec) minus the rear travel the page states, in mm, for one full-suspension bike.
    x = random.Random(SEED + 1).choice([x for x in plain if rear(x) and x.front_mm() and x.front_mm() > rear(x)])
    b.add(
        f"How much more travel does the {x.name} have at the front than at the back, in mm?",
        R,
        "tkg",
        value=x.front_mm() - rear(x),
    )
    # Rule: City is Edinburgh and model year 2020 or newer.
    b.add(
        "I live in Edinburgh and will only collect in person. Which 2020-or-newer bikes can I pick up there?",
        R,
        names=names(x for x in bikes if x.col("City") == "Edinburgh" and (x.year() or 0) >= 2020),
    )
    # Rule: front travel at least 180 mm, full suspension stated on the page, Price in USD under 1500.
    b.add(
        "For the bike park I want at least 180 mm up front, rear suspension, and to spend under $1,500. "
        "What are my options?",
        R,
        "tkg",
        names=names(x for x in bikes if (x.front_mm() or 0) >= 180 and x.hardtail is False and x.usd() < 1500),
    )

    # ---- Aggregation: count, average, min/max, sum -> value --------------------------------------
    b.add("How many listings are in Sheffield?", A, value=len([x for x in bikes if x.col("City") == "Sheffield"]))
    b.add(
        "What's the average price of a Cotic, in dollars, to the nearest dollar?",
        A,
        value=round(mean(brand("Cotic"))),
    )
    b.add(
        "What do all the Evil bikes add up to, in US dollars?",
        A,
        value=clean_number(sum(x.usd() for x in brand("Evil"))),
    )
    b.add(
        "How many 29-inch hardtails are there?",
        A,
        "tkg",
        value=len([x for x in bikes if x.wheel() == W29 and x.hardtail is True]),
    )
    b.add(
        "How many bikes have no rear suspension at all?",
        A,
        "tkg",
        value=len([x for x in bikes if x.hardtail is True]),
    )
    b.add("What's the oldest model year of any bike listed?", A, value=b.top_value(bikes, Bike.year, low=True))
    b.add(
        "What's the biggest rear travel on any bike, in cm?",
        A,
        "tkg",
        value=clean_number(b.top_value(bikes, rear) / 10),
    )
    b.add(
        "How many different brands are the e-bikes from?",
        A,
        value=len({x.brand for x in cat(EBIKE) if x.brand}),
    )
    portugal = [x for x in bikes if x.country == "Portugal"]
    assert all(x.col("Currency") == "EUR" for x in portugal)
    b.add("What's the priciest listing in Portugal, in euros?", A, value=b.top_value(portugal, Bike.asking))
    xc = [x.front_mm() for x in cat(XC) if x.front_mm() is not None]
    b.add(
        "What is the average fork travel of the XC bikes, in mm, to one decimal place (a rigid fork counts as 0)?",
        A,
        value=clean_number(round(sum(xc) / len(xc), 1)),
    )
    b.add(
        "How many bikes have at least 0.2 m of fork travel?",
        A,
        value=len([x for x in bikes if (x.front_mm() or 0) >= 200]),
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build, write_catalog)


if __name__ == "__main__":
    main()
