"""The seven answering strategies, each a batch function over a :class:`Toolkit`.

==============  ===========================================================================
``tkg``         Textual KG only.
``skg``         Symbolic KG only (the compiler; LLM SPARQL when an LLM is configured).
``concat``      both always run; the symbolic answer stands unless it needs a fallback.
``skg+tkg_fb``  symbolic first; the text is consulted when the symbolic answer fails *or*
                is doubtful (default).
``router``      one retriever per question, chosen by the router.
``router+tkg_fb`` the router's choice, with the fallback when it chose the specs.
``agentic``     a bounded plan: answer, check, consult the other view, reconcile, stop
                (an LLM tool loop when an LLM is configured: :mod:`dualgraph.answer.agentic`).
==============  ===========================================================================

"Doubtful" (:func:`needs_fallback`): an error, no query, a grounding confidence under
``min_confidence`` (a constraint was dropped or matched weakly), or an empty answer whose
grounding was not near-certain — an empty list from a fully grounded query is an answer
("no Samsung phone has an IR blaster"), an empty list after a shaky grounding is not.

On a fallback both answers are reconciled (:func:`reconcile`): when both views return
products and they overlap, the overlap is the answer (the specs scope it, the text confirms
the fact the specs lack); otherwise the text's answer, unless it found nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from dualgraph.answer.record import TokenCounts
from dualgraph.answer.sources import SourceResult
from dualgraph.answer.text_reader import ANCHORED, fold
from dualgraph.lexicon.english import general_words
from dualgraph.query.read.coverage import uncovered_words

if TYPE_CHECKING:
    from dualgraph.answer.router import RouteDecision

__all__ = ["STRATEGIES", "Outcome", "Toolkit", "asked_of_text", "needs_fallback", "reconcile", "run_strategy"]

STRATEGIES = ("tkg", "skg", "concat", "skg+tkg_fb", "router", "router+tkg_fb", "agentic")
LIST_INTENTS = ("list", "yesno")


class Source(Protocol):
    """A retriever the strategies consult (:class:`dualgraph.answer.sources.SymbolicSource`, ``TextualSource``)."""

    def ask(self, questions: list[str], *, unread: list[tuple[str, ...]] | None = None) -> list[SourceResult]:
        """One result per question. ``unread``: per question, the phrases another source could not
        read, for a source that can look for them (the text); others ignore it."""
        ...


class Router(Protocol):
    """Picks a retriever per question (:mod:`dualgraph.answer.router`)."""

    def route(self, questions: list[str]) -> list[RouteDecision]: ...


class Agent(Protocol):
    """Runs the ``agentic`` strategy (:class:`dualgraph.answer.agentic.Planner`, ``LLMAgent``)."""

    def run(self, questions: list[str], kit: Toolkit) -> list[Outcome]: ...


@dataclass
class Toolkit:
    """What the strategies work with. ``textual`` may be None (an index without a Textual KG)."""

    symbolic: Source
    textual: Source | None = None
    router: Router | None = None
    agent: Agent | None = None
    min_confidence: float = 0.6
    empty_min_confidence: float = 0.8
    max_steps: int = 4


@dataclass
class Outcome:
    """A strategy's answer to one question: the chosen structure and everything consulted."""

    result: SourceResult
    route: list[str]
    used: list[SourceResult] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    tokens: TokenCounts = field(default_factory=TokenCounts)
    """Tokens spent outside the sources (router, agent)."""
    text: str | None = None
    """Answer text already written (the LLM agent's own answer); None: rendered later."""


def needs_fallback(r: SourceResult, *, min_confidence: float = 0.6, empty_min_confidence: float = 0.8) -> str | None:
    """Why ``r`` should not be trusted alone, or None.

    >>> needs_fallback(SourceResult("skg", error="boom"))
    'failed: boom'
    >>> needs_fallback(SourceResult("skg", answer_list=["A"], confidence=0.9, sparql="q")) is None
    True
    >>> needs_fallback(SourceResult("skg", answer_list=[], confidence=0.7, sparql="q"))
    'empty answer after a doubtful grounding (confidence 0.70)'
    """
    if r.error:
        return f"failed: {r.error}"
    if r.source == "skg" and not r.sparql:
        return "no query"
    if r.confidence < min_confidence:
        return f"low confidence {r.confidence:.2f}"
    if r.empty and r.confidence < empty_min_confidence:
        return f"empty answer after a doubtful grounding (confidence {r.confidence:.2f})"
    if r.intent in ("superlative", "compare", "average", "sum", "median", "spread") and r.value is None:
        return f"{r.intent} without a winner"
    return None


