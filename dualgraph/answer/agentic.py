"""The agentic strategy without a model: a bounded plan over the two retrievers.

Each question goes through at most ``kit.max_steps`` steps, every one in the trace:

1. **answer from the specs** (the compiler);
2. **check** the answer: failed, no winner for a comparison or an extreme, a dropped or weak
   constraint, an empty list after a doubtful grounding, or a list where one product name
   is the whole answer to a describe question that found nothing;
3. if the check fails, **consult the text**, and **reconcile**: products both views return
   (specs scope them, text confirms the fact the specs lack), else the text's answer when it
   is anchored on a phrase of the question, else the specs' answer if one ran;
4. **stop**: the plan never loops back, so its cost is bounded (two retrievals per question).

The LLM agent (:class:`dualgraph.answer.agent_llm.LLMAgent`) replaces this plan when an LLM
is configured and uses it as its fallback.
"""

from __future__ import annotations

from dualgraph.answer.sources import SourceResult
from dualgraph.answer.strategies import Outcome, Toolkit, needs_fallback

__all__ = ["Planner"]


class Planner:
    """The deterministic agent; ``run`` has the signature the ``agentic`` strategy calls."""

    def run(self, questions: list[str], kit: Toolkit) -> list[Outcome]:
        first = kit.symbolic.ask(questions)
        outcomes = [Outcome(r, ["skg"], [r], trace=["step 1: answer from the specs"]) for r in first]
        todo: list[int] = []
        for i, r in enumerate(first):
            why = needs_fallback(r, min_confidence=kit.min_confidence, empty_min_confidence=kit.empty_min_confidence)
            if why is None:
                outcomes[i].trace.append(f"step 2: check passed (confidence {r.confidence:.2f}); stop")
            elif kit.textual is None or kit.max_steps < 3:
                outcomes[i].trace.append(f"step 2: check failed ({why}); no further step available; stop")
            else:
                outcomes[i].trace.append(f"step 2: check failed ({why})")
                todo.append(i)
        if not todo:
            return outcomes
        texts = kit.textual.ask([questions[i] for i in todo])
        for i, t in zip(todo, texts):
            o = outcomes[i]
            o.trace.append("step 3: consult the text")
            o.route.append("tkg")
            o.used.append(t)
            o.result = self._reconcile(first[i], t, o.trace)
            o.trace.append("step 4: stop")
        return outcomes

    @staticmethod
    def _reconcile(sym: SourceResult, txt: SourceResult, trace: list[str]) -> SourceResult:
        if txt.error:
            trace.append(f"text failed ({txt.error}); keeping the specs' answer")
            return sym
        anchored = txt.confidence >= 0.8
        if sym.answer_list and txt.answer_list and not sym.error:
            both = [p for p in sym.answer_list if p in set(txt.answer_list)]
            if both:
                trace.append(f"both views agree on {len(both)} products: the overlap is the answer")
                return SourceResult("skg+tkg", intent=sym.intent, answer_list=both,
                                    value=(("yes" if both else "no") if sym.intent == "yesno" else
                                           (both[0] if sym.intent in ("superlative", "compare", "describe") else
                                            (len(both) if sym.intent == "count" else None))),
                                    confidence=max(sym.confidence, txt.confidence),
                                    context=sym.context + "\n\n" + txt.context, sparql=sym.sparql, rows=sym.rows,
                                    rows_total=sym.rows_total, chunk_ids=txt.chunk_ids)
        if anchored and not txt.empty:
            trace.append("the text is anchored on a phrase of the question: its answer stands")
            return txt
        if sym.sparql and not sym.error:
            trace.append("the text is only a guess; keeping the specs' answer")
            return sym
        trace.append("the specs failed; the text's best guess stands")
        return txt
