"""The quick tier of bench/reliability.py runs in CI: every figure of its report must hold, except
the cases it marks open (issue 34.1 and 34.2: per-question budgets being built elsewhere), which it
reports as not held.

Three sections are left out here (``--only`` the others), each run by the dedicated tests through
the very functions the report calls, with as much checked or more (about 35 of the run's 65 CPU-s):

* kill points: tests/integration/test_index_kill_points.py kills at every point of KILL_POINTS
  (the quick tier's SKG points and the Textual KG ones) and at load#2 then reconcile, through
  ``reliability_tools.kill_points.kill_and_resume``, and asks for the same store and state;
* index generations: tests/integration/test_index_generations.py reads in a loop through three
  re-indexes (no error, no partial generation, a publish seen) and kills re-indexes at "load" and
  "rules" (the old index readable and checked clean, the resume equal to a clean run);
* runaway sparql: tests/integration/test_budget.py stops a cartesian query at its deadline (and
  its CPU comes back), an ORDER BY over a cartesian product at its memory budget, and the CLI's
  ``sparql --timeout`` / ``--memory-mb`` each with its exit status and one line.

``bench/reliability.py`` with no ``--only`` still runs every section.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.network  # the store-fault section runs a real Virtuoso on loopback

# the sections the dedicated tests above cover
LEFT_OUT = {"kill points", "index generations", "runaway sparql"}
# every other section of the report
SECTIONS = (
    "hostile dataset",
    "guard probes",
    "store faults",
    "hostile questions",
    "index parts",
    "asked in a capped child",
    "store credentials",
    "slow clients",
    "hostile tables",
)


def test_quick_reliability_report_has_no_crash_loss_leak_or_failed_resume(tmp_path):
    out = tmp_path / "report.md"
    only = [arg for name in SECTIONS for arg in ("--only", name)]
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "reliability.py"), "--tier", "quick", *only, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=1200,
        cwd=ROOT,
    )
    report = out.read_text(encoding="utf-8") if out.is_file() else "(no report)"
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:] + report[:3000]
    head = report.split("\n## ", 1)[0]  # the summary table, one row a section
    sections = {line.split(" | ")[0].strip("| ") for line in head.splitlines() if line.startswith("| ")}
    assert {"hostile dataset", "guard probes", "store faults", "hostile questions"} <= sections
    # issue 34: damaged parts, the read-only child, credentials, tables (slow clients: full tier)
    assert {
        "index parts",
        "asked in a capped child",
        "store credentials",
        "slow clients",
        "hostile tables",
    } <= sections
    # a case that waits on work not landed yet says "no (open: ...)"; every other case must hold
    assert "**NO**" not in report


def test_every_section_but_the_three_left_out_runs_here():
    # a section added to the report runs here until a dedicated test covers it
    import reliability  # bench/ is on sys.path (pyproject's pythonpath)

    assert set(SECTIONS) == set(reliability.SECTIONS) - LEFT_OUT
    assert set(reliability.SECTIONS) >= LEFT_OUT
