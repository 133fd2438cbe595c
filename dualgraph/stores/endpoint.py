"""A remote SPARQL 1.1 endpoint (Virtuoso, Fuseki, GraphDB, ...) as a SPARQL store.

Queries and updates go through SPARQLWrapper, always by POST so that long generated
queries never hit URL length limits. Read queries get the embedded store's guards (no
updates, no federated ``SERVICE``, and no Virtuoso ``DEFINE`` pragmas, which can make
the server fetch remote documents), and answers come back in the W3C JSON shape Oxigraph
gives, so callers cannot tell the backends apart. A result cut at the server's row cap
(Virtuoso's ``ResultSetMaxRows``) raises instead of passing for complete. What differs
between servers (URLs, auth, loaders, caps) is in :mod:`dualgraph.stores.profiles`.
"""

from __future__ import annotations

import ast
import functools
import http.client
import json
import math
import os
import re
import socket
import threading
import urllib.error
import urllib.parse
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import requests
from rdflib import BNode, Graph, Literal, URIRef
from SPARQLWrapper import BASIC, DIGEST, JSON, POST, TURTLE, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import EndPointInternalError, QueryBadFormed, SPARQLWrapperException, Unauthorized

from dualgraph.stores import namespaces as NS
from dualgraph.stores.base import Capabilities, StoreError
from dualgraph.stores.circuit import CircuitBreaker
from dualgraph.stores.guard import read_query
from dualgraph.stores.profiles import AuthStyle, check_auth_transport, get_profile
from dualgraph.stores.retry import TRANSIENT_HTTP, RetryPolicy, TimedOut, Transient, transient_500, with_retries

T = TypeVar("T")

GSP_CHUNK = 50_000  # triples per Graph Store Protocol POST
INSERT_CHUNK = 1_000  # triples per INSERT DATA: Virtuoso refuses larger ones (SP031)
_FORMS = {"SELECT": "SELECT", "ASK": "ASK", "CONSTRUCT": "CONSTRUCT", "DESCRIBE": "CONSTRUCT"}
# A lost connection, a cut body or a garbled status line: the next attempt may go through.
_TRANSIENT_ERRORS = (OSError, http.client.HTTPException)
_DECLARED = re.compile(r"\bPREFIX\s+([A-Za-z][\w.-]*)?:", re.IGNORECASE)
_BAD_IRI = re.compile(r'[\x00-\x20<>"{}|^`\\]')
# One N-Triples/N-Quads statement: subject predicate object [graph] "." [comment].
_IRI, _BNODE = r"<[^<>\"{}|^`\\\x00-\x20]*>", r"_:[\w.-]*[\w-]"
_LIT = r'"(?:[^"\\\n\r]|\\.)*"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\^\^' + _IRI + ")?"
_STATEMENT = re.compile(
    rf"\s*((?:{_IRI}|{_BNODE})\s*{_IRI}\s*(?:{_IRI}|{_BNODE}|{_LIT}))\s*({_IRI}|{_BNODE})?\s*\.\s*(?:#.*)?"
)
_NT_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


