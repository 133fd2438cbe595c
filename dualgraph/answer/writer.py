"""Answer text: rendered from the evidence by templates (default), or written by an LLM.

Templates never squeeze a list into one sentence: every product of ``answer_list`` is
written out, one per line (the reference's single-sentence answers lost long lists).

>>> print(template_text("list", ["Phone A", "Phone B"], None, source="skg"))
2 products match:
- Phone A
- Phone B
>>> template_text("count", None, 3, source="skg")
'3 products match.'
>>> template_text("list", [], None, source="skg")
'No product in the catalog matches.'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from dualgraph.models.base import ChatRequest

__all__ = ["WRITER_PROMPT_VERSION", "LLMWriter", "template_text"]

WRITER_PROMPT_VERSION = "answer-v1"
_SYSTEM = (
    "You answer shoppers' questions about a product catalog using only the context given. "
    "Be correct and complete: when the answer is a list of products, name every product in it. "
    "If the context does not answer the question, say so. Reply as JSON."
)


def _number(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return f"{v:,}" if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)


def template_text(
    intent: str, answer_list: list[str] | None, value: Any, *, source: str, phrase: str | None = None
) -> str:
    """The answer in words, from the structured answer alone."""
    names = list(answer_list or [])
    prefix = (
        f"From the product descriptions mentioning {phrase!r}: "
        if source == "tkg" and phrase
        else ("From the product descriptions: " if source == "tkg" else "")
    )
    if intent == "count":
        n = value if value is not None else len(names)
        return f"{prefix}{_number(n)} product{'' if n == 1 else 's'} match{'es' if n == 1 else ''}."
    if intent in ("superlative", "compare") and value is not None:
        head = f"{prefix}{_number(value)}."
        others = [n for n in names if n != value]
        if others and not isinstance(value, (int, float)):
            head += " Tied with: " + "; ".join(others) + "."
        elif isinstance(value, (int, float)) and names:
            head += " (" + "; ".join(names) + ")"
        return head
    if intent == "average" and value is not None:
        return f"{prefix}On average {_number(value)}."
    if intent == "sum" and value is not None:
        return f"{prefix}In total {_number(value)}."
    if intent == "median" and value is not None:
        return f"{prefix}The median is {_number(value)}."
    if intent == "spread" and value is not None:
        return f"{prefix}The largest and the smallest are {_number(value)} apart."
    if intent == "yesno" and value in ("yes", "no"):
        return f"{prefix}{value.capitalize()}."
    if intent == "describe" and value is not None and value != names and value not in names:
        # a value looked up for the named product ("Who designed the X?"): the value, then whose it is
        said = "; ".join(map(_number, value)) if isinstance(value, list) else _number(value)
        return f"{prefix}{said}" + (f" ({'; '.join(names)})" if names else "") + "."
    if intent == "describe" and names:
        return f"{prefix}{names[0]}." if len(names) == 1 else f"{prefix}" + "; ".join(names) + "."
    if not names:
        return f"{prefix}No product in the catalog matches." if not prefix else f"{prefix}no product found."
    lines = [f"{prefix}{len(names)} product{'s' if len(names) != 1 else ''} match:"]
    lines += [f"- {n}" for n in names]
    return "\n".join(lines)


@dataclass
class LLMWriter:
    """Writes the answer text with ``llm`` from the context the strategy gathered.

    For text-only evidence it may also choose the products: the schema lets it name only
    products that the retrieved text is about (an ``enum``), so it cannot invent names.
    """

    llm: Any
    max_tokens: int = 400
    max_context_chars: int = 12000

    def requests(self, items: list[dict[str, Any]]) -> list[ChatRequest]:
        out = []
        for it in items:
            context = it["context"][: self.max_context_chars] or "(no context was found)"
            draft = {"answer_list": it.get("answer_list"), "value": it.get("value")}
            # no maxLength/maxItems: llama.cpp unrolls them into grammars that fail to compile
            props: dict[str, Any] = {"answer": {"type": "string"}}
            choose = bool(it.get("choose_from"))
            if choose:
                props["answer_list"] = {"type": "array", "items": {"enum": it["choose_from"][:200]}}
            schema = {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
            user = (
                f"Question: {it['question']}\n\nContext:\n{context}\n\n"
                f"Structured answer found so far: {json.dumps(draft, ensure_ascii=False, default=str)}\n\n"
                + (
                    "Choose every product from the allowed names that answers the question, and write the answer."
                    if choose
                    else "Write the answer from the context; keep every product of the list."
                )
            )
            out.append(
                ChatRequest(
                    ({"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}),
                    schema=schema,
                    max_tokens=self.max_tokens,
                    temperature=0.0,
                    prompt_version=WRITER_PROMPT_VERSION,
                    stage="answer",
                )
            )
        return out

    def write(self, items: list[dict[str, Any]]):
        """One :class:`~dualgraph.models.base.ChatResult` per item (``parsed``: answer, maybe answer_list)."""
        reqs = self.requests(items)
        return self.llm.complete(reqs) if reqs else []
