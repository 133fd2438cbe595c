"""Which candidate entries the products in a question's scope fill."""

from __future__ import annotations

from dualgraph.lexicon.pattern import Pattern
from dualgraph.query.ground.entry_choice import keep_in_scope, none_in_scope


def _value_entry(entry_iri: str) -> tuple[tuple, Pattern]:
    p = Pattern(entry_iri, "spec_value", entry_iri, "?p skg:hasSpec {s} .", entry_iri=entry_iri)
    return ((1, 0.0, 0.0, 1), p)


def test_none_in_scope_sends_the_value_to_the_store() -> None:
    family, processor = _value_entry("urn:e:family"), _value_entry("urn:e:processor")
    scope = frozenset({("urn:e:processor", None)})  # the brand asked about fills only "Processor"
    assert none_in_scope([family], scope)  # the only entry listing the value: nobody in scope has it
    assert not none_in_scope([family, processor], scope)
    assert not none_in_scope([family], None)  # no scope: every entry counts
    assert not none_in_scope([], scope)
    # keep_in_scope, by contrast, keeps a lone candidate whatever the scope (nothing to choose from)
    assert keep_in_scope([family], scope) == ([family], 0)
