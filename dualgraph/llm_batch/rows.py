"""Chat requests as dataset rows, and processor output rows as chat results.

The row form is flat and Arrow-friendly on purpose: a JSON schema is carried as a string,
not a nested struct, because Arrow would unify the structs of different rows and fill the
keys one schema lacks with nulls (a ``"maxItems": null`` is not the schema that was asked for).
Both backends' raw outputs, and the error rows ``ray.data.llm`` passes around the user's
postprocess, are read back into one fixed set of columns (:data:`RESULT_COLUMNS`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from dualgraph.models.base import ChatRequest, ChatResult
from dualgraph.models.openai_chat import check_answer

REQUEST_COLUMNS = {
    "row_key": "position of the request in its batch (results are returned in this order)",
    "messages_json": "the chat messages, a JSON list of {role, content}",
    "schema_json": "the JSON schema the answer must follow, as text; empty for free text",
    "max_tokens": "largest answer, in tokens",
    "temperature": "sampling temperature",
    "stage": "the metering stage of the request (tkg.extract, tkg.summarise, ...)",
}
RESULT_COLUMNS = {
    "row_key": "as in the request",
    "text": "the answer as generated",
    "parsed_json": "the answer parsed and checked against the schema, as JSON text; empty without a schema or on error",
    "prompt_tokens": "tokens of the prompt after the chat template",
    "completion_tokens": "tokens generated",
    "finish_reason": "stop, or length when the answer reached max_tokens",
    "error": "why the row has no usable answer (engine, HTTP or schema failure); empty when it has one",
}
ERROR_KEY = "__inference_error__"  # the column ray.data.llm sets on a row whose request failed


def request_rows(requests: Sequence[ChatRequest]) -> list[dict[str, Any]]:
    """One row per request, keyed by position.

    >>> rows = request_rows([ChatRequest(({"role": "user", "content": "hi"},), schema={"type": "object"})])
    >>> rows[0]["schema_json"], rows[0]["row_key"]
    ('{"type": "object"}', 0)
    """
    return [
        {
            "row_key": i,
            "messages_json": json.dumps(list(r.messages), ensure_ascii=False),
            "schema_json": json.dumps(r.schema, sort_keys=True) if r.schema is not None else "",
            "max_tokens": int(r.max_tokens),
            "temperature": float(r.temperature),
            "stage": r.stage,
        }
        for i, r in enumerate(requests)
    ]


_CARRY = "carry_columns"  # which input columns ride through the processor to the result row


def _carry_list(row: dict[str, Any]) -> dict[str, Any]:
    """The input row minus the messages (the processor gets them in its own form), with the list
    of its column names, so a caller's own columns (a chunk id, a document) come back as they went in."""
    kept = {k: v for k, v in row.items() if k != "messages_json"}
    return {**kept, _CARRY: json.dumps(sorted(kept))}


def _carried(row: dict[str, Any]) -> dict[str, Any]:
    names = json.loads(row[_CARRY]) if row.get(_CARRY) else ["row_key", "schema_json", "max_tokens", "stage"]
    return {k: row[k] for k in names if k in row} | {_CARRY: row.get(_CARRY, "")}


def vllm_input(row: dict[str, Any], *, guided_json: bool) -> dict[str, Any]:
    """The preprocess of the vLLM processor: chat messages and per-row sampling parameters."""
    params: dict[str, Any] = {"temperature": float(row["temperature"]), "max_tokens": int(row["max_tokens"])}
    if guided_json and row["schema_json"]:
        params["structured_outputs"] = {"json": row["schema_json"]}  # vLLM takes the schema as text too
    return {**_carry_list(row), "messages": json.loads(row["messages_json"]), "sampling_params": params}


