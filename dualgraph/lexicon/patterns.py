"""The graph pattern index: what the populated SKG can be asked, as searchable patterns.

Built at index time from the SKG (paper §4.5; the reference's ``vdb_specs``/``vdb_features``
/``vdb_categories`` stores, digest §3.1). Each :class:`Pattern` stands for one SPARQL
snippet over the product variable ``?p`` (an entry with a number in one unit, an entry
with its values, a feature, a category, a range, a product) and carries a linearised
sentence that is embedded, plus the structured facts a query compiler needs (entry IRI,
unit, min/max, product counts, the most common values) so nothing has to parse text.

This module is the public entry point; the parts live in modules of their own:

- :mod:`~dualgraph.lexicon.pattern`: the :class:`Pattern` record, :data:`KINDS` and
  :func:`pattern_id`;
- :mod:`~dualgraph.lexicon.pattern_collection`: :func:`collect_patterns`, the aggregate SPARQL
  queries that turn a store into patterns;
- :mod:`~dualgraph.lexicon.pattern_index`: :class:`PatternIndex`, which searches patterns with a
  dense (FAISS) and a lexical (BM25) index fused by reciprocal rank, saves and loads them, and
  :func:`build_pattern_index`, which collects, indexes and saves.
"""

from __future__ import annotations

from dualgraph.lexicon.pattern import KINDS, Pattern, pattern_id
from dualgraph.lexicon.pattern_collection import collect_patterns
from dualgraph.lexicon.pattern_index import IndexMismatchError, PatternIndex, build_pattern_index

__all__ = [
    "KINDS",
    "IndexMismatchError",
    "Pattern",
    "PatternIndex",
    "build_pattern_index",
    "collect_patterns",
    "pattern_id",
]
