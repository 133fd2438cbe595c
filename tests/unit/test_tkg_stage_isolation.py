"""A bug in chunking or extraction for one page leaves that page's text out, reported; the batch goes on."""

from __future__ import annotations

import json

from dualgraph.config import TkgConfig
from dualgraph.models.factory import ModelsConfig
from dualgraph.pipeline import tkg_stages
from dualgraph.pipeline.tkg_stages import chunk_stage, extract_stage


def rows():
    return [
        {"doc_id": d, "source": f"/ds/{d}.json", "status": "ok", "text": f"Page {d}. It has a screen.", "problems_json": "[]",
         "products_json": json.dumps([["iri", f"Phone {d}"]])}
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
    assert [len(json.loads(r["chunks_json"])) > 0 for r in out] == [True, False, True]
    [problem] = json.loads(out[1]["problems_json"])
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
    assert json.loads(out[0]["mentions_json"]) and json.loads(out[2]["mentions_json"])
    assert json.loads(out[1]["mentions_json"]) == []
    assert json.loads(out[1]["problems_json"])[-1]["stage"] == "extract"
