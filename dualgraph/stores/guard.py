"""Guards for read-only SPARQL, shared by every store: a small lexer that sees keywords
outside strings, IRIs and comments, so ``"SERVICE"`` in a literal is harmless while a
federated ``SERVICE`` call or an update keyword is caught."""

from __future__ import annotations

import re

from dualgraph.stores.base import StoreError

UPDATE_WORDS = frozenset({"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"})

# One SPARQL token per match, in the order a SPARQL lexer would try them. Strings, IRIs
# and comments come first so that nothing inside them is mistaken for a keyword.
_TOKEN = re.compile(
    r'''(?P<skip>"""(?:[^"\\]|\\.|"(?!""))*"""|'\'\'(?:[^'\\]|\\.|'(?!''))*\'\'\''''
    r"""|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|<[^<>"{}|^`\\\x00-\x20]*>|\#[^\n]*)"""
    r"|(?P<var>[?$]\w+)|(?P<lang>@[A-Za-z][\w-]*)|(?P<bnode>_:[\w.-]*)"
    r"|(?P<pname>(?:[A-Za-z_][\w.-]*)?:[\w.:%\\-]*)"
    r"|(?P<word>[A-Za-z_]\w*)|(?P<punct>\S)",
    re.DOTALL,
)


def sparql_words(text: str) -> list[str]:
    """Keywords and punctuation of a SPARQL text, upper-cased, without strings, IRIs,
    comments, variables, prefixed names or language tags; blank node labels as ``_:``.

    >>> sparql_words('SELECT * { ?s <http://x/SERVICE> "SERVICE" } # SERVICE')
    ['SELECT', '*', '{', '}']
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


def check_read_query(query: str) -> None:
    """Raise :class:`StoreError` for a federated ``SERVICE`` call anywhere in ``query``."""
    if "SERVICE" in sparql_words(query):
        raise StoreError("federated SERVICE calls are refused: the store answers from its own data only")


def update_keyword(text: str) -> str | None:
    """The update keyword a SPARQL text starts with (after its prologue), if any.

    >>> update_keyword("PREFIX x: <http://x/> DELETE WHERE { ?s ?p ?o }")
    'DELETE'
    >>> update_keyword("SELECT * { ?s ?p ?o }") is None
    True
    """
    words = [w for w in sparql_words(text) if w.isalpha() and w not in ("PREFIX", "BASE")]
    return words[0] if words and words[0] in UPDATE_WORDS else None
