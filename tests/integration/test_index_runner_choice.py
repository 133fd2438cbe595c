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


def test_a_local_machine_with_too_few_cpus_converts_in_process(tmp_path, ray_calls):
    write_dataset(tmp_path / "ds", _pages(3))
    m = index_module.build_index(tmp_path / "ds", tmp_path / "ix", _config(ray_min_documents=1, ray_min_cpus=10**6))
    assert m["documents"]["converted"] == 3 and ray_calls == [] and m["converted_on"] == "inline"
