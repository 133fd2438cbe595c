"""A first-contact question set over a catalog of another domain: "pqa_e".

Written and committed before it was run, to measure the question parser on a catalog no word list
was ever written for (home appliances and their spare parts, tools, toys, games, clothes, food):
the products and their attributes are the real Amazon items of the ePQA dev file in
``shared/data/amazon-contextual-pqa/ePQA/dev.csv`` (888 ASINs; 830 carry at least one attribute).

The catalog, one row per ASIN with an attribute: the Amazon title as the name (the ASIN appended
where two titles are the same), one category "Products" (the file names none), the attributes as
the specs with their raw strings rendered the way a shop prints them ("0.18 kilograms", "No",
"plastic", "width 7 inches, length 3 inches, height 2 inches"; keys as words: "item package
weight"), and the bullet and description snippets of the file as the page prose.

    python3 bench/own_sets/pqa_e/make_set.py --out DIR   # DIR/catalog.jsonl + DIR/mapping.yaml
    python3 bench/own_sets/pqa_e/make_set.py --check     # golds well formed, questions.json current
    python3 bench/own_sets/pqa_e/make_set.py --show      # print every question with its gold

Conventions of the gold, all computed here from the attribute records:

* A product that lacks the attribute a question is about is left out of its filter, superlative
  or count (missing data is not "no"); yes/no questions read the records' true/false only.
* Weights are converted to kilograms from the record's own unit (pounds 0.45359237, ounces
  0.028349523, grams 0.001); "under / less than / over" are strict.
* The brand is the ``brand`` record, else the ``manufacturer`` record, as written (lower case in
  the file); questions name brands with at least two products.
* Colours and materials compare the whole value, case-insensitively.
* Superlatives refuse ties: a tie becomes a list gold.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2].parent / "shared" / "data" / "amazon-contextual-pqa" / "ePQA" / "dev.csv"
QUESTIONS = HERE / "questions.json"

sys.path.insert(0, str(HERE.parent))
from shared import AGGREGATION, GROUP, INVERSE, MULTI, REASONING  # noqa: E402
from shared import devmix as dm  # noqa: E402

KG = {"pounds": 0.45359237, "ounces": 0.028349523, "grams": 0.001, "kilograms": 1.0}

L, M, G, R, A = INVERSE, MULTI, GROUP, REASONING, AGGREGATION


@dataclass
class Item:
    asin: str
    name: str
    records: dict = field(default_factory=dict)  # attribute key -> list of raw records
    prose: list = field(default_factory=list)

    def values(self, key: str) -> list[str]:
        """The plain ``value:`` of each record of ``key`` (quotes removed, lower case)."""
        out = []
        for rec in self.records.get(key, []):
            rec = re.sub(r"normalized_value:\{[^{}]*\}", "", rec)
            m = re.search(r'(?<![\w_])value:("([^"]*)"|[^,}\s]+)', rec)
            if m:
                out.append((m.group(2) if m.group(2) is not None else m.group(1)).strip().lower())
        return out

    def flag(self, key: str) -> bool | None:
        v = self.values(key)
        return {"true": True, "false": False}.get(v[0]) if v else None

    def kg(self, key: str) -> float | None:
        for rec in self.records.get(key, []):
            rec = re.sub(r"normalized_value:\{[^{}]*\}", "", rec)
            u, v = re.search(r"unit:(\w+)", rec), re.search(r"(?<![\w_])value:([\d.]+)", rec)
            if u and v and u.group(1) in KG:
                return float(v.group(1)) * KG[u.group(1)]
        return None

    @property
    def brand(self) -> str | None:
        v = self.values("brand") or self.values("manufacturer")
        return v[0] if v else None


def _render(key: str, recs: list[str]) -> str:
    """A record list as a shop prints it: "0.18 kilograms", "No", "width 7 inches, length 3 inches"."""
    parts = []
    for rec in recs:
        rec = re.sub(r"normalized_value:\{[^{}]*\}", "", rec)
        dims = re.findall(r"(\w+):\{\s*unit:(\w+),\s*value:([\d.]+)", rec)
        if dims:
            parts.append(", ".join(f"{d} {v.rstrip('.')} {u}" for d, u, v in dims))
            continue
        u = re.search(r"(?<![\w_])unit:(\w+)", rec)
        m = re.search(r'(?<![\w_])value:("([^"]*)"|[^,}\s]+)', rec)
        if not m:
            continue
        v = m.group(2) if m.group(2) is not None else m.group(1)
        v = {"true": "Yes", "false": "No"}.get(v, v).replace("_", " ")
        parts.append(f"{v} {u.group(1)}" if u else v)
    return ", ".join(parts)


def load() -> list[Item]:
    items: dict[str, Item] = {}
    with open(DATA, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            it = items.setdefault(r["ASIN"], Item(r["ASIN"], r["title"].strip()))
            if r["source"] == "attribute" and ":" in r["candidate"]:
                key, rest = r["candidate"].split(":", 1)
                recs = [x.strip() for x in rest.split("; ") if x.strip()]
                if recs and rest.strip() not in {x for rs in it.records.values() for x in rs}:
                    it.records.setdefault(key.strip(), [])
                    for x in recs:
                        if x not in it.records[key.strip()]:
                            it.records[key.strip()].append(x)
            elif r["source"] in ("bullet", "description") and r["candidate"] not in it.prose:
                it.prose.append(r["candidate"].strip())
    out = [i for i in items.values() if i.records]
    seen: dict[str, int] = defaultdict(int)
    for i in out:
        seen[i.name] += 1
    for i in out:
        if seen[i.name] > 1:
            i.name = f"{i.name} ({i.asin})"
    return out


class Builder(dm.Builder):
    """devmix's question records; a list gold outside 1..max_len is skipped (the data decides)."""

    def __init__(self, items: list[Item]):
        super().__init__([], [])
        self.items = items

    def add(self, question: str, category: str, *, names=None, value=None, method="sparql", max_len=40):
        if names is not None:
            names = sorted(set(names))
            if not 1 <= len(names) <= max_len:
                print(f"skipped ({len(names)} products): {question}", file=sys.stderr)
                return
        super().add(question, category, method, names=names, value=value, max_len=max_len)

    def best(self, pool, key, *, low=False):
        winners, top = super().best(pool, key, low=low)
        return [x.name for x in winners], top


