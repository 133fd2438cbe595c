"""notebooks/walkthrough.ipynb runs headless from start to end (nbclient, a fresh kernel of this
environment) in a temporary directory, without an error output; it is stored without outputs and
holds only calls into the library (no functions or classes of its own)."""

from __future__ import annotations

import ast
import os
import time
from pathlib import Path

import pytest

from dualgraph import shared_data

nbformat = pytest.importorskip("nbformat", reason="the dev extra (nbformat, nbclient, ipykernel)")
nbclient = pytest.importorskip("nbclient", reason="the dev extra (nbformat, nbclient, ipykernel)")
pytest.importorskip("ipykernel", reason="the dev extra (nbformat, nbclient, ipykernel)")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "walkthrough.ipynb"
# the walkthrough reads the public Smartprix listings from the shared data folder
NO_DATA = shared_data.missing(["smartprix-india-2025/smartphones_cleaned.csv"])
CELL_TIMEOUT_S = 90
RUN_BUDGET_S = 90  # the whole run: about 30 s here on two busy cores


def _code_cells(nb) -> list[str]:
    return [c.source for c in nb.cells if c.cell_type == "code"]


def _problems(nb) -> list[str]:
    """What keeps a notebook from being a clean walkthrough of library calls."""
    problems = [
        f"cell {i} keeps outputs: clear them before committing"
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and (c.outputs or c.execution_count is not None)
    ]
    trees = [ast.parse(src) for src in _code_cells(nb)]
    own = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    problems += [
        f"defines a {type(node).__name__} (logic belongs in the library)"
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, own)
    ]
    modules = {(n.module or "").split(".")[0] for t in trees for n in ast.walk(t) if isinstance(n, ast.ImportFrom)}
    if "dualgraph" not in modules:
        problems.append("never imports dualgraph")
    return problems


def test_the_notebook_is_stored_clean_and_only_calls_the_library():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert _problems(nb) == []


def test_a_notebook_with_logic_of_its_own_or_outputs_is_caught():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("def score(rows):\n    return sum(rows)"))
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="left over")]
    problems = _problems(nb)
    assert any("FunctionDef" in p for p in problems) and any("keeps outputs" in p for p in problems)
    library_free = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import pandas as pd")])
    assert "never imports dualgraph" in _problems(library_free)


@pytest.mark.skipif(NO_DATA is not None, reason=f"the walkthrough's catalog: {NO_DATA}")
def test_the_walkthrough_runs_without_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    monkeypatch.setenv("DUALGRAPH_REPO", str(ROOT))
    monkeypatch.setenv("DUALGRAPH_WORK", str(tmp_path / "work"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    client = nbclient.NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},  # the kernel's working directory
    )
    start = time.monotonic()
    client.execute()  # raises CellExecutionError on the first cell that fails
    took = time.monotonic() - start
    assert took < RUN_BUDGET_S, f"the walkthrough took {took:.0f} s"

    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == []
    stderr = "".join(
        o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.get("name") == "stderr"
    )
    assert "Traceback" not in stderr and "Error" not in stderr, stderr[-2000:]

    # what each step is there to show reached the output
    text = {i: "" for i in range(len(nb.cells))}
    for i, cell in enumerate(nb.cells):
        for o in cell.get("outputs", []):
            text[i] += o.get("text", "") + "".join(str(v) for v in o.get("data", {}).values())
    everything = "\n".join(text.values())
    assert "SELECT" in everything  # the generated SPARQL was printed
    assert any("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))  # the plot
    assert (tmp_path / "work" / "index" / "manifest.json").is_file()
    assert not (ROOT / "notebooks" / "dataset").exists() and os.listdir(tmp_path)  # it wrote only where told
