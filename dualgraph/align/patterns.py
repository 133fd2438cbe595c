"""Accepted alignments applied to an index's pattern index (``dualgraph align --apply``).

Apart from :mod:`dualgraph.align.output` because it rewrites the query side's pattern index,
which itself reads the alignments through ``output``: one direction of import only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dualgraph.align.output import annotate
from dualgraph.lexicon.pattern_index import PatternIndex
from dualgraph.tkg.lexical import LexicalIndex

__all__ = ["apply_to_patterns"]


def apply_to_patterns(index_dir: Path, embedder, pairs: list[dict[str, Any]]) -> dict[str, int]:
    """Rewrite the index's pattern index with ``pairs`` as aliases: names re-indexed (BM25), the
    dense vectors kept (a pattern's sentence does not change). ``index_dir``: a generation's
    directory, or an index directory (its current generation is rewritten in place; ``dualgraph
    align`` writes a new generation instead)."""
    from dualgraph.pipeline.generations import resolve

    # the folder itself, not the index directory's link to it: the save renames folders
    src = resolve(index_dir) / "patterns"
    index = PatternIndex.load(src, embedder)
    patterns, changed = annotate(index.patterns, pairs)
    lexical = LexicalIndex.build([p.pattern_id for p in patterns], [p.lexical_text for p in patterns])
    PatternIndex(patterns, embedder, index._dense, lexical).save(src)
    return {"patterns": len(patterns), "with_aliases": changed}
