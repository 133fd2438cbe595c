"""Reading a compiled query's rows into the answer its intent asks for.

- list / describe / yesno → the distinct product names in row order; describe's ``value`` is
  the one name (else all of them), yesno's is "yes" when any product qualified;
- count → the number; average → the mean, in the unit of :mod:`~dualgraph.query.sparql.value_answer`,
  and no list (the products averaged are not the answer);
- superlative / compare → the top ``k`` products *keeping ties* (k = 1 for compare). ``value``
  is the extreme number when the question asks for it, else one name: the first by name of the
  tied winners (every winner is in ``answer_list``). A yes/no comparison ("Is X heavier than
  Y?") is "yes" only when the first product named wins alone; "Is X or Y heavier?" is a choice.
"""

from __future__ import annotations

import datetime
import math
import re
import statistics
from typing import TYPE_CHECKING, Any

from dualgraph.query.read.asked import approximate, asks_date, asks_value, asks_yes_no, rounding, time_between
from dualgraph.query.read.dates import DATE_ATTRIBUTES, date_event
from dualgraph.query.sparql.value_answer import number, value_in_unit

if TYPE_CHECKING:  # the compiler imports this module: its classes are only annotations here
    from dualgraph.query.interpret.compiler import Answer, Compiled

__all__ = ["distinct", "read_answer", "top_with_ties"]

_YESNO_OPEN = re.compile(r"\s*(?:is|are|was|does|do|did|has|have|can|will|would)\b", re.I)


def read_answer(store, question: str, comp: Compiled, ans: Answer) -> None:
    """Fill ``ans`` (``answer_list``, ``value``, ``unit``, ``trace``) from ``ans.rows``, the rows
    of ``comp.sparql``; ``store`` is asked only for the unit a number was written in."""
    intent, rows = comp.intent, ans.rows
    names = distinct(r["name"]["value"] for r in rows if "name" in r)
    if intent.groups:
        _read_groups(intent, rows, ans, yes_no=asks_yes_no(question))
        return
    if intent.by and intent.kind == "superlative":  # the brand (line, section) ranked first, ties kept
        top = rows[0]["count"]["value"] if rows else None
        ans.answer_list = [r["name"]["value"] for r in rows if r["count"]["value"] == top]
        ans.value = ans.answer_list[0] if len(ans.answer_list) == 1 else None
        ans.trace.append(f"the {intent.by} first by products held: {ans.answer_list} ({top})")
        return
    if intent.kind == "count" and intent.share:
        n, of = (int(rows[0][k]["value"]) if rows and k in rows[0] else 0 for k in ("count", "all"))
        ans.value = round(100 * n / of, 4) if of else None
        ans.trace.append(f"share: {n} of {of} products = {ans.value} %")
    elif intent.kind == "count":
        ans.value = int(rows[0]["count"]["value"]) if rows else 0
    elif intent.kind in ("superlative", "compare"):
        _read_top(store, question, comp, ans)
    elif intent.kind == "average":
        row = rows[0] if rows else {}
        n = int(row["count"]["value"]) if "count" in row else 0
        if intent.statistic == "median":
            measured = [float(r["value"]["value"]) for r in rows if "value" in r]
            row, n = ({"value": {"value": str(statistics.median(measured))}}, len(measured)) if measured else ({}, 0)
        if n and "value" in row:
            mean = round(float(row["value"]["value"]), 4)
            ans.value, ans.unit = value_in_unit(store, question, mean, comp.order_unit, "", None, ans.trace)
            what = "sum" if intent.total else "average" if intent.statistic == "mean" else intent.statistic
            ans.trace.append(f"{what} over {n} products: {ans.value}")
        ans.answer_list = None
    elif intent.kind == "describe" and intent.lookup:  # "What is the sensor type of X?": its value(s)
        ans.answer_list = names
        values = distinct(r["value"]["value"] for r in rows if "value" in r)
        ans.value = values[0] if len(values) == 1 else (values or None)
        ans.trace.append(f"the question asks for the value: {ans.value}")
    elif intent.kind == "describe":
        ans.answer_list = names
        ans.value = names[0] if len(names) == 1 else names
    elif intent.kind == "yesno":
        ans.answer_list = names
        ans.value = "yes" if names else "no"
    else:
        ans.answer_list = names
    if (
        isinstance(ans.value, (int, float))
        and not isinstance(ans.value, bool)
        and (places := rounding(question)) is not None
    ):
        was = ans.value
        ans.value = round(was, places) if places > 0 else int(round(was, places))
        if ans.value != was:
            ans.trace.append(f"rounded as asked: {was} → {ans.value}")
    elif isinstance(ans.value, float) and approximate(question):
        was = ans.value
        ans.value = short(was)
        if ans.value != was:
            ans.trace.append(f"an approximate number asked: {was} → {ans.value}")


