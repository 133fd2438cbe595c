"""The Spark import (dualgraph.spark.etl) writes what `dualgraph import-table` writes, per market."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pyspark", reason="the `spark` extra (pyspark) is not installed")

from dualgraph.corpus.mapping import MappingError, TableMapping, load_mapping
from dualgraph.corpus.report import QUARANTINE_FILE
from dualgraph.corpus.tabular import import_table
from dualgraph.spark.etl import import_tables
from dualgraph.spark.options import EtlOptions

pytestmark = pytest.mark.spark
# kilobytes of data: compiling and re-planning queries would cost more than running them

MAPPING = Path(__file__).parents[1] / "fixtures" / "spark" / "mapping.yaml"
COLUMNS = ["model", "market", "brand", "price", "ram", "storage", "battery", "colour", "blurb"]
BAD_CSV_LINE = "Broken Phone,uk,acme,199\n"  # four fields where the header has nine


@pytest.fixture(scope="module")
def mapping() -> TableMapping:
    return load_mapping(MAPPING)


def phone_rows(start: int, n: int) -> Iterator[dict]:
    """Rows of two markets: ranges with several variants, prices per market, and rows import-table
    must set aside or note (no name, a RAM that is no number, a repeated and a conflicting variant)."""
    for i in range(start, start + n):
        family = f"Nova {i // 3}"
        ram = 4 + 2 * (i % 3)
        for market, rate in (("uk", 1.0), ("de", 1.17)):
            yield {
                "model": f"{family} ({ram}GB)",
                "market": market,
                "brand": "acme" if i % 2 else "zenith",
                "price": round((150 + 10 * i) * rate, 2),
                "ram": ram,
                "storage": 64 * (1 + i % 2),
                "battery": 4000 + 100 * (i % 5),
                "colour": ["Black", "Blue"][i % 2],
                "blurb": f"The {family} lasts all day.\nIts screen is bright.",
            }
    yield {**_blank(), "model": "", "market": "uk", "brand": "acme"}  # no name: quarantined row
    yield {**_blank(), "model": f"Nova {start} Lite", "market": "de", "ram": "lots"}  # cell note
    yield {**_blank(), "model": f"Odd {start}", "market": "u k"}  # no market code


def _blank() -> dict:
    return dict.fromkeys(COLUMNS)


def write_csv(path: Path, rows: list[dict], *, bad_line: bool = False) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)
        if bad_line:
            f.write(BAD_CSV_LINE)
    return path


def write_parquet(path: Path, rows: list[dict]) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    text = lambda v: None if v is None else str(v)  # noqa: E731 - one type per column for Arrow
    table = pa.table({c: [text(r[c]) if c in ("ram", "model", "market") else r[c] for r in rows] for c in COLUMNS})
    pq.write_table(table, path, row_group_size=4)  # several row groups: several read units
    return path


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return path


def write_inputs(folder: Path, market: str | None = None) -> list[Path]:
    """The same three files each time; with ``market``, only that market's rows (no bad CSV line)."""
    folder.mkdir(parents=True, exist_ok=True)
    parts = [list(phone_rows(0, 7)), list(phone_rows(5, 6)), list(phone_rows(9, 5))]
    parts[1].append(dict(parts[1][0]))  # the same variant twice: written once
    parts[2].append({**parts[2][0], "colour": "Red"})  # same name, other specs: both kept
    if market is not None:
        parts = [[r for r in p if r["market"] == market] for p in parts]
    return [
        write_csv(folder / "part-1.csv", parts[0], bad_line=market is None),
        write_parquet(folder / "part-2.parquet", parts[1]),
        write_jsonl(folder / "part-3.jsonl", parts[2]),
    ]


def tree(root: Path, *, skip_quarantine: bool = False) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not (skip_quarantine and p.name == QUARANTINE_FILE)
    }


