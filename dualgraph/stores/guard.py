"""The read-only guard every store and the CLI share, decided on the parsed query.

A query is accepted only if it parses as a SPARQL 1.1 *query* (updates do not) and its
parse tree holds no ``SERVICE`` pattern, no unknown prefix and no Virtuoso built-in
(``bif:``/``sql:``, which can fetch URLs or run SQL). Keywords are never looked for in
the text: how a text splits into tokens is the parser's business, so ``"SERVICE"`` in a
string is harmless and ``SERVICE:x {}`` is still a service call.

A text with none of the words a service call, a prefix declaration, a built-in or a
pragma needs (every query the compiler writes) is parsed by Oxigraph instead, well under a
millisecond against tens for rdflib's grammar; anything else takes the full check.

``\\uXXXX`` escapes are expanded first, as the SPARQL grammar says, and the *expanded*
text is the one the parser sees and the store runs (:attr:`ReadQuery.text`), so no
engine can read the escapes differently from the check.

>>> read_query('SELECT ?n { ?p skg:hasName ?n FILTER(?n != "SERVICE") }').form
'SELECT'
>>> try:
...     read_query("SELECT * { SERVICE:x { ?s ?p ?o } }")
... except QueryRefused as e:
...     print(e)
federated SERVICE calls are refused: the store answers from its own data only
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dualgraph.stores import namespaces as NS
from dualgraph.stores.base import StoreError

MAX_QUERY_CHARS = 100_000
"""Longer texts are refused before parsing: the parser's time grows with the text."""

_FORMS = {"SelectQuery": "SELECT", "AskQuery": "ASK", "ConstructQuery": "CONSTRUCT", "DescribeQuery": "DESCRIBE"}
_UPDATES = {
    "InsertData": "INSERT DATA",
    "DeleteData": "DELETE DATA",
    "DeleteWhere": "DELETE WHERE",
    "Modify": "DELETE/INSERT",
    "Load": "LOAD",
    "Clear": "CLEAR",
    "Drop": "DROP",
    "Create": "CREATE",
    "Add": "ADD",
    "Move": "MOVE",
    "Copy": "COPY",
}
_VIRTUOSO_BUILTINS = ("bif:", "sql:")
_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
# One token per match; strings, IRIs and comments first so nothing inside them is a keyword.
_TOKEN = re.compile(
    r'''(?P<skip>"""(?:[^"\\]|\\.|"(?!""))*"""|'\'\'(?:[^'\\]|\\.|'(?!''))*\'\'\''''
    r"""|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|<[^<>"{}|^`\\\x00-\x20]*>|\#[^\n]*)"""
    r"|(?P<var>[?$]\w+)|(?P<lang>@[A-Za-z][\w-]*)|(?P<bnode>_:[\w.-]*)"
    r"|(?P<pname>(?:[A-Za-z_][\w.-]*)?:[\w.:%\\-]*)"
    r"|(?P<word>[A-Za-z_]\w*)|(?P<punct>\S)",
    re.DOTALL,
)
# pyparsing grammars keep per-parse state on shared objects: one parse at a time.
_LOCK = threading.Lock()


class QueryRefused(StoreError):
    """A query that must not run (an update, a SERVICE call, unparseable); the message says why."""


@dataclass(frozen=True, slots=True)
class ReadQuery:
    """A query the guard accepted: its form and the exact text to send to the store."""

    form: str
    """SELECT, ASK, CONSTRUCT or DESCRIBE."""
    text: str
    """The query with its ``\\u`` escapes expanded: what was checked, hence what must run."""


def read_query(query: str) -> ReadQuery:
    """Check ``query`` and return what to run; raises :class:`QueryRefused` with the reason.

    >>> read_query("ASK { ?s skg:hasName '\\\\u0053' }")
    ReadQuery(form='ASK', text="ASK { ?s skg:hasName 'S' }")
    >>> try:
    ...     read_query("CLEAR ALL")
    ... except QueryRefused as e:
    ...     print(e)
    CLEAR refused: queries are read-only (use insert_where or bulk_load to write)
    """
    if not isinstance(query, str):
        raise QueryRefused(f"a SPARQL query must be text, not {type(query).__name__}")
    if len(query) > MAX_QUERY_CHARS:
        raise QueryRefused(f"query refused: {len(query)} characters, more than {MAX_QUERY_CHARS}")
    return _checked(query)


def sparql_words(text: str) -> list[str]:
    """Keywords and punctuation of a SPARQL text, upper-cased, without strings, IRIs,
    comments, variables, prefixed names or language tags; blank node labels as ``_:``.

    Not a safety check (that is :func:`read_query`): rule files use it to spot blank
    nodes in an ``insert`` template, which is not a whole query and cannot be parsed alone.

    >>> sparql_words('SELECT * { ?s <http://x/SERVICE> "SERVICE" [] _:b } # SERVICE')
    ['SELECT', '*', '{', '[', ']', '_:', '}']
    """
    out = []
    for m in _TOKEN.finditer(text):
        if m.lastgroup == "word":
            out.append(m.group().upper())
        elif m.lastgroup == "punct":
            out.append(m.group())
        elif m.lastgroup == "bnode":
            out.append("_:")
    return out


