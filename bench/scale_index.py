"""How index time and memory grow with the catalog, and what a small change costs (issue 12).

    .venv/bin/python bench/scale_index.py --sizes 2000,10000 [--work /tmp/dg-scale] [--runner ray]
        [--mutate-percent 1] [--heavy] [--questions 120] [--out bench/results/scale_index] [-- EXTRA INDEX FLAGS]

For each size a catalog is generated (``bench/gen_catalog.py``, seed 0) and indexed from
scratch with ``dualgraph index`` in a child process, default settings unless flags follow
``--``. A thread samples the resident set size of that process *and all its children* (Ray
workers are processes of their own) every 200 ms. Then ``--mutate-percent`` of the largest
catalog's documents are changed (``gen_catalog.mutate``) and the index is run again: the
re-index time over the full time is the incremental ratio, and the manifest's list of
re-processed documents must be exactly the changed ones. ``--heavy``: catalogs with full data
sheets (about 1,270 quads a product). ``--questions N``: after each full index, N questions of
``bench/gen_questions.py`` (``--heavy`` like the catalog) are answered in bulk by a child process
(``bench/qa_rate.py``): questions/s, p50 and p90 per size beside the index figures.

Prints and writes OUT.md and OUT.json: products, documents, quads, seconds, ms per product,
per-product time over that of the smallest size, peak RSS; then the incremental run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def tree_rss_mb(pid: int) -> float:
    """Resident set size of a process and all its descendants, in MB (0 once it is gone).

    Read from /proc (Linux), so the benchmark needs no extra package."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while we looked
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    page = os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, ()))
        try:
            total += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    return total / 2**20


