"""A held-out question set over the "bikes" catalogue, worded as shoppers write to a European bike shop; written blind to the reader code, 2026-12-07.

The catalogue is the base set's, byte for byte: ``bikes/make_set.py`` is loaded as a module and its
``load()`` and ``write_catalog()`` give the same 1,000 Pinkbike listings, pages and index (see that
module's docstring for what the spec table holds and what only the page prose states). Only the
questions are new: customers of a shop in Europe, metric units, decimal commas ("20,3 cm"), dotted
or spaced thousands ("2.000 dollars", "10 000 dollars"), shop slang ("full sus", "cro-mo", "29er",
"e-MTB", "in good nick"), riders describing what they want the bike for.

    python3 bench/own_sets/bikes_x/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/bikes_x/make_set.py --check     # questions.json current
    python3 bench/own_sets/bikes_x/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields (never typed by hand):

* Missing data is never "no". A blank source cell satisfies no condition and no negated condition;
  a fact the page prose does not state (hardtail or not, condition) is neither had nor lacked, so
  "which ... aren't hardtails" lists only pages that state full suspension, and "not brand new"
  only pages that state another condition.
* "under / less than / below / over / more than / above" are strict; "at least / or more / or
  newer / or earlier / from ... onwards / max / budget of / can afford with" are inclusive.
* Numbers: a decimal comma is a decimal point ("21,5 cm" = 21.5 cm); "2.000" and "10 000" are
  thousands. Travel in cm is the source's mm / 10, exact; a travel asked in cm is answered in cm.
* Prices asked in dollars compare the ``Price in USD`` column (the catalogue price). Prices asked
  in pounds or euros apply only to listings in that ``Currency`` and compare the number of its
  ``Price`` (the "$" the site writes is ignored); no currency is ever converted here. Averages are
  rounded to whole dollars.
* Rear suspension is prose only: "hardtail", "no rear suspension / rear shock", "without rear
  suspension" = the page says hardtail; "full sus(pension)", "rear suspension" = the page says full
  suspension; rear travel is the travel such a page states (a hardtail page states none).
* Condition is prose only: "unridden / brand new / tags on" = New, "excellent / lightly ridden" =
  Excellent, "used but sound / good" = Good, "needs work / servicing" = Poor. "Better condition":
  New > Excellent > Good > Poor > For Parts.
* Wheels: "27,5-inch" = "650B" = the ``27.5" / 650B`` value; a "29er" = ``29"``; "16 inch or
  smaller" = ``16" or less``. Frame sizes compare the written size only, letters by
  XS < S < M < L < XL < XXL ("2XL" = XXL), inches with inches, cm with cm, never converted.
* "e-bike / e-MTB" = the category ``Ebikes - Mountain``; "DH" = ``Downhill Bikes``; "XC /
  cross-country" = ``XC / Cross Country Bikes``; "enduro", "trail" likewise. Brands are the
  ``Brand`` column compared exactly; countries are the ``Country`` column (the site splits the UK
  into United Kingdom, Scotland, Wales and Northern Ireland).
* Superlatives and comparisons are asserted to have a single winner; a group comparison names the
  group as the catalogue writes it (the category, brand or country). Lists hold 1..40 listings.
"""

from __future__ import annotations

import random
import re
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
Bike = base.Bike

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
EBIKE, ENDURO, TRAIL, DH, XC = base.EBIKE, base.ENDURO, base.TRAIL, base.DH, base.XC
W275, W29, W16 = '27.5" / 650B', '29"', '16" or less'
CONDITION_RANK = {c: i for i, c in enumerate(reversed(base.CONDITIONS))}  # higher = better
LETTER_SIZES = ["XS", "S", "M", "L", "XL", "XXL"]


def rear_stated(x: Bike) -> int | None:
    """The rear travel in mm as the page states it: only a full-suspension page states one."""
    return x.rear_mm() if x.hardtail is False else None


def full_sus(x: Bike) -> bool | None:
    """Whether the page states rear suspension; None where it states neither."""
    return None if x.hardtail is None else not x.hardtail


def plain_name(x: Bike) -> bool:
    """A title a customer could type back as written (used to pick the listings a question names)."""
    return bool(re.fullmatch(r"[A-Za-z0-9 .'+-]{8,45}", x.name))