def reconcile(
    sym: SourceResult, txt: SourceResult, trace: list[str], *, confident: bool = False, any_intent: bool = False
) -> SourceResult:
    """The answer after a fallback (see the module docstring). ``confident``: the symbolic
    answer passed its checks (the text was only probed), so only an overlap may narrow it.
    ``any_intent``: overlap the products of any intent, not only lists (the agentic plan),
    the value following the overlap (its first product, or its size for a count)."""
    if txt.error:
        trace.append(f"text failed too ({txt.error}); keeping the symbolic answer")
        return sym
    if sym.refused and (txt.empty or txt.confidence < ANCHORED):
        trace.append("the text found no phrase to stand on either: the question is answered with a refusal")
        return sym
    if sym.answer_list and txt.answer_list and (any_intent or sym.intent in LIST_INTENTS) and not sym.error:
        both = [p for p in sym.answer_list if p in set(txt.answer_list)]
        if both:
            trace.append(
                f"specs and text agree on {len(both)} of {len(sym.answer_list)}/{len(txt.answer_list)} products:"
                " the overlap is the answer"
            )
            joint = SourceResult(
                "skg+tkg",
                intent=sym.intent,
                answer_list=both,
                value=_overlap_value(sym.intent, both),
                confidence=max(sym.confidence, txt.confidence),
                context=sym.context + "\n\n" + txt.context,
                sparql=sym.sparql,
                rows=sym.rows,
                rows_total=sym.rows_total,
                chunk_ids=txt.chunk_ids,
            )
            return joint
    if confident and not sym.error and sym.sparql:
        trace.append("no product of the confident symbolic answer is in the text's answer; keeping the symbolic one")
        return sym
    if (txt.empty or txt.confidence < ANCHORED) and not sym.error and sym.sparql:
        trace.append(
            "the text found nothing it can stand on (no phrase of the question anchors it); keeping the symbolic answer"
        )
        return sym
    trace.append("the text's answer replaces the symbolic one")
    return txt


def _overlap_value(intent: str, both: list[str]):
    if intent == "yesno":
        return "yes" if both else "no"
    if intent in ("superlative", "compare", "describe"):
        return both[0]
    return len(both) if intent == "count" else None


def ignored_condition(sym: SourceResult, txt: SourceResult) -> str | None:
    """The phrase the text read the question by, when the specs' query left it out.

    A list question can hold a condition no spec states ("ship in plastic-free packaging",
    "tilt with a fingertip"); the compiler then answers the rest of the question — with
    confidence, since nothing it grounded was weak. The text reader names the phrase its
    answer hangs on; if no part of the question the parser read covers that phrase, the
    symbolic answer is missing a condition.

    >>> sym = SourceResult("skg", covered=["TV mounts"])
    >>> ignored_condition(sym, SourceResult("tkg", anchor="fingertip tilt"))
    'fingertip tilt'
    >>> ignored_condition(SourceResult("skg", covered=["S Pen", "tablets"]), SourceResult("tkg", anchor="s pen")) is None
    True

    The anchor's grammar words are no condition ("water and ice dispenser" read as two features):

    >>> sym = SourceResult("skg", covered=["water dispenser", "ice dispenser"])
    >>> ignored_condition(sym, SourceResult("tkg", anchor="water and ice dispenser")) is None
    True
    """
    if not txt.anchor or txt.error:
        return None
    covered = f" {' '.join(fold(c) for c in sym.covered)} "
    grammar = general_words("function_words")
    if all(f" {w} " in covered or w in grammar for w in fold(txt.anchor).split()):
        return None
    return txt.anchor


