"""Tabular catalogs (CSV / TSV / Parquet / JSON Lines, one row per variant) to a SpecsQA dataset dir.

Rows are streamed (``csv`` module, ``pyarrow`` record batches, one JSON line at a time)
and spilled to a temporary SQLite file keyed by page, so a catalog far larger than
memory imports in bounded memory and rows of one page may be anywhere in the file.
Every row or cell that cannot be used is reported as a :class:`Quarantine` entry
(stage ``read``: the whole file; ``row``: the row was left out; ``cell``: the row was
kept without that value; ``duplicate``/``conflict``: repeated variant names) and
written to ``<out>/_import_quarantine.jsonl``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import itertools
import json
import math
import re
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from dualgraph.corpus.mapping import MappingError, TableMapping, add_arguments, mapping_from_args
from dualgraph.corpus.markdown import CHUNK_BREAK, chunk_lines, specs_chunks
from dualgraph.corpus.model import Variant
from dualgraph.corpus.prices import parse_price, plain_number
from dualgraph.corpus.report import ImportReport
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.skg.names import DEFAULT_SECTION, canonical, short_hash, slug

__all__ = [
    "KINDS",
    "add_arguments",
    "humanise",
    "import_table",
    "main_from_args",
    "mapping_from_args",
    "page_stem",
    "table_kind",
    "with_unit",
]

# the spill table rows wait in until their page is built (pages_from_rows reads it; the Spark
# import builds the same table on each executor)
ROWS_TABLE = (
    "CREATE TABLE rows (gkey TEXT, seq INTEGER, shown TEXT, file TEXT, label TEXT, name TEXT, variant TEXT, texts TEXT)"
)

KINDS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
}
_PEEK_ROWS = 1000  # JSON Lines have no header: the keys of the first rows stand for it
MAX_COLUMNS = 10_000
"""Columns (keys of a JSON record) a table may have: a catalogue has dozens to a few thousand; a
file with a million is broken or hostile, and reading it whole took gigabytes."""
MAX_CELL_CHARS = 1_000_000
"""Characters one cell may hold: a product page's text fits many times over."""
Row = tuple[str, dict | None, str | None]  # (record label, row or None, why it is unusable)


class TableFileError(Exception):
    """The file cannot be read as the table it claims to be."""


class _CellError(ValueError):
    """A cell holds a value of a type that has no text form here."""


def table_kind(path: str | Path) -> str | None:
    """``csv``, ``tsv``, ``parquet`` or ``jsonl`` from the file name (``.gz`` allowed for text).

    >>> table_kind("phones.csv.gz"), table_kind("a.ndjson"), table_kind("b.xlsx")
    ('csv', 'jsonl', None)
    """
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
        kind = KINDS.get(suffixes[-1]) if suffixes else None
        return None if kind == "parquet" else kind
    return KINDS.get(suffixes[-1]) if suffixes else None


def _open_text(path: Path) -> IO[str]:
    # surrogateescape keeps bad bytes visible so one bad row does not stop the stream
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    return opener(path, "rt", encoding="utf-8-sig", errors="surrogateescape", newline="")


def _bad_utf8(values: Sequence[str]) -> bool:
    try:
        "".join(values).encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def _csv_rows(path: Path, delimiter: str) -> tuple[list[str], Iterator[Row]]:
    f = _open_text(path)
    reader = csv.reader(f, delimiter=delimiter, strict=True)
    try:
        header = [h.strip() for h in next(reader)]
    except (StopIteration, csv.Error, OSError, EOFError) as e:
        f.close()
        raise TableFileError(f"no readable header line: {e or 'empty file'}") from e
    if len(header) > MAX_COLUMNS:
        f.close()
        raise TableFileError(f"the header has {len(header):,} columns; at most {MAX_COLUMNS:,} are read")

    def rows() -> Iterator[Row]:
        with f:
            while True:
                label = f"line {reader.line_num + 1}"
                try:
                    fields = next(reader)
                except StopIteration:
                    return
                except csv.Error as e:
                    yield label, None, f"malformed CSV line: {e}"
                    continue
                except (OSError, EOFError) as e:  # e.g. a truncated .gz stream
                    yield label, None, f"file ends early: {e}"
                    return
                if not fields:
                    continue  # a blank line is not a record
                if _bad_utf8(fields):
                    yield label, None, "row is not valid UTF-8"
                elif len(fields) != len(header):
                    yield (
                        label,
                        None,
                        (f"row has {len(fields)} fields, the header {len(header)} (truncated or malformed line)"),
                    )
                else:
                    yield label, dict(zip(header, fields)), None

    return header, rows()


