"""The catalog as the rest of the system sees it: documents holding product variants.

A *document* is one source page: its text (Markdown) and the variants its spec
tables describe. A *variant* is one purchasable product with its range, categories
and a spec table keyed ``"Section:Entry"`` exactly as the SpecsQA ``rawspecs``
format writes it (``Price`` as ``"799.00 GBP"``, ``Model Code``,
``Variant features:<k>``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from dualgraph.corpus.clean import clean_name, clean_text, shown
from dualgraph.quarantine import Quarantine

__all__ = ["MAX_VALUE_CHARS", "Document", "Quarantine", "Variant"]

MAX_VALUE_CHARS = 20_000
"""Longest name, key or spec value a variant keeps (see :class:`~dualgraph.corpus.limits.ReadLimits`)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One product variant (a colour/storage option is its own variant)."""

    name: str
    prod_range: str
    categories: tuple[str, ...] = ()
    specs: tuple[tuple[str, str], ...] = ()

    @property
    def model_code(self) -> str | None:
        for key, value in self.specs:
            if key.strip().casefold() == "model code" and value.strip():
                return value.strip()
        return None

    def to_record(self) -> dict[str, Any]:
        """The SpecsQA ``rawspecs`` record of this variant."""
        return {
            "name": self.name,
            "prod_range": self.prod_range,
            "categories": list(self.categories),
            "specs": dict(self.specs),
        }

    def to_row(self) -> dict[str, Any]:
        """The variant as the index stages carry it (:data:`dualgraph.pipeline.columns.VARIANT`):
        one value per key, as its ``rawspecs`` record holds it (a key that two keys became when
        cleaned keeps the last value, in the first one's place).

        >>> v = Variant("Phone A", "Phone", ("phones",), (("Colour", "Red"), ("Size", "6 in")))
        >>> Variant.from_row(v.to_row()) == v
        True
        >>> Variant.from_row(Variant("A", "A", (), (("K", "1"), ("J", "2"), ("K", "3"))).to_row()).specs
        (('K', '3'), ('J', '2'))
        """
        return {
            "name": self.name,
            "prod_range": self.prod_range,
            "categories": list(self.categories),
            "specs": [{"key": k, "value": v} for k, v in dict(self.specs).items()],
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Variant:
        """The variant :meth:`to_row` wrote (already cleaned: nothing is checked again)."""
        return cls(
            name=row["name"],
            prod_range=row["prod_range"],
            categories=tuple(row["categories"]),
            specs=tuple((s["key"], s["value"]) for s in row["specs"]),
        )

    @classmethod
    def from_record(cls, rec: Any, problems: list[str] | None = None, *, max_chars: int = MAX_VALUE_CHARS) -> Variant:
        """Build from a ``rawspecs`` record; raises ``ValueError`` naming what is wrong.

        A single unusable spec (a nested object, an empty key, NaN, a value longer than
        ``max_chars``) does not sink the variant: it is left out and described in
        ``problems`` when a list is given, else it raises. Names, keys and values are
        cleaned (:mod:`dualgraph.corpus.clean`); what cleaning removed is noted there too.

        >>> notes = []
        >>> v = Variant.from_record({"name": "X\u202e1", "specs": {"A": float("nan"), "B": "b" * 9}}, notes, max_chars=8)
        >>> v.name, v.specs, len(notes)
        ('X1', (), 3)
        """
        if not isinstance(rec, dict):
            raise ValueError(f"variant record is a {type(rec).__name__}, not an object")
        notes: list[str] = []

        def one_line(raw: str, what: str) -> str:
            text, changes = clean_name(raw)
            if changes:
                notes.append(f"{what} {shown(raw)}: {', '.join(changes)} removed")
            if len(text) > max_chars:
                raise ValueError(f"{what} has {len(text):,} characters, over the limit of {max_chars:,}")
            return text

        name = rec.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ValueError("variant record has no 'name'")
        name = one_line(name, "name")
        if not name.strip():
            raise ValueError("variant record has no 'name' (only invisible characters)")
        prod_range = rec.get("prod_range")
        if prod_range is None or (isinstance(prod_range, str) and not prod_range.strip()):
            prod_range = name.split("<SEP>")[0]
        if not isinstance(prod_range, str):
            raise ValueError(f"'prod_range' is a {type(prod_range).__name__}, not a string")
        prod_range = one_line(prod_range, "prod_range")
        cats = rec.get("categories") or []
        if isinstance(cats, str):
            cats = [cats]
        if not isinstance(cats, list) or not all(isinstance(c, str) for c in cats):
            raise ValueError("'categories' is not a list of strings")
        cats = [one_line(c, "category") for c in cats]
        specs = rec.get("specs") or {}
        if not isinstance(specs, dict):
            raise ValueError(f"'specs' is a {type(specs).__name__}, not an object")
        pairs = []
        for k, v in specs.items():
            if v is None:
                continue
            reason = None
            if isinstance(v, bool):
                v = "Yes" if v else "No"
            elif isinstance(v, float) and not math.isfinite(v):
                reason = f"spec {shown(k)} is {v!r}, not a number or text"
            elif isinstance(v, (int, float)):
                v = repr(v) if isinstance(v, float) else str(v)
            elif not isinstance(v, str):
                reason = f"spec {shown(k)} has a {type(v).__name__} value, not a string"
            if reason is None:
                key, changes = clean_name(str(k))
                if changes:
                    notes.append(f"spec key {shown(str(k))}: {', '.join(changes)} removed")
                if not key.strip():
                    reason = f"spec with an empty key (value {shown(str(v), 60)})"
                elif len(key) + len(v) > max_chars:
                    reason = f"spec {shown(key, 60)} has {len(v):,} characters, over the limit of {max_chars:,}"
                else:
                    v, changes = clean_text(v)
                    if changes:
                        notes.append(f"spec {shown(key, 60)} value: {', '.join(changes)} removed")
            if reason is not None:
                if problems is None:
                    raise ValueError(reason)
                problems.append(reason)
                continue
            pairs.append((key, v))
        if problems is not None:
            problems.extend(notes)
        return cls(
            name=_display_name(name),
            prod_range=prod_range.strip(),
            categories=tuple(c.strip() for c in cats if c.strip()),
            specs=tuple(pairs),
        )


def _display_name(raw: str) -> str:
    """SpecsQA names join the range and the option values with ``<SEP>``."""
    parts = [p.strip() for p in raw.split("<SEP>") if p.strip()]
    return " ".join(parts) if parts else raw.strip()


@dataclass(slots=True)
class Document:
    """One source page: Markdown text plus the variants of its spec tables."""

    doc_id: str
    source: str
    text: str = ""
    variants: list[Variant] = field(default_factory=list)
