"""Index stages as plain functions over rows (no Ray), and the stage contract checks."""

import json
from pathlib import Path

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index_stages import convert_stage, read_stage, shard_stage
from dualgraph.pipeline.stage import ContractError, Stage, run_inline

V = Variant("Phone A", "Phone", ("phones",), (("Battery:Capacity", "5000 mAh"),))


def test_contract_catches_missing_columns_and_lost_or_extra_rows():
    needs_x = Stage("s", needs=("x",), adds=("y",), fn=lambda rows: [{"y": 1} for _ in rows])
    with pytest.raises(ContractError, match="lacks columns"):
        needs_x.run([{"z": 1}])
    lossy = Stage("lossy", needs=(), adds=("y",), fn=lambda rows: [{"y": 1}] * (len(rows) - 1))
    with pytest.raises(ContractError, match="returned 1 rows for 2"):
        lossy.run([{}, {}])
    silent = Stage("silent", needs=(), adds=("y",), fn=lambda rows: [{} for _ in rows])
    with pytest.raises(ContractError, match="did not produce"):
        silent.run([{}])


def test_run_inline_batches_and_keeps_order():
    st = Stage("sq", needs=("x",), adds=("y",), fn=lambda rows: [{"y": r["x"] ** 2} for r in rows])
    out = run_inline([st], [{"x": i} for i in range(10)], batch_size=3)
    assert [r["y"] for r in out] == [i * i for i in range(10)]


def _rows(tmp_path):
    write_dataset(tmp_path, [("a", "text", [V]), ("b", "", [])])
    (tmp_path / "file-c").mkdir()
    (tmp_path / "file-c" / "file-c.json").write_text("[1, 2")
    return [{"meta_path": f"file-{k}/file-{k}.json"} for k in "abc"]


def test_read_convert_shard_over_plain_rows(tmp_path):
    rows = _rows(tmp_path / "ds")
    read = read_stage(str(tmp_path / "ds"), previous={})
    out = run_inline([read, convert_stage, shard_stage(str(tmp_path))], rows)
    by = {r["doc_id"]: r for r in out}
    assert [by[k]["status"] for k in ("file-a", "file-b", "file-c")] == ["ok", "ok", "quarantined"]
    assert "nquads" not in by["file-a"] and "variants_json" not in by["file-a"]
    assert by["file-a"]["n_products"] == 1 and by["file-b"]["shard_path"] == ""
    assert json.loads(by["file-c"]["problems_json"])[0]["reason"].startswith(
        str(tmp_path / "ds" / "file-c" / "file-c.json")
    )
    shard = by["file-a"]["shard_path"]
    text = Path(shard).read_text()
    assert text.count("\n") == by["file-a"]["n_quads"] and "5000" in text
    # the same input names the same shard (a rerun after a crash reuses it)
    again = run_inline([read, convert_stage, shard_stage(str(tmp_path))], rows)
    assert {r["doc_id"]: r["shard_path"] for r in again}["file-a"] == shard


def test_unchanged_documents_are_not_converted(tmp_path):
    rows = _rows(tmp_path / "ds")
    first = run_inline([read_stage(str(tmp_path / "ds"), previous={})], rows)
    previous = {r["meta_path"]: r["content_hash"] for r in first}
    out = run_inline([read_stage(str(tmp_path / "ds"), previous), convert_stage], rows)
    ok = [r for r in out if r["doc_id"] != "file-c"]
    assert {r["status"] for r in ok} == {"unchanged"} and all(r["nquads"] == "" for r in ok)