def quarantine(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def one_market(spark, mapping, tmp_path_factory: pytest.TempPathFactory):
    """import-table and the Spark import on the same files, one of them not a table at all."""
    root = tmp_path_factory.mktemp("one_market")
    sources = write_inputs(root / "in")
    broken = root / "in" / "broken.parquet"
    broken.write_bytes(b"not parquet at all")
    sources.append(broken)
    expected = import_table(sources, root / "table", mapping, progress=False)
    got = import_tables(spark, sources, root / "spark", mapping, EtlOptions(partitions=2, progress=False))
    return root, sources, expected, got


def test_one_market_dump_gives_the_dataset_import_table_gives(one_market):
    root, _, expected, got = one_market
    want, have = tree(root / "table"), tree(root / "spark")
    assert len(want) > 10 and any(k.endswith(".md") for k in want)
    assert sorted(have) == sorted(want)
    assert [k for k in want if have[k] != want[k]] == []  # byte for byte, quarantine file included
    assert {k: v for k, v in got.counts.items() if k != "markets"} == expected.counts
    stages = {q["stage"] for q in quarantine(root / "spark" / QUARANTINE_FILE)}
    assert {"read", "row", "cell", "duplicate", "conflict"} <= stages


def test_bad_records_are_named_by_file_and_record_as_import_table_names_them(one_market):
    root, sources, _, got = one_market
    entries = quarantine(root / "spark" / QUARANTINE_FILE)
    assert {"file", "record", "stage", "reason"} == set(entries[0])
    last_line = len(sources[0].read_text(encoding="utf-8").splitlines())  # quoted blurbs span two lines
    short = [q for q in entries if q["reason"].startswith("row has 4 fields")]
    assert [(q["file"], q["record"]) for q in short] == [(str(sources[0]), f"line {last_line}")]
    nameless = [q for q in entries if q["reason"] == "row has no name (column 'model' is empty)"]
    assert [q["file"] for q in nameless] == [str(s) for s in sources[:3]]
    assert [q["record"] for q in nameless][1] == "row 13"  # in the 4th row group: rows count from the file's start
    read = [q for q in entries if q["stage"] == "read"]
    assert [(q["file"], q["record"]) for q in read] == [(str(sources[3]), "file")]
    assert read[0]["reason"].startswith("not a readable Parquet file") and got.unreadable


def test_each_market_gets_the_dataset_import_table_gives_for_its_rows(spark, mapping, tmp_path: Path):
    sources = write_inputs(tmp_path / "in")
    report = import_tables(
        spark, sources, tmp_path / "spark", mapping, EtlOptions(market_column="market", partitions=2, progress=False)
    )
    assert sorted(report.counts["markets"]) == ["de", "uk"]
    for market in ("uk", "de"):
        alone = write_inputs(tmp_path / f"in-{market}", market)
        expected = import_table(alone, tmp_path / f"table-{market}", mapping, progress=False)
        want = tree(tmp_path / f"table-{market}", skip_quarantine=True)
        have = tree(tmp_path / "spark" / market, skip_quarantine=True)
        assert want and have == want, market
        got = report.reports[market]
        assert (got.records, got.variants, got.pages) == (expected.records, expected.variants, expected.pages)
        # the files differ, so do line and row numbers; the stage and the rest of the reason do not
        why = lambda qs: sorted((q.stage, re.sub(r"(line|row) \d+", "#", q.reason)) for q in qs)  # noqa: E731
        assert why(got.quarantined) == why(expected.quarantined)
        assert (tmp_path / "spark" / market / QUARANTINE_FILE).is_file()
    root = quarantine(tmp_path / "spark" / QUARANTINE_FILE)
    assert sorted(q["reason"][:40] for q in root) == sorted(
        ["column 'market': market code 'u k' is no"] * 3 + ["row has 4 fields, the header 9 (truncate"]
    )


def test_a_column_the_mapping_names_but_a_file_lacks_stops_before_anything_is_written(spark, tmp_path: Path):
    sources = write_inputs(tmp_path / "in")
    mapping = load_mapping(MAPPING).model_copy(update={"model_code": "sku"})
    mapping._source = str(MAPPING)
    with pytest.raises(MappingError, match=r"mapping\.yaml: model_code: column 'sku' is not in .*part-1\.csv"):
        import_tables(spark, sources, tmp_path / "spark", mapping, EtlOptions(progress=False))
    with pytest.raises(MappingError, match="column 'country' is not in"):
        import_tables(
            spark,
            sources,
            tmp_path / "spark",
            load_mapping(MAPPING),
            EtlOptions(market_column="country", progress=False),
        )
    assert not (tmp_path / "spark").exists()
