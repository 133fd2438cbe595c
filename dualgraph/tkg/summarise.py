"""LLM summaries of merged entity descriptions, batched.

The merge keeps an extractive description within its token bound; only entities whose
statements did not all fit are summarised, all in one batch of requests, through the
response cache. A failed summary keeps the extractive description.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from dualgraph.models.base import LLM, ChatRequest
from dualgraph.tkg.extract_llm import load_prompt
from dualgraph.tkg.merge import extract_description, merge_mentions
from dualgraph.tkg.model import Entity, Mention

DEFAULT_PROMPT = Path(__file__).with_name("prompts") / "summarise_entity.v1.md"
_SCHEMA = {
    "type": "object",
    "properties": {"description": {"type": "string", "maxLength": 600}},
    "required": ["description"],
}


def _fill(template: str, values: dict[str, str]) -> str:
    out = template
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    return out


def merge_with_summaries(
    mentions: Iterable[Mention],
    llm: LLM,
    *,
    max_description_tokens: int = 120,
    prompt_path: str | Path = DEFAULT_PROMPT,
    max_statements: int = 30,
) -> list[Entity]:
    """:func:`~dualgraph.tkg.merge.merge_mentions`, with an LLM summary where the extract left text out.

    >>> from dualgraph.models.base import ChatResult
    >>> class Canned:
    ...     name = "canned"
    ...     def complete(self, requests):
    ...         return [ChatResult(text='{"description": "Loud speakers."}', parsed={"description": "Loud speakers."})
    ...                 for _ in requests]
    >>> ms = [Mention("speakers", f"Statement number {i} about the speakers.", f"c{i}") for i in range(30)]
    >>> [e.description for e in merge_with_summaries(ms, Canned(), max_description_tokens=20)]
    ['Loud speakers.']
    """
    path = Path(prompt_path)
    system, user = load_prompt(path, requires="{descriptions}")
    wanted: list[tuple[str, list[str]]] = []

    def collect(name: str, descriptions: list[str]) -> str:
        wanted.append((name, descriptions))
        return f"\u241fsummary{len(wanted) - 1}\u241f"

    entities = merge_mentions(mentions, max_description_tokens=max_description_tokens, summarise=collect)
    if not wanted:
        return entities
    max_words = str(max(10, int(max_description_tokens * 0.6)))
    requests = [
        ChatRequest(
            messages=(
                {"role": "system", "content": system},
                {
                    "role": "user",
                    "content": _fill(
                        user,
                        {
                            "name": name,
                            "max_words": max_words,
                            "descriptions": "\n".join(f"- {d}" for d in descs[:max_statements]),
                        },
                    ),
                },
            ),
            schema=_SCHEMA,
            max_tokens=max_description_tokens * 2 + 32,
            prompt_version=path.stem,
            stage="tkg.summarise",
        )
        for name, descs in wanted
    ]
    results = llm.complete(requests)
    summaries: dict[str, str] = {}
    for i, ((_, descs), res) in enumerate(zip(wanted, results)):
        text = ""
        if res.error is None and isinstance(res.parsed, dict):
            text = " ".join(str(res.parsed.get("description", "")).split())
        summaries[f"\u241fsummary{i}\u241f"] = text or extract_description(descs, max_tokens=max_description_tokens)
    for e in entities:
        if e.description in summaries:
            e.description = summaries[e.description]
    return entities
