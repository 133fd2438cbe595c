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


# The stages after read/ still handed the question's text, each a debt: the list may only shrink.
# The compiler's entry points take the question and read it (compile, answer, prefetch); the LLM
# path writes it into its prompt; the rest slice the text between mentions and are to take the
# Reading instead.
TEXT_TAKERS = {
    "ground/names_and_scope.py::ground_names",
    "ground/names_and_scope.py::_joined_categories",
    "ground/spotting.py::_model_around",
    "ground/spotting.py::apply",
    "interpret/compiler.py::_reading",
    "interpret/compiler.py::prefetch",
    "interpret/compiler.py::compile",
    "interpret/compiler.py::_compile",
    "interpret/compiler.py::answer",
    "interpret/compiler.py::_reconsidered",
    "sparql/llm.py::clauses",
    "sparql/llm.py::_draft",
    "sparql/llm.py::prompt",
    "sparql/llm.py::generate",
    "sparql/read_answer.py::read_answer",
    "sparql/read_answer.py::_read_gap",
    "sparql/read_answer.py::_read_top",
    "sparql/read_answer.py::date_value",
    "sparql/value_answer.py::value_in_unit",
}
QUESTION_NAMES = frozenset({"question", "questions", "q"})


def text_takers(root: Path) -> set[str]:
    """Functions after the read stage with a parameter named for the question's text."""
    found = set()
    for stage in ("ground", "interpret", "sparql"):
        for path in sorted((root / stage).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
                    if names & QUESTION_NAMES:
                        found.add(f"{path.relative_to(root).as_posix()}::{node.name}")
    return found


def test_no_new_stage_after_read_takes_the_question_text():
    new = text_takers(READER) - TEXT_TAKERS
    assert not new, f"take the Reading (query/read/reading.py) instead of the question's text: {sorted(new)}"


def test_the_debt_list_is_current():
    # a function that no longer takes the text leaves the list, so the list says what is left
    assert text_takers(READER) >= TEXT_TAKERS


def test_the_text_check_sees_a_new_taker(tmp_path):
    (tmp_path / "ground").mkdir()
    (tmp_path / "ground" / "m.py").write_text("def f(reading):\n    pass\n\n\ndef g(question):\n    pass\n")
    assert text_takers(tmp_path) == {"ground/m.py::g"}
