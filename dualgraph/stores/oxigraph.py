"""The embedded SPARQL store: Oxigraph (RocksDB on disk, or in memory for tests).

Queries see the union of the named graphs as their default graph and may skip the
``PREFIX`` lines of :data:`dualgraph.skg.ontology.PREFIXES`. ``select``/``ask``/
``construct`` are read-only: updates and federated ``SERVICE`` calls are refused, since
queries may come from a language model and Oxigraph would happily fetch a remote URL.

>>> with OxigraphStore.in_memory() as store:
...     store.ask("ASK { ?s ?p ?o }")
False
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, cast

import pyoxigraph as ox

from dualgraph.skg import ontology as O
from dualgraph.stores.base import Capabilities, StoreError
from dualgraph.stores.guard import check_read_query, update_keyword

_FORMATS = {"nquads": ox.RdfFormat.N_QUADS, "ntriples": ox.RdfFormat.N_TRIPLES}
_CHECK_EVERY = 256  # solutions between two deadline checks


class OxigraphStore:
    """A :class:`~dualgraph.stores.base.SparqlStore` on an embedded Oxigraph database.

    ``timeout_s`` is checked between result rows, so a query that streams its results
    stops at the deadline; a blocking step (ORDER BY, GROUP BY, a large join) cannot be
    interrupted from Python and runs to its end first. Pyoxigraph has no query timeout.

    >>> store = OxigraphStore.in_memory()
    >>> store.capabilities.persistent
    False
    >>> store.count()
    0
    """

    def __init__(self, path: str | os.PathLike | None, *, read_only: bool = False) -> None:
        self.path = Path(path) if path is not None else None
        self.read_only = read_only
        self.capabilities = Capabilities(
            bulk_load_files=True, union_default_graph=True, update=not read_only, persistent=path is not None
        )
        self._store: ox.Store | None = None
        try:
            if self.path is None:
                if read_only:
                    raise StoreError("an in-memory store cannot be read-only (it would stay empty)")
                self._store = ox.Store()
            elif read_only:
                if not (self.path / "CURRENT").is_file():
                    raise StoreError(f"no index at {self.path}, run `dualgraph index` first")
                self._store = ox.Store.read_only(str(self.path))
            else:
                self.path.mkdir(parents=True, exist_ok=True)
                self._store = ox.Store(str(self.path))
        except OSError as e:  # RocksDB lock held by another process, corrupt files, ...
            raise StoreError(f"cannot open the store at {self.path}: {e}") from e

    @classmethod
    def in_memory(cls) -> OxigraphStore:
        """A fresh, empty store that lives in memory only.

        >>> OxigraphStore.in_memory().graphs()
        []
        """
        return cls(None)

    # -- writes ---------------------------------------------------------------------

    def bulk_load(self, path: str | os.PathLike | Sequence[str | os.PathLike], *, format: str = "nquads") -> int:
        """Load whole N-Quads or N-Triples files in one bulk pass; returns the statements read.

        Several files (e.g. the shard files of an index run) go through one loader pass,
        which is much faster than one pass per file. N-Triples land in the default graph,
        which queries see but ``drop_graph`` cannot remove: write N-Quads with one graph
        per document instead. Not transactional: after a syntax error, quads before the
        error may be kept, so reload the affected graphs from scratch (``drop_graph`` first).

        >>> import tempfile, pathlib
        >>> f = pathlib.Path(tempfile.mkdtemp()) / "d.nq"
        >>> _ = f.write_text('<http://x/a> <http://x/p> "1" <http://x/g> .\\n')
        >>> OxigraphStore.in_memory().bulk_load(f)
        1
        >>> OxigraphStore.in_memory().bulk_load([f, f])
        2
        """
        self._writable()
        if format not in _FORMATS:
            raise StoreError(f"unknown format {format!r}; expected one of {sorted(_FORMATS)}")
        paths = [Path(path)] if isinstance(path, (str, os.PathLike)) else [Path(p) for p in path]
        for p in paths:
            if not p.is_file():
                raise StoreError(f"no such file: {p}")
        if not paths:
            return 0
        counts = [_scan(p) for p in paths]
        lines = [c[0] for c in counts]
        stream = _Concatenation(paths)
        try:
            self._db.bulk_load(cast(IO[bytes], stream), format=_FORMATS[format])  # a readable byte stream
        except SyntaxError as e:
            where, line = _locate(paths, lines, e.lineno)
            raise StoreError(f"bad {format} in {where}{f', line {line}' if line else ''}: {e.msg}") from e
        except (OSError, ValueError) as e:
            raise StoreError(f"cannot load {', '.join(map(str, paths))}: {e}") from e
        finally:
            stream.close()
        return sum(c[1] for c in counts)

    def insert_where(self, template: str, where: str, *, graph: str) -> int:
        """Add ``template`` for every solution of ``where`` (over the union) to ``graph``.

        Pyoxigraph's ``update()`` has no union-default-graph option, so an ``INSERT ...
        WHERE`` would only see the (empty) default graph. Instead the store runs
        ``CONSTRUCT { template } WHERE { where }`` over the union and adds the triples to
        ``graph``. Returns how many quads are new, which lets rule engines stop at a
        fixpoint. The template must not contain blank nodes (each run would mint new ones).

        >>> store = OxigraphStore.in_memory()
        >>> g = "http://x/g"
        >>> store.insert_where("<http://x/a> <http://x/p> 1", "", graph=g)
        1
        >>> store.insert_where("<http://x/a> <http://x/p> 1", "", graph=g)
        0
        """
        self._writable()
        target = _named_node(graph)
        triples = self.construct_terms(f"CONSTRUCT {{\n{template}\n}}\nWHERE {{\n{where}\n}}")
        quads = {ox.Quad(t.subject, t.predicate, t.object, target) for t in triples}
        new = [q for q in quads if q not in self._db]
        if new:
            try:
                self._db.extend(new)
            except OSError as e:
                raise StoreError(f"cannot write to {graph}: {e}") from e
        return len(new)

    def update(self, sparql: str) -> None:
        """Run a SPARQL 1.1 Update as written; its default graph is the store's (empty) one.

        >>> store = OxigraphStore.in_memory()
        >>> store.update("INSERT DATA { GRAPH <http://x/g> { <http://x/a> <http://x/p> 1 } }")
        >>> store.count(graph="http://x/g")
        1
        """
        self._writable()
        try:
            self._db.update(sparql, prefixes=O.PREFIXES)
        except SyntaxError as e:
            raise StoreError(f"malformed update: {e}") from e
        except OSError as e:
            raise StoreError(f"update failed: {e}") from e

    def drop_graph(self, graph: str) -> None:
        """Remove a named graph and its quads; a missing graph is not an error.

        >>> store = OxigraphStore.in_memory()
        >>> store.drop_graph("http://x/none")
        """
        self._writable()
        node = _named_node(graph)
        try:
            if self._db.contains_named_graph(node):
                self._db.remove_graph(node)
        except OSError as e:
            raise StoreError(f"cannot drop {graph}: {e}") from e

    # -- reads ----------------------------------------------------------------------

    def select(self, query: str, *, timeout_s: float | None = None) -> dict[str, Any]:
        """Run a SELECT; returns W3C SPARQL 1.1 JSON results as a dict.

        >>> OxigraphStore.in_memory().select("SELECT (1.5 AS ?x) {}")["results"]["bindings"]
        [{'x': {'type': 'literal', 'value': '1.5', 'datatype': 'http://www.w3.org/2001/XMLSchema#decimal'}}]
        """
        deadline = _deadline(timeout_s)
        result = self._query(query, ox.QuerySolutions, "SELECT")
        names = [v.value for v in result.variables]
        rows = []
        for i, solution in enumerate(result):
            if i % _CHECK_EVERY == 0:
                _check(deadline, timeout_s)
            row = {}
            for name in names:
                term = solution[name]
                if term is not None:
                    row[name] = term_json(term)
            rows.append(row)
        return {"head": {"vars": names}, "results": {"bindings": rows}}

    def ask(self, query: str, *, timeout_s: float | None = None) -> bool:
        """Run an ASK (``timeout_s`` is not enforced: ASK cannot be interrupted).

        >>> OxigraphStore.in_memory().ask("ASK { FILTER(1 < 2) }")
        True
        """
        return bool(self._query(query, ox.QueryBoolean, "ASK"))

    def construct(self, query: str, *, timeout_s: float | None = None) -> list[tuple[str, str, str]]:
        """Run a CONSTRUCT or DESCRIBE; returns triples as N-Triples terms.

        >>> OxigraphStore.in_memory().construct('CONSTRUCT { skg:a skg:p "x" } {}')
        [('<https://w3id.org/dualgraph/skg#a>', '<https://w3id.org/dualgraph/skg#p>', '"x"')]
        """
        return [
            (str(t.subject), str(t.predicate), str(t.object)) for t in self.construct_terms(query, timeout_s=timeout_s)
        ]

    def construct_terms(self, query: str, *, timeout_s: float | None = None) -> list[ox.Triple]:
        """Like :meth:`construct`, but returns pyoxigraph triples (no string round trip)."""
        deadline = _deadline(timeout_s)
        out = []
        for i, triple in enumerate(self._query(query, ox.QueryTriples, "CONSTRUCT or DESCRIBE")):
            if i % _CHECK_EVERY == 0:
                _check(deadline, timeout_s)
            out.append(triple)
        return out

    def graphs(self) -> list[str]:
        """IRIs of the named graphs, sorted."""
        return sorted(g.value for g in self._db.named_graphs() if isinstance(g, ox.NamedNode))

    def count(self, *, graph: str | None = None) -> int:
        """Quads in one named graph, or in the whole store.

        >>> OxigraphStore.in_memory().count(graph="http://x/g")
        0
        """
        if graph is None:
            return len(self._db)
        # COUNT runs inside Oxigraph; iterating quads_for_pattern in Python is far slower.
        q = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {_named_node(graph)} {{ ?s ?p ?o }} }}"
        solutions = cast(ox.QuerySolutions, self._db.query(q))  # a SELECT query
        return int(next(iter(solutions))["n"].value)

    def close(self) -> None:
        """Flush writes to disk and release the database (and its lock)."""
        store, self._store = self._store, None  # dropping the last reference frees the lock
        if store is not None and not self.read_only and self.path is not None:
            store.flush()

    def __enter__(self) -> OxigraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = self.path or "memory"
        return f"OxigraphStore({str(where)!r}, read_only={self.read_only})"

    # -- internals ------------------------------------------------------------------

    def _writable(self) -> None:
        if self.read_only:
            raise StoreError(f"the store at {self.path} is open read-only")

    def _query(self, query: str, kind: type, expected: str) -> Any:
        check_read_query(query)
        db = self._db
        try:
            result = db.query(query, prefixes=O.PREFIXES, use_default_graph_as_union=True)
        except SyntaxError as e:
            word = update_keyword(query)
            if word:
                raise StoreError(
                    f"{word} refused: queries are read-only (use insert_where or bulk_load to write)"
                ) from e
            raise StoreError(f"malformed SPARQL query: {e}") from e
        except (OSError, RuntimeError, ValueError) as e:
            raise StoreError(f"query failed: {e}") from e
        if not isinstance(result, kind):
            got = {ox.QuerySolutions: "SELECT", ox.QueryBoolean: "ASK"}.get(type(result), "CONSTRUCT")
            raise StoreError(f"expected a {expected} query, got {got}")
        return result

    @property
    def _db(self) -> ox.Store:
        if self._store is None:
            raise StoreError("the store is closed")
        return self._store


def term_json(term: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple) -> dict[str, Any]:
    """One RDF term in the SPARQL 1.1 (and 1.2, for triple terms) JSON results format.

    >>> term_json(ox.Literal("chat", language="fr"))
    {'type': 'literal', 'value': 'chat', 'xml:lang': 'fr'}
    """
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Triple):
        parts = ("subject", "predicate", "object")
        return {"type": "triple", "value": {p: term_json(getattr(term, p)) for p in parts}}
    out: dict[str, Any] = {"type": "literal", "value": term.value}
    if term.language:
        out["xml:lang"] = term.language
        if term.direction is not None:
            out["its:dir"] = str(term.direction)
    elif term.datatype.value != O.XSD_STRING:  # simple literals carry no datatype in JSON
        out["datatype"] = term.datatype.value
    return out


def _named_node(iri: str) -> ox.NamedNode:
    try:
        return ox.NamedNode(iri)
    except ValueError as e:
        raise StoreError(f"not a graph IRI: {iri!r} ({e})") from e


class _Concatenation(io.RawIOBase):
    """Several files read as one byte stream, a newline added after any file lacking one."""

    def __init__(self, paths: list[Path]) -> None:
        self._paths = list(paths)
        self._fh: Any = None
        self._last = b"\n"

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        while True:
            if self._fh is None:
                if not self._paths:
                    return 0
                self._fh = open(self._paths.pop(0), "rb")  # noqa: SIM115 -- held across reads; closed at EOF or close()
                self._last = b"\n"
            n = self._fh.readinto(buf)
            if n:
                self._last = bytes(buf[n - 1 : n])
                return n
            self._fh.close()
            self._fh = None
            if self._last != b"\n" and len(buf):
                buf[0:1] = b"\n"
                self._last = b"\n"
                return 1

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        super().close()


def _scan(path: Path) -> tuple[int, int]:
    """Lines, and statements (non-blank, non-comment lines: one per statement in N-Triples/N-Quads)."""
    lines = statements = 0
    with path.open("rb") as f:
        for line in f:
            lines += 1
            s = line.strip()
            if s and not s.startswith(b"#"):
                statements += 1
    return lines, statements


def _locate(paths: list[Path], lines: list[int], lineno: int | None) -> tuple[Path | str, int | None]:
    # The loader counts lines over the whole stream; give the file and its own line.
    if lineno is None:
        return (paths[0] if len(paths) == 1 else ", ".join(map(str, paths))), None
    for p, n in zip(paths, lines):
        if lineno <= n:
            return p, lineno
        lineno -= n
    return paths[-1], lineno


def _deadline(timeout_s: float | None) -> float | None:
    return None if timeout_s is None else time.monotonic() + timeout_s


def _check(deadline: float | None, timeout_s: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise StoreError(f"query timed out after {timeout_s} s")