def vllm_output(row: dict[str, Any]) -> dict[str, Any]:
    """The postprocess of the vLLM processor (successful rows only: ray.data.llm routes failed
    rows around it)."""
    generated = int(row.get("num_generated_tokens") or 0)
    return {
        **_carried(row),
        "text": row.get("generated_text") or "",
        "prompt_tokens": int(row.get("num_input_tokens") or 0),
        "completion_tokens": generated,
        # the engine output ray.data.llm keeps has no finish reason; hitting the cap is what matters
        "finish_reason": "length" if generated >= int(row["max_tokens"]) else "stop",
    }


def http_input(row: dict[str, Any], *, model: str, guided_json: bool) -> dict[str, Any]:
    """The preprocess of the HTTP processor: an OpenAI chat completions body, as JSON text in a
    dict so the schema keeps its exact shape through Arrow (see the module note)."""
    body: dict[str, Any] = {
        "model": model,
        "messages": json.loads(row["messages_json"]),
        "max_tokens": int(row["max_tokens"]),
        "temperature": float(row["temperature"]),
    }
    if guided_json and row["schema_json"]:
        # llama.cpp and vLLM's server accept a schema under json_object; OpenAI's json_schema
        # form is refused by llama.cpp (HTTP 500)
        body["response_format"] = {"type": "json_object", "schema": json.loads(row["schema_json"])}
    return {**_carry_list(row), "payload": body}


def http_output(row: dict[str, Any]) -> dict[str, Any]:
    """The postprocess of the HTTP processor: the first choice and the server's token counts."""
    response = row.get("http_response") or {}
    if isinstance(response, dict) and response.get("error"):
        # a refusal the server explained (a 4xx body): this row fails, the others go on
        error = response["error"]
        message = error.get("message") if isinstance(error, dict) else error
        return {**_carried(row), ERROR_KEY: f"the server refused the request: {str(message)[:300]}"}
    try:
        choice = response["choices"][0]
        text = (choice.get("message") or {}).get("content") or ""
        finish = choice.get("finish_reason") or ""
        usage = response.get("usage") or {}
        return {
            **_carried(row),
            "text": text,
            "prompt_tokens": int(usage.get("prompt_tokens") or 0),
            "completion_tokens": int(usage.get("completion_tokens") or 0),
            "finish_reason": finish,
        }
    except (KeyError, IndexError, TypeError, AttributeError) as e:
        return {**_carried(row), ERROR_KEY: f"malformed response ({type(e).__name__}): {str(response)[:300]}"}


def result_row(row: dict[str, Any]) -> dict[str, Any]:
    """Any processor output row (answered, failed in the engine, failed on HTTP) in the
    :data:`RESULT_COLUMNS` form; an answer that does not follow its schema gets an error."""
    failure = str(row.get(ERROR_KEY) or "")
    extra = {k: v for k, v in _carried(row).items() if k not in REQUEST_COLUMNS and k != _CARRY}
    out = {
        **extra,
        "row_key": int(row["row_key"]),
        "text": str(row.get("text") or ""),
        "parsed_json": "",
        "prompt_tokens": int(row.get("prompt_tokens") or 0),
        "completion_tokens": int(row.get("completion_tokens") or 0),
        "finish_reason": str(row.get("finish_reason") or ""),
        "error": failure,
    }
    if failure or not row.get("schema_json"):
        return out
    value, problem = check_answer(out["text"], out["finish_reason"], json.loads(row["schema_json"]))
    if problem is not None:
        out["error"] = problem
    else:
        out["parsed_json"] = json.dumps(value, ensure_ascii=False)
    return out


def chat_result(row: dict[str, Any]) -> ChatResult:
    """A :data:`RESULT_COLUMNS` row as the result the LLM steps read."""
    parsed = json.loads(row["parsed_json"]) if row["parsed_json"] else None
    return ChatResult(
        text=row["text"],
        parsed=parsed,
        prompt_tokens=int(row["prompt_tokens"]),
        completion_tokens=int(row["completion_tokens"]),
        finish_reason=row["finish_reason"] or None,
        error=row["error"] or None,
    )
