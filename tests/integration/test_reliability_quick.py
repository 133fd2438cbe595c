"""The quick tier of bench/reliability.py runs in CI: every figure of its report must hold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.network  # the store-fault section runs a real Virtuoso on loopback


def test_quick_reliability_report_has_no_crash_loss_leak_or_failed_resume(tmp_path):
    out = tmp_path / "report.md"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "reliability.py"), "--tier", "quick", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=1200,
        cwd=ROOT,
    )
    report = out.read_text(encoding="utf-8") if out.is_file() else "(no report)"
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:] + report[:3000]
    summary = [line for line in report.splitlines() if line.startswith("| ") and " | " in line][:7]
    sections = {line.split(" | ")[0].strip("| ") for line in summary[1:]}
    assert {"hostile dataset", "kill points", "guard probes", "store faults", "hostile questions"} <= sections
    assert "**NO**" not in report
