"""Records of the Textual KG, shared by chunking, extraction, merging and retrieval."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of a document's text. ``chunk_id`` is derived from the document and content."""

    chunk_id: str
    doc_id: str
    text: str
    section: str = ""
    ordinal: int = 0
    products: tuple[str, ...] = ()
    """Names of the products of the chunk's document."""


@dataclass(frozen=True, slots=True)
class Mention:
    """An entity as one extractor saw it in one chunk: a name and what the chunk says about it."""

    name: str
    description: str
    chunk_id: str


@dataclass(slots=True)
class Entity:
    """Mentions merged by canonical name."""

    entity_id: str
    name: str
    description: str
    chunk_ids: list[str] = field(default_factory=list)
    mention_count: int = 0
