"""A run killed (SIGKILL) at every stage boundary resumes to the store a clean run builds.

The kill comes from the fault-injection hook (``DUALGRAPH_KILL_AT``), not from a timer,
so every named point is hit exactly. Scenario: an index of dataset v1 exists; v2 changes
one document, removes one, adds one and breaks one; the v2 run is killed at a point, then
run again without the hook. The store must equal that of a fresh index of v2, quad for
quad, and the state must list the same documents with the same hashes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest

from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.faults import ENV, KILL_POINTS
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.layout import IndexLayout

SKG_ONLY = IndexConfig(runner="inline", progress=False, batch_size=1, load_group_quads=1, patterns=False).model_copy(
    update={"tkg": IndexConfig().tkg.model_copy(update={"enabled": False})}
)
WITH_TKG = IndexConfig(runner="inline", progress=False, batch_size=1, load_group_quads=1)
# points only a run that builds the Textual KG and the pattern index reaches
TKG_POINTS = {"tkg", "patterns"}


def phone(name: str, mah: int, price: float) -> Variant:
    specs = (("Battery:Capacity", f"{mah} mAh"), ("Network:Technology", "LTE / 5G"), ("Price", f"{price} GBP"))
    return Variant(name, name.rsplit(" ", 1)[0], ("smartphones",), specs)


def v1(root: Path) -> None:
    write_dataset(
        root,
        [
            ("a", "Alpha has a bright screen.", [phone("Alpha 1", 5000, 450), phone("Alpha 2", 5000, 520)]),
            ("b", "Beta is small.", [phone("Beta 1", 4500, 300)]),
            ("c", "Gamma lasts long.", [phone("Gamma 1", 6000, 499)]),
            ("d", "Delta is gone in v2.", [phone("Delta 1", 3000, 199)]),
        ],
    )


def v2(root: Path) -> None:
    shutil.rmtree(root / "file-d")
    write_dataset(
        root,
        [
            ("a", "Alpha has a bright screen.", [phone("Alpha 1", 5100, 440), phone("Alpha 3", 5000, 530)]),
            ("e", "Epsilon is new.", [phone("Epsilon 1", 5500, 610)]),
        ],
    )
    (root / "file-b" / "file-b.json").write_text("{ broken", encoding="utf-8")


def dump(index: Path) -> list[str]:
    store = ox.Store.read_only(str(IndexLayout(index).store))
    return sorted(str(q) for q in store.quads_for_pattern(None, None, None, None))


def state_docs(index: Path) -> dict[str, tuple[str, bool]]:
    from dualgraph.pipeline.state import IndexState

    docs = IndexState.open(IndexLayout(index).state).documents
    return {m: (d["hash"], d["loaded"]) for m, d in docs.items()}


def run_killed(ds: Path, ix: Path, config: IndexConfig, point: str) -> int:
    code = (
        "import sys\n"
        "from dualgraph.config import IndexConfig\n"
        "from dualgraph.pipeline.index import build_index\n"
        "build_index(sys.argv[1], sys.argv[2], IndexConfig.model_validate_json(sys.argv[3]))\n"
    )
    env = {**os.environ, ENV: point, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run(
        [sys.executable, "-c", code, str(ds), str(ix), config.model_dump_json()],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.returncode


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("kill")
    out = {}
    for name, config in (("skg", SKG_ONLY), ("tkg", WITH_TKG)):
        ds1, ix1 = base / f"{name}-ds1", base / f"{name}-ix1"
        v1(ds1)
        build_index(ds1, ix1, config)
        ds2 = base / f"{name}-ds2"
        shutil.copytree(ds1, ds2)
        v2(ds2)
        clean = base / f"{name}-clean"
        build_index(ds2, clean, config)
        out |= {f"{name}-ds2": ds2, f"{name}-ix1": ix1, f"{name}-clean": clean}
    return out


@pytest.mark.parametrize("point", sorted(set(KILL_POINTS) - {"reconcile"}))
def test_kill_at_point_then_resume_equals_clean_run(point, prepared, tmp_path):
    kind = "tkg" if point in TKG_POINTS else "skg"
    config = WITH_TKG if kind == "tkg" else SKG_ONLY
    ix = tmp_path / "ix"
    shutil.copytree(prepared[f"{kind}-ix1"], ix)
    rc = run_killed(prepared[f"{kind}-ds2"], ix, config, point)
    assert rc == -9, f"the run was not killed at {point!r} (exit {rc}): the point is never reached"
    manifest = build_index(prepared[f"{kind}-ds2"], ix, config)
    clean = prepared[f"{kind}-clean"]
    assert dump(ix) == dump(clean)
    assert state_docs(ix) == state_docs(clean)
    assert manifest["products"] == json.loads((clean / "manifest.json").read_text())["products"] == 4


def test_a_loaded_pass_the_journal_never_recorded_is_dropped_on_resume(prepared, tmp_path):
    """Killed between a bulk load and its journal line, then killed again while the orphan is dropped."""
    ix = tmp_path / "ix"
    shutil.copytree(prepared["skg-ix1"], ix)
    ds = prepared["skg-ds2"]
    assert run_killed(ds, ix, SKG_ONLY, "load#2") == -9
    # killed at "reconcile": the resumed run found the graph the journal never recorded
    assert run_killed(ds, ix, SKG_ONLY, "reconcile") == -9
    build_index(ds, ix, SKG_ONLY)
    assert dump(ix) == dump(prepared["skg-clean"])
    assert state_docs(ix) == state_docs(prepared["skg-clean"])


def test_clean_v2_is_what_a_fresh_index_of_v2_is(prepared, tmp_path):
    """The reference itself: v1 then v2 equals v2 from scratch (nothing of v1 lingers)."""
    fresh = tmp_path / "fresh"
    build_index(prepared["skg-ds2"], fresh, SKG_ONLY)
    assert dump(fresh) == dump(prepared["skg-clean"])