def short(x: float) -> int | float:
    """``x`` to three significant figures, and never to less than a whole number: what "about" a
    measured number means (12.5696 → 12.6, 0.04567 → 0.0457, 2343.4 → 2343).

    >>> short(12.5696), short(0.04567), short(2343.4), short(356.34)
    (12.6, 0.0457, 2343, 356)
    """
    if x == 0 or abs(x) >= 100:
        return round(x)
    places = 2 - math.floor(math.log10(abs(x)))
    return round(x, places)


def _read_groups(intent, rows: list[dict[str, Any]], ans: Answer, *, yes_no: bool = False) -> None:
    """The group that wins a comparison of groups: the largest (smallest) mean or count; none on a tie
    or when a group has no value to compare (a group with no product counts 0)."""
    key = "count" if intent.kind == "count" else "value"
    found = {int(r["g"]["value"]): float(r[key]["value"]) for r in rows if "g" in r and key in r}
    if intent.kind == "count":
        found = {i: found.get(i, 0.0) for i in range(len(intent.groups))}
    ans.trace.append(
        "groups: " + ", ".join(f"{name} {found.get(i, 'no value')}" for i, name in enumerate(intent.groups))
    )
    pick = max if intent.direction != "min" else min
    best = pick(found.values()) if len(found) == len(intent.groups) else None
    winners = [intent.groups[i] for i, v in found.items() if v == best]
    ans.value = winners[0] if len(winners) == 1 else None
    ans.answer_list = winners if len(winners) == 1 else []
    if yes_no and best is not None:  # "Are Leica cameras heavier on average than Sony's?": the first said wins
        ans.value, ans.answer_list = ("yes" if winners == list(intent.groups[:1]) else "no"), None


def _read_gap(store, question: str, comp: Compiled, ans: Answer) -> None:
    """By how much the first named product's value differs from the second's (their gap, unsigned)."""
    value = {r["p"]["value"]: float(r["value"]["value"]) for r in ans.rows if "p" in r and "value" in r}
    firsts = [next((value[p] for p in g if p in value), None) for g in comp.named_groups[:2]]
    ans.answer_list = distinct(r["name"]["value"] for r in ans.rows if "name" in r)
    if len(firsts) < 2 or firsts[0] is None or firsts[1] is None:
        ans.trace.append("the gap needs a value for both named products: one has none")
        ans.value = None
        return
    if comp.intent.attribute in DATE_ATTRIBUTES.values():  # dates as yyyymmdd: the time between them
        unit = time_between(question)
        ans.value, ans.unit = _time_apart(int(firsts[0]), int(firsts[1]), unit), unit
        ans.trace.append(f"the question asks how long apart: {int(firsts[0])} and {int(firsts[1])}: {ans.value} {unit}")
        return
    gap = round(abs(firsts[0] - firsts[1]), 6)
    ans.value, ans.unit = value_in_unit(store, question, gap, comp.order_unit, "", None, ans.trace)
    ans.value = number(str(ans.value))
    ans.trace.append(f"the question asks by how much: |{firsts[0]} - {firsts[1]}| = {ans.value}")


