"""A Ray Serve application answering questions over one index, with request batching.

Each replica opens its own :class:`~dualgraph.answer.engine.QAEngine` once. Concurrent
requests are gathered by ``serve.batch`` into one engine call (the strategies, the embedder
and the store all work on batches), grouped by strategy. ``POST /`` takes
``{"question": "...", "strategy": "skg+tkg_fb", "id": "q7"}`` (only ``question`` is required)
and returns the answer record as JSON; a bad request gets HTTP 400 naming what is wrong, a
question that makes the engine raise gets an error record (HTTP 200, ``error`` set), like bulk
answering. ``GET /`` reports the index and the default strategy.

    dualgraph serve --index INDEX_DIR --port 8000 [--replicas 2]
    curl -s localhost:8000 -d '{"question": "Which phones under 20k have 5G?"}'
"""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, Field

from dualgraph.answer.engine import EngineSpec
from dualgraph.answer.strategies import STRATEGIES
from dualgraph.pipeline.bulk_answer import answer_items

__all__ = ["ServeConfig", "build_app", "run"]


class ServeConfig(BaseModel):
    """How the service runs."""

    host: str = Field("127.0.0.1", description="Address the HTTP proxy listens on (0.0.0.0 to expose it).")
    port: int = Field(8000, ge=1, le=65535, description="HTTP port.")
    replicas: int = Field(1, ge=1, description="Engine replicas (each loads the embedder and opens the store).")
    num_cpus: float = Field(1.0, gt=0, description="CPUs Ray reserves per replica.")
    max_batch_size: int = Field(16, ge=1, description="Most questions answered in one engine call.")
    batch_wait_s: float = Field(0.02, ge=0, description="How long a replica waits to fill a batch.")
    route_prefix: str = Field("/", description="URL path the application answers under.")


def _deployment(config: ServeConfig):
    from ray import serve
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    @serve.deployment(num_replicas=config.replicas, ray_actor_options={"num_cpus": config.num_cpus})
    class QAService:
        def __init__(self, spec: EngineSpec) -> None:
            self.spec = spec
            self.engine = spec()

        @serve.batch(max_batch_size=config.max_batch_size, batch_wait_timeout_s=config.batch_wait_s)
        async def answer(self, items: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
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

        async def __call__(self, request: Request):
            if request.method == "GET":
                return JSONResponse(
                    {
                        "index": str(self.spec.index_dir),
                        "strategy": self.spec.config.strategy,
                        "strategies": list(STRATEGIES),
                    }
                )
            try:
                body = await request.json()
            except ValueError as e:
                return JSONResponse({"error": f"the request body is not JSON: {e}"}, status_code=400)
            if not isinstance(body, dict) or not isinstance(body.get("question"), str) or not body["question"].strip():
                return JSONResponse({"error": "send a JSON object with a non-empty string 'question'"}, status_code=400)
            strategy = body.get("strategy") or self.spec.config.strategy
            if strategy not in STRATEGIES:
                return JSONResponse(
                    {"error": f"unknown strategy {strategy!r}; one of {list(STRATEGIES)}"}, status_code=400
                )
            return JSONResponse(await self.answer((str(body.get("id", "0")), body["question"], strategy)))

    return QAService


def build_app(spec: EngineSpec, config: ServeConfig | None = None):
    """The bound Ray Serve application (pass it to ``serve.run``)."""
    config = config or ServeConfig()
    return _deployment(config).bind(spec)


def run(spec: EngineSpec, config: ServeConfig | None = None, *, blocking: bool = True, name: str = "dualgraph"):
    """Start Ray (locally unless connected), the HTTP proxy and the application; with ``blocking``
    serve until interrupted, then shut the application down."""
    from ray import serve

    from dualgraph.pipeline.ray_logging import init_ray

    config = config or ServeConfig()
    init_ray()  # quiet unless DUALGRAPH_RAY_LOGS=1
    serve.start(http_options={"host": config.host, "port": config.port})
    handle = serve.run(build_app(spec, config), name=name, route_prefix=config.route_prefix)
    if not blocking:
        return handle
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        serve.delete(name)
    return handle