def _fallback(kit: Toolkit, questions: list[str], first: list[SourceResult], outcomes: list[Outcome]) -> None:
    """Consult the text for every doubtful symbolic answer, and probe it for list questions the
    specs answered confidently (a condition they may have ignored); one batch; then reconcile."""
    if kit.textual is None:
        for i, r in enumerate(first):
            why = needs_fallback(r, min_confidence=kit.min_confidence, empty_min_confidence=kit.empty_min_confidence)
            if why:
                outcomes[i].trace.append(f"would fall back ({why}) but the index has no Textual KG")
        return
    todo: list[tuple[int, str | None]] = []
    for i, r in enumerate(first):
        why = needs_fallback(r, min_confidence=kit.min_confidence, empty_min_confidence=kit.empty_min_confidence)
        if why:
            outcomes[i].trace.append(f"fallback to text: {why}")
            todo.append((i, why))
        elif r.intent in LIST_INTENTS:
            if r.covered and not uncovered_words(questions[i], r.covered):
                # the probe looks for a condition the specs' query ignored: with every word read there is none
                outcomes[i].trace.append("text probe skipped: the specs' query read every word of the question")
                continue
            todo.append((i, None))
    if not todo:
        return
    texts = kit.textual.ask([questions[i] for i, _ in todo], unread=[asked_of_text(first[i]) for i, _ in todo])
    for (i, why), t in zip(todo, texts):
        o = outcomes[i]
        t = within_scope(kit.symbolic, first[i], t, o.trace)
        if why is None:
            missed = ignored_condition(first[i], t)
            if missed is None:
                o.trace.append("text probe: the specs' query covers every phrase the text reads")
                continue
            o.trace.append(f"fallback to text: it reads a condition the specs' query ignored ({missed!r})")
        o.route.append("tkg")
        o.used.append(t)
        o.result = reconcile(first[i], t, o.trace, confident=why is None)


def asked_of_text(sym: SourceResult) -> tuple[str, ...]:
    """What the text should look for first: the phrases the specs left unread, when the specs read no
    condition beyond the scope ("Which downhill bikes are hardtails?"). Beside conditions they did
    read, unread words are mostly the question's own wording ("fit", "hold"; "I'm a student who
    takes handwritten notes"): steering the text by them lost answers on the Icecat dev set (0.971
    to 0.806 by the pages' words, to 0.942 by entity names alone), so nothing is asked then. A
    question the specs refused (they read nothing at all) is all unread words."""
    return () if sym.restricts and not sym.refused else tuple(sym.unread)


def within_scope(symbolic: Source, sym: SourceResult, txt: SourceResult, trace: list[str]) -> SourceResult:
    """The text's answer less the products outside the scope the symbolic side grounded (a brand,
    a line, a category): the text reads pages by their words, and "Celeron processors without ECC"
    must not come back with the Core i5 pages that mention ECC."""
    names_of = getattr(symbolic, "scope_names", None)
    if not txt.answer_list or not callable(names_of):
        return txt
    try:
        names = names_of(sym)
    except Exception as e:  # the scope could not be read: say so, keep the text's answer
        trace.append(f"text answer not checked against the scope ({type(e).__name__})")
        return txt
    if names is None:
        return txt
    inside = [p for p in txt.answer_list if p in names]
    if len(inside) == len(txt.answer_list):
        return txt
    trace.append(f"text answer kept within the grounded scope: {len(inside)} of {len(txt.answer_list)} products")
    value = txt.value
    if txt.intent == "count":
        value = len(inside)
    elif txt.intent in ("superlative", "compare", "describe"):
        value = inside[0] if inside else None
    elif txt.intent == "yesno":
        value = "yes" if inside else "no"
    return replace(txt, answer_list=inside, value=value)


def _textual(kit: Toolkit, questions: list[str]) -> list[SourceResult]:
    if kit.textual is None:
        return [SourceResult("tkg", error="this index has no Textual KG (indexed with --no-tkg)") for _ in questions]
    return kit.textual.ask(questions)


EMPTY_FACTOR = 0.8
"""The confidence an empty final answer keeps: nothing found is more often a misreading than a true
"none". Measured (bench/confidence_auc.py, skg+tkg_fb): pooled AUC over devmix, devmix_b, devmix_c
(first contact and after fixes) and Smartprix raw 0.705 → 0.744 (0.7 and 0.5 gain no more)."""


