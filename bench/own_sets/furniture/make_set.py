"""A first-contact question set over a catalog of another domain: "furniture".

Written and committed before it was run, to measure the system on a product domain no code or
word list of this project was written for: the IKEA Saudi Arabia furniture catalogue of
2020-04-20 in ``shared/data/furniture-ikea-sa/ikea.csv`` (3,694 listing rows = 2,962 articles in
17 categories; prices in Saudi riyals; sizes in cm columns and again, differently, in the short
description "Bookcase, 40x28x202 cm"; Swedish product-line names "BESTÅ", "GRÖNLID").

The catalog: one product per article (``item_id``); an article listed under several categories
keeps them all. Every article whose designer column holds marketing prose instead of names (143)
is taken, and the rest drawn with a fixed seed, 1,000 in all (file order kept). A product is named
as the shop titles it, "<line name> <short description>" with the description's runs of spaces
collapsed ("FREKVENS Bar table, in/outdoor, 51x51 cm"); where two articles share that title the
article number is appended ("... (904.203.32)"). The price is the ``price`` in SAR; the specs are
the previous price as the file writes it ("SR 2,375", only where there is one), the designer (the
column as written, where it names people), the article number, and width / depth / height, bare
numbers whose unit (cm) the mapping declares. The page prose is the short description, the
marketing text where the designer column holds it, and two yes/no columns taken out of the table
and said only in prose, several phrasings each, positive and negative, and for some products not
at all: whether the article comes in other colours and whether it can be bought online.

    python3 bench/own_sets/furniture/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/furniture/make_set.py --check     # questions.json is current
    python3 bench/own_sets/furniture/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the source fields:

* A product type named in a question ("armchairs", "bar stools", "3-seat sofas", "TV benches") is
  the first comma-separated part of the short description, matched whole and case-insensitively
  ("Armchair" is an armchair, "Armchair-bed" and "Armchair cover" are not); "chairs" of a range
  are the types Chair, Armchair, Swivel chair, Children's chair and Chair with armrests (not chair
  pads or cushions); a category named as such ("in the Outdoor furniture range", "the Chairs
  category") is the file's category.
* Sizes are the width / depth / height columns in cm (an article without the column is left out
  of a filter, superlative or average on it); the size string of the description is not read.
  Feet are 30.48 cm, inches 2.54 cm, metres 100 cm (thresholds converted exactly).
* Prices compare in SAR ("riyals", "SR", "SAR"); an article is discounted when it has a previous
  price; the saving is previous price minus price.
* Prose-only facts (``gt_retrieval_method`` "tkg") read what the page states; a page that says
  nothing neither has nor lacks the fact. Facts read from the marketing text are matched by a
  regular expression on that text only, and only products with marketing text can have them.
* A designer is one of the "/"-separated names of the designer column.
* "under / less than / narrower than" are strict, "at least / up to / at most" inclusive.
  Superlatives and two-product comparisons are asserted to have one winner (a tie in a
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
DATA = HERE.parents[2].parent / "shared" / "data" / "furniture-ikea-sa" / "ikea.csv"
QUESTIONS = HERE / "questions.json"
SAMPLE, SEED = 1000, 77

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
PROSE_RE = re.compile(r"^\d{3}\.\d{3}\.\d{2}\s")

# Phrasings of the prose-only facts. Written before any question; questions use other words.
SAYS = {
    ("colours", True): [
        "It is also available in other colours.",
        "More colour options are available.",
        "You can choose between several colours.",
    ],
    ("colours", False): [
        "It comes in this colour only.",
        "No other colours are available.",
        "There is no other colour for this item.",
    ],
    ("online", True): [
        "It can be ordered online.",
        "Available for online purchase with home delivery.",
        "You can buy it on our website.",
    ],
    ("online", False): [
        "It is not sold online; buy it in the store.",
        "Online ordering is not available for this item.",
        "This item cannot be purchased through the website.",
    ],
}


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Article:
    item_id: str
    name: str
    line: str
    desc: str
    categories: list
    raw: dict
    says: dict = field(default_factory=dict)
    page: str = ""

    def f(self, col: str) -> str:
        return self.raw.get(col, "").strip()

    @property
    def kind(self) -> str:
        return self.desc.split(",")[0].strip().lower()

    @property
    def price(self) -> float:
        return float(self.f("price"))

    @property
    def old_price(self) -> float | None:
        m = re.fullmatch(r"SR ([\d,]+)", self.f("old_price"))
        return float(m.group(1).replace(",", "")) if m else None

    def cm(self, col: str) -> float | None:
        v = self.f(col)
        return float(v) if v else None

    @property
    def marketing(self) -> str | None:
        d = self.f("designer")
        return d if PROSE_RE.match(d) else None

    @property
    def designers(self) -> list[str]:
        d = self.f("designer")
        return [] if not d or PROSE_RE.match(d) else [x.strip() for x in d.split("/")]

    @property
    def article_no(self) -> str:
        a = f"{int(self.item_id):08d}"
        return f"{a[:3]}.{a[3:6]}.{a[6:]}"


def load() -> list[Article]:
    with open(DATA, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    first: dict[str, dict] = {}
    cats: dict[str, list] = {}
    for r in rows:
        first.setdefault(r["item_id"], r)
        cats.setdefault(r["item_id"], [])
        if r["category"] not in cats[r["item_id"]]:
            cats[r["item_id"]].append(r["category"])
    ids = list(first)
    prose = [i for i in ids if PROSE_RE.match(first[i]["designer"].strip())]
    rest = [i for i in ids if i not in set(prose)]
    rng = random.Random(SEED)
    chosen = set(prose) | set(rng.sample(rest, SAMPLE - len(prose)))
    arts = []
    for i in ids:
        if i not in chosen:
            continue
        r = first[i]
        desc = _collapse(r["short_description"])
        line = r["name"].strip()
        arts.append(Article(i, f"{line} {desc}", line, desc, cats[i], r))
    seen = Counter(a.name.lower() for a in arts)
    for a in arts:
        if seen[a.name.lower()] > 1:
            a.name = f"{a.name} ({a.article_no})"
    assert len({a.name.lower() for a in arts}) == len(arts) == SAMPLE
    for a in arts:
        truth = {"colours": {"Yes": True, "No": False}[a.f("other_colors")], "online": a.f("sellable_online") == "TRUE"}
        stated = {k: v for k, v in truth.items() if rng.random() < 0.85}
        sentences = [f"{a.desc}."]
        if a.marketing:
            sentences.append(a.marketing)
        tail = [rng.choice(SAYS[(k, v)]) for k, v in stated.items()]
        rng.shuffle(tail)
        a.says, a.page = stated, " ".join(sentences + tail)
    return arts


def build_questions(arts: list[Article]) -> list[dict]:
    b = SetBuilder(arts)
    kind = lambda *ks: [a for a in arts if a.kind in ks]  # noqa: E731
    cat = lambda c: [a for a in arts if c in a.categories]  # noqa: E731
    says = lambda a, k: a.says.get(k)  # noqa: E731
    names = lambda pool: [a.name for a in pool]  # noqa: E731
    sized = lambda pool, col: [a for a in pool if a.cm(col) is not None]  # noqa: E731
    text = lambda a, pat: bool(a.marketing and re.search(pat, a.marketing))  # noqa: E731
    by = lambda who: [a for a in arts if who in a.designers]  # noqa: E731
    chairish = lambda a: re.fullmatch(r"(arm|swivel |children's )?chair( with armrests)?", a.kind) is not None  # noqa: E731
    FT = 30.48

    # ---- Inverse (spec)
    b.add("Which armchairs cost less than 500 riyals?", L, names=names(a for a in kind("armchair") if a.price < 500))
    b.add("Which products did Tom Dixon design?", L, names=names(by("Tom Dixon")))
    b.add(
        "Which wardrobes are taller than 2.3 metres?",
        L,
        names=names(a for a in sized(kind("wardrobe"), "height") if a.cm("height") > 230),
    )
    b.add(
        "Which 3-seat sofas are wider than 8 feet?",
        L,
        names=names(a for a in sized(kind("3-seat sofa"), "width") if a.cm("width") > 8 * FT),
    )
    b.add(
        "Which items in the Outdoor furniture range cost more than SR 2,000?",
        L,
        names=names(a for a in cat("Outdoor furniture") if a.price > 2000),
    )
    b.add(
        "What is on sale in the Beds category?",
        L,
        names=names(a for a in cat("Beds") if a.f("old_price") != "No old price"),
    )
    b.add(
        "Which TV benches are narrower than 4 ft?",
        L,
        names=names(a for a in sized(kind("tv bench"), "width") if a.cm("width") < 4 * FT),
    )
    b.add("Which products are listed under Room dividers?", L, names=names(cat("Room dividers")))
    b.add(
        "Which bookcases are deeper than one foot?",
        L,
        names=names(a for a in sized(kind("bookcase"), "depth") if a.cm("depth") > FT),
    )

    # ---- Inverse (prose)
    b.add(
        "Which armchairs come in more than one colour?",
        L,
        names=names(a for a in kind("armchair") if says(a, "colours")),
        method="tkg",
    )
    b.add(
        "Which products can't be ordered on the website?",
        L,
        names=names(a for a in arts if says(a, "online") is False),
        method="tkg",
    )
    b.add(
        "Which products have to be anchored to the wall?",
        L,
        names=names(a for a in arts if text(a, r"fixed to the wall")),
        method="tkg",
    )
    b.add(
        "Which sofas and armchairs have a cover you can put in the washing machine?",
        L,
        names=names(a for a in cat("Sofas & armchairs") if text(a, r"machine[- ]wash")),
        method="tkg",
    )
    b.add(
        "Which pieces can be stacked?",
        L,
        names=names(a for a in arts if text(a, r"[Ss]tackable|be stacked")),
        method="tkg",
    )
    b.add(
        "Which coffee tables are available only in a single colour?",
        L,
        names=names(a for a in kind("coffee table") if says(a, "colours") is False),
        method="tkg",
    )

    # ---- Multi-condition (spec)
    b.add(
        "Which items in the Chairs category under 300 SAR were designed by IKEA of Sweden?",
        M,
        names=names(a for a in cat("Chairs") if a.price < 300 and "IKEA of Sweden" in a.designers),
    )
    b.add(
        "Which chairs in the Café furniture range cost less than 300 riyals?",
        M,
        names=names(a for a in cat("Café furniture") if chairish(a) and a.price < 300),
    )
    b.add(
        "Which desks are at most 120 cm wide and cost under 600 SAR?",
        M,
        names=names(a for a in sized(kind("desk"), "width") if a.cm("width") <= 120 and a.price < 600),
    )
    b.add(
        "Which wardrobes over 2 m tall are cheaper than 1,000 riyals?",
        M,
        names=names(a for a in sized(kind("wardrobe"), "height") if a.cm("height") > 200 and a.price < 1000),
    )
    b.add(
        "Which discounted items in the Tables & desks category cost less than SR 500 now?",
        M,
        names=names(a for a in cat("Tables & desks") if a.f("old_price") != "No old price" and a.price < 500),
    )
    b.add(
        "Which corner sofas cost under 3,000 riyals?",
        M,
        names=names(a for a in kind("corner sofa") if a.price < 3000),
        empty=True,
    )

    # ---- Multi-condition with prose
    b.add(
        "Which 3-seat sofas under SR 3,000 also come in other colours?",
        M,
        names=names(a for a in kind("3-seat sofa") if a.price < 3000 and says(a, "colours")),
        method="tkg",
    )
    b.add(
        "Which TV benches hide the cables and are wider than 150 cm?",
        M,
        names=names(a for a in sized(kind("tv bench"), "width") if a.cm("width") > 150 and text(a, r"cable")),
        method="tkg",
    )
    b.add(
        "Which chairs by Ola Wihlborg are only sold in one colour?",
        M,
        names=names(a for a in cat("Chairs") if "Ola Wihlborg" in a.designers and says(a, "colours") is False),
        method="tkg",
    )
    b.add(
        "Which bookcases that must be fixed to the wall are taller than 200 cm?",
        M,
        names=names(
            a
            for a in sized(cat("Bookcases & shelving units"), "height")
            if a.cm("height") > 200 and text(a, r"fixed to the wall")
        ),
        method="tkg",
    )

    # ---- two named products
    rng = random.Random(9)

    def pair(pool, key):
        pool = [a for a in pool if key(a) is not None and not a.name.endswith(")")]
        for _ in range(500):
            x, y = rng.sample(pool, 2)
            if key(x) != key(y):
                return x, y
        raise AssertionError("no pair")

    x, y = pair(kind("armchair", "2-seat sofa"), lambda a: a.price)
    b.add(f"Which is cheaper, the {x.name} or the {y.name}?", G, value=min((x, y), key=lambda a: a.price).name)
    x, y = pair(kind("wardrobe", "bookcase"), lambda a: a.cm("height"))
    b.add(f"Which is taller: {x.name} or {y.name}?", G, value=max((x, y), key=lambda a: a.cm("height")).name)
    x, y = pair(kind("table", "desk"), lambda a: a.cm("width"))
    b.add(f"{x.name} vs {y.name}: which is wider?", G, value=max((x, y), key=lambda a: a.cm("width")).name)
    x, y = pair(cat("Cabinets & cupboards"), lambda a: a.cm("depth"))
    b.add(f"Which is deeper, the {x.name} or the {y.name}?", G, value=max((x, y), key=lambda a: a.cm("depth")).name)
    x, y = pair(cat("Chairs"), lambda a: a.price)
    b.add(f"Which costs more, {x.name} or {y.name}?", G, value=max((x, y), key=lambda a: a.price).name)
    pool = [a for a in cat("Sofas & armchairs") if not a.name.endswith(")")]
    yes = [a for a in pool if says(a, "colours") is True]
    no = [a for a in pool if says(a, "colours") is False]
    x, y = rng.choice(yes), rng.choice(no)
    b.add(f"Which one is offered in other colours, the {y.name} or the {x.name}?", G, value=x.name, method="tkg")

    # ---- Aggregation
    b.add("How many products are in the Trolleys category?", A, value=len(cat("Trolleys")))
    b.add_best("What is the cheapest armchair?", A, kind("armchair"), lambda a: a.price, low=True)
    b.add(
        "How much does the most expensive corner sofa cost, in SAR?",
        A,
        value=clean_number(max(a.price for a in kind("corner sofa"))),
    )
    b.add(
        "What is the average price of the products in the Chairs category, to the nearest riyal?",
        A,
        value=round(statistics.mean(a.price for a in cat("Chairs"))),
    )
    b.add("How many products did Ehlén Johansson design?", A, value=len(by("Ehlén Johansson")))
    b.add(
        "What is the height of the tallest wardrobe, in metres?",
        A,
        value=clean_number(max(a.cm("height") for a in sized(kind("wardrobe"), "height")) / 100),
    )
    b.add(
        "How many products in the Sofas & armchairs section are discounted?",
        A,
        value=sum(a.f("old_price") != "No old price" for a in cat("Sofas & armchairs")),
    )
    b.add(
        "How many TV & media furniture items come in other colours?",
        A,
        value=sum(says(a, "colours") is True for a in cat("TV & media furniture")),
        method="tkg",
    )
    b.add_best("Which desk is the widest?", A, sized(kind("desk"), "width"), lambda a: a.cm("width"))
    b.add("How many products cost under 50 riyals?", A, value=sum(a.price < 50 for a in arts))

    # ---- Reasoning
    pick = random.Random(31)
    x = pick.choice([a for a in kind("3-seat sofa", "2-seat sofa") if a.cm("width")])
    b.add(f"How wide is the {x.name} in metres?", R, value=clean_number(x.cm("width") / 100))
    x = pick.choice([a for a in cat("Beds") if not a.name.endswith(")")])
    b.add(f"How much is the {x.name}, in riyals?", R, value=clean_number(x.price))
    x = pick.choice([a for a in arts if a.old_price is not None and not a.name.endswith(")")])
    b.add(
        f"How many riyals do I save on the {x.name} compared with its old price?",
        R,
        value=clean_number(x.old_price - x.price),
    )
    x = pick.choice(
        [a for a in kind("chair", "armchair") if len(a.designers) == 1 and a.designers[0] != "IKEA of Sweden"]
    )
    b.add(f"Who designed the {x.name}?", R, value=x.designers[0])
    b.add(
        "I have an 80 cm wide gap; which bookcases fit and cost under 300 riyals?",
        R,
        names=names(a for a in sized(kind("bookcase"), "width") if a.cm("width") <= 80 and a.price < 300),
    )
    b.add_best(
        "What is the cheapest 3-seat sofa that comes in other colours?",
        R,
        [a for a in kind("3-seat sofa") if says(a, "colours")],
        lambda a: a.price,
        low=True,
        method="tkg",
    )
    x = pick.choice([a for a in kind("armchair", "chair") if says(a, "colours") is not None])
    b.add(f"Is the {x.name} available in other colours?", R, value="yes" if says(x, "colours") else "no", method="tkg")
    b.add(
        "For a small balcony I want outdoor chairs under 200 riyals. Which are there?",
        R,
        names=names(a for a in cat("Outdoor furniture") if chairish(a) and a.price < 200),
    )
    return b.out


def write_catalog(arts: list[Article], out: Path) -> None:
    rows = []
    for a in arts:
        specs = {"Article number": a.item_id}
        if a.f("old_price") != "No old price":
            specs["Previous price"] = a.f("old_price")
        if a.designers:
            specs["Designer"] = a.f("designer")
        rows.append(
            {
                "name": a.name,
                "categories": a.categories,
                "price": a.f("price"),
                "width": a.f("width"),
                "depth": a.f("depth"),
                "height": a.f("height"),
                "specs": specs,
                "page": a.page,
            }
        )
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "catalog.jsonl", "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    (out / "mapping.yaml").write_text(
        "# furniture: one row per IKEA SA article; price in SAR, sizes in cm columns, "
        "other colours / online sale as page prose\n"
        "name: name\ncategories: categories\nprice: {column: price, currency: SAR}\ngroup_by: name\n"
        "specs:\n"
        "  width: {entry: 'Dimensions:Width', unit: cm}\n"
        "  depth: {entry: 'Dimensions:Depth', unit: cm}\n"
        "  height: {entry: 'Dimensions:Height', unit: cm}\n"
        "specs_from: specs\ntext: [page]\nunmapped: drop\n",
        encoding="utf-8",
    )


def main() -> None:
    set_main(__doc__.splitlines()[0], QUESTIONS, load, build_questions, write_catalog)


if __name__ == "__main__":
    main()
