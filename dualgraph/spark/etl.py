"""``import-table`` on Spark: table dumps (CSV/TSV, Parquet, JSON Lines) to dataset directories.

Same mapping files, same documents, same quarantine entries as ``dualgraph import-table``:
every row goes through the converter ``import-table`` uses and every page through its page
builder; only the work is spread over tasks.

1. The driver opens each file to check its columns against the mapping (a
   :class:`~dualgraph.corpus.mapping.MappingError` before anything is written, as
   ``import-table``) and cuts the input into read units: one per Parquet row group, one per
   text file (quoted CSV fields may span lines, so a text file is not cut at byte offsets).
2. Tasks read their units with ``import-table``'s readers, so record labels (``line 7``,
   ``row 12``) are the same; rows are spread over ``partitions`` and converted there.
3. Rows are hash-partitioned by (market, page key) and sorted by their place in the input,
   so each task builds whole pages in the order ``import-table`` would, and writes them.
4. The driver writes the quarantine files, entries in ``import-table``'s order.

With ``market_column``, each market's rows become ``OUT/<market>/`` (its quarantine there);
rows whose market code is unusable, and unreadable files, are quarantined in ``OUT/``.
Output directories must be on storage every executor writes to (as for the Ray jobs).
"""

from __future__ import annotations

import itertools
import json
import sqlite3
import sys
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dualgraph.corpus.mapping import MappingError, TableMapping
from dualgraph.corpus.markets import MarketError, check_market
from dualgraph.corpus.model import Quarantine
from dualgraph.corpus.report import ImportReport
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.corpus.tabular import table_kind
from dualgraph.skg.names import canonical
from dualgraph.spark._corpus import ROWS_TABLE, RowConverter, TableFileError, open_rows, pages_from_rows
from dualgraph.spark.options import EtlOptions

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["EtlReport", "ReadUnit", "import_tables", "plan_units"]

_FILE = -1  # ordinal of a whole-file entry: before the file's first record
_SEQ_BITS = 40  # seq = file index << 40 | record ordinal: input order as one integer, as import-table's seq


@dataclass(frozen=True)
class ReadUnit:
    """A piece of the input one task reads: a whole file, or one row group of a Parquet file."""

    file_idx: int
    path: str
    row_group: int | None = None
    first_row: int = 0  # rows of the file before this row group (labels count from the file's start)


@dataclass
class EtlReport:
    """What the Spark import read and wrote: one :class:`ImportReport` per output directory.

    The key ``None`` is ``OUT`` itself (the only one without ``market_column``): unreadable files
    and rows without a usable market code are quarantined there.
    """

    source: str
    out_dir: str
    reports: dict[str | None, ImportReport] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def counts(self) -> dict[str, Any]:
        """``import-table``'s figures over all directories, plus ``markets``: each market's own."""
        total: dict[str, int] = {}
        for report in self.reports.values():
            for k, v in report.counts.items():
                total[k] = total.get(k, 0) + v
        out: dict[str, Any] = {"records": 0, "variants": 0, "pages": 0, "quarantined": 0, **total}
        markets = {m: r.counts for m, r in sorted(self.reports.items(), key=lambda kv: kv[0] or "") if m is not None}
        if markets:
            out["markets"] = markets
        return out

    @property
    def unreadable(self) -> bool:
        """A whole file could not be read (``import-table`` exits 1 then)."""
        return any(q.stage == "read" for r in self.reports.values() for q in r.quarantined)


