"""dualgraph.shared_data: where the public data sets lie, and references into them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dualgraph import shared_data
from dualgraph.shared_data import ENV, missing, resolve, shared_data_dir


def test_the_default_is_beside_the_checkout(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    root = Path(__file__).resolve().parents[2]
    assert shared_data_dir() == root.parent / "shared" / "data"


def test_the_environment_variable_overrides(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV, str(tmp_path))
    assert shared_data_dir() == tmp_path
    assert missing() is None
    assert missing(["x/y.csv"]) == f"x/y.csv absent from the shared data folder {tmp_path}"


def test_an_absent_folder_says_why(tmp_path):
    reason = missing(["a.csv"], {ENV: str(tmp_path / "nope")})
    assert reason is not None and str(tmp_path / "nope") in reason and ENV in reason


@pytest.fixture
def data(tmp_path: Path) -> Path:
    (tmp_path / "set").mkdir()
    # a byte-order mark, a quoted line break, a doubled quote
    (tmp_path / "set" / "a.csv").write_text(
        '\ufeffmodel,spec\nA1,"6.5 inches,\n90 Hz"\nB2,"size:  { value:""33\\""l x 2\\""w"" }"\n', encoding="utf-8"
    )
    (tmp_path / "set" / "b.csv").write_text('id\tcandidate\n7\tweight:  { value:"2 pound" }\n', encoding="utf-8")
    lines = [{"attrs": {"Weight": "181 g"}}, {"attrs": {"Display": {"Size": '6.1"'}, "n": 3}}]
    (tmp_path / "set" / "c.ndjson").write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return tmp_path


def test_resolve_csv_rows_count_from_one_after_the_header(data):
    assert resolve({"file": "set/a.csv", "row": 1, "column": "model"}, data) == "A1"
    assert resolve({"file": "set/a.csv", "row": 1, "column": "spec"}, data) == "6.5 inches,\n90 Hz"
    assert resolve({"file": "set/a.csv", "row": 2, "column": "model"}, data) == "B2"
    with pytest.raises(ValueError, match="from 1"):
        resolve({"file": "set/a.csv", "row": 0, "column": "model"}, data)
    with pytest.raises(IndexError):
        resolve({"file": "set/a.csv", "row": 3, "column": "model"}, data)


def test_resolve_a_tab_separated_file_with_a_span(data):
    ref = {"file": "set/b.csv", "row": 1, "column": "candidate", "span": [18, 25]}
    assert resolve(ref, data) == "2 pound"
    with pytest.raises(ValueError, match="span outside"):
        resolve({**ref, "span": [18, 99]}, data)


def test_resolve_unescapes_backslashes_when_asked(data):
    ref = {"file": "set/a.csv", "row": 2, "column": "spec", "span": [16, 28]}
    assert resolve(ref, data) == '33\\"l x 2\\"w'
    assert resolve({**ref, "unescape": True}, data) == '33"l x 2"w'


def test_resolve_ndjson_by_line_and_key_path(data):
    assert resolve({"file": "set/c.ndjson", "line": 1, "key": ["attrs", "Weight"]}, data) == "181 g"
    assert resolve({"file": "set/c.ndjson", "line": 2, "key": ["attrs", "Display", "Size"]}, data) == '6.1"'
    with pytest.raises(ValueError, match="not a string"):
        resolve({"file": "set/c.ndjson", "line": 2, "key": ["attrs", "n"]}, data)


def test_the_command_prints_the_folder_and_fails_when_absent(tmp_path):
    run = [sys.executable, "-m", shared_data.__name__]
    ok = subprocess.run([*run, "x"], env={ENV: str(tmp_path)}, capture_output=True, text=True)
    assert ok.returncode == 1 and ok.stdout.strip() == str(tmp_path / "x")
    (tmp_path / "x").mkdir()
    ok = subprocess.run([*run, "x"], env={ENV: str(tmp_path)}, capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.strip() == str(tmp_path / "x")
