"""What the optional POST /sparql lets through: SELECT and ASK only, short, capped in rows and time.

The store the service opens is read-only, so an update would fail anyway; the gate refuses it
before it reaches the store, with a message that says what is allowed. CONSTRUCT and DESCRIBE are
refused too: their results are graphs, which the row cap does not bound the same way.
"""

from __future__ import annotations

import re

__all__ = ["GateError", "query_form"]

# the prologue: blanks, comments, BASE and PREFIX declarations (IRIs may hold '#')
_PROLOGUE = re.compile(
    r"(?:\s+|\#[^\n]*(?:\n|$)|BASE\s*<[^>]*>|PREFIX\s+[^\s:]*:\s*<[^>]*>)*",
    re.IGNORECASE,
)
_FORM = re.compile(r"(SELECT|ASK|CONSTRUCT|DESCRIBE|INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)\b", re.I)


class GateError(ValueError):
    """The query is not one the endpoint runs (the message says why)."""


def query_form(query: str, *, max_chars: int) -> str:
    """``"SELECT"`` or ``"ASK"``, or :class:`GateError`.

    >>> query_form("PREFIX s: <http://x#> # a comment\\nselect ?p { ?p a s:P }", max_chars=200)
    'SELECT'
    >>> query_form("DROP ALL", max_chars=200)
    Traceback (most recent call last):
    ...
    dualgraph.serve.sparql_gate.GateError: only SELECT and ASK queries are run here; this is an update (DROP)
    """
    if len(query) > max_chars:
        raise GateError(f"the query is {len(query)} characters; at most {max_chars} are accepted")
    start = _PROLOGUE.match(query)
    rest = query[start.end() if start else 0 :]
    form = _FORM.match(rest)
    if form is None:
        raise GateError("not a SPARQL query: expected SELECT or ASK after the prefixes")
    word = form.group(1).upper()
    if word in ("SELECT", "ASK"):
        return word
    if word in ("CONSTRUCT", "DESCRIBE"):
        raise GateError(f"only SELECT and ASK queries are run here; not {word}")
    raise GateError(f"only SELECT and ASK queries are run here; this is an update ({word})")
