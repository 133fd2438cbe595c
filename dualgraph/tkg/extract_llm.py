"""Entity mentions from chunks by a chat model: the UnWeaver contract.

For every chunk the model returns a JSON list of entities, each a name and a short
description of what the chunk says about it. The prompt is a versioned file
(``prompts/extract_entities.v1.md``); its stem is the request's ``prompt_version``, so a
response cache keyed on it is invalidated by saving a new version. Requests carry a JSON
schema that bounds the list and the string lengths, for servers with constrained decoding;
answers are still checked here, since a server may only repair and validate.

A chunk whose request failed, or whose answer cannot be read, is reported in
:attr:`ExtractionReport.problems` with its chunk id and the reason; it is never dropped
silently. Smaller defects (an item without a name, a duplicate, too many items) are
repaired and counted in :attr:`ExtractionReport.counts`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dualgraph.models.base import LLM, ChatRequest, ChatResult
from dualgraph.tkg.merge import entity_key, normalise_name
from dualgraph.tkg.model import Chunk, Mention

__all__ = ["DEFAULT_PROMPT", "ExtractionProblem", "ExtractionReport", "LLMExtractor", "entity_schema"]

DEFAULT_PROMPT = Path(__file__).parent / "prompts" / "extract_entities.v1.md"
STAGE = "tkg.extract"
_PLACEHOLDER = re.compile(r"\{(max_entities|products|section|chunk)\}")


@dataclass(frozen=True, slots=True)
class ExtractionProblem:
    """A chunk that yielded no mentions because its request or answer failed."""

    chunk_id: str
    error: str
    extractor: str = "llm"


@dataclass
class ExtractionReport:
    """Mentions, the chunks that failed, and counters per extractor (``counts[name][what]``).

    >>> r = ExtractionReport.of("heuristic", [Mention("S Pen", "A stylus.", "c1")], chunks=1)
    >>> r.merged(ExtractionReport(problems=[ExtractionProblem("c2", "timeout")])).counts
    {'heuristic': {'chunks': 1, 'mentions': 1}}
    """

    mentions: list[Mention] = field(default_factory=list)
    problems: list[ExtractionProblem] = field(default_factory=list)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, extractor: str, mentions: list[Mention], *, chunks: int) -> ExtractionReport:
        """A report for an extractor that cannot fail (the heuristic one)."""
        return cls(list(mentions), [], {extractor: {"chunks": chunks, "mentions": len(mentions)}})

    def count(self, extractor: str, what: str, n: int = 1) -> None:
        bucket = self.counts.setdefault(extractor, {})
        bucket[what] = bucket.get(what, 0) + n

    def merged(self, other: ExtractionReport) -> ExtractionReport:
        """Both reports in one (mentions and problems concatenated, counters added)."""
        out = ExtractionReport(
            self.mentions + other.mentions, self.problems + other.problems, {k: dict(v) for k, v in self.counts.items()}
        )
        for name, bucket in other.counts.items():
            for what, n in bucket.items():
                out.count(name, what, n)
        return out


def entity_schema(max_entities: int, *, max_name_chars: int = 80, max_description_chars: int = 400) -> dict[str, Any]:
    """The JSON schema of an answer: ``{"entities": [{"name", "description"}, ...]}``, bounded.

    >>> entity_schema(5)["properties"]["entities"]["maxItems"]
    5
    """
    item = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": max_name_chars},
            "description": {"type": "string", "minLength": 1, "maxLength": max_description_chars},
        },
        "required": ["name", "description"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"entities": {"type": "array", "items": item, "maxItems": max_entities}},
        "required": ["entities"],
        "additionalProperties": False,
    }


def load_prompt(path: str | Path, *, requires: str = "{chunk}") -> tuple[str, str]:
    """The (system, user) templates of a prompt file split at its ``## system``/``## user`` lines;
    the user part must hold the placeholder ``requires``."""
    text = re.sub(r"<!--.*?-->", "", Path(path).read_text(encoding="utf-8"), flags=re.DOTALL)
    parts = re.split(r"^## (system|user)\s*$", text, flags=re.MULTILINE)
    found = {parts[i]: parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}
    if "user" not in found or requires not in found["user"]:
        raise ValueError(f"{path}: needs a '## user' part holding {requires}")
    return found.get("system", ""), found["user"]


def _parse_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:  # the project's tolerant reader, when present (fences, trailing commas, cut-off answers)
        from dualgraph.models.json_repair import parse_json_loose
    except ImportError:  # pragma: no cover - depends on the checkout
        fence = re.search(r"```(?:json)?\s*(.*?)```", text, flags=re.DOTALL)
        return json.loads(fence.group(1) if fence else text)
    return parse_json_loose(text)


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"


class LLMExtractor:
    """Extracts mentions with ``llm``, ``batch_size`` chunks per ``complete`` call.

    >>> from dualgraph.models.base import ChatResult
    >>> class Canned:
    ...     name = "canned"
    ...     def complete(self, requests):
    ...         return [ChatResult(text='{"entities": [{"name": " S  Pen ", "description": "A stylus."}]}')
    ...                 for _ in requests]
    >>> report = LLMExtractor(Canned()).extract([Chunk("p#1", "p", "The S Pen is a stylus.")])
    >>> [(m.name, m.description, m.chunk_id) for m in report.mentions], report.problems
    ([('S Pen', 'A stylus.', 'p#1')], [])
    """

    name = "llm"

    def __init__(
        self,
        llm: LLM,
        *,
        prompt_path: str | Path | None = None,
        max_entities: int = 20,
        batch_size: int = 16,
        max_output_tokens: int = 2048,
        max_name_chars: int = 80,
        max_description_chars: int = 400,
    ) -> None:
        if max_entities < 1 or batch_size < 1:
            raise ValueError("max_entities and batch_size must be positive")
        self.llm = llm
        self.prompt_path = Path(prompt_path) if prompt_path else DEFAULT_PROMPT
        self.prompt_version = self.prompt_path.stem
        self.system, self.user = load_prompt(self.prompt_path)
        self.max_entities = max_entities
        self.batch_size = batch_size
        self.max_output_tokens = max_output_tokens
        self.max_name_chars = max_name_chars
        self.max_description_chars = max_description_chars
        self.schema = entity_schema(
            max_entities, max_name_chars=max_name_chars, max_description_chars=max_description_chars
        )

    def request(self, chunk: Chunk) -> ChatRequest:
        """The chat request for one chunk."""
        values = {
            "max_entities": str(self.max_entities),
            "products": "; ".join(chunk.products) or "(not given)",
            "section": chunk.section or "(none)",
            "chunk": chunk.text,
        }

        def fill(template: str) -> str:  # one pass, so braces inside the chunk are left alone
            return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)

        messages: tuple[dict[str, str], ...] = (
            ({"role": "system", "content": fill(self.system)},) if self.system else ()
        )
        messages += ({"role": "user", "content": fill(self.user)},)
        return ChatRequest(
            messages=messages,
            schema=self.schema,
            max_tokens=self.max_output_tokens,
            temperature=0.0,
            prompt_version=self.prompt_version,
            stage=STAGE,
        )

    def extract(self, chunks: Sequence[Chunk]) -> ExtractionReport:
        """Mentions of every chunk in chunk order, the failed chunks, and counters."""
        report = ExtractionReport()
        report.count(self.name, "chunks", 0)
        for start in range(0, len(chunks), self.batch_size):
            batch = list(chunks[start : start + self.batch_size])
            try:
                results = self.llm.complete([self.request(c) for c in batch])
            except Exception as e:  # a backend should report per request; if it raises, say so per chunk
                results = [ChatResult(text="", error=f"backend raised {type(e).__name__}: {e}")] * len(batch)
            if len(results) != len(batch):
                missing = ChatResult(
                    text="", error=f"backend returned {len(results)} results for {len(batch)} requests"
                )
                results = list(results[: len(batch)]) + [missing] * max(0, len(batch) - len(results))
            for chunk, result in zip(batch, results):
                self.read(chunk, result, report)
        return report

    def read(self, chunk: Chunk, result: ChatResult, report: ExtractionReport) -> None:
        """Add what one answer says about ``chunk`` to ``report`` (mentions, or the problem)."""
        n = self.name
        report.count(n, "chunks")
        report.count(n, "prompt_tokens", result.prompt_tokens)
        report.count(n, "completion_tokens", result.completion_tokens)
        if result.cached:
            report.count(n, "cached")
        if result.error:
            report.problems.append(ExtractionProblem(chunk.chunk_id, result.error, n))
            report.count(n, "failed")
            return
        data = result.parsed
        if data is None:
            try:
                data = _parse_text(result.text)
            except (ValueError, TypeError) as e:
                report.problems.append(
                    ExtractionProblem(chunk.chunk_id, f"unreadable answer ({e}): {result.text[:120]!r}", n)
                )
                report.count(n, "failed")
                return
        items = data.get("entities") if isinstance(data, dict) else data
        if not isinstance(items, list):
            report.problems.append(
                ExtractionProblem(chunk.chunk_id, f"answer is not an entity list: {json.dumps(data)[:120]}", n)
            )
            report.count(n, "failed")
            return
        if result.finish_reason == "length":
            report.count(n, "cut_off_answers")  # kept: what was read before the cut is usable
        if len(items) > self.max_entities:
            report.count(n, "over_limit", len(items) - self.max_entities)
            items = items[: self.max_entities]
        seen: set[str] = set()
        for item in items:
            mention = self._mention(item, chunk.chunk_id)
            if mention is None:
                report.count(n, "dropped_items")
                continue
            key = entity_key(mention.name)
            if key in seen:
                report.count(n, "duplicates")
                continue
            seen.add(key)
            report.mentions.append(mention)
            report.count(n, "mentions")
        report.count(n, "answered")

    def _mention(self, item: Any, chunk_id: str) -> Mention | None:
        if not isinstance(item, dict):
            return None
        # The reference implementation's keys are accepted too, so recorded answers still read.
        name = item.get("name", item.get("entity_name"))
        desc = item.get("description", item.get("entity_description"))
        if not isinstance(name, str) or not isinstance(desc, str):
            return None
        name = normalise_name(name)
        desc = " ".join(desc.split())
        if not name or not desc or len(name) > self.max_name_chars or not entity_key(name):
            return None
        return Mention(name, _clip(desc, self.max_description_chars), chunk_id)
