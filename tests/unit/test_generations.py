"""Generations of an index directory (dualgraph.pipeline.generations) on plain files: a run
writes beside what readers read and publishes with one rename; a held generation outlives
the runs after it; a second writer is refused; a killed run is resumed; an index from before
generations is moved into one. The store, shards and views are stand-in files here; the
integration tests run the real index (tests/integration/test_index_generations.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dualgraph.pipeline.generations import (
    CURRENT,
    NEXT,
    IndexBusy,
    current_generation,
    index_root,
    lease,
    resolve,
    unshare,
    writing,
)


def _put(path: Path, text: str) -> None:
    # as the index's writers do: a new file renamed over the old one, never a write into a shared link
    path.parent.mkdir(parents=True, exist_ok=True)
    path.with_name(path.name + ".tmp").write_text(text)
    os.replace(path.with_name(path.name + ".tmp"), path)


def _fill(gen: Path, version: str) -> None:
    _put(gen / "skg" / "oxigraph" / "000007.sst", "sst")
    _put(gen / "skg" / "oxigraph" / "MANIFEST-000009", f"manifest {version}")
    _put(gen / "skg" / "oxigraph" / "LOCK", "")
    _put(gen / "skg" / "shards" / "shard-abc.nq", "quads")
    _put(gen / "tkg" / "entities.parquet", f"entities {version}")
    _put(gen / "models.json", "{}")
    _put(gen / "manifest.json", version)


def _publish(ix: Path, version: str) -> Path:
    with writing(ix) as gen:
        _fill(gen.dir, version)
        gen.publish()
    return gen.dir


def test_a_run_publishes_with_one_link_and_the_old_paths_follow(tmp_path):
    ix = tmp_path / "ix"
    first = _publish(ix, "v1")
    assert os.readlink(ix / CURRENT) == "generations/g000001" and resolve(ix) == first
    assert (ix / "manifest.json").read_text() == "v1" and (ix / "manifest.json").is_symlink()
    assert (first / "cache").resolve() == (ix / "cache").resolve()  # one response cache for all
    second = _publish(ix, "v2")
    assert resolve(ix) == second and (ix / "manifest.json").read_text() == "v2"
    assert not first.exists()  # nobody held it
    assert index_root(second) == ix and not (ix / NEXT).exists()


def test_the_copy_links_what_is_never_written_in_place_and_copies_the_rest(tmp_path):
    ix = tmp_path / "ix"
    first = _publish(ix, "v1")
    with writing(ix) as gen:
        new = gen.dir
        same = os.path.samefile
        assert same(first / "skg/oxigraph/000007.sst", new / "skg/oxigraph/000007.sst")
        assert same(first / "skg/shards/shard-abc.nq", new / "skg/shards/shard-abc.nq")
        assert same(first / "tkg/entities.parquet", new / "tkg/entities.parquet")  # until unshared
        assert not same(first / "skg/oxigraph/MANIFEST-000009", new / "skg/oxigraph/MANIFEST-000009")
        assert not same(first / "models.json", new / "models.json")
        assert not (new / "skg/oxigraph/LOCK").exists()
        # linked: the SST, the shard, the view file and the manifest; copied: RocksDB's MANIFEST, models.json
        assert gen.cloned["linked_files"] == 4 and gen.cloned["copied_files"] == 2
        assert unshare(new / "tkg") == len("entities v1")
        (new / "tkg" / "entities.parquet").write_text("rewritten in place")
        assert (first / "tkg" / "entities.parquet").read_text() == "entities v1"


def test_a_held_generation_outlives_later_runs_until_let_go(tmp_path):
    ix = tmp_path / "ix"
    first = _publish(ix, "v1")
    with lease(ix) as held:
        assert held.held and held.dir == first
        _publish(ix, "v2")
        _publish(ix, "v3")
        assert first.is_dir() and (held.dir / "manifest.json").read_text() == "v1"
        assert (ix / "manifest.json").read_text() == "v3"
        assert sorted(p.name for p in (ix / "generations").iterdir()) == ["g000001", "g000003"]
    _publish(ix, "v4")
    assert sorted(p.name for p in (ix / "generations").iterdir()) == ["g000004"]


def test_a_lease_in_another_process_is_honoured_and_dies_with_it(tmp_path):
    ix = tmp_path / "ix"
    first = _publish(ix, "v1")
    code = (
        "import sys, time\n"
        "from dualgraph.pipeline.generations import lease\n"
        "held = lease(sys.argv[1]); print(held.dir, flush=True); sys.stdin.readline()\n"
    )
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    with subprocess.Popen(
        [sys.executable, "-c", code, str(ix)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    ) as reader:
        assert reader.stdout is not None and reader.stdin is not None
        assert reader.stdout.readline().strip() == str(first)
        _publish(ix, "v2")
        assert first.is_dir()
        reader.kill()  # a killed reader holds nothing
    _publish(ix, "v3")
    assert not first.exists()


def test_a_second_writer_is_refused_in_one_line(tmp_path):
    ix = tmp_path / "ix"
    _publish(ix, "v1")
    with writing(ix):
        with pytest.raises(IndexBusy, match=rf"another run \(pid {os.getpid()}\) is writing it") as caught, writing(ix):
            pass
        assert "\n" not in str(caught.value)


def test_a_run_that_fails_leaves_the_old_index_and_the_next_run_resumes_it(tmp_path):
    ix = tmp_path / "ix"
    _publish(ix, "v1")
    with pytest.raises(RuntimeError, match="killed"), writing(ix) as gen:
        (gen.dir / "half-done").write_text("x")
        raise RuntimeError("killed")
    assert (ix / "manifest.json").read_text() == "v1" and os.readlink(ix / NEXT) == "generations/g000002"
    with writing(ix) as again:
        assert again.resumed and again.dir.name == "g000002" and (again.dir / "half-done").is_file()
        _fill(again.dir, "v2")
        again.publish()
    assert (ix / "manifest.json").read_text() == "v2"


def test_align_never_publishes_what_an_index_run_left_half_done(tmp_path):
    ix = tmp_path / "ix"
    _publish(ix, "v1")
    with pytest.raises(RuntimeError), writing(ix) as gen:
        raise RuntimeError("killed")
    with pytest.raises(IndexBusy, match="run `dualgraph index` to finish it"), writing(ix, purpose="align"):
        pass
    with writing(ix) as gen:
        gen.publish()
    with pytest.raises(RuntimeError), writing(ix, purpose="align") as gen:
        raise RuntimeError("align failed")
    assert not (ix / NEXT).exists()  # align's leftovers are discarded, never resumed


def test_an_index_from_before_generations_is_read_in_place_then_moved_into_one(tmp_path):
    ix = tmp_path / "ix"
    _fill(ix, "old")
    (ix / "cache").mkdir()
    (ix / "cache" / "responses.sqlite").write_text("cached")
    assert current_generation(ix) is None and resolve(ix) == ix
    with lease(ix) as held:
        assert not held.held and held.dir == ix
    with writing(ix) as gen:
        assert gen.cloned["from"] == ["the index directory"]
        assert (gen.dir / "manifest.json").read_text() == "old"
        assert (ix / "manifest.json").read_text() == "old" and not (ix / "manifest.json").is_symlink()
        gen.publish()
    assert (ix / "manifest.json").is_symlink() and (ix / "skg").is_symlink()
    assert (ix / "skg/oxigraph/000007.sst").read_text() == "sst"
    assert (ix / "cache/responses.sqlite").read_text() == "cached" and not (ix / "cache").is_symlink()


def test_a_copy_that_followed_the_links_is_read_as_it_is(tmp_path):
    ix = tmp_path / "ix"
    _publish(ix, "v1")
    copy = tmp_path / "copy"
    shutil.copytree(ix, copy)  # symlinks=False: every link became a real file or folder
    assert current_generation(copy) is None and resolve(copy) == copy
    assert (copy / "manifest.json").read_text() == "v1"
    with writing(copy) as gen:
        _fill(gen.dir, "v2")
        gen.publish()
    assert resolve(copy) == gen.dir and (copy / "manifest.json").read_text() == "v2"
    assert sorted(p.name for p in (copy / "generations").iterdir()) == [gen.dir.name]
