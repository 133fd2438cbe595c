"""One searchable graph pattern: the :class:`Pattern` record, the kinds there are, and the
stable id each pattern is known by across rebuilds.

A pattern carries the linearised sentence that gets embedded and the structured facts a query
compiler needs (entry IRI, unit, min/max, product counts, the most common values), so nothing
downstream has to parse text. Snippets use ``{s}`` (the spec variable) and ``{v}`` (the value
variable) as placeholders that :meth:`Pattern.fill` replaces:

>>> p = Pattern(pattern_id="x", kind="spec_numeric", text="Battery › Capacity: a number in mAh",
...             sparql="?p skg:hasSpec {s} . {s} skg:inEntry <e> ; skg:hasQuantity/skg:hasNumericValue {v} .")
>>> p.fill(s="?s1", v="?v1")
'?p skg:hasSpec ?s1 . ?s1 skg:inEntry <e> ; skg:hasQuantity/skg:hasNumericValue ?v1 .'
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["KINDS", "Pattern", "fill", "filled", "pattern_id"]

KINDS = ("spec_numeric", "spec_value", "feature", "category", "range", "product", "entry")


@dataclass(slots=True)
class Pattern:
    """One searchable graph pattern over the product variable ``?p``.

    ``text`` is what gets embedded; ``sparql`` the snippet (``{s}``/``{v}`` placeholders);
    the other fields are the structured facts, ``None`` where they do not apply.
    ``count``: products matching the snippet; ``lacks_count``/``lacks_sparql``: for a
    feature, the products that explicitly lack it and the snippet that finds them.
    ``values``: for a value list, ``{"name", "iri", "count"}`` of the most common values.
    """

    pattern_id: str
    kind: str
    text: str
    sparql: str
    name: str | None = None
    section: str | None = None
    entry: str | None = None
    entry_iri: str | None = None
    unit: str | None = None
    dimension: str | None = None
    min: float | None = None
    max: float | None = None
    count: int = 0
    distinct_values: int | None = None
    values: list[dict[str, Any]] = field(default_factory=list)
    feature_iri: str | None = None
    node_iri: str | None = None
    lacks_count: int | None = None
    lacks_sparql: str | None = None
    label: str | None = None  # spec_numeric: the words beside the quantities it covers ("ram", "front")
    aliases: list[str] = field(default_factory=list)
    """Names the pages use for this pattern's node, from the trained aligner (``dualgraph align``)."""
    aligned: list[str] = field(default_factory=list)
    """The TKG entity IRIs behind :attr:`aliases`: products whose pages state one have this fact too."""

    def fill(self, *, s: str = "?s", v: str = "?v", snippet: str | None = None) -> str:
        """The snippet with its placeholders replaced by variable names."""
        return fill(self.sparql if snippet is None else snippet, s, v)

    @property
    def lexical_text(self) -> str:
        """The names this pattern answers to exactly (section, entry, unit, values, node names).

        >>> Pattern("x", "spec_value", "t", "", section="Display", entry="Type",
        ...         values=[{"name": "OLED", "iri": "i", "count": 2}]).lexical_text
        'Display Type OLED'
        """
        parts = [
            self.section,
            self.entry,
            self.label,
            self.unit,
            self.dimension if self.kind == "spec_numeric" else None,
        ]
        if self.kind not in ("spec_numeric", "spec_value", "entry"):
            parts.append(self.name)
        parts.extend(v["name"] for v in self.values)
        parts.extend(self.aliases)
        parts.extend(a for v in self.values for a in v.get("aliases", ()))
        return " ".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pattern:
        return cls(**data)


def pattern_id(kind: str, *key: str) -> str:
    """A stable id from what a pattern stands for (never from its counts), so rebuilds keep it.

    >>> pattern_id("feature", "https://w3id.org/dualgraph/skg#feature-5g_support")
    'feature-...'
    >>> pattern_id("range", "a") == pattern_id("range", "a") != pattern_id("range", "b")
    True
    """
    digest = hashlib.blake2b("\x1f".join((kind, *key)).encode("utf-8"), digest_size=8).hexdigest()
    return f"{kind.replace('_', '-')}-{digest}"


_PLACEHOLDER = re.compile(r"\{[sv]\}")


def fill(snippet: str, s: str, v: str) -> str:
    """``snippet`` with its ``{s}``/``{v}`` placeholders given the variables ``s`` and ``v``.

    >>> fill("?p skg:hasSpec {s} . {s} skg:hasValue {v} . {v} skg:hasName {v}_n .", "?s1", "?v1")
    '?p skg:hasSpec ?s1 . ?s1 skg:hasValue ?v1 . ?v1 skg:hasName ?v1_n .'
    """
    return snippet.replace("{s}", s).replace("{v}", v)


def filled(query: str) -> str:
    """``query``, checked to carry no template placeholder: a snippet that reached it unfilled is a
    compiler bug, reported as such rather than as the store's "malformed query".

    >>> filled("SELECT ?p WHERE { ?p skg:hasValue ?v1 }")
    'SELECT ?p WHERE { ?p skg:hasValue ?v1 }'
    >>> filled("SELECT ?p WHERE { ?p skg:hasValue {v} }")
    Traceback (most recent call last):
    ...
    ValueError: unfilled template placeholder {v} in the query
    """
    if m := _PLACEHOLDER.search(query):
        raise ValueError(f"unfilled template placeholder {m.group()} in the query")
    return query
