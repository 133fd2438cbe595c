"""Fit the reader's thresholds on some question sets, check them on others, write the fitted file.

    .venv/bin/python bench/fit_reader.py --fit cameras fridges bikes --check pcparts furniture [--write]

Each set is one of ``bench/own_sets/<name>/`` whose index ``run.py`` built under
``runs/own_sets/<name>`` (``<name>_after`` when that exists: an index rebuilt after a converter
change). One engine per set answers every question under each candidate setting (the settings
are read per question, so nothing is re-indexed or reloaded). The search is coordinate-wise:
each setting in turn takes the value that scores best on the fit sets' mean overall score, the
others held; a tie keeps the current value, so a setting moves only when the data say so.

Prints the score of every candidate, then the chosen settings on the fit sets and on the held-out
sets beside the current ones; ``--write`` stores them with that record in
``dualgraph/query/interpret/reader_config.yaml``. The held-out scores are the ones to believe.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dualgraph.api import DualGraph  # noqa: E402
from dualgraph.eval.inputs import load_questions  # noqa: E402
from dualgraph.eval.metrics import score_question  # noqa: E402
from dualgraph.query.interpret.beam import BeamConfig  # noqa: E402
from dualgraph.query.interpret.fitted import FitRecord, ReaderConfig, reader_config  # noqa: E402

CONFIG_FILE = ROOT / "dualgraph/query/interpret/reader_config.yaml"
GRID: dict[str, list[float]] = {
    "beam.none_score": [0.2, 0.3, 0.45],
    "beam.drop_below": [0.7, 0.8, 0.9],
    "min_confidence": [0.5, 0.6, 0.7],
    "empty_min_confidence": [0.7, 0.8, 0.9],
}


class SetRun:
    """One set's engine and questions, answered under any settings."""

    def __init__(self, name: str) -> None:
        index = ROOT / "runs/own_sets" / f"{name}_after" / "index"
        if not index.is_dir():
            index = ROOT / "runs/own_sets" / name / "index"
        if not (index / "manifest.json").is_file():
            raise SystemExit(f"{name}: no index at {index}: build it with bench/own_sets/run.py {name}")
        self.name = name
        self.questions = load_questions(ROOT / "bench/own_sets" / name / "questions.json")
        self.graph = DualGraph.open(index)
        self.engine = self.graph.engine

    def score(self, config: ReaderConfig) -> float:
        kit = self.engine.kit
        kit.symbolic.compiler.beam = config.beam
        kit.min_confidence, kit.empty_min_confidence = config.min_confidence, config.empty_min_confidence
        scores = [score_question(q, self.graph.ask(q.question)).score or 0.0 for q in self.questions.values()]
        return round(statistics.mean(scores), 4)


def with_value(config: ReaderConfig, key: str, value: float) -> ReaderConfig:
    if key.startswith("beam."):
        beam = config.beam.model_copy(update={key.split(".", 1)[1]: value})
        return config.model_copy(update={"beam": BeamConfig.model_validate(beam.model_dump())})
    return ReaderConfig.model_validate({**config.model_dump(), key: value})


def value_of(config: ReaderConfig, key: str) -> Any:
    return getattr(config.beam, key.split(".", 1)[1]) if key.startswith("beam.") else getattr(config, key)


def mean_score(runs: list[SetRun], config: ReaderConfig) -> tuple[float, dict[str, float]]:
    each = {r.name: r.score(config) for r in runs}
    return round(statistics.mean(each.values()), 4), each


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fit", nargs="+", required=True, help="sets the settings are chosen on")
    ap.add_argument("--check", nargs="*", default=[], help="held-out sets, scored only")
    ap.add_argument("--write", action="store_true", help=f"write the chosen settings to {CONFIG_FILE.name}")
    args = ap.parse_args()
    if set(args.fit) & set(args.check):
        raise SystemExit("a set cannot be both fitted on and held out")
    fit, held = [SetRun(n) for n in args.fit], [SetRun(n) for n in args.check]
    start = reader_config().model_copy(update={"fit": None})
    best, (best_mean, best_each) = start, mean_score(fit, start)
    baseline_each = dict(best_each)
    print(f"current settings: fit mean {best_mean:.4f} {best_each}")
    for key, values in GRID.items():
        for value in values:
            if value == value_of(best, key):
                continue
            candidate = with_value(best, key, value)
            m, each = mean_score(fit, candidate)
            print(f"  {key} = {value}: fit mean {m:.4f} {each}")
            if m > best_mean:
                best, best_mean, best_each = candidate, m, each
        print(f"{key} → {value_of(best, key)} (fit mean {best_mean:.4f})")
    held_before = {r.name: r.score(start) for r in held}
    held_after = {r.name: r.score(best) for r in held}
    print("\nheld-out sets (current → fitted):")
    for name in held_before:
        print(f"  {name}: {held_before[name]:.4f} → {held_after[name]:.4f}")
    chosen = {k: value_of(best, k) for k in GRID}
    print(f"chosen: {chosen}")
    if args.write:
        record = FitRecord(
            by="bench/fit_reader.py --fit "
            + " ".join(args.fit)
            + (" --check " + " ".join(args.check) if args.check else ""),
            date=datetime.date.today().isoformat(),
            fitted_on=best_each,
            checked_on=held_after,
            baseline={**baseline_each, **held_before},
        )
        out = best.model_copy(update={"fit": record}).model_dump(mode="json")
        head = "# Written by bench/fit_reader.py (see its docstring); the held-out scores are in fit.checked_on.\n"
        CONFIG_FILE.write_text(head + yaml.safe_dump(out, sort_keys=False, allow_unicode=True), encoding="utf-8")
        print(f"wrote {CONFIG_FILE.relative_to(ROOT)}")
    for r in fit + held:
        r.graph.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
