"""The ``dualgraph`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def _cmd_plan(args: argparse.Namespace) -> int:
    import json

    from dualgraph.pipeline.views import describe

    rows = describe()
    if args.json:
        print("\n".join(json.dumps(r, ensure_ascii=False) for r in rows))
        return 0
    for r in rows:
        print(f"{r['view']}: {r['holds']}")
        for k in ("reads", "writes", "key"):
            print(f"  {k:7s} {r[k]}")
    return 0


def _cmd_index(args: argparse.Namespace) -> int:
    from dualgraph.config import IndexConfig

    config = IndexConfig.load(
        args.config,
        runner=args.runner,
        ray_address=args.ray_address,
        batch_size=args.batch_size,
        rules_path=args.rules,
        progress=False if args.no_progress else None,
        store_kind=args.store,
        store_query_url=args.sparql_url,
        store_update_url=args.sparql_update_url,
        store_graph_store_url=args.graph_store_url,
        store_user=args.sparql_user,
        store_max_rows=args.sparql_max_rows,
        store_profile=args.sparql_profile,
        store_allow_insecure_auth=True if args.allow_insecure_auth else None,
        tkg_enabled=False if args.no_tkg else None,
        tkg_extractor=args.extractor,
        tkg_embed_chunks=True if args.embed_chunks else None,
        llm_base_url=args.llm_url,
        llm_model=args.llm_model,
        llm_api_key_env=args.llm_api_key_env,
        embedder_name=args.embedder,
        embedder_kind=args.embedder_kind,
    )
    from dualgraph.api import DualGraph
    from dualgraph.corpus.markets import MarketError
    from dualgraph.pipeline.generations import IndexBusy
    from dualgraph.stores.base import StoreError

    try:  # SIGTERM/SIGINT end the run with Ray shut down (a rerun resumes where it stopped)
        graph = DualGraph.build(args.dataset, args.index, config=config, market=args.market)
    except (StoreError, FileNotFoundError, MarketError, IndexBusy) as e:
        print(f"dualgraph index: {e}", file=sys.stderr)
        return 2
    print(json.dumps(graph.manifest, indent=2, ensure_ascii=False))
    return 0


# Exit statuses of `dualgraph sparql` beyond 0 (done) and 2 (refused, malformed, store down).
SPARQL_TRUNCATED, SPARQL_TIMED_OUT, SPARQL_OVER_MEMORY = 3, 4, 5


def _cmd_sparql(args: argparse.Namespace) -> int:
    from dualgraph.api import DualGraph
    from dualgraph.budget import MemoryExceeded
    from dualgraph.stores.base import QueryTimeout, StoreError

    query = args.query
    if query == "-":
        query = sys.stdin.read()
    elif query.startswith("@"):
        try:
            query = Path(query[1:]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            print(f"dualgraph sparql: cannot read the query file {query[1:]}: {reason}", file=sys.stderr)
            return 2
    from dualgraph.pipeline.index_check import IndexDamaged

    cap = args.max_rows
    graph = DualGraph(args.index, market=args.market)
    try:
        budget = _budget(args)
    except ValueError as e:
        print(f"dualgraph sparql: {e}", file=sys.stderr)
        return 2
    if args.sparql_url or args.allow_insecure_auth or budget != graph.budget:
        from dualgraph.answer.engine import AskConfig

        flags = AskConfig(store_url=args.sparql_url, allow_insecure_auth=args.allow_insecure_auth, budget=budget)
        graph = DualGraph(args.index, market=args.market, config=flags)
    try:
        # no index check first: a store whose first index run stopped half-way can still be read
        with graph:
            out = graph.sparql(query, timeout=args.timeout, max_rows=cap)
    except QueryTimeout as e:
        print(f"dualgraph sparql: {e} (--timeout {args.timeout})", file=sys.stderr)
        return SPARQL_TIMED_OUT
    except MemoryExceeded as e:
        print(f"dualgraph sparql: {e} (--memory-mb {args.memory_mb})", file=sys.stderr)
        return SPARQL_OVER_MEMORY
    except (StoreError, IndexDamaged) as e:
        print(f"dualgraph sparql: {e}", file=sys.stderr)
        return 2
    cut = bool(out.get("truncated"))
    if "triples" in out:
        for s, p, o in out["triples"]:
            print(f"{s} {p} {o} .")
        return _cut_report(cut, cap, "triples")
    if args.format == "table" and "results" in out:
        print(_table(out))
    else:
        print(json.dumps(out, indent=args.indent, ensure_ascii=False))
    return _cut_report(cut, cap, "rows")


def _cut_report(cut: bool, cap: int, what: str) -> int:
    if not cut:
        return 0
    print(f"dualgraph sparql: result cut at {cap} {what} (--max-rows); add a LIMIT or raise the cap", file=sys.stderr)
    return SPARQL_TRUNCATED


def _table(results: dict) -> str:
    """SPARQL JSON results as a plain text table (for people; scripts read the JSON)."""
    cols = results["head"]["vars"]
    rows = [[b.get(c, {}).get("value", "") for c in cols] for b in results["results"]["bindings"]]
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
    line = lambda cells: "  ".join(v.ljust(w) for v, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([line(cols), line(["-" * w for w in widths])] + [line(r) for r in rows] + [f"({len(rows)} rows)"])


def _cmd_import_table(args: argparse.Namespace) -> int:
    from dualgraph.corpus.tabular import main_from_args

    return main_from_args(args)


def _cmd_import_scrape(args: argparse.Namespace) -> int:
    from dualgraph.corpus.shop_html import import_scrape

    report = import_scrape(args.source, args.out, chunk_chars=args.chunk_chars, progress=not args.no_progress)
    print(json.dumps({**report.counts, "quarantine": report.quarantine_path}, indent=1))
    return 0


def _cmd_search(args: argparse.Namespace) -> int:
    from dualgraph.api import DualGraph
    from dualgraph.pipeline.index_check import IndexDamaged

    try:
        with DualGraph(args.index) as graph:
            result = graph.search(args.text, k=args.k, entities=args.entities, mode=args.mode)
    except (
        FileNotFoundError,
        IndexDamaged,
    ) as e:  # no Textual KG (or for --mode naive, no chunk embeddings), or a damaged one
        print(f"dualgraph search: {e}", file=sys.stderr)
        return 2
    out = {
        "question": args.text,
        "mode": args.mode,
        "entities": [{"name": e.name, "score": round(e.score, 4)} for e in result.entities[: args.entities]],
        "chunks": [
            {
                "chunk_id": c.chunk_id,
                "score": round(c.score, 4),
                "products": list(c.chunk.products),
                "text": c.chunk.text[: args.chars],
            }
            for c in result.chunks
        ],
        "products": result.products,
    }
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    print(f"entities ({len(result.entities)} matched):")
    for ent in out["entities"]:
        print(f"  {ent['score']:.4f}  {ent['name']}")
    print(f"chunks ({len(result.chunks)}):")
    for c in out["chunks"]:
        print(f"  {c['score']:.4f}  {c['chunk_id']}  [{', '.join(c['products'])}]")
        print("         " + " ".join(c["text"].split())[: args.chars])
    if args.mode == "exhaustive":
        print(f"products ({len(result.products)}):")
        for p in result.products:
            print(f"  {p}")
    return 0


def _ask_config(args: argparse.Namespace, *, many: bool = False):
    from dualgraph.answer.engine import AskConfig
    from dualgraph.models.factory import LLMConfig

    llm = None
    if args.llm_url:
        if not args.llm_model:
            raise ValueError("--llm-url needs --llm-model")
        llm = LLMConfig(base_url=args.llm_url, model=args.llm_model, api_key_env=args.llm_api_key_env)
    cap = args.max_question_chars
    return AskConfig(
        strategy=args.strategy,
        market=getattr(args, "market", None),
        currency=args.currency,
        llm=llm,
        names=args.names,
        max_question_chars=cap if cap is None or cap > 0 else None,  # 0 lifts the cap
        # one question does not repay copying the store; a questions file or a server does
        in_memory_quads=_in_memory_quads(args, many=many),
        batch_threads=getattr(args, "batch_threads", 1),
        store_url=args.sparql_url,
        allow_insecure_auth=args.allow_insecure_auth,
        budget=_budget(args),
    )


def _budget_arguments(parser: argparse.ArgumentParser, *, deadline: bool = True) -> None:
    from dualgraph.budget import DEFAULT_DEADLINE_S, DEFAULT_MEMORY_MB

    if deadline:
        parser.add_argument(
            "--deadline",
            type=float,
            default=DEFAULT_DEADLINE_S,
            help=f"seconds a question (or a batch of them) may run before its work is stopped and it gets an "
            f"error record saying so (default {DEFAULT_DEADLINE_S:g}; 0: no deadline)",
        )
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=DEFAULT_MEMORY_MB,
        help=f"megabytes of memory a {'question' if deadline else 'query'} may add to the worker process that runs "
        f"it before its work is stopped (default {DEFAULT_MEMORY_MB}; 0: no budget)",
    )
    parser.add_argument(
        "--no-isolate",
        action="store_true",
        help="run in this process, with no worker to stop: no deadline nor memory budget is enforced "
        "(for measuring and debugging)",
    )


def _budget(args: argparse.Namespace):
    """The WorkBudget the budget flags ask for (ValueError for a bad value)."""
    from dualgraph.budget import DEFAULT_DEADLINE_S, WorkBudget

    deadline = getattr(args, "deadline", DEFAULT_DEADLINE_S)  # `sparql` has none: its --timeout is the deadline
    return WorkBudget(
        isolate=not args.no_isolate,
        deadline_s=deadline if deadline else None,
        memory_mb=args.memory_mb if args.memory_mb else None,
    )


def _store_arguments(parser: argparse.ArgumentParser, *, reading: bool = True) -> None:
    if reading:
        parser.add_argument(
            "--sparql-url",
            help="for an index on a SPARQL server: the endpoint to query, in place of the index's store.json "
            "(the store password, DUALGRAPH_SPARQL_PASSWORD, is sent only to an endpoint named here or in "
            "DUALGRAPH_SPARQL_URL)",
        )
    parser.add_argument(
        "--allow-insecure-auth",
        action="store_true",
        help="send the store password over plain HTTP to another machine (refused by default: use https)",
    )


API_KEY_ENV_NAME = "DUALGRAPH_API_KEY"  # dualgraph.serve.app.API_KEY_ENV, without importing Ray Serve for --help


def _in_memory_argument(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument(
        "--in-memory-quads",
        type=int,
        help="copy an embedded store of at most this many quads into memory at start: queries about twice "
        f"as fast, ~0.3 KB of RAM per quad (default: {default}; 0: query the files)",
    )


def _in_memory_quads(args: argparse.Namespace, *, many: bool) -> int:
    """The user's --in-memory-quads, else the default for answering many questions or one."""
    from dualgraph.answer.engine import IN_MEMORY_QUADS

    given = getattr(args, "in_memory_quads", None)
    return given if given is not None else (IN_MEMORY_QUADS if many else 0)


