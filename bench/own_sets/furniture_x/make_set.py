"""A held-out shopper-voice question set over the furniture catalogue, written blind to the reader code, 2026-12-07.

The catalogue is the base set's, byte for byte: ``bench/own_sets/furniture/make_set.py`` is loaded
as a module and its ``load()`` and ``write_catalog()`` give the same 1,000 IKEA Saudi Arabia
articles, the same pages and the same index. Only the questions differ: they are written the way
shoppers of that market write to a furniture shop in simple, sometimes non-native English, with
prices said as riyal / riyals / rial / SR / SAR / "2k", sizes in cm, metres, feet and inches, and
informal product names ("the KLIPPAN 2 seater", "BESTA hinges", "brimnes tv bench").

    python3 bench/own_sets/furniture_x/make_set.py              # writes questions.json
    python3 bench/own_sets/furniture_x/make_set.py --out DIR    # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/furniture_x/make_set.py --check      # questions.json is current
    python3 bench/own_sets/furniture_x/make_set.py --show       # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* A product type ("wardrobe", "TV bench", "bunk bed", "cot") is the first comma-separated part of
  the short description, lower-cased and matched whole ("Wardrobe" is a wardrobe, "Corner
  wardrobe" and "Wardrobe combination" are not). A "3 seater" is the type "3-seat sofa" or
  "three-seat sofa", a "2 seater" the type "2-seat sofa" or "two-seat sofa"; a "chest of drawers"
  is any type "chest of [N] drawers" or "modular chest of [N] drawers"; "bar stools" are the types
  "bar stool" and "bar stool with backrest"; "chairs" of the café range are the types "chair" and
  "chair with armrests". Where a question names the types it asks for, those are the ones read.
* A category is the file's category ("kids room" / "kids furniture" = Children's furniture,
  "baby room" = Nursery furniture, "sofa section" = Sofas & armchairs); an article listed under
  several categories is in each of them.
* A series ("PAX", "TROFAST", "BILLY") is one of the "/"-separated parts of the line name
  ("BILLY / OXBERG" is both BILLY and OXBERG). A designer is one of the "/"-separated names of
  the designer column.
* Sizes are the width / depth / height columns in cm; an article without the column is left out
  of a filter, superlative, average or comparison on it (missing is never small or large). The size
  written in the name is not read. Inches are 2.54 cm, feet 30.48 cm, metres 100 cm; thresholds
  are converted exactly, and a converted answer is rounded as the question asks.
* Prices are SAR. An article is discounted ("on offer", "sale") when the file gives an old price;
  the saving is old price minus price, taken only where the old price is a plain amount
  ("SR 1,595", not "SR 50/4 pack").
* Prose-only facts (``gt_retrieval_method`` "tkg"): other colours and online sale are read from
  what the page states; a page that says nothing neither has nor lacks the fact, so a "which ...
  only one colour / not online" question lists only pages that say so. Facts of the marketing
  text (guarantee, made by hand, abrasion cycles, max load, age advice, seats, hinges, brake,
  height adjustment, adult hangers) are matched by a regular expression on that text only;
  products without marketing text never have them. Use both indoors and outdoors is read from
  the whole page: the description's "in/outdoor" or the marketing text's "indoor and outdoor use".
* "under / less than / below / cheaper than / more than / over / taller than" are strict; "or
  less / max / at most / not more than / up to / at least" are inclusive.
* Superlatives and two-product comparisons are asserted to have one winner; counts and averages
  are over the articles the question names; an average is rounded as the question asks. Lists
  hold 1..40 names.
"""

from __future__ import annotations

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

BASE = base_set("furniture")
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
INCH, FOOT, METRE = 2.54, 30.48, 100.0

THREE_SEATER = ("3-seat sofa", "three-seat sofa")
TWO_SEATER = ("2-seat sofa", "two-seat sofa")
CHEST_RE = re.compile(r"(modular )?chest of (\d+ )?drawers")


# ---- reading one article (the base loader's Article)


def series(a) -> list[str]:
    return [p.strip().upper() for p in a.line.split("/")]