@lru_cache(maxsize=1024)
def _checked(query: str) -> ReadQuery:
    # Generated queries are checked at compile time and again by run_select and the store.
    text = _expand_escapes(query)
    form = _plainly_safe_form(text)
    if form is not None:
        return ReadQuery(form, text)
    from rdflib.plugins.sparql import parser  # 0.3 s to import: only once a query comes
    from rdflib.term import URIRef

    try:
        tree = _parse(parser.Query, text)
    except RecursionError:
        raise QueryRefused("query refused: nested too deeply to check") from None
    except Exception as e:  # pyparsing's ParseException, or a parse action's ValueError
        raise _not_a_query(text, e) from None
    prologue, body = tree[0], tree[1]
    declared = {d.get("prefix") or "": str(d["iri"]) for d in prologue if getattr(d, "name", "") == "PrefixDecl"}
    for node in _nodes(body):
        name = getattr(node, "name", None)
        if name == "ServiceGraphPattern":
            raise QueryRefused("federated SERVICE calls are refused: the store answers from its own data only")
        if name == "pname":
            prefix = node.get("prefix") or ""
            base = declared.get(prefix, NS.PREFIXES.get(prefix))
            if base is None:
                raise QueryRefused(f"malformed SPARQL query: unknown prefix {prefix}:")
            _refuse_builtin(base + (node.get("localname") or ""))
        elif isinstance(node, URIRef):
            _refuse_builtin(str(node))
    return ReadQuery(_FORMS[body.name], text)


# Words without which no query can call a service, declare a prefix, reach a server built-in or
# hold a Virtuoso pragma: a text with none of them needs no parse tree to be shown read-only.
_TELLING = ("service", "prefix", "base", "define", "bif:", "sql:")
_MAX_FAST_BRACES = 64  # deeper texts go to the checked parser, which refuses too deep a nesting


def _plainly_safe_form(text: str) -> str | None:
    """SELECT or ASK when Oxigraph's parser accepts ``text`` as a query and no telling word is in it.

    Every query the compiler writes is such a text. rdflib's grammar costs tens of milliseconds a
    query; Oxigraph's parser well under one. The decision still rests on a parse: updates do not
    parse as a query, and a SERVICE call, a prefix declaration or a built-in cannot be written
    without the words looked for (in ASCII; other text takes the full check). The in-memory store
    is empty and the result is never iterated, so nothing is evaluated.
    """
    if not text.isascii() or text.count("{") > _MAX_FAST_BRACES:
        return None
    lowered = text.lower()
    if any(word in lowered for word in _TELLING):
        return None
    import pyoxigraph as ox

    try:
        result = _empty_store().query(text, prefixes=NS.PREFIXES)
    except (SyntaxError, ValueError, OSError):
        return None  # the full check says why
    if isinstance(result, ox.QuerySolutions):
        return "SELECT"
    if isinstance(result, ox.QueryBoolean):
        return "ASK"
    return None  # CONSTRUCT and DESCRIBE both give triples: the full check tells them apart


@lru_cache(maxsize=1)
def _empty_store() -> Any:
    import pyoxigraph as ox

    return ox.Store()


def _parse(grammar: Any, text: str) -> Any:
    """``grammar.parse_string(text)`` in a thread of its own.

    pyparsing leaves reference cycles of frames behind (exceptions it raised and caught);
    a frame holds its caller, so in the caller's thread they would keep the store that
    asked for the check alive, with its RocksDB lock, until the next gc pass.
    """
    box: list[Any] = []

    def run() -> None:
        try:
            with _LOCK:
                box.append((True, grammar.parse_string(text, parse_all=True)))
        except BaseException as e:  # re-raised in the caller
            box.append((False, e))

    worker = threading.Thread(target=run, name="sparql-guard")
    worker.start()
    worker.join()
    ok, value = box[0]
    if not ok:
        raise value
    return value


def _expand_escapes(query: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = int(m.group(1) or m.group(2), 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise QueryRefused(f"malformed SPARQL query: {m.group()} is not a character")
        return chr(code)

    return _ESCAPE.sub(one, query)


def _nodes(root: Any):
    """Every node of a parse tree, without recursion (a deep tree must not overflow)."""
    from pyparsing import ParseResults

    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, dict):  # rdflib's CompValue
            stack.extend(node.values())
        elif isinstance(node, (list, tuple, ParseResults)):
            stack.extend(node)


def _refuse_builtin(iri: str) -> None:
    if iri.startswith(_VIRTUOSO_BUILTINS):
        raise QueryRefused(f"{iri} refused: server built-ins can reach files, SQL or the network")


def _not_a_query(text: str, error: Exception) -> QueryRefused:
    from rdflib.plugins.sparql import parser

    try:
        update = _parse(parser.UpdateUnit, text)
    except Exception:  # not an update either: report why it is not a query
        update = None
    requests = [u.get("request") or [] for u in update or () if isinstance(u, dict)]
    ops = [_UPDATES.get(op.name, op.name) for ops in requests for op in ops if getattr(op, "name", None)]
    if ops:
        return QueryRefused(f"{', '.join(ops)} refused: queries are read-only (use insert_where or bulk_load to write)")
    loc = getattr(error, "loc", None)
    if isinstance(loc, int) and text[loc : loc + 6].upper() == "DEFINE":
        return QueryRefused("DEFINE pragmas are refused: they can make the server fetch remote data")
    return QueryRefused(f"malformed SPARQL query: {error}")