class SparqlEndpointStore:
    """A :class:`~dualgraph.stores.base.SparqlStore` on a SPARQL 1.1 Protocol server.

    ``union_default_graph``: queries without ``GRAPH`` (and the ``WHERE`` of updates) see
    the union of all named graphs. Virtuoso does this by default; Fuseki needs
    ``tdb:unionDefaultGraph true`` (``tdb2:`` for TDB2) in its dataset config.
    ``max_rows``: the server's row cap (Virtuoso: ``ResultSetMaxRows``, 10000); without
    it a silently cut result cannot be told from a full one. ``graph_store_url``: the
    Graph Store Protocol endpoint for loads; Virtuoso's is ``/sparql-graph-crud-auth``
    (Digest auth as dba), whose parameter is ``graph-uri`` (``graph``, the default
    ``graph_param``, works too); its authenticated SPARQL endpoint is ``/sparql-auth``.
    ``graph_namespace``: ``graphs()``/``count()`` see only graphs under this prefix, as
    Virtuoso keeps system graphs (``virtrdf#``, ``DAV/``, ...) in the same store.
    ``connect_timeout_s`` bounds the first TCP connect, so a dead host fails fast.
    ``retry``: transient failures (refused or reset connections, timeouts, HTTP 429, 502,
    503, 504, and a 500 that names a deadlock) are retried with backoff inside a time
    budget; the final error names the endpoint, the attempts and the last failure. Updates
    are retried too: the ones the store sends (INSERT DATA, DROP SILENT, INSERT ... WHERE)
    give the same graph when applied twice, except for blank nodes, which a repeated load
    would mint again. ``breaker``: a :class:`~dualgraph.stores.circuit.CircuitBreaker` that,
    after so many transient failures in a row, fails every call at once for a cool-down
    (``None``: no breaker, each call spends its own retry budget).
    ``bulk_load_url``: a URL that takes N-Quads bodies by POST, for servers whose loader is
    not the Graph Store Protocol (Oxigraph server's ``/store``, Blazegraph's REST
    ``/bigdata/namespace/NS/sparql`` with ``bulk_content_type`` ``text/x-nquads``); it wins
    over ``graph_store_url`` for loads. ``auth``: how ``user``/``password`` are sent.
    ``load_parallel``: graphs a ``bulk_load`` uploads at once unless it says otherwise.

    >>> store = SparqlEndpointStore("http://127.0.0.1:9/sparql", read_only=True)
    >>> store.capabilities.update, store.capabilities.bulk_load_files
    (False, False)
    """

    def __init__(
        self,
        query_url: str,
        *,
        update_url: str | None = None,
        graph_store_url: str | None = None,
        graph_param: str = "graph",
        user: str | None = None,
        password: str | None = None,
        read_only: bool = False,
        timeout_s: float = 60.0,
        connect_timeout_s: float = 5.0,
        max_rows: int | None = None,
        union_default_graph: bool = True,
        graph_namespace: str | None = NS.GRAPH,
        retry: RetryPolicy | None = None,
        breaker: CircuitBreaker | None = None,
        auth: AuthStyle = "digest",
        bulk_load_url: str | None = None,
        bulk_content_type: str = "application/n-quads",
        load_parallel: int = 1,
        allow_insecure_auth: bool = False,
    ) -> None:
        if auth not in ("none", "basic", "digest"):
            raise StoreError(f"unknown auth {auth!r} for {query_url}; expected none, basic or digest")
        if auth == "none" and user is not None:
            raise StoreError(f"a user is given for {query_url}, whose auth is 'none'")
        if load_parallel < 1:
            raise StoreError(f"load_parallel must be at least 1, got {load_parallel}")
        if user is not None and auth != "none" and password:
            # before any request: a refused store never sends the password anywhere
            check_auth_transport(
                (query_url, update_url, graph_store_url, bulk_load_url), allow_insecure=allow_insecure_auth
            )
        self.query_url, self.update_url = query_url, update_url or query_url
        self.graph_store_url, self.graph_param = graph_store_url, graph_param
        self.bulk_load_url, self.bulk_content_type = bulk_load_url, bulk_content_type
        self.user, self.password, self.read_only, self.auth = user, password, read_only, auth
        self.timeout_s, self.connect_timeout_s, self.max_rows = timeout_s, connect_timeout_s, max_rows
        self.graph_namespace = graph_namespace
        self.retry = retry or RetryPolicy()
        self.breaker = breaker
        self.load_parallel = load_parallel
        self.capabilities = Capabilities(
            bulk_load_files=graph_store_url is not None or bulk_load_url is not None,
            union_default_graph=union_default_graph,
            update=not read_only,
            persistent=True,
            dataset_restriction=True,
        )
        self._dataset: tuple[str, ...] | None = None
        self._session: requests.Session | None = requests.Session()
        self._owner = threading.get_ident()
        self._local = threading.local()  # load workers get their own session: requests' is not thread-safe
        self._sessions: list[requests.Session] = []
        self._lock = threading.Lock()
        self._reached: set[str] = set()

    # -- reads ----------------------------------------------------------------------

    def select(self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> dict[str, Any]:
        """Run a SELECT; returns W3C SPARQL 1.1 JSON (Virtuoso's ``typed-literal`` and ``xsd:string`` normalised).

        ``max_rows`` cuts the answer at ``max_rows + 1`` rows (the server computed them all).
        """
        raw = self._read(query, "SELECT", timeout_s)
        bindings = raw.get("results", {}).get("bindings", [])
        self._check_cap(query, len(bindings), "rows")
        rows = [{k: _term_json(v) for k, v in row.items()} for row in bindings[: _cut(max_rows)]]
        return {"head": {"vars": list(raw.get("head", {}).get("vars", []))}, "results": {"bindings": rows}}

    def ask(self, query: str, *, timeout_s: float | None = None) -> bool:
        """Run an ASK."""
        answer = self._read(query, "ASK", timeout_s).get("boolean")
        if not isinstance(answer, bool):
            raise StoreError(f"the endpoint at {self.query_url} answered an ASK without a boolean")
        return answer

    def construct(
        self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None
    ) -> list[tuple[str, str, str]]:
        """Run a CONSTRUCT or DESCRIBE; returns triples as N-Triples terms, as the embedded store does."""
        accept = "application/n-triples,text/turtle;q=0.5"
        graph = self._checked(query, "CONSTRUCT", timeout_s, accept=accept, decode=_graph)
        triples = [(_nt(s), _nt(p), _nt(o)) for s, p, o in graph]
        self._check_cap(query, len(triples), "triples")
        return triples[: _cut(max_rows)]

    def check_reachable(self) -> None:
        """Raise :class:`StoreError` unless the query endpoint answers ``ASK {}`` and the
        update and Graph Store URLs accept connections (each retried as usual)."""
        self._open()
        self.ask("ASK {}")
        for url in (self.update_url, self.graph_store_url, self.bulk_load_url):
            if url is not None and url != self.query_url:
                reach = functools.partial(self._reach, url)
                with_retries(self.retry, f"connecting to {url}", reach, breaker=self.breaker, url=url)

    def restrict(self, graphs: Sequence[str] | None) -> None:
        """Let later reads see only ``graphs``, sent as the protocol's ``default-graph-uri`` and
        ``named-graph-uri`` parameters (which override any ``FROM`` in the query); ``None``
        lifts it. Updates, ``count`` and ``graphs`` still see every graph."""
        self._dataset = None if graphs is None else tuple(_iri(g)[1:-1] for g in graphs)

    def graphs(self) -> list[str]:
        """IRIs of the named graphs (under ``graph_namespace``), sorted.

        Pages by key (``STR(?g) >`` the last one) rather than OFFSET: Virtuoso refuses to
        sort past its row cap (SR353), so OFFSET paging would stop after the first page.
        """
        page = self.max_rows or 10_000
        out: list[str] = []
        while True:
            after = f"FILTER(STR(?g) > {json.dumps(out[-1] if out else '', ensure_ascii=False)})"
            where = f"GRAPH ?g {{ ?s ?p ?o }} {self._ns_filter()} {after}"
            rows = self._select_all(f"SELECT DISTINCT ?g WHERE {{ {where} }} ORDER BY STR(?g) LIMIT {page}")
            out += [r["g"]["value"] for r in rows if r.get("g", {}).get("type") == "uri"]
            if len(rows) < page:
                return sorted(out)

    def count(self, *, graph: str | None = None) -> int:
        """Quads in one named graph, or in every graph under ``graph_namespace``."""
        where = f"GRAPH {_iri(graph)} {{ ?s ?p ?o }}" if graph else f"GRAPH ?g {{ ?s ?p ?o }} {self._ns_filter()}"
        rows = self._select_all(f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}")
        return int(rows[0]["n"]["value"]) if rows else 0

    def _select_all(self, query: str) -> list[dict[str, Any]]:
        # graphs() and count() see every graph, whatever the dataset answers are restricted to
        raw = self._read(query, "SELECT", None, whole=True)
        bindings = raw.get("results", {}).get("bindings", [])
        self._check_cap(query, len(bindings), "rows")
        return [{k: _term_json(v) for k, v in row.items()} for row in bindings]

    # -- writes ---------------------------------------------------------------------

    def insert_where(self, template: str, where: str, *, graph: str) -> int:
        """One ``INSERT { GRAPH <graph> { template } } WHERE { where }`` update; returns new quads.

        SPARQL Update does not report what it added, so the graph is counted before and
        after. ``where`` must see every graph, hence the union default graph is required.
        """
        self._writable()
        target = _iri(graph)
        if not self.capabilities.union_default_graph:
            raise StoreError(f"insert_where needs a union default graph, which {self.update_url} does not have")
        before = self.count(graph=graph)
        self.update(f"INSERT {{ GRAPH {target} {{\n{template}\n}} }}\nWHERE {{\n{where}\n}}")
        return self.count(graph=graph) - before

    def update(self, sparql: str) -> None:
        """Run a SPARQL 1.1 Update as written (missing predeclared prefixes added)."""
        self._writable()
        self._send(_with_prologue(sparql), update=True, timeout_s=None)

    def drop_graph(self, graph: str) -> None:
        """``DROP SILENT GRAPH``: a missing graph is not an error."""
        self.update(f"DROP SILENT GRAPH {_iri(graph)}")

    def bulk_load(
        self,
        path: str | os.PathLike | Sequence[str | os.PathLike],
        *,
        format: str = "nquads",
        graph: str | None = None,
        progress: Callable[[int], None] | None = None,
        parallel: int | None = None,
    ) -> int:
        """Stream N-Quads/N-Triples files to the server, grouped by graph; returns statements read.

        Files are read line by line, so memory stays at a few chunks whatever their size.
        Chunks go to ``bulk_load_url`` as N-Quads, or to the Graph Store Protocol
        (:data:`GSP_CHUNK` triples a POST), or, without either, into ``INSERT DATA``
        requests of :data:`INSERT_CHUNK`. ``graph`` receives N-Triples (and N-Quads lines
        without a graph); ``None`` is the endpoint's default graph, which Virtuoso does not
        have. Blank node labels are scoped per request, so one split across chunks becomes
        two. ``parallel`` (default ``load_parallel``): how many graphs are uploaded at once,
        on a bounded pool of threads; the chunks of one graph still go one after the other.
        All or nothing per graph: when a load fails (a bad line, or the server after
        retries), the uploads under way are waited for, then every named graph this call
        wrote to is dropped, including what it held before, and the error says so, naming
        the file and the line. ``progress`` is called with each file's size in bytes once
        all of it is sent.
        """
        self._writable()
        if format not in ("nquads", "ntriples"):
            raise StoreError(f"unknown format {format!r}; expected one of ['nquads', 'ntriples']")
        workers = self.load_parallel if parallel is None else parallel
        if workers < 1:
            raise StoreError(f"parallel must be at least 1, got {workers}")
        target = None if graph is None else _iri(graph)[1:-1]
        paths = [Path(path)] if isinstance(path, (str, os.PathLike)) else [Path(p) for p in path]
        for p in paths:
            if not p.is_file():
                raise StoreError(f"no such file: {p}")
        touched: list[str | None] = []
        try:
            with _Uploads(self._upload, workers=workers, touched=touched, progress=progress) as uploads:
                return self._load(paths, format, target, uploads)
        except StoreError as e:
            raise StoreError(f"{e}; {self._undo(touched)}") from e

    def _load(self, paths: list[Path], format: str, target: str | None, uploads: _Uploads) -> int:
        loader = self.bulk_load_url or self.graph_store_url
        chunk, read = GSP_CHUNK if loader else INSERT_CHUNK, 0
        for p in paths:
            buffers: dict[str | None, list[str]] = {}
            first: dict[str | None, int] = {}  # line of each buffer's first statement, for errors
            held = 0
            for lineno, g, triple in _statements(p, quads=format == "nquads"):
                read, held = read + 1, held + 1
                key = target if g is None else g[1:-1]
                buf = buffers.setdefault(key, [])
                first.setdefault(key, lineno)
                buf.append(triple)
                if len(buf) >= chunk:
                    held -= len(buf)
                    uploads.submit(p, key, first.pop(key), buffers.pop(key))
                elif held >= 4 * chunk:  # many interleaved graphs: bound the memory
                    for k in list(buffers):
                        uploads.submit(p, k, first.pop(k), buffers.pop(k))
                    held = 0
            for k, rest in buffers.items():
                uploads.submit(p, k, first[k], rest)
            uploads.file_done(p)
        return read

    def _undo(self, touched: list[str | None]) -> str:
        """Drop the graphs a failed load wrote to, so none stays half loaded; says what became of them."""
        named = [g for g in touched if g is not None]
        if not named:
            return "nothing was written" if not touched else "the default graph may hold part of the load"
        failed = []
        for g in named:
            try:
                self.drop_graph(g)
            except StoreError as e:
                failed.append(f"<{g}> ({e})")
        if failed:
            return f"could not drop the partly loaded {', '.join(failed)}: drop them before querying"
        return f"dropped the graph(s) it had written to, so none is half loaded: {', '.join(f'<{g}>' for g in named)}"

    def close(self) -> None:
        """Release the HTTP sessions; later calls raise."""
        session, self._session = self._session, None
        with self._lock:
            others, self._sessions = self._sessions, []
        for s in [session, *others]:
            if s is not None:
                s.close()

    def __enter__(self) -> SparqlEndpointStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SparqlEndpointStore({self.query_url!r}, read_only={self.read_only})"

    # -- internals ------------------------------------------------------------------

    def _writable(self) -> None:
        self._open()
        if self.read_only:
            raise StoreError(f"the SPARQL endpoint at {self.update_url} is open read-only")

    def _open(self) -> requests.Session:
        if self._session is None:
            raise StoreError("the store is closed")
        return self._session

    def _http(self) -> requests.Session:
        """This thread's HTTP session: the store's own, or one per load worker."""
        main = self._open()
        if threading.get_ident() == self._owner:
            return main
        session: requests.Session | None = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
            with self._lock:
                self._sessions.append(session)
        return session

    def _auth(self) -> requests.auth.AuthBase | None:
        if self.user is None or self.auth == "none":
            return None
        if self.auth == "basic":
            return requests.auth.HTTPBasicAuth(self.user, self.password or "")
        return requests.auth.HTTPDigestAuth(self.user, self.password or "")

    def _ns_filter(self) -> str:
        ns = self.graph_namespace
        return "" if ns is None else f"FILTER(STRSTARTS(STR(?g), {json.dumps(ns, ensure_ascii=False)}))"

    def _check_cap(self, query: str, n: int, what: str) -> None:
        own = _own_limit(query)
        if self.max_rows is not None and n >= self.max_rows and (own is None or own > self.max_rows):
            raise StoreError(
                f"result truncated at {self.max_rows} {what} by the server at {self.query_url} "
                "(its row cap): add a LIMIT and page, or narrow the query"
            )

    def _read(self, query: str, form: str, timeout_s: float | None, *, whole: bool = False) -> dict[str, Any]:
        return self._checked(query, form, timeout_s, accept=None, decode=lambda body, _: json.loads(body), whole=whole)

    def _checked(
        self,
        query: str,
        form: str,
        timeout_s: float | None,
        accept: str | None,
        decode: Callable[[bytes, Any], T],
        *,
        whole: bool = False,
    ) -> T:
        checked = read_query(query)
        if _FORMS[checked.form] != form:
            wanted = "CONSTRUCT or DESCRIBE" if form == "CONSTRUCT" else form
            raise StoreError(f"expected a {wanted} query, got {_FORMS[checked.form]}")
        text = _with_prologue(checked.text)
        dataset = None if whole else self._dataset
        return self._send(text, update=False, timeout_s=timeout_s, accept=accept, decode=decode, dataset=dataset)

    def _send(
        self,
        text: str,
        *,
        update: bool,
        timeout_s: float | None,
        accept: str | None = None,
        decode: Callable[[bytes, Any], Any] = lambda body, headers: None,
        dataset: Sequence[str] | None = None,
    ) -> Any:
        """Send one request (retried); ``decode(body, headers)`` runs inside each try, so an
        answer cut short or garbled on the way counts as a failed try."""
        self._open()
        url, what = (self.update_url, "update") if update else (self.query_url, "query")

        def attempt() -> Any:
            body, headers = self._send_once(text, update, timeout_s, accept, dataset)
            try:
                return decode(body, headers)
            except Exception as e:  # json and rdflib raise parser-specific types
                ctype = headers.get("Content-Type", "")
                raise Transient(f"unreadable answer ({ctype}, {len(body)} bytes) from {url}: {e}") from e

        return with_retries(self.retry, f"{what} at {url}", attempt, breaker=self.breaker, url=url)

    def _send_once(
        self, text: str, update: bool, timeout_s: float | None, accept: str | None, dataset: Sequence[str] | None = None
    ) -> tuple[bytes, Any]:
        url, what = (self.update_url, "update") if update else (self.query_url, "query")
        self._reach(url)
        sw = SPARQLWrapper(self.query_url, updateEndpoint=self.update_url, returnFormat=TURTLE if accept else JSON)
        sw.setMethod(POST)  # form-encoded body: no URL length limit
        timeout = self.timeout_s if timeout_s is None else timeout_s
        sw.setTimeout(max(1, math.ceil(timeout)))  # whole seconds only
        if self.user is not None and self.auth != "none":
            sw.setHTTPAuth(BASIC if self.auth == "basic" else DIGEST)
            sw.setCredentials(self.user, self.password or "")
        if accept:
            sw.addCustomHttpHeader("Accept", accept)
        for g in dataset or ():
            sw.addParameter("default-graph-uri", g)
            sw.addParameter("named-graph-uri", g)
        with warnings.catch_warnings():  # it warns on forms it does not know (WITH ... INSERT)
            warnings.simplefilter("ignore")
            sw.setQuery(text)
        if update:
            sw.queryType = "INSERT"  # every update form must go as `update=` to the update URL
        try:
            result = sw.query()
            try:
                body, headers = result.response.read(), result.response.headers
            finally:
                result.response.close()
        except QueryBadFormed as e:
            raise StoreError(f"malformed SPARQL {what} at {url}: {_server_text(e)}") from e
        except Unauthorized as e:
            raise StoreError(f"not authorised for this {what} at {url}: {_server_text(e)}") from e
        except EndPointInternalError as e:
            text = _server_text(e)
            if transient_500(text):  # a lost lock race; other 500s are the query's fault (retry.py)
                raise Transient(f"HTTP 500 from {url}: {text}") from e
            raise StoreError(f"{what} failed at {url}: {text}") from e
        except SPARQLWrapperException as e:
            raise StoreError(f"{what} failed at {url}: {_server_text(e)}") from e
        except urllib.error.HTTPError as e:
            if e.code in TRANSIENT_HTTP:
                raise Transient(f"HTTP {e.code} {e.reason} from {url}") from e
            raise StoreError(f"{what} failed at {url}: HTTP {e.code} {e.reason}") from e
        except _TRANSIENT_ERRORS as e:  # URLError, timeouts, resets, a body cut short
            if isinstance(e, TimeoutError) or isinstance(getattr(e, "reason", None), TimeoutError):
                raise TimedOut(f"{what} timed out after {timeout} s at {url}") from e
            raise Transient(f"cannot reach SPARQL endpoint at {url}: {getattr(e, 'reason', e)!s}") from e
        if headers.get("X-SQL-State"):  # Virtuoso's partial "anytime" answer
            raise StoreError(f"partial result from {url}: {headers.get('X-SQL-Message') or headers['X-SQL-State']}")
        return body, headers

    def _reach(self, url: str) -> None:
        """One TCP connect with ``connect_timeout_s``, once per URL (urllib has one timeout for all)."""
        if url in self._reached:
            return
        parts = urllib.parse.urlsplit(url)
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError as e:
            raise StoreError(f"not a usable endpoint URL {url!r}: {e}") from e
        try:
            socket.create_connection((parts.hostname or "", port), timeout=self.connect_timeout_s).close()
        except OSError as e:
            raise Transient(f"cannot reach SPARQL endpoint at {url}: {e}") from e
        self._reached.add(url)

    def _upload(self, path: Path, graph: str | None, line: int, triples: list[str]) -> None:
        """One chunk of one graph, by the best loader the server has; errors name file, line and graph."""
        where = f"<{graph}>" if graph else "the default graph"
        try:
            if self.bulk_load_url is not None:
                url = self.bulk_load_url
                # N-Quads carry their graph, so one URL takes every graph (and the default one)
                quads = triples if graph is None else [t[:-3] + f" <{graph}> .\n" for t in triples]
                post = functools.partial(self._post, url, {}, quads, self.bulk_content_type)
                with_retries(self.retry, f"POST to {url}", post, breaker=self.breaker, url=url)
            elif self.graph_store_url is not None:
                url = self.graph_store_url
                params = {self.graph_param: graph} if graph else {"default": ""}
                post = functools.partial(self._post, url, params, triples, "application/n-triples")
                with_retries(self.retry, f"POST to {url}", post, breaker=self.breaker, url=url)
            else:
                for i in range(0, len(triples), INSERT_CHUNK):
                    body = "".join(triples[i : i + INSERT_CHUNK])
                    self.update(
                        f"INSERT DATA {{ GRAPH <{graph}> {{\n{body}}} }}" if graph else f"INSERT DATA {{ {body}}}"
                    )
        except StoreError as e:
            raise StoreError(f"cannot load {path} into {where} (statements from line {line} on): {e}") from e

    def _post(self, url: str, params: dict[str, str], lines: list[str], content_type: str) -> None:
        """One POST of RDF to a loader; failures worth another try raise :class:`Transient`."""
        self._reach(url)
        try:
            r = self._http().post(
                url,
                params=params,
                data="".join(lines).encode("utf-8"),
                headers={"Content-Type": content_type},
                auth=self._auth(),
                timeout=(self.connect_timeout_s, self.timeout_s),
            )
        except (requests.ConnectionError, requests.Timeout) as e:
            raise Transient(f"{type(e).__name__}: {e}") from e
        except requests.RequestException as e:
            raise StoreError(f"load failed at {url}: {e}") from e
        if r.status_code in TRANSIENT_HTTP or (r.status_code == 500 and transient_500(r.text)):
            raise Transient(f"HTTP {r.status_code} from {url}")
        if r.status_code not in (200, 201, 204):
            raise StoreError(f"HTTP {r.status_code} from {url}: {r.text[:300]}")


class _Uploads:
    """Runs the chunk uploads of one ``bulk_load``: inline, or on a bounded pool of threads.

    The reader stays on the caller's thread and is held back when ``2 * workers`` chunks are
    waiting, so memory stays bounded. Chunks of one graph run one after another (a lock
    per graph): servers lock per graph, and two writers on one graph only wait for each
    other. The first failure stops the reader; on leaving, every upload under way is
    waited for before the error goes up, so the caller's undo sees the final state.
    ``progress`` is called on the caller's thread, in file order, once a file is all sent.
    """

    def __init__(
        self,
        upload: Callable[[Path, str | None, int, list[str]], None],
        *,
        workers: int,
        touched: list[str | None],
        progress: Callable[[int], None] | None,
    ) -> None:
        self.upload, self.workers, self.touched, self.progress = upload, workers, touched, progress
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="bulk-load") if workers > 1 else None
        self._slots = threading.BoundedSemaphore(2 * workers)
        self._graph_locks: dict[str | None, threading.Lock] = {}
        self._lock = threading.Lock()
        self._error: BaseException | None = None
        self._files: list[tuple[Path, list[Future[None]]]] = []
        self._pending: list[Future[None]] = []

    def submit(self, path: Path, graph: str | None, line: int, triples: list[str]) -> None:
        self._raise_failure()
        if graph not in self.touched:
            self.touched.append(graph)  # before the upload: a failed one may have landed in part
        if self._pool is None:
            self.upload(path, graph, line, triples)
            return
        self._slots.acquire()
        lock = self._graph_locks.setdefault(graph, threading.Lock())
        future = self._pool.submit(self._run, lock, path, graph, line, triples)
        self._pending.append(future)
        self._report()

    def file_done(self, path: Path) -> None:
        self._files.append((path, self._pending))
        self._pending = []
        self._report()

    def _run(self, lock: threading.Lock, path: Path, graph: str | None, line: int, triples: list[str]) -> None:
        try:
            if self._error is not None:
                return  # the load has failed already: do not add to what the undo must drop
            with lock:
                self.upload(path, graph, line, triples)
        except BaseException as e:
            with self._lock:
                if self._error is None:
                    self._error = e
            raise
        finally:
            self._slots.release()

    def _raise_failure(self) -> None:
        if self._error is not None:
            raise self._error

    def _report(self) -> None:
        while self._files and all(f.done() for f in self._files[0][1]):
            path, _ = self._files.pop(0)
            if self.progress is not None and self._error is None:
                self.progress(path.stat().st_size)

    def __enter__(self) -> _Uploads:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)  # in flight or queued: all end before any undo
        if kind is None:
            self._raise_failure()
            self._report()


