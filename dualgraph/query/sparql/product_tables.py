"""Answer a compiled list or count from per-product tables, where the store would walk the catalogue.

On a catalogue with full data sheets a product node carries a thousand edges or more, and every
lookup that starts from a bound product (its type, its name, its currency) costs the store about
20 µs whatever the catalogue's size: the final query of "Which phones have at least 4000 mAh?" spent
40 of its 60 ms checking the type and reading the name of each of 1,600 products
(``bench/profile_ask.py``). Here those facts are read once per engine, each in one scan of its
predicate, and the question's conditions become masks over the products:

- the products (typed and named) and their names, one scan each;
- a price range in a currency, from a table of every product's prices and currencies;
- a product named (``VALUES ?p``), directly;
- a membership (``?p skg:belongs <c>``, a brand, a line, a feature; one IRI or an ``IN`` list) and
  any condition the emitter wrote as its own sub-select (:func:`~dualgraph.query.sparql.emit.condition_block`):
  the store runs the condition alone, which is how it evaluates a sub-select anyway, and the mask
  is kept, since the same conditions come back across a batch.

Anything else (a negation, a filter on names, an ordering, a description) is left to the store:
:meth:`ProductTables.result` returns None and the caller runs the query as written. The rows given
are the ones that query returns, in its order, with its cap (``tests/unit/test_product_tables.py``
holds every form against the store). Tables are read only from a store that cannot change under
the reader (``capabilities.snapshot``: an embedded store opened read-only, or its copy in memory).
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from typing import Any

import numpy as np

from dualgraph.query.read.model import Intent
from dualgraph.query.sparql.safety import QueryResult, run_select

__all__ = ["ProductTables", "tables_for"]

MASKS_KEPT = 256
"""Condition masks kept per engine (one byte per product each: 25 MB at 100k products)."""

_XSD = "http://www.w3.org/2001/XMLSchema#"
_XSD_INTEGER = _XSD + "integer"
_NUMBER_TYPES = frozenset(
    _XSD + t
    for t in (
        "integer decimal double float int long short byte nonNegativeInteger positiveInteger "
        "nonPositiveInteger negativeInteger unsignedLong unsignedInt unsignedShort unsignedByte"
    ).split()
)
_PRICE_ORDER = re.compile(r'^\?p skg:hasPrice \?val ; skg:hasCurrency "([^"\\]+)" \.$')
_ORDER_GROUP = re.compile(r"^\{ SELECT \?p \?val WHERE \{ .* \} \}$", re.S)
_VAL = re.compile(r"\?val\b")
_RANGE_END = re.compile(r"((?: FILTER\((\?v(\d+)) (?:<|<=|>|>=|=) [-+.\deE]+\))+) \} \}$")
_SUBSELECT = "{ SELECT DISTINCT ?p WHERE {"
_NUMERIC = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_PRICE = re.compile(
    r'^\{ SELECT DISTINCT \?p WHERE \{ \?p skg:hasPrice (\?v\d+) ; skg:hasCurrency "([^"\\]+)" \. '
    r"((?:FILTER\(\?v\d+ (?:<|<=|>|>=|=) [-+.\deE]+\) )+)\} \}$"
)
_FILTER = re.compile(r"FILTER\((\?v\d+) (<|<=|>|>=|=) ([-+.\deE]+)\)")
_ONE = re.compile(r"^\?p ([\w:]+|<[^<>\s]+>) (<[^<>\s]+>) \.$")
_ONE_OF = re.compile(r"^\?p ([\w:]+|<[^<>\s]+>) (\?s\d+) \. FILTER\(\2 IN \((<[^<>\s]+>(?:, <[^<>\s]+>)*)\)\)$")
_NAMED = re.compile(r"^VALUES \?p \{ ((?:<[^<>\s]+> ?)+)\}$")
_OPS = {
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
    "=": np.equal,
}


class _Kept:
    """The last :data:`MASKS_KEPT` results of one kind, by key; safe across threads. A result is
    computed outside the lock: two threads asking the same new condition may both read it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[str, Any] = OrderedDict()

    def get(self, key: str) -> Any:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: str, item: Any) -> Any:
        with self._lock:
            self._items[key] = item
            while len(self._items) > MASKS_KEPT:
                self._items.popitem(last=False)
        return item


