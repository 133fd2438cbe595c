"""A Ray Serve application answering questions over one index: a batched JSON API and a web page.

Routes (the OpenAPI document is at ``GET /openapi.json``):

- ``POST /ask``: one question (:class:`~dualgraph.serve.models.AskRequest`: ``question``, and
  optionally ``id``, ``strategy``, ``market``, ``names``); the answer record, plus ``batch_size``.
  ``POST /`` is the same route (what earlier clients post to).
- ``POST /ask_batch``: ``{"questions": [...]}``, up to ``max_batch_questions``; answers in order.
- ``GET /``: the web page (:mod:`dualgraph.serve.page`); ``?question=...`` answers on it.
- ``GET /info``, ``GET /health`` (no key needed: for probes), ``GET /stats``.
- ``POST /sparql``: read-only SELECT/ASK, capped; only with ``ServeConfig.sparql_endpoint``.

Concurrent questions, from any route, are gathered by ``serve.batch`` into one engine call per
(strategy, market, names): the embedder, the compiler's caches and the store work on the batch.
A bad request gets HTTP 400 naming what is wrong; a question that makes the engine raise gets
an error record (HTTP 200, ``error`` set), as in bulk answering. A body over ``max_body_bytes``
gets HTTP 413, a request not answered within ``request_timeout_s`` HTTP 504 with an error
record, and when the environment variable named by ``api_key_env`` holds a key, every request
but ``/health`` must carry it (``Authorization: Bearer KEY`` or ``X-API-Key: KEY``) or gets HTTP
401. The key stays in the process that starts the service: replicas receive only its SHA-256
digest and compare digests in constant time; the key is never logged nor returned.

Each replica's engines answer in budgeted workers (``AskConfig.budget``, :mod:`dualgraph.budget`):
an engine call runs past its deadline or memory budget only until its worker is killed, then its
questions are answered one by one, each under its own budget, and the one at fault gets an error
record naming the budget. When every request waiting on an engine call has had its 504, the
call's worker is killed at once, and a question whose request has ended is not started. A
``POST /sparql`` query runs in a budgeted worker of its own, killed at ``sparql_timeout_s`` (504)
or past the memory budget (507): a 504 means the query has stopped.

    dualgraph serve --index INDEX_DIR --port 8000 [--replicas 2]
    curl -s localhost:8000/ask -d '{"question": "Which phones under 20k have 5G?"}'
"""

import asyncio
import functools
import hashlib
import hmac
import json
import math
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from dualgraph.answer.engine import EngineSpec, QAEngine
from dualgraph.answer.question_text import safe_text
from dualgraph.answer.record import error_record
from dualgraph.answer.strategies import STRATEGIES
from dualgraph.budget.engine import IsolatedEngine
from dualgraph.pipeline.bulk_answer import answer_items
from dualgraph.serve.config import API_KEY_ENV, ServeConfig
from dualgraph.serve.models import (
    AskBatchReply,
    AskBatchRequest,
    AskReply,
    AskRequest,
    ErrorReply,
    Health,
    Info,
    SparqlReply,
    SparqlRequest,
    Stats,
)
from dualgraph.serve.page import render_page
from dualgraph.serve.stats import StatsBook, merge_snapshots

__all__ = ["API_KEY_ENV", "ServeConfig", "app_builder", "build_app", "run"]

_OPEN_PATHS = ("/health",)  # answered without a key: liveness probes carry none
QUERY_GRACE_S = 0.5  # past a /sparql query's timeout before its worker is killed (the store may stop it first)

Item = tuple[str, str, str, tuple[str | None, str], threading.Event]
"""A question in a replica's batch: id, text, strategy, engine key, and the flag set when its request ended."""


def open_engine(spec: EngineSpec) -> QAEngine | IsolatedEngine:
    """A replica's engine for ``spec``: prepared, in a budgeted worker that restarts at once after a
    kill (unless ``spec.config.budget.isolate`` is off: then in the replica's own process)."""
    if spec.config.budget.isolate:
        return IsolatedEngine(spec, prepare=True, respawn="eager").open()
    return spec()


