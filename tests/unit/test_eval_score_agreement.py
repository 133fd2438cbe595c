"""Our metrics agree with the dev sets' reference scorer (``shared/eval/score.py``) number for number.

The reference scorer and the real dev questions live outside this repository, next to the
checkout; on a clean clone they are absent and these tests skip. Nothing is copied from
there: the first test uses the hand-made fixture questions, the second the real dev sets
with predictions derived from their gold and perturbed (items dropped, wrong items added,
names mangled, titles for ids, wrong or comma-formatted numbers, missing keys).
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from dualgraph.eval.evaluate import evaluate

SHARED_EVAL = Path(__file__).resolve().parents[2].parent / "shared" / "eval"
SCORE_PY = SHARED_EVAL / "score.py"
FIXTURE_QUESTIONS = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "questions.json"


@pytest.fixture(scope="module")
def reference():
    if not SCORE_PY.is_file():
        pytest.skip(f"the reference scorer is not here ({SCORE_PY})")
    spec = importlib.util.spec_from_file_location("reference_score", SCORE_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_predictions(tmp_path: Path, questions: dict, predictions: dict) -> tuple[Path, Path]:
    """The same predictions twice: score.py's JSON object and our answers JSONL."""
    ref = tmp_path / "predictions.json"
    ref.write_text(json.dumps(predictions, ensure_ascii=False), encoding="utf-8")
    ours = tmp_path / "answers.jsonl"
    with ours.open("w", encoding="utf-8") as fh:
        for key, pred in predictions.items():
            is_list = questions[key]["is_list"]
            record = {
                "id": key,
                "question": questions[key]["question"],
                "strategy": "test",
                "answer_list": pred if is_list else None,
                "value": None if is_list else pred,
            }
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return ref, ours


def assert_agree(reference, questions_path: Path, ref_path: Path, ours_path: Path) -> dict:
    questions = json.loads(questions_path.read_text(encoding="utf-8"))
    expected = reference.score(questions, json.loads(ref_path.read_text(encoding="utf-8")))
    got = evaluate(questions_path, ours_path)
    s = got.summary
    assert got.n_questions == expected["n_questions"]
    for ours, theirs in [
        (s.list_precision, "list_precision"),
        (s.list_recall, "list_recall"),
        (s.list_f1, "list_f1"),
        (s.value_accuracy, "value_accuracy"),
        (s.overall, "overall"),
    ]:
        if expected[theirs] is None:
            assert ours is None, theirs
        else:
            assert ours == pytest.approx(expected[theirs], abs=1e-12), theirs
    assert {c: round(g.overall, 4) for c, g in got.by_category.items()} == expected["by_category"]
    return expected


def test_agreement_on_hand_made_predictions(reference, tmp_path):
    questions = json.loads(FIXTURE_QUESTIONS.read_text(encoding="utf-8"))
    predictions = {
        "0": ["ACME one (8GB RAM + 128GB)", "Acme Two", "Acme Two", "Acme Nine"],
        "1": [],
        "2": ["Bolt 5G", "  comet  neo 5g "],
        "3": "12,999",
        "4": 3.0,
        "5": "acme one (12gb ram + 256gb)",
        "6": ["Washer Spin 8 kg", "1001", "1003"],
        "7": "laptop air 13 (1.1 kg)",
        # "8" is missing: an empty answer for both scorers
    }
    ref, ours = write_predictions(tmp_path, questions, predictions)
    expected = assert_agree(reference, FIXTURE_QUESTIONS, ref, ours)
    assert 0 < expected["overall"] < 1  # neither trivial end: the comparison means something


def perturb(questions: dict, seed: int) -> dict:
    """Predictions from the gold, damaged at random (a fixed seed: the same run every time)."""
    rng = random.Random(seed)
    out: dict = {}
    for key, q in questions.items():
        if rng.random() < 0.1:
            continue  # missing
        titles = q.get("gt_answer_titles") or []
        if q["is_list"]:
            names = list(q["gt_answer_list"])
            aliases = dict(zip(names, titles))
            names = [n for n in names if rng.random() > 0.25]  # drop some
            names = [aliases[n] if n in aliases and rng.random() < 0.5 else n for n in names]
            names = [n.upper() if rng.random() < 0.2 else n for n in names]
            names += [f"Not A Product {i}" for i in range(rng.choice([0, 0, 1, 3]))]
            if names and rng.random() < 0.2:
                names.append(names[0])  # a duplicate
            out[key] = names
        else:
            gold = q["gt_value"]
            roll = rng.random()
            if isinstance(gold, (int, float)):
                out[key] = [gold, gold + 1, f"{gold:,}", str(gold), "n/a"][int(roll * 5)]
            else:
                out[key] = [
                    gold,
                    str(gold).lower(),
                    titles[0] if titles else gold,
                    "Some Other Product",
                    "  " + str(gold) + " ",
                ][int(roll * 5)]
    return out


@pytest.mark.parametrize("dataset", ["smartprix", "icecat"])
def test_agreement_on_the_real_dev_sets(reference, tmp_path, dataset):
    path = SHARED_EVAL / dataset / "questions.json"
    if not path.is_file():
        pytest.skip(f"the {dataset} dev set is not here ({path})")
    questions = json.loads(path.read_text(encoding="utf-8"))
    overalls = set()
    for seed in range(6):
        work = tmp_path / str(seed)
        work.mkdir()
        ref, ours = write_predictions(work, questions, perturb(questions, seed))
        overalls.add(round(assert_agree(reference, path, ref, ours)["overall"], 6))
    gold = {k: (q["gt_answer_list"] if q["is_list"] else q["gt_value"]) for k, q in questions.items()}
    ref, ours = write_predictions(tmp_path, questions, gold)
    assert assert_agree(reference, path, ref, ours)["overall"] == 1.0
    assert len(overalls) > 1  # the perturbations really vary the score
