"""The demo's own questions over the Smartprix CSV, gold computed from its rows.

The wording is ours (not from any evaluation set); each question carries a filter over the
CSV columns and the gold is computed from the rows, never typed in. The CSV is not in the
repository: it is read from the shared data folder (``smartprix-india-2025/smartphones_cleaned.csv``,
see ``dualgraph.shared_data``), and the questions are written where asked, at run time
(``scripts/demo.sh`` writes them into its run folder)::

    python3 samples/smartprix/make_questions.py OUT.json [--csv smartphones_cleaned.csv]

Standard library only when ``--csv`` is given; without it ``dualgraph`` finds the shared folder.
"""

import argparse
import csv
import json
import sys
from pathlib import Path

CSV_IN_SHARED_DATA = "smartprix-india-2025/smartphones_cleaned.csv"


def num(row, col):
    return float(row[col]) if row[col] not in ("", None) else None


def yes(row, col):
    return row[col] == "True"


def questions(rows):
    """The questions in the SpecsQA format (``{"0": {...}, ...}``), gold computed from ``rows``."""
    q = []

    def where(*tests):
        return [r for r in rows if all(t(r) for t in tests)]

    def arg(rows, col, best):
        vals = [num(r, col) for r in rows if num(r, col) is not None]
        target = best(vals)
        return [r for r in rows if num(r, col) == target]

    def add(question, category, *, rows=None, value=None):
        is_list = rows is not None
        names = [r["model"] for r in rows] if is_list else None
        assert not is_list or len(names) <= 40, (question, len(names))
        q.append({"question": question, "category": category, "gt_retrieval_method": "sparql", "is_list": is_list,
                  "objectivity": True, "source": None,
                  "gt_answer": ("; ".join(names) if names else "None.") if is_list else str(value),
                  "gt_answer_nl_generated": True, "gt_answer_list": names, "gt_value": value})

    lava = lambda r: r["brand"] == "lava"  # noqa: E731
    add("Which Lava phones have a refresh rate of 120 Hz or more?", "Inverse Queries",
        rows=where(lava, lambda r: (num(r, "refresh_rate_hz") or 0) >= 120))
    add("List the Infinix phones without NFC.", "Inverse Queries",
        rows=where(lambda r: r["brand"] == "infinix", lambda r: r["has_nfc"] == "False"))
    add("Which Honor phones have at least 12 GB of RAM?", "Inverse Queries",
        rows=where(lambda r: r["brand"] == "honor", lambda r: (num(r, "ram_gb") or 0) >= 12))
    add("Which Tecno 5G phones cost less than Rs 12,000 and have a battery of 6000 mAh or more?",
        "Multi-Condition Queries",
        rows=where(lambda r: r["brand"] == "tecno", lambda r: yes(r, "has_5g"), lambda r: num(r, "price_inr") < 12000,
                   lambda r: (num(r, "battery_mah") or 0) >= 6000))
    add("Which Samsung phones under 30k have 256 GB of storage and NFC?", "Multi-Condition Queries",
        rows=where(lambda r: r["brand"] == "samsung", lambda r: num(r, "price_inr") < 30000,
                   lambda r: num(r, "storage_gb") == 256, lambda r: yes(r, "has_nfc")))
    nothing = where(lambda r: r["brand"] == "nothing")
    add("How many Nothing phone listings are there in the catalog?", "Aggregation Queries", value=len(nothing))
    moto = where(lambda r: r["brand"] == "motorola")
    add("What is the largest display size, in inches, of any Motorola phone?", "Aggregation Queries",
        value=max(num(r, "display_inches") for r in moto))
    cheap = arg(where(lambda r: r["brand"] == "iqoo"), "price_inr", min)
    assert len(cheap) == 1
    add("Which is the cheapest iQOO phone?", "Aggregation Queries", value=cheap[0]["model"])
    budget = where(lambda r: num(r, "price_inr") < 10000, lambda r: yes(r, "has_5g"))
    add("On a budget of Rs 10,000, which 5G phones have the biggest battery?", "Reasoning Queries",
        rows=arg(budget, "battery_mah", max))
    return {str(i): x for i, x in enumerate(q)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="questions file to write (SpecsQA format)")
    ap.add_argument("--csv", type=Path, help=f"default: {CSV_IN_SHARED_DATA} in the shared data folder")
    args = ap.parse_args(argv)
    if args.csv is None:
        from dualgraph.shared_data import shared_data_dir

        args.csv = shared_data_dir() / CSV_IN_SHARED_DATA
    if not args.csv.is_file():
        print(f"make_questions: {args.csv} is absent (the CSV is read from the shared data folder)", file=sys.stderr)
        return 2
    with open(args.csv, newline="", encoding="utf-8") as f:
        out = questions(list(csv.DictReader(f)))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for k, q in out.items():
        gold = q["gt_answer_list"] if q["is_list"] else q["gt_value"]
        print(k, q["question"], "->", gold if not isinstance(gold, list) else f"{len(gold)} products")
    return 0


if __name__ == "__main__":
    sys.exit(main())
