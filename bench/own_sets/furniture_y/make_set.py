"""A held-out question set over the "furniture" catalogue (IKEA Saudi Arabia), asked by an American
shopper: "furniture_y".

Written 2026-12-08, blind: without reading the QA system's code, its tests or docs, or any other
set's questions; only the base set's docstring, ``load()``, ``write_catalog()`` and data classes
were read, to learn which fields exist and which facts are stated only in page prose. The
catalogue is the base set's, byte for byte (``shared.base_set("furniture")`` gives ``load`` and
``write_catalog``).

STYLE: an American customer browsing this Saudi catalogue: sizes in inches and feet, prices in
SAR / riyals, casual American words for the furniture ("couch", "loveseat", "dresser",
"nightstand", "crib", "TV stand", "patio", "closet"), and about one question in ten with one
misspelled word (marked ``# typo`` below; the gold does not depend on it).

    python3 bench/own_sets/furniture_y/make_set.py             # write questions.json
    python3 bench/own_sets/furniture_y/make_set.py --check     # questions.json current
    python3 bench/own_sets/furniture_y/make_set.py --show      # print every question with its gold
    python3 bench/own_sets/furniture_y/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml

Conventions of the gold, all computed here from the source fields:

* Product types are the base set's: the first comma-separated part of the short description,
  lower-cased and matched whole. The American words map onto those types:
  - "couch" = a sofa you sit on: 2-seat sofa, two-seat sofa, 3-seat sofa, three-seat sofa,
    4-seat sofa, 5-seat sofa, corner sofa, u-shaped sofa (not sofa-beds, modular sections or
    covers); "3-seat couch" = 3-seat sofa or three-seat sofa; "loveseat" = 2-seat sofa or
    two-seat sofa;
  - "dresser" = chest of drawers: "chest of drawers", "chest of N drawers", "modular chest of
    (N) drawers" (all in the "Chests of drawers & drawer units" category);
  - "nightstand" = bedside table; "crib" = cot, cot with drawers; "TV stand" = tv bench, tv
    bench with drawers / doors / sliding doors; "closet" / "wardrobe" = the type wardrobe;
    "dining set" = "table and N chairs"; "patio chairs or armchairs" = types chair, armchair,
    chair with armrests in the Outdoor furniture category; "coffee table", "armchair", "desk", "bookcase",
    "recliner" are those types exactly; "chairs, armchairs or swivel chairs" = the types chair,
    armchair, chair with armrests, swivel chair;
  - a catalogue category named as such ("patio / outdoor furniture" = Outdoor furniture,
    "the Chairs section", "Tables & desks", "Beds", "Wardrobes") is the file's category.
* Sizes are the width / depth / height columns in cm; an article without the column is left out
  of any filter, superlative or average on it. 1 inch = 2.54 cm, 1 foot = 30.48 cm, exactly.
  Every size threshold is asserted to lie at least 1 cm from every value it is compared with,
  so rounding the conversion (e.g. 6 ft ~ 183 cm) never changes a gold. Size answers in inches
  are cm / 2.54 rounded to 1 decimal.
* Prices are SAR ("riyals", "SR", "SAR"); no currency conversion is asked. "On sale" / "marked
  down" = has a previous price; the saving is previous price minus price.
* Prose-only facts (``gt_retrieval_method`` "tkg"): other colours and online purchase count only
  where the page states them; a page that says nothing neither has nor lacks the fact ("only in
  one color" needs the page to say so). Facts from the marketing text ("machine-washable") are a
  regular expression on that text, so only products with marketing text can have them.
* A designer is one of the "/"-separated names of the designer column, matched exactly.
* "under / less than / narrower / shorter / lower / taller / wider / more than" are strict; "at
  least / at most / up to / no more than" are inclusive; "between X and Y" inclusive.
* Averages are plain means rounded to 2 decimals (prices in SAR). Superlatives and
  two-product comparisons are asserted to have one winner; group "which higher" questions are
  asserted not to tie. Lists hold 1..40 names.
"""

from __future__ import annotations

import re
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

BASE = base_set("furniture")
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
INCH, FOOT = 2.54, 30.48

COUCH = {
    "2-seat sofa",
    "two-seat sofa",
    "3-seat sofa",
    "three-seat sofa",
    "4-seat sofa",
    "5-seat sofa",
    "corner sofa",
    "u-shaped sofa",
}
COUCH3 = {"3-seat sofa", "three-seat sofa"}
LOVESEAT = {"2-seat sofa", "two-seat sofa"}
DRESSER = re.compile(r"(modular )?chest of (\d+ )?drawers")
CRIB = {"cot", "cot with drawers"}
TV_STAND = {"tv bench", "tv bench with drawers", "tv bench with doors", "tv bench with sliding doors"}
DINING_SET = re.compile(r"table and \d+ chairs")
MACHINE_WASH = re.compile(r"machine[- ]wash", re.I)