def discounted(a) -> bool:
    return a.f("old_price") != "No old price"


def saving(a) -> float | None:
    return None if a.old_price is None else a.old_price - a.price


def says(a, fact: str) -> bool | None:
    """What the page states about ``fact`` ("colours" / "online"): True, False or None (silent)."""
    return a.says.get(fact)


def text(a, pattern: str) -> re.Match | None:
    """``pattern`` in the article's marketing text (None where there is none)."""
    return re.search(pattern, a.marketing) if a.marketing else None


def build_questions(arts) -> list[dict]:
    b = SetBuilder(arts)
    names = lambda pool: [a.name for a in pool]  # noqa: E731
    kind = lambda *ks: [a for a in arts if a.kind in ks]  # noqa: E731
    cat = lambda c: [a for a in arts if c in a.categories]  # noqa: E731
    line = lambda s: [a for a in arts if s in series(a)]  # noqa: E731
    sized = lambda pool, col: [a for a in pool if a.cm(col) is not None]  # noqa: E731

    def one(pool):
        """The single article of ``pool`` (the informal name in a question must pick one)."""
        pool = list(pool)
        assert len(pool) == 1, [a.name for a in pool]
        return pool[0]

    def winner(x, y, key, *, low=False):
        kx, ky = key(x), key(y)
        assert kx is not None and ky is not None and kx != ky, (x.name, y.name)
        return (x if (kx < ky) == low else y).name

    def group_winner(groups: dict, value, *, low=False):
        """The one group name whose ``value`` is largest (smallest); refuses a tie."""
        scored = {k: value(v) for k, v in groups.items()}
        top = (min if low else max)(scored.values())
        best = [k for k, v in scored.items() if v == top]
        assert len(best) == 1, scored
        return best[0]

    def add_best(question, category, pool, key, *, low=False, method="sparql"):
        """A superlative over ``pool``; asserts that exactly one article wins."""
        winners, _ = b.best(pool, key, low=low)
        assert len(winners) == 1, (question, [w.name for w in winners])
        b.add(question, category, value=winners[0].name, method=method)

    def yes_no(flag) -> str:
        assert flag is not None
        return "yes" if flag else "no"

    # ================= Inverse (spec)
    b.add(
        "salam, wardrobe for my small flat, the ceiling is low. which wardrobes are under 6 feet tall?",
        L,
        names=names(a for a in sized(kind("wardrobe"), "height") if a.cm("height") < 6 * FOOT),
    )
    b.add(
        "pls show me all the things designed by Gillis Lundgren",
        L,
        names=names(a for a in arts if "Gillis Lundgren" in a.designers),
    )
    b.add(
        "what u have for kids room that is below 50 riyal?",
        L,
        names=names(a for a in cat("Children's furniture") if a.price < 50),
    )
    b.add("TROFAST items for 20 SR or less, which ones?", L, names=names(a for a in line("TROFAST") if a.price <= 20))
    b.add(
        "My wall is small. Which tv bench is less than 40 inch wide?",
        L,
        names=names(a for a in sized(kind("tv bench"), "width") if a.cm("width") < 40 * INCH),
    )
    b.add(
        "chest of drawers with discount now?? which one",
        L,
        names=names(a for a in arts if CHEST_RE.fullmatch(a.kind) and discounted(a)),
    )
    b.add(
        "Need shelving unit not deep, 1 foot max depth. what options?",
        L,
        names=names(a for a in sized(kind("shelving unit"), "depth") if a.cm("depth") <= FOOT),
    )
    b.add(
        "baby room furniture that cost over 1000 SAR, list please",
        L,
        names=names(a for a in cat("Nursery furniture") if a.price > 1000),
    )

    # ================= Inverse (prose)
    b.add(
        "Which TV benches i can NOT get in another colour, only the one colour?",
        L,
        names=names(a for a in kind("tv bench") if says(a, "colours") is False),
        method="tkg",
    )
    b.add(
        "Baby cot that comes in one color only - which ones?",
        L,
        names=names(a for a in kind("cot") if says(a, "colours") is False),
        method="tkg",
    )
    b.add(
        "Which products are ok to use inside the house and also outside?",
        L,
        names=names(a for a in arts if re.search(r"in/outdoor|indoor and outdoor use", a.page)),
        method="tkg",
    )
    b.add(
        "which furniture have 10 years warranty",
        L,
        names=names(a for a in arts if text(a, r"10 year guarantee")),
        method="tkg",
    )
    b.add(
        "kids furniture that u cannot order from website, only in the store. which?",
        L,
        names=names(a for a in cat("Children's furniture") if says(a, "online") is False),
        method="tkg",
    )
    b.add(
        "Is there any furniture made by hand? which ones",
        L,
        names=names(a for a in arts if text(a, r"[Hh]and(made|woven)")),
        method="tkg",
    )
    b.add(
        "I want strong fabric. Which covers are tested for 50000 abrasion cycles or more?",
        L,
        names=names(
            a
            for a in arts
            if a.kind.startswith("cover")
            and (m := text(a, r"handle ([\d,]+) cycles"))
            and int(m.group(1).replace(",", "")) >= 50000
        ),
        method="tkg",
    )

    # ================= Multi-condition (spec)
    b.add(
        "for my kids room i need chest of drawers, less than 400 riyals and not higher than 80cm",
        M,
        names=names(
            a
            for a in sized(cat("Children's furniture"), "height")
            if CHEST_RE.fullmatch(a.kind) and a.price < 400 and a.cm("height") <= 80
        ),
    )
    b.add(
        "coffee table under 300 riyal, height 45 cm or lower?",
        M,
        names=names(a for a in sized(kind("coffee table"), "height") if a.price < 300 and a.cm("height") <= 45),
    )
    b.add(
        "outdoor table set for 6 person, below 3000 SR. what do you have",
        M,
        names=names(
            a
            for a in cat("Outdoor furniture")
            if re.fullmatch(r"table ?(\+|and) ?6 .*chairs.*", a.kind) and a.price < 3000
        ),
    )
    b.add(
        "PAX wardrobe 236cm high but less then 2k riyal?",
        M,
        names=names(
            a
            for a in sized(kind("wardrobe"), "height")
            if "PAX" in series(a) and a.cm("height") == 236 and a.price < 2000
        ),
    )
    b.add(
        "Anything in the sofa section that is on sale and still costs more than 4,000 SAR?",
        M,
        names=names(a for a in cat("Sofas & armchairs") if discounted(a) and a.price > 4000),
    )
    b.add(
        "bar stools under 500 rial, with or without back",
        M,
        names=names(a for a in kind("bar stool", "bar stool with backrest") if a.price < 500),
    )
    b.add(
        "Items from Francis Cayouette in Chairs category cheaper than SR400?",
        M,
        names=names(a for a in cat("Chairs") if "Francis Cayouette" in a.designers and a.price < 400),
    )

    # ================= Multi-condition (prose)
    b.add(
        "2 seater sofa below 2000 riyal that has more colours to choose",
        M,
        names=names(a for a in kind(*TWO_SEATER) if a.price < 2000 and says(a, "colours") is True),
        method="tkg",
    )
    b.add(
        "wardrobe 2.3 m or taller that comes only in one colour and costs under 2000 SR?",
        M,
        names=names(
            a
            for a in sized(kind("wardrobe"), "height")
            if a.cm("height") >= 230 and says(a, "colours") is False and a.price < 2000
        ),
        method="tkg",
    )
    b.add(
        "Big TV, heavy. Which TV bench is wider than 1.5 m and can hold 50 kg on top?",
        M,
        names=names(
            a for a in sized(kind("tv bench"), "width") if a.cm("width") > 150 and text(a, r"max load of 50 kg")
        ),
        method="tkg",
    )
    b.add(
        "for the baby room, what is under 300 riyals and comes in different colours?",
        M,
        names=names(a for a in cat("Nursery furniture") if a.price < 300 and says(a, "colours") is True),
        method="tkg",
    )
    b.add(
        "chair for my desk where the seat height goes up and down and the wheels have brake. which one?",
        M,
        names=names(a for a in arts if text(a, r"adjustable in height") and text(a, r"brake")),
        method="tkg",
    )

    # ================= Group comparison
    klippan = one(a for a in kind(*TWO_SEATER) if "KLIPPAN" in series(a))
    ektorp2 = one(a for a in kind(*TWO_SEATER) if "EKTORP" in series(a))
    b.add(
        "KLIPPAN 2 seater or EKTORP two seat sofa, which is more cheap?",
        G,
        value=winner(klippan, ektorp2, lambda a: a.price, low=True),
    )
    vitval = one(a for a in kind("loft bed frame") if "VITVAL" in series(a))
    tuffing = one(a for a in kind("loft bed frame") if "TUFFING" in series(a))
    b.add(
        "For kids room, loft bed VITVAL vs TUFFING - which one is taller?",
        G,
        value=winner(vitval, tuffing, lambda a: a.cm("height")),
    )
    malm = one(a for a in kind("desk") if "MALM" in series(a))
    alex = one(a for a in kind("desk") if "ALEX" in series(a))
    b.add(
        "Which desk is wider, the MALM desk 140x65 or the ALEX one?",
        G,
        value=winner(malm, alex, lambda a: a.cm("width")),
    )
    kivik3 = [a for a in kind(*THREE_SEATER) if "KIVIK" in series(a)]
    assert sorted(a.price for a in kivik3) == [3800, 6160]
    x, y = kivik3
    b.add(
        "There are two KIVIK 3 seat sofas, one 6160 SR and one 3800 SR. Which one is wider?",
        G,
        value=winner(x, y, lambda a: a.cm("width")),
    )
    brimnes = one(a for a in kind("tv bench") if "BRIMNES" in series(a))
    hemnes = one(a for a in kind("tv bench") if "HEMNES" in series(a))
    b.add(
        "brimnes tv bench and hemnes tv bench, which one is lower? i want low one",
        G,
        value=winner(brimnes, hemnes, lambda a: a.cm("height"), low=True),
    )
    b.add(
        "Which one has more products in your list, PAX or PLATSA?",
        G,
        value=group_winner({"PAX": line("PAX"), "PLATSA": line("PLATSA")}, len),
    )
    b.add(
        "KIVIK or LIDHULT - which range is cheaper on average?",
        G,
        value=group_winner(
            {"KIVIK": line("KIVIK"), "LIDHULT": line("LIDHULT")},
            lambda p: statistics.mean(a.price for a in p),
            low=True,
        ),
    )
    b.add(
        "Where are more items on discount, in Beds or in Wardrobes?",
        G,
        value=group_winner({"Beds": cat("Beds"), "Wardrobes": cat("Wardrobes")}, lambda p: sum(map(discounted, p))),
    )
    soderhamn2 = one(a for a in kind(*TWO_SEATER) if "SÖDERHAMN" in series(a))
    assert {says(klippan, "colours"), says(soderhamn2, "colours")} == {True, False}
    b.add(
        "Between the KLIPPAN 2-seat sofa and SÖDERHAMN 2-seat sofa, which one comes only in the one colour?",
        G,
        value=klippan.name if says(klippan, "colours") is False else soderhamn2.name,
        method="tkg",
    )
    b.add(
        "More colour choice: do the tv benches or the bookcases have more models that come in other colours?",
        G,
        value=group_winner(
            {"TV benches": kind("tv bench"), "bookcases": kind("bookcase")},
            lambda p: sum(says(a, "colours") is True for a in p),
        ),
        method="tkg",
    )

    # ================= Reasoning
    adde = one(a for a in kind("chair") if "ADDE" in series(a))
    top = one(a for a in kind("table top") if "LINNMON" in series(a) and "200x60" in a.desc)
    b.add(
        "if i buy 4 ADDE chairs and one LINNMON table top 200x60, how much total in riyals?",
        R,
        value=clean_number(4 * adde.price + top.price),
    )
    platsa = one(a for a in kind("wardrobe") if "PLATSA" in series(a) and "240x61x281" in a.desc)
    b.add(
        "My room ceiling is 2.7 metre. Will the PLATSA wardrobe 240x61x281 stand up in my room?",
        R,
        value=yes_no(platsa.cm("height") <= 2.7 * METRE),
    )
    landskrona = one(a for a in kind(*THREE_SEATER) if "LANDSKRONA" in series(a))
    b.add(
        "landskrona 3 seater how many inch wide? round number pls",
        R,
        value=round(landskrona.cm("width") / INCH),
    )
    kivik_three = one(a for a in kind("three-seat sofa") if "KIVIK" in series(a))
    assert kivik_three.price == 3800
    b.add(
        "The KIVIK three-seat sofa for 3800 riyal is on offer now. How much riyals I save from old price?",
        R,
        value=clean_number(saving(kivik_three)),
    )
    poang = one(a for a in kind("armchair") if "POÄNG" in series(a))
    b.add(
        "I have 3000 SR total. I will buy the POÄNG armchair and one 3 seater sofa. Which sofas I can afford with the rest?",
        R,
        names=names(a for a in kind(*THREE_SEATER) if a.price <= 3000 - poang.price),
    )
    billy = one(a for a in kind("bookcase") if a.line == "BILLY" and "40x28x202" in a.desc)
    b.add(
        "BILLY bookcase 40x28x202 - how tall in feet? one decimal",
        R,
        value=round(billy.cm("height") / FOOT, 1),
    )
    tuff = text(tuffing, r"Recommended for ages from (\d+) years")
    b.add(
        "my son is 5 years old, is the TUFFING loft bed ok for his age?",
        R,
        value=yes_no(int(tuff.group(1)) <= 5),
        method="tkg",
    )
    skogstorp = one(a for a in kind("dining table") if "SKOGSTORP" in series(a))
    seats = text(skogstorp, r"Seats (\d+)-(\d+)")
    b.add(
        "How many people max can sit at the SKOGSTORP dining table?",
        R,
        value=int(seats.group(2)),
        method="tkg",
    )
    godishus = one(a for a in kind("wardrobe") if "GODISHUS" in series(a))
    b.add(
        "GODISHUS kids wardrobe - can it take normal size adult hangers?",
        R,
        value=yes_no(text(godishus, r"standard-sized adult hangers") is not None),
        method="tkg",
    )

    # ================= Aggregation
    b.add(
        "how many PAX wardrobes do you have?",
        A,
        value=sum("PAX" in series(a) for a in kind("wardrobe")),
    )
    add_best("cheapest bunk bed which one?", A, kind("bunk bed frame"), lambda a: a.price, low=True)
    b.add(
        "Average price of a TV bench? round to riyal",
        A,
        value=round(statistics.mean(a.price for a in kind("tv bench"))),
    )
    b.add(
        "What is the biggest saving in SAR on one discounted item?",
        A,
        value=clean_number(max(s for a in arts if (s := saving(a)) is not None)),
    )
    add_best(
        "Widest 3 seater sofa you sell?",
        A,
        sized(kind(*THREE_SEATER), "width"),
        lambda a: a.cm("width"),
    )
    add_best(
        "Cheapest chair in café furniture?",
        A,
        [a for a in cat("Café furniture") if a.kind in ("chair", "chair with armrests")],
        lambda a: a.price,
        low=True,
    )
    b.add(
        "How many products are not available for online buying?",
        A,
        value=sum(says(a, "online") is False for a in arts),
        method="tkg",
    )
    b.add(
        "In the Beds section, how many items come in more colours?",
        A,
        value=sum(says(a, "colours") is True for a in cat("Beds")),
        method="tkg",
    )
    b.add(
        "how many items say you must buy BESTA hinges extra for them?",
        A,
        value=sum(text(a, r"completed with BESTÅ hinges") is not None for a in arts),
        method="tkg",
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, BASE.load, build_questions, BASE.write_catalog)


if __name__ == "__main__":
    main()
