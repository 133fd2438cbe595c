"""OpenAIChatLLM against a tiny stand-in HTTP server on 127.0.0.1.

The stand-in exists only for behaviours a real server cannot be made to show on demand:
a 429 with ``Retry-After``, a 500 followed by success, malformed JSON followed by valid
JSON, and rejection of the OpenAI ``json_schema`` response_format (the fallback to
llama.cpp's ``json_object`` + schema form). Everything else (schema-constrained output,
token usage, concurrency, ordering, ``finish_reason == "length"``, caching) is tested
against the real SmolLM2 on llama.cpp in tests/integration/test_llamacpp.py.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from dualgraph.models.base import ChatRequest, TokenMeter
from dualgraph.models.openai_chat import OpenAIChatLLM

Reply = tuple[int, dict[str, str], object]  # status, headers, JSON payload (or raw str)
SCHEMA = {
    "type": "object",
    "properties": {"label": {"type": "string", "maxLength": 20}},
    "required": ["label"],
    "additionalProperties": False,
}


def completion(content: str, *, finish: str = "stop", prompt: int = 7, completion_tokens: int = 3) -> dict:
    return {
        "id": "x",
        "object": "chat.completion",
        "model": "stand-in",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt + completion_tokens,
        },
    }


class StandIn:
    """Answers POSTs with ``responder(body, call_number)`` and records what it received."""

    def __init__(self, responder: Callable[[dict, int], Reply]) -> None:
        self.responder = responder
        self.bodies: list[dict] = []
        self.headers: list[dict[str, str]] = []
        self.times: list[float] = []
        lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with lock:
                    outer.bodies.append(body)
                    outer.headers.append({k.lower(): v for k, v in self.headers.items()})  # names are case-insensitive
                    outer.times.append(time.monotonic())
                    n = len(outer.bodies)
                status, headers, payload = outer.responder(body, n)
                raw = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stand_in() -> Iterator[Callable[[Callable[[dict, int], Reply]], StandIn]]:
    servers: list[StandIn] = []

    def start(responder: Callable[[dict, int], Reply]) -> StandIn:
        servers.append(StandIn(responder))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def ask(content: str = "hi", **kw) -> ChatRequest:
    return ChatRequest(messages=({"role": "user", "content": content},), **kw)


def test_429_waits_for_retry_after_then_succeeds(stand_in, caplog):
    server = stand_in(
        lambda body, n: (429, {"Retry-After": "1"}, {"error": "slow down"}) if n == 1 else (200, {}, completion("ok"))
    )
    meter = TokenMeter()
    llm = OpenAIChatLLM(server.url, "m", api_key="sk-never-logged", meter=meter)
    with caplog.at_level(logging.DEBUG):
        result = llm.complete([ask(stage="route")])[0]
    assert result.error is None and result.text == "ok" and result.attempts == 2
    assert server.times[1] - server.times[0] >= 0.9  # Retry-After (1 s), not the SDK's first backoff (<= 0.5 s)
    assert server.headers[0]["authorization"] == "Bearer sk-never-logged"
    assert "sk-never-logged" not in caplog.text and "sk-never-logged" not in repr(llm)
    assert meter.stages["route"].calls == 2 and meter.stages["route"].items == 1
    assert meter.stages["route"].prompt_tokens == 7


def test_500_then_success_is_retried_with_backoff(stand_in):
    server = stand_in(lambda body, n: (500, {}, {"error": "boom"}) if n <= 2 else (200, {}, completion("fine")))
    result = OpenAIChatLLM(server.url, "m").complete([ask()])[0]
    assert result.error is None and result.text == "fine" and result.attempts == 3
    assert "response_format" not in server.bodies[0]  # free text: no schema form sent


def test_retries_run_out_into_an_error_result(stand_in):
    server = stand_in(lambda body, n: (503, {}, {"error": "down"}))
    result = OpenAIChatLLM(server.url, "m", max_retries=2).complete([ask()])[0]
    assert result.error is not None and "503" in result.error
    assert len(server.bodies) == 3


def test_other_4xx_is_not_retried(stand_in):
    server = stand_in(lambda body, n: (400, {}, {"error": {"message": "bad request"}}))
    result = OpenAIChatLLM(server.url, "m").complete([ask()])[0]
    assert result.error is not None and "400" in result.error and len(server.bodies) == 1


def test_malformed_json_then_valid_is_repaired_by_asking_again(stand_in):
    answers = ['{"label": ', 'Sure! ```json\n{"label": "speakers",}\n```']
    server = stand_in(lambda body, n: (200, {}, completion(answers[min(n, 2) - 1])))
    meter = TokenMeter()
    result = OpenAIChatLLM(server.url, "m", meter=meter, schema_mode="none").complete(
        [ask(schema=SCHEMA, stage="extract")]
    )[0]
    assert result.error is None and result.parsed == {"label": "speakers"} and result.attempts == 2
    retry = server.bodies[1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": '{"label": '}
    assert retry[-1]["role"] == "user" and "not valid JSON for the schema" in retry[-1]["content"]
    assert (result.prompt_tokens, result.completion_tokens) == (14, 6)  # both attempts cost tokens
    assert meter.stages["extract"].completion_tokens == 6


def test_schema_violation_is_retried_and_finally_an_error(stand_in):
    server = stand_in(lambda body, n: (200, {}, completion('{"label": 5}')))
    result = OpenAIChatLLM(server.url, "m", max_retries=2, schema_mode="none").complete([ask(schema=SCHEMA)])[0]
    assert result.error is not None and "not of type 'string'" in result.error
    assert result.parsed is None and result.attempts == 3 and len(server.bodies) == 3


def llama_cpp_like(body: dict, n: int) -> Reply:
    """llama.cpp's behaviour: the OpenAI json_schema form fails with HTTP 500."""
    fmt = body.get("response_format")
    if fmt and fmt.get("type") == "json_schema":
        return 500, {}, {"error": {"message": "response_format type json_schema not supported"}}
    return 200, {}, completion('{"label": "ok"}')


