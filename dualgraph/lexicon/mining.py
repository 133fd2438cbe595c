"""Which words name which attribute, read from the catalog's own data instead of a word list.

Two readings, both from what one catalog holds:

* **Variants** (:func:`variants`): the numeric attributes of one section and dimension that share a
  word ("Rear camera resolution", "Front camera resolution", "Second rear camera resolution"; or the
  labels "rear" and "front" inside one "Camera" entry) are variants of one attribute. The one most
  products state is the *principal*; the words another adds to the principal's are its *variant
  words* ("front", "second"). A question that names no variant means the principal, and "the main
  one" (general English, ``general_synonyms.yaml``) is the principal whatever the catalog calls it.
* **Prose synonyms** (:func:`prose_synonyms`): a page that says "take selfies with the 2 MP camera"
  about a product whose spec table holds 2 MP under "Front camera resolution" ties "selfies" to the
  words that set that entry apart from its variants ("front"). A word counts when several products
  tie it to the same entry words and it is tied to them far more often than chance.

>>> from dualgraph.lexicon.pattern import Pattern
>>> def num(entry, label, count):
...     return Pattern(entry + (label or ""), "spec_numeric", "", "", section="Camera", entry=entry,
...                    entry_iri="e:" + entry, label=label, unit="MP", dimension="resolution_mp", count=count)
>>> v = variants([num("Camera", "rear", 900), num("Camera", "front", 700), num("Flash", None, 5)])
>>> sorted(v.principal), v.variant_words["Camerafront"], v.distinct["Camerarear"]
(['Camerarear'], frozenset({'front'}), frozenset({'rear'}))
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dualgraph.lexicon.catalog_names import singular
from dualgraph.lexicon.pattern import Pattern
from dualgraph.skg.spec_table import SpecTables, iter_rows

__all__ = [
    "MIN_LIFT",
    "MIN_PRODUCTS",
    "MIN_SHARE",
    "Variants",
    "load_prose_synonyms",
    "mine_index",
    "prose_synonyms",
    "variants",
]

MIN_PRODUCTS = 2
"""A page word must tie to the same entry words on this many products: one page proves nothing."""
MIN_SHARE = 0.6
"""... and on this share of the products where it stands beside a spec value at all."""
MIN_LIFT = 2.0
"""... and this many times more often than the entry words are tied to any page word."""

_TABLE_LINE = re.compile(r"\s*(?:#|[^:.!?]{1,60}:\s)")
WINDOW = 5
"""Words either side of a quantity that may say what it measures ("take selfies with the 2 MP camera")."""
FILE = "prose_lexicon.json"
_STOP = frozenset(
    """a an the of with and or in on for to by at is are has have than more less its it this that
