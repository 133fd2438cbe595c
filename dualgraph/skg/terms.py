"""N-Triples / N-Quads term writing: the one place that escapes literals."""

from __future__ import annotations

from dualgraph.skg import ontology as O

_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def iri(value: str) -> str:
    return "<" + value + ">"


def literal(text: str) -> str:
    """A plain string literal (xsd:string)."""
    return '"' + text.translate(_ESCAPES) + '"'


def decimal(lexical: str) -> str:
    """An xsd:decimal literal from an already-formatted plain decimal string."""
    return '"' + lexical + '"^^<' + O.XSD_DECIMAL + ">"


def integer(value: int) -> str:
    """An xsd:integer literal."""
    return '"' + str(int(value)) + '"^^<' + O.XSD_INTEGER + ">"


def quad(s: str, p: str, o: str, g: str) -> str:
    """One N-Quads line; ``s``/``p``/``g`` are IRIs, ``o`` an already-written term."""
    return f"<{s}> <{p}> {o} <{g}> .\n"