def build_questions(items: list[Item]) -> list[dict]:
    b = Builder(items)
    by_brand: dict[str, list[Item]] = defaultdict(list)
    for i in items:
        if i.brand:
            by_brand[i.brand].append(i)
    brands = sorted((k for k, v in by_brand.items() if 2 <= len(v) <= 12), key=lambda k: (-len(by_brand[k]), k))
    weighed = [i for i in items if i.kg("item_weight") is not None]
    packed = [i for i in items if i.kg("item_package_weight") is not None]

    # lists by one attribute
    for brand in brands[:5]:
        b.add(f"Which {brand.title()} products are listed?", L, names=[i.name for i in by_brand[brand]])
    b.add("Which products weigh less than 100 grams?", L, names=[i.name for i in weighed if i.kg("item_weight") < 0.1])
    b.add("Which items weigh more than 20 kg?", L, names=[i.name for i in weighed if i.kg("item_weight") > 20])
    b.add(
        "Which products have a package weight under 50 g?",
        L,
        names=[i.name for i in packed if i.kg("item_package_weight") < 0.05],
    )
    b.add(
        "Which products come with batteries included?", L, names=[i.name for i in items if i.flag("batteries_included")]
    )
    b.add("Which products require batteries?", L, names=[i.name for i in items if i.flag("batteries_required")])
    b.add(
        "Which products need assembly?",
        L,
        names=[i.name for i in items if i.flag("is_assembly_required")],
    )
    b.add("Which items are heat sensitive?", L, names=[i.name for i in items if i.flag("is_heat_sensitive")])
    for colour in ("white", "silver", "blue"):
        b.add(
            f"Which products are {colour}?", L, names=[i.name for i in items if colour in i.values("color")], max_len=40
        )
    for material in ("plastic", "metal", "stainless steel", "wood", "cotton"):
        names = [i.name for i in items if material in i.values("material")]
        if names:
            b.add(f"Which products are made of {material}?", L, names=names)
    b.add("Which products include an AC adapter?", L, names=[i.name for i in items if i.flag("includes_ac_adapter")])

    # several conditions
    b.add(
        "Which products weigh under 1 kg and do not require batteries?",
        M,
        names=[i.name for i in weighed if i.kg("item_weight") < 1 and i.flag("batteries_required") is False],
    )
    b.add(
        "Which white products weigh less than 2 pounds?",
        M,
        names=[i.name for i in weighed if "white" in i.values("color") and i.kg("item_weight") < 2 * KG["pounds"]],
    )
    b.add(
        "Which products require batteries but do not include them?",
        M,
        names=[i.name for i in items if i.flag("batteries_required") and i.flag("batteries_included") is False],
    )
    b.add(
        "Which plastic products weigh under 500 grams?",
        M,
        names=[i.name for i in weighed if "plastic" in i.values("material") and i.kg("item_weight") < 0.5],
    )
    for brand in brands[:3]:
        pool = [i for i in by_brand[brand] if i.kg("item_package_weight") is not None]
        if pool:
            cut = statistics.median(i.kg("item_package_weight") for i in pool)
            names = [i.name for i in pool if i.kg("item_package_weight") > cut]
            if names:
                b.add(
                    f"Which {brand.title()} products have a package weight over {cut:.2f} kg?",
                    M,
                    names=names,
                )

    # counts and aggregates
    b.add("How many products require batteries?", A, value=sum(1 for i in items if i.flag("batteries_required")))
    b.add("How many products are white?", A, value=sum(1 for i in items if "white" in i.values("color")))
    b.add("How many items need assembly?", A, value=sum(1 for i in items if i.flag("is_assembly_required")))
    b.add(
        "How many products weigh more than 10 pounds?",
        A,
        value=sum(1 for i in weighed if i.kg("item_weight") > 10 * KG["pounds"]),
    )
    w = [i.kg("item_weight") for i in weighed]
    b.add("What is the average item weight, in kilograms?", A, value=round(statistics.mean(w), 2))
    names, _ = b.best(weighed, lambda i: i.kg("item_weight"))
    if len(names) > 1:
        b.add("Which product is the heaviest?", A, names=names)
    else:
        b.add("Which product is the heaviest?", A, value=names[0])
    names, _ = b.best(packed, lambda i: i.kg("item_package_weight"), low=True)
    if len(names) > 1:
        b.add("Which product has the lightest package?", A, names=names)
    else:
        b.add("Which product has the lightest package?", A, value=names[0])
    b.add(
        "What is the heaviest package weight, in kg?",
        A,
        value=round(max(i.kg("item_package_weight") for i in packed), 2),
    )
    for brand in brands[:3]:
        pool = [i for i in by_brand[brand] if i.kg("item_weight") is not None]
        if len(pool) >= 2:
            names, _ = b.best(pool, lambda i: i.kg("item_weight"), low=True)
            if len(names) == 1:
                b.add(f"Which {brand.title()} product is the lightest?", A, value=names[0])

    # two named products
    pairs = [(x, y) for x, y in zip(weighed[::7], weighed[3::7]) if x.kg("item_weight") != y.kg("item_weight")][:5]
    for x, y in pairs:
        win = max((x, y), key=lambda i: i.kg("item_weight"))
        b.add(f"Which is heavier: the {x.name} or the {y.name}?", G, value=win.name)
    both = [i for i in items if i.flag("batteries_required") is not None]
    yes = [i for i in both if i.flag("batteries_required")]
    no = [i for i in both if not i.flag("batteries_required")]
    for x, y in list(zip(yes, no))[:3]:
        b.add(f"Which of these needs batteries, the {y.name} or the {x.name}?", G, value=x.name)

    # single facts of one named product
    for i in weighed[1::40][:5]:
        b.add(f"How much does the {i.name} weigh, in kilograms?", R, value=round(i.kg("item_weight"), 3))
    for i in [i for i in items if i.values("color")][2::30][:4]:
        b.add(f"What colour is the {i.name}?", R, value=i.values("color")[0])
    for i in [i for i in items if i.flag("batteries_included") is not None][::25][:4]:
        b.add(f"Does the {i.name} come with batteries?", R, value="yes" if i.flag("batteries_included") else "no")
    return b.out