from up upto as be can all any per into your you our their his her""".split()
)


def _words(text: str | None) -> frozenset[str]:
    return frozenset(w for w in re.findall(r"[a-z]+", (text or "").casefold()) if len(w) > 1 and w not in _STOP)


def _pattern_words(p: Pattern) -> frozenset[str]:
    return _words(" ".join(x for x in (p.entry or p.name, p.label) if x))


@dataclass
class Variants:
    """The variant structure of a catalog's numeric attributes (see the module notes).

    ``principal``: ids of patterns that are the principal of a group of two or more;
    ``variant_words``: per pattern id, the words it adds to its group's principal (empty for it);
    ``distinct``: per pattern id, the words that set it apart within its group (all its words when
    it has no group); ``shared``: per pattern id, the words all of its group say (the attribute the
    variants are variants of: "camera")."""

    principal: set[str] = field(default_factory=set)
    variant_words: dict[str, frozenset[str]] = field(default_factory=dict)
    distinct: dict[str, frozenset[str]] = field(default_factory=dict)
    shared: dict[str, frozenset[str]] = field(default_factory=dict)
    alone: set[str] = field(default_factory=set)
    """Ids of patterns of the only numeric entry in their section (Battery › Capacity): naming the
    section names them."""


def variants(patterns: Iterable[Pattern]) -> Variants:
    """Group numeric patterns into variants of one attribute (see the module notes)."""
    by_key: dict[tuple[str, str], list[Pattern]] = defaultdict(list)
    for p in patterns:
        if p.kind == "spec_numeric" and p.dimension:
            by_key[(p.section or "", p.dimension)].append(p)
    out = Variants()
    entries: dict[str, set[str | None]] = defaultdict(set)  # section -> its numeric entries
    for (section, _), group in by_key.items():
        entries[section] |= {p.entry_iri for p in group}
    for (section, _), group in by_key.items():
        if len(entries[section]) == 1:
            out.alone.update(p.pattern_id for p in group)
        clusters: list[list[Pattern]] = []
        for p in sorted(group, key=lambda p: (-p.count, p.pattern_id)):
            words = _pattern_words(p)
            home = next((c for c in clusters if words & _pattern_words(c[0])), None)
            if home is None:
                clusters.append([p])
            else:
                home.append(p)
        for c in clusters:
            head = _pattern_words(c[0])
            shared = frozenset.intersection(*(_pattern_words(p) for p in c))
            # a principal only where the catalog says which: stated by more products than any other
            clear = len(c) > 1 and c[1].count < c[0].count
            if clear:
                out.principal.add(c[0].pattern_id)
            for p in c:
                words = _pattern_words(p)
                out.variant_words[p.pattern_id] = words - head if clear else frozenset()
                out.distinct[p.pattern_id] = (words - shared) or words if len(c) > 1 else words
                out.shared[p.pattern_id] = shared if len(c) > 1 else frozenset()
    return out


Fact = tuple[str, float, frozenset[str]]
"""(unit, value, the words that set its attribute apart) of one numeric spec fact."""


def prose_synonyms(
    pages: Iterable[tuple[Iterable[str], str]],
    facts: Mapping[str, list[Fact]],
    *,
    catalog_words: Iterable[str] = (),
    min_products: int = MIN_PRODUCTS,
    min_share: float = MIN_SHARE,
    min_lift: float = MIN_LIFT,
) -> dict[str, list[str]]:
    """Page words -> the catalog words they stand for, read where pages state a product's spec values.

    ``pages``: (product IRIs, text) per page chunk; ``facts``: per product IRI, its numeric spec
    facts; ``catalog_words``: words the catalog's attribute names use themselves (never mined: a
    question saying them meets the names directly).

    >>> facts = {p: [("MP", 2.0, frozenset({"front"})), ("MP", 13.0, frozenset({"rear"}))] for p in "abcde"}
    >>> pages = [(["a"], "Take selfies with the 2 MP camera."), (["b"], "Great selfies from its 2 MP sensor."),
    ...          (["c", "d", "e"], "A 13 MP camera for landscapes.")]
    >>> prose_synonyms(pages, facts, catalog_words=["camera"])
    {'selfie': ['front']}
    """
    from dualgraph.skg.spotting import spot

    known = {w.casefold() for w in catalog_words}
    tied: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # word -> entry word -> products
    seen: dict[str, set[str]] = defaultdict(set)  # word -> products where it stood beside a stated value
    events: Counter[str] = Counter()  # entry word -> (product, value) ties of any page word
    total = 0
    for products, text in pages:
        products = [p for p in products if p in facts]
        if not products:
            continue
        # a page's rendering of the spec table ("Camera: 13 MP Rear Camera") restates values, it
        # does not say them in other words: only prose lines are read
        prose = [line for line in text.splitlines() if not _TABLE_LINE.match(line)]
        for sentence in (s for line in prose for s in re.split(r"(?<=[.!?])\s+", line)):
            for x in spot(sentence):
                if x.kind != "measure" or x.value is None:
                    continue
                near = _words(" ".join(_around(sentence, x.start, x.end)))
                for product in products:
                    hits = [w for u, v, w in facts[product] if u == x.unit and abs(v - x.value) <= 5e-3 * abs(v)]
                    if len(hits) != 1:  # no fact, or two attributes with the same value: no evidence
                        continue
                    total += 1
                    for e in hits[0]:
                        events[e] += 1
                    for w in {singular([x])[0] for x in near - known - hits[0]} - known:
                        if not w.isalpha() or len(w) < 3:
                            continue
                        seen[w].add(product)
                        for e in hits[0]:
                            tied[w][e].add(product)
    out: dict[str, list[str]] = {}
    for w, by_entry in tied.items():
        n = len(seen[w])
        kept = []
        for e, prods in sorted(by_entry.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            share = len(prods) / n
            if len(prods) >= min_products and share >= min_share and share / (events[e] / total) >= min_lift:
                kept.append(e)
        if kept:
            out[w] = kept
    return out


def _around(sentence: str, start: int, end: int, width: int = WINDOW) -> list[str]:
    """The words within ``width`` of a quantity, on its side of any clause punctuation."""
    before = re.split(r"[,;:()\[\]]", sentence[:start])[-1].split()[-width:]
    after = re.split(r"[,;:()\[\]]", sentence[end:])[0].split()[:width]
    return before + after


def _fact_rows(
    store: Any,
    ids: Mapping[tuple[str, str, str], str],
    distinct: Mapping[str, frozenset[str]],
    specs: SpecTables | None = None,
):
    if specs is not None:
        # the converter's rows (skg.spec_table): no pass over every quantity of the store
        every = iter_rows(specs.quantities, ("product", "entry", "unit", "number", "label"))
        rows: Iterable[tuple[str, str, str, str, str]] = (r for r in every if r[2])
    else:
        res = store.select(
            """SELECT ?p ?e ?u ?v ?l WHERE { ?p skg:hasSpec ?s . ?s skg:inEntry ?e ; skg:hasQuantity ?q .
            ?q skg:hasUnit ?u ; skg:hasNumericValue ?v . OPTIONAL { ?q skg:hasLabel ?l } }"""
        )
        rows = (
            (b["p"]["value"], b["e"]["value"], b["u"]["value"], b["v"]["value"], b.get("l", {}).get("value", ""))
            for b in res["results"]["bindings"]
        )
    facts: dict[str, list[Fact]] = defaultdict(list)
    for product, entry, unit, number, label in rows:
        pid = ids.get((entry, unit, label))
        if pid is None:
            continue
        try:
            value = float(number)
        except ValueError:
            continue
        facts[product].append((unit, value, distinct[pid]))
    return facts


def mine(
    store: Any,
    patterns: list[Pattern],
    pages: Iterable[tuple[Iterable[str], str]],
    *,
    specs: SpecTables | None = None,
) -> dict[str, list[str]]:
    """:func:`prose_synonyms` over a built SKG (``store``) and its numeric ``patterns``; ``specs``:
    the converter's spec tables, read instead of every quantity in the store."""
    numeric = [p for p in patterns if p.kind == "spec_numeric" and p.entry_iri and p.unit]
    v = variants(numeric)
    ids = {(p.entry_iri or "", p.unit or "", p.label or ""): p.pattern_id for p in numeric}
    facts = _fact_rows(store, ids, v.distinct, specs)
    words = {w for p in patterns if p.kind in ("spec_numeric", "spec_value") for w in _pattern_words(p)}
    words |= {w for p in patterns if p.kind in ("spec_numeric", "spec_value") for w in _words(p.section)}
    # words of product names are names, not what a value measures ("Galaxy Tab A 8 GB" in a title)
    words |= {w for p in patterns if p.kind in ("product", "range") for w in _words(p.name)}
    return prose_synonyms(pages, facts, catalog_words=words)


