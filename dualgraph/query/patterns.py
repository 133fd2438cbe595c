"""The graph pattern index: what the populated SKG can be asked, as searchable patterns.

Built at index time from the SKG (paper §4.5; the reference's ``vdb_specs``/``vdb_features``
/``vdb_categories`` stores, digest §3.1). Each :class:`Pattern` stands for one SPARQL
snippet over the product variable ``?p`` (an entry with a number in one unit, an entry
with its values, a feature, a category, a range, a product) and carries a linearised
sentence that is embedded, plus the structured facts a query compiler needs (entry IRI,
unit, min/max, product counts, the most common values) so nothing has to parse text.

Unlike the reference, which stored one row per distinct (section, entry, value) and
nothing about numbers, patterns are aggregated per entry (and per unit for numbers),
so a question constraint such as "battery over 5000 mAh" grounds on one pattern whose
range and unit say how to compare. Every statistic is computed in SPARQL (``GROUP
BY``), never by pulling spec rows into Python.

Snippets use ``{s}`` (the spec variable) and ``{v}`` (the value variable) as
placeholders that :meth:`Pattern.fill` replaces:

>>> p = Pattern(pattern_id="x", kind="spec_numeric", text="Battery › Capacity: a number in mAh",
...             sparql="?p skg:hasSpec {s} . {s} skg:inEntry <e> ; skg:hasNumericValue {v} .")
>>> p.fill(s="?s1", v="?v1")
'?p skg:hasSpec ?s1 . ?s1 skg:inEntry <e> ; skg:hasNumericValue ?v1 .'

:class:`PatternIndex` searches patterns with a dense (FAISS) and a lexical (BM25)
index fused by reciprocal rank; :func:`build_pattern_index` collects, indexes and saves.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dualgraph.models.base import Embedder
from dualgraph.skg import ontology as O
from dualgraph.stores.base import SparqlStore
from dualgraph.stores.faiss_index import FaissIndex
from dualgraph.stores.vector import IndexMismatchError
from dualgraph.tkg.lexical import LexicalIndex

__all__ = [
    "KINDS", "Pattern", "PatternIndex", "collect_patterns", "build_pattern_index", "pattern_id",
    "IndexMismatchError",
]

KINDS = ("spec_numeric", "spec_value", "feature", "category", "range", "product", "entry")
TOP_VALUES = 20
"""How many of an entry's most common values a ``spec_value`` pattern keeps."""
RRF_K = 60
"""The reciprocal rank fusion constant (Cormack et al.)."""
FORMAT = 1
PATTERNS_FILE = "patterns.jsonl"
MANIFEST_FILE = "manifest.json"
DENSE_DIR = "dense"
LEXICAL_DIR = "lexical"
# An entry with more distinct values than this, most of them held by one product each,
# is an identifier or free text (model codes, descriptions): an "entry" pattern, not a value list.
_FREE_TEXT_MIN_DISTINCT = 50
_FREE_TEXT_RATIO = 0.5


@dataclass(slots=True)
class Pattern:
    """One searchable graph pattern over the product variable ``?p``.

    ``text`` is what gets embedded; ``sparql`` the snippet (``{s}``/``{v}`` placeholders);
    the other fields are the structured facts, ``None`` where they do not apply.
    ``count``: products matching the snippet; ``lacks_count``/``lacks_sparql``: for a
    feature, the products that explicitly lack it and the snippet that finds them.
    ``values``: for a value list, ``{"name", "iri", "count"}`` of the most common values.
    """

    pattern_id: str
    kind: str
    text: str
    sparql: str
    name: str | None = None
    section: str | None = None
    entry: str | None = None
    entry_iri: str | None = None
    unit: str | None = None
    dimension: str | None = None
    min: float | None = None
    max: float | None = None
    count: int = 0
    distinct_values: int | None = None
    values: list[dict[str, Any]] = field(default_factory=list)
    feature_iri: str | None = None
    node_iri: str | None = None
    lacks_count: int | None = None
    lacks_sparql: str | None = None

    def fill(self, *, s: str = "?s", v: str = "?v", snippet: str | None = None) -> str:
        """The snippet with its placeholders replaced by variable names."""
        return (self.sparql if snippet is None else snippet).replace("{s}", s).replace("{v}", v)

    @property
    def lexical_text(self) -> str:
        """The names this pattern answers to exactly (section, entry, unit, values, node names).

        >>> Pattern("x", "spec_value", "t", "", section="Display", entry="Type",
        ...         values=[{"name": "OLED", "iri": "i", "count": 2}]).lexical_text
        'Display Type OLED'
        """
        parts = [self.section, self.entry, self.unit, self.dimension if self.kind == "spec_numeric" else None]
        if self.kind not in ("spec_numeric", "spec_value", "entry"):
            parts.append(self.name)
        parts.extend(v["name"] for v in self.values)
        return " ".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pattern:
        return cls(**data)