def test_auto_mode_falls_back_to_json_object_schema_once_and_remembers(stand_in):
    server = stand_in(llama_cpp_like)
    llm = OpenAIChatLLM(server.url, "m")
    first = llm.complete([ask(schema=SCHEMA)])[0]
    assert first.error is None and first.parsed == {"label": "ok"}
    assert llm.schema_mode_in_use == "json_object_schema"
    results = llm.complete([ask(str(i), schema=SCHEMA) for i in range(3)])
    assert all(r.parsed == {"label": "ok"} for r in results)
    kinds = [b["response_format"]["type"] for b in server.bodies]
    assert kinds == ["json_schema", "json_object", "json_object", "json_object", "json_object"]
    assert server.bodies[1]["response_format"]["schema"] == SCHEMA


def test_openai_form_is_sent_when_accepted(stand_in):
    server = stand_in(lambda body, n: (200, {}, completion('{"label": "ok"}')))
    llm = OpenAIChatLLM(server.url, "m")
    assert llm.complete([ask(schema={**SCHEMA, "title": "Route label"})])[0].parsed == {"label": "ok"}
    fmt = server.bodies[0]["response_format"]
    assert fmt == {
        "type": "json_schema",
        "json_schema": {"name": "Route_label", "strict": True, "schema": {**SCHEMA, "title": "Route label"}},
    }
    assert llm.schema_mode_in_use == "json_schema"


def test_explicit_json_schema_mode_never_falls_back(stand_in):
    server = stand_in(lambda body, n: (400, {}, {"error": "response_format not supported"}))
    llm = OpenAIChatLLM(server.url, "m", schema_mode="json_schema")
    result = llm.complete([ask(schema=SCHEMA)])[0]
    assert result.error is not None and len(server.bodies) == 1 and llm.schema_mode_in_use == "json_schema"


def test_connection_refused_is_retried_then_reported():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = OpenAIChatLLM(f"http://127.0.0.1:{port}", "m", max_retries=2).complete([ask()])[0]
    assert result.error is not None and "ConnectionError" in result.error and result.attempts == 3


def test_bad_options_are_rejected():
    with pytest.raises(ValueError, match="schema_mode"):
        OpenAIChatLLM("http://127.0.0.1:1", "m", schema_mode="grammar")  # type: ignore[arg-type]