def _mean(vals):
    vals = [v for v in vals if v is not None]
    return sum(vals) / len(vals)


def build_questions(arts) -> list[dict]:
    b = SetBuilder(arts)

    def names(pool):
        return [a.name for a in pool]

    def kind(*ks):
        return [a for a in arts if a.kind in ks]

    def cat(c):
        return [a for a in arts if c in a.categories]

    def named(n):
        (a,) = [a for a in arts if a.name == n]
        return a

    def yn(v):
        return "yes" if v else "no"

    def clear(pool, col, thr):
        """No product of ``pool`` within 1 cm of ``thr`` cm on ``col``: the imperial reading is safe."""
        for a in pool:
            v = a.cm(col)
            assert v is None or abs(v - thr) >= 1.0, (a.name, col, v, thr)
        return thr

    def cm(a, col):
        return a.cm(col)

    def inches(v):
        return round(v / INCH, 1)

    def higher(ga, gc, key, la, lc, *, low=False):
        ma, mc = _mean(key(x) for x in ga), _mean(key(x) for x in gc)
        assert ma != mc
        return (la if ma < mc else lc) if low else (la if ma > mc else lc)

    def more(ga, gc, la, lc):
        assert len(ga) != len(gc)
        return la if len(ga) > len(gc) else lc

    def pair(n1, n2, key, *, low=False):
        v1, v2 = key(named(n1)), key(named(n2))
        assert v1 is not None and v2 is not None and v1 != v2, (n1, n2, v1, v2)
        return (n1 if v1 < v2 else n2) if low else (n1 if v1 > v2 else n2)

    couches = [a for a in arts if a.kind in COUCH]
    dressers = [a for a in arts if DRESSER.fullmatch(a.kind)]
    tv = [a for a in arts if a.kind in TV_STAND]
    wardrobes = kind("wardrobe")

    # ---- INVERSE ----------------------------------------------------------------------------
    b.add("Do you guys carry any nightstands? Which ones?", L, names=names(kind("bedside table")))
    b.add("Which cribs do y'all have for the baby's room?", L, names=names(a for a in arts if a.kind in CRIB))
    b.add("Show me every loveseat in the catalog.", L, names=names(a for a in arts if a.kind in LOVESEAT))
    b.add("Which dressers have exactly six drawers?", L, names=names(kind("chest of 6 drawers")))
    b.add("What recliners are you selling?", L, names=names(kind("recliner")))
    b.add(
        "Which TV stands only come in the one color?",
        L,
        method="tkg",
        names=names(a for a in tv if a.says.get("colours") is False),
    )
    b.add(
        "What items can't I order online, where I'd have to go pick them up at the store?",  # all stated negatives
        L,
        method="tkg",
        names=names(a for a in arts if a.says.get("online") is False),
    )
    b.add("Which products are in the room dividers section?", L, names=names(cat("Room dividers")))
    b.add(
        "Which items have covers or fabric you can just toss in the washing machine?",
        L,
        method="tkg",
        names=names(a for a in arts if a.marketing and MACHINE_WASH.search(a.marketing)),
    )
    b.add(
        "Which pieces in the Café furniture section are marked down rite now?",
        L,
        names=names(a for a in cat("Café furniture") if a.old_price),
    )  # typo
    b.add("Which things did Carina Bengs design?", L, names=names(a for a in arts if "Carina Bengs" in a.designers))

    # ---- MULTI ------------------------------------------------------------------------------
    b.add(
        "Any 3-seat couches for under 2,000 riyals?",
        M,
        names=names(a for a in arts if a.kind in COUCH3 and a.price < 2000),
    )
    t = clear(dressers, "width", 3 * FOOT)
    b.add(
        "Which dressers are narrower than 3 feet?",
        M,
        names=names(a for a in dressers if cm(a, "width") is not None and cm(a, "width") < t),
    )
    t = clear(cat("Bookcases & shelving units"), "height", 5 * FOOT)
    b.add(
        "In the bookcases & shelving section, what's taller than 5 feet but costs under 500 SAR?",
        M,
        names=names(
            a
            for a in cat("Bookcases & shelving units")
            if cm(a, "height") is not None and cm(a, "height") > t and a.price < 500
        ),
    )
    t = clear(tv, "width", 70 * INCH)
    b.add(
        "Which TV stands are wider than 70 inches?",
        M,
        names=names(a for a in tv if cm(a, "width") is not None and cm(a, "width") > t),
    )
    b.add(
        "Which patio chairs or armchairs aren't offered in any other colour?",
        M,
        method="tkg",
        names=names(
            a
            for a in cat("Outdoor furniture")
            if a.kind in {"chair", "armchair", "chair with armrests"} and a.says.get("colours") is False
        ),
    )
    b.add("Which couches are on sale right now?", M, names=names(a for a in couches if a.old_price))
    t = clear(wardrobes, "depth", 18 * INCH)
    b.add(
        "I need a closet less than 18 inches deep that I can order online, which ones work?",
        M,
        method="tkg",
        names=names(
            a for a in wardrobes if cm(a, "depth") is not None and cm(a, "depth") < t and a.says.get("online") is True
        ),
    )
    b.add(
        "Which chairs, armchairs or swivel chairs cost under 300 riyals and don't come in any other color?",
        M,
        method="tkg",
        names=names(
            a
            for a in kind("chair", "armchair", "chair with armrests", "swivel chair")
            if a.price < 300 and a.says.get("colours") is False
        ),
    )
    b.add(
        "Any dining sets with 6 chairs for no more than 3,000 SAR?",
        M,
        names=names(a for a in kind("table and 6 chairs") if a.price <= 3000),
    )
    t = clear(kind("coffee table"), "height", 17 * INCH)
    b.add(
        "Which coffee tables are lower than 17 inches?",
        M,
        names=names(a for a in kind("coffee table") if cm(a, "height") is not None and cm(a, "height") < t),
    )

    # ---- GROUP ------------------------------------------------------------------------------
    b.add(
        "Are couches more expensive on average than armchairs?",
        G,
        value=yn(_mean(a.price for a in couches) > _mean(a.price for a in kind("armchair"))),
    )
    b.add(
        "Which section has more stuff, Beds or Wardrobes?",
        G,
        value=more(cat("Beds"), cat("Wardrobes"), "Beds", "Wardrobes"),
    )
    b.add(
        "What's the difference in avergae price between outdoor furniture and café furniture, in riyals?",  # typo
        G,
        value=clean_number(
            round(_mean(a.price for a in cat("Outdoor furniture")) - _mean(a.price for a in cat("Café furniture")), 2)
        ),
    )
    ch = [a for a in cat("Chairs") if a.says.get("colours") is True]
    tb = [a for a in cat("Tables & desks") if a.says.get("colours") is True]
    b.add(
        "Do more items in Chairs or in Tables & desks come in other colors?",
        G,
        method="tkg",
        value=more(ch, tb, "Chairs", "Tables & desks"),
    )
    b.add(
        "Whose designs cost more on average, Ola Wihlborg's or Ehlén Johansson's?",
        G,
        value=higher(
            [a for a in arts if "Ola Wihlborg" in a.designers],
            [a for a in arts if "Ehlén Johansson" in a.designers],
            lambda a: a.price,
            "Ola Wihlborg",
            "Ehlén Johansson",
        ),
    )
    b.add(
        "Which are taller on average, wardrobes or bookcases?",
        G,
        value=higher(wardrobes, kind("bookcase"), lambda a: cm(a, "height"), "wardrobes", "bookcases"),
    )
    b.add(
        "How many more products are in Tables & desks than in Chairs?",
        G,
        value=len(cat("Tables & desks")) - len(cat("Chairs")),
    )
    b.add(
        "Is TV & media furniture cheaper on average than cabinets & cupboards?",
        G,
        value=yn(
            _mean(a.price for a in cat("TV & media furniture")) < _mean(a.price for a in cat("Cabinets & cupboards"))
        ),
    )
    b.add(
        "Which has more items on sale, the Beds section or the Wardrobes section?",
        G,
        value=more(
            [a for a in cat("Beds") if a.old_price], [a for a in cat("Wardrobes") if a.old_price], "Beds", "Wardrobes"
        ),
    )
    b.add(
        "Do loveseats run cheaper than 3-seat couches on average?",
        G,
        value=yn(_mean(a.price for a in kind(*LOVESEAT)) < _mean(a.price for a in kind(*COUCH3))),
    )

    # ---- REASONING --------------------------------------------------------------------------
    w = sorted((a for a in wardrobes if cm(a, "width") is not None), key=lambda a: a.name)
    w1, w2 = w[0].name, w[-1].name
    b.add(f"Which one's wider, the {w1} or the {w2}?", R, value=pair(w1, w2, lambda a: cm(a, "width")))
    tall = next(a for a in sorted(kind("bookcase"), key=lambda a: a.name) if cm(a, "height") is not None)
    clear([tall], "height", 6 * FOOT)
    b.add(f"Is the {tall.name} taller than 6 feet?", R, value=yn(cm(tall, "height") > 6 * FOOT))
    on = next(a for a in sorted(couches, key=lambda a: a.name) if "online" in a.says)
    b.add(f"Can I buy the {on.name} online?", R, method="tkg", value=yn(on.says["online"]))
    col = next(a for a in sorted(dressers, key=lambda a: a.name) if "colours" in a.says)
    b.add(f"Does the {col.name} come in other colors?", R, method="tkg", value=yn(col.says["colours"]))
    nar = next(a for a in sorted(kind("desk"), key=lambda a: a.name) if cm(a, "width") is not None)
    clear([nar], "width", 48 * INCH)
    b.add(f"Is the {nar.name} less than 4 feet wide?", R, value=yn(cm(nar, "width") < 48 * INCH))
    sale = sorted((a for a in couches if a.old_price), key=lambda a: a.name)[0]
    b.add(
        f"How many riyals would I save buying the {sale.name} now compared with its old price?",
        R,
        value=clean_number(sale.old_price - sale.price),
    )
    t = clear(tv, "width", 5 * FOOT)
    b.add(
        "My living room wall is 5 feet across, which TV stands under 1,000 riyals would fit on it (no wider than the wall)?",
        R,
        names=names(a for a in tv if cm(a, "width") is not None and cm(a, "width") <= t and a.price < 1000),
    )
    c1, c2 = (
        sorted(kind("coffee table"), key=lambda a: a.price)[0].name,
        sorted(kind("coffee table"), key=lambda a: a.price)[-1].name,
    )
    b.add(f"Which is cheapper, the {c2} or the {c1}?", R, value=pair(c2, c1, lambda a: a.price, low=True))  # typo
    cribs = [a for a in arts if a.kind in CRIB]
    assert all("online" in a.says for a in cribs)  # every crib states it, so "no" is a real no
    b.add(
        "Is there any crib that you can't order online?",
        R,
        method="tkg",
        value=yn(any(a.says["online"] is False for a in cribs)),
    )
    b.add(
        "If I've got at most 500 riyals, which dressers can I afford?",
        R,
        names=names(a for a in dressers if a.price <= 500),
    )

    # ---- AGGREGATION ------------------------------------------------------------------------
    b.add("How many couches are there in total?", A, value=len(couches))
    b.add(
        "What's the average price of a dresser, in SAR?",
        A,
        value=clean_number(round(_mean(a.price for a in dressers), 2)),
    )
    b.add_best("What's the cheapest 3-seat couch?", A, kind(*COUCH3), lambda a: a.price, low=True)
    b.add_best(
        "What's the most expensive thing in the outdoor furniture section?",
        A,
        cat("Outdoor furniture"),
        lambda a: a.price,
    )
    b.add(
        "How wide is the widest wardrobe, in inches?",
        A,
        value=inches(max(cm(a, "width") for a in wardrobes if cm(a, "width") is not None)),
    )
    b.add("How many items are marked down from a previous price?", A, value=len([a for a in arts if a.old_price]))
    b.add(
        "What's the biggest markdown on any item, in riyals?",
        A,
        value=clean_number(max(a.old_price - a.price for a in arts if a.old_price)),
    )
    b.add(
        "How many items in the Chairs section are not availible in any other color?",  # typo
        A,
        method="tkg",
        value=len([a for a in cat("Chairs") if a.says.get("colours") is False]),
    )
    b.add_best("Which bookcase is the shortest?", A, kind("bookcase"), lambda a: cm(a, "height"), low=True)
    b.add(
        "What's the average width of the TV stands in inches, rounded to one decimal?",
        A,
        value=round(_mean(cm(a, "width") for a in tv) / INCH, 1),
    )
    b.add(
        "How many of the items Francis Cayouette designed are there?",
        A,
        value=len([a for a in arts if "Francis Cayouette" in a.designers]),
    )
    b.add(
        "How many wardrobs can be bought online?",
        A,
        method="tkg",
        value=len([a for a in wardrobes if a.says.get("online") is True]),
    )  # typo
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, BASE.load, build_questions, BASE.write_catalog)


if __name__ == "__main__":
    main()
