"""The catalog model and its readers (SpecsQA dataset dirs, shop HTML, tables)."""

from dualgraph.corpus.model import Document, Quarantine, Variant

__all__ = ["Document", "Quarantine", "Variant"]
