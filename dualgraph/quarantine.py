"""The record of input that could not be used: where it came from, at which stage, and why.

Readers of the corpus and the converter to RDF (:mod:`dualgraph.skg.triples`) both report in
it, so it sits below both instead of inside either: the symbolic graph must not import the
corpus.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class Quarantine:
    """A record that could not be used, with where it came from and why."""

    file: str
    record: str
    stage: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)
