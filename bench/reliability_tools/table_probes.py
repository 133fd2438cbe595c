"""Hostile tables for ``dualgraph import-table`` (issue 34, point 9): JSON nested past any
reader's depth, more columns than are read, a cell of millions of characters, and a re-import
after a row left the table. Each import runs in a child under a memory cap.

Each probe returns rows ``(case, what happened, held)`` for the reliability report.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .capped import Run, run_capped
from .index_probes import child_env

Row = tuple[str, str, bool]


def _import(source: Path, out: Path, *, cap_mb: float, child: bool, deadline_s: float = 300) -> tuple[Run, list[dict]]:
    """``dualgraph import-table`` on ``source``: in a child under the cap, or (small inputs, to
    spare the start-up) in this process, its memory growth measured the same way."""
    args = ["import-table", str(source), "--out", str(out), "--name", "model", "--spec", "a=Misc:A", "--no-progress"]
    if child:
        run = run_capped(
            [sys.executable, "-m", "dualgraph.cli", *args], cap_mb=cap_mb, deadline_s=deadline_s, env=child_env()
        )
    else:
        run = _in_process(args)
    q = out / "_import_quarantine.jsonl"
    records = (
        [json.loads(line) for line in q.read_text(encoding="utf-8").splitlines() if line.strip()] if q.is_file() else []
    )
    return run, records


def _in_process(args: list[str]) -> Run:
    import contextlib
    import io
    import time
    import traceback

    import psutil

    from dualgraph.cli import main

    me = psutil.Process()
    before, t0 = me.memory_info().rss, time.monotonic()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc: int | None = main(args)
        except Exception:  # the finding: what a user would have seen
            rc = None
            err.write(traceback.format_exc())
    grown = max(0.0, (me.memory_info().rss - before) / 2**20)
    return Run("ended", rc, round(grown, 1), round(time.monotonic() - t0, 2), out.getvalue(), err.getvalue())


def _said(run: Run) -> str:
    lines = (run.stderr.strip() or run.stdout.strip()).splitlines()
    return lines[-1][:140] if lines else "(nothing)"


def _clean(run: Run) -> bool:
    return run.status == "ended" and "Traceback" not in run.stderr


def hostile_tables(
    work: Path, *, columns: int, cell_chars: int, depth: int, cap_mb: float = 1024, child: bool = True
) -> list[Row]:
    """Each hostile table imported (in a child under ``cap_mb`` with ``child``); peaks are MB
    above the start (in this process: the growth of its resident memory)."""
    rows: list[Row] = []
    work.mkdir(parents=True, exist_ok=True)

    nested = work / "nested.jsonl"
    deep = '{"model": "Deep Phone", "a": ' + "[" * depth + "]" * depth + "}"
    nested.write_text('{"model": "Plain Phone", "a": "1"}\n' + deep + "\n", encoding="utf-8")
    run, q = _import(nested, work / "out-nested", cap_mb=cap_mb, child=child)
    named = [r for r in q if "2" in str(r.get("record", ""))]
    rows.append(
        (
            f"JSON Lines value nested {depth:,} levels deep",
            f"{run.status}, exit {run.returncode}, peak {run.peak_mb:.0f} MB; {len(q)} quarantined"
            + (f" ({named[0].get('reason', '')[:80]})" if named else ""),
            _clean(run) and bool(named),
        )
    )

    wide = work / "wide.csv"
    with open(wide, "w", encoding="utf-8") as fh:
        fh.write("model,a," + ",".join(f"c{i}" for i in range(columns)) + "\n")
        fh.write("Wide Phone,1," + ",".join("x" for _ in range(columns)) + "\n")
    run, q = _import(wide, work / "out-wide", cap_mb=cap_mb, child=child)
    rows.append(
        (
            f"a CSV of {columns:,} columns",
            f"{run.status}, exit {run.returncode}, peak {run.peak_mb:.0f} MB; "
            + (f"quarantined: {q[0].get('reason', '')[:90]}" if q else f"said: {_said(run)}"),
            _clean(run) and run.peak_mb < cap_mb and ("columns" in run.stderr + run.stdout + json.dumps(q)),
        )
    )

    big = work / "big.csv"
    big.write_text("model,a\nSmall Phone,1\nHuge Phone," + "y" * cell_chars + "\n", encoding="utf-8")
    run, q = _import(big, work / "out-big", cap_mb=cap_mb, child=child)
    named = [r for r in q if str(r.get("record", "")).endswith("3")]  # the huge cell's row
    rows.append(
        (
            f"a cell of {cell_chars:,} characters",
            f"{run.status}, exit {run.returncode}, peak {run.peak_mb:.0f} MB; {len(q)} quarantined"
            + (f" (record {named[0].get('record')}: {named[0].get('reason', '')[:60]})" if named else ""),
            _clean(run) and bool(named),
        )
    )

    table = work / "table.csv"
    table.write_text("model,a\nKeep One,1\nKeep Two,2\nGone Three,3\n", encoding="utf-8")
    first, _ = _import(table, work / "out-prune", cap_mb=cap_mb, child=child)
    table.write_text("model,a\nKeep One,1\nKeep Two,2\n", encoding="utf-8")
    again, _ = _import(table, work / "out-prune", cap_mb=cap_mb, child=child)
    try:
        counts = json.loads(again.stdout)
    except ValueError:
        counts = {}
    pages = sorted(p.name for p in (work / "out-prune").glob("file-*"))
    rows.append(
        (
            "re-import after a row left the table",
            f"pruned {counts.get('pruned')}; pages left: {len(pages)} of 3"
            + ("" if counts else f"; said: {_said(again)}"),
            _clean(first) and _clean(again) and counts.get("pruned") == 1 and len(pages) == 2,
        )
    )
    return rows