def _question_cap_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-question-chars",
        type=int,
        default=1000,
        help="longest question read; longer ones get an error record (default 1000; 0: no cap)",
    )


def _cmd_ask(args: argparse.Namespace) -> int:
    from dualgraph.api import DualGraph, format_answer
    from dualgraph.pipeline.index_check import IndexDamaged
    from dualgraph.stores.base import StoreError

    if bool(args.questions) == bool(args.question):
        print("dualgraph ask: give either a QUESTION or --questions FILE (with --out)", file=sys.stderr)
        return 2
    try:
        config = _ask_config(args, many=bool(args.questions))
    except ValueError as e:
        print(f"dualgraph ask: {e}", file=sys.stderr)
        return 2
    if args.questions:
        from dualgraph.pipeline.bulk_answer import BulkAnswerConfig

        if not args.out:
            print("dualgraph ask: --questions needs --out ANSWERS.jsonl", file=sys.stderr)
            return 2
        bulk = BulkAnswerConfig(
            runner=args.runner or "auto",
            ray_address=args.ray_address,
            batch_size=args.batch_size,
            concurrency=args.concurrency,
            resume=not args.no_resume,
            retry_over_budget=args.retry_over_budget,
            progress=not args.no_progress,
        )
        # no index check first: the workers' engines report a missing index (and a finished file opens none)
        graph = DualGraph(Path(args.index).resolve(), config=config)
        try:
            config.model_validate(config.model_dump())
            # SIGTERM / Ctrl-C: the Ray this run started is shut down, not left running
            report = graph.ask_file(args.questions, args.out, bulk=bulk)
        except (FileNotFoundError, StoreError, ValueError, IndexDamaged) as e:
            print(f"dualgraph ask: {e}", file=sys.stderr)
            return 2
        print(report.model_dump_json(indent=1))
        return 0
    try:
        graph = DualGraph.open(args.index, config=config)
        graph.open_engine()  # opened here: a store or market it cannot open is reported as before
    except (FileNotFoundError, StoreError, ValueError, IndexDamaged) as e:
        print(f"dualgraph ask: {e}", file=sys.stderr)
        return 2
    with graph:
        record = graph.ask(args.question)
    if args.json:
        print(record.model_dump_json(indent=1))
    else:
        print(format_answer(record, explain=args.explain))
    return 0 if record.error is None else 1


