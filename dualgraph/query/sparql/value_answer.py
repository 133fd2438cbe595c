"""What a superlative question's answer is when it asks for a number, and in which unit.

:func:`~dualgraph.query.read.asked.asks_value` tells "What is the lowest price of …" / "how big is the biggest battery" (the
extreme *value*) from "Which is the cheapest phone?" (a product). :func:`value_in_unit` decides
the unit of that number (documented choice):

1. the unit the question names ("…, in inches?", "in GB", "in kg") → the value is converted from
   the graph's canonical unit into it (:func:`dualgraph.skg.quantities.convert`);
2. else the unit the catalog's own spec text was written in: spec nodes keep their source text
   (``skg:hasValue/skg:hasName``, e.g. "6.7 inches"), whose parsed ``original_unit`` says it
   ("inch" while the graph stores 170.18 mm);
3. else the canonical unit the graph stores.

Prices are never converted (currencies are not units).
"""

from __future__ import annotations

import re
from typing import Any

from dualgraph.lexicon.pattern import fill
from dualgraph.query.read.asked import named_unit
from dualgraph.skg.quantities import convert, normalise_unit, parse_quantity, unit_symbol

__all__ = ["number", "value_in_unit"]


def number(text: str) -> int | float:
    x = float(text)
    return int(x) if x.is_integer() else x


def _round(x: float) -> int | float:
    """A converted number without float noise (10 significant digits), an int when whole."""
    y = float(f"{x:.10g}")
    return int(y) if y.is_integer() else y


def value_in_unit(
    store: Any, question: str, value: float, unit: str | None, snippet: str, product: str | None, trace: list[str]
) -> tuple[int | float, str | None]:
    """``value`` (in the graph's canonical ``unit``, from the entry ``snippet`` of ``product``) in the
    unit the answer should be given in (see the module), and that unit."""
    if not unit or (known := normalise_unit(unit)) is None:
        return value, unit
    asked = named_unit(question)
    target = asked[1] if asked and asked[0] == known[0] else None
    how = "named in the question"
    if target is None and product and snippet:
        target, how = _source_unit(store, value, unit, snippet, product), "as the catalog wrote it"
    if not target or target == unit:
        return value, unit
    try:
        out = _round(convert(value, unit, target))
    except ValueError:
        return value, unit
    if asked and product and snippet and (written := _written_in(store, out, target, snippet, product)) is not None:
        # "25.6 cm (10.1")": the catalog wrote the number in the asked unit too; its own figure, not 10.08
        trace.append(f"value {number(str(value))} {unit} → {written} {target} (as the catalog wrote it in {target})")
        return written, target
    trace.append(f"value {number(str(value))} {unit} → {out} {target} ({how})")
    return out, target


_WRITTEN = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(\"|''|[^\W\d_]+)")


def _raw_values(store: Any, snippet: str, product: str) -> list[tuple[str, str | None, str | None]]:
    """The product's raw values under the entry, each with its entry's and section's names (a bare
    number takes the unit they name: "Capacity (ft3)")."""
    body = fill(snippet, "?so", "?val")
    q = (
        f"SELECT ?raw ?entry ?section WHERE {{ VALUES ?p {{ <{product}> }} {body} ?so skg:hasValue ?vv . "
        f"?vv skg:hasName ?raw . OPTIONAL {{ ?so skg:inEntry ?e . ?e skg:hasName ?entry }} "
        f"OPTIONAL {{ ?so skg:inSection ?sc . ?sc skg:hasName ?section }} }} LIMIT 20"
    )
    try:
        rows = store.select(q)["results"]["bindings"]
    except Exception:  # a lookup for presentation only: never fail the answer
        return []
    return [(r["raw"]["value"], r.get("entry", {}).get("value"), r.get("section", {}).get("value")) for r in rows]


def _written_in(store: Any, converted: float, target: str, snippet: str, product: str) -> int | float | None:
    """The number the product's raw value writes in ``target`` units, when it holds one within 1 % of
    ``converted`` ("21.1 cm (8.3")" asked in inches: 8.3), else None."""
    for raw, _, _ in _raw_values(store, snippet, product):
        for m in _WRITTEN.finditer(raw):
            found = normalise_unit(m.group(2))
            if found is None or unit_symbol(m.group(2)) != target:
                continue
            written = float(m.group(1))
            if abs(written - converted) <= 0.01 * max(abs(converted), 1e-9):
                return number(m.group(1))
    return None


def _source_unit(store: Any, value: float, unit: str, snippet: str, product: str) -> str | None:
    """The unit the winning spec's source text was written in ("6.7 inches" → inch; a bare "28.7" under
    "Capacity (ft3)" → ft³), if it parses."""
    for raw, entry, section in _raw_values(store, snippet, product):
        parsed = parse_quantity(raw, entry=entry, section=section)
        if (
            parsed is not None
            and parsed.unit == unit
            and parsed.value is not None
            and abs(parsed.value - value) <= 1e-6 * max(1.0, abs(value))
            and parsed.original_unit
        ):
            return parsed.original_unit
    return None
