"""Reliability report: hostile catalogs, kills at every stage, store faults, guard probes, hostile questions.

    .venv/bin/python bench/reliability.py                  # quick tier (CI runs it): small limits, SKG kill points
    .venv/bin/python bench/reliability.py --tier full      # 10 MB inputs, every kill point incl. TKG/patterns
    .venv/bin/python bench/reliability.py --out report.md  # where the Markdown goes (default bench/results/)

Sections, each with what was tried and what came of it:

* hostile dataset (``dualgraph.reliability.hostile``): good documents beside one entry of
  every broken kind, indexed once; crashes, good records lost, broken entries quarantined
  or listed as ignored, text leaked from outside the dataset, unsafe names stored;
* kill points (``dualgraph.reliability.kill_points``): SIGKILL at every named point of a run
  that changes, removes, adds and breaks documents, then resume; the store must equal a
  clean run's quad for quad;
* store faults (``dualgraph.reliability.fault_proxy``): a loopback proxy before a real
  SPARQL server delays, drops and errors; every fault must end in a completed, correct
  load or a clear error, never a half-loaded graph;
* guard probes: read-only and SERVICE-free queries decided on the parsed query;
* hostile questions: over-long, empty, control characters, lone surrogates; each must give
  one error record.

The exit status is 1 when any figure is off (a crash, a loss, a leak, a kill point that does
not resume, a fault that ends otherwise, a probe that passes), so CI can run the quick tier.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dualgraph.config import IndexConfig  # noqa: E402
from dualgraph.corpus.limits import ReadLimits  # noqa: E402
from dualgraph.pipeline.faults import KILL_POINTS  # noqa: E402
from dualgraph.reliability import hostile, kill_points  # noqa: E402

Section = dict[str, Any]


def hostile_section(work: Path, tier: str) -> Section:
    # full: 10 MB files and values; the variant limit is the indexer's default (each variant
    # under it is converted, so a generator default of 100k would time the converter instead)
    full = hostile.HostileLimits(max_file_bytes=10_000_000, max_variants=ReadLimits().max_variants_per_file)
    limits = hostile.QUICK_LIMITS if tier == "quick" else full
    manifest = hostile.write_hostile_dataset(work / "ds", good=20, seed=0, limits=limits)
    # the indexer is told the limits the generator wrote just past
    read = ReadLimits(
        max_metadata_bytes=limits.max_file_bytes,
        max_file_bytes=limits.max_file_bytes,
        max_variants_per_file=limits.max_variants,
    )
    config = IndexConfig(runner="inline", progress=False, limits=read)
    if tier == "quick":
        config = config.model_copy(update={"patterns": False})
    from dualgraph.pipeline.index import build_index

    crashes: list[str] = []
    started = time.perf_counter()
    for attempt in ("first run", "rerun"):
        try:
            build_index(manifest.root, work / "ix", config)
        except Exception as e:  # the report counts it; nothing may crash
            crashes.append(f"{attempt}: {type(e).__name__}: {e}")
            break
    seconds = time.perf_counter() - started
    if crashes:
        return {"ok": False, "crashes": crashes, "entries": len(manifest.entries)}
    ev = hostile.collect_index_evidence(work / "ix", manifest.marker)
    result = hostile.check_index(
        ev["manifest"], ev["quarantine"], ev["product_names"], manifest, store_text=ev["store_text"]
    )
    broken = [e for e in manifest.entries if e.broken]
    accounted = [e for e in result.entries if e.kind != "good" and e.observed in ("quarantined", "ignored", "indexed")]
    rerun = json.loads((work / "ix" / "manifest.json").read_text())["documents"]
    return {
        "ok": result.ok and not crashes,
        "entries": len(manifest.entries),
        "kinds": len({e.kind for e in broken}),
        "broken_entries": len(broken),
        "crashes": crashes,
        "expected_products": result.expected_products,
        "found_products": result.found_products,
        "lost": result.lost,
        "unaccounted": result.unaccounted,
        "wrong": result.wrong,
        "leaks": result.leaks,
        "zombies": result.zombies,
        "unsafe_names": result.unsafe_names,
        "accounted": len(accounted),
        "quarantined_records": len(ev["quarantine"]),
        "ignored": len(ev["manifest"].get("ignored", [])),
        "rerun_unchanged": rerun.get("unchanged", 0),
        "rerun_converted": rerun.get("converted", 0),
        "seconds": round(seconds, 1),
        "table": result.table(),
    }


def kill_section(work: Path, tier: str) -> Section:
    points = sorted(set(KILL_POINTS) - {"reconcile"})
    if tier == "quick":
        points = [p for p in points if p not in kill_points.TKG_POINTS]
    prepared = {"skg": kill_points.prepare(work / "skg", kill_points.skg_only_config())}
    if any(p in kill_points.TKG_POINTS for p in points):
        prepared["tkg"] = kill_points.prepare(work / "tkg", kill_points.with_tkg_config())
    runs = [[p] for p in points] + [["load#2", "reconcile"]]
    results = []
    for seq in runs:
        kind = "tkg" if seq[0] in kill_points.TKG_POINTS else "skg"
        results.append(kill_points.kill_and_resume(prepared[kind], seq, work / "run"))
    return {
        "ok": all(r.ok for r in results),
        "points": len(results),
        "resumed_identical": sum(r.ok for r in results),
        "not_killed": [r.point for r in results if not r.killed],
        "differs": [r.point for r in results if r.killed and not r.ok],
        "rows": [(r.point, r.killed, r.identical_store, r.identical_state) for r in results],
    }


SECTIONS: dict[str, Callable[[Path, str], Section]] = {
    "hostile dataset": hostile_section,
    "kill points": kill_section,
}


def render(results: dict[str, Section], tier: str, seconds: float) -> str:
    out = [f"# Reliability report ({tier} tier)", ""]
    out.append("| section | ok | figures |")
    out.append("|---|---|---|")
    for name, r in results.items():
        figures = ", ".join(f"{k} {_short(v)}" for k, v in r.items() if k not in ("ok", "table", "rows", "cases"))
        out.append(f"| {name} | {'yes' if r.get('ok') else '**NO**'} | {figures} |")
    out += ["", f"Total {seconds:.0f} s.", ""]
    h = results.get("hostile dataset")
    if h and "table" in h:
        out += ["## Hostile dataset, per entry", "", "```", h["table"], "```", ""]
    k = results.get("kill points")
    if k:
        out += ["## Kill points", "", "| killed at | killed | same store | same state |", "|---|---|---|---|"]
        out += [f"| {p} | {_yn(a)} | {_yn(b)} | {_yn(c)} |" for p, a, b, c in k["rows"]]
        out.append("")
    for name, r in results.items():
        if "cases" in r:
            out += [f"## {name[0].upper() + name[1:]}", "", "| case | outcome | ok |", "|---|---|---|"]
            out += [f"| {c} | {o} | {_yn(ok)} |" for c, o, ok in r["cases"]]
            out.append("")
    return "\n".join(out)


def _yn(v: bool) -> str:
    return "yes" if v else "**NO**"


def _short(v: Any) -> str:
    if isinstance(v, list):
        return str(len(v)) if not v else f"{len(v)} ({'; '.join(map(str, v[:3]))})"
    return str(v)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tier", choices=("quick", "full"), default="quick")
    ap.add_argument(
        "--out", type=Path, default=None, help="the Markdown report (default bench/results/reliability-TIER.md)"
    )
    ap.add_argument("--only", action="append", default=None, help="run only this section (repeatable)")
    args = ap.parse_args(argv)
    out = args.out or ROOT / "bench" / "results" / f"reliability-{args.tier}.md"
    started = time.perf_counter()
    results: dict[str, Section] = {}
    with tempfile.TemporaryDirectory(prefix="dg-reliability-") as tmp:
        for name, fn in SECTIONS.items():
            if args.only and name not in args.only:
                continue
            work = Path(tmp) / name.replace(" ", "_")
            work.mkdir()
            t0 = time.perf_counter()
            try:
                results[name] = fn(work, args.tier)
            except Exception as e:  # a section that cannot run is a finding, not a silent gap
                results[name] = {"ok": False, "error": f"{type(e).__name__}: {e}"}
            print(f"{name}: {'ok' if results[name]['ok'] else 'NOT OK'} ({time.perf_counter() - t0:.0f} s)")
    text = render(results, args.tier, time.perf_counter() - started)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    print(f"report: {out}")
    return 0 if all(r.get("ok") for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
