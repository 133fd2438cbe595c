"""What the own question sets share: devmix's ``make_set.py`` loaded as a module (its catalog
builder, question ``Builder`` and command line serve every set over the same conventions) and
the five SpecsQA category names their questions carry.

The set scripts run as files (``python3 bench/own_sets/<set>/make_set.py``), so each puts this
folder on ``sys.path`` and imports from here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

__all__ = ["AGGREGATION", "GROUP", "INVERSE", "MULTI", "REASONING", "base_set", "devmix"]

INVERSE = "Inverse Queries"
MULTI = "Multi-Condition Queries"
GROUP = "Group Comparison Queries"
REASONING = "Reasoning Queries"
AGGREGATION = "Aggregation Queries"

_spec = importlib.util.spec_from_file_location("devmix", Path(__file__).resolve().parent / "devmix" / "make_set.py")
assert _spec is not None and _spec.loader is not None
devmix = importlib.util.module_from_spec(_spec)
sys.modules["devmix"] = devmix
_spec.loader.exec_module(devmix)


def base_set(name: str):
    """The ``make_set.py`` of set ``name`` loaded as a module (a set written over another set's
    catalogue reuses its ``load`` and ``write_catalog``, so both index the same products)."""
    spec = importlib.util.spec_from_file_location(
        f"{name}_make_set", Path(__file__).resolve().parent / name / "make_set.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"{name}_make_set"] = module
    spec.loader.exec_module(module)
    return module


def set_main(description: str, questions: Path, load, build, write_catalog) -> None:
    """The command line every new-domain set shares: ``--out DIR`` writes the catalog, ``--show``
    prints each question with its gold, ``--check`` fails if ``questions`` is stale, and no option
    rewrites ``questions``. ``load()`` reads the source, ``build(items)`` gives the question records,
    ``write_catalog(items, out)`` writes ``catalog.jsonl`` + ``mapping.yaml``."""
    import argparse
    import json

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--out", help="write catalog.jsonl and mapping.yaml here")
    ap.add_argument("--check", action="store_true", help="fail if questions.json is stale")
    ap.add_argument("--show", action="store_true", help="print every question with its gold")
    args = ap.parse_args()
    items = load()
    qs = build(items)
    doc = {str(n): q for n, q in enumerate(qs)}
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if args.out:
        write_catalog(items, Path(args.out))
    if args.show:
        for k, q in doc.items():
            gold = q["gt_answer_list"] if q["is_list"] else q["gt_value"]
            print(f"{k} [{q['category'][:5]}|{q['gt_retrieval_method']}] {q['question']}\n    -> {gold}")
    if args.check:
        sys.exit(0 if questions.read_text(encoding="utf-8") == text else f"{questions} is stale")
    if not args.out and not args.show:
        questions.write_text(text, encoding="utf-8")
        print(f"{len(qs)} questions over {len(items)} products -> {questions}")


class SetBuilder(devmix.Builder):
    """devmix's question records over one list of products (cameras, fridges, furniture): a list
    gold is sorted and holds 1..40 names, or none where the question is written to match nothing."""

    def __init__(self, items):
        super().__init__([], [])
        self.items = items

    def add(self, question, category, *, names=None, value=None, method="sparql", empty=False):
        if names is not None:
            names = sorted(set(names))
            assert (len(names) == 0) if empty else (1 <= len(names) <= 40), (question, len(names))
        super().add(question, category, method, names=names, value=value, min_len=0, max_len=40)

    def add_best(self, question, category, pool, key, *, low=False, method="sparql"):
        winners, _ = self.best(pool, key, low=low)
        names = [w.name for w in winners]
        if len(names) == 1:
            self.add(question, category, value=names[0], method=method)
        else:
            self.add(question, category, names=names, method=method)


class BoundedBuilder(devmix.Builder):
    """devmix's question records over one list of products (pcparts, bikes) with devmix's own
    bounds; a whole float value is written as an integer. ``debug=True`` prints a gold outside its
    bounds instead of failing (for choosing thresholds while writing a set)."""

    def __init__(self, items, *, debug: bool = False):
        super().__init__([], [])
        self.items, self.debug = items, debug

    def add(self, question, category, method="sparql", *, names=None, value=None, min_len=1, max_len=40):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        try:
            super().add(question, category, method, names=names, value=value, min_len=min_len, max_len=max_len)
        except AssertionError as e:
            if not self.debug:
                raise
            print("FAIL", e, file=sys.stderr)

    def named(self, name: str):
        (p,) = [p for p in self.items if p.name == name]
        return p

    def best_one(self, pool, key, *, low=False):
        winners, _ = self.best(pool, key, low=low)
        assert len(winners) == 1, [w.name for w in winners]
        return winners[0]


def clean_number(v: float) -> float | int:
    """``v`` rounded to 6 places, as an int when whole (gold values as a person writes them)."""
    v = round(v, 6)
    return int(v) if float(v).is_integer() else v
