"""An :class:`~dualgraph.models.base.LLM` over any OpenAI-compatible ``/v1/chat/completions``.

Works against OpenAI, vLLM's server and llama.cpp's server. Requests of a batch run on a
thread pool, at most ``max_concurrency`` in flight per client. Transport failures
(connection errors, timeouts, 429, 5xx) are retried with exponential backoff and jitter,
honouring ``Retry-After``; other 4xx are not retried. With a schema, the output is
constrained where the server can do it, then repaired (:func:`parse_json_loose`) and
validated; an answer that fails is retried with the error appended to the conversation.
"""

from __future__ import annotations

import email.utils
import json
import logging
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, Literal

import requests

from dualgraph.models.base import ChatRequest, ChatResult, TokenMeter
from dualgraph.models.json_repair import parse_json_loose

__all__ = ["OpenAIChatLLM", "SchemaMode", "chat_url"]

log = logging.getLogger(__name__)

SchemaMode = Literal["auto", "json_schema", "json_object_schema", "none"]
MAX_RETRY_AFTER_S = 60.0  # a server asking for longer is not worth blocking a pipeline for
_REPAIR_PROMPT = (
    "Your previous answer was not valid JSON for the schema: {error}. "
    "Reply again with only the JSON value, following the schema."
)


def chat_url(base_url: str) -> str:
    """The chat completions URL for a server's base URL (with or without ``/v1``).

    >>> chat_url("http://127.0.0.1:8000")
    'http://127.0.0.1:8000/v1/chat/completions'
    >>> chat_url("https://api.example.com/v1/")
    'https://api.example.com/v1/chat/completions'
    """
    url = base_url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    return url + ("/chat/completions" if url.endswith("/v1") else "/v1/chat/completions")


class _HTTPFailure(Exception):
    def __init__(self, status: int | None, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}" if status else message)
        self.status = status


