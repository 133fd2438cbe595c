"""The Smartprix dev questions over the raw catalog vs over the cleaned one, side by side.

The raw CSV is what the shop page says ("8 GB RAM, 128 GB inbuilt", "5000 mAh Battery with
33W Fast Charging"); the cleaned CSV is one typed column per fact. Both are imported with
``dualgraph import-table`` (the raw one with ``samples/smartprix/mapping_raw.yaml``, which only
names each column's section), indexed, answered and scored with the same strategy.

    .venv/bin/python bench/smartprix_raw.py [--out runs/raw] [--strategy skg+tkg_fb] [--strategy skg]

Needs ``../shared`` beside the checkout: the data (``dualgraph.shared_data``) and the dev questions.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

from dualgraph.shared_data import shared_data_dir

ROOT = Path(__file__).resolve().parents[1]
DATA = shared_data_dir() / "smartprix-india-2025"
QUESTIONS = ROOT.parent / "shared" / "eval" / "smartprix" / "questions.json"
CLI = [sys.executable, "-m", "dualgraph.cli"]


def raw_rows_like_cleaned(out: Path) -> Path:
    """The raw rows whose model the cleaned CSV has (first of exact duplicates): 758 rows."""
    with open(DATA / "smartphones_cleaned.csv", encoding="utf-8", newline="") as f:
        models = {r["model"] for r in csv.DictReader(f)}
    with open(DATA / "smartphones_raw.csv", encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        fields, seen, rows = reader.fieldnames or [], set(), []
        for r in reader:
            if r["model"] in models and r["model"] not in seen:
                seen.add(r["model"])
                rows.append(r)
    path = out / "smartphones_raw_758.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    print(f"raw rows kept: {len(rows)} of the cleaned CSV's {len(models)} models", file=sys.stderr)
    return path


def run(*args: str | Path) -> str:
    return subprocess.run([*CLI, *map(str, args)], check=True, capture_output=True, text=True, cwd=ROOT).stdout


def build(name: str, csv_path: Path, mapping: Path, out: Path, *, reuse: bool = False) -> Path:
    ds, index = out / name / "dataset", out / name / "index"
    if reuse and (index / "manifest.json").exists():
        return index
    run("import-table", csv_path, "--mapping", mapping, "--out", ds, "--no-progress")
    run("index", ds, "--index", index, "--runner", "inline", "--no-progress")
    manifest = json.loads((index / "manifest.json").read_text())
    print(f"{name}: values kept as text {manifest.get('values_kept_as_text')}", file=sys.stderr)
    return index


def score(name: str, index: Path, strategy: str, out: Path) -> dict:
    answers = out / name / f"answers-{strategy}.jsonl"
    run(
        "ask",
        "--index",
        index,
        "--questions",
        QUESTIONS,
        "--out",
        answers,
        "--strategy",
        strategy,
        "--runner",
        "inline",
        "--no-resume",
        "--no-progress",
    )
    report = out / name / f"report-{strategy}"
    run("eval", "--questions", QUESTIONS, "--answers", answers, "--report", report)
    return json.loads((report / "metrics.json").read_text())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "runs" / "smartprix_raw"))
    ap.add_argument("--strategy", action="append", default=[])
    ap.add_argument("--reuse", action="store_true", help="answer over indexes already built under --out")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    strategies = args.strategy or ["skg+tkg_fb", "skg"]
    raw = build("raw", raw_rows_like_cleaned(out), ROOT / "samples/smartprix/mapping_raw.yaml", out, reuse=args.reuse)
    cleaned = build(
        "cleaned", DATA / "smartphones_cleaned.csv", ROOT / "samples/smartprix/mapping.yaml", out, reuse=args.reuse
    )
    result = {}
    for s in strategies:
        for name, index in (("cleaned", cleaned), ("raw", raw)):
            result[(name, s)] = score(name, index, s, out)
    print(f"{'strategy':12s} {'catalog':8s} {'overall':>8s} {'list F1':>8s} {'value acc':>9s}")
    for (n, s), m in result.items():
        x = m["summary"]
        print(f"{s:12s} {n:8s} {x['overall']:8.3f} {x['list_f1']:8.3f} {x['value_accuracy']:9.3f}")


if __name__ == "__main__":
    main()
