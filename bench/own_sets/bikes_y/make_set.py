"""A held-out question set over the "bikes" catalogue (used mountain bikes, Pinkbike Europe), typed
into a search box: "bikes_y".

Written 2026-12-08, blind: without reading the QA system's code, its tests or docs, or any other
set's questions; only the base set's docstring, ``load()``, ``write_catalog()`` and data classes
were read, to learn which fields exist and which facts are stated only in page prose. The
catalogue is the base set's, byte for byte (``shared.base_set("bikes")`` gives ``load`` and
``write_catalog``).

STYLE: terse search-box queries, keyword strings with no grammar ("hardtail 29er under 1500
usd", "enduro carbon xl cheapest"), abbreviations (dh, xc, ebike, fs, alu, ti, yr, k for
thousand, w/, vs, avg, uk), lower case; a minority of longer questions. Counts and averages are
still asked as "how many ..." / "avg price ...".

    python3 bench/own_sets/bikes_y/make_set.py             # write questions.json
    python3 bench/own_sets/bikes_y/make_set.py --check     # questions.json current
    python3 bench/own_sets/bikes_y/make_set.py --show      # print every question with its gold
    python3 bench/own_sets/bikes_y/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml

Conventions of the gold, all computed here from the source fields:

* Abbreviations: "dh" = category Downhill Bikes, "xc" = XC / Cross Country Bikes, "ebike" /
  "emtb" = Ebikes - Mountain, "enduro" / "trail" = Enduro Bikes / Trail Bikes; "29er" / "29" =
  wheel ``29"``, "27.5" / "650b" = ``27.5" / 650B``, "26in" = ``26"``; "carbon" = material Carbon
  Fiber, "alu" / "aluminium" = Aluminium, "ti" = Titanium, "cromo" = Chromoly (Steel is not
  counted as Chromoly); "xl" / "m" / "xxl" = those letter frame sizes exactly; "yr" = the Model
  Year column; "fork" / "front travel" = Front Travel in mm ("cm" = mm / 10, exact).
* "uk" = United Kingdom, Scotland, Wales and Northern Ireland (the site splits them); any other
  country is the Country column exactly ("ireland" is Ireland only, not Northern Ireland).
* Prices: "usd", "$" and a bare price mean the ``Price in USD`` column; "2k" = 2000. A question
  naming "eur" / "euros" reads the listing's own ``Currency`` (EUR) and the number of its ``Price``.
* "under / below / less than / over / more than / newer than / >" are strict; "or less / max /
  at most / or more / min / at least / +" (as in "150mm+") are inclusive; "between X and Y" is
  inclusive at both ends.
* Prose-only facts (``gt_retrieval_method`` "tkg"): hardtail vs full suspension ("fs", "full
  sus") and the condition (New / Excellent / Good / Poor) count only where the page states them;
  a page that says nothing is neither a hardtail nor full suspension, neither new nor not new. A
  "not X" condition ("not a hardtail") needs the page to state the opposite.
* A blank cell (brand, material, wheel, travel, year) never satisfies a condition and never
  counts as "not X" either: "not carbon" means a stated material other than Carbon Fiber.
* Brands are the ``Brand`` column compared exactly; a blank brand is no brand.
* Averages are plain means rounded to 2 decimals; "how many more" is a difference of counts.
  Superlatives and two-listing comparisons are asserted to have a unique winner; group
  "which higher" questions are asserted not to tie. Lists hold 1..40 listings.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "questions.json"
DEBUG = False

sys.path.insert(0, str(HERE.parent))
from shared import (  # noqa: E402
    AGGREGATION,
    GROUP,
    INVERSE,
    MULTI,
    REASONING,
    BoundedBuilder,
    base_set,
    set_main,
)

BASE = base_set("bikes")
L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION
EBIKE, ENDURO, TRAIL, DH, XC = BASE.EBIKE, BASE.ENDURO, BASE.TRAIL, BASE.DH, BASE.XC
UK = BASE.UK
W29, W275, W26 = '29"', '27.5" / 650B', '26"'


def _mean(vals):
    vals = [v for v in vals if v is not None]
    return sum(vals) / len(vals)


def build_questions(bikes) -> list[dict]:
    b = BoundedBuilder(bikes, debug=DEBUG)

    def names(pool):
        return [x.name for x in pool]

    def cat(c):
        return [x for x in bikes if x.category == c]

    def brand(n):
        return [x for x in bikes if x.brand == n]

    def yn(v):
        return "yes" if v else "no"

    def pair(a, c, key, *, low=False):
        va, vc = key(b.named(a)), key(b.named(c))
        assert va is not None and vc is not None and va != vc, (a, c, va, vc)
        return (a if va < vc else c) if low else (a if va > vc else c)

    def higher(ga, gc, key, la, lc, *, low=False):
        ma, mc = _mean(key(x) for x in ga), _mean(key(x) for x in gc)
        assert ma != mc
        return (la if ma < mc else lc) if low else (la if ma > mc else lc)

    def more(ga, gc, la, lc):
        assert len(ga) != len(gc)
        return la if len(ga) > len(gc) else lc

    # ---- INVERSE ----------------------------------------------------------------------------
    b.add("ti frame bikes", L, names=names(x for x in bikes if x.material() == "Titanium"))
    b.add("cromo frames", L, names=names(x for x in bikes if x.material() == "Chromoly"))
    b.add("bikes for sale in france", L, names=names(x for x in bikes if x.country == "France"))
    b.add("xxl frame size", L, names=names(x for x in bikes if x.frame() == "XXL"))
    b.add("2024 yr bikes", L, names=names(x for x in bikes if x.year() == 2024))
    b.add("listings priced in zloty", L, names=names(x for x in bikes if x.col("Currency") == "zl"))
    b.add("whyte hardtails", L, "tkg", names=names(x for x in brand("Whyte") if x.hardtail is True))
    b.add("203mm fork", L, names=names(x for x in bikes if x.front_mm() == 203))
    b.add("evil bikes", L, names=names(brand("Evil")))
    b.add("poor condition bikes needing work", L, "tkg", names=names(x for x in bikes if x.condition == "Poor"))
    b.add("650c wheels", L, names=names(x for x in bikes if x.wheel() == "650C"))

    # ---- MULTI ------------------------------------------------------------------------------
    b.add(
        "hardtail 29er under 1500 usd",
        M,
        "tkg",
        names=names(x for x in bikes if x.hardtail is True and x.wheel() == W29 and x.usd() < 1500),
    )
    b.add(
        "enduro carbon xl under 3k",
        M,
        names=names(x for x in cat(ENDURO) if x.material() == "Carbon Fiber" and x.frame() == "XL" and x.usd() < 3000),
    )
    b.add(
        "trail alu 2022 or newer max $2000",
        M,
        names=names(
            x for x in cat(TRAIL) if x.material() == "Aluminium" and (x.year() or 0) >= 2022 and x.usd() <= 2000
        ),
    )
    b.add(
        "dh 27.5 w/ 200mm fork",
        M,
        names=names(x for x in cat(DH) if x.wheel() == W275 and x.front_mm() == 200),
    )
    b.add(
        "carbon emtb 29er under 6k",
        M,
        names=names(x for x in cat(EBIKE) if x.material() == "Carbon Fiber" and x.wheel() == W29 and x.usd() < 6000),
    )
    b.add(
        "scotland bikes over 4000 usd",
        M,
        names=names(x for x in bikes if x.country == "Scotland" and x.usd() > 4000),
    )
    b.add(
        "xc not carbon",
        M,
        names=names(x for x in cat(XC) if x.material() and x.material() != "Carbon Fiber"),
    )
    b.add(
        "santa cruz size m excellent cond",
        M,
        "tkg",
        names=names(x for x in brand("Santa Cruz") if x.frame() == "M" and x.condition == "Excellent"),
    )
    b.add(
        "giant 2018 or older under 1000",
        M,
        names=names(x for x in brand("Giant") if x.year() is not None and x.year() <= 2018 and x.usd() < 1000),
    )
    b.add(
        "brand new unridden enduro under 4k",
        M,
        "tkg",
        names=names(x for x in cat(ENDURO) if x.condition == "New" and x.usd() < 4000),
    )
    b.add(
        "orange not hardtail",
        M,
        "tkg",
        names=names(x for x in brand("Orange") if x.hardtail is False),
    )

    # ---- GROUP ------------------------------------------------------------------------------
    b.add(
        "avg price enduro vs trail which higher",
        G,
        value=higher(cat(ENDURO), cat(TRAIL), lambda x: x.usd(), "enduro", "trail"),
    )
    b.add(
        "trek or specialized more listings", G, value=more(brand("Trek"), brand("Specialized"), "Trek", "Specialized")
    )
    b.add("how many more enduro than trail listings", G, value=len(cat(ENDURO)) - len(cat(TRAIL)))
    carbon = [x for x in bikes if x.material() == "Carbon Fiber"]
    alu = [x for x in bikes if x.material() == "Aluminium"]
    b.add(
        "carbon vs alu avg price difference usd",
        G,
        value=round(_mean(x.usd() for x in carbon) - _mean(x.usd() for x in alu), 2),
    )
    b.add(
        "ebike vs dh avg price, which is pricier",
        G,
        value=higher(cat(EBIKE), cat(DH), lambda x: x.usd(), "ebike", "dh"),
    )
    b.add(
        "scotland or wales more bikes",
        G,
        value=more(
            [x for x in bikes if x.country == "Scotland"],
            [x for x in bikes if x.country == "Wales"],
            "Scotland",
            "Wales",
        ),
    )
    ht = [x for x in bikes if x.hardtail is True]
    fs = [x for x in bikes if x.hardtail is False]
    b.add(
        "are hardtails cheaper on avg than full sus bikes",
        G,
        "tkg",
        value=yn(_mean(x.usd() for x in ht) < _mean(x.usd() for x in fs)),
    )
    b.add(
        "avg fork travel dh minus enduro, in mm",
        G,
        value=round(_mean(x.front_mm() for x in cat(DH)) - _mean(x.front_mm() for x in cat(ENDURO)), 2),
    )
    b.add(
        "yt vs commencal which cheaper avg",
        G,
        value=higher(brand("YT"), brand("Commencal"), lambda x: x.usd(), "YT", "Commencal", low=True),
    )
    b.add(
        "enduro: more 29ers or 27.5s?",
        G,
        value=more(
            [x for x in cat(ENDURO) if x.wheel() == W29], [x for x in cat(ENDURO) if x.wheel() == W275], "29", "27.5"
        ),
    )

    # ---- REASONING --------------------------------------------------------------------------
    a1, a2 = "2020 Santa Cruz Bronson C Medium", "2022 Santa cruz bronson c v4 mx"
    b.add(f"{a1} vs {a2} which cheaper", R, value=pair(a1, a2, lambda x: x.usd(), low=True))
    c1, c2 = "2019 Canyon Torque Al6", "2021 Vitus sommet crx size large"
    b.add(f"more fork travel: {c1} or {c2}?", R, value=pair(c1, c2, lambda x: x.front_mm()))
    h = "2021 Ragley marley"
    assert b.named(h).hardtail is not None
    b.add(f"is the {h} a hardtail", R, "tkg", value=yn(b.named(h).hardtail))
    fsb = "2016 Trek fuel ex8 (Folkestone)"
    assert b.named(fsb).hardtail is not None
    b.add(f"{fsb} hardtail y/n", R, "tkg", value=yn(b.named(fsb).hardtail))
    b.add("any ti bike under 2000 usd?", R, value=yn(any(x.material() == "Titanium" and x.usd() < 2000 for x in bikes)))
    b.add(
        "uk trail bike 150mm+ fork for less than 1000 dollars",
        R,
        names=names(x for x in cat(TRAIL) if x.country in UK and (x.front_mm() or 0) >= 150 and x.usd() < 1000),
    )
    b.add(
        "listed in euros, asking more than 5000 eur",
        R,
        names=names(x for x in bikes if x.col("Currency") == "EUR" and x.asking() > 5000),
    )
    y = "2019 Yeti SB100"
    b.add(f"does the {y} have more than 12 cm of front travel", R, value=yn(b.named(y).front_mm() / 10 > 12))
    b.add(
        "i want a full suspension trail bike in excellent condition that is a 2021 or newer model and costs between 2000 and 2500 usd, which ones?",
        R,
        "tkg",
        names=names(
            x
            for x in cat(TRAIL)
            if x.hardtail is False
            and x.condition == "Excellent"
            and (x.year() or 0) >= 2021
            and 2000 <= x.usd() <= 2500
        ),
    )
    o1, o2 = "2018 Orange Five Custom Build in Large", "2019 Orbea Rallon M-Team (Large)"
    b.add(f"which is newer, {o1} or {o2}", R, value=pair(o1, o2, lambda x: x.year()))

    # ---- AGGREGATION ------------------------------------------------------------------------
    b.add("how many hardtails", A, "tkg", value=len(ht))
    b.add("avg price dh bikes usd", A, value=round(_mean(x.usd() for x in cat(DH)), 2))
    b.add(
        "enduro carbon xl cheapest",
        A,
        value=b.best_one(
            [x for x in cat(ENDURO) if x.material() == "Carbon Fiber" and x.frame() == "XL"],
            lambda x: x.usd(),
            low=True,
        ).name,
    )
    b.add("most expensive ebike", A, value=b.best_one(cat(EBIKE), lambda x: x.usd()).name)
    b.add("how many bikes listed in euros", A, value=len([x for x in bikes if x.col("Currency") == "EUR"]))
    b.add("avg front travel trail bikes mm", A, value=round(_mean(x.front_mm() for x in cat(TRAIL)), 2))
    b.add("max fork travel on an xc bike, in cm", A, value=b.top_value(cat(XC), lambda x: x.front_mm()) / 10)
    b.add("how many 26in wheel bikes", A, value=len([x for x in bikes if x.wheel() == W26]))
    b.add("oldest model yr listed", A, value=b.top_value(bikes, lambda x: x.year(), low=True))
    b.add(
        "how many santa cruz listings in the uk",
        A,
        value=len([x for x in brand("Santa Cruz") if x.country in UK]),
    )
    b.add(
        "number of new never-ridden bikes over 5k usd",
        A,
        "tkg",
        value=len([x for x in bikes if x.condition == "New" and x.usd() > 5000]),
    )
    return b.out


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, BASE.load, build_questions, BASE.write_catalog)


if __name__ == "__main__":
    main()