def _statements(path: Path, *, quads: bool) -> Iterator[tuple[int, str | None, str]]:
    """``(line, <graph> or None, "s p o .\\n")`` per statement, checked line by line so errors name the line."""
    fmt = "nquads" if quads else "ntriples"
    try:
        with path.open("rb") as f:
            for lineno, raw in enumerate(f, 1):
                try:
                    line = raw.decode("utf-8").strip()
                except UnicodeDecodeError as e:
                    raise StoreError(f"bad {fmt} in {path}, line {lineno}: not UTF-8 ({e})") from e
                if not line or line.startswith("#"):
                    continue
                m = _STATEMENT.fullmatch(line)
                if m is None or (m.group(2) and not quads):
                    raise StoreError(f"bad {fmt} in {path}, line {lineno}: not a statement: {line[:120]}")
                if m.group(2) and m.group(2).startswith("_:"):
                    raise StoreError(f"bad {fmt} in {path}, line {lineno}: blank node graph names are not supported")
                yield lineno, m.group(2), m.group(1) + " .\n"
    except OSError as e:
        raise StoreError(f"cannot read {path}: {e}") from e


def _with_prologue(query: str) -> str:
    declared = {p or "" for p in _DECLARED.findall(query)}
    return "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in NS.PREFIXES.items() if p not in declared) + query


