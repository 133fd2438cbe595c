"""How the service runs: :class:`ServeConfig` (no Ray import, so the CLI's ``--help`` stays fast)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["API_KEY_ENV", "ServeConfig"]

API_KEY_ENV = "DUALGRAPH_API_KEY"
"""The environment variable the API key is read from unless another is named."""


class ServeConfig(BaseModel):
    """How the service runs: where it listens, how it batches and scales, what it refuses."""

    model_config = ConfigDict(extra="forbid")

    host: str = Field("127.0.0.1", description="Address the HTTP proxy listens on (0.0.0.0 to expose it).")
    port: int = Field(8000, ge=1, le=65535, description="HTTP port.")
    route_prefix: str = Field("/", description="URL path the application answers under.")

    # -- replicas and batching ------------------------------------------------------------------
    replicas: int = Field(
        1,
        ge=1,
        description="Engine replicas (each loads the embedder and opens the store); the start count when autoscaling.",
    )
    max_replicas: int | None = Field(
        None,
        ge=1,
        description="Autoscale between min_replicas and this many replicas on the requests each holds "
        "(Ray Serve's autoscaler); None: a fixed number of replicas.",
    )
    min_replicas: int = Field(1, ge=0, description="Fewest replicas when autoscaling (0 lets an idle service sleep).")
    target_ongoing_requests: float | None = Field(
        None,
        gt=0,
        description="Autoscaling aims at this many requests per replica; None: max_batch_size (a replica "
        "working on full batches is busy enough, one with less is not).",
    )
    num_cpus: float = Field(1.0, gt=0, description="CPUs Ray reserves per replica.")
    max_batch_size: int = Field(16, ge=1, description="Most questions answered in one engine call.")
    batch_wait_s: float = Field(0.02, ge=0, description="How long a replica waits to fill a batch.")
    max_ongoing_requests: int | None = Field(
        None,
        ge=1,
        description="HTTP requests a replica holds at once, reading bodies, waiting or answering (Ray Serve's "
        "max_ongoing_requests); None: 256, or 2 x max_batch_size if more. A request held costs a coroutine; "
        "the engine's own bound is max_engine_questions, so slots to spare keep GET /health and /info "
        "answering while slow clients or a full engine hold others. Below max_batch_size no batch can fill.",
    )
    max_queued_requests: int = Field(
        64,
        ge=1,
        description="Requests waiting at each proxy for a replica slot when every replica holds "
        "max_ongoing_requests (Ray Serve's max_queued_requests); more get HTTP 503 with Retry-After.",
    )
    max_engine_questions: int | None = Field(
        None,
        ge=1,
        description="Questions a replica's engine holds, queued or being answered; a request that would "
        "pass it gets HTTP 503 with Retry-After (one bigger than the bound alone is taken when the engine "
        "is idle). None: 4 x max_batch_size.",
    )
    retry_after_s: float = Field(
        2.0, ge=0, description="Seconds a 503 asks the client to wait (Retry-After, rounded up)."
    )
    max_engines: int = Field(
        4,
        ge=1,
        description="Engines a replica keeps open, one per (market, names) asked for; the least recently "
        "used is closed past this many (each holds its own store and caches).",
    )

    # -- limits -----------------------------------------------------------------------------------
    max_body_bytes: int = Field(
        64 * 1024, ge=256, description="Largest request body read, in bytes; a larger one gets HTTP 413."
    )
    max_batch_questions: int = Field(256, ge=1, description="Most questions in one POST /ask_batch; more get HTTP 413.")
    request_timeout_s: float = Field(
        120.0,
        gt=0,
        description="Seconds a request may take; after that it gets HTTP 504 with an error record, and the "
        "work for its question ends: not started if it was not, stopped if it runs (an engine call whose "
        "requests have all had their 504 at once; one that others still wait for within 0.25 s, the others "
        "then answered by a smaller call under a budget of its own). The question's own work runs under "
        "AskConfig.budget (--deadline, --memory-mb).",
    )
    body_timeout_s: float = Field(
        10.0,
        gt=0,
        description="Seconds from a request's start until its whole body has arrived; a client still "
        "sending after that gets HTTP 408 and its connection is closed (a body sent a byte at a time "
        "would otherwise hold a replica slot for as long as it likes).",
    )
    keep_alive_timeout_s: int = Field(
        15,
        ge=1,
        description="Seconds the HTTP proxy keeps an idle connection open between requests (Ray Serve's "
        "http_options.keep_alive_timeout_s; its default is 90). Set at proxy start: `dualgraph serve` "
        "does; a Serve config file sets it in http_options.",
    )
    api_key_env: str | None = Field(
        API_KEY_ENV,
        description="Environment variable holding the API key; when it is set and not empty, every request "
        "must carry the key (Authorization: Bearer KEY, or X-API-Key: KEY). None: no key is asked for.",
    )

    # -- the SPARQL endpoint (off unless asked for) -------------------------------------------------
    sparql_endpoint: bool = Field(
        False,
        description="Offer POST /sparql: read-only SELECT and ASK over the index's store, capped below. Off: "
        "the route answers 404.",
    )
    sparql_max_chars: int = Field(4000, ge=10, description="Longest SPARQL query accepted (HTTP 413 beyond).")
    sparql_max_rows: int = Field(1000, ge=1, description="Most rows returned; the reply says when it was cut.")
    sparql_timeout_s: float = Field(
        5.0,
        gt=0,
        description="Seconds a query may run; after that HTTP 504, and the query is stopped (on the embedded "
        "store its worker process is killed; past AskConfig.budget.memory_mb, HTTP 507 the same way).",
    )

    # -- stats -----------------------------------------------------------------------------------------
    stats_window: int = Field(
        10000, ge=10, description="Latest requests whose latencies and batch sizes GET /stats summarises."
    )
    gil_switch_interval_s: float = Field(
        0.001,
        gt=0,
        le=0.1,
        description="How often a replica's Python hands its lock between threads (sys.setswitchinterval; "
        "Python's default is 0.005). The batch threads hold it while they parse and ground; a shorter "
        "slice lets the event loop take in the next requests between, so batches fill: 32 clients on "
        "the sample index, 2 cores, about 1.2x the requests per second of the default "
        "(bench/results/serve_load.md).",
    )

    @model_validator(mode="after")
    def _coherent(self) -> ServeConfig:
        if self.max_replicas is not None and not (self.min_replicas <= self.replicas <= self.max_replicas):
            raise ValueError(
                f"autoscaling needs min_replicas <= replicas <= max_replicas; got {self.min_replicas}, "
                f"{self.replicas}, {self.max_replicas}"
            )
        if self.max_ongoing_requests is not None and self.max_ongoing_requests < self.max_batch_size:
            raise ValueError(
                f"max_ongoing_requests ({self.max_ongoing_requests}) below max_batch_size ({self.max_batch_size}): "
                "no batch could fill"
            )
        return self

    def ongoing(self) -> int:
        """Requests one replica holds at once."""
        return self.max_ongoing_requests or max(256, 2 * self.max_batch_size)

    def engine_questions(self) -> int:
        """Questions one replica's engine holds, queued or being answered."""
        return self.max_engine_questions or 4 * self.max_batch_size

    def http_options(self) -> dict[str, Any]:
        """``http_options`` for ``serve.start``: where the proxy listens, how long it keeps idle
        connections, and a proxy-side deadline past the replica's own (request and body timeouts),
        for a replica that stops answering altogether (HTTP 408 from the proxy)."""
        return {
            "host": self.host,
            "port": self.port,
            "keep_alive_timeout_s": self.keep_alive_timeout_s,
            "request_timeout_s": self.request_timeout_s + self.body_timeout_s + 10.0,
        }

    def deployment_options(self) -> dict[str, Any]:
        """Keyword options for ``serve.deployment``: replicas or autoscaling, CPUs, requests held."""
        options: dict[str, Any] = {
            "ray_actor_options": {"num_cpus": self.num_cpus},
            "max_ongoing_requests": self.ongoing(),
            "max_queued_requests": self.max_queued_requests,
            # Serve's own 503 for a full queue, with the wait the service's own 503s ask for
            "backpressure_config": {"status_code": 503, "retry_after_s": self.retry_after_s},
        }
        if self.max_replicas is None:
            options["num_replicas"] = self.replicas
        else:
            options["autoscaling_config"] = {
                "min_replicas": self.min_replicas,
                "initial_replicas": self.replicas,
                "max_replicas": self.max_replicas,
                "target_ongoing_requests": self.target_ongoing_requests or float(self.max_batch_size),
            }
        return options

    def key_digest(self, environ: Mapping[str, str] | None = None) -> bytes | None:
        """SHA-256 of the API key (None: no key set), read from ``environ`` (default: this process)."""
        key = (os.environ if environ is None else environ).get(self.api_key_env or "", "")
        return hashlib.sha256(key.encode("utf-8")).digest() if key else None