def _number(term: dict[str, Any]) -> float | None:
    """The value of a numeric literal as the store reads it, else None (its comparisons fail on it):
    Oxigraph reads no decimal of more than 18 places and no integer past 64 bits."""
    if term.get("type") != "literal" or term.get("datatype") not in _NUMBER_TYPES:
        return None
    text = term.get("value", "").strip()
    if not _NUMERIC.fullmatch(text):
        return None
    kind = term["datatype"]
    if kind == _XSD + "decimal" and len(text.partition(".")[2]) > 18:
        return None
    integral = kind not in (_XSD + "decimal", _XSD + "double", _XSD + "float")
    if integral and ("." in text or "e" in text.lower() or not -(2**63) <= int(text) < 2**63):
        return None
    number = float(text)
    return number if np.isfinite(number) else None


def _readable(block: str) -> bool:
    """Whether the tables can say which products ``block`` holds of."""
    return bool(_NAMED.match(block) or _PRICE.match(block) or _ONE.match(block) or _ONE_OF.match(block)) or _one_group(
        block
    )


def _one_group(block: str) -> bool:
    """Whether ``block`` is one ``{ SELECT DISTINCT ?p WHERE { … } }`` (not ``{…} UNION {…}``)."""
    if not (block.startswith("{ SELECT DISTINCT ?p WHERE {") and block.endswith("} }")):
        return False
    depth = 0
    for i, ch in enumerate(block):
        depth += (ch == "{") - (ch == "}")
        if depth == 0 and i < len(block) - 1:
            return False
    return depth == 0


