"""An :class:`~dualgraph.models.base.LLM` over any OpenAI-compatible ``/v1/chat/completions``.

Works against OpenAI, vLLM's server and llama.cpp's server, through the official ``openai``
SDK: its retries (connection errors, timeouts, 408/409/429/5xx, exponential backoff with
jitter, ``Retry-After`` honoured up to two minutes) and timeouts are the transport. Requests
of a batch run on a thread pool, at most ``max_concurrency`` in flight per client. With a
schema, the output is constrained where the server can do it, then repaired
(:func:`parse_json_loose`) and validated; an answer that fails is retried with the error
appended to the conversation.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from dualgraph.models.base import ChatRequest, ChatResult, TokenMeter
from dualgraph.models.json_repair import parse_json_loose

if TYPE_CHECKING:
    import openai
# The SDK is imported where a client is made, not here: llm_batch (and through it every engine
# and budget worker) imports this module for its helpers, and ``import openai`` costs ~0.6 CPU-s.

__all__ = ["REPAIR_PROMPT", "OpenAIChatLLM", "SchemaMode", "api_base", "chat_url", "check_answer"]

log = logging.getLogger(__name__)

SchemaMode = Literal["auto", "json_schema", "json_object_schema", "none"]
# Sent when no key is configured: the SDK would otherwise read OPENAI_API_KEY from the
# environment and hand that key to whatever server base_url names.
_NO_KEY = "no-key"
REPAIR_PROMPT = (
    "Your previous answer was not valid JSON for the schema: {error}. "
    "Reply again with only the JSON value, following the schema."
)


def api_base(base_url: str) -> str:
    """The SDK's base URL (ending in ``/v1``) for a server URL given with or without it.

    >>> api_base("http://127.0.0.1:8000")
    'http://127.0.0.1:8000/v1'
    >>> api_base("https://api.example.com/v1/chat/completions")
    'https://api.example.com/v1'
    """
    url = base_url.rstrip("/").removesuffix("/chat/completions")
    return url if url.endswith("/v1") else url + "/v1"


def chat_url(base_url: str) -> str:
    """The chat completions URL for a server's base URL (with or without ``/v1``).

    >>> chat_url("http://127.0.0.1:8000")
    'http://127.0.0.1:8000/v1/chat/completions'
    >>> chat_url("https://api.example.com/v1/")
    'https://api.example.com/v1/chat/completions'
    """
    return api_base(base_url) + "/chat/completions"


class _Failure(Exception):
    """A request that failed for good (the SDK's retries included)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class OpenAIChatLLM:
    """Chat completions over HTTP, batched, retried, schema-constrained and metered by stage.

    ``schema_mode``: how a request's JSON schema reaches the server. ``"json_schema"``:
    OpenAI's ``response_format={"type": "json_schema", ...}``; ``"json_object_schema"``:
    llama.cpp's ``{"type": "json_object", "schema": ...}``; ``"none"``: no constraint
    (repair and validation only); ``"auto"``: json_schema first, falling back once per
    client to json_object_schema when the server rejects it, then keeping what works.

    ``max_retries`` bounds both the SDK's transport retries of one HTTP call and, separately,
    the re-asks of an answer that does not follow the schema. ``ChatResult.attempts`` counts
    every HTTP call, transport retries included.

    >>> llm = OpenAIChatLLM("http://127.0.0.1:9", "tiny", api_key="sk-secret")
    >>> "sk-secret" in repr(llm), llm.url
    (False, 'http://127.0.0.1:9/v1/chat/completions')
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        max_concurrency: int = 4,
        max_retries: int = 4,
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
        self.timeout_s = timeout_s
        self.schema_mode = schema_mode
        self.meter = meter
        self._api_key = api_key
        self._mode = "json_schema" if schema_mode == "auto" else schema_mode  # what is sent now
        # auto: 0 = json_schema untried, 1 = fell back to json_object_schema, 2 = settled.
        self._switches = 0 if schema_mode == "auto" else 2
        self._mode_lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(self.max_concurrency)
        # The sync SDK sends from the calling thread, so a thread-local tally per request
        # sees exactly that request's HTTP calls, the SDK's own retries included.
        self._calls = threading.local()
        import openai  # lazily: see the imports above

        self._client = openai.OpenAI(
            base_url=api_base(base_url),
            api_key=api_key or _NO_KEY,
            max_retries=self.max_retries,
            timeout=timeout_s,
            http_client=openai.DefaultHttpxClient(event_hooks={"request": [self._count_call]}),
        )
        # While auto mode has not seen json_schema answered, one try only: llama.cpp answers
        # that form with HTTP 500, which the SDK would otherwise retry with backoff first.
        self._probe = self._client.with_options(max_retries=0)
        self._after_probe = self._client.with_options(max_retries=max(0, self.max_retries - 1))

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
        """Close the HTTP connections; the client cannot be used afterwards."""
        self._client.close()

    # -- one request -------------------------------------------------------------

    def _complete_one(self, request: ChatRequest) -> ChatResult:
        t0 = time.perf_counter()
        self._calls.n = 0
        messages = [dict(m) for m in request.messages]
        tokens = [0, 0]  # prompt, completion
        result: ChatResult | None = None
        for _ in range(self.max_retries + 1):
            try:
                text, finish = self._ask(request, messages, tokens)
            except _Failure as e:
                result = ChatResult(text="", error=str(e))
                break
            result = ChatResult(text=text, finish_reason=finish)
            if request.schema is None:
                break
            problem = self._check(text, finish, request.schema, result)
            if problem is None:
                break
            result.error = problem
            messages += [
                {"role": "assistant", "content": text[:4000]},
                {"role": "user", "content": REPAIR_PROMPT.format(error=problem)},
            ]
        assert result is not None
        result.prompt_tokens, result.completion_tokens = tokens
        result.attempts = self._calls.n
        if self.meter is not None:
            self.meter.record(
                request.stage,
                calls=result.attempts,
                items=1,
                prompt_tokens=tokens[0],
                completion_tokens=tokens[1],
                seconds=time.perf_counter() - t0,
            )
        return result

    @staticmethod
    def _check(text: str, finish: str | None, schema: dict[str, Any], result: ChatResult) -> str | None:
        """None when the answer parses and follows the schema (``result.parsed`` is set); else why not."""
        value, problem = check_answer(text, finish, schema)
        if problem is None:
            result.parsed = value
        return problem

    # -- HTTP --------------------------------------------------------------------

    def _count_call(self, _request: Any) -> None:
        self._calls.n = getattr(self._calls, "n", 0) + 1

    def _ask(self, request: ChatRequest, messages: list[dict[str, str]], tokens: list[int]) -> tuple[str, str | None]:
        """One completion (the SDK retrying transport failures): ``(text, finish_reason)``.

        Raises :class:`_Failure` when the server never answered.
        """
        while True:
            mode = self._mode
            probing = request.schema is not None and mode == "json_schema" and self._switches == 0
            try:
                completion = self._create(self._probe if probing else self._client, request, messages, mode)
            except _Failure as failure:
                if request.schema is not None and self._maybe_switch_mode(mode, failure):
                    continue  # resent at once in the other form; not a retry
                if not probing or not _retryable(failure) or self.max_retries == 0:
                    raise
                completion = self._create(self._after_probe, request, messages, mode)
            if probing:
                with self._mode_lock:
                    if self._mode == mode and self._switches == 0:
                        self._switches = 2  # the server takes json_schema: no more probing
            usage = completion.usage
            if usage is not None:
                tokens[0] += usage.prompt_tokens or 0
                tokens[1] += usage.completion_tokens or 0
            try:
                choice = completion.choices[0]
                return choice.message.content or "", choice.finish_reason
            except (IndexError, AttributeError, TypeError) as e:
                raise _Failure(f"malformed response body ({type(e).__name__})") from e

    def _create(self, client: openai.OpenAI, request: ChatRequest, messages: list[dict[str, str]], mode: str) -> Any:
        fmt: dict[str, Any] | None = None
        if request.schema is not None and mode == "json_schema":
            fmt = {
                "type": "json_schema",
                "json_schema": {"name": _schema_name(request.schema), "schema": request.schema, "strict": True},
            }
        elif request.schema is not None and mode == "json_object_schema":
            # Not in the SDK's types (llama.cpp's extension), so it goes into the body untyped.
            fmt = {"type": "json_object", "schema": request.schema}
        import openai  # already imported by __init__: a dict look-up

        try:
            with self._slots:
                return client.chat.completions.create(
                    model=self.name,
                    messages=messages,  # type: ignore[arg-type]
                    max_tokens=request.max_tokens,
                    temperature=request.temperature,
                    extra_body={"response_format": fmt} if fmt is not None else None,
                )
        except openai.APIStatusError as e:
            raise _Failure(f"HTTP {e.status_code}: {e.response.text[:500]}", e.status_code) from e
        except openai.APIConnectionError as e:  # refused, reset, timed out: after the SDK's retries
            cause = f" ({type(e.__cause__).__name__}: {e.__cause__})" if e.__cause__ is not None else ""
            raise _Failure(f"{type(e).__name__}: {e}{cause}") from e
        except openai.OpenAIError as e:  # e.g. a body that is not a completion
            raise _Failure(f"{type(e).__name__}: {e}") from e

    def _maybe_switch_mode(self, sent_mode: str, failure: _Failure) -> bool:
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


def _retryable(failure: _Failure) -> bool:
    """What the SDK would have retried (it decides again on the resend)."""
    return failure.status is None or failure.status in (408, 409, 429) or failure.status >= 500


def _schema_name(schema: dict[str, Any]) -> str:
    raw = str(schema.get("title") or "answer")
    name = "".join(c if c.isalnum() or c in "_-" else "_" for c in raw)[:64]
    return name or "answer"


def check_answer(text: str, finish: str | None, schema: dict[str, Any]) -> tuple[Any, str | None]:
    """``(value, None)`` when a schema-bound answer parses and follows ``schema``, else ``(None, why)``.

    >>> check_answer('{"n": 1}', "stop", {"type": "object"})
    ({'n': 1}, None)
    >>> check_answer('{"n": 1', "length", {"type": "object"})[1].startswith("the answer was cut off")
    True
    """
    if finish == "length":
        return None, "the answer was cut off at max_tokens (finish_reason 'length'); answer more briefly"
    try:
        value = parse_json_loose(text)
    except ValueError as e:
        return None, f"not JSON ({e})"
    problem = schema_error(value, schema)
    return (value, None) if problem is None else (None, problem)


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
