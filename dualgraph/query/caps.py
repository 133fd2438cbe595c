"""The bounds on one question's work, and how an answer says which of them it reached.

Every set the reader and the answer path build for a question has a cap, so that no question can
grow its work without end; a cap that cuts something is never silent: the answer record lists it
(``AnswerRecord.caps``) as a :class:`CapHit` naming the cap, its limit and what it cut. Where the cut
touched what the answer rests on, the answer's confidence is lowered for it (``lowered``).

The limits live where they are used (a module constant, or a config field where one is set by the
user); :data:`CAPS` names every cap, with its unit and what it bounds, for the documentation and the
tests. Nothing here reads a store or a model: importing this module is cheap.

>>> hit = CONDITIONS.hit(24, "'with a red lid', 'in steel': not read", lowered=True)
>>> hit.name, hit.limit, hit.unit
('conditions', 24, 'conditions')
>>> merged = add_cap([hit], CONDITIONS.hit(24, "'under 2 kg': not read", lowered=True))
>>> len(merged), merged[0].what
(1, "'with a red lid', 'in steel': not read; 'under 2 kg': not read")
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "BEAM_CHECK",
    "BEAM_WIDTH",
    "CAPS",
    "CAP_FACTOR",
    "CONDITIONS",
    "DEADLINE",
    "MEMORY",
    "PROSE_ENTITIES",
    "QUERY_ROWS",
    "QUERY_TIMEOUT",
    "QUESTION_CHARS",
    "RUNNER_UPS",
    "TEXT_GUESS_CHUNKS",
    "TWIN_ENTRIES",
    "Cap",
    "CapHit",
    "add_cap",
]

CAP_FACTOR = 0.8
"""What a confidence is multiplied by for a cap that cut what the answer rests on (once per cap). A
mention left unread by a cap is not lowered again: every unread mention already halves it."""


class CapHit(BaseModel):
    """One cap this question's work reached: which, its limit, and what it cut."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(..., description="the cap's name (one of dualgraph.query.caps.CAPS), e.g. 'beam_width'")
    limit: int | float = Field(..., description="the cap's limit when this question reached it, in 'unit'")
    unit: str = Field(..., description="what the limit counts: 'readings', 'rows', 's', 'MB', 'characters', …")
    what: str = Field(..., description="what the cap cut for this question, in words")
    lowered: bool = Field(
        False,
        description="true when the cut touched what the answer rests on, so the answer's confidence is lower for "
        "it (by CAP_FACTOR, or as an unread mention); false when the answer cannot have changed by it",
    )


@dataclass(frozen=True, slots=True)
class Cap:
    """One cap: its name in answer records, the unit of its limit, and what it bounds."""

    name: str
    unit: str
    bounds: str

    def hit(self, limit: float, what: str, *, lowered: bool = False) -> CapHit:
        """The record of this cap reached at ``limit``, having cut ``what``."""
        return CapHit(name=self.name, limit=limit, unit=self.unit, what=what, lowered=lowered)


CONDITIONS = Cap(
    "conditions",
    "conditions",
    "conditions (numbers, features, values, dates) one question is read for; those past it are left unread "
    "(dualgraph.query.interpret.compiler.MAX_CONDITIONS)",
)
PROSE_ENTITIES = Cap(
    "prose_entities",
    "entities",
    "page entities a phrase with no spec fact may name and still constrain; a phrase naming more is too vague "
    "and is left unread (dualgraph.query.ground.features.PROSE_ENTITY_CAP)",
)
TWIN_ENTRIES = Cap(
    "twin_entries",
    "entries",
    "other entries listing the same value (as well as the best one) that a value is also read from "
    "(dualgraph.query.ground.features.MAX_TWIN_ENTRIES)",
)
RUNNER_UPS = Cap(
    "runner_ups",
    "entries",
    "runner-up entries a number keeps for the beam over readings (dualgraph.query.ground.numbers.RUNNERS_UP); "
    "reported when the beam found no reading and some were left out",
)
BEAM_WIDTH = Cap(
    "beam_width",
    "readings",
    "other readings checked on the store after the first found nothing (BeamConfig.width); reported when "
    "none of those checked was confirmed and more were left unchecked",
)
BEAM_CHECK = Cap(
    "beam_check_s",
    "s",
    "seconds one existence check of the beam may take (BeamConfig.check_timeout_s); a check past it confirms nothing",
)
QUERY_ROWS = Cap(
    "query_rows",
    "rows",
    "rows read from the question's query (dualgraph.query.sparql.safety.ROW_CAP); a longer result is cut",
)
QUERY_TIMEOUT = Cap(
    "query_timeout_s",
    "s",
    "seconds the question's query may run in the store (dualgraph.query.sparql.safety.QUERY_TIMEOUT_S)",
)
TEXT_GUESS_CHUNKS = Cap(
    "text_guess_chunks",
    "chunks",
    "top voted text chunks whose products answer when no phrase of the question anchors the text "
    "(dualgraph.answer.text_reader.GUESS_CHUNKS)",
)
QUESTION_CHARS = Cap(
    "question_chars",
    "characters",
    "characters of a question that are read (AskConfig.max_question_chars); a longer question is refused",
)
DEADLINE = Cap(
    "deadline_s",
    "s",
    "seconds one engine call may take (WorkBudget.deadline_s); past it the question's work is stopped",
)
MEMORY = Cap(
    "memory_mb",
    "MB",
    "megabytes a question may add to its worker (WorkBudget.memory_mb); past it the question's work is stopped",
)

CAPS: dict[str, Cap] = {
    c.name: c
    for c in (
        CONDITIONS,
        PROSE_ENTITIES,
        TWIN_ENTRIES,
        RUNNER_UPS,
        BEAM_WIDTH,
        BEAM_CHECK,
        QUERY_ROWS,
        QUERY_TIMEOUT,
        TEXT_GUESS_CHUNKS,
        QUESTION_CHARS,
        DEADLINE,
        MEMORY,
    )
}
"""Every cap an answer record may name, by name."""


def add_cap(caps: list[CapHit], hit: CapHit) -> list[CapHit]:
    """``caps`` with ``hit`` added: a cap already listed keeps one entry, its ``what`` joined (no
    repeats) and ``lowered`` if either was. Returns the same list, changed."""
    for i, old in enumerate(caps):
        if old.name == hit.name:
            what = old.what if hit.what in old.what.split("; ") else f"{old.what}; {hit.what}"
            caps[i] = old.model_copy(update={"what": what, "lowered": old.lowered or hit.lowered})
            return caps
    caps.append(hit)
    return caps