def _log(enabled: bool, message: str) -> None:
    if enabled:
        print(f"spark-etl: {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- plan (driver)


def plan_units(
    sources: Sequence[Path], mapping: TableMapping, *, market_column: str | None
) -> tuple[list[ReadUnit], list[tuple[tuple, str | None, Quarantine]]]:
    """Check every file's columns and cut the input into read units; unreadable files come back
    as quarantine entries. Raises :class:`MappingError` as ``import-table`` does."""
    units: list[ReadUnit] = []
    bad: list[tuple[tuple, str | None, Quarantine]] = []
    for idx, path in enumerate(sources):
        try:
            header, rows, _ = open_rows(path)
        except TableFileError as e:
            bad.append(((0, idx, _FILE, 0), None, Quarantine(str(path), "file", "read", str(e))))
            continue
        del rows  # only the header was wanted here: tasks read the rows (dropping it closes the file)
        if header is not None:
            mapping.check_columns(header, data_file=str(path))
            if market_column is not None and market_column not in header:
                raise MappingError("--market-column", "market_column", f"column {market_column!r} is not in {path}")
        if table_kind(path) == "parquet":
            import pyarrow.parquet as pq

            meta = pq.ParquetFile(path).metadata
            first = 0
            for rg in range(meta.num_row_groups):
                units.append(ReadUnit(idx, str(path), rg, first))
                first += meta.row_group(rg).num_rows
        else:
            units.append(ReadUnit(idx, str(path)))
    return units, bad


# --------------------------------------------------------------------------- read + convert (tasks)

Record = tuple[int, int, str, str, dict | None, str | None]  # file idx, ordinal, file, label, row, error


def read_unit(unit: ReadUnit) -> Iterator[Record]:
    """The records of one unit, labelled as ``import-table`` labels them."""
    path = Path(unit.path)
    if unit.row_group is None:
        try:
            _, rows, _ = open_rows(path)
        except TableFileError as e:  # readable on the driver a moment ago: changed or gone since
            yield unit.file_idx, _FILE, unit.path, "file", None, str(e)
            return
        for n, (label, row, error) in enumerate(rows, 1):
            yield unit.file_idx, n, unit.path, label, row, error
        return
    import pyarrow.parquet as pq

    n = unit.first_row
    try:
        pf = pq.ParquetFile(path)
        for batch in pf.iter_batches(batch_size=8192, row_groups=[unit.row_group]):
            for row in batch.to_pylist():
                n += 1
                yield unit.file_idx, n, unit.path, f"row {n}", row, None
    except Exception as e:  # a corrupt row group loses that row group only
        yield unit.file_idx, n + 1, unit.path, f"row {n + 1}", None, f"cannot read the rest of the file: {e}"


def _market_of(row: dict, column: str) -> str:
    raw = row.get(column)
    code = raw.strip() if isinstance(raw, str) else (None if raw is None else str(raw))
    return check_market(code, where=f"column {column!r}")


def _convert_one(conv: RowConverter, record: Record, market_column: str | None) -> tuple[str | None, bool, list[tuple]]:
    """(market, counts as a record, tagged tuples) of one record; see :func:`convert_records`."""
    file_idx, ordinal, file, label, row, error = record
    sub = itertools.count()
    out: list[tuple] = []

    def quarantine(market: str | None, where: str, stage: str, reason: str) -> None:
        out.append(("q", market, (0, file_idx, ordinal, next(sub)), Quarantine(file, where, stage, reason)))

    is_record = ordinal != _FILE  # a whole-file entry is no record
    if row is None:
        quarantine(None, label, "row" if is_record else "read", error or "unusable row")
        return None, is_record, out
    market: str | None = None
    if market_column is not None:
        try:
            market = _market_of(row, market_column)
        except MarketError as e:
            quarantine(None, label, "row", str(e))
            return None, True, out

    def note(column: str, stage: str, reason: str) -> None:
        quarantine(market, f"{label}, column {column!r}", stage, reason)

    try:
        key, name, rec, texts = conv.convert(row, note)
    except ValueError as e:
        quarantine(market, label, "row", str(e))
        return market, True, out
    seq = (file_idx << _SEQ_BITS) | ordinal
    variant, text = json.dumps(rec, ensure_ascii=False), json.dumps(texts, ensure_ascii=False)
    out.append(("r", market, canonical(key), seq, key, file, label, name, variant, text))
    return market, True, out


def convert_records(records: Iterable[Record], mapping: TableMapping, market_column: str | None) -> Iterator[tuple]:
    """Tagged tuples: ``("r", market, gkey, seq, shown, file, label, name, variant, texts)`` per
    kept row, ``("q", market, sort key, Quarantine)`` per entry, ``("n", market, records)`` per
    market at the end. ``market`` is ``None`` for ``OUT`` itself."""
    conv = RowConverter(mapping)
    counts: dict[str | None, int] = {}
    for record in records:
        market, is_record, out = _convert_one(conv, record, market_column)
        if is_record:
            counts[market] = counts.get(market, 0) + 1
        yield from out
    for market, n in counts.items():
        yield ("n", market, n)


# --------------------------------------------------------------------------- pages (tasks)


def page_partition(key: tuple) -> int:
    """Stable across processes (``hash`` of a str is salted per interpreter)."""
    return zlib.crc32(f"{key[0]}\x1f{key[1]}".encode("utf-8", "surrogatepass"))


def _keyed_pages(
    db: sqlite3.Connection, report: ImportReport, chunk_chars: int, gkeys: list[str], found: list[tuple]
) -> Iterator[tuple]:
    """import-table's pages; the entries its builder adds while building a page go to ``found``
    with that page's key (the builder yields pages in ``gkeys`` order)."""
    done = 0
    for gkey, page in zip(gkeys, pages_from_rows(db, report, chunk_chars)):
        found.extend((1, gkey, i, q) for i, q in enumerate(report.quarantined[done:]))
        done = len(report.quarantined)
        yield page


def write_pages(
    rows: Iterable[tuple[tuple, tuple]], out_root: str, chunk_chars: int, spill_dir: str | None
) -> Iterator[tuple]:
    """Build and write the pages of one partition (rows sorted by market, page key, seq), a market at a
    time through ``import-table``'s spill table and page builder. Yields ``("p", market, pages,
    variants)`` and ``("q", market, sort key, Quarantine)`` for duplicate and conflicting names."""
    for market, group in itertools.groupby(rows, key=lambda kv: kv[0][0]):
        target = Path(out_root) / market if market else Path(out_root)
        with tempfile.TemporaryDirectory(prefix="dualgraph-spark-", dir=spill_dir) as tmp:
            db = sqlite3.connect(Path(tmp) / "rows.sqlite")
            db.execute(ROWS_TABLE)
            db.executemany(
                "INSERT INTO rows VALUES (?,?,?,?,?,?,?,?)",
                ((gkey, seq, *rest) for (_, gkey, seq), rest in group),
            )
            db.execute("CREATE INDEX by_key ON rows (gkey, seq)")
            gkeys = [g for (g,) in db.execute("SELECT DISTINCT gkey FROM rows ORDER BY gkey")]
            report = ImportReport(source="", out_dir=str(target))
            found: list[tuple] = []
            n = write_dataset(target, _keyed_pages(db, report, chunk_chars, gkeys, found))
            db.close()
        yield ("p", market, n, report.variants)
        for key_part, gkey, i, q in found:
            yield ("q", market, (key_part, gkey, i), q)


# --------------------------------------------------------------------------- job (driver)


def import_tables(
    spark: SparkSession,
    source: str | Path | Sequence[str | Path],
    out_dir: str | Path,
    mapping: TableMapping,
    options: EtlOptions | None = None,
) -> EtlReport:
    """Import table files into dataset directories with Spark; see the module docs.

    Raises :class:`MappingError` (nothing written) when a file lacks a column the mapping or
    ``market_column`` names; every other problem is quarantined and the import goes on.
    """
    opts = options or EtlOptions()
    started = time.monotonic()
    sources = [Path(source)] if isinstance(source, (str, Path)) else [Path(s) for s in source]
    out = Path(out_dir)
    log = opts.progress
    sc = spark.sparkContext
    parts = opts.partitions or sc.defaultParallelism
    market_column, chunk_chars, spill_dir = opts.market_column, opts.chunk_chars, opts.spill_dir

    units, entries = plan_units(sources, mapping, market_column=market_column)
    _log(log, f"{len(sources)} file(s), {len(units)} read unit(s), {parts} partition(s)")
    records = sc.parallelize(units, max(1, len(units))).flatMap(read_unit)
    if len(units) < parts:  # few large files: spread their rows before the costly conversion
        records = records.repartition(parts)
    converted = records.mapPartitions(lambda it: convert_records(it, mapping, market_column)).persist()
    try:
        side = converted.filter(lambda t: t[0] != "r").collect()
        _log(log, f"read and converted ({time.monotonic() - started:.1f} s)")
        keyed = converted.filter(lambda t: t[0] == "r").map(lambda t: ((t[1], t[2], t[3]), t[4:]))
        written = (
            keyed.repartitionAndSortWithinPartitions(parts, partitionFunc=page_partition)
            .mapPartitions(lambda it: write_pages(it, str(out), chunk_chars, spill_dir))
            .collect()
        )
    finally:
        converted.unpersist()

    report = EtlReport(source=", ".join(map(str, sources)), out_dir=str(out))

    def of(market: str | None) -> ImportReport:
        if market not in report.reports:
            where = out / market if market else out
            report.reports[market] = ImportReport(source=report.source, out_dir=str(where))
        return report.reports[market]

    of(None)
    for kind, market, *rest in side + written:
        if kind == "n":
            of(market).records += rest[0]
        elif kind == "p":
            of(market).pages += rest[0]
            of(market).variants += rest[1]
        else:
            entries.append((rest[0], market, rest[1]))
    entries.sort(key=lambda e: e[0])  # reading order, then pages by key: import-table's order
    for _, market, q in entries:
        of(market).quarantined.append(q)
    for market, r in report.reports.items():
        r.write_quarantine(out / market if market else out)
    report.seconds = time.monotonic() - started
    counts = report.counts
    _log(
        log,
        f"{counts['records']} records, {counts['variants']} variants, {counts['pages']} pages, "
        f"{counts['quarantined']} quarantined in {report.seconds:.1f} s",
    )
    return report
