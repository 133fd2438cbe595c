"""The agentic strategy without a model: a bounded plan over the two retrievers.

Each question goes through at most ``kit.max_steps`` steps, every one in the trace:

1. **answer from the specs** (the compiler);
2. **check** the answer: failed, no winner for a comparison or an extreme, a dropped or weak
   constraint, an empty list after a doubtful grounding; for a list that passed, probe the
   text for a phrase of the question the query left out (:func:`ignored_condition`);
3. if the check fails, **consult the text**, and **reconcile**: products both views return
   (specs scope them, text confirms the fact the specs lack), else the text's answer when it
   is anchored on a phrase of the question, else the specs' answer if one ran;
4. **stop**: the plan never loops back, so its cost is bounded (two retrievals per question).

The LLM agent (:class:`dualgraph.answer.agent_llm.LLMAgent`) replaces this plan when an LLM
is configured and uses it as its fallback.
"""

from __future__ import annotations

from dualgraph.answer.strategies import (
    LIST_INTENTS,
    Outcome,
    Toolkit,
    asked_of_text,
    ignored_condition,
    needs_fallback,
    reconcile,
)

__all__ = ["Planner"]


class Planner:
    """The deterministic agent; ``run`` has the signature the ``agentic`` strategy calls."""

    def run(self, questions: list[str], kit: Toolkit) -> list[Outcome]:
        first = kit.symbolic.ask(questions)
        outcomes = [Outcome(r, ["skg"], [r], trace=["step 1: answer from the specs"]) for r in first]
        todo: list[tuple[int, bool]] = []
        for i, r in enumerate(first):
            why = needs_fallback(r, min_confidence=kit.min_confidence, empty_min_confidence=kit.empty_min_confidence)
            can_go_on = kit.textual is not None and kit.max_steps >= 3
            if why is None and r.intent in LIST_INTENTS and can_go_on:
                outcomes[i].trace.append(
                    f"step 2: check passed (confidence {r.confidence:.2f}); "
                    "probe the text for a condition the query ignored"
                )
                todo.append((i, True))
            elif why is None:
                outcomes[i].trace.append(f"step 2: check passed (confidence {r.confidence:.2f}); stop")
            elif not can_go_on:
                outcomes[i].trace.append(f"step 2: check failed ({why}); no further step available; stop")
            else:
                outcomes[i].trace.append(f"step 2: check failed ({why})")
                todo.append((i, False))
        textual = kit.textual
        if not todo or textual is None:  # todo holds questions only when there is a text to consult
            return outcomes
        texts = textual.ask([questions[i] for i, _ in todo], unread=[asked_of_text(first[i]) for i, _ in todo])
        for (i, probe), t in zip(todo, texts):
            o = outcomes[i]
            if probe:
                missed = ignored_condition(first[i], t)
                if missed is None:
                    o.trace.append("step 3: the text reads no condition the query ignored; stop")
                    continue
                o.trace.append(f"step 3: the text reads a condition the query ignored ({missed!r})")
            else:
                o.trace.append("step 3: consult the text")
            o.route.append("tkg")
            o.used.append(t)
            o.result = reconcile(first[i], t, o.trace, confident=probe, any_intent=True)
            o.trace.append("step 4: stop")
        return outcomes
