"""The embedded SPARQL store: Oxigraph (RocksDB on disk, or in memory for tests).

Queries see the union of the named graphs as their default graph and may skip the
``PREFIX`` lines of :data:`dualgraph.stores.namespaces.PREFIXES`. ``select``/``ask``/
``construct`` are read-only: updates and federated ``SERVICE`` calls are refused, since
queries may come from a language model and Oxigraph would happily fetch a remote URL.

>>> with OxigraphStore.in_memory() as store:
...     store.ask("ASK { ?s ?p ?o }")
False
"""

from __future__ import annotations

import dataclasses
import functools
import io
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar, cast

import numpy as np
import pyoxigraph as ox

from dualgraph.stores import namespaces as NS
from dualgraph.stores.base import Capabilities, QueryTimeout, StoreError
from dualgraph.stores.guard import read_query
from dualgraph.stores.heap import release_free_memory

T = TypeVar("T")

_FORMATS = {"nquads": ox.RdfFormat.N_QUADS, "ntriples": ox.RdfFormat.N_TRIPLES}


class OxigraphStore:
    """A :class:`~dualgraph.stores.base.SparqlStore` on an embedded Oxigraph database.

    Pyoxigraph has no query timeout, so with ``timeout_s`` a query runs in a worker
    thread (Oxigraph releases the GIL) that the caller stops waiting for at the deadline,
    raising :class:`~dualgraph.stores.base.QueryTimeout`. The worker stops at its next
    result row; a blocking step (ORDER BY, GROUP BY) cannot be interrupted and finishes
    in the background first. ``max_rows`` stops reading after ``max_rows + 1`` rows, so a
    huge result is never held and the caller still sees that it was cut.

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
            bulk_load_files=True,
            union_default_graph=True,
            update=not read_only,
            persistent=path is not None,
            snapshot=read_only,  # RocksDB opened read-only: a writer elsewhere is not seen
            dataset_restriction=True,
        )
        self._store: ox.Store | None = None
        self._dataset: tuple[ox.NamedNode, ...] | None = None
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
        except StoreError:
            raise
        except (OSError, RuntimeError) as e:  # a lock held by another process; RocksDB's "Corruption: ..."
            raise StoreError(f"cannot open the store at {self.path}: {e}") from e

    @classmethod
    def in_memory(cls) -> OxigraphStore:
        """A fresh, empty store that lives in memory only.

        >>> OxigraphStore.in_memory().graphs()
        []
        """
        return cls(None)

    def copy_to_memory(self) -> OxigraphStore:
        """A read-only copy of every quad in memory, for a process that answers many questions.

        Costly once, cheaper after: it reads the whole store (a few seconds per million quads)
        and holds it in RAM (about 0.3 KB per quad), and then queries run about twice as fast
        as on RocksDB (``bench/memory_store.py``). The copy is a snapshot: a later index run
        does not reach it. A read restriction (:meth:`restrict`) is carried over.

        >>> store = OxigraphStore.in_memory()
        >>> store.update("INSERT DATA { GRAPH <http://x/g> { <http://x/a> <http://x/p> 1 } }")
        >>> copy = store.copy_to_memory()
        >>> copy.count(), copy.graphs(), copy.capabilities.update
        (1, ['http://x/g'], False)
        """
        copy = OxigraphStore(None)
        try:
            copy._db.bulk_extend(self._db)
        except OSError as e:
            raise StoreError(f"cannot copy {self!r} into memory: {e}") from e
        copy.read_only = True
        copy.capabilities = dataclasses.replace(copy.capabilities, update=False, snapshot=True)
        copy._dataset = self._dataset
        return copy

    # -- writes ---------------------------------------------------------------------

    def bulk_load(
        self,
        path: str | os.PathLike | Sequence[str | os.PathLike],
        *,
        format: str = "nquads",
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Load whole N-Quads or N-Triples files in one bulk pass; returns the statements read.

        Several files (e.g. the shard files of an index run) go through one loader pass,
        which is much faster than one pass per file, or than several passes into a store
        that already holds quads (15.5M quads: one pass 88 s, nine passes 123 s).
        ``progress`` is called with each count of bytes the loader reads. N-Triples land in the default graph,
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
        stream = _Concatenation(paths, progress)
        try:
            self._db.bulk_load(cast(IO[bytes], stream), format=_FORMATS[format])  # a readable byte stream
        except SyntaxError as e:
            where, line = _locate(paths, lines, e.lineno)
            raise StoreError(f"bad {format} in {where}{f', line {line}' if line else ''}: {e.msg}") from e
        except (OSError, ValueError) as e:
            raise StoreError(f"cannot load {', '.join(map(str, paths))}: {e}") from e
        finally:
            stream.close()
            release_free_memory()
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
            self._db.update(sparql, prefixes=NS.PREFIXES)
        except SyntaxError as e:
            raise StoreError(f"malformed update: {e}") from e
        except OSError as e:
            raise StoreError(f"update failed: {e}") from e

    def restrict(self, graphs: Sequence[str] | None) -> None:
        """Let later reads (``select``/``ask``/``construct``) see only ``graphs``: as the
        default graph (their union) and as the named graphs. ``None`` lifts it. Updates,
        ``insert_where``, ``count`` and ``graphs`` still see the whole store.

        >>> store = OxigraphStore.in_memory()
        >>> store.update("INSERT DATA { GRAPH <http://x/a> { <http://x/s> <http://x/p> 1 } }")
        >>> store.restrict(["http://x/b"])
        >>> store.ask("ASK { ?s ?p ?o }"), store.ask("ASK { GRAPH ?g { ?s ?p ?o } }")
        (False, False)
        >>> store.restrict(None)
        >>> store.ask("ASK { ?s ?p ?o }")
        True
        """
        self._dataset = None if graphs is None else tuple(_named_node(g) for g in graphs)

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

    def select(self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> dict[str, Any]:
        """Run a SELECT; returns W3C SPARQL 1.1 JSON results as a dict (at most ``max_rows + 1`` rows).

        >>> OxigraphStore.in_memory().select("SELECT (1.5 AS ?x) {}")["results"]["bindings"]
        [{'x': {'type': 'literal', 'value': '1.5', 'datatype': 'http://www.w3.org/2001/XMLSchema#decimal'}}]
        >>> len(OxigraphStore.in_memory().select("SELECT ?x { VALUES ?x { 1 2 3 4 } }", max_rows=1)["results"]["bindings"])
        2
        """
        names: list[str] = []

        def rows(result: ox.QuerySolutions) -> Iterable[dict[str, Any]]:
            names.extend(v.value for v in result.variables)
            for solution in result:
                yield {n: term_json(t) for n in names if (t := solution[n]) is not None}

        bindings = self._run(query, ox.QuerySolutions, "SELECT", rows, timeout_s, max_rows)
        return {"head": {"vars": names}, "results": {"bindings": bindings}}

    def ask(self, query: str, *, timeout_s: float | None = None) -> bool:
        """Run an ASK.

        >>> OxigraphStore.in_memory().ask("ASK { FILTER(1 < 2) }")
        True
        """
        return self._run(query, ox.QueryBoolean, "ASK", lambda r: [bool(r)], timeout_s, None)[0]

    def construct(
        self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None
    ) -> list[tuple[str, str, str]]:
        """Run a CONSTRUCT or DESCRIBE; returns triples as N-Triples terms (at most ``max_rows + 1``).

        >>> OxigraphStore.in_memory().construct('CONSTRUCT { skg:a skg:p "x" } {}')
        [('<https://w3id.org/dualgraph/skg#a>', '<https://w3id.org/dualgraph/skg#p>', '"x"')]
        """
        return [
            (str(t.subject), str(t.predicate), str(t.object))
            for t in self.construct_terms(query, timeout_s=timeout_s, max_rows=max_rows)
        ]

    def construct_terms(
        self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None
    ) -> list[ox.Triple]:
        """Like :meth:`construct`, but returns pyoxigraph triples (no string round trip)."""
        return self._run(query, ox.QueryTriples, "CONSTRUCT or DESCRIBE", iter, timeout_s, max_rows)

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

    def check_reachable(self) -> None:
        """The embedded store is in this process: only a closed one is unreachable.

        >>> OxigraphStore.in_memory().check_reachable()
        """
        if self._store is None:
            raise StoreError("the store is closed")

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
            raise StoreError(f"the store at {self.path or 'memory'} is open read-only")

    def _run(
        self,
        query: str,
        kind: type,
        expected: str,
        items: Callable[[Any], Iterable[T]],
        timeout_s: float | None,
        max_rows: int | None,
    ) -> list[T]:
        checked = read_query(query)  # in the caller's thread: a refused query never starts
        got = {"SELECT": "SELECT", "ASK": "ASK"}.get(checked.form, "CONSTRUCT")
        if got not in expected.split(" or "):
            raise StoreError(f"expected a {expected} query, got {got}")
        # a partial, not a closure: closure cells holding the store end up in a reference
        # cycle, and the store (with its RocksDB lock) would live until the next gc pass
        work = functools.partial(_evaluate, self._db, checked.text, kind, expected, items, max_rows, self._dataset)
        return _within(work, timeout_s)

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
    elif term.datatype.value != NS.XSD_STRING:  # simple literals carry no datatype in JSON
        out["datatype"] = term.datatype.value
    return out


def _named_node(iri: str) -> ox.NamedNode:
    try:
        return ox.NamedNode(iri)
    except ValueError as e:
        raise StoreError(f"not a graph IRI: {iri!r} ({e})") from e


class _Concatenation(io.RawIOBase):
    """Several files read as one byte stream, a newline added after any file lacking one."""

    def __init__(self, paths: list[Path], progress: Callable[[int], None] | None = None) -> None:
        self._paths = list(paths)
        self._fh: Any = None
        self._last = b"\n"
        self._progress = progress

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
                if self._progress is not None:
                    self._progress(n)
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


# the first bytes of a line that may be blank or a comment (``bytes.strip``'s white space, ``#``)
_MAYBE_ODD = np.zeros(256, dtype=bool)
_MAYBE_ODD[list(b" \t\r\n\x0b\x0c#")] = True


def _scan(path: Path, *, block: int = 1 << 20) -> tuple[int, int]:
    """Lines, and statements (non-blank, non-comment lines: one per statement in N-Triples/N-Quads).

    Counted a block of whole lines at a time with numpy: a large load's files hold tens of
    millions of lines, and a Python loop over them took a tenth of the load. Only a block with a
    line that starts with white space or ``#`` is looked at line by line."""
    lines = odd = 0
    tail = b""
    with path.open("rb") as f:
        while chunk := f.read(block):
            data = tail + chunk
            end = data.rfind(b"\n") + 1
            whole, tail = data[:end], data[end:]
            if not whole:
                continue
            view = np.frombuffer(whole, dtype=np.uint8)
            ends = np.flatnonzero(view == 0x0A)
            lines += len(ends)
            firsts = view[np.concatenate(([0], ends[:-1] + 1))]
            if _MAYBE_ODD[firsts].any():  # rare: only then is the block read line by line
                odd += sum(1 for line in whole.split(b"\n")[:-1] if _not_a_statement(line))
    if tail:
        lines += 1
        odd += _not_a_statement(tail)
    return lines, lines - odd


