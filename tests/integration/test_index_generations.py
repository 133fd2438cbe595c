"""Readers see the old index or the new one, never a half-built one (issue 34, point 3): a
re-index builds the next generation beside the one being read and publishes it with one rename.

Real parts: the index pipeline (inline), the embedded Oxigraph store, a reader in its own process
looping over the front door while re-indexes run, a re-index SIGKILLed half-way (the fault hook of
``dualgraph.pipeline.faults``), and an index on a directory the reading process cannot write.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dualgraph import DualGraph
from dualgraph.cli import main
from dualgraph.config import IndexConfig
from dualgraph.models.factory import EmbedderConfig, ModelsConfig
from dualgraph.pipeline.generations import NEXT, collect, current_generation
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.index_check import _check_generation, check_index
from reliability_tools import kill_points

ROOT = Path(__file__).resolve().parents[2]
COUNT = "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a skgt:Product }"
NAMES = "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n } ORDER BY ?n"
QUESTION = "Which phones have a battery of at least 5000 mAh?"
# the static embedder (MiniLM's table, distilled once per machine): the Textual KG and its vectors are
# built all the same, and no process here (the engine's budget worker, the read-only reader) loads
# torch; what is checked (generations, readers, checksums) does not depend on MiniLM
INLINE = IndexConfig(runner="inline", progress=False, models=ModelsConfig(embedder=EmbedderConfig(kind="static")))


@pytest.fixture(scope="module")
def datasets(tmp_path_factory) -> tuple[Path, Path]:
    """v1 (5 products) and v2 (one document changed, one removed, one added, one broken)."""
    work = tmp_path_factory.mktemp("generations")
    kill_points.write_v1(work / "v1")
    shutil.copytree(work / "v1", work / "v2")
    kill_points.make_v2(work / "v2")
    return work / "v1", work / "v2"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "bench")])}


def _count(graph: DualGraph) -> int:
    return int(graph.sparql(COUNT)["results"]["bindings"][0]["n"]["value"])


READER = """
import json, sys, time
from pathlib import Path
from dualgraph import DualGraph
ix, stop, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
seen = []
while not stop.exists() or len(seen) < 3:
    try:
        with DualGraph.open(ix) as graph:
            n = int(graph.sparql(sys.argv[4])["results"]["bindings"][0]["n"]["value"])
            seen.append([graph.generation.name, graph.manifest["products"], n, None])
    except Exception as e:
        seen.append([None, None, None, f"{type(e).__name__}: {e}"])
