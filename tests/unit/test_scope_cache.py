"""The products of a question's scope are read once per store and query, and kept for a bounded
number of scopes (dualgraph.query.ground.entry_choice.scope_products)."""

from __future__ import annotations

from dualgraph.query.ground import entry_choice
from dualgraph.query.ground.entry_choice import scope_products


class CountingStore:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def select(self, query: str) -> dict:
        self.asked.append(query)
        n = len(self.asked)
        return {"results": {"bindings": [{"p": {"value": f"p{n}"}}]}}


def test_a_scope_asked_again_is_not_read_again_and_old_ones_go(monkeypatch):
    monkeypatch.setattr(entry_choice, "SCOPES_KEPT", 2)
    store = CountingStore()
    first = scope_products(store, "q1")
    assert scope_products(store, "q1") == first == frozenset({"p1"}) and store.asked == ["q1"]
    scope_products(store, "q2")
    scope_products(store, "q1")  # used last: q2 is now the oldest
    scope_products(store, "q3")
    assert store.asked == ["q1", "q2", "q3"]
    scope_products(store, "q1")
    scope_products(store, "q2")  # dropped when q3 came in: read again
    assert store.asked == ["q1", "q2", "q3", "q2"]
    other = CountingStore()  # another store keeps its own
    assert scope_products(other, "q1") == frozenset({"p1"}) and other.asked == ["q1"]