def _not_a_statement(line: bytes) -> bool:
    s = line.strip()
    return not s or s.startswith(b"#")


def _locate(paths: list[Path], lines: list[int], lineno: int | None) -> tuple[Path | str, int | None]:
    # The loader counts lines over the whole stream; give the file and its own line.
    if lineno is None:
        return (paths[0] if len(paths) == 1 else ", ".join(map(str, paths))), None
    for p, n in zip(paths, lines):
        if lineno <= n:
            return p, lineno
        lineno -= n
    return paths[-1], lineno


def _evaluate(
    db: ox.Store,
    text: str,
    kind: type,
    expected: str,
    items: Callable[[Any], Iterable[T]],
    max_rows: int | None,
    dataset: tuple[ox.NamedNode, ...] | None,
    stop: threading.Event,
) -> list[T]:
    """The items of one query, stopping at ``max_rows + 1`` or when ``stop`` is set."""
    try:
        if dataset is None:
            result = db.query(text, prefixes=NS.PREFIXES, use_default_graph_as_union=True)
        else:
            result = db.query(text, prefixes=NS.PREFIXES, default_graph=list(dataset), named_graphs=list(dataset))
    except SyntaxError as e:
        raise StoreError(f"malformed SPARQL query: {e}") from e
    except (OSError, RuntimeError, ValueError) as e:
        raise StoreError(f"query failed: {e}") from e
    if not isinstance(result, kind):  # the guard and Oxigraph disagree on the form
        raise StoreError(f"expected a {expected} query, got {type(result).__name__}")
    out: list[T] = []
    try:
        for item in items(result):
            if stop.is_set() or (max_rows is not None and len(out) > max_rows):
                break
            out.append(item)
    except (OSError, RuntimeError, ValueError) as e:
        raise StoreError(f"query failed: {e}") from e
    return out


def _within(work: Callable[[threading.Event], T], timeout_s: float | None) -> T:
    """``work(stop)``, given up on after ``timeout_s``: ``stop`` is set so it ends at its next row."""
    stop = threading.Event()
    if timeout_s is None:
        return work(stop)
    if timeout_s <= 0:  # no time at all: do not let a fast query win a race against it
        raise QueryTimeout(f"query timed out after {timeout_s} s")
    box: list[Any] = []

    def target() -> None:
        try:
            box.append((True, work(stop)))
        except BaseException as e:  # handed to the waiting caller
            box.append((False, e))

    worker = threading.Thread(target=target, name="oxigraph-query", daemon=True)
    worker.start()
    worker.join(max(0.0, timeout_s))
    if not box:
        stop.set()
        raise QueryTimeout(f"query timed out after {timeout_s} s")
    ok, value = box[0]
    if not ok:
        raise value
    return value
