"""The demo's own catalogue when no public data is at hand: generated, with questions and gold.

Writes ``OUT/dataset`` (a SpecsQA dataset made by ``bench/gen_catalog.py``: invented brands,
phones, tablets, laptops, headphones, smartwatches and TVs, spec values in the noisy shapes
real catalogues use and a prose page per product family) and ``OUT/questions.json`` (SpecsQA
format). The wording of the questions is ours; the brands they name and their gold answers are
computed from the generated variants' spec values, never typed in. Gold names product ranges
("Stiven Ledrux Z66", a range answering when any of its variants does), as answers do for a
catalog whose pages offer option pickers (SpecsQA's ``Variant features``; ``dualgraph ask
--names``). Same arguments, same files::

    .venv/bin/python samples/generated/make_sample.py OUT [--products 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import gen_catalog  # noqa: E402  (bench is a folder of scripts)

from dualgraph.corpus.model import Variant  # noqa: E402
from dualgraph.corpus.specsqa import write_dataset  # noqa: E402

MAX_LIST = 40  # like the Smartprix sample: a list answer of more names is no useful question


# ---- reading the generator's own value shapes -------------------------------------------


def spec(v: Variant, key: str) -> str | None:
    return dict(v.specs).get(key)


def first_number(text: str | None, pattern: str = r"(\d+(?:\.\d+)?)") -> float | None:
    m = re.search(pattern, text or "")
    return float(m.group(1)) if m else None


def price(v: Variant) -> float:
    value = first_number(spec(v, "Price"))
    assert value is not None, v.name
    return value


def battery_mah(v: Variant) -> float | None:
    return first_number(spec(v, "Battery:Type"), r"(\d+) ?mAh")


def refresh_hz(v: Variant) -> float | None:
    return first_number(spec(v, "Display:Refresh rate"), r"(\d+) ?Hz")


def display_inches(v: Variant) -> float | None:
    text = spec(v, "Display:Size")
    if text is None:
        return None
    if "(" in text:  # '16.5 cm (6.5")'
        return first_number(text.split("(", 1)[1])
    return first_number(text.replace(",", "."))  # '6.5 inches', '6,5"', '6.5-inch'


def grams(v: Variant) -> float | None:
    return first_number(spec(v, "Body:Weight"), r"(\d+) ?g\b")


def wireless_charging(v: Variant) -> bool:
    return (spec(v, "Battery:Wireless charging") or "").startswith("Yes")


def category(v: Variant) -> str:
    return v.categories[-1]


def brand(v: Variant) -> str:
    return v.prod_range.split(" ")[0]


# ---- the questions ---------------------------------------------------------------------------


def questions(variants: list[Variant]) -> dict[str, dict]:
    """The questions in the SpecsQA format, gold computed from ``variants``."""
    out: list[dict] = []

    def where(*tests: Callable[[Variant], bool]) -> list[Variant]:
        return [v for v in variants if all(t(v) for t in tests)]

    def arg(rows: list[Variant], key: Callable[[Variant], float | None], best: Callable) -> list[Variant]:
        target = best(x for v in rows if (x := key(v)) is not None)
        return [v for v in rows if key(v) == target]

    def add(question: str, kind: str, *, rows: list[Variant] | None = None, value: object = None) -> None:
        is_list = rows is not None
        names = list(dict.fromkeys(v.prod_range for v in rows)) if rows is not None else None
        assert names is None or 0 < len(names) <= MAX_LIST, (question, names)
        out.append(
            {
                "question": question,
                "category": kind,
                "gt_retrieval_method": "sparql",
                "is_list": is_list,
                "objectivity": True,
                "source": None,
                "gt_answer": "; ".join(names) if names else str(value),
                "gt_answer_nl_generated": True,
                "gt_answer_list": names,
                "gt_value": value,
            }
        )

    def top_brand(cat: str) -> str:
        return Counter(brand(v) for v in variants if category(v) == cat).most_common(1)[0][0]

    def is_(cat: str) -> Callable[[Variant], bool]:
        return lambda v: category(v) == cat

    def of(b: str) -> Callable[[Variant], bool]:
        return lambda v: brand(v) == b

    phone_brand, tablet_brand = top_brand("Mobile Phones"), top_brand("Tablets")
    add(
        f"Which {phone_brand} phones have a refresh rate of 120 Hz or more?",
        "Inverse Queries",
        rows=where(is_("Mobile Phones"), of(phone_brand), lambda v: (refresh_hz(v) or 0) >= 120),
    )
    add(
        "Which phones weigh less than 160 grams?",
        "Inverse Queries",
        rows=where(is_("Mobile Phones"), lambda v: (grams(v) or 1e9) < 160),
    )
    add(
        "Which tablets cost less than 500 pounds and have a battery of at least 9000 mAh?",
        "Multi-Condition Queries",
        rows=where(is_("Tablets"), lambda v: price(v) < 500, lambda v: (battery_mah(v) or 0) >= 9000),
    )
    add(
        "Which phones under 400 pounds support wireless charging?",
        "Multi-Condition Queries",
        rows=where(is_("Mobile Phones"), lambda v: price(v) < 400, wireless_charging),
    )
    add(
        "How many smartwatch models are there in the catalog?",
        "Aggregation Queries",
        value=len({v.prod_range for v in where(is_("Smartwatches"))}),
    )
    add(
        f"What is the largest display size, in inches, of any {tablet_brand} tablet?",
        "Aggregation Queries",
        value=max(x for v in where(is_("Tablets"), of(tablet_brand)) if (x := display_inches(v)) is not None),
    )
    cheapest = {v.prod_range for v in arg(where(is_("Laptops")), price, min)}
    assert len(cheapest) == 1, cheapest
    add("Which is the cheapest laptop?", "Aggregation Queries", value=cheapest.pop())
    add(
        "On a budget of 300 pounds, which phones have the biggest battery?",
        "Reasoning Queries",
        rows=arg(where(is_("Mobile Phones"), lambda v: price(v) <= 300), battery_mah, max),
    )
    return {str(i): q for i, q in enumerate(out)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="folder to write dataset/ and questions.json into")
    ap.add_argument("--products", type=int, default=200, help="product variants in all")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    dataset = args.out / "dataset"
    if dataset.exists() and any(dataset.iterdir()):
        print(f"make_sample: {dataset} is not empty", file=sys.stderr)
        return 2
    pages = list(gen_catalog.iter_pages(args.products, seed=args.seed))
    write_dataset(dataset, pages)
    qs = questions([v for _, _, variants in pages for v in variants])
    (args.out / "questions.json").write_text(json.dumps(qs, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(pages)} pages, {sum(len(v) for _, _, v in pages)} products in {dataset}")
    for k, q in qs.items():
        gold = q["gt_answer_list"] if q["is_list"] else q["gt_value"]
        print(k, q["question"], "->", gold if not isinstance(gold, list) else f"{len(gold)} product ranges")
    return 0


if __name__ == "__main__":
    sys.exit(main())
