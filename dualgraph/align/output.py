"""Where the aligner's accepted pairs go: the store and the pattern index.

* **Store**: in their own graph (``ontology.ALIGNMENT_GRAPH``), a plain ``?entity skg:alignsWith ?node``
  edge per pair, which SPARQL follows like the exact-name ones, and one ``skgt:Alignment`` node per
  pair with its score and judge, so a query can ask how sure a link is.
* **Pattern index**: the page's name becomes an alias of the pattern standing for the node (a
  feature, an entry's patterns, a value of a value list, a category), searchable by its words, and
  the entity's IRI is kept beside it, so grounding can count products whose pages state the fact
  (:meth:`~dualgraph.query.ground.features.FeatureGrounder.feature`). :func:`annotate` is
  also what a later index run calls, so a rebuilt pattern index keeps the aliases.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dualgraph.lexicon.pattern import Pattern
from dualgraph.skg import ontology as O
from dualgraph.skg.names import short_hash
from dualgraph.skg.terms import iri, literal

__all__ = ["alignment_nquads", "annotate", "read_alignments", "write_alignment_graph"]

ALIGNMENTS_FILE = "alignments.jsonl"


def alignment_nquads(pairs: Iterable[dict[str, Any]]) -> list[str]:
    """The N-Quads lines of ``pairs`` (``text_iri``, ``skg_iri``, ``score``, ``judge``).

    >>> lines = alignment_nquads([{"text_iri": "http://x/e", "skg_iri": "http://x/n", "score": 0.9, "judge": "rule"}])
    >>> len(lines), sorted({line.split()[1].rsplit("#", 1)[1][:-1] for line in lines})
    (6, ['alignFrom', 'alignJudge', 'alignScore', 'alignTo', 'alignsWith', 'type'])
    """
    g = iri(O.ALIGNMENT_GRAPH)
    out = []
    for p in pairs:
        e, x = iri(p["text_iri"]), iri(p["skg_iri"])
        node = iri(O.SKG + "alignment-" + short_hash(p["text_iri"] + "\x1f" + p["skg_iri"]))
        score = f'"{float(p["score"]):.4f}"^^{iri(O.XSD_DECIMAL)}'
        out += [
            f"{e} {iri(O.ALIGNS_WITH)} {x} {g} .\n",
            f"{node} {iri(O.TYPE)} {iri(O.ALIGNMENT)} {g} .\n",
            f"{node} {iri(O.ALIGN_FROM)} {e} {g} .\n",
            f"{node} {iri(O.ALIGN_TO)} {x} {g} .\n",
            f"{node} {iri(O.ALIGN_SCORE)} {score} {g} .\n",
            f"{node} {iri(O.ALIGN_JUDGE)} {literal(str(p['judge']))} {g} .\n",
        ]
    return out


def write_alignment_graph(store, pairs: list[dict[str, Any]], saved: Path) -> dict[str, Any]:
    """Make the alignment graph hold exactly ``pairs`` (a rerun replaces the previous run's)."""
    from dualgraph.pipeline.graph_sync import sync_graph

    Path(saved).parent.mkdir(parents=True, exist_ok=True)
    return sync_graph(store, O.ALIGNMENT_GRAPH, alignment_nquads(pairs), saved)


def read_alignments(align_dir: Path) -> list[dict[str, Any]]:
    """The pairs a previous ``dualgraph align`` accepted (none when it never ran)."""
    path = Path(align_dir) / ALIGNMENTS_FILE
    if not path.is_file():
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def annotate(patterns: list[Pattern], pairs: list[dict[str, Any]]) -> tuple[list[Pattern], int]:
    """Copies of ``patterns`` with each pair's page name as an alias of the patterns standing for its
    SKG node, and how many patterns gained one. Patterns keep their ids (aliases are not identity).

    >>> p = Pattern("f", "feature", "t", "", name="Radio", feature_iri="http://x/radio")
    >>> [q.aliases for q in annotate([p], [{"skg_iri": "http://x/radio", "text_name": "FM tuner",
    ...                                      "text_iri": "http://x/e"}])[0]]
    [['FM tuner']]
    """
    by_node: dict[str, list[dict[str, Any]]] = {}
    for pair in pairs:
        by_node.setdefault(pair["skg_iri"], []).append(pair)
    out, changed = [], 0
    for p in patterns:
        q = copy.deepcopy(p)
        q.aliases, q.aligned = [], []
        for node in dict.fromkeys(x for x in (q.feature_iri, q.entry_iri, q.node_iri) if x):
            if q.kind == "product":
                continue
            for pair in by_node.get(node, ()):
                _add(q.aliases, pair["text_name"])
                _add(q.aligned, pair["text_iri"])
        for v in q.values:
            v.pop("aliases", None)
            v.pop("aligned", None)
            # kept on the value, not the pattern: a question about one value must not take in the
            # phrases linked to the entry's other values
            for pair in by_node.get(v.get("iri", ""), ()):
                _add(v.setdefault("aliases", []), pair["text_name"])
                _add(v.setdefault("aligned", []), pair["text_iri"])
        changed += bool(q.aliases or q.aligned or any(v.get("aligned") for v in q.values))
        out.append(q)
    return out, changed


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
