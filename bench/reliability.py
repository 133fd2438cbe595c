"""Reliability report: hostile catalogs, kills at every stage, store faults, guard probes, hostile questions.

    .venv/bin/python bench/reliability.py                  # quick tier (CI runs it): small limits, SKG kill points
    .venv/bin/python bench/reliability.py --tier full      # 10 MB inputs, every kill point incl. TKG/patterns
    .venv/bin/python bench/reliability.py --out report.md  # where the Markdown goes (default bench/results/)

Sections, each with what was tried and what came of it:

* hostile dataset (``reliability_tools.hostile``): good documents beside one entry of
  every broken kind, indexed once; crashes, good records lost, broken entries quarantined
  or listed as ignored, text leaked from outside the dataset, unsafe names stored;
* kill points (``reliability_tools.kill_points``): SIGKILL at every named point of a run
  that changes, removes, adds and breaks documents, then resume; the store must equal a
  clean run's quad for quad;
* store faults (``reliability_tools.fault_proxy``): a loopback proxy before a real
  SPARQL server delays, drops and errors; every fault must end in a completed, correct
  load or a clear error, never a half-loaded graph;
* guard probes: read-only and SERVICE-free queries decided on the parsed query;
* hostile questions: over-long, empty, control characters, lone surrogates; each must give
  one error record.

Issue 34's probes (bounded work, self-healing indexes), on the bench catalog (the test
fixture phones plus phones with invisible characters in a spec key; the full tier adds 20
Smartprix listings when the shared data is here):

* index generations (``reliability_tools.index_probes``): a reader process opening the
  index in a loop through re-indexes must see one whole generation every time; a re-index
  SIGKILLed half-way leaves the old index readable and resumes to a clean run's store;
* index parts: each part deleted and corrupted in turn (a few in the quick tier, every
  one in the full tier): ``check`` names it, the next run rebuilds it;
* asked in a capped child (``reliability_tools.capped``): an unprivileged child on a
  read-only copy checks, queries, searches and answers; unreadable questions get no
  product list; a spec key hiding a zero-width character is the real entry; questions
  joining 2 to 9 phrases (``reliability_tools.joined_questions``) each under 1 GB above the
  open index and a deadline, killed past either, never run unbounded;
* runaway sparql: a cartesian product with ORDER BY past ``--timeout``, under the same cap;
* store credentials (``reliability_tools.service_probes``): a store URL edited in the
  index while the password is set; a loopback listener records every request;
* slow clients (full tier): 64 slow clients against Ray Serve while /health is polled, then a
  runaway POST /sparql: its 504 at the deadline, and the serving processes idle right after;
* hostile tables (``reliability_tools.table_probes``): nesting, columns, cell size, pruning.

A case that fails while it waits on work not landed yet (per-question memory and time
budgets, issue 34.1 and 34.2) is reported as "no (open: ...)" and does not fail the run.

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
from reliability_tools import hostile, kill_points  # noqa: E402

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


def guard_section(work: Path, tier: str) -> Section:
    import re

    from dualgraph.stores.base import StoreError
    from dualgraph.stores.guard import read_query
    from dualgraph.stores.oxigraph import OxigraphStore
    from reliability_tools.probes import REFUSAL, CountingServer, guard_probes

    cases = []
    with CountingServer() as server, OxigraphStore.in_memory() as store:
        for name, query in guard_probes(server.url).items():
            outcomes = []
            for check in (read_query, store.select, store.ask, store.construct):
                try:
                    check(query)
                    outcomes.append("ran")
                except StoreError as e:  # QueryRefused is a StoreError
                    outcomes.append("refused" if re.search(REFUSAL, str(e)) else f"error: {e}")
            time.sleep(0.02)  # a request in flight would land by now
            refused = all(o == "refused" for o in outcomes)
            cases.append((name, "refused" if refused else ", ".join(outcomes), refused))
        hits = len(server.hits)
    return {
        "ok": all(ok for _, _, ok in cases) and hits == 0,
        "probes": len(cases),
        "refused": sum(ok for _, _, ok in cases),
        "requests_reaching_the_server": hits,
        "cases": cases,
    }


def store_faults_section(work: Path, tier: str) -> Section:
    """A real Virtuoso behind the fault proxy: an index run through each fault schedule ends in the
    clean store, or in a clear error after which a rerun without faults gives the clean store."""
    sys.path.insert(0, str(ROOT / "tests" / "integration"))
    from virtuoso import VirtuosoServer, free_port, virtuoso_missing  # the test suite's launcher

    from dualgraph.pipeline.index import build_index
    from reliability_tools.fault_proxy import Fault, FaultProxy, after, always, every, first

    missing = virtuoso_missing()
    if missing:
        # CI installs Virtuoso; a machine without it reports the section as not run
        return {"ok": tier == "quick", "skipped": f"Virtuoso cannot run here: {missing}"}
    schedules = {
        "first 2 requests answered 503": first(2, Fault.status(503)),
        "first request answered 429": first(1, Fault.status(429)),
        "every 3rd connection dropped": every(3, Fault.drop()),
        "every 4th answer cut in half": every(4, Fault.cut()),
        "every 3rd request answered 502": every(3, Fault.status(502)),
        "first request delayed past the timeout": first(1, Fault.delay(3.0)),
        "every request from the 8th on answered 503 (down mid-load)": after(8, Fault.status(503)),
        "always 503 (server down)": always(Fault.status(503)),
        "every connection dropped": always(Fault.drop()),
    }
    kill_points.write_v1(work / "ds")
    server = VirtuosoServer(root=work / "virtuoso", isql_port=free_port(), http_port=free_port())
    server.start()
    gsp_path = server.graph_store_url.removeprefix(server.base_url)
    cases = []
    try:
        direct = _endpoint_config(server.sparql_url, server.graph_store_url)
        build_index(work / "ds", work / "clean", direct)
        clean = _graph_dump(direct, work / "clean")
        for name, schedule in schedules.items():
            index = work / name.replace(" ", "_")
            _empty(direct, index)
            with FaultProxy("127.0.0.1", server.http_port, schedule) as proxy:
                try:
                    build_index(work / "ds", index, _endpoint_config(proxy.url("/sparql"), proxy.url(gsp_path)))
                    outcome, clear = "completed", True
                except Exception as e:  # a clear error is a right outcome if a rerun then completes
                    outcome = f"{type(e).__name__}: {str(e)[:160]}"
                    clear = type(e).__name__ == "StoreError" and "attempt" in str(e)
            left = _graph_dump(direct, index)
            first_same = outcome == "completed" and left == clean
            # after an error, each document graph on the server is whole or absent, never half loaded
            half = sorted(_half_graphs(left, clean)) if outcome != "completed" else []
            if half:
                clear, outcome = False, outcome + f"; HALF-LOADED graphs {half}"
            build_index(work / "ds", index, direct)
            rerun_same = _graph_dump(direct, index) == clean
            ok = clear and rerun_same and (outcome != "completed" or first_same)
            note = "the clean store" if rerun_same else "a store that DIFFERS from the clean one"
            cases.append((name, f"{outcome}; the rerun without faults gives {note}", ok))
    finally:
        server.stop()
    return {
        "ok": all(ok for _, _, ok in cases),
        "schedules": len(cases),
        "completed": sum(1 for _, o, _ in cases if o.startswith("completed")),
        "clear_errors": sum(1 for _, o, _ in cases if not o.startswith("completed")),
        "survived": sum(ok for _, _, ok in cases),
        "cases": cases,
    }


def _half_graphs(left: list[str], clean: list[str]) -> set[str]:
    from dualgraph.skg import ontology as O

    def by_graph(rows: list[str]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for r in rows:
            out.setdefault(r.split("|", 1)[0], set()).add(r)
        return out

    docs = O.document_graph("")
    want, have = by_graph(clean), by_graph(left)
    return {g for g, rows in have.items() if g.startswith(docs) and rows != want.get(g)}


def _endpoint_config(url: str, gsp: str) -> IndexConfig:
    from dualgraph.config import StoreConfig

    store = StoreConfig(
        kind="endpoint", query_url=url, graph_store_url=gsp, user="dba", password="dba", timeout_s=2.0,
        retry_attempts=4, retry_backoff_s=0.05, retry_budget_s=8.0,
    )  # fmt: skip
    config = IndexConfig(runner="inline", progress=False, store=store, patterns=False, batch_size=1)
    return config.model_copy(update={"tkg": config.tkg.model_copy(update={"enabled": False})})


def _graph_dump(config: IndexConfig, index: Path) -> list[str]:
    from dualgraph.pipeline.index_store import open_store
    from dualgraph.skg import ontology as O

    prefix = json.dumps(O.GRAPH)
    query = f"SELECT ?g ?s ?p ?o WHERE {{ GRAPH ?g {{ ?s ?p ?o }} FILTER(STRSTARTS(STR(?g), {prefix})) }}"
    with open_store(config.store, index) as st:
        rows = st.select(query)["results"]["bindings"]
    return sorted("|".join(r[k]["value"] for k in ("g", "s", "p", "o")) for r in rows)


def _empty(config: IndexConfig, index: Path) -> None:
    """Every DualGraph graph dropped from the server, so each schedule starts from nothing."""
    from dualgraph.pipeline.index_store import open_store
    from dualgraph.skg import ontology as O

    index.mkdir(parents=True, exist_ok=True)
    with open_store(config.store, index) as st:
        for g in st.graphs():
            if g.startswith(O.GRAPH):
                st.drop_graph(g)


def questions_section(work: Path, tier: str) -> Section:
    from dualgraph.answer.engine import AskConfig, EngineSpec
    from dualgraph.pipeline.answer_files import read_answers
    from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer

    index = bench_index()
    good = "Which phones have at least 5000 mAh?"
    hostile_questions = {
        "good": (good, None),
        "over-long": (good + " " + "and a long tail of words " * 60, "characters long"),
        "empty": ("", "empty"),
        "whitespace": (" \t\n ", "empty"),
        "invisible-only": ("\u200b\u200e", "empty"),
        "lone-surrogate": (good[:-1] + "\ud800?", "not valid Unicode"),
        "controls": ("Which\x00 phones\u202e have\u200b at least 5000 mAh?\x07", None),
    }
    path = work / "questions.json"
    # json.dumps escapes the lone surrogate, as a client's file would carry it
    path.write_text(json.dumps({k: {"question": q} for k, (q, _) in hostile_questions.items()}), encoding="utf-8")
    spec = EngineSpec(index_dir=index, config=AskConfig(strategy="skg"))
    report = bulk_answer(
        path,
        work / "out.jsonl",
        engine_factory=spec,
        strategy="skg",
        config=BulkAnswerConfig(runner="inline", progress=False),
    )
    records = read_answers(work / "out.jsonl").records
    cases = []
    for qid, (_, why) in hostile_questions.items():
        r = records.get(qid)
        if r is None:
            cases.append((qid, "no record", False))
        elif why is None:
            cases.append((qid, f"answered: {', '.join(r.answer_list) or r.error}", r.error is None))
        else:
            cases.append(
                (
                    qid,
                    r.error or "answered",
                    bool(r.error and r.error.startswith("question refused") and why in r.error),
                )
            )
    return {
        "ok": all(ok for _, _, ok in cases) and report.total == len(records) == len(hostile_questions),
        "questions": report.total,
        "records": len(records),
        "refused_with_reason": sum(ok for (qid, _, ok) in cases if hostile_questions[qid][1]),
        "cases": cases,
    }


# -- issue 34: bounded work, self-healing indexes -------------------------------------------------

_SHARED: dict[str, Any] = {}


def bench_index() -> Path:
    """The index the question probes share, built on first use: the fixture phones (imported with
    ``import-table``) and four phones with invisible characters in their battery key, with the
    Textual KG and patterns; the full tier adds 20 Smartprix listings (where the issue measured
    its runaway questions) when the shared data is here.

    The quick tier embeds with the static table distilled from MiniLM (no torch in the child that
    answers: it opens in seconds, not the half minute importing sentence-transformers takes); the
    full tier with MiniLM itself, as ``dualgraph index`` does by default."""
    if "index" not in _SHARED:
        from dualgraph.pipeline.index import build_index
        from reliability_tools import bench_catalog

        root: Path = _SHARED["root"] / "bench-catalog"
        expected = bench_catalog.fixture_catalog(root / "ds")
        config = IndexConfig(runner="inline", progress=False)
        if _SHARED["tier"] == "quick":
            embedder = config.models.embedder.model_copy(update={"kind": "static"})
            config = config.model_copy(update={"models": config.models.model_copy(update={"embedder": embedder})})
        else:
            _SHARED["smartprix"] = bench_catalog.smartprix_catalog(root / "ds", 20)
        build_index(root / "ds", root / "ix", config)
        _SHARED["index"], _SHARED["expected"] = root / "ix", expected
    return _SHARED["index"]


def generations_section(work: Path, tier: str) -> Section:
    """A reader during re-indexes, and re-indexes killed half-way (issue 34.3, 34.6)."""
    from dualgraph.pipeline.faults import KILL_POINTS
    from reliability_tools import index_probes

    points = ("load",) if tier == "quick" else tuple(sorted(set(KILL_POINTS) - kill_points.TKG_POINTS - {"reconcile"}))
    cases = [index_probes.reader_during_reindex(work / "reader", runs=2 if tier == "quick" else 6)]
    cases += index_probes.killed_reindex(work / "killed", points)
    return {"ok": all(c[2] for c in cases), "cases": cases}


def parts_section(work: Path, tier: str) -> Section:
    """Each part of an index deleted and corrupted in turn (issue 34.4): named by ``check``,
    rebuilt by the next run. The quick tier damages a few parts of a small index without the
    Textual KG; the full tier every part of the bench index."""
    from dualgraph.pipeline.index import build_index
    from reliability_tools import index_probes

    if tier == "quick":
        kill_points.write_v1(work / "ds")
        config = kill_points.skg_only_config()
        built, dataset = work / "ix", work / "ds"
        build_index(dataset, built, config)
    else:
        built = bench_index()
        dataset, config = built.parent / "ds", IndexConfig(runner="inline", progress=False)
    cases = index_probes.part_damage(built, dataset, config, work / "damaged", every_part=tier == "full")
    return {"ok": all(c[2] for c in cases), "parts_damaged": len(cases), "cases": cases}


UNREADABLE = ("{{{{", "the the the", "有什么手机电池大吗")


def asked_section(work: Path, tier: str) -> Section:
    """A child process, unprivileged, on a read-only copy of the bench index (issue 34.6): it
    checks, queries, searches and answers; then unreadable questions (34.8), spec keys and a
    question with invisible characters (34.7), and questions joining 2 to 9 phrases (34.1), each
    under a memory cap of 1 GB above the open index and a deadline."""
    from reliability_tools import bench_catalog, index_probes
    from reliability_tools.capped import CappedAsker, Outcome
    from reliability_tools.joined_questions import FROM_THE_ISSUE, joined_questions

    index = bench_index()
    prefix = index_probes.unprivileged_prefix()
    ro = index_probes.read_only_copy(index, work / "read-only")
    cases: list[tuple] = []
    deadline = 30.0 if tier == "quick" else 60.0

    def line(o: Outcome) -> str:
        r = o.result
        if "crash" in r or r.get("error"):
            got = r.get("crash") or r.get("error")
        elif "answer" in r:
            got = "no product list" if r["answer"] is None else f"{len(r['answer'])} products"
        elif "rows" in r:
            got = f"{r['rows']} rows"
        else:
            got = f"exit {r.get('exit')}" if "exit" in r else "no reply"
        conf = f", confidence {r['confidence']:.2f}" if isinstance(r.get("confidence"), float) else ""
        return f"{o.status} in {o.seconds:.1f} s, +{o.peak_mb:.0f} MB; {got}{conf}"

    try:
        with CappedAsker(ro, cap_mb=1024, deadline_s=deadline, prefix=prefix or []) as asker:
            who = "an unprivileged process" if prefix is not None else "root (no way to drop privileges here)"
            for kind, text in (
                ("check", ""),
                ("sparql", "SELECT ?p WHERE { ?p a skgt:Product }"),
                ("search", "fast charging"),
                ("ask", "Which phones have 5G?"),
            ):
                o = asker.ask(text, kind)
                r = o.result
                ok = o.bounded and (r.get("exit") == 0 if kind == "check" else bool(r.get("rows") or r.get("answer")))
                cases.append((f"read-only index, {who}: {kind}", line(o), ok and prefix is not None))

            for text in UNREADABLE:
                o = asker.ask(text)
                r = o.result
                listed = r.get("answer") or []
                conf = r.get("confidence") or 0.0
                cases.append((f"unreadable question {text!r}", line(o), o.bounded and not listed and conf < 0.5))

            five = _SHARED["expected"]["5000"]
            zw = {n for n in bench_catalog.INVISIBLE_KEYS}
            hidden = bench_catalog.HIDDEN
            for text in (
                "Which phones have a 5000 mAh battery?",
                f"Which phones have a 50{hidden}00 mAh bat\u200btery{bench_catalog.TAG}?",
            ):
                o = asker.ask(text)
                got = set(o.result.get("answer") or [])
                ok = o.bounded and got & zw == five & zw
                cases.append((f"zero-width keys: {text!a}", line(o) + f"; of the four: {sorted(got & zw)}", ok))

            questions = list(FROM_THE_ISSUE[:1]) if tier == "quick" else list(FROM_THE_ISSUE)
            if tier == "full":
                questions += [q["question"] for q in joined_questions(300, seed=34)]
            over = 0
            for text in questions:
                o = asker.ask(text)
                over += o.status != "done"
                cases.append((f"joined phrases: {text[:90]}", line(o), o.bounded))
    finally:
        index_probes.writable_again(ro)
    memory = [c for c in cases if c[0].startswith("joined phrases")]
    return {
        "ok": all(c[2] for c in cases),
        "engine_opens": asker.starts,
        "joined_questions": len(memory),
        "bounded": sum(c[2] for c in memory),
        "over_cap_or_deadline": over,
        "cases": cases,
    }


def sparql_section(work: Path, tier: str) -> Section:
    """A runaway query (34.2): must end at its timeout and stay under 1 GB."""
    from reliability_tools import service_probes

    row = service_probes.runaway_sparql(bench_index(), timeout_s=3.0, cap_mb=1024)
    return {"ok": row[2], "cases": [row]}


def credentials_section(work: Path, tier: str) -> Section:
    """A store URL edited in the index while the password is in the environment (34.5)."""
    from reliability_tools import service_probes

    cases = service_probes.tampered_store_url(work)
    return {"ok": all(c[2] for c in cases), "commands": len(cases), "cases": cases}


def slow_clients_section(work: Path, tier: str) -> Section:
    """64 slow clients against Ray Serve while /health is polled (34.3), and a runaway POST /sparql
    whose 504 must leave the serving processes idle (34.2): full tier only."""
    if tier == "quick":
        return {"ok": True, "skipped": "full tier only (starting Ray Serve takes most of a minute)"}
    from reliability_tools import service_probes

    cases = service_probes.slow_clients(bench_index())
    return {"ok": all(c[2] for c in cases), "cases": cases}


def tables_section(work: Path, tier: str) -> Section:
    """Hostile tables for import-table (34.9), each import in a child under 1 GB."""
    from reliability_tools import table_probes

    sizes = {"columns": 20_000, "cell_chars": 2_000_000, "depth": 100_000}
    if tier == "full":
        sizes = {"columns": 1_000_000, "cell_chars": 20_000_000, "depth": 1_000_000}
    # the quick tier's small tables in this process (no start-up per import); the full tier's in children
    cases = table_probes.hostile_tables(work, **sizes, child=tier == "full")
    return {"ok": all(c[2] for c in cases), "cases": cases}


SECTIONS: dict[str, Callable[[Path, str], Section]] = {
    "hostile dataset": hostile_section,
    "kill points": kill_section,
    "guard probes": guard_section,
    "store faults": store_faults_section,
    "hostile questions": questions_section,
    "index generations": generations_section,
    "index parts": parts_section,
    "asked in a capped child": asked_section,
    "runaway sparql": sparql_section,
    "store credentials": credentials_section,
    "slow clients": slow_clients_section,
    "hostile tables": tables_section,
}


def render(results: dict[str, Section], tier: str, seconds: float) -> str:
    out = [f"# Reliability report ({tier} tier)", ""]
    out.append("| section | ok | figures |")
    out.append("|---|---|---|")
    for name, r in results.items():
        figures = ", ".join(f"{k} {_short(v)}" for k, v in r.items() if k not in ("ok", "table", "rows", "cases"))
        if "cases" in r:
            held = sum(bool(c[2]) for c in r["cases"])
            waiting = sum(1 for c in r["cases"] if not c[2] and len(c) > 3 and c[3])
            figures = (
                f"{held} of {len(r['cases'])} cases held"
                + (f" ({waiting} open)" if waiting else "")
                + (f", {figures}" if figures else "")
            )
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
            out += [f"## {name[0].upper() + name[1:]}", "", "| case | outcome | held |", "|---|---|---|"]
            out += [f"| {_cell(c[0])} | {_cell(c[1])} | {_held(c)} |" for c in r["cases"]]
            out.append("")
    return "\n".join(out)


def _held(case: tuple) -> str:
    """yes; **NO**; or, for a case that waits on work not done yet, no and what it waits on."""
    if case[2]:
        return "yes"
    return f"no ({case[3]})" if len(case) > 3 and case[3] else "**NO**"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


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
        _SHARED.update(root=Path(tmp), tier=args.tier)
        (Path(tmp) / "bench-catalog").mkdir()
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