def _parquet_rows(path: Path) -> tuple[list[str], Iterator[Row], int | None]:
    import pyarrow.parquet as pq  # only parquet imports need it loaded

    try:
        pf = pq.ParquetFile(path)
    except Exception as e:  # pyarrow raises ArrowInvalid, OSError, ... for a non-parquet file
        raise TableFileError(f"not a readable Parquet file: {e}") from e
    if len(pf.schema_arrow.names) > MAX_COLUMNS:
        raise TableFileError(f"the file has {len(pf.schema_arrow.names):,} columns; at most {MAX_COLUMNS:,} are read")

    def rows() -> Iterator[Row]:
        n = 0
        try:
            for batch in pf.iter_batches(batch_size=8192):
                for rec in batch.to_pylist():
                    n += 1
                    yield f"row {n}", rec, None
        except Exception as e:  # a corrupt row group ends the file, not the import
            yield f"row {n + 1}", None, f"cannot read the rest of the file: {e}"

    return list(pf.schema_arrow.names), rows(), pf.metadata.num_rows


_TOO_DEEP = "nested more deeply than a table record can be (a value inside a value, a thousand levels down)"


def _record(label: str, rec: Any, what: str) -> Row:
    """One JSON record as a row, or why it cannot be one."""
    if not isinstance(rec, dict):
        return label, None, f"{what} is a JSON {type(rec).__name__}, not an object"
    if len(rec) > MAX_COLUMNS:
        return label, None, f"the record has {len(rec):,} keys; at most {MAX_COLUMNS:,} are read"
    return label, rec, None


def _jsonl_rows(path: Path) -> tuple[list[str] | None, Iterator[Row]]:
    opener = gzip.open if path.suffix.lower() == ".gz" else open

    def lines() -> Iterator[Row]:
        with opener(path, "rb") as f:
            head = f.read(4096).lstrip()
            f.seek(0)
            if head.startswith(b"["):  # a plain JSON array: small files only, read whole
                try:
                    items = json.loads(f.read().decode("utf-8"))
                except (ValueError, UnicodeDecodeError) as e:
                    yield "file", None, f"malformed JSON array: {e}"
                    return
                except RecursionError:
                    yield "file", None, _TOO_DEEP
                    return
                for i, item in enumerate(items, 1):
                    yield _record(f"item {i}", item, "item")
                return
            try:
                for n, raw in enumerate(f, 1):
                    if not raw.strip():
                        continue
                    try:
                        rec = json.loads(raw.decode("utf-8"))
                    except UnicodeDecodeError:
                        yield f"line {n}", None, "line is not valid UTF-8"
                        continue
                    except ValueError as e:
                        yield f"line {n}", None, f"malformed JSON (truncated line?): {e}"
                        continue
                    except RecursionError:
                        yield f"line {n}", None, _TOO_DEEP
                        continue
                    yield _record(f"line {n}", rec, "line")
            except (OSError, EOFError) as e:
                yield "file", None, f"file ends early: {e}"

    it = lines()
    peek = list(itertools.islice(it, _PEEK_ROWS))
    keys = [k for _, rec, _ in peek if rec for k in rec]
    return (list(dict.fromkeys(keys)) or None), itertools.chain(peek, it)


# --------------------------------------------------------------------------- cells