def _read_top(store, question: str, comp: Compiled, ans: Answer) -> None:
    intent = comp.intent
    if intent.kind == "compare" and intent.difference:
        _read_gap(store, question, comp, ans)
        return
    k = 1 if intent.kind == "compare" else max(1, intent.k)
    top = top_with_ties(ans.rows, k)
    ans.answer_list = distinct(r["name"]["value"] for r in top)
    if (
        intent.kind == "superlative"
        and top
        and (intent.lookup or asks_date(question))
        and date_event(intent.attribute) is not None
    ):
        ans.value = date_value(question, int(float(top[0]["value"]["value"])))
        ans.trace.append(f"the question asks for the date: {ans.value}")
    elif intent.kind == "superlative" and top and (intent.lookup or asks_value(question, intent.attribute)):
        ans.value = number(top[0]["value"]["value"])  # "what is the lowest price …": the number
        ans.value, ans.unit = value_in_unit(
            store, question, ans.value, comp.order_unit, comp.order_snippet, top[0].get("p", {}).get("value"), ans.trace
        )
        ans.trace.append(f"the question asks for the value: {ans.value}")
    elif (
        intent.kind == "compare"
        and _YESNO_OPEN.match(question)
        and len(comp.named_groups) >= 2
        # "Is the A or the B lighter?" asks which; "Is the A lighter than the B?" asks whether
        and not (re.search(r"\bor\b", question, re.I) and not re.search(r"\bthan\b", question, re.I))
    ):
        # "Is X heavier than Y?": yes when the first product named wins alone
        won = {r["p"]["value"] for r in top if "p" in r}
        first, rest = set(comp.named_groups[0]), {p for g in comp.named_groups[1:] for p in g}
        ans.value = "yes" if won & first and not won & rest else "no"
        ans.trace.append(
            "a yes/no comparison: the first product named " + ("wins" if ans.value == "yes" else "does not win")
        )
    elif k == 1:  # one name; ties stay in answer_list, the first by name is the value
        ans.value = ans.answer_list[0] if ans.answer_list else None
    else:
        ans.value = ans.answer_list or None
    if len(top) > k:
        ans.trace.append(f"ties kept: {len(top)} products share the top {k} values")


def date_value(question: str, day: int) -> int | str:
    """A date ordering value (``YYYYMMDD``) as the question asks for it: the year when it asks "what
    year", else the ISO date.

    >>> date_value("In what year was X released?", 20010301), date_value("When was X released?", 20010301)
    (2001, '2001-03-01')
    """
    y, m, d = day // 10000, day // 100 % 100, day % 100
    return y if re.search(r"\byear\b", question, re.I) else f"{y:04d}-{m:02d}-{d:02d}"


def distinct(items) -> list[str]:
    """The items in first-seen order, each once.

    >>> distinct(["b", "a", "b"])
    ['b', 'a']
    """
    seen: dict[str, None] = {}
    for x in items:
        seen.setdefault(x, None)
    return list(seen)


def top_with_ties(rows: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """Rows (already ordered best first) up to the ``k``-th product, plus every row tied with it.

    >>> r = [{"value": {"value": v}} for v in ("9", "7", "7", "5")]
    >>> len(top_with_ties(r, 2)), len(top_with_ties(r, 1)), len(top_with_ties(r, 4))
    (3, 1, 4)
    """
    rows = [r for r in rows if "value" in r]
    if len(rows) <= k:
        return rows

    def key(r: dict[str, Any]) -> tuple[float, ...]:  # a tie-breaker's value is part of the rank
        return tuple(float(r[v]["value"]) for v in ("value", "value2") if v in r)

    cut = key(rows[k - 1])
    out = rows[:k]
    for r in rows[k:]:
        if key(r) == cut:
            out.append(r)
        else:
            break
    return out


def _time_apart(a: int, b: int, unit: str) -> int:
    """The time between two dates written yyyymmdd, in whole calendar ``unit``s (years and months as
    the calendar counts them, "2008 to 2017" is 9 years; weeks and days as days pass)."""
    (ya, ma, da), (yb, mb, db) = ((x // 10000, x // 100 % 100, x % 100) for x in (a, b))
    if unit == "years":
        return abs(ya - yb)
    if unit == "months":
        return abs((ya * 12 + ma) - (yb * 12 + mb))
    days = abs((datetime.date(ya, ma or 1, da or 1) - datetime.date(yb, mb or 1, db or 1)).days)
    return days // 7 if unit == "weeks" else days