def _cmd_serve(args: argparse.Namespace) -> int:
    from dualgraph.api import DualGraph

    try:
        import ray.serve  # noqa: F401 - fail early when the extra is missing

        from dualgraph.serve.app import API_KEY_ENV, ServeConfig
    except ImportError as e:
        print(f"dualgraph serve: Ray Serve is not installed ({e}); pip install 'dualgraph[serve]'", file=sys.stderr)
        return 2
    try:
        config = _ask_config(args, many=True)
    except ValueError as e:
        print(f"dualgraph serve: {e}", file=sys.stderr)
        return 2
    index = Path(args.index).resolve()
    if not (index / "manifest.json").is_file():
        print(f"dualgraph serve: {index} is not an index directory (no manifest.json)", file=sys.stderr)
        return 2
    from dualgraph.pipeline.index_store import index_store_config
    from dualgraph.stores.base import StoreError

    try:  # here, in one line, rather than as a replica that fails to start
        index_store_config(index, url=config.store_url, allow_insecure_auth=config.allow_insecure_auth)
    except StoreError as e:
        print(f"dualgraph serve: {e}", file=sys.stderr)
        return 2
    try:
        serve_config = ServeConfig(
            host=args.host,
            port=args.port,
            replicas=args.replicas,
            max_replicas=args.max_replicas,
            max_batch_size=args.max_batch,
            batch_wait_s=args.batch_wait,
            sparql_endpoint=args.sparql_endpoint,
            max_body_bytes=args.max_body_bytes,
            request_timeout_s=args.request_timeout,
            api_key_env=args.api_key_env or API_KEY_ENV,
        )
    except ValueError as e:
        print(f"dualgraph serve: {e}", file=sys.stderr)
        return 2
    if args.api_key_env and serve_config.key_digest() is None:
        print(f"dualgraph serve: --api-key-env names {args.api_key_env}, which is not set", file=sys.stderr)
        return 2
    auth = "API key required" if serve_config.key_digest() else "no API key"
    print(
        f"serving {index} on http://{args.host}:{args.port}/ (the page; the API: POST /ask, /ask_batch; "
        f"GET /health, /stats, /openapi.json{'; POST /sparql' if args.sparql_endpoint else ''}) "
        f"(strategy {config.strategy}; {auth}); Ctrl-C stops",
        flush=True,
    )
    from dualgraph.pipeline.index_check import IndexDamaged, check_readable

    try:
        check_readable(index, "engine")  # before the banner: a damaged index serves nothing
    except IndexDamaged as e:
        print(f"dualgraph serve: {e}", file=sys.stderr)
        return 2
    DualGraph(index, config=config).serve(serve_config)  # SIGTERM / Ctrl-C: Serve and Ray shut down
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from dualgraph.api import DualGraph

    with DualGraph(args.index) as graph:
        found = graph.check(store_url=args.sparql_url, allow_insecure_auth=args.allow_insecure_auth)
    for c in found:
        if not args.problems or c.broken:
            print(c.line())
    broken = sum(c.broken for c in found)
    print(f"{len(found)} parts: {len(found) - broken} ok, {broken} missing or corrupt", file=sys.stderr)
    return 1 if broken else 0