def _graph(body: bytes, headers: Any) -> Graph:
    ctype = headers.get("Content-Type", "")
    fmt = "nt" if "n-triples" in ctype or "text/plain" in ctype else "turtle"
    return Graph().parse(data=body.decode("utf-8"), format=fmt)


def _cut(max_rows: int | None) -> int | None:
    return None if max_rows is None else max_rows + 1


def _own_limit(query: str) -> int | None:
    """The outermost LIMIT (in the solution modifiers after the last ``}``), if any."""
    m = re.search(r"\bLIMIT\s+(\d+)", query[query.rfind("}") + 1 :], re.IGNORECASE)
    return int(m.group(1)) if m else None


def _iri(iri: str) -> str:
    if not iri or _BAD_IRI.search(iri) or ":" not in iri:
        raise StoreError(f"not a graph IRI: {iri!r}")
    return f"<{iri}>"


def _term_json(term: dict[str, Any]) -> dict[str, Any]:
    # Virtuoso writes the pre-REC "typed-literal" and keeps xsd:string apart from simple
    # literals (RDF 1.0); the W3C format and RDF 1.1 do neither.
    out = {**term, "type": "literal"} if term.get("type") == "typed-literal" else dict(term)
    if out.get("datatype") == NS.XSD_STRING:
        del out["datatype"]
    return out


