"""Choosing the retriever for a question: ``skg`` (spec tables) or ``tkg`` (product text).

:class:`ExampleRouter` needs no model: a cosine-weighted vote of the labelled example
questions nearest to the question (same embedder as the index), shifted by what the
compiler makes of the question (a count, an extreme, a comparison or grounded numeric
constraints point to the specs; nothing grounded points to the text). :class:`LLMRouter`
asks an LLM for a constrained choice, with few-shot examples from the same file, and falls
back to the example router when the LLM fails.

Routers return a :class:`RouteDecision` and keep no per-question state (the reference
injected each question's patterns into a shared router object).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from dualgraph.models.base import LLM, ChatRequest, ChatResult, Embedder

__all__ = ["EXAMPLES_PATH", "ExampleRouter", "LLMRouter", "RouteDecision", "load_examples"]

EXAMPLES_PATH = Path(__file__).with_name("router_examples.yaml")
METHODS = ("skg", "tkg")
ROUTER_PROMPT_VERSION = "router-v1"


@dataclass(frozen=True, slots=True)
class RouteDecision:
    """``method``: the retriever chosen; ``score``: the vote for ``skg`` in [0, 1]; ``why``: the reasons."""

    method: str
    score: float
    why: tuple[str, ...] = ()
    prompt_tokens: int = 0
    completion_tokens: int = 0


def load_examples(path: str | Path = EXAMPLES_PATH) -> dict[str, list[str]]:
    """``{method: [questions]}`` from a YAML file with one list per method."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    bad = set(data) - set(METHODS)
    if bad:
        raise ValueError(f"{path}: unknown routing methods {sorted(bad)} (known: {list(METHODS)})")
    return {m: [str(q) for q in data.get(m) or []] for m in METHODS}


@dataclass
class ExampleRouter:
    """Nearest-neighbour vote over labelled questions plus the compiler's view of the question.

    ``probe``: ``question -> (intent kind, conditions grounded in the specs, confidence)``,
    e.g. from :meth:`dualgraph.query.interpret.compiler.Compiler.compile` (the engine reports a condition
    only prose mentions as a confidence of at most 0.3); None routes on examples only.
    """

    embedder: Embedder
    examples: dict[str, list[str]] = field(default_factory=load_examples)
    probe: Callable[[str], tuple[str, int, float]] | None = None
    k: int = 7
    threshold: float = 0.5

    def __post_init__(self) -> None:
        texts = [q for m in METHODS for q in self.examples[m]]
        self._labels = np.array([1.0 if m == "skg" else 0.0 for m in METHODS for _ in self.examples[m]])
        self._vectors = np.asarray(self.embedder.embed(texts, stage="router"), dtype=np.float32) if texts else None

    def route(self, questions: list[str]) -> list[RouteDecision]:
        if not questions:
            return []
        q = np.asarray(self.embedder.embed(list(questions), stage="router"), dtype=np.float32)
        out = []
        for i, question in enumerate(questions):
            why: list[str] = []
            score = 0.5
            if self._vectors is not None and len(self._labels):
                sims = self._vectors @ q[i]
                top = np.argsort(-sims)[: self.k]
                w = np.clip(sims[top], 1e-3, None)
                score = float((w * self._labels[top]).sum() / w.sum())
                why.append(f"examples vote {score:.2f} for skg (k={len(top)})")
            if self.probe is not None:
                try:
                    kind, grounded, confidence = self.probe(question)
                except Exception as e:
                    why.append(f"compiler probe failed: {type(e).__name__}")
                else:
                    if kind in ("count", "superlative", "compare"):
                        score += 0.3
                        why.append(f"{kind} question → specs (+0.3)")
                    if grounded:
                        score += 0.15 * min(grounded, 2)
                        why.append(f"{grounded} constraint(s) grounded in the specs (+{0.15 * min(grounded, 2):.2f})")
                    if confidence < 0.35:  # a condition only prose states, or nothing the specs can read
                        score -= 0.3
                        why.append(f"compiler confidence {confidence:.2f} → text (-0.3)")
            score = float(min(1.0, max(0.0, score)))
            out.append(RouteDecision("skg" if score >= self.threshold else "tkg", round(score, 3), tuple(why)))
        return out


@dataclass
class LLMRouter:
    """An LLM picks ``skg`` or ``tkg`` (JSON with an enum: a constrained choice on servers that
    support schemas, validated otherwise); on any failure the ``fallback`` router decides."""

    llm: LLM
    fallback: ExampleRouter
    examples: dict[str, list[str]] = field(default_factory=load_examples)
    shots: int = 3
    max_tokens: int = 20

    def _prompt(self, question: str) -> str:
        lines = [
            "Choose how to answer a shopper's question about a product catalog.",
            "skg: a knowledge graph built from specification tables. Best for lists filtered by specs or price, "
            "counts, cheapest/largest, and comparing specs of named products.",
            "tkg: the product pages' descriptive text. Best for marketing claims, what is in the box, "
            "advice and open questions that no spec column answers.",
            "",
            "Examples:",
        ]
        for m in METHODS:
            lines += [f'Q: {q}\nA: {{"method": "{m}"}}' for q in self.examples[m][: self.shots]]
        lines += ["", f"Q: {question}\nA:"]
        return "\n".join(lines)

    def route(self, questions: list[str]) -> list[RouteDecision]:
        schema = {
            "type": "object",
            "properties": {"method": {"enum": list(METHODS)}},
            "required": ["method"],
            "additionalProperties": False,
        }
        reqs = [
            ChatRequest(
                ({"role": "user", "content": self._prompt(q)},),
                schema=schema,
                max_tokens=self.max_tokens,
                prompt_version=ROUTER_PROMPT_VERSION,
                stage="router",
            )
            for q in questions
        ]
        results: Sequence[ChatResult | None]
        failure: str | None
        try:
            results = self.llm.complete(reqs) if reqs else []
        except Exception as e:
            results = [None] * len(reqs)
            failure = f"{type(e).__name__}: {e}"
        else:
            failure = None
        backup = None
        out = []
        for i, (_q, r) in enumerate(zip(questions, results)):
            method = (
                (r.parsed or {}).get("method")
                if r is not None and r.error is None and isinstance(r.parsed, dict)
                else None
            )
            if r is not None and method in METHODS:  # (method is None without a result)
                out.append(
                    RouteDecision(
                        method, 1.0 if method == "skg" else 0.0, ("llm router",), r.prompt_tokens, r.completion_tokens
                    )
                )
                continue
            if backup is None:
                backup = self.fallback.route(list(questions))
            why = failure or (
                r.error if r is not None and r.error else f"unexpected router output {getattr(r, 'text', '')[:60]!r}"
            )
            d = backup[i]
            out.append(
                RouteDecision(
                    d.method,
                    d.score,
                    (f"llm router failed ({why}); example router used", *d.why),
                    getattr(r, "prompt_tokens", 0) or 0,
                    getattr(r, "completion_tokens", 0) or 0,
                )
            )
        return out
