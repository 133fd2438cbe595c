"""The unit answers name: a catalog's products (variants/listings) or its product ranges.

Catalogs differ in what a "product" is to a shopper. A listing catalog sells each row on its
own ("Phone X (8GB RAM + 128GB)" and "Phone X (12GB RAM + 256GB)" are two answers). A shop
whose pages offer option pickers (colour, storage: SpecsQA's ``Variant features`` specs) sells
the page's range ("Galaxy S25 Ultra"), and its variant names ("Galaxy S25 Ultra 256GB Titanium
Black") are not what anyone answers with. ``auto`` tells the two apart by that structure; a
range answers when any of its variants does.

>>> AnswerNames({"A 128GB Black": "A", "A 256GB Black": "A", "B 128GB": "B"}, "range").apply(
...     ["A 256GB Black", "B 128GB", "A 128GB Black"])
['A', 'B']
>>> AnswerNames({}, "product").apply(["x", "y"])
['x', 'y']
"""

from __future__ import annotations

from typing import Any, Literal

__all__ = ["AnswerNames", "NameMode"]

NameMode = Literal["product", "range", "auto"]

_OPTION_SECTION = "variant features"
_RANGES = (
    """SELECT ?name ?range WHERE { ?p a skgt:Product ; skg:hasName ?name ; skg:variantOf ?r . ?r skg:hasName ?range }"""
)
_HAS_OPTIONS = f"""ASK {{ ?p a skgt:Product ; skg:hasSpec ?s . ?s skg:inSection ?sec . ?sec skg:hasName ?n .
  FILTER(LCASE(STR(?n)) = "{_OPTION_SECTION}") }}"""


class AnswerNames:
    """Maps product names to the names answers use (identity in ``product`` mode)."""

    def __init__(self, ranges: dict[str, str], mode: Literal["product", "range"]) -> None:
        self.ranges, self.mode = ranges, mode

    @classmethod
    def detect(cls, store, mode: NameMode = "auto") -> AnswerNames:
        """Read the product→range map from ``store``; ``auto`` picks ranges for option-picker catalogs."""
        if mode == "product":
            return cls({}, "product")
        if mode == "auto" and not store.ask(_HAS_OPTIONS):
            return cls({}, "product")
        rows = store.select(_RANGES)["results"]["bindings"]
        return cls({r["name"]["value"]: r["range"]["value"] for r in rows}, "range")

    def apply(self, names: list[str] | None) -> list[str] | None:
        if names is None or self.mode == "product":
            return names
        return list(dict.fromkeys(self.ranges.get(n, n) for n in names))

    def value(self, value: Any) -> Any:
        if self.mode == "range" and isinstance(value, str):
            return self.ranges.get(value, value)
        return value
