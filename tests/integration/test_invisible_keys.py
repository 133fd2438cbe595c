"""Invisible characters (Unicode format, Cf) in a spec key or a question change nothing that is
matched: a hostile key with a zero-width character inside is the same entry as the plain one,
and a question with such characters is answered as the plain question.

Real parts: a dataset directory on disk, an index built in-process (inline runner, Symbolic KG
only), the QA engine reading questions.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dualgraph.answer.engine import AskConfig, QAEngine
from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.pipeline.index import build_index

# U+180E (Mongolian vowel separator) and U+E0020 (tag space): zero-width format characters that
# the old hand-kept list of invisible characters missed
HIDDEN = "\u180e"
TAG = "\U000e0020"
PHONES = {
    "Alpha One": {"Battery:Capacity": "5000 mAh", "Network:5G": "Yes"},
    "Beta Two": {"Battery:Capacity": "4000 mAh", "Network:5G": "Yes"},
    # the same spec with a zero-width character inside the key: it must join the real entry
    "Gamma Three": {f"Bat{HIDDEN}tery:Capacity": "5000 mAh", "Network:5G": "No"},
    "Delta Four": {f"Battery{TAG}:Capa{HIDDEN}city": "4000 mAh", "Network:5G": "No"},
}


def _dataset(root: Path) -> Path:
    for i, (name, specs) in enumerate(PHONES.items()):
        fid = f"file-p{i}"
        d = root / fid
        d.mkdir(parents=True)
        (d / f"part-p{i}.md").write_text(f"# {name}\n\nA phone.\n", encoding="utf-8")
        (d / f"inject-p{i}.json").write_text(
            json.dumps([{"name": name, "categories": ["Phones"], "specs": specs}], ensure_ascii=False),
            encoding="utf-8",
        )
        meta = {
            "id": fid,
            "type": "fs:file",
            "content": [{"id": f"part-p{i}", "path": f"{fid}/part-p{i}.md", "path_textualized": f"{fid}/part-p{i}.md"}],
            "name": f"p{i}.md",
            "path": f"{fid}/part-p{i}.md",
            "prescience": [{"format": "rawspecs", "path": f"{fid}/inject-p{i}.json"}],
        }
        (d / f"{fid}.json").write_text(json.dumps(meta), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    root = tmp_path_factory.mktemp("invisible")
    ds = _dataset(root / "ds")
    config = IndexConfig(runner="inline", progress=False, tkg=TkgConfig(enabled=False))
    manifest = build_index(ds, root / "ix", config)
    assert manifest["products"] == len(PHONES)
    eng = QAEngine.open(root / "ix", AskConfig(strategy="skg"))
    yield eng
    eng.close()


def test_a_key_with_a_zero_width_character_is_the_real_entry(engine):
    record = engine.answer("Which phones have a 5000 mAh battery?")
    assert record.error is None
    assert set(record.answer_list) == {"Alpha One", "Gamma Three"}
    record = engine.answer("Which phones have a 4000 mAh battery?")
    assert set(record.answer_list) == {"Beta Two", "Delta Four"}


def test_a_question_with_format_characters_is_read_as_the_plain_one(engine):
    plain = engine.answer("Which phones have a 5000 mAh battery?")
    hostile = engine.answer(f"Which phones have a 50{HIDDEN}00 mAh bat\u200btery{TAG}?")
    assert hostile.error is None and set(hostile.answer_list) == set(plain.answer_list)
    assert HIDDEN in hostile.question  # the record keeps the question as it was asked
