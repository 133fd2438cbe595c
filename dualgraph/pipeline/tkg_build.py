"""The driver half of the Textual KG build: merge every document's mentions into entities,
embed them (through the response cache, so unchanged text costs nothing), write the
vector and BM25 indexes, and put the text facts into the SKG's text graph.
"""

from __future__ import annotations

import itertools
import json
import shutil
import time
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path
from typing import Any

from tqdm import tqdm

from dualgraph.config import IndexConfig
from dualgraph.models.base import LLM, Embedder
from dualgraph.models.cache import ResponseCache
from dualgraph.models.factory import CACHE_FILE
from dualgraph.pipeline.graph_sync import sync_graph
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.skg import ontology as O
from dualgraph.tkg.merge import describe_key, describe_version, extract_description, merge_mentions, save_tkg
from dualgraph.tkg.model import Chunk, Entity, Mention
from dualgraph.tkg.page_hits import PageHits
from dualgraph.tkg.polarity import Statement
from dualgraph.tkg.text_facts import entity_iri, iter_text_fact_nquads, skg_name_index
from dualgraph.tkg.text_features import (
    STATED_FILE,
    PageText,
    Reader,
    chunk_pages,
    iter_text_feature_nquads,
    read_statements,
    reading_key,
    reading_version,
    write_stated,
)


def _read_shards(
    layout: IndexLayout, kind: str, keys: set[str], live: set[tuple[str, str]], progress: bool = False
) -> list[dict]:
    import pyarrow.parquet as pq

    rows: list[dict] = []
    for key in tqdm(sorted(keys), desc=f"read {kind}", unit="shard", disable=not progress, mininterval=0.5):
        path = layout.tkg_shards / f"{kind}-{key}.parquet"
        # A shard can also hold older versions of documents that were re-extracted since.
        rows.extend(r for r in pq.read_table(path).to_pylist() if (r["doc_id"], r["content_hash"]) in live)
    return rows


def cached_describe(cache: ResponseCache, max_tokens: int):
    """Extractive entity descriptions behind the index's response cache: an entity whose name and
    mentions are what they were (the common case after a small change) is not described again."""
    version = describe_version()

    def describe(items: list[tuple[str, list[str]]]) -> list[str]:
        keys = [describe_key(name, found, max_tokens) for name, found in items]
        known = cache.get("chat", "entity-description", version, list(dict.fromkeys(keys)))
        fresh = {
            k: extract_description(found, max_tokens=max_tokens)
            for k, (_, found) in zip(keys, items, strict=True)
            if k not in known
        }
        if fresh:
            cache.put("chat", "entity-description", version, fresh)
        return [fresh[k] if k in fresh else known[k] for k in keys]

    return describe


def cached_reader(cache: ResponseCache) -> Reader:
    """The page reader behind the index's response cache: a page whose text and candidate
    phrases were read before (by this code and cue lists) is not read again."""
    version = reading_version()

    def read(pages: list[PageText]) -> list[list[Statement]]:
        keys = [reading_key(p) for p in pages]
        known = cache.get("chat", "text-features", version, list(dict.fromkeys(keys)))
        missing = {k: p for k, p in zip(keys, pages, strict=True) if k not in known}
        fresh = dict(zip(missing, read_statements(list(missing.values())), strict=True))
        if fresh:
            cache.put("chat", "text-features", version, {k: _dump(v) for k, v in fresh.items()})
        return [fresh[k] if k in fresh else _load(known[k]) for k in keys]

    return read


def _dump(found: list[Statement]) -> str:
    return json.dumps([[s.phrase, s.polarity, s.sentence] for s in found], ensure_ascii=False)


def _load(text: str) -> list[Statement]:
    return [Statement(phrase, bool(polarity), sentence) for phrase, polarity, sentence in json.loads(text)]


