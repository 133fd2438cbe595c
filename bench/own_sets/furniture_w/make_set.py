"""New wording over the furniture catalogue: a question set written blind to the reader code (2026-12-07).

The catalogue is the base furniture set's, unchanged: this script loads
``bench/own_sets/furniture/make_set.py`` as a module and reuses its ``load()`` and
``write_catalog()``, so the 1,000 IKEA Saudi Arabia articles, their names, spec entries and page
prose are byte-identical and the same index serves both sets. Only the questions are new. They were
written without reading the system's code, tests or docs and without running the system, to measure
how the question reader copes with wording it was never tuned on: shoppers' and analysts' phrasing
("Show me...", "Any ... under ...?", "Between X and Y, which ..."), informal units and number words
("a grand", "half a metre", "6 ft", "18 inches"), and everyday names for the attributes ("taller",
"deep", "floor space", "how wide") instead of the entry names.

    python3 bench/own_sets/furniture_w/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/furniture_w/make_set.py --check     # questions.json is current
    python3 bench/own_sets/furniture_w/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields (none typed by hand):

* A product type named in a question is the first comma-separated part of the short description,
  matched whole and case-insensitively, as in the base set ("Wardrobe" is a wardrobe, "Wardrobe
  combination" is not). Two families are wider: "chests of drawers" are the types "Chest of N
  drawers" / "Chest of drawers"; "bed frames" are the types that begin with "Bed frame" ("Bed frame
  with storage, ..." counts; "Loft bed frame" and "Ext bed frame ..." do not). A category named as
  such ("in the Trolleys section", "the Beds category") is the file's category; an article listed
  in several categories is in each.
* A product line (the catalogue's brand: "PAX", "KALLAX", "BESTÅ") matches any of the
  "/"-separated line names that open the title ("BILLY / OXBERG ..." is both BILLY and OXBERG,
  "BESTÅ BURS" is neither BESTÅ nor BURS); matching is exact.
* A designer is one of the "/"-separated names of the designer column, compared exactly.
* Sizes are the width / depth / height columns in cm, never the size string of the title; an
  article without the column is left out of a filter, superlative, sum or average on it. Unit
  factors are exact: 1 ft = 30.48 cm, 1 in = 2.54 cm, 1 m = 100 cm; "half a metre" is 50 cm, "a
  metre and a half" 150 cm. A footprint is width x depth (cm^2; in m^2 divided by 10,000).
* Prices compare in SAR ("riyals", "SR", "SAR"; "a grand" is 1,000 SAR). An article is on sale
  (discounted) when it has a previous price; the saving is previous price minus price and the
  discount percentage is saving / previous price x 100.
* "under / less than / below / cheaper than / narrower / lower / shorter than / over / more than"
  are strict; "at least / no more than / or wider / or more / fits" are inclusive; "180 cm wide" is
  equality.
* "Which lines have more than N products" counts each article once per distinct line name in its
  title. "The five most expensive" is asserted to have no tie at the cut; "deeper than the average"
  compares with the unrounded mean over the articles that have the column.
* Averages are arithmetic means over the matching articles, rounded as the question says (to 2
  decimals where it does not say); sums and counts are exact; a value answer is given in the unit
  the question asks for, converted here.
* Superlatives and two-product comparisons are asserted to have one winner or, on a tie in a
  superlative, become a list gold; list golds hold 1..40 names, sorted.
* Prose-only facts (``gt_retrieval_method`` "tkg") read what the page states. "Other colours" and
  "sold online" are the base set's stated facts: a page that says nothing neither has nor lacks
  them, so "don't come in other colours" / "can't be bought online" are the pages that say so,
  never the pages that are silent. Other prose facts are matched by a regular expression on the
  page's own words: the marketing text, and for "castors" and "indoors as well as outside" also the
  short description that opens every page ("Side table on castors", "Beanbag, in/outdoor"); only
  products whose page says so can have them. A negated marketing fact ("must not be hung on the
  wall"; a cover that "doesn't come off" is a page saying "Fixed cover.") is a page that states
  the negative, never the absence of the positive.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
from collections import Counter
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

base = base_set("furniture")

load = base.load
write_catalog = base.write_catalog

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
FT, INCH, METRE = 30.48, 2.54, 100.0


def build(arts: list) -> list[dict]:
    b = SetBuilder(arts)
    kind = lambda *ks: [a for a in arts if a.kind in ks]  # noqa: E731
    cat = lambda c: [a for a in arts if c in a.categories]  # noqa: E731
    line = lambda x: [a for a in arts if x in [p.strip() for p in a.line.split("/")]]  # noqa: E731
    by = lambda who: [a for a in arts if who in a.designers]  # noqa: E731
    says = lambda a, k: a.says.get(k)  # noqa: E731
    names = lambda pool: [a.name for a in pool]  # noqa: E731
    sized = lambda pool, *cols: [a for a in pool if all(a.cm(c) is not None for c in cols)]  # noqa: E731
    text = lambda a, pat: bool(a.marketing and re.search(pat, a.marketing))  # noqa: E731
    # the page's own words: the short description (also the title's tail) and the marketing text
    page = lambda a, pat: bool(re.search(pat, a.desc)) or text(a, pat)  # noqa: E731
    on_sale = lambda a: a.old_price is not None  # noqa: E731
    chests = [a for a in arts if re.fullmatch(r"chest of (\d+ )?drawers", a.kind)]
    bed_frames = [a for a in arts if a.kind.startswith("bed frame")]
    plain = lambda pool: [a for a in pool if not a.name.endswith(")")]  # noqa: E731

    def one(pool, key, *, low=False):
        """The single article with the largest (smallest) key; refuses ties."""
        winners, _ = b.best(pool, key, low=low)
        assert len(winners) == 1, [w.name for w in winners]
        return winners[0]

    # ================= Inverse: one condition -> list (16)
    b.add(
        "Show me the chests of drawers that are narrower than half a metre.",
        L,
        names=names(a for a in sized(chests, "width") if a.cm("width") < 0.5 * METRE),
    )
    b.add(
        "I'm looking for a bed frame for less than a grand - what have you got?",
        L,
        names=names(a for a in bed_frames if a.price < 1000),
    )
    b.add("List all the KALLAX pieces you carry.", L, names=names(line("KALLAX")))
    b.add("Anything designed by Nike Karlsson?", L, names=names(by("Nike Karlsson")))
    b.add(
        "Which wardrobes are shorter than 6 ft?",
        L,
        names=names(a for a in sized(kind("wardrobe"), "height") if a.cm("height") < 6 * FT),
    )
    b.add(
        "Do you have coffee tables lower than 18 inches?",
        L,
        names=names(a for a in sized(kind("coffee table"), "height") if a.cm("height") < 18 * INCH),
    )
    b.add(
        "Which things sold in the Bar furniture section go for more than a grand?",
        L,
        names=names(a for a in cat("Bar furniture") if a.price > 1000),
    )
    b.add(
        "What's listed under both Children's furniture and Nursery furniture?",
        L,
        names=names(a for a in arts if "Children's furniture" in a.categories and "Nursery furniture" in a.categories),
    )
    b.add(
        "Which pieces are more than a metre deep?",
        L,
        names=names(a for a in sized(arts, "depth") if a.cm("depth") > METRE),
    )
    b.add(
        "Any reductions on tables? List the tables that have a previous price.",
        L,
        names=names(a for a in kind("table") if on_sale(a)),
    )
    b.add(
        "Which products used to be priced at SR 1,650?",
        L,
        names=names(a for a in arts if a.old_price == 1650),
    )
    # prose
    b.add(
        "Which pieces of Bar furniture come in just the one colour?",
        L,
        names=names(a for a in cat("Bar furniture") if says(a, "colours") is False),
        method="tkg",
    )
    b.add(
        "Show me the Nursery furniture that isn't available to order online.",
        L,
        names=names(a for a in cat("Nursery furniture") if says(a, "online") is False),
        method="tkg",
    )
    b.add(
        "What furniture do you have on castors?",
        L,
        names=names(a for a in arts if page(a, r"castors")),
        method="tkg",
    )
    b.add(
        "Which items are okay to use indoors as well as outside?",
        L,
        names=names(a for a in arts if page(a, r"in/outdoor|indoor and outdoor use")),
        method="tkg",
    )
    b.add(
        "Which items have a cover that doesn't come off?",
        L,
        names=names(a for a in arts if text(a, r"Fixed cover")),
        method="tkg",
    )
    b.add(
        "Which items use solid wood or solid oak?",
        L,
        names=names(a for a in arts if text(a, r"[Ss]olid (wood|oak)")),
        method="tkg",
    )

    # abrasion cycles stated in the marketing text ("tested to handle 50,000 cycles")
    def cycles(a):
        m = a.marketing and re.search(r"abrasion has been tested to handle ([\d,]+) cycles", a.marketing)
        return int(m.group(1).replace(",", "")) if m else None

    b.add(
        "Which covers have been abrasion-tested to more than 40k cycles?",
        L,
        names=names(a for a in arts if (cycles(a) or 0) > 40000),
        method="tkg",
    )

    # ================= Multi-condition: 2-3 conditions -> list (12)
    b.add(
        "Any 2-seat sofas under 1,800 riyals that are at least a metre and a half wide?",
        M,
        names=names(a for a in sized(kind("2-seat sofa"), "width") if a.price < 1800 and a.cm("width") >= 150),
    )
    b.add(
        "Shelving units by IKEA of Sweden standing taller than 150 cm - which ones?",
        M,
        names=names(
            a
            for a in sized(kind("shelving unit"), "height")
            if "IKEA of Sweden" in a.designers and a.cm("height") > 150
        ),
    )
    b.add(
        "I need a desk that's 60 cm deep or more and costs no more than 800 SAR. Options?",
        M,
        names=names(a for a in sized(kind("desk"), "depth") if a.cm("depth") >= 60 and a.price <= 800),
    )
    b.add(
        "Which PAX wardrobes are 2 metres wide or wider and cost under 3,500 SR?",
        M,
        names=names(
            a for a in sized(line("PAX"), "width") if a.kind == "wardrobe" and a.cm("width") >= 200 and a.price < 3500
        ),
    )
    b.add(
        "Outdoor furniture tables narrower than 80 cm for under 200 riyals?",
        M,
        names=names(
            a
            for a in sized(cat("Outdoor furniture"), "width")
            if a.kind == "table" and a.cm("width") < 80 and a.price < 200
        ),
    )
    b.add(
        "Which discounted items in the Beds category still cost over 1,000 SR after the reduction?",
        M,
        names=names(a for a in cat("Beds") if on_sale(a) and a.price > 1000),
    )
    b.add(
        "Which BESTÅ TV benches are 180 cm wide and under 40 cm tall?",
        M,
        names=names(
            a
            for a in sized(line("BESTÅ"), "width", "height")
            if a.kind == "tv bench" and a.cm("width") == 180 and a.cm("height") < 40
        ),
    )
    b.add(
        "Got any HEMNES or BRIMNES pieces below 600 riyals?",
        M,
        names=names(a for a in line("HEMNES") + line("BRIMNES") if a.price < 600),
    )
    # prose
    b.add(
        "Which items in the Chairs category cost less than 100 SR and come in a choice of colours?",
        M,
        names=names(a for a in cat("Chairs") if a.price < 100 and says(a, "colours") is True),
        method="tkg",
    )
    b.add(
        "Which 3-seat sofas under 3,000 riyals don't come in any other colour?",
        M,
        names=names(a for a in kind("3-seat sofa") if a.price < 3000 and says(a, "colours") is False),
        method="tkg",
    )
    b.add(
        "Which TV benches that must not be hung on the wall are wider than 150 cm?",
        M,
        names=names(
            a
            for a in sized(kind("tv bench"), "width")
            if a.cm("width") > 150 and text(a, r"shall not be hung on the wall")
        ),
        method="tkg",
    )
    b.add(
        "Which chests of drawers cost under 500 SAR and don't come in other colours?",
        M,
        names=names(a for a in chests if a.price < 500 and says(a, "colours") is False),
        method="tkg",
    )
    b.add(
        "Which wardrobes can I order online for under 1,000 riyals?",
        M,
        names=names(a for a in kind("wardrobe") if a.price < 1000 and says(a, "online") is True),
        method="tkg",
    )

    # ================= Group comparison: two products or two groups (8)
    rng = random.Random(2026_12_07)

    def pair(pool, key):
        pool = [a for a in plain(pool) if key(a) is not None]
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pair(kind("coffee table"), lambda a: a.price)
    b.add(
        f"Between the {x.name} and the {y.name}, which one is cheaper?",
        G,
        value=min((x, y), key=lambda a: a.price).name,
    )
    x, y = pair(chests, lambda a: a.cm("width"))
    b.add(f"Which is narrower, {x.name} or {y.name}?", G, value=min((x, y), key=lambda a: a.cm("width")).name)
    x, y = pair(kind("tv bench"), lambda a: a.cm("height"))
    b.add(
        f"Is the {x.name} taller than the {y.name}? Answer yes or no.",
        G,
        value="yes" if x.cm("height") > y.cm("height") else "no",
    )
    x, y = pair(sized(kind("desk", "table"), "width", "depth"), lambda a: a.cm("width") * a.cm("depth"))
    b.add(
        f"Which takes up more floor space, the {x.name} or the {y.name}?",
        G,
        value=max((x, y), key=lambda a: a.cm("width") * a.cm("depth")).name,
    )
    x, y = pair(kind("armchair"), lambda a: a.price)
    b.add(
        f"How much more does the {max((x, y), key=lambda a: a.price).name} cost than the "
        f"{min((x, y), key=lambda a: a.price).name}, in riyals?",
        G,
        value=clean_number(abs(x.price - y.price)),
    )
    pax, besta = line("PAX"), line("BESTÅ")
    mp, mb = statistics.mean(a.price for a in pax), statistics.mean(a.price for a in besta)
    assert mp != mb
    b.add("On average, which line is pricier: PAX or BESTÅ?", G, value="PAX" if mp > mb else "BESTÅ")
    nb, nw = len(cat("Beds")), len(cat("Wardrobes"))
    assert nb != nw
    b.add(
        "Which section has more products, Beds or Wardrobes?",
        G,
        value="Beds" if nb > nw else "Wardrobes",
    )
    # prose: one sold online (stated), one stated not sold online
    yes = [a for a in plain(cat("Tables & desks")) if says(a, "online") is True]
    no = [a for a in plain(cat("Tables & desks")) if says(a, "online") is False]
    x, y = rng.choice(no), rng.choice(yes)
    b.add(
        f"I can only shop online: should I pick the {x.name} or the {y.name}?",
        G,
        value=y.name,
        method="tkg",
    )

    # ================= Reasoning: a need -> gold by an explicit rule (6)
    # Rule: 3-seat sofas with width <= 220 cm whose page says they come in other colours; the cheapest.
    b.add_best(
        "My wall is 2.2 m long. What's the cheapest 3-seat sofa that fits it and comes in other colours?",
        R,
        [a for a in sized(kind("3-seat sofa"), "width") if a.cm("width") <= 220 and says(a, "colours") is True],
        lambda a: a.price,
        low=True,
        method="tkg",
    )
    # Rule: wardrobes (type Wardrobe) with height <= 230 cm; the tallest (asserted single).
    x = one([a for a in sized(kind("wardrobe"), "height") if a.cm("height") <= 230], lambda a: a.cm("height"))
    b.add("My ceiling is 2.3 m. Which is the tallest wardrobe that would still fit under it?", R, value=x.name)
    # Rule: cheapest Desk price + cheapest Swivel chair price (SAR).
    b.add(
        "Setting up a home office on a shoestring: what's the least I'd pay for a desk plus a swivel chair, in SAR?",
        R,
        value=clean_number(min(a.price for a in kind("desk")) + min(a.price for a in kind("swivel chair"))),
    )
    # Rule: chests of drawers with width <= 80 cm and depth <= 45 cm (fits inside the alcove).
    b.add(
        "There's an alcove 80 cm wide and 45 cm deep in my bedroom. Which chests of drawers would fit in it?",
        R,
        names=names(a for a in sized(chests, "width", "depth") if a.cm("width") <= 80 and a.cm("depth") <= 45),
    )
    # Rule: type "Table and 6 chairs" (a dining set seating six) priced under 4,000 SAR.
    b.add(
        "We're six at dinner. Which table-and-chairs sets seat all of us for under 4,000 SR?",
        R,
        names=names(a for a in kind("table and 6 chairs") if a.price < 4000),
    )
    # Rule: (previous price - price) / previous price x 100, rounded to a whole percent.
    x = one(plain([a for a in cat("Sofas & armchairs") if on_sale(a)]), lambda a: a.old_price - a.price)
    b.add(
        f"What percentage off is the {x.name} right now, to the nearest percent?",
        R,
        value=round((x.old_price - x.price) / x.old_price * 100),
    )

    # ================= Aggregation: count, average, min/max, sum (10)
    b.add("How many items show up in more than one category?", A, value=sum(len(a.categories) > 1 for a in arts))
    b.add(
        "What's the average height of a wardrobe here, in cm to one decimal?",
        A,
        value=round(statistics.mean(a.cm("height") for a in sized(kind("wardrobe"), "height")), 1),
    )
    b.add(
        "If I bought one of everything in the Trolleys section, what would it come to in SAR?",
        A,
        value=clean_number(sum(a.price for a in cat("Trolleys"))),
    )
    counts = Counter(p for a in arts for p in {x.strip() for x in a.line.split("/")})
    b.add("Which product lines have more than 30 products each?", A, names=[n for n, c in counts.items() if c > 30])
    b.add(
        "How wide is the widest TV bench, in inches (to one decimal)?",
        A,
        value=round(max(a.cm("width") for a in sized(kind("tv bench"), "width")) / INCH, 1),
    )
    top = sorted(cat("Chairs"), key=lambda a: a.price, reverse=True)
    assert top[4].price > top[5].price
    b.add("List the five most expensive items in the Chairs category.", A, names=names(top[:5]))
    b.add_best(
        "What's the cheapest thing Francis Cayouette designed?",
        A,
        by("Francis Cayouette"),
        lambda a: a.price,
        low=True,
    )
    deep = sized(kind("bookcase"), "depth")
    mean_depth = statistics.mean(a.cm("depth") for a in deep)
    b.add(
        "Which bookcases are deeper than the average bookcase?",
        A,
        names=names(a for a in deep if a.cm("depth") > mean_depth),
    )
    # prose
    b.add(
        "How many items in the Outdoor furniture section can be had in several colours?",
        A,
        value=sum(says(a, "colours") is True for a in cat("Outdoor furniture")),
        method="tkg",
    )
    b.add(
        "How many Tables & desks products are not available for online purchase?",
        A,
        value=sum(says(a, "online") is False for a in cat("Tables & desks")),
        method="tkg",
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build, write_catalog)


if __name__ == "__main__":
    main()
