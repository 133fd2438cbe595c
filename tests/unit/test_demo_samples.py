"""The demo's question makers (scripts/demo.sh): gold computed from the catalog, never typed in.

``samples/generated/make_sample.py`` (no shared data) is checked on its own generated catalog;
``samples/smartprix/make_questions.py`` needs the public Smartprix CSV and skips without it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dualgraph import shared_data
from dualgraph.corpus.model import Variant
from dualgraph.eval.inputs import load_questions

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "samples" / "generated"))
sys.path.insert(0, str(ROOT / "bench"))  # gen_catalog, which make_sample imports
import gen_catalog  # noqa: E402
import make_sample  # noqa: E402

SMARTPRIX_CSV = "smartprix-india-2025/smartphones_cleaned.csv"
NO_SMARTPRIX = shared_data.missing([SMARTPRIX_CSV])


@pytest.fixture(scope="module")
def variants():
    return [v for _, _, vs in gen_catalog.iter_pages(200, seed=0) for v in vs]


def test_every_generated_shape_is_read(variants):
    """The readers the gold relies on understand every value shape the generator writes."""
    for v in variants:
        assert make_sample.price(v) > 0
        if make_sample.spec(v, "Display:Size") is not None:
            assert make_sample.display_inches(v) is not None, v.specs
        if make_sample.category(v) in ("Mobile Phones", "Tablets"):
            assert make_sample.battery_mah(v) is not None, v.specs
            assert make_sample.refresh_hz(v) is not None, v.specs
            assert make_sample.grams(v) is not None, v.specs


def test_readers_on_each_shape():
    def one(key, value):
        return Variant("X Y Z 64GB", "X Y Z", ("Mobile Phones",), ((key, value), ("Price", "1.00 GBP")))

    for text in ("6.5 inches", '6,5"', '16.5 cm (6.5")', "6.5-inch"):
        assert make_sample.display_inches(one("Display:Size", text)) == 6.5, text
    for text in ("181 g (6.38 oz)", "181 g", "181g"):
        assert make_sample.grams(one("Body:Weight", text)) == 181, text
    for text in ("Li-Po 5000 mAh", "5000mAh Li-Ion, non-removable", "Non-removable Li-Po 5000 mAh battery"):
        assert make_sample.battery_mah(one("Battery:Type", text)) == 5000, text
    assert make_sample.wireless_charging(one("Battery:Wireless charging", "Yes, 15W"))
    assert not make_sample.wireless_charging(one("Battery:Wireless charging", "No"))


def test_generated_sample_questions(tmp_path: Path, variants):
    run = subprocess.run(
        [sys.executable, str(ROOT / "samples" / "generated" / "make_sample.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "77 pages, 200 products" in run.stdout
    questions = load_questions(tmp_path / "questions.json")
    assert len(questions) == 8
    ranges = {v.prod_range for v in variants}
    for q in questions.values():
        gold = q.gt_answer_list if q.is_list else [q.gt_value]
        assert gold, q
        if q.is_list:
            assert set(gold) <= ranges, q  # answers name product ranges on this catalog
    again = tmp_path / "again"
    subprocess.run([sys.executable, str(ROOT / "samples" / "generated" / "make_sample.py"), str(again)], check=True)
    assert (again / "questions.json").read_bytes() == (tmp_path / "questions.json").read_bytes()
    # a dataset already there is refused, not mixed with a new one
    refused = subprocess.run([sys.executable, str(ROOT / "samples" / "generated" / "make_sample.py"), str(again)])
    assert refused.returncode == 2


def test_the_gold_follows_the_catalog(variants):
    light = make_sample.questions(variants)["1"]
    assert light["question"] == "Which phones weigh less than 160 grams?"
    phones = [v for v in variants if make_sample.category(v) == "Mobile Phones"]
    want = {v.prod_range for v in phones if (make_sample.grams(v) or 1e9) < 160}
    assert want and set(light["gt_answer_list"]) == want
    fewer = [v for v in variants if v.prod_range != sorted(want)[0]]
    assert set(make_sample.questions(fewer)["1"]["gt_answer_list"]) == want - {sorted(want)[0]}


@pytest.mark.skipif(NO_SMARTPRIX is not None, reason=f"the Smartprix questions' CSV: {NO_SMARTPRIX}")
def test_smartprix_questions_from_the_shared_csv(tmp_path: Path):
    out = tmp_path / "questions.json"
    subprocess.run(
        [sys.executable, str(ROOT / "samples" / "smartprix" / "make_questions.py"), str(out)],
        capture_output=True,
        check=True,
    )
    questions = load_questions(out)
    assert len(questions) == 9
    assert questions["5"].gt_value == 14  # Nothing listings in the late-2025 snapshot
    assert questions["7"].gt_value == "iQOO Z10 Lite"


def test_smartprix_questions_say_when_the_csv_is_absent(tmp_path: Path):
    run = subprocess.run(
        [sys.executable, str(ROOT / "samples" / "smartprix" / "make_questions.py"), str(tmp_path / "q.json")],
        env={shared_data.ENV: str(tmp_path / "nope")},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "absent" in run.stderr and not (tmp_path / "q.json").exists()
