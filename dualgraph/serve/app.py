"""A Ray Serve application answering questions over one index, with request batching.

Each replica opens its own :class:`~dualgraph.answer.engine.QAEngine` once. Concurrent
requests are gathered by ``serve.batch`` into one engine call (the strategies, the embedder
and the store all work on batches), grouped by strategy. ``POST /`` takes
``{"question": "...", "strategy": "skg+tkg_fb", "id": "q7"}`` (only ``question`` is required)
and returns the answer record as JSON; a bad request gets HTTP 400 naming what is wrong, a
question that makes the engine raise gets an error record (HTTP 200, ``error`` set), like bulk
answering. ``GET /`` reports the index and the default strategy.

Hostile or careless clients are bounded: a body over ``max_body_bytes`` gets HTTP 413, a
request not answered within ``request_timeout_s`` gets HTTP 504 with an error record, and when
the environment variable named by ``api_key_env`` holds a key, every request must carry it
(``Authorization: Bearer KEY`` or ``X-API-Key: KEY``) or gets HTTP 401. The key stays in the
process that starts the service: replicas receive only its SHA-256 digest and compare digests in
constant time; the key is never logged nor returned.

    dualgraph serve --index INDEX_DIR --port 8000 [--replicas 2]
    curl -s localhost:8000 -d '{"question": "Which phones under 20k have 5G?"}'
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pydantic import BaseModel, Field

from dualgraph.answer.engine import EngineSpec
from dualgraph.answer.question_text import safe_text
from dualgraph.answer.record import error_record
from dualgraph.answer.strategies import STRATEGIES
from dualgraph.pipeline.bulk_answer import answer_items

__all__ = ["API_KEY_ENV", "ServeConfig", "app_builder", "build_app", "run"]

API_KEY_ENV = "DUALGRAPH_API_KEY"
"""The environment variable the API key is read from unless another is named."""


class _TooLarge(Exception):
    pass


async def _read_body(request, limit: int) -> bytes:
    """The body, or :class:`_TooLarge` as soon as it passes ``limit`` bytes (a declared length
    is checked first, and a body sent without one is not read past the limit)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _TooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _TooLarge
    return bytes(body)


def _authorised(headers: Mapping[str, str], digest: bytes | None) -> bool:
    if digest is None:
        return True
    auth = headers.get("authorization", "")
    given = auth[7:] if auth[:7].lower() == "bearer " else headers.get("x-api-key", "")
    # digests of equal length, compared in constant time: neither the key nor its length leaks
    return hmac.compare_digest(hashlib.sha256(given.encode("utf-8")).digest(), digest)


class ServeConfig(BaseModel):
    """How the service runs."""

    host: str = Field("127.0.0.1", description="Address the HTTP proxy listens on (0.0.0.0 to expose it).")
    port: int = Field(8000, ge=1, le=65535, description="HTTP port.")
    replicas: int = Field(1, ge=1, description="Engine replicas (each loads the embedder and opens the store).")
    num_cpus: float = Field(1.0, gt=0, description="CPUs Ray reserves per replica.")
    max_batch_size: int = Field(16, ge=1, description="Most questions answered in one engine call.")
    batch_wait_s: float = Field(0.02, ge=0, description="How long a replica waits to fill a batch.")
    max_ongoing_requests: int | None = Field(
        None,
        ge=1,
        description="Requests a replica holds at once (Ray Serve's max_ongoing_requests); None: twice "
        "max_batch_size. Below max_batch_size no batch can fill (Serve's default of 5 capped batches at 5).",
    )

    def ongoing(self) -> int:
        return self.max_ongoing_requests or 2 * self.max_batch_size

    route_prefix: str = Field("/", description="URL path the application answers under.")
    max_body_bytes: int = Field(
        64 * 1024, ge=256, description="Largest request body read, in bytes; a larger one gets HTTP 413."
    )
    request_timeout_s: float = Field(
        120.0,
        gt=0,
        description="Seconds a request may take; after that it gets HTTP 504 with an error record "
        "(the engine finishes the batch in the background).",
    )
    api_key_env: str | None = Field(
        API_KEY_ENV,
        description="Environment variable holding the API key; when it is set and not empty, every request "
        "must carry the key (Authorization: Bearer KEY, or X-API-Key: KEY). None: no key is asked for.",
    )

    def key_digest(self, environ: Mapping[str, str] | None = None) -> bytes | None:
        """SHA-256 of the API key (None: no key set), read from ``environ`` (default: this process)."""
        key = (os.environ if environ is None else environ).get(self.api_key_env or "", "")
        return hashlib.sha256(key.encode("utf-8")).digest() if key else None