def _authorised(headers: Mapping[str, str], digest: bytes | None) -> bool:
    if digest is None:
        return True
    auth = headers.get("authorization", "")
    given = auth[7:] if auth[:7].lower() == "bearer " else headers.get("x-api-key", "")
    # digests of equal length, compared in constant time: neither the key nor its length leaks
    return hmac.compare_digest(hashlib.sha256(given.encode("utf-8")).digest(), digest)


def index_markets(index_dir: Path) -> list[str]:
    """The markets an index holds (its manifest's), for checking a request's ``market``."""
    try:
        manifest = json.loads((index_dir / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return sorted(manifest.get("markets") or {})


class _Reporter:
    """This replica's :class:`StatsBook` and its line to the hub actor that merges all replicas'.

    A Serve replica is one process, so there is one reporter per process (:func:`_reporter`)."""

    def __init__(self, window: int) -> None:
        import os
        import socket

        self.book = StatsBook(window)
        self.replica = f"{socket.gethostname()}:{os.getpid()}"
        self._hub = None
        self._sent = 0.0

    def _hub_handle(self, fresh: bool = False):
        from ray import serve

        if self._hub is None or fresh:
            try:
                app = serve.get_replica_context().app_name
            except Exception:  # outside a replica (tests of the class itself)
                app = "local"
            self._hub = (
                _stats_hub_class().options(name=f"dualgraph-stats:{app}", get_if_exists=True, num_cpus=0).remote()
            )
        return self._hub

    def connect(self) -> None:
        """Find or start the hub: at replica start, never on a request's path."""
        try:
            self._hub_handle(fresh=True)
        except Exception:  # GET /stats tries again; until then this replica's stats stay local
            self._hub = None

    def maybe_send(self) -> None:
        """Send a snapshot if the last one is over a second old (fire and forget; only to a hub
        already found, so a request never waits on an actor start)."""
        now = time.monotonic()
        if self._hub is None or now - self._sent < 1.0:
            return
        self._sent = now
        try:
            self._hub.put.remote(self.replica, self.book.snapshot())
        except Exception:  # the hub went away; GET /stats finds or starts another
            self._hub = None

    def merged(self) -> Stats:
        import ray

        for attempt in range(2):
            try:
                hub = self._hub_handle(fresh=attempt > 0)
                ray.get(hub.put.remote(self.replica, self.book.snapshot()), timeout=10)
                return merge_snapshots(ray.get(hub.snapshots.remote(), timeout=10))
            except Exception:
                # the replica that created the hub went away, and the hub with it
                if attempt:
                    break
        return merge_snapshots([self.book.snapshot()])


_REPORTER: _Reporter | None = None
_REPORTER_LOCK = threading.Lock()


def _reporter(window: int) -> _Reporter:
    global _REPORTER
    with _REPORTER_LOCK:
        if _REPORTER is None:
            _REPORTER = _Reporter(window)
        return _REPORTER


@functools.cache
def _stats_hub_class():
    import ray

    @ray.remote(num_cpus=0)
    class StatsHub:
        """The latest snapshot of every replica that has reported."""

        def __init__(self) -> None:
            self.latest: dict[str, dict[str, Any]] = {}

        def put(self, replica: str, snapshot: dict[str, Any]) -> None:
            self.latest[replica] = snapshot

        def snapshots(self) -> list[dict[str, Any]]:
            return list(self.latest.values())

    return StatsHub


class _BodyRefused(Exception):
    """The body read stopped: over the size limit, or not arrived within the body timeout."""


def _guard_middleware(config: ServeConfig, digest: bytes | None):
    """A plain ASGI middleware: the key (HTTP 401); the body size (HTTP 413 as JSON, the declared
    length checked first and the body counted as it streams, so one sent without a length is not
    read past the limit); the body's arrival (HTTP 408 and the connection closed when the whole
    body is not in ``body_timeout_s`` after the request began); each request's status and latency
    into the replica's stats."""
    limit = config.max_body_bytes
    too_big = f"the request body is larger than {limit} bytes"
    too_slow = f"the request body did not arrive within {config.body_timeout_s} s"

    class Guard:
        def __init__(self, app) -> None:
            self.app = app

        async def __call__(self, scope, receive, send):
            if scope["type"] != "http":
                return await self.app(scope, receive, send)
            t0 = time.perf_counter()
            root = scope.get("root_path", "")
            if root and scope.get("path") == root:
                # the application's own address (a route prefix without its slash) is its root route,
                # not a redirect that clients posting JSON would not follow
                scope = {**scope, "path": root + "/", "raw_path": (root + "/").encode()}
            reporter = _reporter(config.stats_window)
            status = [500]
            refused: list[tuple[int, str] | None] = [None]  # why the body read stopped (413, 408)
            replied = [False]  # our own reply went out; the app's is dropped

            async def reply(code: int, error: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
                replied[0], status[0] = True, code
                body = json.dumps({"error": error}).encode()
                head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                await send({"type": "http.response.start", "status": code, "headers": head + (headers or [])})
                await send({"type": "http.response.body", "body": body})

            async def refuse() -> None:
                code, error = refused[0] or (500, "")
                # a 408 leaves the rest of the body unread: the connection cannot carry another request
                await reply(code, error, [(b"connection", b"close")] if code == 408 else None)

            async def guarded_send(message):
                if replied[0]:
                    return
                if refused[0] is not None:  # the framework answers a failed body read with a 400: ours goes instead
                    await refuse()
                    return
                if message["type"] == "http.response.start":
                    status[0] = message["status"]
                await send(message)

            seen = [0]
            deadline = time.monotonic() + config.body_timeout_s
            body_done = [False]

            async def counted_receive():
                if body_done[0]:  # after the body only a disconnect comes, whenever it does
                    return await receive()
                try:
                    message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    refused[0] = (408, too_slow)
                    raise _BodyRefused from None
                if message["type"] == "http.request":
                    seen[0] += len(message.get("body", b""))
                    if seen[0] > limit:
                        refused[0] = (413, too_big)
                        raise _BodyRefused
                    body_done[0] = not message.get("more_body", False)
                else:
                    body_done[0] = True
                return message

            try:
                headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
                if not scope.get("path", "").endswith(_OPEN_PATHS) and not _authorised(headers, digest):
                    await reply(
                        401,
                        "an API key is required (Authorization: Bearer KEY, or X-API-Key: KEY)",
                        [(b"www-authenticate", b"Bearer")],
                    )
                    return
                declared = headers.get("content-length", "")
                if declared.isdigit() and int(declared) > limit:
                    await reply(413, too_big)
                    return
                try:
                    await self.app(scope, counted_receive, guarded_send)
                except Exception:
                    if refused[0] is None:
                        raise
                    if not replied[0]:
                        await refuse()
            finally:
                reporter.book.request(status[0], time.perf_counter() - t0)
                reporter.maybe_send()

    return Guard


def _deployment(config: ServeConfig, digest: bytes | None):
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import HTMLResponse, JSONResponse
    from ray import serve
    from starlette.exceptions import HTTPException as StarletteHTTPException

    api = FastAPI(
        title="DualGraph",
        summary="Questions over a catalog's spec tables and text, answered from two graphs.",
        version="1",
        docs_url=None,  # the interactive pages load scripts from a CDN; the document itself is served
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    api.add_middleware(_guard_middleware(config, digest))

    @api.exception_handler(RequestValidationError)
    async def _bad_request(request, exc: RequestValidationError):
        where = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg')}"
            for e in exc.errors()[:5]
        )
        kind = request.headers.get("content-type", "")
        if request.method == "POST" and "json" not in kind:
            where = f"send the body as JSON with Content-Type: application/json (got {kind or 'no Content-Type'})"
        return JSONResponse({"error": f"bad request: {where}"}, status_code=400)

    @api.exception_handler(StarletteHTTPException)
    async def _http_error(request, exc: StarletteHTTPException):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    bad: dict[int | str, dict[str, Any]] = {
        400: {"model": ErrorReply},
        401: {"model": ErrorReply},
        408: {"model": ErrorReply},
        413: {"model": ErrorReply},
        503: {"model": ErrorReply},
    }

    @serve.deployment(**config.deployment_options())
    @serve.ingress(api)
    class QAService:
        def __init__(self, spec: EngineSpec) -> None:
            sys.setswitchinterval(config.gil_switch_interval_s)  # a replica is a process of its own
            self.spec = spec
            self.markets = index_markets(Path(spec.index_dir))
            self.engines: OrderedDict[tuple[str | None, str], QAEngine | IsolatedEngine] = OrderedDict()
            self.engines[self._key(None, None)] = open_engine(spec)
            self.queries: Any = None  # the store in a budgeted worker, for POST /sparql (opened on first use)
            self.sparql_local: bool | None = None  # whether /sparql queries run in that worker (decided once)
            self.started = time.monotonic()
            self.reporter = _reporter(config.stats_window)
            self.reporter.connect()
            # the engine works in its own thread, one batch at a time: the event loop stays free to
            # answer a request whose deadline passed while a long batch runs
            self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dualgraph-engine")
            self.sparql_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dualgraph-sparql")
            self.sparql_busy = asyncio.Semaphore(1)
            self.engine_load = 0  # questions admitted to the engine and not yet answered (one event loop: no lock)

        def __del__(self) -> None:
            # Serve's graceful shutdown of a replica: its workers go with it (they would also end by
            # themselves within a second of the replica's process)
            for part in [*getattr(self, "engines", {}).values(), getattr(self, "queries", None)]:
                try:
                    if part is not None:
                        part.close()
                except Exception:
                    pass

        # -- engines ------------------------------------------------------------------------------

        def _key(self, market: str | None, names: str | None) -> tuple[str | None, str]:
            return (market or self.spec.config.market, names or self.spec.config.names)

        def _engine(self, key: tuple[str | None, str]) -> QAEngine | IsolatedEngine:
            """The engine for (market, names), opened on first use; past max_engines the least recently
            used one is closed (never the service's default one)."""
            engine = self.engines.get(key)
            if engine is None:
                cfg = self.spec.config.model_copy(update={"market": key[0], "names": key[1]})
                engine = open_engine(EngineSpec(index_dir=self.spec.index_dir, config=cfg))
                self.engines[key] = engine
                default = self._key(None, None)
                while len(self.engines) > config.max_engines:
                    old = next(k for k in self.engines if k != default)
                    self.engines.pop(old).close()
            self.engines.move_to_end(key)
            return engine

        def _answer_now(self, items: list[Item]) -> list[dict[str, Any]]:
            out: dict[int, dict[str, Any]] = {}
            groups: dict[tuple[str, tuple[str | None, str]], list[int]] = {}
            for i, (_, _, strategy, key, _) in enumerate(items):
                groups.setdefault((strategy, key), []).append(i)
            for (strategy, key), idx in groups.items():
                batch = [(items[i][0], items[i][1]) for i in idx]
                try:
                    engine = self._engine(key)
                except Exception as e:  # an engine that cannot open answers its questions with errors
                    records = [error_record(q, text, strategy, f"cannot open the engine: {e}") for q, text in batch]
                else:
                    # bulk answering's batch call: a question that breaks the batch gets its own error record;
                    # a budgeted engine also stops the work nobody waits for any more
                    gone = [items[i][4] for i in idx] if isinstance(engine, IsolatedEngine) else None
                    records = answer_items(engine, batch, strategy=strategy, gone=gone)
                self.reporter.book.batch(len(batch))
                self.reporter.book.answered(len(batch), sum(r.error is not None for r in records))
                for i, r in zip(idx, records):
                    out[i] = r.model_dump(mode="json")
                    out[i]["batch_size"] = len(batch)  # how many questions shared the engine call
            return [out[i] for i in range(len(items))]

        @serve.batch(max_batch_size=config.max_batch_size, batch_wait_timeout_s=config.batch_wait_s)
        async def answer(self, items: list[Item]) -> list[dict[str, Any]]:
            return await asyncio.get_running_loop().run_in_executor(self.pool, self._answer_now, items)

        def _check(self, ask: AskRequest) -> tuple[str, tuple[str | None, str]]:
            """The strategy and engine key, or ValueError saying what is wrong."""
            strategy = ask.strategy or self.spec.config.strategy
            if strategy not in STRATEGIES:
                raise ValueError(f"unknown strategy {strategy!r}; one of {list(STRATEGIES)}")
            if ask.market is not None and ask.market.lower() not in self.markets:
                raise ValueError(f"unknown market {ask.market!r}; this index holds {self.markets}")
            return strategy, self._key(ask.market.lower() if ask.market else None, ask.names)

        def _admit(self, n: int) -> JSONResponse | None:
            """Take ``n`` questions into the engine, or the HTTP 503 that says it is full: a bounded
            queue answers at once, where an unbounded one would answer after the client gave up."""
            bound = config.engine_questions()
            if self.engine_load and self.engine_load + n > bound:
                return JSONResponse(
                    {"error": f"busy: the engine holds {self.engine_load} questions (at most {bound}); try again"},
                    status_code=503,
                    headers={"Retry-After": str(math.ceil(config.retry_after_s))},
                )
            self.engine_load += n
            return None

        async def _one(self, ask: AskRequest, strategy: str, key) -> tuple[int, dict[str, Any]]:
            """One admitted question's record (see :meth:`_admit`)."""
            qid = safe_text(ask.id)[0]
            gone = threading.Event()  # set when this request has had its 504: its work is not wanted
            try:
                record = await asyncio.wait_for(
                    self.answer((qid, ask.question, strategy, key, gone)), config.request_timeout_s
                )
            except TimeoutError:
                gone.set()
                late = error_record(
                    qid, ask.question, strategy, f"timeout: no answer within {config.request_timeout_s} s"
                )
                return 504, {**late.model_dump(mode="json"), "batch_size": 0}
            finally:
                self.engine_load -= 1
            return 200, record

        # -- routes -----------------------------------------------------------------------------------

        @api.post("/ask", response_model=AskReply, responses={**bad, 504: {"model": AskReply}})
        async def ask(self, body: AskRequest):
            """Answer one question."""
            try:
                strategy, key = self._check(body)
            except ValueError as e:
                return JSONResponse({"error": str(e)}, status_code=400)
            busy = self._admit(1)
            if busy is not None:
                return busy
            status, record = await self._one(body, strategy, key)
            return JSONResponse(record, status_code=status)

        @api.post("/", include_in_schema=False)
        async def ask_root(self, body: AskRequest):
            return await self.ask(body)

        @api.post("/ask_batch", response_model=AskBatchReply, responses={**bad, 504: {"model": AskBatchReply}})
        async def ask_batch(self, body: AskBatchRequest):
            """Answer several questions; they join the batches of everything else in flight."""
            if len(body.questions) > config.max_batch_questions:
                return JSONResponse(
                    {"error": f"{len(body.questions)} questions; at most {config.max_batch_questions} per request"},
                    status_code=413,
                )
            try:
                checked = [self._check(q) for q in body.questions]
            except ValueError as e:
                return JSONResponse({"error": str(e)}, status_code=400)
            busy = self._admit(len(checked))
            if busy is not None:
                return busy
            replies = await asyncio.gather(*(self._one(q, s, k) for q, (s, k) in zip(body.questions, checked)))
            status = 504 if any(s == 504 for s, _ in replies) else 200
            return JSONResponse({"answers": [r for _, r in replies]}, status_code=status)

        @api.get("/", response_class=HTMLResponse, include_in_schema=False)
        async def page(self, request: Request):
            q = request.query_params
            question = q.get("question", "")
            strategy, market = q.get("strategy") or self.spec.config.strategy, q.get("market") or None
            record, error, status = None, None, 200
            if question.strip():
                try:
                    ask = AskRequest(question=question, strategy=strategy, market=market)
                    s, key = self._check(ask)
                except ValueError as e:
                    error, status = str(e), 400
                else:
                    busy = self._admit(1)
                    if busy is not None:
                        error, status = "busy: too many questions are waiting; try again shortly", 503
                    else:
                        status, record = await self._one(ask, s, key)
            html = render_page(
                title=f"DualGraph: {Path(self.spec.index_dir).name}",
                strategies=list(STRATEGIES),
                markets=self.markets,
                question=question,
                strategy=strategy,
                market=market,
                record=record,
                error=error,
            )
            return HTMLResponse(html, status_code=status)

        @api.get("/info", response_model=Info)
        async def info(self) -> Info:
            """The index served and what a request may choose."""
            return Info(
                index=str(self.spec.index_dir),
                strategy=self.spec.config.strategy,
                strategies=list(STRATEGIES),
                markets=self.markets,
                sparql_endpoint=config.sparql_endpoint,
            )

        @api.get("/health", response_model=Health)
        async def health(self) -> Health:
            """Liveness: the replica is up and its engine open (no key needed). Answered on the event
            loop, never behind the engine's queue; slow clients hold at most their body timeout."""
            return Health(uptime_s=round(time.monotonic() - self.started, 3))

        @api.get("/stats", response_model=Stats)
        async def stats(self) -> Stats:
            """Requests, errors, latency percentiles and batch sizes, over all replicas."""
            return await asyncio.get_running_loop().run_in_executor(None, self.reporter.merged)

        def _query_store(self) -> Any:
            """What runs /sparql queries, made on first use: the store in a budgeted worker, or (no
            isolation, or a SPARQL server) a store in this process: the default engine's own if it
            holds one, else one opened here."""
            if self.queries is None:
                from dualgraph.budget.hosts import StoreOpener
                from dualgraph.budget.worker import BudgetedWorker

                cfg, budget = self.spec.config, self.spec.config.budget
                opener = StoreOpener(
                    Path(self.spec.index_dir),
                    store_url=cfg.store_url,
                    allow_insecure_auth=cfg.allow_insecure_auth,
                    market=cfg.market,
                )
                if self._query_worker_wanted():
                    worker = BudgetedWorker(
                        opener,
                        name="store",
                        respawn="lazy",  # a store opens in a second; nothing runs after a 504 meanwhile
                        open_timeout_s=budget.open_timeout_s,
                        check_every_s=budget.check_every_s,
                    )
                    worker.wait_ready()
                    self.queries = worker
                else:
                    own = self.engines[self._key(None, None)].store
                    self.queries = own if own is not None else opener().store
            return self.queries

        def _query_worker_wanted(self) -> bool:
            """Queries run in a budgeted worker when isolation is on and the store is the embedded
            one (a SPARQL server runs them itself, under its limits and the client's timeout)."""
            from dualgraph.budget.hosts import runs_here

            if self.sparql_local is None:
                self.sparql_local = self.spec.config.budget.isolate and runs_here(self.spec.index_dir)
            return self.sparql_local

        def _run_query(self, form: str, query: str) -> Any:
            """A checked SELECT (a QueryResult) or ASK (a bool), in the query worker under
            sparql_timeout_s and the memory budget, or in this process without isolation."""
            from dualgraph.budget import DeadlineExceeded
            from dualgraph.query.sparql.safety import run_select

            store = self._query_store()
            timeout = config.sparql_timeout_s
            if not self._query_worker_wanted():
                if form == "ASK":
                    return store.ask(query, timeout_s=timeout)
                return run_select(store, query, row_cap=config.sparql_max_rows, timeout_s=timeout)
            limits = {
                "deadline_s": timeout + QUERY_GRACE_S,
                "memory_mb": self.spec.config.budget.memory_mb,
                "what": "the query",
            }
            try:
                if form == "ASK":
                    return store.call("ask", query, timeout, **limits)
                return store.call("select_capped", query, config.sparql_max_rows, timeout, **limits)
            except DeadlineExceeded:
                raise DeadlineExceeded("the query", timeout) from None

        if config.sparql_endpoint:

            @api.post(
                "/sparql",
                response_model=SparqlReply,
                responses={**bad, 429: {"model": ErrorReply}, 504: {"model": ErrorReply}, 507: {"model": ErrorReply}},
            )
            async def sparql(self, body: SparqlRequest):
                """Run a read-only SELECT or ASK over the index's store, capped in length, rows, time and
                memory. Read-only is decided on the parsed query, as for `dualgraph sparql`: updates, SERVICE
                calls and engine pragmas are refused however they are spelled. A query past its time gets
                HTTP 504, past its memory budget HTTP 507; either way it has stopped."""
                from dualgraph.budget import MemoryExceeded, WorkerDied
                from dualgraph.query.sparql.safety import check_query
                from dualgraph.stores.base import QueryTimeout, StoreError
                from dualgraph.stores.guard import QueryRefused

                if len(body.query) > config.sparql_max_chars:
                    return JSONResponse(
                        {"error": f"the query is {len(body.query)} characters; at most {config.sparql_max_chars}"},
                        status_code=413,
                    )
                if self.sparql_busy.locked():
                    return JSONResponse({"error": "a query is running; try again shortly"}, status_code=429)
                loop = asyncio.get_running_loop()
                async with self.sparql_busy:
                    try:
                        form = check_query(body.query)
                        if form not in ("ASK", "SELECT"):
                            raise QueryRefused(f"{form} refused: this endpoint runs SELECT and ASK queries only")
                        res = await loop.run_in_executor(self.sparql_pool, self._run_query, form, body.query)
                        if form == "ASK":
                            return SparqlReply(boolean=res)
                    except QueryTimeout as e:
                        return JSONResponse({"error": str(e)}, status_code=504)
                    except MemoryExceeded as e:
                        return JSONResponse({"error": str(e)}, status_code=507)
                    except WorkerDied as e:
                        return JSONResponse({"error": f"the query failed: {e}"}, status_code=500)
                    except QueryRefused as e:
                        return JSONResponse({"error": str(e)}, status_code=400)
                    except StoreError as e:
                        return JSONResponse({"error": f"the query failed: {e}"}, status_code=400)
                return SparqlReply(head={"vars": res.vars}, results={"bindings": res.rows}, truncated=res.truncated)

    return QAService


def build_app(spec: EngineSpec, config: ServeConfig | None = None):
    """The bound Ray Serve application (pass it to ``serve.run``)."""
    config = config or ServeConfig()
    return _deployment(config, config.key_digest()).bind(spec)


def run(spec: EngineSpec, config: ServeConfig | None = None, *, blocking: bool = True, name: str = "dualgraph"):
    """Start Ray (locally unless connected), the HTTP proxy and the application; with ``blocking``
    serve until interrupted, then shut the application down."""
    from ray import serve

    from dualgraph.pipeline.ray_logging import init_ray
    from dualgraph.pipeline.ray_session import ray_session

    config = config or ServeConfig()
    if not blocking:
        init_ray()  # quiet unless DUALGRAPH_RAY_LOGS=1
        serve.start(http_options=config.http_options())
        return serve.run(build_app(spec, config), name=name, route_prefix=config.route_prefix)
    # SIGTERM or Ctrl-C unwinds the loop; leaving the session shuts Serve and Ray down
    with ray_session():
        init_ray()
        serve.start(http_options=config.http_options())
        handle = serve.run(build_app(spec, config), name=name, route_prefix=config.route_prefix)
        while True:
            time.sleep(3600)
    return handle  # pragma: no cover - the loop ends only by an exception


def app_builder(args: dict[str, Any]):
    """The application builder Serve config files name (``serve run CONFIG``, a KubeRay
    RayService's ``serveConfigV2``): ``import_path: dualgraph.serve.app:app_builder``.

    ``args`` holds ``index`` (the index folder, required), ``ask`` (:class:`~dualgraph.answer.engine.AskConfig`
    fields, e.g. ``strategy``) and ``serve`` (:class:`ServeConfig` fields; host and port come from
    the config file's ``http_options``). An unknown key is an error: a misspelt setting must not
    pass unnoticed. As ``dualgraph serve`` does, an embedded store of up to ``IN_MEMORY_QUADS``
    quads is copied into memory, and a batch runs on 2 threads, unless ``ask`` says otherwise.
    """
    from dualgraph.answer.engine import AskConfig, EngineSpec

    unknown = set(args) - {"index", "ask", "serve"}
    if unknown or not args.get("index"):
        raise ValueError(
            f"app_builder takes 'index' (required), 'ask' and 'serve'; got unknown keys {sorted(unknown)}"
            if unknown
            else "app_builder needs 'index': the index folder to serve"
        )
    serve_args = dict(args.get("serve") or {})
    stray = set(serve_args) - set(ServeConfig.model_fields)
    if stray:
        raise ValueError(f"app_builder: unknown 'serve' fields {sorted(stray)}")
    ask = AskConfig(**(args.get("ask") or {}))
    # the serving defaults (store in memory, 2 threads a batch) fill what `ask` leaves unset
    spec = EngineSpec.serving(Path(args["index"]).resolve(), ask)
    return build_app(spec, ServeConfig(**serve_args))
