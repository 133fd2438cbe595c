"""A bug in chunking or extraction for one page leaves that page's text out, reported; the batch goes on."""

from __future__ import annotations

from dualgraph.config import TkgConfig
from dualgraph.models.factory import ModelsConfig
from dualgraph.pipeline import tkg_stages
from dualgraph.pipeline.tkg_stages import chunk_stage, extract_stage


def rows():
    return [
        {"doc_id": d, "source": f"/ds/{d}.json", "status": "ok", "text": f"Page {d}. It has a screen.", "problems": [],
         "products": [{"iri": "iri", "name": f"Phone {d}"}]}
        for d in ("a", "b", "c")
    ]  # fmt: skip


def test_a_page_that_breaks_the_chunker_is_reported_and_the_others_are_chunked(monkeypatch):
    real = tkg_stages.chunk_document

    def fragile(doc_id, text, **kw):
        if doc_id == "b":
            raise RecursionError("maximum recursion depth exceeded")
        return real(doc_id, text, **kw)

    monkeypatch.setattr(tkg_stages, "chunk_document", fragile)
    out = chunk_stage(TkgConfig()).run(rows())
    assert [len(r["chunks"]) > 0 for r in out] == [True, False, True]
    [problem] = out[1]["problems"]
    assert problem["stage"] == "chunk" and problem["file"] == "/ds/b.json" and "RecursionError" in problem["reason"]


def test_a_page_that_breaks_the_extractor_is_reported_and_the_others_keep_their_mentions(monkeypatch):
    chunked = chunk_stage(TkgConfig()).run(rows())
    tkg, models = TkgConfig(extractor="heuristic"), ModelsConfig()
    stage = extract_stage(tkg, models)
    stage.run(chunked[:1])  # builds this worker's extractor
    ex = tkg_stages._WORKER_EXTRACTORS[tkg.model_dump_json() + models.model_dump_json()]
    real = ex.heuristic.extract

    def fragile(chunks):
        if any(c.doc_id == "b" for c in chunks):
            raise ValueError("bad text")
        return real(chunks)

    monkeypatch.setattr(ex.heuristic, "extract", fragile)
    out = stage.run(chunked)
    assert out[0]["mentions"] and out[2]["mentions"]
    assert out[1]["mentions"] == []
    assert out[1]["problems"][-1]["stage"] == "extract"