def _deployment(config: ServeConfig):
    from ray import serve
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    @serve.deployment(
        num_replicas=config.replicas,
        ray_actor_options={"num_cpus": config.num_cpus},
        max_ongoing_requests=config.ongoing(),
    )
    class QAService:
        def __init__(self, spec: EngineSpec, key_digest: bytes | None = None) -> None:
            self.spec = spec
            self.engine = spec()
            self.key_digest = key_digest
            # the engine works in its own thread, one batch at a time: the event loop stays free to
            # answer a request whose deadline passed while a long batch runs
            self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dualgraph-engine")

        def _answer_now(self, items: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
            out: dict[int, dict[str, Any]] = {}
            by_strategy: dict[str, list[int]] = {}
            for i, (_, _, strategy) in enumerate(items):
                by_strategy.setdefault(strategy, []).append(i)
            for strategy, idx in by_strategy.items():
                batch = [(items[i][0], items[i][1]) for i in idx]
                # bulk answering's batch call: a question that breaks the batch gets its own error record
                records = answer_items(self.engine, batch, strategy=strategy)
                for i, r in zip(idx, records):
                    out[i] = r.model_dump(mode="json")
                    out[i]["batch_size"] = len(batch)  # how many questions shared the engine call
            return [out[i] for i in range(len(items))]

        @serve.batch(max_batch_size=config.max_batch_size, batch_wait_timeout_s=config.batch_wait_s)
        async def answer(self, items: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
            return await asyncio.get_running_loop().run_in_executor(self.pool, self._answer_now, items)

        async def __call__(self, request: Request):
            if not _authorised(request.headers, self.key_digest):
                return JSONResponse(
                    {"error": "an API key is required (Authorization: Bearer KEY, or X-API-Key: KEY)"},
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
            if request.method == "GET":
                return JSONResponse(
                    {
                        "index": str(self.spec.index_dir),
                        "strategy": self.spec.config.strategy,
                        "strategies": list(STRATEGIES),
                    }
                )
            try:
                raw = await _read_body(request, config.max_body_bytes)
            except _TooLarge:
                return JSONResponse(
                    {"error": f"the request body is larger than {config.max_body_bytes} bytes"}, status_code=413
                )
            try:
                body = json.loads(raw)
            except (ValueError, UnicodeDecodeError) as e:
                return JSONResponse({"error": f"the request body is not JSON: {e}"}, status_code=400)
            if not isinstance(body, dict) or not isinstance(body.get("question"), str):
                return JSONResponse({"error": "send a JSON object with a string 'question'"}, status_code=400)
            strategy = body.get("strategy") or self.spec.config.strategy
            if strategy not in STRATEGIES:
                return JSONResponse(
                    {"error": f"unknown strategy {strategy!r}; one of {list(STRATEGIES)}"}, status_code=400
                )
            qid, question = safe_text(str(body.get("id", "0")))[0], body["question"]
            try:
                record = await asyncio.wait_for(self.answer((qid, question, strategy)), config.request_timeout_s)
            except TimeoutError:
                late = error_record(qid, question, strategy, f"timeout: no answer within {config.request_timeout_s} s")
                return JSONResponse(late.model_dump(mode="json"), status_code=504)
            return JSONResponse(record)

    return QAService


def build_app(spec: EngineSpec, config: ServeConfig | None = None):
    """The bound Ray Serve application (pass it to ``serve.run``)."""
    config = config or ServeConfig()
    return _deployment(config).bind(spec, config.key_digest())


def run(spec: EngineSpec, config: ServeConfig | None = None, *, blocking: bool = True, name: str = "dualgraph"):
    """Start Ray (locally unless connected), the HTTP proxy and the application; with ``blocking``
    serve until interrupted, then shut the application down."""
    from ray import serve

    from dualgraph.pipeline.ray_logging import init_ray
    from dualgraph.pipeline.ray_session import ray_session

    config = config or ServeConfig()
    if not blocking:
        init_ray()  # quiet unless DUALGRAPH_RAY_LOGS=1
        serve.start(http_options={"host": config.host, "port": config.port})
        return serve.run(build_app(spec, config), name=name, route_prefix=config.route_prefix)
    # SIGTERM or Ctrl-C unwinds the loop; leaving the session shuts Serve and Ray down
    with ray_session():
        init_ray()
        serve.start(http_options={"host": config.host, "port": config.port})
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
    quads is copied into memory unless ``ask`` says otherwise.
    """
    from pathlib import Path

    from dualgraph.answer.engine import IN_MEMORY_QUADS, AskConfig

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
    ask = AskConfig(**{"in_memory_quads": IN_MEMORY_QUADS, **(args.get("ask") or {})})
    spec = EngineSpec(index_dir=Path(args["index"]).resolve(), config=ask)
    return build_app(spec, ServeConfig(**serve_args))