def run_strategy(name: str, questions: list[str], kit: Toolkit) -> list[Outcome]:
    """One :class:`Outcome` per question, in order; an empty answer's confidence is lowered by
    :data:`EMPTY_FACTOR` once the strategy has chosen it (the choice itself is not changed)."""
    outcomes = _run_strategy(name, questions, kit)
    for o in outcomes:
        if o.result.empty and o.result.error is None:
            o.result = replace(o.result, confidence=round(o.result.confidence * EMPTY_FACTOR, 4))
            o.trace.append(f"empty answer: confidence × {EMPTY_FACTOR}")
    return outcomes


def _run_strategy(name: str, questions: list[str], kit: Toolkit) -> list[Outcome]:
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}")
    if not questions:
        return []
    if name == "tkg":
        return [Outcome(r, ["tkg"], [r]) for r in _textual(kit, questions)]
    if name == "agentic":
        if kit.agent is None:
            raise ValueError("the agentic strategy needs an agent in the toolkit")
        return kit.agent.run(questions, kit)
    if name in ("router", "router+tkg_fb"):
        return _routed(kit, questions, fallback=name == "router+tkg_fb")
    first = kit.symbolic.ask(questions)
    outcomes = [Outcome(r, ["skg"], [r]) for r in first]
    if name == "concat":
        texts = _textual(kit, questions)
        for i, (o, t) in enumerate(zip(outcomes, texts)):
            t = within_scope(kit.symbolic, first[i], t, o.trace)
            o.route.append("tkg")
            o.used.append(t)
            why = needs_fallback(
                first[i], min_confidence=kit.min_confidence, empty_min_confidence=kit.empty_min_confidence
            )
            if why is None and first[i].intent in LIST_INTENTS and (missed := ignored_condition(first[i], t)):
                why = f"the text reads a condition the specs' query ignored ({missed!r})"
            if why:
                o.trace.append(f"symbolic answer doubtful ({why})")
                o.result = reconcile(
                    first[i],
                    t,
                    o.trace,
                    confident=needs_fallback(
                        first[i], min_confidence=kit.min_confidence, empty_min_confidence=kit.empty_min_confidence
                    )
                    is None,
                )
            else:
                o.result = SourceResult(
                    **{**_fields(first[i]), "context": first[i].context + "\n\n" + t.context, "chunk_ids": t.chunk_ids}
                )
                o.trace.append("symbolic answer kept; the text is added as context")
    elif name == "skg+tkg_fb":
        _fallback(kit, questions, first, outcomes)
    return outcomes


def _fields(r: SourceResult) -> dict:
    return {k: getattr(r, k) for k in r.__slots__}


def _routed(kit: Toolkit, questions: list[str], *, fallback: bool) -> list[Outcome]:
    if kit.router is None:
        raise ValueError("the router strategies need a router in the toolkit")
    decisions = kit.router.route(questions)
    outcomes: list[Outcome | None] = [None] * len(questions)
    by_method: dict[str, list[int]] = {}
    for i, d in enumerate(decisions):
        by_method.setdefault(d.method, []).append(i)
    memo = getattr(kit.symbolic, "compiled", {})
    for i in by_method.get("tkg", []):
        memo.pop(questions[i], None)  # compiled only to be judged: the text answers it
    for method, idx in by_method.items():
        qs = [questions[i] for i in idx]
        results = kit.symbolic.ask(qs) if method == "skg" else _textual(kit, qs)
        for i, r in zip(idx, results):
            d = decisions[i]
            outcomes[i] = Outcome(
                r,
                [method],
                [r],
                trace=[f"router → {d.method} (skg score {d.score}): " + "; ".join(d.why)],
                tokens=TokenCounts(prompt=d.prompt_tokens, completion=d.completion_tokens),
            )
    done: list[Outcome] = [o for o in outcomes if o is not None]
    if fallback and "skg" in by_method:
        idx = by_method["skg"]
        sub = [done[i] for i in idx]
        _fallback(kit, [questions[i] for i in idx], [o.result for o in sub], sub)
    return done