def run_index(dataset: Path, index: Path, flags: list[str], log: Path) -> dict[str, Any]:
    """``dualgraph index`` as a user runs it; returns seconds, peak tree RSS and the manifest."""
    cmd = [sys.executable, "-m", "dualgraph.cli", "index", str(dataset), "--index", str(index), *flags]
    peak = 0.0
    with log.open("ab") as out:
        out.write(f"\n$ {' '.join(cmd)}\n".encode())
        out.flush()
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.wait(0.2):
                peak = max(peak, tree_rss_mb(proc.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        rc = proc.wait()
        seconds = time.perf_counter() - started
        done.set()
        sampler.join()
    if rc != 0:
        raise SystemExit(f"dualgraph index exited {rc}; see {log}")
    manifest = json.loads((index / "manifest.json").read_text(encoding="utf-8"))
    return {"seconds": round(seconds, 2), "peak_rss_mb": round(peak), "manifest": manifest}


def answer_rate(index: Path, questions: Path) -> dict[str, Any]:
    """``bench/qa_rate.py`` on ``index`` in a child process (a fresh engine, as a user's run)."""
    cmd = [sys.executable, str(ROOT / "bench" / "qa_rate.py"), "--index", str(index), "--questions", str(questions)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return json.loads(out.strip().splitlines()[-1])


def reprocessed(manifest: dict[str, Any]) -> list[str] | None:
    """The manifest's list of documents converted again this run, wherever the index writes it."""
    docs = manifest.get("documents", {})
    found = docs.get("reprocessed")
    if isinstance(found, dict):  # per market
        return sorted({d for ids in found.values() for d in ids})
    return sorted(found) if isinstance(found, list) else None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1 :]
        argv = argv[: argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2000,10000", help="comma-separated product counts")
    ap.add_argument("--work", type=Path, default=Path("/tmp/dg-scale"))
    ap.add_argument("--runner", choices=("ray", "inline"), default="ray")
    ap.add_argument("--mutate-percent", type=float, default=1.0, help="0: no incremental run")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scale_index")
    ap.add_argument("--keep", action="store_true", help="keep the catalogs and indexes")
    ap.add_argument("--heavy", action="store_true", help="catalogs with full data sheets (gen_catalog --heavy)")
    ap.add_argument("--questions", type=int, default=0, help="answer N generated questions per size (0: none)")
    args = ap.parse_args(argv)
    import gen_catalog
    import gen_questions

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    flags = ["--runner", args.runner, *extra]
    args.work.mkdir(parents=True, exist_ok=True)
    log = args.work / "index.log"
    rows: list[dict[str, Any]] = []
    incremental: dict[str, Any] = {}
    for n in sizes:
        dataset, index = args.work / f"catalog-{n}", args.work / f"index-{n}"
        shutil.rmtree(dataset, ignore_errors=True)
        shutil.rmtree(index, ignore_errors=True)
        gen_catalog.generate(dataset, n, heavy=args.heavy)
        full = run_index(dataset, index, flags, log)
        m = full["manifest"]
        rows.append(
            {
                "products": m["products"],
                "documents": m["documents"]["total"],
                "quads": m["triples"],
                "seconds": full["seconds"],
                "ms_per_product": round(full["seconds"] / max(m["products"], 1) * 1000, 2),
                "peak_rss_mb": full["peak_rss_mb"],
                "stages": m.get("seconds", {}),
            }
        )
        if args.questions:
            asked = args.work / f"questions-{n}.json"
            asked.write_text(json.dumps(gen_questions.questions(args.questions, 0, heavy=args.heavy)), "utf-8")
            rows[-1]["answering"] = answer_rate(index, asked)
        print(json.dumps(rows[-1]), flush=True)
        if n == max(sizes) and args.mutate_percent > 0:
            changed = gen_catalog.mutate(dataset, args.mutate_percent, seed=1)
            again = run_index(dataset, index, flags, log)
            listed = reprocessed(again["manifest"])
            incremental = {
                "products": m["products"],
                "percent": args.mutate_percent,
                "changed_documents": len(changed),
                "seconds": again["seconds"],
                "full_seconds": full["seconds"],
                "ratio": round(again["seconds"] / full["seconds"], 4),
                "manifest_lists_exactly_the_changed": listed == sorted(changed) if listed is not None else None,
                "converted": again["manifest"]["documents"].get("converted"),
                "stages": again["manifest"].get("seconds", {}),
            }
            print(json.dumps(incremental), flush=True)
        if not args.keep:
            shutil.rmtree(dataset, ignore_errors=True)
            shutil.rmtree(index, ignore_errors=True)
    base = rows[0]["ms_per_product"] if rows else 1.0
    for r in rows:
        r["per_product_vs_smallest"] = round(r["ms_per_product"] / base, 3)
    text = render(rows, incremental, flags, heavy=args.heavy)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    result = {"flags": flags, "cpus": os.cpu_count(), "sizes": rows, "incremental": incremental}
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(text)
    return 0


def render(rows: list[dict[str, Any]], incremental: dict[str, Any], flags: list[str], *, heavy: bool = False) -> str:
    asked = any("answering" in r for r in rows)
    out = [
        "# Index time and memory by catalog size",
        "",
        f"`dualgraph index {' '.join(flags)}` on catalogs from `bench/gen_catalog.py` (seed 0"
        + (", `--heavy`: full data sheets" if heavy else "")
        + f"), {os.cpu_count()} CPUs; peak RSS is the index process and all its children. "
        + ("Answering: `bench/qa_rate.py` (a fresh engine, batches of 8, default strategy). " if asked else "")
        + "Written by `bench/scale_index.py`.",
        "",
        "| products | documents | quads | seconds | docs / s | ms / product | per product vs smallest | peak RSS MB |"
        + (" open s | q/s | p50 ms | p90 ms |" if asked else ""),
        "|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|---:|---:|" if asked else ""),
    ]
    for r in rows:
        line = (
            f"| {r['products']:,} | {r['documents']:,} | {r['quads']:,} | {r['seconds']:.1f} | "
            f"{r['documents'] / max(r['seconds'], 1e-9):.1f} | "
            f"{r['ms_per_product']:.1f} | {r['per_product_vs_smallest']:.2f} | {r['peak_rss_mb']:,} |"
        )
        if asked:
            a = r.get("answering") or {}
            line += f" {a.get('open_s', '-')} | {a.get('qps', '-')} | {a.get('p50_ms', '-')} | {a.get('p90_ms', '-')} |"
        out.append(line)
    if incremental:
        i = incremental
        out += [
            "",
            f"Re-index after changing {i['percent']} % of the documents of the {i['products']:,}-product catalog "
            f"({i['changed_documents']} documents): {i['seconds']:.1f} s against {i['full_seconds']:.1f} s, "
            f"**ratio {i['ratio']:.3f}** (goal ≤ 0.05); documents converted again: {i['converted']}; "
            f"the manifest lists exactly the changed ones: {i['manifest_lists_exactly_the_changed']}.",
        ]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
