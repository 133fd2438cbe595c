"""Kill an index run at a named point, resume it, and compare the store with a clean run's.

The scenario: an index of dataset v1 exists; v2 changes one document, removes one, adds
one and breaks one. The v2 run is killed (SIGKILL through :mod:`dualgraph.pipeline.faults`)
at a point, then run again without the hook. Used by the kill-point test and by
``bench/reliability.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.faults import ENV
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.layout import IndexLayout

# points only a run that builds the Textual KG and the pattern index reaches
TKG_POINTS = frozenset({"tkg", "patterns", "lexicon"})


def skg_only_config() -> IndexConfig:
    """One document per batch and per load pass, so every boundary is a distinct kill point."""
    config = IndexConfig(runner="inline", progress=False, batch_size=1, load_group_quads=1, patterns=False)
    return config.model_copy(update={"tkg": config.tkg.model_copy(update={"enabled": False})})


def with_tkg_config() -> IndexConfig:
    return IndexConfig(runner="inline", progress=False, batch_size=1, load_group_quads=1)


def _phone(name: str, mah: int, price: float) -> Variant:
    specs = (("Battery:Capacity", f"{mah} mAh"), ("Network:Technology", "LTE / 5G"), ("Price", f"{price} GBP"))
    return Variant(name, name.rsplit(" ", 1)[0], ("smartphones",), specs)


def write_v1(root: Path) -> None:
    write_dataset(
        root,
        [
            ("a", "Alpha has a bright screen.", [_phone("Alpha 1", 5000, 450), _phone("Alpha 2", 5000, 520)]),
            ("b", "Beta is small.", [_phone("Beta 1", 4500, 300)]),
            ("c", "Gamma lasts long.", [_phone("Gamma 1", 6000, 499)]),
            ("d", "Delta is gone in v2.", [_phone("Delta 1", 3000, 199)]),
        ],
    )


def make_v2(root: Path) -> None:
    """v1 edited in place: a changed, a removed, an added and a broken document."""
    shutil.rmtree(root / "file-d")
    write_dataset(
        root,
        [
            ("a", "Alpha has a bright screen.", [_phone("Alpha 1", 5100, 440), _phone("Alpha 3", 5000, 530)]),
            ("e", "Epsilon is new.", [_phone("Epsilon 1", 5500, 610)]),
        ],
    )
    (root / "file-b" / "file-b.json").write_text("{ broken", encoding="utf-8")


def dump(index: Path) -> list[str]:
    """Every quad of an index's embedded store, sorted."""
    import pyoxigraph as ox

    store = ox.Store.read_only(str(IndexLayout(index).store))
    return sorted(str(q) for q in store.quads_for_pattern(None, None, None, None))


def state_docs(index: Path) -> dict[str, tuple[str, bool]]:
    """Per document: its content hash and whether it is loaded."""
    from dualgraph.pipeline.state import IndexState

    docs = IndexState.open(IndexLayout(index).state).documents
    return {m: (d["hash"], d["loaded"]) for m, d in docs.items()}


def run_killed(dataset: Path, index: Path, config: IndexConfig, point: str, *, timeout_s: float = 600) -> int:
    """Index in a child process told to kill itself at ``point``; returns its exit status (-9 when killed)."""
    code = (
        "import sys\n"
        "from dualgraph.config import IndexConfig\n"
        "from dualgraph.pipeline.index import build_index\n"
        "build_index(sys.argv[1], sys.argv[2], IndexConfig.model_validate_json(sys.argv[3]))\n"
    )
    # the child imports this same code, wherever it was imported from
    code_root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, ENV: point, "PYTHONPATH": os.pathsep.join([code_root, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-c", code, str(dataset), str(index), config.model_dump_json()],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    return proc.returncode


@dataclass
class Prepared:
    """The v1 index to start from, the v2 dataset, and the clean index of v2 to compare with."""

    v1_index: Path
    v2_dataset: Path
    clean: Path
    config: IndexConfig


def prepare(base: Path, config: IndexConfig) -> Prepared:
    ds1, ix1, ds2, clean = base / "ds1", base / "ix1", base / "ds2", base / "clean"
    write_v1(ds1)
    build_index(ds1, ix1, config)
    shutil.copytree(ds1, ds2)
    make_v2(ds2)
    build_index(ds2, clean, config)
    return Prepared(ix1, ds2, clean, config)


@dataclass
class KillResult:
    point: str
    killed: bool
    identical_store: bool
    identical_state: bool
    identical_views: bool = True
    """The derived files outside the store (the prose lexicon) equal the clean run's."""

    @property
    def ok(self) -> bool:
        return self.killed and self.identical_store and self.identical_state and self.identical_views


def kill_and_resume(prepared: Prepared, points: list[str], work: Path) -> KillResult:
    """Copy the v1 index, kill the v2 run at each of ``points`` in turn, resume, compare with the clean run."""
    ix = work / "ix"
    if ix.exists():
        shutil.rmtree(ix)
    shutil.copytree(prepared.v1_index, ix)
    killed = all(run_killed(prepared.v2_dataset, ix, prepared.config, p) == -9 for p in points)
    build_index(prepared.v2_dataset, ix, prepared.config)
    return KillResult(
        point=" then ".join(points),
        killed=killed,
        identical_store=dump(ix) == dump(prepared.clean),
        identical_state=state_docs(ix) == state_docs(prepared.clean),
        identical_views=view_files(ix) == view_files(prepared.clean),
    )


def view_files(index: Path) -> dict[str, str]:
    """The derived views' files that a run writes whole and the same for the same input."""
    out = {}
    for rel in ("tkg/prose_lexicon.json",):
        path = IndexLayout(index).root / rel
        out[rel] = path.read_text(encoding="utf-8") if path.is_file() else ""
    return out
