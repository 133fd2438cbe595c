"""No import cycle anywhere in ``dualgraph`` (issues 33 and 36): modules form layers, so each can
be read, tested and moved knowing only what lies below it.

Imports inside functions count (they are how cycles were hidden before); imports under
``if TYPE_CHECKING`` do not (they never run). The check is a graph walk over grimp's import graph
(grimp is import-linter's engine), with a made-up package that has a cycle to show it can fail.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]


def cycles(package: str) -> list[list[str]]:
    """The strongly connected groups of more than one module in ``package``'s import graph."""
    graph = grimp.build_graph(package, exclude_type_checking_imports=True)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan; the graph is small enough for recursion
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_dualgraph_has_no_import_cycle(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    assert cycles("dualgraph") == []


def test_a_cycle_inside_a_function_is_found(tmp_path, monkeypatch):
    pkg = tmp_path / "cyclic_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclic_pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from cyclic_pkg import a  # hidden in a function\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cyclic_pkg import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert cycles("cyclic_pkg") == [["cyclic_pkg.a", "cyclic_pkg.b"]]
    finally:
        for name in [m for m in sys.modules if m.startswith("cyclic_pkg")]:
            del sys.modules[name]