class ProductTables:
    """Per-product facts of one unchanging ``store``, read when first needed, and the masks of the
    conditions asked so far. Thread-safe: the batch answerer shares one engine across threads."""

    def __init__(self, store, *, timeout_s: float) -> None:
        self.store = store
        self.timeout_s = timeout_s
        self._lock = threading.RLock()
        self._ids: dict[str, int] | None = None
        self._iris: list[str] = []
        self._names: list[list[dict[str, Any]]] = []  # each product's name terms, as the store gave them
        self._plain_names = True  # every name a plain literal: the store orders them as Python does
        self._prices: tuple[np.ndarray, np.ndarray] | None = None  # each price row's product id and value
        self._priced_in: dict[str, np.ndarray] = {}  # currency -> the products holding it (a bool each)
        self._price_terms: list[dict[str, Any]] = []  # each price row's term, as the store gave it
        self._odd_prices: set[int] = set()  # products with a price that is no number
        self._ranges: list[list[str]] | None = None
        self._masks = _Kept()  # condition -> products (a bool per product)
        self._values = _Kept()  # an entry's (product ids, numbers): see _range_mask
        self._orders = _Kept()  # an ordering block's values per product: see _order_values
        self.seconds_reading = 0.0
        """Seconds spent reading tables and conditions from the store (the rest is arithmetic)."""

    # -- tables -------------------------------------------------------------------------

    def prepare(self) -> None:
        """Read the tables now, not in the first question that needs them (its budget would pay)."""
        self._products()
        self._price_table()
        self._variant_ranges()

    def _rows(self, query: str) -> list[dict[str, Any]]:
        t0 = time.perf_counter()
        rows = run_select(self.store, query, row_cap=10_000_000, timeout_s=self.timeout_s).rows
        self.seconds_reading += time.perf_counter() - t0
        return rows

    def _products(self) -> dict[str, int]:
        if self._ids is None:
            with self._lock:  # read once, whichever thread asks first
                if self._ids is None:
                    ids: dict[str, int] = {}
                    names: list[list[dict[str, Any]]] = []
                    for r in self._rows("SELECT DISTINCT ?p ?name WHERE { ?p a skgt:Product ; skg:hasName ?name }"):
                        if "p" not in r or "name" not in r:
                            continue
                        i = ids.setdefault(r["p"]["value"], len(ids))
                        if i == len(names):
                            names.append([])
                        names[i].append(r["name"])
                        self._plain_names &= r["name"].get("type") == "literal" and len(r["name"]) == 2
                    self._iris, self._names, self._ids = list(ids), names, ids
        return self._ids

    def _mask_of(self, iris: Any) -> np.ndarray:
        ids = self._products()
        mask = np.zeros(len(ids), dtype=bool)
        for iri in iris:
            i = ids.get(iri)
            if i is not None:
                mask[i] = True
        return mask

    def _price_table(self) -> tuple[np.ndarray, np.ndarray]:
        if self._prices is None:
            with self._lock:  # read once, whichever thread asks first
                if self._prices is None:
                    ids = self._products()
                    pid, val = [], []
                    for r in self._rows("SELECT ?p ?v WHERE { ?p skg:hasPrice ?v }"):
                        v = r.get("v", {})
                        i = ids.get(r.get("p", {}).get("value", ""))
                        if i is None:
                            continue
                        number = _number(v)
                        if number is None:  # fails any comparison in the store too; an ordering would see it
                            self._odd_prices.add(i)
                            continue
                        pid.append(i)
                        val.append(number)
                        self._price_terms.append(v)
                    for r in self._rows("SELECT DISTINCT ?p ?c WHERE { ?p skg:hasCurrency ?c }"):
                        i = ids.get(r.get("p", {}).get("value", ""))
                        c = r.get("c", {})
                        if i is None or c.get("type") != "literal" or c.get("datatype") or c.get("xml:lang"):
                            continue  # the condition names a plain literal; nothing else equals it
                        self._priced_in.setdefault(c["value"], np.zeros(len(ids), dtype=bool))[i] = True
                    self._prices = (np.asarray(pid, dtype=np.int64), np.asarray(val, dtype=np.float64))
        return self._prices

    def _price_mask(self, match: re.Match[str]) -> np.ndarray:
        pid, val = self._price_table()
        mask = np.zeros(len(self._products()), dtype=bool)
        held = self._priced_in.get(match.group(2))
        if held is None:
            return mask
        ok = np.ones(len(val), dtype=bool)
        for var, op, number in _FILTER.findall(match.group(3)):
            if var != match.group(1):
                return self._store_mask(match.group(0))  # a filter on another variable: the store decides
            ok &= _OPS[op](val, float(number))
        mask[pid[ok]] = True
        return mask & held

    def _range_mask(self, block: str, end: re.Match[str]) -> np.ndarray | None:
        """The products of a sub-select whose last filters compare its value with numbers, from a
        table of every (product, value) the rest of it holds (read once; another number asked of
        the same entry is arithmetic), or None when a filter names another variable."""
        var, index = end.group(2), end.group(3)
        tests = _FILTER.findall(end.group(1))
        if any(v != var for v, _, _ in tests):
            return None
        inner = block[len(_SUBSELECT) : end.start(1)]
        key = re.sub(rf"\?([sv]){index}(?![0-9])", r"?\1#", inner)  # the same entry whatever its block's number
        table = self._values.get(key)
        if table is None:
            ids = self._products()
            pid, val = [], []
            for r in self._rows(f"SELECT DISTINCT ?p {var} WHERE {{{inner}}}"):
                i = ids.get(r.get("p", {}).get("value", ""))
                number = _number(r.get(var[1:], {}))
                if i is not None and number is not None:  # a value that is no number fails every filter
                    pid.append(i)
                    val.append(number)
            table = self._values.put(key, (np.asarray(pid, dtype=np.int64), np.asarray(val, dtype=np.float64)))
        ok = np.ones(len(table[1]), dtype=bool)
        for _, op, number in tests:
            ok &= _OPS[op](table[1], float(number))
        mask = np.zeros(len(self._products()), dtype=bool)
        mask[table[0][ok]] = True
        return mask

    def _store_mask(self, block: str) -> np.ndarray:
        rows = self._rows(f"SELECT DISTINCT ?p WHERE {{ {block} }}")
        return self._mask_of(r["p"]["value"] for r in rows if r.get("p", {}).get("type") == "uri")

    def _variant_ranges(self) -> list[list[str]]:
        if self._ranges is None:
            with self._lock:  # read once, whichever thread asks first
                if self._ranges is None:
                    ids = self._products()
                    ranges: list[list[str]] = [[] for _ in ids]
                    for r in self._rows("SELECT DISTINCT ?p ?r WHERE { ?p skg:variantOf ?r }"):
                        i = ids.get(r.get("p", {}).get("value", ""))
                        if i is not None and "r" in r:
                            ranges[i].append(r["r"]["value"])
                    self._ranges = ranges
        return self._ranges

    def _order_values(self, block: str) -> dict[int, list[dict[str, Any]]] | None:
        """Each product's values of the ordering block (``?val``; an empty term for a value that is no
        number), or None when the tables cannot order by it."""
        if m := _PRICE_ORDER.match(block):
            pid, _ = self._price_table()
            held = self._priced_in.get(m.group(1), np.zeros(len(self._products()), dtype=bool))
            values: dict[int, list[dict[str, Any]]] = {}
            for i, term in zip(pid.tolist(), self._price_terms, strict=True):
                if held[i]:
                    values.setdefault(i, []).append(term)
            for i in self._odd_prices:
                if held[i]:
                    values[i] = [{}]  # a value that is no number: ordering this product is the store's
            return values
        if not _ORDER_GROUP.match(block) or not _one_group(
            block.replace("{ SELECT ?p ?val", "{ SELECT DISTINCT ?p", 1)
        ):
            return None
        kept = self._orders.get(block)
        if kept is not None:
            return kept
        ids = self._products()
        values = {}
        for r in self._rows(f"SELECT ?p ?val WHERE {{ {block} }}"):
            i = ids.get(r.get("p", {}).get("value", ""))
            if i is None or "val" not in r:
                continue
            values.setdefault(i, []).append(r["val"] if _number(r["val"]) is not None else {})
        return self._orders.put(block, values)

    def _ordered_rows(
        self, intent: Intent, found: np.ndarray, values: dict[int, list[dict[str, Any]]]
    ) -> list[dict[str, Any]] | None:
        """The rows of ``GROUP BY ?p ?name ORDER BY ?value ?name`` with each product's MAX (MIN for
        ``direction`` min) value, or None where the store's order is not one Python can repeat."""
        most = intent.direction != "min"
        keyed = []
        for i in np.flatnonzero(found).tolist():
            terms = values.get(i)
            if not terms:
                continue
            if any(_number(t) is None for t in terms):
                return None
            best = (max if most else min)(_number(t) or 0.0 for t in terms)
            chosen = {tuple(sorted(t.items())) for t in terms if _number(t) == best}
            if len(chosen) > 1:
                return None  # equal values written two ways: which one the store keeps is its own choice
            term = next(t for t in terms if _number(t) == best)
            for name in self._names[i]:
                keyed.append(((-best if most else best, name["value"]), self._iris[i], name, term))
        keyed.sort(key=lambda k: k[0])
        if len({k[0] for k in keyed}) < len(keyed):
            return None  # a tie on value and name: the store's order among them is not defined
        return [{"p": {"type": "uri", "value": iri}, "name": name, "value": term} for _, iri, name, term in keyed]

    # -- conditions ---------------------------------------------------------------------

    def mask(self, block: str) -> np.ndarray | None:
        """The products ``block`` (one condition of the emitted WHERE) holds of, or None when the
        tables cannot say (the caller runs the query as written)."""
        kept = self._masks.get(block)
        if kept is not None:
            return kept
        if m := _NAMED.match(block):
            mask = self._mask_of(x.strip("<>") for x in m.group(1).split())
        elif m := _PRICE.match(block):
            mask = self._price_mask(m)
        elif m := _ONE_OF.match(block):
            # one scan per object: the store reads a FILTER IN by walking every object of the predicate
            mask = np.zeros(len(self._products()), dtype=bool)
            for iri in m.group(3).split(", "):
                one = self.mask(f"?p {m.group(1)} {iri} .")
                assert one is not None  # a single object is always read
                mask = mask | one
        elif (
            (end := _RANGE_END.search(block))
            and _one_group(block)
            and (ranged := self._range_mask(block, end)) is not None
        ):
            mask = ranged
        elif _readable(block):
            mask = self._store_mask(block)
        else:
            return None
        return self._masks.put(block, mask)

    def select(self, blocks: list[str], filters: list[str]) -> np.ndarray | None:
        """The products every block holds of, or None when one block or any filter is not for the tables."""
        if filters or not all(_readable(b) for b in blocks):
            return None  # before any condition runs: the store would run them all again
        found = np.ones(len(self._products()), dtype=bool)
        # the forms the tables read cheaply first: a mask of no products ends the question
        for block in sorted(blocks, key=lambda b: not (_NAMED.match(b) or _PRICE.match(b))):
            mask = self.mask(block)
            if mask is None:
                return None
            found = found & mask  # never in place: the mask may be a kept one
            if not found.any():
                break
        return found

    # -- answers ------------------------------------------------------------------------

    def result(
        self,
        query: str,
        intent: Intent,
        blocks: list[str],
        filters: list[str],
        *,
        ordered: bool,
        count_ranges: bool,
        row_cap: int,
    ) -> QueryResult | None:
        """The rows :func:`~dualgraph.query.sparql.emit.select_query` would give for ``intent``
        over ``blocks`` and ``filters`` (``query`` is its text, kept on the result), or None when
        this question is for the store."""
        if intent.kind in ("describe", "average") or (ordered and intent.kind == "count") or intent.groups or intent.by:
            return None
        t0 = time.perf_counter()
        order = [b for b in blocks if _VAL.search(b)] if ordered else []
        if ordered and (len(order) != 1 or any("?val2" in b for b in blocks)):
            return None  # a tie-breaker, or no single ordering block
        found = self.select([b for b in blocks if b not in order], filters)
        if found is None or not self._plain_names:
            return None  # (a name with a language or datatype takes part in the store's order)
        idx = np.flatnonzero(found)
        if ordered:
            values = self._order_values(order[0])
            ordered_rows = None if values is None else self._ordered_rows(intent, found, values)
            if ordered_rows is None:
                return None
            rows, names = ordered_rows, ["p", "name", "value"]
        elif intent.kind == "count":
            if count_ranges:
                ranges = self._variant_ranges()
                n = len({u for i in idx for u in (ranges[i] or [self._iris[i]])})
            else:
                n = len(idx)
            rows = [{"count": {"type": "literal", "value": str(n), "datatype": _XSD_INTEGER}}]
            names = ["count"]
        else:
            pairs = sorted((t["value"], self._iris[i]) for i in idx for t in self._names[i])
            rows = [
                {"p": {"type": "uri", "value": iri}, "name": {"type": "literal", "value": name}} for name, iri in pairs
            ]
            names = ["p", "name"]
        kept = rows[: row_cap + 1]  # the store stops one row past the cap
        return QueryResult(
            query=query,
            vars=names,
            rows=kept[:row_cap],
            total_rows=len(kept),
            truncated=len(kept) > row_cap,
            row_cap=row_cap,
            seconds=time.perf_counter() - t0,
        )


def tables_for(store, *, timeout_s: float) -> ProductTables | None:
    """Tables over ``store`` when nothing can change it under the reader (``capabilities.snapshot``:
    an embedded store opened read-only, or its copy in memory; never a server), else None."""
    caps = getattr(store, "capabilities", None)
    if caps is None or not getattr(caps, "snapshot", False):
        return None
    return ProductTables(store, timeout_s=timeout_s)