def _cmd_import_icecat(args: argparse.Namespace) -> int:
    from dualgraph.corpus.icecat import import_icecat

    report = import_icecat(args.source, args.out)
    print(json.dumps({**report.counts, "quarantine": report.quarantine_path}, indent=1))
    return 0


def _cmd_align(args: argparse.Namespace) -> int:
    from dualgraph.align.job import AlignConfig, align_index, summary

    config = AlignConfig()
    if args.config:
        import yaml

        with open(args.config, encoding="utf-8") as f:
            config = AlignConfig.model_validate(yaml.safe_load(f) or {})
    report = align_index(
        args.index, config, use_ray=args.ray, progress=not args.no_progress, write=not args.dry_run, graph=args.graph
    )
    print(json.dumps(summary(report), indent=1, ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dualgraph", description="Question answering over semi-structured catalogs.")
    p.add_argument(
        "--verbose",
        action="store_true",
        help="let Ray's own log lines and progress through (same as DUALGRAPH_RAY_LOGS=1); before the command",
    )
    sub = p.add_subparsers(dest="command", required=True)

    pl = sub.add_parser("plan", help="print what an index is made of: the document pass and the derived views")
    pl.add_argument("--json", action="store_true", help="one JSON object per view instead of a table")
    pl.set_defaults(func=_cmd_plan)

    ix = sub.add_parser("index", help="build (or update) the index of a SpecsQA dataset directory")
    ix.add_argument("dataset", help="dataset directory (file-<id>/file-<id>.json …)")
    ix.add_argument("--index", required=True, help="index directory to create or update")
    ix.add_argument("--config", help="YAML config file (keys of IndexConfig)")
    ix.add_argument("--runner", choices=["ray", "inline"], help="run stages on Ray Data (default) or in-process")
    ix.add_argument("--ray-address", help="an existing Ray cluster; default: local Ray")
    ix.add_argument("--batch-size", type=int, help="documents per batch/shard")
    ix.add_argument("--rules", help="rules YAML replacing the built-in derivation rules")
    ix.add_argument("--no-progress", action="store_true", help="no progress bars")
    ix.add_argument("--no-tkg", action="store_true", help="build the Symbolic KG only")
    ix.add_argument(
        "--embedder-kind",
        choices=["sentence-transformers", "static"],
        help="MiniLM (default), or a static model distilled from it once: ~100x faster without a GPU, "
        "2-5 points lower on our dev sets (bench/results/embedding_choice.md)",
    )
    ix.add_argument(
        "--embed-chunks",
        action="store_true",
        help="also embed every chunk (for `search --mode naive`; slow without a GPU, answering never needs it)",
    )
    ix.add_argument(
        "--extractor", choices=["heuristic", "llm", "both"], help="entity extraction (default heuristic: no model)"
    )
    ix.add_argument(
        "--embedder", help="sentence-transformers model name or path (default: the bundled all-MiniLM-L6-v2)"
    )
    ix.add_argument(
        "--llm-url", help="an OpenAI-compatible server (vLLM, llama.cpp, a hosted one), e.g. http://127.0.0.1:8080"
    )
    ix.add_argument("--llm-model", help="model name sent to the LLM server")
    ix.add_argument("--llm-api-key-env", help="name of the environment variable holding the LLM API key")
    ix.add_argument(
        "--store", choices=["oxigraph", "endpoint"], help="embedded Oxigraph (default) or a SPARQL 1.1 server"
    )
    ix.add_argument("--sparql-url", help="query endpoint of the SPARQL server (--store endpoint)")
    ix.add_argument("--sparql-update-url", help="update endpoint, if not the query endpoint")
    ix.add_argument(
        "--graph-store-url", help="Graph Store Protocol endpoint for bulk loads (Virtuoso: /sparql-graph-crud-auth)"
    )
    ix.add_argument(
        "--sparql-user", help="user for HTTP Digest auth; the password comes from DUALGRAPH_SPARQL_PASSWORD"
    )
    ix.add_argument("--sparql-max-rows", type=int, help="the server's result row cap, so cut results are reported")
    ix.add_argument(
        "--sparql-profile",
        choices=["virtuoso", "oxigraph-server", "blazegraph", "generic"],
        help="the kind of SPARQL server: fills in its other URLs, auth style and row cap from --sparql-url",
    )
    ix.add_argument(
        "--market",
        help="the country/shop this directory is the full snapshot of (e.g. uk): its documents are added or "
        "replaced, ones no longer there removed, other markets left alone; default: the default market",
    )
    _store_arguments(ix, reading=False)
    ix.set_defaults(func=_cmd_index)

    sq = sub.add_parser("sparql", help="run a read-only SPARQL query (prefixes skg: skgt: rdf: rdfs: xsd: predeclared)")
    sq.add_argument("query", help="the query, @FILE, or - for standard input")
    sq.add_argument("--index", required=True, help="index directory")
    sq.add_argument("--indent", type=int, default=None, help="indent the JSON output")
    sq.add_argument(
        "--format", choices=["json", "table"], default="json", help="SPARQL 1.1 JSON results (default) or a text table"
    )
    sq.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="give up after this many seconds (default 30): message on stderr, exit status 4",
    )
    sq.add_argument(
        "--max-rows",
        type=int,
        default=10_000,
        help="print at most this many rows or triples (default 10000); when cut, the JSON gets "
        '"truncated": true, stderr says so and the exit status is 3',
    )
    sq.add_argument("--market", help="see one market's products and prices only (default: all markets)")
    _budget_arguments(sq, deadline=False)
    _store_arguments(sq)
    sq.set_defaults(func=_cmd_sparql)

    ck = sub.add_parser(
        "check",
        help="verify every part of an index against its manifest (checksums, the store's counts); reads only",
        description="One line a part: ok, missing, corrupt (with why) or absent (an optional cache). Exit status 0 "
        "when every part is whole, 1 otherwise; `dualgraph index` rebuilds what is damaged.",
    )
    ck.add_argument("--index", required=True, help="index directory")
    ck.add_argument("--problems", action="store_true", help="print only the parts that are missing or corrupt")
    _store_arguments(ck)
    ck.set_defaults(func=_cmd_check)

    it = sub.add_parser("import-table", help="a CSV/Parquet/JSON Lines catalog + column mapping -> a dataset directory")
    from dualgraph.corpus.mapping import add_arguments

    add_arguments(it)
    it.add_argument(
        "--no-prune",
        action="store_true",
        help="keep pages of an earlier import whose rows are gone from the table (default: removed, counted as pruned)",
    )
    it.set_defaults(func=_cmd_import_table)

    isc = sub.add_parser(
        "import-scrape", help="scraped shop pages (variant JSONs + HTML, layouts A/B/C) -> a dataset directory"
    )
    isc.add_argument("source", help="folder of scraped variant JSONs and <url_hash>.html pages")
    isc.add_argument("--out", required=True, help="dataset directory to write")
    isc.add_argument("--chunk-chars", type=int, default=5000, help="Markdown chunk size cap")
    isc.add_argument("--no-progress", action="store_true", help="no progress bars")
    isc.set_defaults(func=_cmd_import_scrape)

    se = sub.add_parser("search", help="top entities and chunks of the Textual KG for a text (a debugging aid)")
    se.add_argument("text", help="the question or phrase")
    se.add_argument("--index", required=True, help="index directory")
    se.add_argument(
        "--mode",
        choices=["vote", "exhaustive", "naive"],
        default="vote",
        help="entity-vote top-k (default), exhaustive (every chunk mentioning the matched entities), naive vector RAG",
    )
    se.add_argument("-k", type=int, default=5, help="chunks to show")
    se.add_argument("--entities", type=int, default=10, help="entities to show / to vote")
    se.add_argument("--chars", type=int, default=160, help="characters of each chunk to show")
    se.add_argument("--json", action="store_true", help="print JSON")
    se.set_defaults(func=_cmd_search)

    from dualgraph.answer.strategies import STRATEGIES

    ak = sub.add_parser(
        "ask",
        help="answer a question, or a whole questions file (bulk, on Ray Data)",
        description='One question: `dualgraph ask --index DIR "question"`. Bulk: `dualgraph ask --index DIR '
        "--questions QUESTIONS.json --out ANSWERS.jsonl [--strategy NAME]` (SpecsQA format; resumable).",
    )
    ak.add_argument("question", nargs="?", help="the question (omit with --questions)")
    ak.add_argument("--index", required=True, help="index directory")
    ak.add_argument(
        "--strategy", choices=STRATEGIES, default="skg+tkg_fb", help="answering strategy (default skg+tkg_fb)"
    )
    ak.add_argument(
        "--explain", action="store_true", help="print the caps reached, every decision, the SPARQL and its rows"
    )
    ak.add_argument(
        "--names",
        choices=["product", "range", "auto"],
        default="auto",
        help="answer with product (listing/variant) names, range names, or auto (ranges when pages offer option pickers)",
    )
    ak.add_argument("--currency", help="currency of bare prices ('under 20k'); default: the catalog's most common")
    ak.add_argument("--json", action="store_true", help="print the answer record as JSON")
    ak.add_argument("--market", help="answer from one market's products and prices (default: all markets)")
    ak.add_argument("--questions", help="a questions file (JSON object keyed by id, each with 'question')")
    ak.add_argument("--out", help="answers file to write (JSON Lines, one record per question)")
    ak.add_argument(
        "--runner",
        choices=["ray", "inline", "auto"],
        help="bulk: Ray Data actors, in-process, or auto (default: inline for a few hundred questions, else Ray)",
    )
    ak.add_argument("--ray-address", help="bulk: an existing Ray cluster; default: local Ray")
    ak.add_argument("--batch-size", type=int, default=8, help="bulk: questions per engine call")
    ak.add_argument("--concurrency", type=int, help="bulk: engine actors on Ray")
    ak.add_argument("--no-resume", action="store_true", help="bulk: overwrite OUT instead of resuming it")
    ak.add_argument(
        "--retry-over-budget",
        action="store_true",
        help="bulk, resuming: answer again the questions stopped past their deadline or memory budget "
        "(kept by default: raise --deadline or --memory-mb first)",
    )
    ak.add_argument("--no-progress", action="store_true", help="bulk: no progress bar")
    ak.add_argument("--llm-url", help="an OpenAI-compatible server: LLM SPARQL, router, agent and answer text")
    ak.add_argument("--llm-model", help="model name sent to the LLM server")
    ak.add_argument("--llm-api-key-env", help="name of the environment variable holding the LLM API key")
    _question_cap_argument(ak)
    _budget_arguments(ak)
    _in_memory_argument(ak, "3,000,000 with --questions, 0 for one question")
    _store_arguments(ak)
    ak.set_defaults(func=_cmd_ask)

    sv = sub.add_parser("serve", help="answer questions over HTTP with Ray Serve (batched; the `serve` extra)")
    sv.add_argument("--index", required=True, help="index directory")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default loopback)")
    sv.add_argument("--port", type=int, default=8000, help="HTTP port")
    sv.add_argument("--replicas", type=int, default=1, help="engine replicas")
    sv.add_argument(
        "--max-replicas",
        type=int,
        help="autoscale between 1 and this many replicas on the requests each holds (default: --replicas, fixed)",
    )
    sv.add_argument("--max-batch", type=int, default=16, help="most questions per engine call")
    sv.add_argument(
        "--batch-wait", type=float, default=0.02, help="seconds a replica waits to fill a batch (default 0.02)"
    )
    sv.add_argument(
        "--sparql-endpoint",
        action="store_true",
        help="offer POST /sparql: read-only SELECT/ASK over the index, capped in length, rows and time (off by default)",
    )
    sv.add_argument("--strategy", choices=STRATEGIES, default="skg+tkg_fb", help="default strategy")
    sv.add_argument("--names", choices=["product", "range", "auto"], default="auto", help="what answers name")
    sv.add_argument("--currency", help="currency of bare prices")
    sv.add_argument("--llm-url", help="an OpenAI-compatible server")
    sv.add_argument("--llm-model", help="model name sent to the LLM server")
    sv.add_argument("--llm-api-key-env", help="name of the environment variable holding the LLM API key")
    _question_cap_argument(sv)
    _budget_arguments(sv)
    _in_memory_argument(sv, "3,000,000")
    sv.add_argument(
        "--batch-threads",
        type=int,
        default=2,
        help="threads that compile and query one batch's questions at once (default 2: Oxigraph and FAISS "
        "run without the GIL, so a second core takes part of the work)",
    )
    sv.add_argument(
        "--max-body-bytes", type=int, default=64 * 1024, help="largest request body (HTTP 413 beyond; default 64 KiB)"
    )
    sv.add_argument(
        "--request-timeout", type=float, default=120.0, help="seconds per request (HTTP 504 beyond; default 120)"
    )
    sv.add_argument(
        "--api-key-env",
        help=f"environment variable holding the API key clients must send (default {API_KEY_ENV_NAME}: "
        "a key is required when it is set)",
    )
    _store_arguments(sv)
    sv.set_defaults(func=_cmd_serve)

    from dualgraph.eval.cli import add_eval_parser

    add_eval_parser(sub)

    al = sub.add_parser(
        "align",
        help="train the node2vec + InfoNCE aligner on an index and write the links it accepts (skg:alignsWith, "
        "pattern aliases)",
    )
    al.add_argument("--index", required=True, help="index directory (built by `dualgraph index`)")
    al.add_argument("--config", help="YAML file with keys of AlignConfig (node2vec:, train:, thresholds)")
    al.add_argument("--ray", action="store_true", help="run node2vec as a Ray task (local Ray, or RAY_ADDRESS)")
    al.add_argument("--dry-run", action="store_true", help="train and report, write nothing to the store or patterns")
    al.add_argument(
        "--graph",
        help="the node2vec graph built by jobs/spark_node2vec_graph.py (Parquet), instead of exporting it here",
    )
    al.add_argument("--no-progress", action="store_true", help="no progress bars")
    al.set_defaults(func=_cmd_align)

    iic = sub.add_parser(
        "import-icecat", help="Open Icecat NDJSON exports -> a dataset directory (one page per product)"
    )
    iic.add_argument("source", nargs="+", help="NDJSON file(s), one product per line")
    iic.add_argument("--out", required=True, help="dataset directory to write")
    iic.set_defaults(func=_cmd_import_icecat)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.verbose:
        from dualgraph.pipeline.ray_logging import RAY_LOGS_ENV

        # set before Ray starts: its workers inherit the environment and read it there too
        os.environ[RAY_LOGS_ENV] = "1"
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
