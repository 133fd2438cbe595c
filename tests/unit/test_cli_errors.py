"""Mistakes a user makes on the command line end in one line on stderr and exit status 2, never a
traceback: a query file that is not there, an endpoint store without the [endpoint] extra."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dualgraph.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_query_file_is_one_line(tmp_path, capsys):
    rc = main(["sparql", "--index", str(tmp_path), f"@{tmp_path / 'missing.rq'}"])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert "cannot read the query file" in err and "missing.rq" in err and "No such file" in err


def test_a_query_file_that_is_not_text_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bin.rq"
    bad.write_bytes(b"\xff\xfe\x00SELECT")
    assert main(["sparql", "--index", str(tmp_path), f"@{bad}"]) == 2
    assert "cannot read the query file" in capsys.readouterr().err


def _without_extra(tmp_path: Path, module: str, *argv: str) -> subprocess.CompletedProcess:
    # a child process: blocking the extra's modules here would break the rest of the session
    code = (
        "import sys\n"
        f"sys.modules[{module!r}] = None  # as on an install without the extra\n"
        "from dualgraph.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_an_endpoint_store_without_the_extra_names_the_extra(tmp_path):
    index = tmp_path / "ix"
    index.mkdir()
    (index / "manifest.json").write_text("{}")
    (index / "store.json").write_text(json.dumps({"kind": "virtuoso", "query_url": "http://127.0.0.1:9/sparql"}))
    for module in ("SPARQLWrapper", "requests"):
        done = _without_extra(tmp_path, module, "sparql", "--index", str(index), "ASK {}")
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        assert "[endpoint] extra" in lines[0] and module in lines[0]
