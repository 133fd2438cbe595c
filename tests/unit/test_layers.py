"""The import contracts of pyproject.toml ([tool.importlinter]) hold, and would catch a leak.

scripts/lint.sh runs the same check; here it fails the unit lane too, so a leak is seen
wherever the tests run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    if not LINT_IMPORTS.is_file():
        pytest.fail(f"{LINT_IMPORTS} is missing: install the dev extra (import-linter)")
    # the package under cwd is the one checked, whatever copy of it the environment has installed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(cwd), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-logo", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def toml_value(value: object) -> str:
    # JSON spells strings, lists of strings and booleans as TOML does
    return json.dumps(value)


def test_the_package_keeps_its_import_contracts():
    run = lint_imports(ROOT, "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_the_contracts_catch_a_leak(tmp_path):
    """The same contracts over a made-up package that breaks each one, from inside functions too."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    modules = {
        "__init__.py": "",
        "config.py": "",
        "corpus/__init__.py": "",
        "llm_batch/__init__.py": "",
        "pipeline/__init__.py": "",
        "stores/__init__.py": "",
        # a module new to the package is covered too: stores may import nothing outside stores
        "stores/factory.py": "def open_it():\n    from dualgraph.brand_new import thing\n",
        "brand_new.py": "thing = 1\n",
        "stores/base.py": "from dualgraph.stores import factory\n",
        "skg/__init__.py": "",
        # skg reaching the corpus through another module is a leak as well
        "skg/triples.py": "import dualgraph.pipeline.layout\n",
        "pipeline/layout.py": "from dualgraph.corpus import model\n",
        "corpus/model.py": "",
        "models/__init__.py": "",
        "models/factory.py": "def build():\n    import dualgraph.llm_batch\n",
        # a reader stage leaning on a later one; the SPARQL stage may name the compiler's classes
        # in annotations only
        "query/__init__.py": "",
        "query/read/__init__.py": "",
        "query/read/parse.py": "def parse():\n    from dualgraph.query.ground import grounder\n",
        "query/ground/__init__.py": "",
        "query/ground/grounder.py": "",
        "query/interpret/__init__.py": "",
        "query/interpret/compiler.py": "",
        "query/sparql/__init__.py": "",
        "query/sparql/read_answer.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from dualgraph.query.interpret import compiler\n"
        ),
        # the catalog's words built with the reader
        "lexicon/__init__.py": "",
        "lexicon/vocabulary.py": "import dualgraph.query.read.parse\n",
    }
    for name, text in modules.items():
        path = tmp_path / "dualgraph" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    config = tmp_path / "contracts.toml"
    lines = [f"{key} = {toml_value(value)}" for key, value in contracts.items() if key != "contracts"]
    for c in contracts["contracts"]:
        lines.append("[[tool.importlinter.contracts]]")
        lines += [f"{key} = {toml_value(value)}" for key, value in c.items()]
    config.write_text("[tool.importlinter]\n" + "\n".join(lines) + "\n", encoding="utf-8")

    run = lint_imports(tmp_path, "--no-cache", "--config", str(config))
    out = run.stdout
    assert run.returncode != 0, out
    assert f"0 kept, {len(contracts['contracts'])} broken" in out, out
    assert "dualgraph.stores.factory -> dualgraph.brand_new" in out
    assert "dualgraph.skg.triples -> dualgraph.pipeline.layout" in out
    assert "dualgraph.models.factory -> dualgraph.llm_batch" in out
    assert "dualgraph.query.read.parse -> dualgraph.query.ground.grounder" in out
    assert "dualgraph.lexicon.vocabulary -> dualgraph.query.read.parse" in out
    assert "dualgraph.query.sparql.read_answer" not in out
    assert out.count(" BROKEN") == len(contracts["contracts"])
