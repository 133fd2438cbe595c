"""Index stages as plain functions over rows (no Ray), and the stage contract checks."""

from pathlib import Path

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index_stages import convert_stage, read_stage, shard_stage
from dualgraph.pipeline.stage import ContractError, Stage, run_inline

V = Variant("Phone A", "Phone", ("phones",), (("Battery:Capacity", "5000 mAh"),))


def test_contract_catches_missing_columns_and_lost_or_extra_rows():
    needs_text = Stage("s", needs=("text",), adds=("n_quads",), fn=lambda rows: [{"n_quads": 1} for _ in rows])
    with pytest.raises(ContractError, match="lacks columns"):
        needs_text.run([{"source": "x"}])
    lossy = Stage("lossy", needs=(), adds=("n_quads",), fn=lambda rows: [{"n_quads": 1}] * (len(rows) - 1))
    with pytest.raises(ContractError, match="returned 1 rows for 2"):
        lossy.run([{}, {}])
    silent = Stage("silent", needs=(), adds=("n_quads",), fn=lambda rows: [{} for _ in rows])
    with pytest.raises(ContractError, match="did not produce"):
        silent.run([{}])


def test_a_column_of_the_wrong_type_or_shape_names_the_stage_column_and_row():
    flat = Stage("flat", needs=(), adds=("problems",), fn=lambda rows: [{"problems": r["p"]} for r in rows])
    flat.run([{"p": []}, {"p": [{"file": "f", "record": "r", "stage": "read", "reason": "why"}]}])
    with pytest.raises(TypeError, match=r"stage 'flat' wrote column 'problems' .* row 1 holds '\[\]'"):
        flat.run([{"p": []}, {"p": "[]"}])  # JSON text where a list of problems belongs
    with pytest.raises(KeyError, match="no index column 'y' is declared"):
        Stage("undeclared", needs=(), adds=("y",), fn=lambda rows: rows)


def test_run_inline_batches_and_keeps_order():
    st = Stage(
        "sq", needs=("n_quads",), adds=("n_specs",), fn=lambda rows: [{"n_specs": r["n_quads"] ** 2} for r in rows]
    )
    out = run_inline([st], [{"n_quads": i} for i in range(10)], batch_size=3)
    assert [r["n_specs"] for r in out] == [i * i for i in range(10)]


def test_a_stage_on_ray_data_batches_returns_typed_arrow_tables():
    import pyarrow as pa

    from dualgraph.pipeline.columns import VARIANT
    from dualgraph.pipeline.index_stages import convert_stage

    row = {
        "doc_id": "a",
        "source": "s",
        "status": "ok",
        "problems": [],
        "content_hash": "h",
        "variants": [V.to_row()],
        "text": "page",
    }
    out = convert_stage.for_ray()(pa.Table.from_pylist([row]))
    assert out.num_rows == 1 and "variants" not in out.column_names and "text" not in out.column_names
    assert out.schema.field("value_rows").type.value_type.field("entry").type == pa.string()
    assert out.schema.field("n_quads").type == pa.int64() and out.column("n_products").to_pylist() == [1]
    assert pa.types.is_struct(VARIANT)


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
    assert "nquads" not in by["file-a"] and "variants" not in by["file-a"]
    assert by["file-a"]["n_products"] == 1 and by["file-b"]["shard_path"] == ""
    assert by["file-c"]["problems"][0]["reason"].startswith(str(tmp_path / "ds" / "file-c" / "file-c.json"))
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