def _number_text(v: float | int) -> str | None:
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return None
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    return str(v)


def _cell(v: Any, *, spec: bool = False) -> str | None:
    """A cell as text (``None`` when empty). Booleans read as Yes/No; for spec cells the
    CSV spellings ``True``/``False`` do too, since CSV has no boolean type."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "Yes" if v else "No"
    if isinstance(v, (int, float)):
        return _number_text(v)
    if isinstance(v, (list, tuple)):
        parts = [p for p in (_cell(x, spec=spec) for x in v) if p]
        return ", ".join(parts) or None
    if isinstance(v, dict):
        raise _CellError("a nested object, not a value")
    if isinstance(v, bytes):
        raise _CellError("binary data, not text")
    if isinstance(v, str) and len(v) > MAX_CELL_CHARS:
        raise _CellError(f"a text of {len(v):,} characters (at most {MAX_CELL_CHARS:,})")
    text = " ".join(str(v).split())
    if spec and text.lower() in ("true", "false"):
        return "Yes" if text.lower() == "true" else "No"
    return text or None


def with_unit(text: str, unit: str) -> str | None:
    """A plain number gets the unit; a value that starts with a number keeps its own.

    >>> with_unit("8", "GB"), with_unit("10.0", "W"), with_unit("6.7 inch", "inch"), with_unit("n/a", "GB")
    ('8 GB', '10 W', '6.7 inch', None)
    >>> with_unit("2,5", "GB")  # another locale's number: the converter reads its marks (skg.quantities)
    '2,5 GB'
    """
    num = plain_number(text)
    if num is not None:
        return f"{re.sub(r'[.]0+$', '', num)} {unit}"  # 10.0 W is 10 W
    if re.fullmatch(r"[+-]?\d[\d.,\u00a0\u202f]*", text.strip()):
        return f"{text.strip()} {unit}"
    return text if re.match(r"[+-]?\d", text) else None


def humanise(column: str) -> str:
    """An entry name for an unmapped column.

    >>> humanise("core_count"), humanise("Display Type")
    ('Core count', 'Display Type')
    """
    text = " ".join(re.sub(r"[_\s]+", " ", column).split())
    return text[:1].upper() + text[1:] if text.islower() else text


# --------------------------------------------------------------------------- rows


class RowConverter:
    """One row -> (group key, variant record, texts); notes go to ``note(record, stage, reason)``."""

    def __init__(self, mapping: TableMapping) -> None:
        self.m = mapping
        self.used = set(mapping.column_uses())
        self.strip = {id(s): re.compile(s.strip) for s in [mapping.range, *mapping.categories] if s and s.strip}

    @staticmethod
    def _safe(value: Any, column: str, note) -> str | None:
        """A cell as text, or ``None`` with a note when its type has no text form."""
        try:
            return _cell(value)
        except _CellError as e:
            note(column, "cell", f"column {column!r} holds {e}; left out")
            return None
        except RecursionError:  # lists inside lists, a thousand levels down (Parquet allows it)
            note(column, "cell", f"column {column!r} holds {_TOO_DEEP}; left out")
            return None

    def _source(self, src, row: dict, note) -> list[str]:
        if src.value is not None:
            return [src.value]
        raw = row.get(src.column)
        items = raw if isinstance(raw, (list, tuple)) else [raw]
        out = [self._safe(i, src.column, note) for i in items]
        if id(src) in self.strip:
            out = [self.strip[id(src)].sub("", o).strip() if o else o for o in out]
        return [o for o in out if o]

    def convert(self, row: dict, note) -> tuple[str, str, dict, list[tuple[str, str]]]:
        m = self.m
        raw_name = row.get(m.name)
        if isinstance(raw_name, str) and len(raw_name) > MAX_CELL_CHARS:
            raise ValueError(
                f"name column {m.name!r} holds a text of {len(raw_name):,} characters (at most {MAX_CELL_CHARS:,})"
            )
        try:  # names stay verbatim (inner spaces too): answers are matched against them
            name = raw_name.strip() if isinstance(raw_name, str) else _cell(raw_name)
        except _CellError as e:
            raise ValueError(f"name column {m.name!r} holds {e}") from e
        if not name:
            raise ValueError(f"row has no name (column {m.name!r} is empty)")
        specs: dict[str, str] = {}

        def put(key: str, value: Any, column: str, *, unit: str | None = None) -> None:
            try:
                text = _cell(value, spec=True)
            except _CellError as e:
                note(column, "cell", f"column {column!r} holds {e}; left out")
                return
            if text and unit:
                quantity = with_unit(text, unit)
                if quantity is None:
                    note(column, "cell", f"{text!r} is not a number in {unit}; left out")
                text = quantity
            if text:
                specs.setdefault(key, text)

        rng = (self._source(m.range, row, note) if m.range else [])[:1] or [name]
        cats = [c for src in m.categories for c in self._source(src, row, note)]
        if m.price is not None and self._safe(row.get(m.price.column), m.price.column, note) is not None:
            raw = row.get(m.price.column)
            text = _cell(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else raw
            price = parse_price(text if isinstance(text, str) else None, default_currency=m.price.currency)
            if price:
                specs["Price"] = price
            else:
                note(m.price.column, "cell", f"price {raw!r} is not a price (set price.currency for bare numbers)")
        if m.model_code:
            put("Model Code", row.get(m.model_code), m.model_code)
        if m.brand:
            put(f"{DEFAULT_SECTION}:Brand", row.get(m.brand), m.brand)
        for key, target in m.specs.items():
            if target is None:
                continue
            if target.columns is None or target.format is None:  # (the mapping sets both or neither)
                put(target.entry, row.get(key), key, unit=target.unit)
                continue
            try:
                cells = [_cell(row.get(c), spec=True) for c in target.columns]
            except _CellError as e:
                note(key, "cell", f"a column of {key!r} holds {e}; left out")
                continue
            parts = [p for p in cells if p]
            if len(parts) == len(cells):  # every column has a value
                put(target.entry, target.format.format(*(plain_number(p) or p for p in parts)), key, unit=target.unit)
        if m.specs_from and row.get(m.specs_from) is not None:
            self._expand(row[m.specs_from], put, note)
        if m.unmapped == "keep":
            for col, value in row.items():
                if col not in self.used:
                    put(f"{DEFAULT_SECTION}:{humanise(str(col))}", value, str(col))
        variant = Variant.from_record({"name": name, "prod_range": rng[0], "categories": cats, "specs": specs})
        if m.group_by == "range":
            key = variant.prod_range
        elif m.group_by == "name":
            key = variant.name
        else:  # a row without a usable group value falls back to its range
            key = self._safe(row.get(m.group_by), m.group_by, note) or variant.prod_range
        # prose keeps its line breaks (paragraphs); other cells are one line
        texts = [
            (col, t)
            for col in m.text
            if (t := row[col].strip() if isinstance(row.get(col), str) else self._safe(row.get(col), col, note))
        ]
        return key, name, variant.to_record(), texts

    def _expand(self, obj: Any, put, note) -> None:
        col = self.m.specs_from
        if isinstance(obj, str) and obj.lstrip().startswith("{"):
            try:
                obj = json.loads(obj)
            except ValueError as e:
                note(col, "cell", f"column {col!r} is not valid JSON: {e}; left out")
                return
        if not isinstance(obj, dict):
            note(col, "cell", f"column {col!r} holds a {type(obj).__name__}, not a spec object; left out")
            return
        for k, v in obj.items():
            k = str(k).strip()
            if isinstance(v, dict):  # nested: section -> entry -> value
                for entry, value in v.items():
                    put(f"{k}:{str(entry).strip()}", value, f"{col}.{k}.{entry}")
            elif k:
                put(k if ":" in k else f"{DEFAULT_SECTION}:{k}", v, f"{col}.{k}")


# --------------------------------------------------------------------------- import


def page_stem(key: str) -> str:
    """A content-stable page id for a group key: a readable slug plus a short hash.

    >>> page_stem("Vivo Y19s 5G") == page_stem("vivo  y19s 5g")
    True
    >>> page_stem("Vivo Y19s 5G")[:13]
    'vivo_y19s_5g-'
    """
    return f"{slug(key)[:40].rstrip('_')}-{short_hash(canonical(key))}"


def open_rows(path: Path) -> tuple[list[str] | None, Iterator[Row], int | None]:
    kind = table_kind(path)
    if kind is None:
        raise TableFileError(
            f"unsupported file type {''.join(path.suffixes) or path.name!r} "
            f"(expected {', '.join(sorted(KINDS))}, text formats optionally .gz)"
        )
    if not path.is_file():
        raise TableFileError("file not found")
    if kind == "parquet":
        return _parquet_rows(path)
    if kind == "jsonl":
        return (*_jsonl_rows(path), None)
    return (*_csv_rows(path, "\t" if kind == "tsv" else ","), None)


def _page_markdown(title: str, texts: list[tuple[str, str]], variants: list[Variant], chunk_chars: int) -> str:
    chunks: list[str] = []
    for col, text in dict.fromkeys(texts):  # rows of a page often repeat one description
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        chunks += chunk_lines(f'# {humanise(col)} from the "{title}" page', lines, chunk_chars=chunk_chars)
    chunks += specs_chunks(variants, title=title, chunk_chars=chunk_chars)
    return f"\n\n{CHUNK_BREAK}\n\n".join(chunks) + "\n"


def import_table(
    source: str | Path | Sequence[str | Path],
    out_dir: str | Path,
    mapping: TableMapping,
    *,
    chunk_chars: int = 5000,
    progress: bool = True,
    spill_dir: str | Path | None = None,
    prune: bool = True,
) -> ImportReport:
    """Import one or more table files into a SpecsQA dataset dir, one page per group key.

    ``prune``: pages in ``out_dir`` that this import did not write (rows gone from the table since
    an earlier import) are removed, and counted as ``pruned``; never after a file could not be read,
    whose rows would otherwise all count as gone.

    Raises :class:`MappingError` when the mapping names a column a file lacks (before
    anything is written); every other problem is quarantined and the import goes on.
    Rows wait for their page in a temporary SQLite file under ``spill_dir`` (default: the
    system temp dir), which needs about the size of the converted rows.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "t.csv").write_text("model,ram\\nP1 (8GB),8\\nP1 (4GB),4\\n,2\\n")
    >>> from dualgraph.corpus.mapping import mapping_from_dict
    >>> m = mapping_from_dict({"name": "model", "range": {"column": "model", "strip": " \\\\(.*\\\\)$"},
    ...                        "specs": {"ram": {"entry": "Memory:RAM", "unit": "GB"}}})
    >>> r = import_table(d / "t.csv", d / "ds", m, progress=False)
    >>> r.records, r.variants, r.pages, [(q.record, q.reason) for q in r.quarantined]
    (3, 2, 1, [('line 4', "row has no name (column 'model' is empty)")])
    """
    sources = [Path(source)] if isinstance(source, (str, Path)) else [Path(s) for s in source]
    out = Path(out_dir)
    report = ImportReport(source=", ".join(map(str, sources)), out_dir=str(out))
    conv = RowConverter(mapping)
    with tempfile.TemporaryDirectory(prefix="dualgraph-import-", dir=spill_dir) as tmp:
        db = sqlite3.connect(Path(tmp) / "rows.sqlite")
        db.execute(ROWS_TABLE)
        seq = 0
        for path in sources:
            try:
                header, rows, total = open_rows(path)
            except TableFileError as e:
                report.add(str(path), "file", "read", str(e))
                continue
            if header is not None:
                mapping.check_columns(header, data_file=str(path))
            for label, row, error in tqdm(rows, desc=path.name, unit="row", total=total, disable=not progress):
                report.records += 1
                if row is None:
                    report.add(str(path), label, "row", error or "unusable row")
                    continue

                def note(column: str, stage: str, reason: str, _label: str = label, _path: Path = path) -> None:
                    report.add(str(_path), f"{_label}, column {column!r}", stage, reason)

                try:
                    key, name, rec, texts = conv.convert(row, note)
                except ValueError as e:
                    report.add(str(path), label, "row", str(e))
                    continue
                seq += 1
                db.execute(
                    "INSERT INTO rows VALUES (?,?,?,?,?,?,?,?)",
                    (
                        canonical(key),
                        seq,
                        key,
                        str(path),
                        label,
                        name,
                        json.dumps(rec, ensure_ascii=False),
                        json.dumps(texts, ensure_ascii=False),
                    ),
                )
        db.execute("CREATE INDEX by_key ON rows (gkey, seq)")
        written: set[str] = set()

        def noted(pages: Iterator[tuple[str, str, list[Variant]]]) -> Iterator[tuple[str, str, list[Variant]]]:
            for page in pages:
                written.add(f"file-{page[0]}")
                yield page

        report.pages = write_dataset(
            out,
            tqdm(
                noted(pages_from_rows(db, report, chunk_chars)), desc="write pages", unit="page", disable=not progress
            ),
        )
        db.close()
    if prune and not any(q.stage == "read" for q in report.quarantined):
        report.pruned = prune_pages(out, keep=written)
    report.write_quarantine(out)
    return report


def prune_pages(out: Path, *, keep: set[str]) -> int:
    """Remove the page directories (``file-*`` with their metadata file) of ``out`` not in ``keep``."""
    gone = 0
    for d in sorted(out.glob("file-*")):
        if d.is_dir() and d.name not in keep and (d / f"{d.name}.json").is_file():
            shutil.rmtree(d)
            gone += 1
    return gone


def pages_from_rows(
    db: sqlite3.Connection, report: ImportReport, chunk_chars: int
) -> Iterator[tuple[str, str, list[Variant]]]:
    cur = db.execute("SELECT gkey, shown, file, label, name, variant, texts FROM rows ORDER BY gkey, seq")
    for gkey, group in itertools.groupby(cur, key=lambda r: r[0]):
        variants: list[Variant] = []
        texts: list[tuple[str, str]] = []
        seen: dict[str, tuple[str, str]] = {}  # name -> (record json, label)
        shown = None
        for _, shown_key, file, label, name, rec, row_texts in group:
            shown = shown or shown_key
            if name in seen:
                same = seen[name][0] == rec
                report.add(
                    file,
                    label,
                    "duplicate" if same else "conflict",
                    f"same variant name as {seen[name][1]}"
                    + ("; identical row written once" if same else " with other specs; both kept"),
                )
                if same:
                    continue
            seen.setdefault(name, (rec, label))
            variants.append(Variant.from_record(json.loads(rec)))
            texts += [tuple(t) for t in json.loads(row_texts)]
        report.variants += len(variants)
        yield page_stem(gkey), _page_markdown(shown or gkey, texts, variants, chunk_chars), variants


# --------------------------------------------------------------------------- CLI


def main_from_args(args: argparse.Namespace) -> int:
    """Run ``import-table`` with options from :func:`add_arguments` (re-exported here);
    prints the counts as JSON. Exit 2: bad mapping; 1: a file was unreadable.

    >>> parser = argparse.ArgumentParser(); add_arguments(parser)
    >>> parser.parse_args(["a.csv", "--out", "ds", "--name", "model"]).name
    'model'
    """
    try:
        report = import_table(
            args.source,
            args.out,
            mapping_from_args(args),
            chunk_chars=args.chunk_chars,
            progress=not args.no_progress,
            prune=not getattr(args, "no_prune", False),
        )
    except MappingError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps({**report.counts, "quarantine": report.quarantine_path}, indent=1))
    return 1 if any(q.stage == "read" for q in report.quarantined) else 0