class OpenAIChatLLM:
    """Chat completions over HTTP, batched, retried, schema-constrained and metered by stage.

    ``schema_mode``: how a request's JSON schema reaches the server. ``"json_schema"``:
    OpenAI's ``response_format={"type": "json_schema", ...}``; ``"json_object_schema"``:
    llama.cpp's ``{"type": "json_object", "schema": ...}``; ``"none"``: no constraint
    (repair and validation only); ``"auto"``: json_schema first, falling back once per
    client to json_object_schema when the server rejects it, then keeping what works.

    >>> llm = OpenAIChatLLM("http://127.0.0.1:9", "tiny", api_key="sk-secret")
    >>> "sk-secret" in repr(llm)
    False
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        max_concurrency: int = 4,
        max_retries: int = 4,
        backoff_s: float = 0.5,
        timeout_s: float = 60,
        schema_mode: SchemaMode = "auto",
        meter: TokenMeter | None = None,
    ) -> None:
        if schema_mode not in ("auto", "json_schema", "json_object_schema", "none"):
            raise ValueError(f"unknown schema_mode {schema_mode!r}")
        self.name = model
        self.url = chat_url(base_url)
        self.max_concurrency = max(1, max_concurrency)
        self.max_retries = max(0, max_retries)
        self.backoff_s = backoff_s
        self.timeout_s = timeout_s
        self.schema_mode = schema_mode
        self.meter = meter
        self._api_key = api_key
        self._mode = "json_schema" if schema_mode == "auto" else schema_mode  # what is sent now
        self._switches = 0 if schema_mode == "auto" else 2  # auto may switch twice: fall back, then back
        self._mode_lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(self.max_concurrency)
        self._idle: list[requests.Session] = []  # pooled keep-alive sessions, at most max_concurrency
        self._idle_lock = threading.Lock()
        self._random = random.Random()

    def __repr__(self) -> str:
        return f"OpenAIChatLLM(url={self.url!r}, model={self.name!r}, schema_mode={self.schema_mode!r})"

    @property
    def schema_mode_in_use(self) -> str:
        """The constraint form being sent now (after any ``auto`` fallback)."""
        return self._mode

    def complete(self, requests_: list[ChatRequest]) -> list[ChatResult]:
        """One result per request, in order; a failed request carries ``error`` instead of raising."""
        if len(requests_) <= 1:
            return [self._complete_one(r) for r in requests_]
        with ThreadPoolExecutor(
            max_workers=min(self.max_concurrency, len(requests_)), thread_name_prefix="chat"
        ) as pool:
            return list(pool.map(self._complete_one, requests_))

    def close(self) -> None:
        """Close the pooled HTTP sessions (the client still works afterwards: it opens new ones)."""
        with self._idle_lock:
            sessions, self._idle = self._idle, []
        for session in sessions:
            session.close()

    # -- one request -------------------------------------------------------------

    def _complete_one(self, request: ChatRequest) -> ChatResult:
        t0 = time.perf_counter()
        messages = [dict(m) for m in request.messages]
        usage = [0, 0, 0]  # prompt tokens, completion tokens, HTTP calls
        result: ChatResult | None = None
        for _ in range(self.max_retries + 1):
            try:
                data = self._post(request, messages, usage)
            except _HTTPFailure as e:
                result = ChatResult(text="", error=str(e))
                break
            text, finish = _first_choice(data)
            result = ChatResult(text=text, finish_reason=finish)
            if request.schema is None:
                break
            problem = self._check(text, finish, request.schema, result)
            if problem is None:
                break
            result.error = problem
            messages += [
                {"role": "assistant", "content": text[:4000]},
                {"role": "user", "content": _REPAIR_PROMPT.format(error=problem)},
            ]
        assert result is not None
        result.prompt_tokens, result.completion_tokens, result.attempts = usage
        if self.meter is not None:
            self.meter.record(
                request.stage,
                calls=usage[2],
                items=1,
                prompt_tokens=usage[0],
                completion_tokens=usage[1],
                seconds=time.perf_counter() - t0,
            )
        return result

    @staticmethod
    def _check(text: str, finish: str | None, schema: dict[str, Any], result: ChatResult) -> str | None:
        """None when the answer parses and follows the schema (``result.parsed`` is set); else why not."""
        if finish == "length":
            return "the answer was cut off at max_tokens (finish_reason 'length'); answer more briefly"
        try:
            value = parse_json_loose(text)
        except ValueError as e:
            return f"not JSON ({e})"
        problem = schema_error(value, schema)
        if problem is None:
            result.parsed = value
        return problem

    # -- HTTP --------------------------------------------------------------------

    def _body(self, request: ChatRequest, messages: list[dict[str, str]], mode: str) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.name,
            "messages": messages,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
        }
        if request.schema is not None and mode == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": _schema_name(request.schema), "schema": request.schema, "strict": True},
            }
        elif request.schema is not None and mode == "json_object_schema":
            body["response_format"] = {"type": "json_object", "schema": request.schema}
        return body

    def _post(self, request: ChatRequest, messages: list[dict[str, str]], usage: list[int]) -> dict[str, Any]:
        """One completion, retrying transport failures; raises :class:`_HTTPFailure` when out of tries."""
        retries = 0
        while True:
            mode = self._mode
            data, failure, delay = self._send(self._body(request, messages, mode), usage)
            if failure is None:
                return data
            if request.schema is not None and self._maybe_switch_mode(mode, failure):
                continue  # resent at once in the other form; not a retry
            retryable = failure.status is None or failure.status == 429 or failure.status >= 500
            if not retryable or retries >= self.max_retries:
                raise failure
            wait = delay if delay is not None else self._backoff(retries)
            log.warning("chat request failed (%s); retry %d/%d in %.2fs", failure, retries + 1, self.max_retries, wait)
            time.sleep(wait)
            retries += 1

    def _send(self, body: dict[str, Any], usage: list[int]) -> tuple[Any, _HTTPFailure | None, float | None]:
        """POST once: ``(data, None, None)`` on success, else ``(None, failure, Retry-After seconds)``."""
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        with self._slots:
            usage[2] += 1
            with self._idle_lock:
                session = self._idle.pop() if self._idle else requests.Session()
            try:
                resp = session.post(self.url, data=json.dumps(body), headers=headers, timeout=self.timeout_s)
            except requests.RequestException as e:  # connection refused/reset, timeout
                return None, _HTTPFailure(None, f"{type(e).__name__}: {e}"), None
            finally:
                with self._idle_lock:
                    self._idle.append(session)
        if resp.status_code != 200:
            return None, _HTTPFailure(resp.status_code, resp.text[:500]), _retry_after(resp.headers.get("Retry-After"))
        try:
            data = resp.json()
            counts = data.get("usage") or {}
            usage[0] += int(counts.get("prompt_tokens") or 0)
            usage[1] += int(counts.get("completion_tokens") or 0)
            _first_choice(data)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
            return None, _HTTPFailure(None, f"malformed response body ({type(e).__name__})"), None
        return data, None, None

    def _maybe_switch_mode(self, sent_mode: str, failure: _HTTPFailure) -> bool:
        """``auto`` only: switch the constraint form when the server rejects the one sent."""
        status = failure.status
        mentions = "response_format" in str(failure)
        with self._mode_lock:
            if self._mode != sent_mode:
                return True  # another thread already switched: resend in the new form
            if self._switches >= 2 or status is None:
                return False
            if sent_mode == "json_schema" and self._switches == 0 and (status == 500 or (status >= 400 and mentions)):
                self._mode, self._switches = "json_object_schema", 1
            elif sent_mode == "json_object_schema" and 400 <= status < 500 and mentions:
                self._mode, self._switches = "json_schema", 2  # the fallback is rejected too: go back for good
            else:
                return False
            log.warning("server rejected response_format %s (HTTP %s); using %s", sent_mode, status, self._mode)
            return True

    def _backoff(self, retry: int) -> float:
        delay = self.backoff_s * (2**retry)
        return self._random.uniform(delay / 2, delay)  # jitter: concurrent clients do not retry in step


def _first_choice(data: dict[str, Any]) -> tuple[str, str | None]:
    choice = data["choices"][0]
    return (choice.get("message") or {}).get("content") or "", choice.get("finish_reason")


def _schema_name(schema: dict[str, Any]) -> str:
    raw = str(schema.get("title") or "answer")
    name = "".join(c if c.isalnum() or c in "_-" else "_" for c in raw)[:64]
    return name or "answer"


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date), capped.

    >>> _retry_after("2"), _retry_after(None), _retry_after("999")
    (2.0, None, 60.0)
    """
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - time.time()
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def schema_error(value: Any, schema: dict[str, Any]) -> str | None:
    """None when ``value`` follows ``schema``, else the most relevant violation.

    Uses ``jsonschema`` when installed, else a minimal check (types, required, enum,
    properties, items, maxItems, maxLength).

    >>> schema_error({"a": 1}, {"type": "object", "required": ["a", "b"]})
    "'b' is a required property at (root)"
    >>> schema_error([1, 2], {"type": "array", "items": {"type": "integer"}}) is None
    True
    """
    try:
        validator = _validator(json.dumps(schema, sort_keys=True))
    except ImportError:
        return _minimal_error(value, schema, "(root)")
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(value))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(root)"
    return f"{error.message} at {where}"