def pattern_id(kind: str, *key: str) -> str:
    """A stable id from what a pattern stands for (never from its counts), so rebuilds keep it.

    >>> pattern_id("feature", "https://w3id.org/dualgraph/skg#feature-5g_support")
    'feature-...'
    >>> pattern_id("range", "a") == pattern_id("range", "a") != pattern_id("range", "b")
    True
    """
    digest = hashlib.blake2b("\x1f".join((kind, *key)).encode("utf-8"), digest_size=8).hexdigest()
    return f"{kind.replace('_', '-')}-{digest}"


# -- collection ---------------------------------------------------------------------------


def _rows(store: SparqlStore, query: str) -> list[dict[str, str]]:
    res = store.select(query)
    return [{k: v["value"] for k, v in b.items()} for b in res["results"]["bindings"]]


def _num(text: str | None) -> float | None:
    if text is None:
        return None
    x = float(text)
    return int(x) if x.is_integer() and abs(x) < 1e15 else x


def _fmt(x: float | None) -> str:
    if x is None:
        return "?"
    if isinstance(x, int) or float(x).is_integer():
        return str(int(x))
    return f"{x:.6g}"


def _dimension(unit: str | None) -> str | None:
    """The physical dimension of a stored (canonical) unit, e.g. ``"data"`` for GB."""
    if not unit:
        return None
    from dualgraph.skg import quantities as Q

    found = Q._lookup(unit)  # the unit table of the converter, so the two never disagree
    if found is not None:
        return found.dimension
    return "currency" if len(unit) == 3 and unit.isalpha() and unit.isupper() else None


