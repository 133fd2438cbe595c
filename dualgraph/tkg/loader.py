"""Open the Textual KG of an index for retrieval (chunks, entities, vector and BM25 indexes)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dualgraph.models.base import Embedder
from dualgraph.tkg.model import Chunk, Entity

if TYPE_CHECKING:  # the index backends load heavy libraries: imported only when opened
    from dualgraph.stores.vector import VectorIndex
    from dualgraph.tkg.lexical import LexicalIndex


@dataclass
class TextualKG:
    """The TKG files of one index, loaded; build retrievers from it."""

    chunks: dict[str, Chunk]
    entities: dict[str, Entity]
    entity_index: VectorIndex
    chunk_index: VectorIndex | None
    lexical: LexicalIndex | None

    @classmethod
    def open(cls, index_dir: str | Path) -> TextualKG:
        from dualgraph.stores.faiss_index import FaissIndex
        from dualgraph.tkg.lexical import LexicalIndex
        from dualgraph.tkg.merge import load_tkg

        tkg = Path(index_dir) / "tkg"
        if not (tkg / "entity_index").is_dir():
            raise FileNotFoundError(f"no Textual KG at {tkg}: run `dualgraph index` (with tkg enabled) first")
        chunks, entities = load_tkg(tkg)
        return cls(
            chunks={c.chunk_id: c for c in chunks},
            entities={e.entity_id: e for e in entities},
            entity_index=FaissIndex.load(tkg / "entity_index"),
            chunk_index=FaissIndex.load(tkg / "chunk_index") if (tkg / "chunk_index").is_dir() else None,
            lexical=LexicalIndex.load(tkg / "entity_bm25") if (tkg / "entity_bm25").is_dir() else None,
        )

    def entity_vote(self, embedder: Embedder, **options):
        from dualgraph.tkg.retrieval import EntityVoteRetriever

        return EntityVoteRetriever(
            embedder, self.entity_index, self.entities, None, self.chunks, lexical=self.lexical, **options
        )

    def naive(self, embedder: Embedder, **options):
        from dualgraph.tkg.retrieval import NaiveVectorRetriever

        if self.chunk_index is None:
            raise FileNotFoundError(
                "this index has no chunk embeddings: index with --embed-chunks (tkg.embed_chunks) for the naive baseline"
            )
        return NaiveVectorRetriever(embedder, self.chunk_index, self.chunks, **options)