@lru_cache(maxsize=64)
def _validator(schema_json: str) -> Any:
    from jsonschema.validators import validator_for

    schema = json.loads(schema_json)
    return validator_for(schema)(schema)


_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "null": (type(None),),
}


def _minimal_error(value: Any, schema: dict[str, Any], where: str) -> str | None:
    kinds = schema.get("type")
    if kinds is not None:
        names = [kinds] if isinstance(kinds, str) else list(kinds)
        ok = any(
            isinstance(value, _TYPES.get(k, object)) and not (k in ("integer", "number") and isinstance(value, bool))
            for k in names
        )
        if not ok:
            return f"{value!r:.60} is not of type {kinds!r} at {where}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{value!r:.60} is not one of {schema['enum']!r} at {where}"
    if isinstance(value, str) and len(value) > schema.get("maxLength", len(value)):
        return f"string longer than {schema['maxLength']} at {where}"
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            return f"more than {schema['maxItems']} items at {where}"
        for i, item in enumerate(value):
            if isinstance(schema.get("items"), dict) and (err := _minimal_error(item, schema["items"], f"{where}/{i}")):
                return err
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                return f"{key!r} is a required property at {where}"
        for key, sub in (schema.get("properties") or {}).items():
            if key in value and isinstance(sub, dict) and (err := _minimal_error(value[key], sub, f"{where}/{key}")):
                return err
    return None