def _lit(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


Q_ENTRIES = """
SELECT ?e (MIN(STR(?en)) AS ?entry) (MIN(STR(?sn)) AS ?section) (COUNT(DISTINCT ?p) AS ?products)
       (COUNT(DISTINCT ?v) AS ?distinct)
WHERE { ?e a skgt:Entry ; skg:hasName ?en ; skg:inSection ?sec . ?sec skg:hasName ?sn .
        ?s skg:inEntry ?e ; skg:hasValue ?v . ?p skg:hasSpec ?s }
GROUP BY ?e
"""
Q_VALUES = """
SELECT ?e ?v (MIN(STR(?vn)) AS ?name) (COUNT(DISTINCT ?p) AS ?products)
WHERE { ?s skg:inEntry ?e ; skg:hasValue ?v . ?p skg:hasSpec ?s . ?v skg:hasName ?vn }
GROUP BY ?e ?v
"""
Q_NUMERIC = """
SELECT ?e ?u (MIN(?n) AS ?lo) (MAX(?n) AS ?hi) (COUNT(DISTINCT ?p) AS ?products)
WHERE { ?s skg:inEntry ?e ; skg:hasNumericValue ?n . ?p skg:hasSpec ?s .
        OPTIONAL { ?s skg:hasUnit ?u } }
GROUP BY ?e ?u
"""
Q_NUMERIC_MODE = """
SELECT ?e ?u ?n (COUNT(DISTINCT ?p) AS ?products)
WHERE { ?s skg:inEntry ?e ; skg:hasNumericValue ?n . ?p skg:hasSpec ?s .
        OPTIONAL { ?s skg:hasUnit ?u } }
GROUP BY ?e ?u ?n
"""
Q_FEATURES = """
SELECT ?f (MIN(STR(?fn)) AS ?name) (MIN(STR(?sn)) AS ?section) (COUNT(DISTINCT ?p) AS ?products) ?how
WHERE { ?f a skgt:Feature ; skg:hasName ?fn .
        OPTIONAL { ?f skg:inSection/skg:hasName ?sn }
        { ?p skg:hasFeature ?f . BIND("has" AS ?how) } UNION { ?p skg:lacksFeature ?f . BIND("lacks" AS ?how) }
        ?p a skgt:Product . }
GROUP BY ?f ?how
"""
Q_CATEGORIES = """
SELECT ?c (MIN(STR(?cn)) AS ?name) (COUNT(DISTINCT ?p) AS ?products)
WHERE { ?c a skgt:Category ; skg:hasName ?cn . ?p skg:belongs ?c ; a skgt:Product . }
GROUP BY ?c
"""
Q_RANGES = """
SELECT ?r (MIN(STR(?rn)) AS ?name) (COUNT(DISTINCT ?p) AS ?products)
WHERE { ?r a skgt:ProductRange ; skg:hasName ?rn . ?p skg:variantOf ?r ; a skgt:Product . }
GROUP BY ?r
"""
Q_PRODUCTS = """
SELECT ?p (MIN(STR(?pn)) AS ?name) WHERE { ?p a skgt:Product ; skg:hasName ?pn } GROUP BY ?p
"""


def collect_patterns(store: SparqlStore, *, top_values: int = TOP_VALUES) -> list[Pattern]:
    """Every pattern of the populated (rules applied) SKG, in a deterministic order.

    Eight aggregate queries: entries (section, product and distinct-value counts),
    product counts per value, numeric min/max per entry and unit, the most common number
    per entry and unit, features (products having / lacking each), categories, ranges,
    products. An entry yields a ``spec_value`` pattern (or an ``entry`` pattern when its
    values are identifiers or free text) and one ``spec_numeric`` pattern per unit.
    """
    out: list[Pattern] = []
    entries = {r["e"]: r for r in _rows(store, Q_ENTRIES)}

    by_entry: dict[str, list[dict[str, Any]]] = {}
    for r in _rows(store, Q_VALUES):
        by_entry.setdefault(r["e"], []).append({"name": r["name"], "iri": r["v"], "count": int(r["products"])})

    modes: dict[tuple[str, str | None], tuple[int, float]] = {}
    for r in _rows(store, Q_NUMERIC_MODE):
        key, cand = (r["e"], r.get("u")), (int(r["products"]), _num(r["n"]))
        best = modes.get(key)
        if best is None or (cand[0], -cand[1]) > (best[0], -best[1]):  # most products, then smallest
            modes[key] = cand

    numeric_products: dict[str, int] = {}
    for r in sorted(_rows(store, Q_NUMERIC), key=lambda r: (r["e"], r.get("u") or "")):
        e = entries.get(r["e"])
        numeric_products[r["e"]] = max(numeric_products.get(r["e"], 0), int(r["products"]))
        if e is None:
            continue
        unit = r.get("u")
        lo, hi, count = _num(r["lo"]), _num(r["hi"]), int(r["products"])
        mode = modes.get((r["e"], unit))
        in_unit = f" in {unit}" if unit else ""
        text = f"{e['section']} › {e['entry']}: a number{in_unit}, from {_fmt(lo)} to {_fmt(hi)}"
        if mode is not None:
            text += f" (e.g. {_fmt(mode[1])}{' ' + unit if unit else ''})"
        unit_triple = f" skg:hasUnit {_lit(unit)} ;" if unit else ""
        sparql = f"?p skg:hasSpec {{s}} . {{s}} skg:inEntry <{r['e']}> ;{unit_triple} skg:hasNumericValue {{v}} ."
        if not unit:
            sparql += " FILTER NOT EXISTS { {s} skg:hasUnit ?unit_ }"
        out.append(Pattern(
            pattern_id=pattern_id("spec_numeric", r["e"], unit or ""), kind="spec_numeric", text=text,
            sparql=sparql, name=e["entry"], section=e["section"], entry=e["entry"], entry_iri=r["e"],
            unit=unit, dimension=_dimension(unit), min=lo, max=hi, count=count,
        ))

    for e_iri in sorted(entries):
        e = entries[e_iri]
        values = sorted(by_entry.get(e_iri, []), key=lambda v: (-v["count"], v["name"], v["iri"]))
        distinct, count = int(e["distinct"]), int(e["products"])
        numeric = numeric_products.get(e_iri, 0)  # a numeric entry stays a value list: its values compare
        free = (distinct > _FREE_TEXT_MIN_DISTINCT and distinct > _FREE_TEXT_RATIO * count
                and numeric < _FREE_TEXT_RATIO * count)
        top = values[:top_values]
        names = ", ".join(v["name"] for v in top[:8])
        label = f"{e['section']} › {e['entry']}"
        if free:
            kind, text = "entry", f"{label}: free text or identifiers, e.g. {names}"
            top = top[:5]
        else:
            more = f" ({distinct} distinct)" if distinct > 8 else ""
            kind, text = "spec_value", f"{label}: values like {names}{more}"
        out.append(Pattern(
            pattern_id=pattern_id("spec_value", e_iri), kind=kind, text=text,
            sparql=f"?p skg:hasSpec {{s}} . {{s}} skg:inEntry <{e_iri}> ; skg:hasValue {{v}} .",
            name=e["entry"], section=e["section"], entry=e["entry"], entry_iri=e_iri, count=count,
            distinct_values=distinct, values=top,
        ))

    features: dict[str, dict[str, Any]] = {}
    for r in _rows(store, Q_FEATURES):
        f = features.setdefault(r["f"], {"name": r["name"], "section": r.get("section"), "has": 0, "lacks": 0})
        f[r["how"]] = int(r["products"])
    for f_iri in sorted(features):
        f = features[f_iri]
        where = f" ({f['section']})" if f["section"] else ""
        out.append(Pattern(
            pattern_id=pattern_id("feature", f_iri), kind="feature", text=f"feature: {f['name']}{where}",
            sparql=f"?p skg:hasFeature <{f_iri}> .", name=f["name"], section=f["section"],
            entry=f["name"] if f["section"] else None, entry_iri=f_iri if f["section"] else None,
            count=f["has"], feature_iri=f_iri, node_iri=f_iri, lacks_count=f["lacks"],
            lacks_sparql=f"?p skg:lacksFeature <{f_iri}> .",
        ))

    for kind, query, pred in (("category", Q_CATEGORIES, O.BELONGS), ("range", Q_RANGES, O.VARIANT_OF)):
        var = "c" if kind == "category" else "r"
        for r in sorted(_rows(store, query), key=lambda r: r[var]):
            out.append(Pattern(
                pattern_id=pattern_id(kind, r[var]), kind=kind, text=f"{kind}: {r['name']}",
                sparql=f"?p <{pred}> <{r[var]}> .", name=r["name"], count=int(r["products"]), node_iri=r[var],
            ))

    for r in sorted(_rows(store, Q_PRODUCTS), key=lambda r: r["p"]):
        out.append(Pattern(
            pattern_id=pattern_id("product", r["p"]), kind="product", text=f"product: {r['name']}",
            sparql=f"VALUES ?p {{ <{r['p']}> }}", name=r["name"], count=1, node_iri=r["p"],
        ))
    return out


# -- the index ----------------------------------------------------------------------------


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class PatternIndex:
    """Patterns searchable by meaning (FAISS over ``text``) and by exact names (BM25 over
    :attr:`Pattern.lexical_text`), fused by reciprocal rank.

    >>> import numpy as np
    >>> class Toy:  # a two-word toy embedder, for this example only
    ...     name, dim = "toy", 2
    ...     def embed(self, texts, *, stage="default"):
    ...         rows = np.array([[t.count("battery") + 0.1, t.count("screen") + 0.1] for t in texts], "float32")
    ...         return rows / np.linalg.norm(rows, axis=1, keepdims=True)
    >>> pats = [Pattern("a", "spec_numeric", "battery capacity mAh", "", section="Battery", unit="mAh"),
    ...         Pattern("b", "spec_value", "screen type", "", section="Display", entry="Type")]
    >>> index = PatternIndex.build(pats, Toy())
    >>> [[p.pattern_id for p, _ in hits] for hits in index.search(["battery mAh", "display screen"], k=1)]
    [['a'], ['b']]
    >>> index.search(["battery"], k=2, kinds=["spec_value"])[0][0][0].pattern_id
    'b'
    """

    def __init__(self, patterns: list[Pattern], embedder: Embedder, dense: FaissIndex, lexical: LexicalIndex) -> None:
        self.patterns = list(patterns)
        self.embedder = embedder
        self._by_id = {p.pattern_id: p for p in self.patterns}
        if len(self._by_id) != len(self.patterns):
            raise ValueError("pattern ids must be unique")
        self._dense = dense
        self._lexical = lexical

    @classmethod
    def build(cls, patterns: list[Pattern], embedder: Embedder, *, gpu: bool | str = False) -> PatternIndex:
        """Embed every pattern's text and index its names."""
        ids = [p.pattern_id for p in patterns]
        dense = FaissIndex(embedder.dim, gpu=gpu)
        if patterns:
            dense.add(ids, embedder.embed([p.text for p in patterns], stage="patterns"))
        lexical = LexicalIndex.build(ids, [p.lexical_text for p in patterns])
        return cls(patterns, embedder, dense, lexical)

    def __len__(self) -> int:
        return len(self.patterns)

    def get(self, pattern_id: str) -> Pattern:
        return self._by_id[pattern_id]

    def search(self, texts: list[str], *, k: int = 10, kinds: list[str] | tuple[str, ...] | None = None,
               depth: int | None = None) -> list[list[tuple[Pattern, float]]]:
        """Top-``k`` patterns per text, by reciprocal rank fusion of the dense and lexical rankings.

        ``kinds`` keeps only patterns of those kinds (filtered before the cut, so ``k``
        of them come back when there are that many). ``depth``: how deep each ranking
        is read before fusing (default ``max(5k, 50)``, grown when a filter needs more).
        Scores are RRF sums, ``1/(60+rank)`` per ranking a pattern appears in.
        """
        if not texts:
            return []
        if k <= 0 or not self.patterns:
            return [[] for _ in texts]
        wanted = set(kinds) if kinds is not None else None
        if wanted is not None and not wanted <= set(KINDS):
            raise ValueError(f"unknown kinds {sorted(wanted - set(KINDS))}; known: {KINDS}")
        queries = self.embedder.embed(list(texts), stage="query")
        n = len(self.patterns)
        depth = min(n, depth or max(5 * k, 50))
        out: list[list[tuple[Pattern, float]]] = []
        for i, text in enumerate(texts):
            d = depth
            while True:
                dense = self._dense.search(queries[i:i + 1], k=d)[0]
                lexical = self._lexical.search([text], k=d)[0]
                fused = self._fuse(dense, lexical, wanted)
                if len(fused) >= k or d >= n:
                    break
                d = min(n, 4 * d)
            out.append(fused[:k])
        return out

    def _fuse(self, dense, lexical, wanted) -> list[tuple[Pattern, float]]:
        scores: dict[str, float] = {}
        for ranking in (dense, lexical):
            rank = 0
            for pid, _ in ranking:
                if wanted is not None and self._by_id[pid].kind not in wanted:
                    continue
                rank += 1
                scores[pid] = scores.get(pid, 0.0) + 1.0 / (RRF_K + rank)
        return [(self._by_id[pid], s) for pid, s in sorted(scores.items(), key=lambda x: (-x[1], x[0]))]

    # -- persistence ----------------------------------------------------------------------

    def save(self, directory: str | os.PathLike) -> None:
        """Write patterns, both indexes and a manifest (with their hashes) into ``directory``.

        Everything goes to a fresh sibling folder first, which then replaces
        ``directory`` by renames: a crash leaves the old index, or a folder without a
        manifest that :meth:`load` refuses, never a mix of two builds that loads.
        """
        out = Path(directory)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        with open(tmp / PATTERNS_FILE, "w", encoding="utf-8") as f:
            for p in self.patterns:
                f.write(json.dumps(p.to_dict(), ensure_ascii=False, sort_keys=True) + "\n")
        self._dense.save(tmp / DENSE_DIR)
        self._lexical.save(tmp / LEXICAL_DIR)
        manifest = {
            "format": FORMAT,
            "embedder": getattr(self.embedder, "name", None),
            "dim": int(self.embedder.dim),
            "patterns": len(self.patterns),
            "counts": _counts(self.patterns),
            "files": {rel: _sha256(tmp / rel) for rel in _hashed_files(tmp)},
        }
        mtmp = tmp / f".{MANIFEST_FILE}.tmp"
        with open(mtmp, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(mtmp, tmp / MANIFEST_FILE)
        old = out.with_name(f".{out.name}.{os.getpid()}.old")
        shutil.rmtree(old, ignore_errors=True)
        if out.exists():
            os.replace(out, old)
        os.replace(tmp, out)
        shutil.rmtree(old, ignore_errors=True)

    @classmethod
    def load(cls, directory: str | os.PathLike, embedder: Embedder, *, gpu: bool | str = False) -> PatternIndex:
        """Read an index written by :meth:`save`, for searching with ``embedder``.

        Raises :class:`IndexMismatchError` when the manifest is missing, a file differs
        from the one saved, the pattern ids of the three parts disagree, or ``embedder``
        is not the one the patterns were embedded with.
        """
        src = Path(directory)
        manifest_path = src / MANIFEST_FILE
        if not manifest_path.is_file():
            raise IndexMismatchError(f"{manifest_path} is missing: no complete pattern index in {src}")
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT:
            raise IndexMismatchError(f"{src} holds pattern index format {manifest.get('format')}, expected {FORMAT}")
        files = manifest.get("files", {})
        present = set(_hashed_files(src))
        if present != set(files):
            raise IndexMismatchError(f"{src}: files {sorted(present ^ set(files))} differ from the manifest's list")
        for rel, digest in files.items():
            if _sha256(src / rel) != digest:
                raise IndexMismatchError(f"{src / rel} is not the file the manifest was saved with")
        if int(embedder.dim) != manifest["dim"] or getattr(embedder, "name", None) != manifest["embedder"]:
            raise IndexMismatchError(
                f"{src} was embedded with {manifest['embedder']!r} (dim {manifest['dim']}), "
                f"not {getattr(embedder, 'name', None)!r} (dim {embedder.dim})")
        with open(src / PATTERNS_FILE, encoding="utf-8") as f:
            patterns = [Pattern.from_dict(json.loads(line)) for line in f if line.strip()]
        dense = FaissIndex.load(src / DENSE_DIR, gpu=gpu)
        lexical = LexicalIndex.load(src / LEXICAL_DIR)
        ids = [p.pattern_id for p in patterns]
        if len(ids) != manifest["patterns"] or set(ids) != set(dense.ids()) or ids != lexical.ids():
            raise IndexMismatchError(f"{src}: patterns, dense and lexical indexes hold different pattern ids")
        return cls(patterns, embedder, dense, lexical)


def _hashed_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.is_file() and p.name != MANIFEST_FILE and not p.name.startswith("."))


def _counts(patterns: list[Pattern]) -> dict[str, int]:
    counts = dict.fromkeys(KINDS, 0)
    for p in patterns:
        counts[p.kind] += 1
    return counts


def build_pattern_index(store: SparqlStore, embedder: Embedder, out_dir: str | os.PathLike) -> dict[str, Any]:
    """Collect the patterns of ``store``, index them with ``embedder`` and save to ``out_dir``.

    Returns ``{"patterns": n, "counts": {kind: n}, "seconds": {"collect", "index", "save", "total"}}``.
    """
    t0 = time.perf_counter()
    patterns = collect_patterns(store)
    t1 = time.perf_counter()
    index = PatternIndex.build(patterns, embedder)
    t2 = time.perf_counter()
    index.save(out_dir)
    t3 = time.perf_counter()
    return {
        "patterns": len(patterns),
        "counts": _counts(patterns),
        "seconds": {"collect": round(t1 - t0, 3), "index": round(t2 - t1, 3), "save": round(t3 - t2, 3),
                    "total": round(t3 - t0, 3)},
    }
