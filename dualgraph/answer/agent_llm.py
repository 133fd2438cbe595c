"""The agentic strategy with an LLM: a bounded tool loop over the two retrievers, with a self-check.

Every step the model answers with one JSON action (schema-constrained): call ``skg`` or
``tkg`` with a (sub-)question, or ``answer``. Tool observations are cut to
``max_observation_chars`` *characters* (the reference sliced a list and so cut nothing).
The loop stops at ``max_steps`` or when the question's ``max_tokens`` are spent; a
question that ends without an accepted answer gets the deterministic plan's answer
(:class:`dualgraph.answer.agentic.Planner`), and the trace says so.

Self-check: an answer given before any tool was used is sent back once; a final answer may
only name products that some observation named (unknown names are sent back once for
revision, then dropped). Questions are stepped together, so
each step is one batched LLM call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from dualgraph.answer.record import TokenCounts
from dualgraph.answer.sources import SourceResult
from dualgraph.answer.strategies import Outcome, Toolkit
from dualgraph.models.base import ChatRequest
from dualgraph.query.read.parse import parse_question

__all__ = ["ACTION_SCHEMA", "AGENT_PROMPT_VERSION", "LLMAgent"]

AGENT_PROMPT_VERSION = "agent-v1"
# No maxLength/maxItems: llama.cpp unrolls them into grammars that fail to compile (and can take
# the server down); max_tokens bounds the answer instead.
ACTION_SCHEMA = {
    "type": "object",
    "properties": {
        "action": {"enum": ["skg", "tkg", "answer"]},
        "input": {"type": "string"},
        "answer": {"type": "string"},
        "answer_list": {"type": "array", "items": {"type": "string"}},
        "value": {"type": ["string", "number", "null"]},
    },
    "required": ["action"],
    "additionalProperties": False,
}
_SYSTEM = """You answer shoppers' questions about a product catalog. You are scored on precision and recall:
name every product that answers the question and no other. Tools:
- skg: the specification knowledge graph. Best for lists filtered by specs or price, counts, extremes, comparisons.
- tkg: the product pages' text. Best for claims and facts that no specification states.
Reply with one JSON object per turn: {"action": "skg"|"tkg", "input": "<question for the tool>"} to use a tool,
or {"action": "answer", "answer": "<answer in words>", "answer_list": [<product names>], "value": <number, name or null>}.
Use product names exactly as the tools wrote them."""


@dataclass
class _State:
    question: str
    messages: list[dict[str, str]]
    used: list[SourceResult] = field(default_factory=list)
    route: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    tokens: TokenCounts = field(default_factory=TokenCounts)
    seen: set[str] = field(default_factory=set)
    final: dict[str, Any] | None = None
    revised: bool = False
    done: bool = False


@dataclass
class LLMAgent:
    llm: Any
    fallback: Any
    max_steps: int = 4
    max_tokens: int = 6000
    max_observation_chars: int = 4000
    max_completion: int = 400

    def run(self, questions: list[str], kit: Toolkit) -> list[Outcome]:
        states = [
            _State(q, [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": f"Question: {q}"}])
            for q in questions
        ]
        for step in range(1, self.max_steps + 1):
            active = [s for s in states if not s.done]
            if not active:
                break
            reqs = [
                ChatRequest(
                    tuple(s.messages),
                    schema=ACTION_SCHEMA,
                    max_tokens=self.max_completion,
                    prompt_version=AGENT_PROMPT_VERSION,
                    stage="agent",
                )
                for s in active
            ]
            try:
                results = self.llm.complete(reqs)
            except Exception as e:
                for s in active:
                    s.trace.append(f"agent step {step}: llm failed ({type(e).__name__}: {e})")
                    s.done = True
                break
            calls: dict[str, list[tuple[_State, str]]] = {"skg": [], "tkg": []}
            for s, r in zip(active, results):
                s.tokens = s.tokens + TokenCounts(prompt=r.prompt_tokens, completion=r.completion_tokens)
                act = r.parsed if r.error is None and isinstance(r.parsed, dict) else None
                if act is None:
                    s.trace.append(f"agent step {step}: invalid action ({r.error or 'no JSON'})")
                    s.messages.append({"role": "user", "content": "Reply with one JSON action as described."})
                elif act["action"] == "answer":
                    self._check(s, act, step)
                else:
                    text = str(act.get("input") or s.question)
                    s.trace.append(f"agent step {step}: {act['action']}({text!r})")
                    s.messages.append({"role": "assistant", "content": json.dumps(act, ensure_ascii=False)})
                    calls[act["action"]].append((s, text))
                if s.tokens.total >= self.max_tokens and not s.done:
                    s.trace.append(f"agent: token budget {self.max_tokens} spent")
                    s.done = True
            for tool, pending in calls.items():
                if not pending:
                    continue
                source = kit.symbolic if tool == "skg" else kit.textual
                if source is None:
                    results_ = [SourceResult(tool, error="this index has no Textual KG")] * len(pending)
                else:
                    results_ = source.ask([t for _, t in pending])
                for (s, _), res in zip(pending, results_):
                    s.used.append(res)
                    s.route.append(tool)
                    s.seen.update(res.answer_list or [])
                    s.seen.update(res.candidates)
                    s.messages.append({"role": "user", "content": "Observation:\n" + self._observe(res)})
        return self._finish(states, questions, kit)

    def _observe(self, r: SourceResult) -> str:
        head = {
            "error": r.error,
            "answer_list": (r.answer_list or [])[:100],
            "value": r.value,
            "confidence": round(r.confidence, 2),
        }
        text = json.dumps(head, ensure_ascii=False, default=str) + "\n" + r.context
        return text[: self.max_observation_chars]

    def _check(self, s: _State, act: dict[str, Any], step: int) -> None:
        if not s.used and not s.revised:  # an answer from no evidence at all is a guess
            s.revised = True
            s.trace.append(f"agent step {step}: self-check: answered before using any tool; asked to use one")
            s.messages.append({"role": "assistant", "content": json.dumps(act, ensure_ascii=False)})
            s.messages.append({"role": "user", "content": "Use the skg or tkg tool first; answer from its result."})
            return
        names = [str(n) for n in act.get("answer_list") or []]
        unknown = [n for n in names if n not in s.seen]
        if unknown and not s.revised:
            s.revised = True
            s.trace.append(
                f"agent step {step}: self-check: {len(unknown)} names not in any observation; asked to revise"
            )
            s.messages.append({"role": "assistant", "content": json.dumps(act, ensure_ascii=False)})
            s.messages.append(
                {
                    "role": "user",
                    "content": "These names appear in no tool result: "
                    + json.dumps(unknown[:20], ensure_ascii=False)
                    + ". Use tools or answer with exact names.",
                }
            )
            return
        if unknown:
            s.trace.append(f"agent step {step}: self-check dropped {len(unknown)} unknown names")
        act["answer_list"] = [n for n in dict.fromkeys(names) if n in s.seen]
        s.final, s.done = act, True
        s.trace.append(f"agent step {step}: answer with {len(act['answer_list'])} products")

    def _finish(self, states: list[_State], questions: list[str], kit: Toolkit) -> list[Outcome]:
        out: list[Outcome | None] = [None] * len(states)
        backup_idx = [i for i, s in enumerate(states) if s.final is None]
        backups = self.fallback.run([questions[i] for i in backup_idx], kit) if backup_idx else []
        for i, b in zip(backup_idx, backups):
            s = states[i]
            b.trace = s.trace + ["agent ended without an accepted answer: the deterministic plan answers"] + b.trace
            b.used = s.used + b.used
            b.route = s.route + b.route
            b.tokens = b.tokens + s.tokens
            out[i] = b
        for i, s in enumerate(states):
            if s.final is None:
                continue
            intent = parse_question(s.question).intent.kind
            act = s.final
            r = SourceResult(
                "agent",
                intent=intent,
                answer_list=act.get("answer_list"),
                value=act.get("value"),
                confidence=1.0,
                context="\n\n".join(u.context for u in s.used),
            )
            last_sql = next((u for u in reversed(s.used) if u.sparql), None)
            if last_sql is not None:
                r.sparql, r.rows, r.rows_total = last_sql.sparql, last_sql.rows, last_sql.rows_total
            o = Outcome(r, s.route or ["llm"], s.used, trace=s.trace, tokens=s.tokens)
            o.text = str(act.get("answer") or "")
            out[i] = o
        return [o for o in out if o is not None]