def write_catalog(items: list[Item], out: Path) -> None:
    rows = []
    for i in items:
        specs = {k.replace("_", " ").capitalize(): _render(k, v) for k, v in i.records.items()}
        specs = {k: v for k, v in specs.items() if v}
        rows.append({"name": i.name, "category": "Products", "price": "", "specs": specs, "page": "\n".join(i.prose)})
    dm.write_rows(rows, out, "pqa_e: one row per Amazon item; attributes as specs, bullets and description as the page")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write catalog.jsonl and mapping.yaml here")
    ap.add_argument("--check", action="store_true", help="questions.json is what this script writes")
    ap.add_argument("--show", action="store_true", help="print every question with its gold")
    args = ap.parse_args()
    items = load()
    qs = build_questions(items)
    doc = {str(n): q for n, q in enumerate(qs)}
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if args.out:
        write_catalog(items, Path(args.out))
    if args.show:
        for k, q in doc.items():
            print(k, q["category"], q["question"], "->", (q["gt_answer_list"] or q["gt_value"]))
    if args.check:
        assert QUESTIONS.read_text(encoding="utf-8") == text, "questions.json is stale"
    elif not args.out and not args.show:
        QUESTIONS.write_text(text, encoding="utf-8")
        print(f"{len(qs)} questions -> {QUESTIONS}")


if __name__ == "__main__":
    main()
