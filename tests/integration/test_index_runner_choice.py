"""Where the stages run: unchanged documents are found by hash in the driver, and a run with
few documents to convert stays in this process even with the Ray runner."""

import pytest

from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline import index as index_module
from dualgraph.pipeline import index_stages


def _pages(n, *, battery="5000 mAh"):
    return [
        (
            f"p{i}",
            f"# Phone {i}\n\nPhone {i} has NFC.",
            [
                Variant(
                    f"Phone {i}", f"Phone {i}", ("phones",), (("Battery:Capacity", battery if i == 0 else "4000 mAh"),)
                )
            ],
        )
        for i in range(n)
    ]


@pytest.fixture
def ray_calls(monkeypatch):
    calls = []
    original = index_module._run_on_ray

    def spy(stages, rows, config):
        calls.append(len(rows))
        return original(stages, rows, config)

    monkeypatch.setattr(index_module, "_run_on_ray", spy)
    return calls


def _config(**kw):
    kw.setdefault("ray_min_cpus", 1)
    return IndexConfig(runner="ray", progress=False, patterns=False, tkg={"enabled": False}, **kw)


def test_few_documents_to_convert_stay_in_process(tmp_path, ray_calls):
    write_dataset(tmp_path / "ds", _pages(3))
    m = index_module.build_index(tmp_path / "ds", tmp_path / "ix", _config(ray_min_documents=10))
    assert m["documents"]["converted"] == 3 and ray_calls == [] and m["converted_on"] == "inline"


def test_many_documents_go_to_ray_and_a_rerun_converts_only_the_changed_one_in_process(
    tmp_path, ray_calls, monkeypatch
):
    write_dataset(tmp_path / "ds", _pages(3))
    first = index_module.build_index(tmp_path / "ds", tmp_path / "ix", _config(ray_min_documents=2))
    assert first["documents"]["converted"] == 3 and ray_calls == [3] and first["converted_on"] == "ray"

    write_dataset(tmp_path / "ds", _pages(3, battery="6000 mAh"))  # only p0 changes
    hashed = []
    original = index_stages.content_hash

    def counting(meta, *a, **kw):
        hashed.append(meta.parent.name)
        return original(meta, *a, **kw)

    monkeypatch.setattr(index_stages, "content_hash", counting)
    again = index_module.build_index(tmp_path / "ds", tmp_path / "ix", _config(ray_min_documents=2))
    assert again["documents"]["converted"] == 1 and again["documents"]["unchanged"] == 2
    assert ray_calls == [3]  # the one changed document did not start Ray's workers
    # every known document hashed once, by the driver; the read stage hashes only the changed one again
    assert sorted(hashed) == ["file-p0", "file-p0", "file-p1", "file-p2"]


def test_a_local_machine_with_too_few_cpus_does_not_start_ray(tmp_path, ray_calls):
    write_dataset(tmp_path / "ds", _pages(3))
    cfg = _config(ray_min_documents=1, ray_min_cpus=10**6, local_processes=1)  # one process: this one
    m = index_module.build_index(tmp_path / "ds", tmp_path / "ix", cfg)
    assert m["documents"]["converted"] == 3 and ray_calls == [] and m["converted_on"] == "inline"


def test_a_small_machine_converts_in_a_process_pool_the_same_as_inline(tmp_path, ray_calls):
    write_dataset(tmp_path / "ds", _pages(7))
    pool = _config(ray_min_documents=1, ray_min_cpus=10**6, local_processes=2, batch_size=2)
    m = index_module.build_index(tmp_path / "ds", tmp_path / "pool", pool)
    assert m["converted_on"] == "processes" and ray_calls == [] and m["documents"]["converted"] == 7
    inline = index_module.build_index(
        tmp_path / "ds", tmp_path / "inline", pool.model_copy(update={"runner": "inline"})
    )
    assert inline["converted_on"] == "inline"

    def shards(ix):
        return sorted(p.read_text() for p in (ix / "skg" / "shards").glob("shard-*.nq"))

    assert shards(tmp_path / "pool") == shards(tmp_path / "inline") and len(shards(tmp_path / "pool")) == 4
    for key in ("products", "triples", "specs", "quarantined_records"):
        assert m[key] == inline[key], key


def test_a_failing_stage_in_a_worker_fails_the_run_with_its_error():
    from dualgraph.pipeline.stage import Stage, run_in_processes

    def boom(rows):
        raise ValueError(f"bad row {rows[0]['n_quads']}")

    with pytest.raises(ValueError, match="bad row 2"):
        run_in_processes([Stage("boom", needs=("n_quads",), adds=(), fn=boom)], [{"n_quads": 2}], workers=2)
    square = Stage(
        "sq", needs=("n_quads",), adds=("n_specs",), fn=lambda rows: [{"n_specs": r["n_quads"] ** 2} for r in rows]
    )
    got = run_in_processes([square], [{"n_quads": i} for i in range(9)], workers=2, batch_size=2)
    assert [r["n_specs"] for r in got] == [i * i for i in range(9)]