def build_tkg(
    layout: IndexLayout, documents: dict[str, dict], config: IndexConfig, store, *, embedder: Embedder, llm: LLM | None
) -> dict[str, Any]:
    """Rebuild the merged TKG from the live documents' shards; returns counts for the manifest."""
    t0 = time.time()
    live_docs = [d for d in documents.values() if d.get("loaded") and d.get("tkg_shard")]
    live = {(d["doc_id"], d["hash"]) for d in live_docs}
    keys = {d["tkg_shard"] for d in live_docs}
    chunks = {
        r["chunk_id"]: Chunk(
            r["chunk_id"], r["doc_id"], r["text"], r["section"] or "", int(r["ordinal"]), tuple(r["products"] or ())
        )
        for r in _read_shards(layout, "chunks", keys, live, config.progress)
    }
    mentions = [
        Mention(r["name"], r["description"], r["chunk_id"])
        for r in _read_shards(layout, "mentions", keys, live, config.progress)
    ]
    # one connection for the build: entity descriptions and page readings share the file
    with closing(ResponseCache(Path(config.models.cache_dir or layout.root / "cache") / CACHE_FILE)) as cache:
        if llm is not None and config.tkg.summarise:
            from dualgraph.tkg.summarise import merge_with_summaries

            entities = merge_with_summaries(mentions, llm, max_description_tokens=config.tkg.description_tokens)
        else:
            entities = merge_mentions(
                mentions,
                max_description_tokens=config.tkg.description_tokens,
                progress=config.progress,
                describe=cached_describe(cache, config.tkg.description_tokens),
            )
        n_mentions = len(mentions)
        del mentions  # a large catalog has millions; the entities hold what is needed from them
        _save_indexes(layout.tkg, chunks, entities, config, embedder=embedder)
        doc_products = {d["doc_id"]: d.get("product_iris", []) for d in live_docs}
        chunk_products = {c.chunk_id: doc_products.get(c.doc_id, []) for c in chunks.values()}
        synced = _sync_text_graph(
            store,
            layout.tkg / "text_facts.nq",
            chunks.values(),
            entities,
            chunk_products,
            cache=cache,
            progress=config.progress,
        )
    return {
        "chunks": len(chunks),
        "mentions": n_mentions,
        "entities": len(entities),
        "text_facts": store.count(graph=O.TEXT_GRAPH),
        "text_facts_sync": synced,
        "cache_hits": getattr(embedder, "hits", 0),
        "cache_misses": getattr(embedder, "misses", 0),
        "seconds": round(time.time() - t0, 3),
    }


def _save_indexes(
    out: Path, chunks: dict[str, Chunk], entities: list[Entity], config: IndexConfig, *, embedder: Embedder
) -> None:
    """The entity (and chunk) vector indexes, the entities' BM25 index and the TKG tables."""
    from dualgraph.stores.faiss_index import FaissIndex
    from dualgraph.tkg.retrieval import entity_lexical_index, index_chunks, index_entities

    by_id = {e.entity_id: e for e in entities}
    entity_index = FaissIndex(embedder.dim)
    index_entities(
        embedder, by_id, entity_index, progress=config.progress, names_only=config.tkg.entity_vectors == "name"
    )
    # stays this exact flat index below AnnConfig's threshold; a larger one becomes IVF (faiss_ann)
    entity_index = entity_index.for_size(config.tkg.ann)
    entity_index.save(out / "entity_index")
    if by_id:
        entity_lexical_index(by_id).save(out / "entity_bm25")
    if config.tkg.embed_chunks:
        chunk_index = FaissIndex(embedder.dim)
        index_chunks(embedder, chunks, chunk_index, progress=config.progress)
        chunk_index.save(out / "chunk_index")
    elif (out / "chunk_index").exists():
        # vectors of an earlier build would no longer match the chunks
        shutil.rmtree(out / "chunk_index")
    save_tkg(out, chunks.values(), entities)


def _sync_text_graph(
    store,
    saved: Path,
    chunks: Iterable[Chunk],
    entities: list[Entity],
    chunk_products: dict[str, list[str]],
    *,
    cache: ResponseCache,
    progress: bool,
) -> dict[str, Any]:
    """Bring the text graph to the mention facts and the prose features (has / explicitly lacks,
    with the sentence) of these entities; returns :func:`sync_graph`'s counts, and how many chunks
    were read for the names they spell (``read``) or kept from the last run (``kept``).

    The lines stream from their generators into the sync's on-disk sort: a large catalog has
    tens of millions of them, far too many to hold as strings. After a small change most are
    the same, and only the difference goes to the store."""
    chunks = list(chunks)
    hits_file = saved.with_name("page_hits.json")
    hits = PageHits.load(hits_file, reading_version())
    pages = chunk_pages(chunks, entities, chunk_products, hits=hits)
    # a cache of what each chunk spells, a pure function of its text and the vocabulary
    hits.save(hits_file, {c.chunk_id for c in chunks}, hits.vocabulary_now)
    read = {"kept": hits.kept, "read_again_for_new_names": hits.reread, "read": hits.read}
    stated: dict[str, set[str]] = {}
    facts = itertools.chain(
        iter_text_fact_nquads(entities, chunk_products, skg_name_index(store)),
        iter_text_feature_nquads(pages, progress=progress, reader=cached_reader(cache), stated=stated),
    )
    # only the generator holds the pages now, and it lets them go once the sort has read every
    # line: the store's bulk load that follows needs the memory (gigabytes at 100k products)
    del pages, hits
    synced = sync_graph(store, O.TEXT_GRAPH, facts, saved)
    names: dict[str, str] = {}
    for ent in entities:  # two entity ids may share a node: its least name, whichever the store lists
        node = entity_iri(ent.entity_id)
        if node in stated:
            names[node] = min(names.get(node, ent.name), ent.name)
    write_stated(saved.with_name(STATED_FILE), stated, names)
    return {**synced, "chunks_spelling_names": read}
