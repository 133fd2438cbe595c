"""The reader keeps its shape: small functions, and the raw question read in ``read/`` only.

A function of the reader over 80 lines holds several decisions that can no longer be read or tested
one at a time (the compiler's 266-line ``_compile`` was one); the check fails the unit lane as soon
as one grows past it.
"""

from __future__ import annotations

import ast
from pathlib import Path

READER = Path(__file__).resolve().parents[2] / "dualgraph" / "query"
MAX_LINES = 80


def long_functions(root: Path, limit: int) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > limit:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({size} lines)")
    return found


def test_no_function_of_the_reader_is_over_80_lines():
    assert not long_functions(READER, MAX_LINES)


def test_the_check_sees_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "stage").mkdir()
    (tmp_path / "stage" / "m.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}\n", encoding="utf-8")
    assert long_functions(tmp_path, MAX_LINES) == [f"stage/m.py:5 long ({MAX_LINES + 1} lines)"]
