"""An index that checks itself (issue 34, point 3): every part is in the manifest with what
verifies it; ``dualgraph check`` reports a missing or corrupt part, ``dualgraph index`` rebuilds
it (and says so) and the read paths refuse a damaged index in one line.

One small index of four phones is built once (inline, the static embedder, no progress); each case
damages a copy of it, on the real Oxigraph store, FAISS, bm25s, Parquet and SQLite files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from dualgraph import DualGraph
from dualgraph.answer.engine import AskConfig
from dualgraph.budget import WorkBudget
from dualgraph.cli import main
from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.models.factory import EmbedderConfig, ModelsConfig
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.index_check import STORE_PART, IndexDamaged, check_index, read_manifest

# the static embedder: the index has its FAISS and vectors as with MiniLM, and every open (a
# budget worker for each question) goes without torch
INLINE = IndexConfig(runner="inline", progress=False, models=ModelsConfig(embedder=EmbedderConfig(kind="static")))
# a repaired copy is asked in this process: the same engine on the same files, without a budget
# worker to start for each case (3 s of CPU apiece); what it answers is compared with what the intact
# index answered in a budget worker, the default read path, which the intact-index test keeps too
IN_PROCESS = AskConfig(budget=WorkBudget(isolate=False))
NAMES = "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n } ORDER BY ?n"
QUESTION = "Which phones have a battery of at least 5000 mAh?"
ROOT = Path(__file__).resolve().parents[2]


def phone(name: str, mah: int, text: str) -> tuple[str, str, list[Variant]]:
    specs = (("Battery:Capacity", f"{mah} mAh"), ("Price", f"{mah // 20} GBP"))
    return name.replace(" ", "-"), f"# {name}\n\n{text}", [Variant(name, name, ("phones",), specs)]


PAGES = [
    phone("Phone A", 6000, "The Phone A has stereo speakers and a 6000 mAh battery."),
    phone("Phone B", 4000, "The Phone B is light, with a 4000 mAh battery and wireless charging."),
    phone("Phone C", 5000, "The Phone C has a glass back and stereo speakers."),
    phone("Phone D", 3000, "The Phone D is a small phone with a headphone jack."),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, dict]:
    """The dataset, the intact index and what it answers (products, a question, a search)."""
    work = tmp_path_factory.mktemp("self-check")
    write_dataset(work / "ds", PAGES)
    build_index(work / "ds", work / "ix", INLINE)
    with DualGraph.open(work / "ix") as graph:
        answers = observed(graph)
    return work / "ds", work / "ix", answers


def observed(graph: DualGraph) -> dict:
    record = graph.ask(QUESTION)
    return {
        "names": [b["n"]["value"] for b in graph.sparql(NAMES)["results"]["bindings"]],
        "answer": record.answer_list,
        "search": graph.search("stereo speakers", k=2).products,
    }


@pytest.fixture
def copy(built, tmp_path) -> Path:
    ix = tmp_path / "ix"
    shutil.copytree(built[1], ix)
    return ix


def junk(path: Path, *, same_size: bool = False) -> None:
    # same size: only a checksum tells it from the real file
    size = path.stat().st_size
    path.write_bytes((b"junk" * size)[:size] if same_size else b"not what was written here")


def one_of(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert found, f"no {pattern} in {folder}"
    return found[0]


# name: (damage, a part it breaks, how `check` sees that part, the read that must refuse it)
CASES: dict[str, tuple[Callable[[Path], None], str, str, str]] = {
    "deleted skg": (lambda ix: shutil.rmtree(ix / "skg"), STORE_PART, "missing", "sparql"),
    "deleted tkg": (lambda ix: shutil.rmtree(ix / "tkg"), "tkg/", "missing", "search"),
    "junk faiss": (
        lambda ix: junk(ix / "tkg/entity_index/index.faiss"),
        "tkg/entity_index/index.faiss",
        "corrupt",
        "search",
    ),
    "faiss of the same size": (
        lambda ix: junk(ix / "tkg/entity_index/index.faiss", same_size=True),
        "tkg/entity_index/index.faiss",
        "corrupt",
        "search",
    ),
    "junk bm25": (
        lambda ix: junk(ix / "tkg/entity_bm25/vocab.index.json"),
        "tkg/entity_bm25/vocab.index.json",
        "corrupt",
        "search",
    ),
    "junk arrays": (
        lambda ix: junk(ix / "patterns/lexical/data.csc.index.npy", same_size=True),
        "patterns/lexical/data.csc.index.npy",
        "corrupt",
        "ask",
    ),
    "junk parquet": (lambda ix: junk(ix / "tkg/entities.parquet"), "tkg/entities.parquet", "corrupt", "ask"),
    "junk sqlite": (
        lambda ix: junk(ix / "cache/responses.sqlite"),
        "cache/responses.sqlite",
        "corrupt",
        "search",
    ),
    "corrupt store": (lambda ix: junk(ix / "skg/oxigraph/CURRENT"), STORE_PART, "corrupt", "sparql"),
    "store sst of the same size": (
        lambda ix: junk(one_of(ix / "skg/oxigraph", "*.sst"), same_size=True),
        STORE_PART,
        "corrupt",
        "ask",
    ),
    "junk shard": (
        lambda ix: junk(one_of(ix / "skg/shards", "*.values.parquet")),
        "skg/shards/",
        "corrupt",
        "",
    ),
    "deleted text shard": (
        lambda ix: one_of(ix / "tkg/shards", "chunks-*.parquet").unlink(),
        "tkg/shards/chunks-",
        "missing",
        "",
    ),
    "junk state": (lambda ix: junk(ix / "state.json"), "state.json", "corrupt", ""),
}


def read(command: str, ix: Path, capsys) -> tuple[int, str]:
    """A read through the CLI; its exit status and what it printed to stderr."""
    argv = {
        "sparql": ["sparql", "--index", str(ix), NAMES],
        "search": ["search", "stereo speakers", "--index", str(ix)],
        "ask": ["ask", "--index", str(ix), QUESTION],
    }[command]
    capsys.readouterr()
    rc = main(argv)
    return rc, capsys.readouterr().err


@pytest.mark.parametrize("case", sorted(CASES))
def test_damage_is_reported_refused_and_rebuilt(case, built, copy, capsys):
    dataset, _, answers = built
    damage, part, status, reader = CASES[case]
    damage(copy)

    found = {c.part: c for c in check_index(copy)}
    hit = [c for name, c in found.items() if name.startswith(part) and c.broken]
    assert hit and all(c.status == status for c in hit), [c.line() for c in found.values() if c.status != "ok"]
    assert main(["check", "--index", str(copy), "--problems"]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert printed and all(": ok" not in line for line in printed)
    assert any(line.startswith(f"{hit[0].part}: {status}") for line in printed), printed

    if reader:
        rc, err = read(reader, copy, capsys)
        assert rc == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in err, err
        assert part in lines[0] and "dualgraph index" in lines[0] and "dualgraph check" in lines[0], lines[0]

    manifest = build_index(dataset, copy, INLINE)
    assert any(line.startswith(part) for line in manifest["repaired"]), manifest["repaired"]
    assert manifest["products"] == len(PAGES)
    assert [c.line() for c in check_index(copy) if c.status != "ok"] == []
    assert main(["check", "--index", str(copy)]) == 0
    with DualGraph.open(copy, config=IN_PROCESS) as graph:
        assert observed(graph) == answers


def test_an_intact_index_checks_ok_after_being_read_and_reindexed(built, copy, capsys):
    dataset, _, answers = built
    parts = read_manifest(copy)["parts"]
    assert parts[STORE_PART] == {"kind": "store", "products": len(PAGES), "quads": read_manifest(copy)["triples"]}
    assert {e["kind"] for e in parts.values()} == {"store", "file", "sqlite"}
    for name in ("tkg/entity_index/index.faiss", "tkg/entity_bm25/data.csc.index.npy", "patterns/manifest.json"):
        assert len(parts[name]["blake2b"]) == 32 and parts[name]["bytes"] == (copy / name).stat().st_size
    with DualGraph.open(copy) as graph:
        assert observed(graph) == answers  # answering writes its cache: still whole afterwards
        assert all(c.status == "ok" for c in graph.check())
    again = build_index(dataset, copy, INLINE)
    assert again["repaired"] == [] and again["documents"]["unchanged"] == len(PAGES)
    assert again["tkg"] == "unchanged" and again["patterns"] == "unchanged"


def test_a_deleted_cache_is_absent_not_broken(copy, capsys):
    (copy / "cache/responses.sqlite").unlink()
    cache = {c.part: c for c in check_index(copy)}["cache/responses.sqlite"]
    assert cache.status == "absent" and not cache.broken
    assert main(["check", "--index", str(copy)]) == 0


def test_a_store_that_lost_quads_is_corrupt_and_reloaded(built, copy):
    """A store that opens but holds less than the manifest says (here: a document graph dropped
    behind the index's back) is only caught by counting; a re-index loads every document again."""
    from dualgraph.skg.ontology import is_document_graph
    from dualgraph.stores.oxigraph import OxigraphStore

    with OxigraphStore(copy / STORE_PART) as store:
        store.drop_graph(next(g for g in store.graphs() if is_document_graph(g)))
    check = {c.part: c for c in check_index(copy)}[STORE_PART]
    assert check.status == "corrupt" and "the manifest says" in check.why
    manifest = build_index(built[0], copy, INLINE)
    assert manifest["documents"]["converted"] == len(PAGES) and manifest["products"] == len(PAGES)
    assert all(c.status == "ok" for c in check_index(copy))


def test_front_door_refuses_a_damaged_index_in_one_line(copy):
    (copy / "tkg/entity_index/index.faiss").unlink()
    with DualGraph.open(copy) as graph:
        assert graph.sparql("ASK { ?p a skgt:Product }")["boolean"] is True  # the store is whole
        with pytest.raises(IndexDamaged, match=r"tkg/entity_index/index.faiss is missing") as caught:
            graph.search("stereo speakers")
        assert "\n" not in str(caught.value) and caught.value.problems[0].status == "missing"
        with pytest.raises(IndexDamaged, match="dualgraph check"):
            graph.ask(QUESTION)
    assert any(c.broken for c in DualGraph(copy).check())


def test_check_command_is_read_only_and_exits_1_on_damage(copy):
    """The installed command in its own process: one line a part, exit 1, no file changed."""
    junk(copy / "tkg/entities.parquet", same_size=True)
    before = {p: p.stat().st_mtime_ns for p in copy.rglob("*") if p.is_file()}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "dualgraph.cli", "check", "--index", str(copy)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    assert "tkg/entities.parquet: corrupt: checksum differs from the manifest" in lines
    assert len(lines) == len(json.loads((copy / "manifest.json").read_text())["parts"])
    assert {p: p.stat().st_mtime_ns for p in copy.rglob("*") if p.is_file()} == before


def test_a_reindex_reads_only_the_files_it_changed_and_check_reads_every_byte(tmp_path, monkeypatch):
    """The manifest's checksums of files a run did not touch are carried over by their stat (size,
    modification time, inode), so a re-index costs what it changed; `dualgraph check` still reads
    every byte and finds damage that kept all three."""
    import dualgraph.pipeline.index_check as ic

    monkeypatch.setattr(ic, "RACY_NS", 0)  # the files here were written a moment ago
    write_dataset(tmp_path / "ds", PAGES)
    build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    read: list[str] = []
    digest = ic.file_digest
    monkeypatch.setattr(ic, "file_digest", lambda path: read.append(str(path)) or digest(path))
    build_index(tmp_path / "ds", tmp_path / "ix", INLINE)  # nothing changed
    parts = read_manifest(tmp_path / "ix")["parts"]
    files = {rel: e for rel, e in parts.items() if e["kind"] == "file"}
    assert len(files) > 20 and len(read) < len(files) / 4, read
    for rel, entry in files.items():  # what was carried over is what the files hold
        assert digest(tmp_path / "ix" / rel) == entry["blake2b"], rel
    victim = tmp_path / "ix" / "tkg" / "entities.parquet"
    before = victim.stat()
    with open(victim, "r+b") as fh:  # in place: same inode, same size
        fh.write(b"junk")
    os.utime(victim, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert [c.line() for c in check_index(tmp_path / "ix") if c.broken] == [
        "tkg/entities.parquet: corrupt: checksum differs from the manifest"
    ]
