"""Score an own question set: build its catalog, index it, answer, evaluate, per category.

    .venv/bin/python bench/own_sets/run.py devmix [--strategy skg+tkg_fb] [--strategy tkg] [--reuse]

Each set lives in ``bench/own_sets/<name>/``: ``make_set.py --out DIR`` writes the catalog
(``catalog.jsonl`` + ``mapping.yaml``) and ``questions.json`` holds the gold computed from the
source fields. Prints overall / list-F1 / value accuracy per strategy and per category, and the
p50/p90 answer latency.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dualgraph.cli"]


def run(*args: str | Path) -> str:
    return subprocess.run([*CLI, *map(str, args)], check=True, capture_output=True, text=True, cwd=ROOT).stdout


def build(name: str, out: Path, *, reuse: bool) -> Path:
    index, cat = out / "index", out / "catalog"
    if reuse and (index / "manifest.json").exists():
        return index
    subprocess.run(
        [sys.executable, str(ROOT / "bench/own_sets" / name / "make_set.py"), "--out", str(cat)], check=True, cwd=ROOT
    )
    return index_catalog(cat, out)


def index_catalog(cat: Path, out: Path) -> Path:
    """``cat``'s catalog.jsonl + mapping.yaml imported into ``out/dataset`` and indexed into ``out/index``."""
    ds, index = out / "dataset", out / "index"
    run("import-table", cat / "catalog.jsonl", "--mapping", cat / "mapping.yaml", "--out", ds, "--no-progress")
    run("index", ds, "--index", index, "--runner", "inline", "--no-progress")
    return index


def answer(index: Path, questions: Path, strategy: str, out: Path) -> Path:
    answers = out / f"answers-{strategy}.jsonl"
    run(
        "ask", "--index", index, "--questions", questions, "--out", answers, "--strategy", strategy,
        "--runner", "inline", "--no-resume", "--no-progress",
    )  # fmt: skip
    return answers


def show(label: str, r: dict) -> None:
    x, lat = r["summary"], r.get("latency") or {}
    print(f"{label}: overall {x['overall']:.3f}  list F1 {_f(x['list_f1'])}  value acc {_f(x['value_accuracy'])}")
    print(f"  latency p50 {lat.get('p50', 0) * 1000:.0f} ms  p90 {lat.get('p90', 0) * 1000:.0f} ms  (n={x['n']})")
    for group in ("by_category", "by_method"):
        for key, v in sorted(r.get(group, {}).items()):
            print(f"  {key:26s} overall {v['overall']:.3f}  (n={v['n']})")


def _f(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name", help="set name: a folder under bench/own_sets/")
    ap.add_argument("--out", help="work folder (default runs/own_sets/NAME)")
    ap.add_argument("--strategy", action="append", default=[])
    ap.add_argument("--reuse", action="store_true", help="answer over an index already built under --out")
    args = ap.parse_args()
    out = Path(args.out or ROOT / "runs" / "own_sets" / args.name)
    out.mkdir(parents=True, exist_ok=True)
    qpath = ROOT / "bench/own_sets" / args.name / "questions.json"
    index = build(args.name, out, reuse=args.reuse)
    strategies = args.strategy or ["skg+tkg_fb"]
    files = [answer(index, qpath, s, out) for s in strategies]
    report = out / "report"
    run("eval", "--questions", qpath, *[a for f in files for a in ("--answers", f)], "--report", report)
    metrics = json.loads((report / "metrics.json").read_text())
    results = metrics.get("results") or {strategies[0]: metrics}
    for label, r in results.items():
        show(label, r)


if __name__ == "__main__":
    main()
