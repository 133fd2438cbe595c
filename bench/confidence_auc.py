"""Does confidence predict correctness? The AUC of answer confidence for right vs wrong answers.

    .venv/bin/python bench/confidence_auc.py QUESTIONS.json ANSWERS.jsonl [QUESTIONS2.json ANSWERS2.jsonl ...]

An answer is right when its score (list F1, or value correct) is at least ``--right`` (0.8), wrong
below ``--wrong`` (0.5); answers in between count in neither. The AUC is the chance that a right
answer carries a higher confidence than a wrong one (ties count half): 0.5 is no signal, 1.0 a
perfect ranking. The fallback and the router both trust this confidence, so it should be high.
The confidence is the one the answer record carries (``evidence.confidence``; none = 0).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dualgraph.eval.inputs import load_answers, load_questions
from dualgraph.eval.metrics import score_question


def auc(right: list[float], wrong: list[float]) -> float | None:
    """Mann-Whitney AUC: share of (right, wrong) pairs where the right one is more confident.

    >>> auc([0.9, 0.8], [0.1, 0.85])
    0.75
    >>> auc([0.5], [0.5])
    0.5
    """
    if not right or not wrong:
        return None
    wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return wins / (len(right) * len(wrong))


def pairs(questions: Path, answers: Path) -> list[tuple[float, float]]:
    """(confidence, score) per question."""
    qs = load_questions(questions)
    records, _ = load_answers(answers)
    out = []
    for qid, q in qs.items():
        rec = records.get(qid)
        row = score_question(q, rec)
        conf = (rec.evidence.confidence if rec is not None and rec.evidence else None) or 0.0
        out.append((float(conf), float(row.score or 0.0)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="QUESTIONS.json ANSWERS.jsonl pairs")
    ap.add_argument("--right", type=float, default=0.8)
    ap.add_argument("--wrong", type=float, default=0.5)
    args = ap.parse_args()
    if len(args.files) % 2:
        ap.error("give QUESTIONS.json ANSWERS.jsonl pairs")
    every: list[tuple[float, float]] = []
    for qf, af in zip(args.files[::2], args.files[1::2]):
        got = pairs(Path(qf), Path(af))
        every += got
        right = [c for c, s in got if s >= args.right]
        wrong = [c for c, s in got if s < args.wrong]
        a = auc(right, wrong)
        print(f"{af}: AUC {'-' if a is None else f'{a:.3f}'}  ({len(right)} right, {len(wrong)} wrong)")
    if len(args.files) > 2:
        right = [c for c, s in every if s >= args.right]
        wrong = [c for c, s in every if s < args.wrong]
        a = auc(right, wrong)
        print(f"all: AUC {'-' if a is None else f'{a:.3f}'}  ({len(right)} right, {len(wrong)} wrong)")


if __name__ == "__main__":
    main()
