"""A held-out question set over the "fridges" catalogue, asked as voice-assistant transcripts: "fridges_y".

Written 2026-12-08, blind: its author read only ``shared.py``, devmix's ``Builder`` (for the
record format) and the docstring, ``load()``, ``write_catalog()`` and data classes of
``bench/own_sets/fridges/make_set.py`` (to learn the fields and which facts are said only in the
page prose), plus the raw CSV. No other set's questions, no code of the QA system, its tests or
its docs were read, and the system was not run while writing it.

STYLE: what a speech-to-text engine writes down when someone talks to a kitchen assistant: no
punctuation, no capitals, numbers spelled out in words ("twenty two cubic feet", "seven hundred
kilowatt hours", "a third"), fillers ("um", "like", "hey", "uh"), self-corrections ("at least
eighteen no twenty cubic feet"), brand names and model numbers in lower case.

The catalogue is the base set's, byte-identical: ``load()`` and ``write_catalog()`` are those of
``fridges/make_set.py`` (loaded through ``shared.base_set("fridges")``), so ``--out DIR`` writes
the same ``catalog.jsonl`` + ``mapping.yaml``.

    python3 bench/own_sets/fridges_y/make_set.py            # write questions.json
    python3 bench/own_sets/fridges_y/make_set.py --check    # questions.json is current
    python3 bench/own_sets/fridges_y/make_set.py --show     # every question with its gold

Conventions of the gold, every one computed here from the source fields (never typed by hand):

* Spelled numbers: every number in a question is written by ``words()`` from the numeric constant
  the gold code uses, so text and gold cannot drift ("thirty five" = 35, "four point five" =
  4.5, "twenty twenty one" = the year 2021). "A third" is exactly 100/3 percent. In a
  self-correction ("eighteen no twenty", "no wait") the LAST number said is the one meant.
* A product named in a question is said in lower case without the file's wildcard marks ("*",
  "#"): "the ge gle12hsl" is "GE GLE12HSL****"; only products whose marks are all at the end of the name and whose spoken
  name picks out one product (also as a prefix of another's) are named.
* Missing data is never "no": a fridge whose field is empty or does not parse is left out of any
  filter, superlative, average or count on that field. The three prose-only facts (ice maker,
  through-the-door dispenser, counter depth; ``gt_retrieval_method`` "tkg") read what the page
  states (``Fridge.says``); a page that says nothing neither has nor lacks the feature, so
  "without / no / not" means the page says it lacks it.
* "under / less than / over / more than / wider than / taller than / before" are strict;
  "at least / or more / or earlier / or later / up to / at most / fits in" are inclusive (a fridge
  "fits" a gap when its width is at most the gap).
* Brands: the base set's ``brand_key`` (case, spaces and punctuation ignored: "sub zero" =
  "Sub-Zero", "kitchen aid" = "KitchenAid"); a listed variant such as "GE Profile" or "LG
  Signature" is its own brand, so questions avoid brands with such variants where it would matter.
  A brand answer is the "Brand Name" as the file writes it for that brand.
* Types are the "Type" column ("bottom freezer" = "Bottom Freezer", "side by side" =
  "Side-by-Side", "freezerless" = "Freezerless and Single Door"); "compact" is "Compact" = "Yes";
  "wifi" is "Connects Using" = "Wi-Fi"; "most efficient twenty twenty one" is "Meets ENERGY STAR
  Most Efficient 2021 Criteria" = "Yes"; "manual defrost" is "Defrost Type" = "Manual";
  refrigerants compare without case or hyphen ("r six hundred a" = "R-600a").
* Dates: "certified" is "Date Certified", "came on the market" is "Date Available On Market";
  a year is the year of that date.
* Averages are rounded to one decimal place, as the questions ask. Brand-vs-brand and
  type-vs-type questions are asserted to have a clear winner (no tie); superlatives are asserted
  to have one winner, or a tie becomes a list gold; lists hold 1..40 names, sorted. Yes/no golds
  are the strings "yes" / "no".
* The randomly chosen products of product questions come from ``random.Random(SEED)``.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
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

BASE = base_set("fridges")
load, write_catalog, brand_key = BASE.load, BASE.write_catalog, BASE.brand_key
QUESTIONS = HERE / "questions.json"
SEED = 8122026
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION

ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def words(n) -> str:
    """``n`` as a speech engine spells it: 35 -> "thirty five", 4.5 -> "four point five",
    750 -> "seven hundred fifty" (years are ``year_words``)."""
    if isinstance(n, float) and not n.is_integer():
        whole, frac = f"{n}".split(".")
        return f"{words(int(whole))} point {' '.join(ONES[int(d)] for d in frac)}"
    n = int(n)
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        return ONES[n // 100] + " hundred" + ("" if n % 100 == 0 else " " + words(n % 100))
    return words(n // 1000) + " thousand" + ("" if n % 1000 == 0 else " " + words(n % 1000))


def year_words(y: int) -> str:
    """2021 -> "twenty twenty one", 2013 -> "twenty thirteen"."""
    return f"{words(y // 100)} {words(y % 100)}"


def yn(b: bool) -> str:
    return "yes" if b else "no"


def says(x, fact):
    """True / False as the page states, None when it says nothing."""
    return x.says.get(fact)


def mean(vals, nd=1):
    vals = [v for v in vals if v is not None]
    return round(statistics.mean(vals), nd)


def spoken(name: str) -> str:
    """A product name as it is said aloud: lower case, without the file's wildcard marks (* and #)."""
    return " ".join(name.lower().replace("*", "").replace("#", "").split())


