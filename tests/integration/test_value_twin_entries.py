"""A value the catalog lists under two entries: a product having it under either one qualifies.

A real index (Oxigraph + pattern index with MiniLM) of a tiny catalog written here.
"""

from __future__ import annotations

from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.lexicon.patterns import PatternIndex
from dualgraph.models.embedders import SentenceTransformerEmbedder
from dualgraph.pipeline.index import build_index
from dualgraph.query.interpret.compiler import Compiler
from dualgraph.stores.oxigraph import OxigraphStore


def test_value_listed_under_two_entries_reads_both(tmp_path):
    rows = {
        "Router Alpha": (("Network:Best wireless standard", "Wi-Fi 7"), ("Network:Ports", "4")),
        "Router Beta": (("Network:Wireless standards", "Wi-Fi 7, Wi-Fi 6"), ("Network:Ports", "2")),
        "Router Gamma": (("Network:Best wireless standard", "Wi-Fi 6"), ("Network:Ports", "4")),
    }
    pages = [
        (n.lower().replace(" ", "-"), f"{n} text", [Variant(n, n, ("routers",), specs)]) for n, specs in rows.items()
    ]
    ds, ix = tmp_path / "ds", tmp_path / "ix"
    write_dataset(ds, pages)
    build_index(ds, ix, IndexConfig(runner="inline", progress=False, tkg={"enabled": False}))
    store = OxigraphStore(ix / "skg" / "oxigraph", read_only=True)
    compiler = Compiler(store, PatternIndex.load(ix / "patterns", SentenceTransformerEmbedder()))
    ans = compiler.answer("Which routers support Wi-Fi 7?")
    assert sorted(ans.answer_list) == ["Router Alpha", "Router Beta"], ans.trace
    assert any("also listed under" in t for t in ans.trace)
    neg = compiler.answer("Which routers do not support Wi-Fi 7?")
    assert "Router Alpha" not in neg.answer_list, neg.trace