def build_questions(bikes: list[Bike]) -> list[dict]:
    b = BoundedBuilder(bikes, debug=DEBUG)
    rng = random.Random(SEED)
    names = lambda pool: [x.name for x in pool]  # noqa: E731
    where = lambda test: [x.name for x in bikes if test(x)]  # noqa: E731
    cat = lambda c: [x for x in bikes if x.category == c]  # noqa: E731
    brand = lambda s: [x for x in bikes if x.brand == s]  # noqa: E731
    usd = Bike.usd

    def one(test) -> Bike:
        return rng.choice([x for x in bikes if plain_name(x) and test(x)])

    def two(test, key) -> tuple[Bike, Bike]:
        """Two nameable listings passing ``test`` whose ``key`` is known and differs."""
        pool = [x for x in bikes if plain_name(x) and test(x) and key(x) is not None]
        for _ in range(1000):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    def yes_no(pool, fact) -> str:
        """Say "yes" if ``fact`` is stated true of some listing, "no" only if every listing states it false."""
        facts = [fact(x) for x in pool]
        if True in facts:
            return "yes"
        assert pool and None not in facts, "an unstated fact is not a no"
        return "no"

    # ---- Inverse: one condition ---------------------------------------------------------------
    b.add(
        "I'm driving through Bulgaria this summer. What bikes are for sale over there?",
        L,
        names=where(lambda x: x.country == "Bulgaria"),
    )
    b.add(
        "Is there any cro-mo frame in the shop? Show me all of them, nothing rides like chromoly.",
        L,
        names=where(lambda x: x.material() == "Chromoly"),
    )
    b.add(
        "My daughter is really small. What do you have with an XS frame?",
        L,
        names=where(lambda x: x.frame() == "XS"),
    )
    b.add("Show me the bikes with 20,3 cm of travel on the fork.", L, names=where(lambda x: x.front_mm() == 203))
    b.add(
        "I'm riding the trails in Peebles next month - anything I could pick up in Peebles itself?",
        L,
        names=where(lambda x: x.col("City") == "Peebles"),
    )
    b.add(
        "Which sellers want US dollars rather than pounds or euros?",
        L,
        names=where(lambda x: x.col("Currency") == "USD"),
    )
    b.add("Do you stock any Cotic?", L, names=names(brand("Cotic")))
    b.add('Got anything with a 17,5" frame? List them please.', L, names=where(lambda x: x.frame() == '17.5"'))
    b.add(
        "I collect old-school stuff. What have you got from model year 2010 or earlier?",
        L,
        names=where(lambda x: x.year() is not None and x.year() <= 2010),
    )
    b.add("Show me everything over 10 000 dollars, just out of curiosity.", L, names=where(lambda x: usd(x) > 10000))
    b.add(
        "Do you have a Marin without rear suspension? Which ones?",
        L,
        "tkg",
        names=names(x for x in brand("Marin") if x.hardtail is True),
    )
    b.add(
        "I want a proper DH sled: which bikes have 21,5 cm of travel at the back?",
        L,
        "tkg",
        names=where(lambda x: rear_stated(x) == 215),
    )
    b.add(
        "Which Transitions aren't brand new? I don't want to pay new-bike money.",
        L,
        "tkg",
        names=names(x for x in brand("Transition") if x.condition not in (None, "New")),
    )
    b.add(
        "Show me the Whytes that aren't hardtails.",
        L,
        "tkg",
        names=names(x for x in brand("Whyte") if x.hardtail is False),
    )

    # ---- Multi-condition ----------------------------------------------------------------------
    b.add(
        "I'm looking for a carbon 29er trail bike, budget 2.000 dollars max.",
        M,
        names=names(x for x in cat(TRAIL) if x.material() == "Carbon Fiber" and x.wheel() == W29 and usd(x) <= 2000),
    )
    b.add(
        "Enduro bike, size S, with a 170 mm fork - which ones do you have?",
        M,
        names=names(x for x in cat(ENDURO) if x.frame() == "S" and x.front_mm() == 170),
    )
    b.add(
        "Show me Treks in Large with a carbon frame, 2021 or newer.",
        M,
        names=names(
            x
            for x in brand("Trek")
            if x.frame() == "L" and x.material() == "Carbon Fiber" and x.year() is not None and x.year() >= 2021
        ),
    )
    b.add(
        "Downhill bikes with a 200 mm fork, from 2019 onwards, below 2.500 $?",
        M,
        names=names(
            x for x in cat(DH) if x.front_mm() == 200 and x.year() is not None and x.year() >= 2019 and usd(x) < 2500
        ),
    )
    b.add(
        "Cheap 29ers listed in pounds, less than £400?",
        M,
        names=where(lambda x: x.col("Currency") == "GBP" and x.wheel() == W29 and x.asking() < 400),
    )
    b.add(
        "I live near the German-Austrian border. Any enduro bikes for sale in Germany or Austria?",
        M,
        names=names(x for x in cat(ENDURO) if x.country in ("Germany", "Austria")),
    )
    b.add(
        "Looking for a full-sus bike in size S for my girlfriend, under 1.500 dollars.",
        M,
        "tkg",
        names=where(lambda x: x.hardtail is False and x.frame() == "S" and usd(x) < 1500),
    )
    b.add(
        'Hardtails on 27,5" wheels with a 120 mm fork?',
        M,
        "tkg",
        names=where(lambda x: x.hardtail is True and x.wheel() == W275 and x.front_mm() == 120),
    )
    b.add(
        "Show me e-MTBs that are still unridden and under 5000 USD.",
        M,
        "tkg",
        names=names(x for x in cat(EBIKE) if x.condition == "New" and usd(x) < 5000),
    )
    b.add(
        "Santa Cruz, XL, excellent condition - what is there?",
        M,
        "tkg",
        names=names(x for x in brand("Santa Cruz") if x.frame() == "XL" and x.condition == "Excellent"),
    )
    b.add(
        "I race XC. Which carbon cross-country bikes do you have that are not hardtails?",
        M,
        "tkg",
        names=names(x for x in cat(XC) if x.material() == "Carbon Fiber" and x.hardtail is False),
    )
    b.add(
        "I'm after anything with at least 16 cm of travel at both ends for under 1000 dollars. What is there?",
        M,
        "tkg",
        names=where(lambda x: (x.front_mm() or 0) >= 160 and (rear_stated(x) or 0) >= 160 and usd(x) < 1000),
    )

    # ---- Group comparison ---------------------------------------------------------------------
    x, y = two(lambda x: x.category == TRAIL and x.col("Currency") == "GBP", usd)
    b.add(f"Between the {x.name} and the {y.name}, which one costs less?", G, value=min((x, y), key=usd).name)
    x, y = two(lambda x: x.category == ENDURO, rear_stated)
    b.add(
        f"Which gives me more travel at the rear: {x.name} or {y.name}?",
        G,
        "tkg",
        value=max((x, y), key=rear_stated).name,
    )
    x, y = two(lambda x: x.brand == "Giant", Bike.year)
    b.add(f"{x.name} or {y.name} - which is the older bike?", G, value=min((x, y), key=Bike.year).name)
    size = lambda x: LETTER_SIZES.index(x.frame()) if x.frame() in LETTER_SIZES else None  # noqa: E731
    x, y = two(lambda x: x.category == DH, size)
    b.add(f"I'm tall, which one has the bigger frame, {x.name} or {y.name}?", G, value=max((x, y), key=size).name)
    x, y = two(lambda x: x.condition in ("Excellent", "Good"), lambda x: x.condition)
    rank = lambda x: CONDITION_RANK[x.condition]  # noqa: E731
    b.add(f"Which one is in better nick, the {x.name} or the {y.name}?", G, "tkg", value=max((x, y), key=rank).name)
    x, y = two(lambda x: x.category in (TRAIL, XC), Bike.front_mm)
    b.add(
        f"Does the {x.name} or the {y.name} have more suspension up front?",
        G,
        value=max((x, y), key=Bike.front_mm).name,
    )

    def more(question, groups: dict[str, list], method="sparql"):
        counts = {label: len(pool) for label, pool in groups.items()}
        assert len(set(counts.values())) == len(counts), (question, counts)
        b.add(question, G, method, value=max(counts, key=counts.get))

    more(
        "Where would I find more hardtails here, among the XC bikes or the trail bikes?",
        {c: [x for x in cat(c) if x.hardtail is True] for c in (XC, TRAIL)},
        "tkg",
    )
    more(
        "Which has more bikes on offer, Poland or Germany?",
        {c: [x for x in bikes if x.country == c] for c in ("Poland", "Germany")},
    )
    more("Do you have more Canyon or more YT bikes?", {s: brand(s) for s in ("Canyon", "YT")})
    avg = {c: sum(map(usd, cat(c))) / len(cat(c)) for c in (DH, ENDURO)}
    assert round(avg[DH]) != round(avg[ENDURO])
    b.add(
        "On average, what's pricier in dollars here: a downhill bike or an enduro bike?",
        G,
        value=max(avg, key=avg.get),
    )

    # ---- Reasoning ----------------------------------------------------------------------------
    x = one(lambda x: x.hardtail is False and x.category == TRAIL)
    b.add(f"Does the {x.name} have any rear suspension?", R, "tkg", value=yes_no([x], full_sus))
    x = one(lambda x: rear_stated(x) in (145, 155, 135))
    b.add(f"How many cm of rear travel does the {x.name} have?", R, "tkg", value=clean_number(rear_stated(x) / 10))
    x = one(lambda x: x.col("Currency") == "EUR" and x.asking() > 100)
    b.add(f"What is the seller asking for the {x.name}, in euros?", R, value=x.asking())
    x, y = two(lambda x: x.category == ENDURO and x.brand == "YT", usd)
    b.add(
        f"What's the price difference in dollars between the {x.name} and the {y.name}?",
        R,
        value=clean_number(abs(usd(x) - usd(y))),
    )
    b.add(
        "I'm 1,95 m and ride XL or XXL. Which Nukeproofs come in those sizes?",
        R,
        names=names(x for x in brand("Nukeproof") if x.frame() in ("XL", "XXL")),
    )
    b.add(
        "For DH I like a bit more fork than shock. Which downhill bikes have more travel at the front than at the rear?",
        R,
        "tkg",
        names=names(x for x in cat(DH) if rear_stated(x) is not None and (x.front_mm() or 0) > rear_stated(x)),
    )
    b.add(
        "I've got £1.200 to spend. Which XL enduro bikes listed in pounds can I afford?",
        R,
        names=names(x for x in cat(ENDURO) if x.frame() == "XL" and x.col("Currency") == "GBP" and x.asking() <= 1200),
    )
    sc = [x for x in brand("Santa Cruz") if x.year() == 2023]
    new = lambda x: None if x.condition is None else x.condition == "New"  # noqa: E731
    b.add("Is there a 2023 Santa Cruz that's never been ridden?", R, "tkg", value=yes_no(sc, new))

    # ---- Aggregation --------------------------------------------------------------------------
    b.add("How many hardtails have you got in total?", A, "tkg", value=len([x for x in bikes if x.hardtail is True]))
    orange = brand("Orange")
    b.add(
        "What does an Orange go for on average here, in dollars (rounded)?",
        A,
        value=round(sum(map(usd, orange)) / len(orange)),
    )
    hard29 = [x for x in bikes if x.hardtail is True and x.wheel() == W29]
    b.add("What's your cheapest 29er hardtail?", A, "tkg", value=b.best_one(hard29, usd, low=True).name)
    b.add(
        "What's the most rear travel on any enduro bike, in millimetres?",
        A,
        "tkg",
        value=b.top_value(cat(ENDURO), rear_stated),
    )
    b.add("How many bikes have sellers in Poland listed?", A, value=len([x for x in bikes if x.country == "Poland"]))
    b.add("What's the oldest model year you have?", A, value=b.top_value(bikes, Bike.year, low=True))
    b.add(
        "How many Whyte bikes roll on 27,5-inch wheels?",
        A,
        value=len([x for x in brand("Whyte") if x.wheel() == W275]),
    )
    euro = [x for x in bikes if x.col("Currency") == "EUR"]
    b.add("Of the bikes priced in euros, which is the most expensive?", A, value=b.best_one(euro, Bike.asking).name)
    b.add(
        "How many listings give the frame size in centimetres?",
        A,
        value=len([x for x in bikes if x.frame().endswith("cm")]),
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, base.load, build_questions, base.write_catalog)


if __name__ == "__main__":
    main()