out.write_text(json.dumps(seen))
"""


def test_a_reader_looping_through_reindexes_never_sees_a_partial_index(datasets, tmp_path):
    v1, v2 = datasets
    ix = tmp_path / "ix"
    config = kill_points.skg_only_config()
    products = {build_index(v2, tmp_path / "v2-alone", config)["products"], build_index(v1, ix, config)["products"]}
    stop, out = tmp_path / "stop", tmp_path / "seen.json"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(ix), str(stop), str(out), COUNT], env=_env(), cwd=ROOT)
    try:
        time.sleep(2)  # the reader is reading the first generation
        for dataset in (v2, v1, v2):  # each run changes, removes and adds documents
            build_index(dataset, ix, config)
    finally:
        stop.touch()
        reader.wait(timeout=120)
    seen = json.loads(out.read_text())
    errors = [e for *_, e in seen if e]
    assert not errors, errors[:3]
    # every read saw one whole generation: the store holds what that generation's manifest says
    assert all(n == m and n in products for _, m, n, _ in seen), [s for s in seen if s[1] != s[2]][:5]
    assert len({g for g, *_ in seen}) >= 2, "the reader never saw a re-index publish"
    # the old ones go once let go: a run's publish deletes those nobody holds; one the reader held at
    # the last publish (a race this test does not control) goes at the next collection
    collect(ix)
    assert [g.name for g in (ix / "generations").iterdir()] == [current_generation(ix).name]


def test_a_killed_reindex_leaves_the_old_index_readable_and_resumes(datasets, tmp_path):
    v1, v2 = datasets
    config = kill_points.skg_only_config()
    ix, clean = tmp_path / "ix", tmp_path / "clean"
    build_index(v2, clean, config)
    old = build_index(v1, ix, config)
    for point in ("load", "rules"):  # killed while loading, then again while deriving
        assert kill_points.run_killed(v2, ix, config, point) == -9
        assert (ix / NEXT).is_symlink()
        with DualGraph.open(ix) as graph:
            assert _count(graph) == old["products"] and graph.manifest["documents"] == old["documents"]
        assert [c.line() for c in check_index(ix) if c.status != "ok"] == []
    again = build_index(v2, ix, config)
    assert again["generation"]["resumed"] is True and not (ix / NEXT).exists()
    assert kill_points.dump(ix) == kill_points.dump(clean)
    assert kill_points.state_docs(ix) == kill_points.state_docs(clean)


def test_an_old_generation_held_by_a_reader_stays_whole_through_a_reindex(datasets, tmp_path):
    """The views rebuilt in the new generation (text graph, patterns, lexicon) were hard links to
    the old one's files: the old generation's checksums must still match its own manifest."""
    v1, v2 = datasets
    ix = tmp_path / "ix"
    build_index(v1, ix, INLINE)
    with DualGraph.open(ix) as graph:
        before = (graph.sparql(NAMES), graph.ask(QUESTION).answer_list, graph.search("bright screen").products)
        held = graph.generation
        m = build_index(v2, ix, INLINE)
        assert m["tkg"] != "unchanged" and m["generation"]["copied_from"]["linked_files"] > 0
        assert current_generation(ix) != held and held.is_dir()
        assert [c.line() for c in _check_generation(held) if c.status != "ok"] == []
        # the open graph still answers from its own generation
        assert (graph.sparql(NAMES), graph.ask(QUESTION).answer_list, graph.search("bright screen").products) == before
    with DualGraph.open(ix) as fresh:
        assert fresh.sparql(NAMES) != before[0]
    build_index(v2, ix, INLINE)
    assert not held.exists()
    assert [c.line() for c in check_index(ix) if c.status != "ok"] == []


READ_ONLY = """
import json, sys
from dualgraph import DualGraph
from dualgraph.cli import main
with DualGraph.open(sys.argv[1]) as graph:
    out = {"names": graph.sparql(sys.argv[2]), "answer": graph.ask(sys.argv[3]).answer_list,
           "search": graph.search("bright screen").products}
out["check"] = main(["check", "--index", sys.argv[1], "--problems"])
print(json.dumps(out))
"""


def _unprivileged() -> list[str] | None:
    """A command prefix under which this machine's files are checked as for any user."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    # root reads and writes past file modes; without these two capabilities it cannot
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search"] if setpriv else None


def test_an_index_on_a_read_only_directory_is_asked_searched_and_checked(datasets, tmp_path):
    prefix = _unprivileged()
    if prefix is None:
        pytest.skip("running as root without setpriv: no way to read as an unprivileged user")
    v1, _ = datasets
    build_index(v1, tmp_path / "ix", INLINE)
    ro = tmp_path / "ro"
    shutil.copytree(tmp_path / "ix", ro, symlinks=True)
    with DualGraph.open(ro) as graph:  # answered once while writable: the same must come back
        want = {"names": graph.sparql(NAMES), "answer": graph.ask(QUESTION).answer_list}
    subprocess.run(["chmod", "-R", "a-w", str(ro)], check=True)
    try:
        assert not os.access(ro / "cache", os.W_OK) or os.geteuid() == 0
        done = subprocess.run(
            [*prefix, sys.executable, "-c", READ_ONLY, str(ro), NAMES, QUESTION],
            capture_output=True,
            text=True,
            env=_env(),
            cwd=ROOT,
            timeout=600,
        )
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
        got = json.loads(done.stdout.strip().splitlines()[-1])
        assert {k: got[k] for k in want} == want and got["search"] and got["check"] == 0
        # nothing was written: the unprivileged process could not, and did not try where it mattered
        probe = subprocess.run([*prefix, "touch", str(ro / "x")], capture_output=True)
        assert probe.returncode != 0
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(ro)], check=True)
    assert main(["check", "--index", str(ro)]) == 0
