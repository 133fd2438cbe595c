"""A bounded beam over readings of a question, each checked on the store.

The compiler answers with its best joint reading first: every mention grounded to its best
candidate. That costs nothing extra when the store agrees. When it does not — a list, a
superlative or a count of products comes back empty although the question expects members —
the emptiness is evidence against the reading, not an answer: most such results come from one
mention grounded to the wrong thing (a scope noun read as a rare prose feature, a length read
from the wrong column), rarely from a catalogue that truly holds nothing.

So the other readings are scored and the best few checked with an existence query
(``LIMIT 1``), in score order:

- a mention swapped to its runner-up grounding (``Grounding.alternatives``, e.g. the next entry
  of that unit whose values hold the number): score ``alt / first`` of the two confidences;
- a weakly grounded mention of the question's subject read as *no constraint* (confidence below
  :attr:`BeamConfig.drop_below`): score ``none_score / first``. Its phrase is then reported
  **unread**, never dropped silently. A confidently grounded mention is not dropped: its empty
  result is believed. Nor is a condition put on the subject ("with a ceramic back", "lack digital
  zoom", "under 1 kg"): nothing meeting it is a credible answer (see :func:`droppable`).

The first reading the store confirms is taken; the answer's confidence is the first reading's
times that score, and the trace lists every reading checked with its score and outcome
(``--explain`` shows the beam). Nothing is checked when the first reading found members, so the
cost follows the questions that need it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from dualgraph.lexicon.pattern import filled
from dualgraph.query.caps import BEAM_CHECK, BEAM_WIDTH, RUNNER_UPS, CapHit, add_cap
from dualgraph.query.ground.numbers import RUNNERS_UP
from dualgraph.query.read.model import Intent
from dualgraph.query.read.numbers import unit_word
from dualgraph.query.sparql.emit import products_query, select_query, where_clauses
from dualgraph.query.sparql.safety import run_select
from dualgraph.stores.base import QueryTimeout

if TYPE_CHECKING:
    from dualgraph.query.ground.base import Grounding

__all__ = [
    "BeamConfig",
    "Emission",
    "Reading",
    "alternatives",
    "droppable",
    "expects_members",
    "phrase_of",
    "reconsider",
]


class BeamConfig(BaseModel):
    """How far the reader looks past its first reading (see the module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    width: int = Field(6, ge=0, description="Readings checked on the store after the first fails (0: never look).")
    none_score: float = Field(
        0.3, gt=0, le=1, description="Score of reading a weak mention as no constraint (its phrase is reported unread)."
    )
    drop_below: float = Field(
        0.8,
        gt=0,
        le=1,
        description="Only a mention grounded with less confidence than this may be read as no constraint.",
    )
    check_timeout_s: float = Field(
        2.0, gt=0, description="Seconds one existence check may take; one that times out confirms nothing."
    )


@dataclass(slots=True)
class Emission:
    """Everything the query is written from, so it can be written again with other groundings for
    the mentions in ``rest`` (the constraints and scope; named products and ordering stay)."""

    intent: Intent
    products: list[str]
    named: list[Grounding]
    rest: list[Grounding]
    extra_blocks: list[str] = field(default_factory=list)
    """Blocks after the mentions': a relative reference's, the ordering value's, a tie-breaker's."""
    extra_filters: list[str] = field(default_factory=list)
    ordered: bool = False
    tie_broken: bool = False
    count_ranges: bool = False
    subject_end: int = 0
    """Where the question's subject ends (see :func:`droppable`)."""
    share_of: tuple[list[str], list[str]] | None = None
    """The blocks and filters of the products a share is taken of (see :func:`select_query`)."""

    def where(self, rest: list[Grounding] | None = None) -> tuple[list[str], list[str]]:
        """The blocks and filters of the question's query with ``rest`` (default: the first reading's)."""
        blocks, filters = where_clauses(self.products, self.named, self.rest if rest is None else rest)
        return blocks + self.extra_blocks, filters + self.extra_filters

    def sparql(self, rest: list[Grounding] | None = None) -> str:
        """The question's query with ``rest`` (default: the first reading's groundings)."""
        return self.query(*self.where(rest))

    def query(self, blocks: list[str], filters: list[str]) -> str:
        """The question's query over ``blocks`` and ``filters`` (as :meth:`where` gives them)."""
        return select_query(
            self.intent,
            blocks,
            filters,
            ordered=self.ordered,
            tie_broken=self.tie_broken,
            count_ranges=self.count_ranges,
            share_of=self.share_of,
        )

    def exists_query(self, rest: list[Grounding]) -> str:
        """Whether any product satisfies the reading ``rest``: one row at most, no ordering."""
        blocks, filters = where_clauses(self.products, self.named, rest)
        return products_query(blocks + self.extra_blocks, filters + self.extra_filters, limit=1)


@dataclass(slots=True)
class Reading:
    """One joint reading of the question's mentions, scored against the first one (1.0)."""

    rest: list[Grounding]
    score: float
    change: str
    """What differs from the first reading, in words."""
    unread: list[str] = field(default_factory=list)
    """Phrases this reading takes as no constraint."""
    found: bool | None = None
    """What the store said: products exist, none, or ``None`` (not checked, or timed out)."""


def phrase_of(gr: Grounding) -> str:
    """The question's words a grounding came from."""
    span = getattr(gr.source, "span", None)
    return span.text if span is not None else str(getattr(gr.source, "phrase", "") or gr.kind)


def expects_members(intent: Intent, has_named: bool) -> bool:
    """Whether an empty result is evidence against the reading: lists, rankings and counts ask
    about products that exist; a yes/no about a named product may well be "no"."""
    return intent.kind in ("list", "count", "superlative", "average") or (intent.kind == "yesno" and not has_named)


def droppable(gr: Grounding, subject_end: int) -> bool:
    """Whether a mention may be read as no constraint when its result is empty: a word of the
    question's subject, before its first verb or preposition ("Which GPUs came out in 2017": a
    scope noun, which may name what the catalog sells or nothing it knows), or a bare unit word
    ("… in GHz": the unit an answer is wanted in). A condition the question puts on its subject
    ("with a ceramic back", "that lack digital zoom", "under 1 kg") is not: when nothing meets it,
    "none" is a credible answer, and the text is consulted as for any doubtful empty answer."""
    if getattr(gr.source, "negated", False):
        return False
    span = getattr(gr.source, "span", None)
    if span is None:
        return False
    return span.end <= subject_end or unit_word(span.text.strip())


def alternatives(rest: list[Grounding], config: BeamConfig, subject_end: int = 0) -> list[Reading]:
    """The readings one change away from ``rest``, best score first (at most ``config.width``);
    ``subject_end``: where the question's subject ends (see :func:`droppable`)."""
    return _every_reading(rest, config, subject_end)[: config.width]


def _every_reading(rest: list[Grounding], config: BeamConfig, subject_end: int) -> list[Reading]:
    """Every reading one change away from ``rest``, best score first (one per runner-up and per
    droppable mention: linear in the mentions)."""
    out: list[Reading] = []
    for i, gr in enumerate(rest):
        if not gr.resolved or gr.kind == "relative" or gr.confidence <= 0:
            continue
        phrase = phrase_of(gr)
        for alt in gr.alternatives:
            swapped = [*rest[:i], alt, *rest[i + 1 :]]
            what = alt.note or alt.kind
            out.append(Reading(swapped, min(1.0, alt.confidence / gr.confidence), f"{phrase!r} read as {what}"))
        if gr.confidence < config.drop_below and droppable(gr, subject_end):
            dropped = [*rest[:i], replace(gr, resolved=False, note="read as no constraint"), *rest[i + 1 :]]
            score = min(1.0, config.none_score / gr.confidence)
            out.append(Reading(dropped, score, f"{phrase!r} read as no constraint", unread=[phrase]))
    out.sort(key=lambda r: -r.score)
    return out


def reconsider(
    store: Any,
    emission: Emission,
    config: BeamConfig,
    trace: list[str],
    *,
    row_timeout_s: float | None = None,
    caps: list[CapHit] | None = None,
) -> Reading | None:
    """The best reading the store confirms, after the first one found nothing; ``None`` when no
    other reading is confirmed (the first one's empty answer stands). Every check goes to ``trace``;
    ``caps`` gets the caps the beam reached where they may have cut the reading it needed (see
    :mod:`dualgraph.query.caps`): checks that timed out, readings past the width or runner-up
    entries past their cap, left unchecked while no checked reading was confirmed."""
    every = _every_reading(emission.rest, config, emission.subject_end)
    readings = every[: config.width]
    if not readings:
        return None
    trace.append(f"beam: the first reading found no product; checking {len(readings)} other readings on the store")
    timeout = min(config.check_timeout_s, row_timeout_s or config.check_timeout_s)
    chosen: Reading | None = None
    timed_out: list[str] = []
    for r in readings:
        try:
            res = run_select(store, filled(emission.exists_query(r.rest)), row_cap=1, timeout_s=timeout)
            r.found = bool(res.rows)
        except Exception as e:  # a timed-out or refused check confirms nothing; the next one may
            trace.append(f"beam: {r.change}: check failed ({type(e).__name__})")
            if isinstance(e, QueryTimeout):
                timed_out.append(r.change)
            continue
        trace.append(f"beam: {r.change} (score {r.score:.2f}): {'products found' if r.found else 'none'}")
        if r.found:
            chosen = r
            break
    if chosen is not None:
        trace.append(f"beam: answering with the reading where {chosen.change}")
    if caps is not None:
        _beam_caps(caps, emission, config, timeout, timed_out, every[len(readings) :], confirmed=chosen is not None)
    return chosen


def _beam_caps(
    caps: list[CapHit],
    emission: Emission,
    config: BeamConfig,
    timeout: float,
    timed_out: list[str],
    unchecked: list[Reading],
    *,
    confirmed: bool,
) -> None:
    """The beam's caps that cut a reading it might have answered with (each lowers the answer's
    confidence): a check that timed out (it may have been the reading meant, even when a later one
    was confirmed); readings past the width and runner-up entries past their cap, when no reading
    was confirmed (a confirmed reading outranks everything left unchecked)."""
    if timed_out:
        what = f"{len(timed_out)} check(s) timed out, confirming nothing: " + "; ".join(timed_out)
        add_cap(caps, BEAM_CHECK.hit(timeout, what, lowered=True))
    if confirmed:
        return
    if unchecked:
        what = f"{len(unchecked)} more reading(s) left unchecked, none of those checked confirmed: " + "; ".join(
            r.change for r in unchecked
        )
        add_cap(caps, BEAM_WIDTH.hit(config.width, what, lowered=True))
    left = [
        f"{phrase_of(gr)!r}: {gr.alternatives_left} more entr{'y' if gr.alternatives_left == 1 else 'ies'}"
        for gr in emission.rest
        if gr.alternatives_left and gr.resolved and gr.kind != "relative" and gr.confidence > 0
    ]
    if left:
        what = "runner-up entries never tried as readings: " + "; ".join(left)
        add_cap(caps, RUNNER_UPS.hit(RUNNERS_UP, what, lowered=True))