def build_questions(fs):
    b = SetBuilder(fs)
    names_said = [spoken(x.name) for x in fs]

    # a product may be named aloud when its spoken name picks out one product, also as a prefix
    def sayable(x):
        return (
            re.fullmatch(r"[^*#(]*[*#]*", x.name) is not None
            and sum(n.startswith(spoken(x.name)) for n in names_said) == 1
        )

    by = lambda brand: [x for x in fs if x.brand == brand_key(brand)]  # noqa: E731
    rng = random.Random(SEED)
    compact = lambda x: x.yes("Compact") is True  # noqa: E731
    wifi = lambda x: x.f("Connects Using") == "Wi-Fi"  # noqa: E731
    most_eff = lambda x: x.yes("Meets ENERGY STAR Most Efficient 2021 Criteria") is True  # noqa: E731
    refrig = lambda x: x.f("Refrigerant Type").lower().replace("-", "")  # noqa: E731
    spelled = lambda brand: next(x.f("Brand Name") for x in by(brand))  # noqa: E731

    def winner(scores: dict, low=False):
        top = (min if low else max)(scores.values())
        ks = [k for k, v in scores.items() if v == top]
        assert len(ks) == 1, scores
        return ks[0]

    # ------------------------------------------------------------------ INVERSE
    (r441,) = [x for x in fs if refrig(x) == "r441a"]
    b.add("um which fridge uses r four four one a as the refrigerant", L, value=r441.name)
    w1, w = 36, 40
    b.add(
        f"hey which fridges are wider than {words(w1)} no {words(w)} inches",
        L,
        names=[x.name for x in fs if x.width is not None and x.width > w],
    )
    b.add("which ones are like sold in taiwan", L, names=[x.name for x in fs if "Taiwan" in x.markets])
    b.add(
        "um which liebherr fridges have an ice maker",
        L,
        names=[x.name for x in by("Liebherr") if says(x, "ice") is True],
        method="tkg",
    )
    b.add(
        "which fridges talk over the uh smart energy profile standard",
        L,
        names=[
            x.name for x in fs if x.f("Communication Standard Application Layer").startswith("Smart Energy Profile")
        ],
    )
    b.add(
        "hey which bosch fridges are counter depth",
        L,
        names=[x.name for x in by("Bosch") if says(x, "counter") is True],
        method="tkg",
    )
    p = 40
    b.add(
        f"which fridges beat the federal standard by like {words(p)} percent or more",
        L,
        names=[x.name for x in fs if x.pct is not None and x.pct >= p],
    )
    k = 750
    b.add(
        f"which fridges use over {words(k)} kilowatt hours a year",
        L,
        names=[x.name for x in fs if x.kwh is not None and x.kwh > k],
    )
    y = 2013
    b.add(
        f"um which fridges got certified back in {year_words(y)} or earlier",
        L,
        names=[x.name for x in fs if x.year("Date Certified") <= y],
    )
    b.add("which kenmore fridges have wifi", L, names=[x.name for x in by("Kenmore") if wifi(x)])
    h = 84
    b.add(
        f"show me the fridges that are exactly {words(h)} inches tall",
        L,
        names=[x.name for x in fs if x.height == h],
    )

    # ------------------------------------------------------------------ MULTI
    b.add(
        "bottom freezer counter depth with an ice maker from kitchen aid",
        M,
        names=[
            x.name
            for x in by("KitchenAid")
            if x.type == "Bottom Freezer" and says(x, "counter") is True and says(x, "ice") is True
        ],
        method="tkg",
    )
    h1, h2, v = 30, 35, 5.5
    b.add(
        f"compact fridges um under {words(h1)} no wait under {words(h2)} inches tall with at least {words(v)} cubic feet",
        M,
        names=[
            x.name
            for x in fs
            if compact(x) and x.height is not None and x.height < h2 and x.volume is not None and x.volume >= v
        ],
    )
    k = 700
    b.add(
        f"side by side fridges with a door dispenser that use under {words(k)} kilowatt hours a year",
        M,
        names=[
            x.name
            for x in fs
            if x.type == "Side-by-Side" and says(x, "door") is True and x.kwh is not None and x.kwh < k
        ],
        method="tkg",
    )
    v1, v2 = 18, 20
    b.add(
        f"top freezer at least {words(v1)} no {words(v2)} cubic feet that meets the most efficient {year_words(2021)} criteria",
        M,
        names=[
            x.name for x in fs if x.type == "Top Freezer" and x.volume is not None and x.volume >= v2 and most_eff(x)
        ],
    )
    k = 600
    b.add(
        f"hey samsung fridges with wifi that um use less than {words(k)} kilowatt hours a year",
        M,
        names=[x.name for x in by("Samsung") if wifi(x) and x.kwh is not None and x.kwh < k],
    )
    b.add(
        "automatic defrost compact fridges that use r six hundred a",
        M,
        names=[x.name for x in fs if compact(x) and x.f("Defrost Type") == "Automatic" and refrig(x) == "r600a"],
    )
    w = 30
    b.add(
        f"like freezerless fridges that are built in and at least {words(w)} inches wide",
        M,
        names=[
            x.name
            for x in fs
            if x.type == "Freezerless and Single Door"
            and x.yes("Built-in") is True
            and x.width is not None
            and x.width >= w
        ],
    )
    y = 2021
    b.add(
        f"bottom freezer fridges without an ice maker that came on the market in {year_words(y)}",
        M,
        names=[
            x.name
            for x in fs
            if x.type == "Bottom Freezer" and says(x, "ice") is False and x.year("Date Available On Market") == y
        ],
        method="tkg",
    )
    k = 200
    b.add(
        f"um compact fridges using less than {words(k)} kilowatt hours that hit the most efficient {year_words(2021)} thing",
        M,
        names=[x.name for x in fs if compact(x) and x.kwh is not None and x.kwh < k and most_eff(x)],
    )
    b.add(
        "compact ones that use at least a third less energy than the federal standard",
        M,
        names=[x.name for x in fs if compact(x) and x.pct is not None and x.pct >= 100 / 3],
    )

    # ------------------------------------------------------------------ GROUP
    e = {br: mean((x.kwh for x in by(br)), 3) for br in ("GE", "Frigidaire")}
    b.add("who uses less energy on average ge or frigidaire", G, value=spelled(winner(e, low=True)))
    n = {br: sum(says(x, "counter") is True for x in by(br)) for br in ("KitchenAid", "Whirlpool")}
    b.add("which has more counter depth fridges kitchenaid or whirlpool", G, value=spelled(winner(n)), method="tkg")
    c = {t: mean((x.volume for x in fs if x.type == t), 3) for t in ("Bottom Freezer", "Top Freezer")}
    b.add("bottom freezers versus top freezers which type holds more on average", G, value=winner(c))
    t = {br: mean((x.height for x in by(br)), 3) for br in ("Miele", "Liebherr")}
    b.add("um miele or liebherr whose fridges are taller on average", G, value=spelled(winner(t)))
    d = {
        kind: mean((x.kwh for x in fs if compact(x) and x.f("Defrost Type") == kind), 3)
        for kind in ("Manual", "Automatic")
    }
    b.add(
        "for compact fridges does manual defrost or automatic defrost use less energy on average",
        G,
        value=winner(d, low=True),
    )
    n = {br: sum(says(x, "ice") is True for x in by(br)) for br in ("GE", "Frigidaire")}
    assert n["GE"] > n["Frigidaire"], n
    b.add(
        "how many more ge fridges than frigidaire fridges have an ice maker",
        G,
        value=n["GE"] - n["Frigidaire"],
        method="tkg",
    )
    cnt = Counter(x.brand for x in fs if says(x, "counter") is True)
    top = max(cnt.values())
    tops = [k for k, v in cnt.items() if v == top]
    assert len(tops) == 1, tops
    b.add("hey which brand has the most counter depth fridges", G, value=spelled(tops[0]), method="tkg")
    s = {br: mean((x.pct for x in by(br)), 3) for br in ("Sub-Zero", "Samsung")}
    b.add(
        "sub zero or samsung which one beats the federal energy standard by more percent on average",
        G,
        value=spelled(winner(s)),
    )
    n = {br: sum(compact(x) for x in by(br)) for br in ("Midea", "Galanz")}
    b.add("like midea versus galanz who has more compact fridges", G, value=spelled(winner(n)))
    w = {br: mean((x.width for x in by(br)), 3) for br in ("Bosch", "Thermador", "Gaggenau")}
    b.add("between bosch thermador and gaggenau whose fridges are the widest on average", G, value=spelled(winner(w)))

    # ------------------------------------------------------------------ REASONING
    vg = max(x.volume for x in by("GE") if x.volume is not None)
    vs = max(x.volume for x in by("Samsung") if x.volume is not None)
    assert vg != vs
    b.add("is the biggest ge fridge bigger than the biggest samsung", R, value=yn(vg > vs))
    b.add("um does any frigidaire have wifi", R, value=yn(any(wifi(x) for x in by("Frigidaire"))))
    pool = [x for x in fs if x.type == "Bottom Freezer" and x.volume is not None and sayable(x)]
    while True:
        x, y = rng.sample(pool, 2)
        if x.brand != y.brand and x.volume != y.volume:
            break
    b.add(
        f"which is bigger the {spoken(x.name)} or the {spoken(y.name)}",
        R,
        value=(x if x.volume > y.volume else y).name,
    )
    pool = sorted(
        (x for x in fs if says(x, "ice") is True and x.brand in ("lg", "whirlpool") and sayable(x)),
        key=lambda x: x.name,
    )
    z = rng.choice(pool)
    b.add(f"hey does the {spoken(z.name)} have an ice maker", R, value="yes", method="tkg")
    pool = sorted(
        (
            x
            for x in fs
            if says(x, "door") is False
            and x.brand in ("ge", "frigidaire")
            and x.type == "Bottom Freezer"
            and sayable(x)
        ),
        key=lambda x: x.name,
    )
    z = rng.choice(pool)
    b.add(f"does the {spoken(z.name)} have a through the door dispenser", R, value="no", method="tkg")
    hs = [x.height for x in fs if x.height is not None]
    b.add(
        "how many inches taller is the tallest fridge than the shortest one",
        R,
        value=clean_number(max(hs) - min(hs)),
    )
    g1, g2 = 30, 33
    b.add(
        f"i've got a gap {words(g1)} inches no wait {words(g2)} inches wide is there a bottom freezer with an ice maker that fits",
        R,
        value=yn(
            any(
                x.type == "Bottom Freezer" and says(x, "ice") is True and x.width is not None and x.width <= g2
                for x in fs
            )
        ),
        method="tkg",
    )
    hog, _ = b.best(fs, lambda x: x.kwh)
    assert len({x.volume for x in hog}) == 1 and hog[0].volume is not None, [
        x.name for x in hog
    ]  # a tie of one capacity
    b.add(
        "what's the capacity in cubic feet of the fridge that uses the most energy",
        R,
        value=clean_number(hog[0].volume),
    )
    comp = [x for x in fs if compact(x)]
    manual = sum(x.f("Defrost Type") == "Manual" for x in comp)
    b.add("are more than a third of the compact fridges manual defrost", R, value=yn(manual * 3 > len(comp)))
    pool = [x for x in fs if x.brand in ("samsung", "lg", "whirlpool", "kitchenaid") and sayable(x)]
    while True:
        x, y = rng.sample(pool, 2)
        if x.date("Date Certified") != y.date("Date Certified") and x.brand != y.brand:
            break
    b.add(
        f"which got certified first the {spoken(x.name)} or the {spoken(y.name)}",
        R,
        value=(x if x.date("Date Certified") < y.date("Date Certified") else y).name,
    )
    pool = sorted((x for x in fs if x.kwh is not None and x.brand == "midea" and sayable(x)), key=lambda x: x.name)
    z = rng.choice(pool)
    yrs = 10
    b.add(
        f"like how many kilowatt hours would the {spoken(z.name)} use over {words(yrs)} years",
        R,
        value=clean_number(z.kwh * yrs),
    )

    # ------------------------------------------------------------------ AGGREGATION
    b.add("how many whirlpool fridges are there", A, value=len(by("Whirlpool")))
    b.add(
        "um what's the average yearly energy use of the side by side fridges in kilowatt hours round to one decimal",
        A,
        value=clean_number(mean(x.kwh for x in fs if x.type == "Side-by-Side")),
    )
    b.add_best("hey what's the biggest fridge you've got by capacity", A, fs, lambda x: x.volume)
    b.add("how many fridges have like wifi", A, value=sum(wifi(x) for x in fs))
    b.add(
        "how many fridges say they don't have an ice maker",
        A,
        value=sum(says(x, "ice") is False for x in fs),
        method="tkg",
    )
    b.add(
        "what's the most energy any compact fridge uses in a year in kilowatt hours",
        A,
        value=clean_number(max(x.kwh for x in fs if compact(x) and x.kwh is not None)),
    )
    b.add_best(
        "um what's the narrowest bottom freezer fridge",
        A,
        [x for x in fs if x.type == "Bottom Freezer"],
        lambda x: x.width,
        low=True,
    )
    b.add(
        "what's the average capacity of the ge fridges in cubic feet to one decimal",
        A,
        value=clean_number(mean(x.volume for x in by("GE"))),
    )
    y = 2019
    b.add(
        f"how many fridges came on the market in {year_words(y)}",
        A,
        value=sum(x.year("Date Available On Market") == y for x in fs),
    )
    k = 200
    b.add(
        f"hey how many fridges use less than {words(k)} kilowatt hours a year",
        A,
        value=sum(x.kwh is not None and x.kwh < k for x in fs),
    )
    b.add(
        "what's the lowest yearly energy use of any bottom freezer with an ice maker in kilowatt hours",
        A,
        value=clean_number(
            min(x.kwh for x in fs if x.type == "Bottom Freezer" and says(x, "ice") is True and x.kwh is not None)
        ),
        method="tkg",
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