def _pages(index_dir: Path, store: Any) -> list[tuple[list[str], str]] | None:
    chunks = index_dir / "tkg" / "chunks.parquet"
    if not chunks.is_file():
        return None
    import pyarrow.parquet as pq

    res = store.select("SELECT ?p ?n WHERE { ?p a skgt:Product ; skg:hasName ?n }")
    by_name: dict[str, list[str]] = defaultdict(list)
    for b in res["results"]["bindings"]:
        by_name[b["n"]["value"]].append(b["p"]["value"])
    rows = pq.read_table(chunks, columns=["text", "products"]).to_pylist()
    return [([i for n in (r["products"] or ()) for i in by_name.get(n, ())], r["text"] or "") for r in rows]


def load_prose_synonyms(index_dir: str | Path, store: Any, patterns: list[Pattern]) -> dict[str, list[str]]:
    """The mined prose synonyms of an index: its ``tkg/prose_lexicon.json``, or (an index built before
    the file existed) mined now from its page chunks; ``{}`` for an index without pages."""
    path = Path(index_dir) / "tkg" / FILE
    if path.is_file():
        return {str(k): [str(x) for x in v] for k, v in json.loads(path.read_text("utf-8")).items()}
    pages = _pages(Path(index_dir), store)
    return mine(store, patterns, pages) if pages is not None else {}


def mine_index(
    index_dir: str | Path, store: Any, *, progress: bool = False, specs: SpecTables | None = None
) -> dict[str, Any]:
    """Mine an index's pages against its SKG and write ``tkg/prose_lexicon.json`` (a manifest entry)."""
    import time

    from dualgraph.lexicon.pattern_index import PATTERNS_FILE, read_patterns
    from dualgraph.progress import progress_bar

    t0 = time.time()
    root = Path(index_dir)
    with progress_bar("prose lexicon", total=2, unit="step", enabled=progress) as bar:
        pages = _pages(root, store)
        bar.update(1)
        if pages is None or not (root / "patterns" / PATTERNS_FILE).is_file():
            return {"words": 0, "seconds": 0.0}
        patterns = read_patterns(root / "patterns")
        mined = mine(store, patterns, pages, specs=specs)
        bar.update(1)
    save_prose_synonyms(root / "tkg", mined)
    return {"words": len(mined), "pages": len(pages), "seconds": round(time.time() - t0, 3)}


def save_prose_synonyms(tkg_dir: str | Path, mined: Mapping[str, list[str]]) -> Path:
    """Write what :func:`mine` read next to the TKG it was read from."""
    path = Path(tkg_dir) / FILE
    path.write_text(json.dumps(dict(sorted(mined.items())), indent=1, ensure_ascii=False), encoding="utf-8")
    return path
