"""Command lines of the Spark jobs (``jobs/spark_etl.py``, ``jobs/spark_graph.py``): options come from
the pydantic models, so ``--help`` shows each field's description."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pydantic import BaseModel

from dualgraph.spark.options import EtlOptions, GraphOptions

__all__ = ["add_model_options", "etl_main", "graph_main", "model_from_args"]


def add_model_options(parser: argparse.ArgumentParser, model: type[BaseModel], *, skip: tuple[str, ...] = ()) -> None:
    """One ``--field-name`` per field of ``model`` (booleans as ``--no-field`` when they default to true)."""
    for name, info in model.model_fields.items():
        if name in skip:
            continue
        flag = "--" + name.replace("_", "-")
        help_text = info.description or ""
        if info.annotation is bool:
            if info.default:
                parser.add_argument(f"--no-{name.replace('_', '-')}", dest=name, action="store_false", help=help_text)
            else:
                parser.add_argument(flag, dest=name, action="store_true", help=help_text)
        elif name == "ignore_entries":
            parser.add_argument(flag, dest=name, action="append", metavar="ENTRY", help=help_text + " (repeatable)")
        else:
            kind = int if "int" in str(info.annotation) else str
            parser.add_argument(flag, dest=name, type=kind, help=help_text)


def model_from_args(model: type[BaseModel], args: argparse.Namespace) -> Any:
    """The model from the options given (those left out keep the model's defaults)."""
    given = {k: v for k, v in vars(args).items() if k in model.model_fields and v is not None}
    return model(**given)


def _session(args: argparse.Namespace, name: str, progress: bool):
    from dualgraph.spark.session import spark_session

    return spark_session(name, master=args.master, shuffle_partitions=args.shuffle_partitions, progress=progress)


def _spark_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--master", help="Spark master for a run without spark-submit, e.g. local[4]")
    parser.add_argument("--shuffle-partitions", type=int, help="spark.sql.shuffle.partitions for this run")


def etl_main(argv: list[str] | None = None) -> int:
    """``import-table`` on Spark; prints the counts as JSON. Exit 2: bad mapping; 1: a file was unreadable."""
    from dualgraph.corpus.mapping import MappingError, add_arguments, mapping_from_args
    from dualgraph.spark.etl import import_tables

    parser = argparse.ArgumentParser(prog="spark_etl.py", description=etl_main.__doc__)
    add_arguments(parser)  # the very options of `dualgraph import-table`
    add_model_options(parser, EtlOptions, skip=("chunk_chars", "progress"))
    _spark_arguments(parser)
    args = parser.parse_args(argv)
    options = model_from_args(EtlOptions, args).model_copy(update={"progress": not args.no_progress})
    try:
        mapping = mapping_from_args(args)
        spark = _session(args, "dualgraph-import-table", not args.no_progress)
        report = import_tables(spark, args.source, args.out, mapping, options)
    except MappingError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps({**report.counts, "seconds": round(report.seconds, 1)}, indent=1))
    return 1 if report.unreadable else 0


def graph_main(argv: list[str] | None = None) -> int:
    """Export an index's triples to Parquet (unless given a Parquet table) and analyse them."""
    from pathlib import Path

    from dualgraph.spark.graph import analyse
    from dualgraph.spark.triples import export_triples

    parser = argparse.ArgumentParser(prog="spark_graph.py", description=graph_main.__doc__)
    parser.add_argument("source", help="index directory (its store is exported first) or a triples .parquet")
    parser.add_argument("--out", required=True, help="directory for components.parquet and report.json")
    parser.add_argument("--triples", help="where to write the exported triples (default: OUT/triples.parquet)")
    add_model_options(parser, GraphOptions)
    _spark_arguments(parser)
    args = parser.parse_args(argv)
    options = model_from_args(GraphOptions, args)
    source = Path(args.source)
    if source.is_dir():
        triples = Path(args.triples or Path(args.out) / "triples.parquet")
        export_triples(source, triples, progress=options.progress)
    else:
        triples = source
    spark = _session(args, "dualgraph-graph", options.progress)
    report = analyse(spark, triples, args.out, options)
    print(json.dumps(report.to_dict(), indent=1, ensure_ascii=False))
    return 0


def node2vec_graph_main(argv: list[str] | None = None) -> int:
    """Build the aligner's node2vec graph with Spark (for `dualgraph align --graph FILE`)."""
    from pathlib import Path

    from dualgraph.spark.node2vec_graph import write_node2vec_graph
    from dualgraph.spark.triples import export_triples

    parser = argparse.ArgumentParser(prog="spark_node2vec_graph.py", description=node2vec_graph_main.__doc__)
    parser.add_argument("source", help="index directory (its store is exported first) or a triples .parquet")
    parser.add_argument("--out", required=True, help="the Parquet file of node pairs to write")
    parser.add_argument("--triples", help="where to write the exported triples (default: beside OUT)")
    parser.add_argument("--keep-types", action="store_true", help="keep rdf:type edges")
    parser.add_argument("--max-degree", type=int, help="drop nodes of more edges than this")
    parser.add_argument("--no-progress", action="store_true")
    _spark_arguments(parser)
    args = parser.parse_args(argv)
    source = Path(args.source)
    if source.is_dir():
        triples = Path(args.triples or Path(args.out).with_name("triples.parquet"))
        export_triples(source, triples, progress=not args.no_progress)
    else:
        triples = source
    spark = _session(args, "dualgraph-node2vec-graph", not args.no_progress)
    report = write_node2vec_graph(
        spark.read.parquet(str(triples)), args.out, keep_types=args.keep_types, max_degree=args.max_degree
    )
    print(json.dumps(report, indent=1))
    return 0
