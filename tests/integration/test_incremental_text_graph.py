"""Re-indexing with the Textual KG after a small change leaves the text graph a fresh index of the
changed catalog has, reading again only the chunks that changed for the names they spell."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.pipeline.index import build_index
from dualgraph.skg import ontology as O
from dualgraph.stores.oxigraph import OxigraphStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import gen_catalog

CONFIG = IndexConfig(
    runner="inline", progress=False, batch_size=8, patterns=False, tkg=TkgConfig(embed_chunks=False, summarise=False)
)


def _text_graph(index: Path) -> set[tuple[str, str, str]]:
    with OxigraphStore(index / "skg" / "oxigraph", read_only=True) as store:
        return set(store.construct(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{O.TEXT_GRAPH}> {{ ?s ?p ?o }} }}"))


def test_a_small_change_reads_only_its_chunks_and_gives_the_fresh_text_graph(tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    gen_catalog.generate(ds, 60, seed=2)
    first = build_index(ds, tmp_path / "inc", CONFIG)
    assert first["tkg"]["text_facts_sync"]["chunks_spelling_names"]["kept"] == 0
    changed = gen_catalog.mutate(ds, 10, seed=4)  # a new line on each page: "Updated: revision 4"
    again = build_index(ds, tmp_path / "inc", CONFIG)
    assert sorted(again["documents"]["reprocessed"]) == changed
    read = again["tkg"]["text_facts_sync"]["chunks_spelling_names"]
    assert read["kept"] > 5 * read["read"] > 0, read
    shutil.rmtree(tmp_path / "fresh", ignore_errors=True)
    build_index(ds, tmp_path / "fresh", CONFIG)
    inc, fresh = _text_graph(tmp_path / "inc"), _text_graph(tmp_path / "fresh")
    assert len(fresh) > 500
    assert inc == fresh, (sorted(inc - fresh)[:3], sorted(fresh - inc)[:3])