def _nt(term: Any) -> str:
    """One rdflib term in N-Triples syntax, as pyoxigraph prints it."""
    if isinstance(term, (URIRef, BNode)):
        return term.n3()  # <iri> or _:label
    if not isinstance(term, Literal):
        raise StoreError(f"unexpected term in a CONSTRUCT result: {term!r}")
    text = "".join(_NT_ESCAPES.get(c, c if c >= " " else f"\\u{ord(c):04X}") for c in str(term))
    if term.language:
        return f'"{text}"@{term.language}'
    if term.datatype is not None and str(term.datatype) != NS.XSD_STRING:
        return f'"{text}"^^<{term.datatype}>'
    return f'"{text}"'


def _server_text(e: SPARQLWrapperException) -> str:
    """The server's message out of SPARQLWrapper's ``Response:\\nb'...'``, without the echoed query."""
    text = str(e).split("Response:\n", 1)[-1]
    try:
        value = ast.literal_eval(text)
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    except (ValueError, SyntaxError):
        pass
    return " ".join(ln for ln in text.split("SPARQL query:")[0].splitlines() if ln.strip())[:500]


def open_endpoint(
    kind: str,
    query_url: str,
    *,
    update_url: str | None = None,
    graph_store_url: str | None = None,
    bulk_load_url: str | None = None,
    user: str | None = None,
    password: str | None = None,
    max_rows: int | None = None,
    load_parallel: int | None = None,
    **options: Any,
) -> SparqlEndpointStore:
    """A store on a server of ``kind`` at ``query_url``; URLs and caps not given come from the profile.

    ``options`` go to :class:`~dualgraph.stores.endpoint.SparqlEndpointStore` as they are
    (``read_only``, ``timeout_s``, ``retry``, ``breaker``, ...).
    """
    profile = get_profile(kind)
    urls = profile.urls(query_url, authenticated=user is not None)
    return SparqlEndpointStore(
        query_url,
        update_url=update_url or urls.update,
        graph_store_url=graph_store_url or urls.graph_store,
        graph_param=profile.graph_param,
        bulk_load_url=bulk_load_url or urls.bulk_load,
        bulk_content_type=profile.bulk_content_type,
        user=user,
        password=password,
        auth=profile.auth if user is not None else "none",
        max_rows=max_rows if max_rows is not None else profile.max_rows,
        union_default_graph=profile.union_default_graph,
        load_parallel=load_parallel or profile.load_parallel,
        **options,
    )


# -- Blazegraph's multi-tenancy API -------------------------------------------------
