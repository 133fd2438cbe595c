"""Tabular catalogs (CSV / Parquet / JSON Lines) + a mapping -> SpecsQA dataset dir."""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import pytest

from dualgraph import shared_data
from dualgraph.corpus.mapping import MappingError, TableMapping, load_mapping, mapping_from_dict
from dualgraph.corpus.markdown import CHUNK_BREAK
from dualgraph.corpus.model import Variant
from dualgraph.corpus.report import QUARANTINE_FILE
from dualgraph.corpus.specsqa import iter_metadata_files, read_document
from dualgraph.corpus.tabular import add_arguments, import_table, main_from_args, page_stem

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "tables"
SMARTPRIX_MAPPING = ROOT / "samples" / "smartprix" / "mapping.yaml"
SMARTPRIX_CSV = "smartprix-india-2025/smartphones_cleaned.csv"  # in the shared data folder, not the repository
NO_SMARTPRIX = shared_data.missing([SMARTPRIX_CSV])


def read_all(out: Path) -> dict[str, list[Variant]]:
    """doc id -> variants, asserting that every page reads back cleanly."""
    docs = {}
    for meta in iter_metadata_files(out):
        doc, problems = read_document(meta, out)
        assert problems == []
        docs[doc.doc_id] = doc
    return docs


def by_name(docs) -> dict[str, Variant]:
    return {v.name: v for d in docs.values() for v in d.variants}


# --------------------------------------------------------------------------- Smartprix mapping


@pytest.mark.skipif(NO_SMARTPRIX is not None, reason=f"the Smartprix header: {NO_SMARTPRIX}")
def test_smartprix_mapping_covers_every_column_of_the_sample_header():
    mapping = load_mapping(SMARTPRIX_MAPPING)
    with (shared_data.shared_data_dir() / SMARTPRIX_CSV).open(encoding="utf-8") as f:
        header = next(csv.reader(f))
    assert len(header) == 29
    mapping.check_columns(header, data_file="smartphones_cleaned.csv")
    assert set(mapping.column_uses()) == set(header)  # nothing left to the 'unmapped' fallback


def test_smartprix_mapping_on_a_small_csv(tmp_path: Path):
    out = tmp_path / "ds"
    report = import_table(FIX / "smartprix_small.csv", out, load_mapping(SMARTPRIX_MAPPING), progress=False)
    assert (report.records, report.variants, report.pages, report.quarantined) == (5, 5, 3, [])
    docs = read_all(out)
    nova = docs[f"file-{page_stem('Orbit Nova 7 5G')}"]
    assert [v.name for v in nova.variants] == [  # file order, although the rows are not adjacent
        "Orbit Nova 7 5G (8GB RAM + 256GB)",
        "Orbit Nova 7 5G (12GB RAM + 256GB)",
        "Orbit Nova 7 5G",
    ]
    v = by_name(docs)["Orbit Nova 7 5G (12GB RAM + 256GB)"]
    specs = dict(v.specs)
    assert (v.prod_range, v.categories) == ("Orbit Nova 7 5G", ("smartphones",))
    assert specs["Price"] == "24999 INR"
    assert specs["Specifications:Brand"] == "orbit"
    assert specs["Memory:RAM"] == "12 GB" and specs["Memory:Internal Storage"] == "256 GB"
    assert specs["Display:Size"] == "6.67 inch" and specs["Display:Refresh Rate"] == "120 Hz"
    assert specs["Display:Resolution"] == "1080 x 2400 px"
    assert specs["Battery:Capacity"] == "5500 mAh" and specs["Battery:Charging Power"] == "45 W"
    assert specs["Camera:Rear Main Camera"] == "50 MP" and specs["Processor:Clock Speed"] == "2.5 GHz"
    assert specs["Network:5G"] == "Yes" and specs["Connectivity:IR Blaster"] == "No"
    assert "res_width_px" not in " ".join(specs)
    lite = dict(by_name(docs)["Kestrel K2 Lite"].specs)
    assert "Camera:Front Main Camera" not in lite  # empty cell: no spec, not "No"
    assert "Memory:Memory Card Support" not in lite and "Memory:Memory Card Slot" not in lite
    text = (out / f"file-{page_stem('Orbit Nova 7 5G')}" / f"part-{page_stem('Orbit Nova 7 5G')}.md").read_text()
    assert text.count(CHUNK_BREAK) == 3 and "Refresh Rate: 120 Hz" in text.split(CHUNK_BREAK)[0]


def test_parquet_gives_the_same_variants_as_csv(tmp_path: Path):
    mapping = load_mapping(SMARTPRIX_MAPPING)
    import_table(FIX / "smartprix_small.csv", tmp_path / "csv", mapping, progress=False)
    report = import_table(FIX / "smartprix_small.parquet", tmp_path / "pq", mapping, progress=False)
    assert report.quarantined == [] and report.records == 5
    assert by_name(read_all(tmp_path / "pq")) == by_name(read_all(tmp_path / "csv"))


def test_reimport_is_byte_identical(tmp_path: Path):
    mapping = load_mapping(SMARTPRIX_MAPPING)
    for name in ("one", "two"):
        import_table(FIX / "smartprix_small.csv", tmp_path / name, mapping, progress=False)
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*") if p.is_file())
    assert all((tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes() for f in files)


# --------------------------------------------------------------------------- bad input


def test_bad_csv_rows_are_quarantined_and_valid_rows_kept(tmp_path: Path):
    mapping = mapping_from_dict(
        {
            "name": "model",
            "brand": "brand",
            "specs": {
                "ram_gb": {"entry": "Memory:RAM", "unit": "GB"},
                "battery_mah": {"entry": "Battery:Capacity", "unit": "mAh"},
            },
        }
    )
    out = tmp_path / "ds"
    report = import_table(FIX / "bad_rows.csv", out, mapping, progress=False)
    src = str(FIX / "bad_rows.csv")
    got = [(q.file, q.record, q.stage, q.reason) for q in report.quarantined]
    assert got == [
        (src, "line 3", "row", "row has no name (column 'model' is empty)"),
        (src, "line 4", "row", "row has 3 fields, the header 4 (truncated or malformed line)"),
        (src, "line 5, column 'ram_gb'", "cell", "'abc' is not a number in GB; left out"),
        (src, "line 6", "row", "row is not valid UTF-8"),
        (src, "line 7", "row", "malformed CSV line: unexpected end of data"),
    ]
    assert report.records == 6 and report.variants == 2
    names = by_name(read_all(out))
    assert set(names) == {"Alpha One", 'Delta "Three"'}
    assert dict(names['Delta "Three"'].specs) == {"Specifications:Brand": "delta", "Battery:Capacity": "6000 mAh"}
    lines = [json.loads(x) for x in (out / QUARANTINE_FILE).read_text(encoding="utf-8").splitlines()]
    assert [(x["record"], x["stage"]) for x in lines] == [(g[1], g[2]) for g in got]


def _icecat_mapping() -> TableMapping:
    return mapping_from_dict(
        {
            "name": "title",
            "categories": "categories",
            "brand": "brand",
            "price": {"column": "price", "currency": "EUR"},
            "group_by": "name",
            "specs_from": "attrs",
            "text": ["description"],
            "unmapped": "drop",
        }
    )


def test_jsonl_specs_object_text_and_bad_lines(tmp_path: Path):
    out = tmp_path / "ds"
    report = import_table(FIX / "catalog.jsonl", out, _icecat_mapping(), progress=False)
    src = str(FIX / "catalog.jsonl")
    got = {(q.record, q.stage): q.reason for q in report.quarantined}
    assert all(q.file == src for q in report.quarantined)
    assert got[("line 5", "row")] == "name column 'title' holds a nested object, not a value"
    assert got[("line 6", "row")] == "line is a JSON list, not an object"
    assert got[("line 9", "row")].startswith("malformed JSON (truncated line?)")
    assert got[("line 2", "duplicate")] == "same variant name as line 1; identical row written once"
    assert (
        got[("line 7, column 'price'", "cell")]
        == "price 'call us' is not a price (set price.currency for bare numbers)"
    )
    assert (
        got[("line 7, column 'attrs.Strap.Material'", "cell")]
        == "column 'attrs.Strap.Material' holds a nested object, not a value; left out"
    )
    assert got[("line 8, column 'attrs'", "cell")] == "column 'attrs' holds a str, not a spec object; left out"
    assert len(report.quarantined) == 7 and report.records == 8 and report.variants == 4

    names = by_name(read_all(out))
    assert set(names) == {"Lumen Tab 11", "Lumen Phone S", "Lumen Watch 3", "Lumen Buds"}
    tab = dict(names["Lumen Tab 11"].specs)
    assert tab["Specifications:Display diagonal"] == '27.9 cm (11")' and tab["Specifications:Pen included"] == "Yes"
    assert tab["Price"] == "329 EUR"
    phone = names["Lumen Phone S"]
    assert phone.categories == ("Smartphones", "5G phones")
    assert dict(phone.specs)["Display:Refresh rate"] == "120 Hz"  # nested section -> entry
    assert dict(phone.specs)["Specifications:Weight"] == "181"
    assert dict(phone.specs)["Price"] == "499.00 EUR"
    assert names["Lumen Watch 3"].categories == ("Watches",)
    assert dict(names["Lumen Watch 3"].specs)["Specifications:Water resistance"] == "5 ATM"
    md = (out / f"file-{page_stem('Lumen Tab 11')}" / f"part-{page_stem('Lumen Tab 11')}.md").read_text()
    first = md.split(CHUNK_BREAK)[0]
    assert first.startswith('# Description from the "Lumen Tab 11" page\nLumen Tab 11 for study and films.\n')
    assert first.count("quad-speaker") == 1  # the repeated description is written once


def test_wrong_cell_types_are_noted_and_the_row_kept(tmp_path: Path):
    src = tmp_path / "w.jsonl"
    src.write_text(
        '{"title": "Q1", "brand": "B", "categories": {"a": 1}, "price": [1], "description": {"x": 1},'
        ' "attrs": {"RAM": "8 GB"}}\n',
        encoding="utf-8",
    )
    report = import_table(src, tmp_path / "ds", _icecat_mapping(), progress=False)
    assert [(q.record, q.stage, q.reason) for q in report.quarantined] == [
        ("line 1, column 'categories'", "cell", "column 'categories' holds a nested object, not a value; left out"),
        ("line 1, column 'price'", "cell", "price [1] is not a price (set price.currency for bare numbers)"),
        ("line 1, column 'description'", "cell", "column 'description' holds a nested object, not a value; left out"),
    ]
    [v] = by_name(read_all(tmp_path / "ds")).values()
    assert (v.name, v.categories, v.specs) == (
        "Q1",
        (),
        (("Specifications:Brand", "B"), ("Specifications:RAM", "8 GB")),
    )


def test_unknown_mapping_column_names_the_mapping_file_and_column(tmp_path: Path):
    mapping = load_mapping(FIX / "bad_mapping.yaml")
    with pytest.raises(MappingError) as err:
        import_table(FIX / "bad_rows.csv", tmp_path / "ds", mapping, progress=False)
    e = err.value
    assert (e.file, e.record) == (str(FIX / "bad_mapping.yaml"), "specs.ram_gbb")
    assert e.reason.startswith(f"column 'ram_gbb' is not in {FIX / 'bad_rows.csv'} (columns: battery_mah, brand")
    assert str(FIX / "bad_mapping.yaml") in str(e) and "ram_gbb" in str(e)
    assert not (tmp_path / "ds").exists()  # nothing written


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("catalog.xlsx", "unsupported file type '.xlsx'"),
        ("not_parquet.parquet", "not a readable Parquet file"),
        ("missing.csv", "file not found"),
    ],
)
def test_unreadable_files_are_quarantined(tmp_path: Path, name: str, reason: str):
    report = import_table(FIX / name, tmp_path / "ds", mapping_from_dict({"name": "model"}), progress=False)
    [q] = report.quarantined
    assert (q.file, q.record, q.stage) == (str(FIX / name), "file", "read")
    assert q.reason.startswith(reason)
    assert report.pages == 0
    assert json.loads((tmp_path / "ds" / QUARANTINE_FILE).read_text())["reason"] == q.reason


@pytest.mark.parametrize(
    ("data", "record", "reason"),
    [
        ({"specs": {}}, "name", "name: Field required"),
        ({"name": "m", "range": {"column": "m", "strip": "("}}, "range", "'strip' is not a valid regular expression"),
        (
            {"name": "m", "specs": {"r": {"entry": "D:R", "columns": ["a"], "format": "{0} x {1}"}}},
            "specs.r",
            "'format' must use {0}..{0} for 1 columns",
        ),
        ({"name": "m", "unmapped": "maybe"}, "unmapped", "Input should be 'keep' or 'drop'"),
        ({"name": "m", "colour": "c"}, "colour", "Extra inputs are not permitted"),
    ],
)
def test_invalid_mappings_fail_clearly(tmp_path: Path, data, record, reason):
    path = tmp_path / "m.yaml"
    path.write_text(json.dumps(data))  # JSON is YAML
    with pytest.raises(MappingError) as err:
        load_mapping(path)
    assert (err.value.file, err.value.record) == (str(path), record)
    assert reason in err.value.reason


def test_mapping_shorthands_and_defaults():
    m = mapping_from_dict(
        {"name": "model", "categories": ["cat", {"value": "phones"}], "price": "p", "specs": {"ram": "RAM", "x": None}}
    )
    assert m.range is None and m.group_by == "range" and m.unmapped == "keep"
    assert [(c.column, c.value) for c in m.categories] == [("cat", None), (None, "phones")]
    assert m.price is not None and (m.price.column, m.price.currency) == ("p", None)
    assert m.specs["ram"] is not None and m.specs["ram"].entry == "Specifications:RAM" and m.specs["x"] is None
    assert all(f.description for f in TableMapping.model_fields.values())


def test_unmapped_columns_keep_or_drop(tmp_path: Path):
    src = tmp_path / "t.csv"
    src.write_text("model,core_count,ignored\nP1,8,zzz\n", encoding="utf-8")
    keep = import_table(
        src, tmp_path / "keep", mapping_from_dict({"name": "model", "specs": {"ignored": None}}), progress=False
    )
    assert keep.variants == 1
    assert by_name(read_all(tmp_path / "keep"))["P1"].specs == (("Specifications:Core count", "8"),)
    import_table(src, tmp_path / "drop", mapping_from_dict({"name": "model", "unmapped": "drop"}), progress=False)
    assert by_name(read_all(tmp_path / "drop"))["P1"].specs == ()


def test_cli_options_build_the_same_mapping(tmp_path: Path, capsys):
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(
        [
            str(FIX / "smartprix_small.csv"),
            "--out",
            str(tmp_path / "ds"),
            "--name",
            "model",
            "--range",
            "model",
            "--range-strip",
            r"\s*\([^()]*\)\s*$",
            "--category",
            "smartphones",
            "--price",
            "price_inr",
            "--currency",
            "INR",
            "--spec",
            "ram_gb=Memory:RAM",
            "--unit",
            "ram_gb=GB",
            "--unmapped",
            "drop",
            "--no-progress",
        ]
    )
    assert main_from_args(args) == 0
    counts = json.loads(capsys.readouterr().out)
    assert (counts["records"], counts["pages"], counts["quarantined"]) == (5, 3, 0)
    v = by_name(read_all(tmp_path / "ds"))["Orbit Nova 7 5G"]
    assert dict(v.specs) == {"Price": "19999 INR", "Memory:RAM": "8 GB"}
    bad = parser.parse_args(
        [
            str(FIX / "bad_rows.csv"),
            "--out",
            str(tmp_path / "x"),
            "--mapping",
            str(FIX / "bad_mapping.yaml"),
            "--no-progress",
        ]
    )
    assert main_from_args(bad) == 2
    assert "ram_gbb" in capsys.readouterr().err


def test_docstring_examples_run():
    import doctest

    import dualgraph.corpus.mapping as mapping_mod
    import dualgraph.corpus.tabular as tabular_mod

    assert doctest.testmod(tabular_mod).failed == 0
    assert doctest.testmod(mapping_mod).failed == 0


# -- hostile tables: caps with a clear reason naming the record, never a crash ------------------


def _tiny_mapping() -> TableMapping:
    return mapping_from_dict({"name": "name", "specs": {"ram": {"entry": "Memory:RAM", "unit": "GB"}}})


def test_deep_nesting_wide_records_and_huge_cells_are_quarantined(tmp_path: Path, monkeypatch):
    from dualgraph.corpus import tabular

    monkeypatch.setattr(tabular, "MAX_COLUMNS", 50)
    monkeypatch.setattr(tabular, "MAX_CELL_CHARS", 1000)
    src = tmp_path / "t.jsonl"
    deep = "[" * 5000 + "]" * 5000
    wide = json.dumps({"name": "Wide", **{f"k{i}": i for i in range(60)}})
    src.write_text(
        "\n".join(
            [
                json.dumps({"name": "Fine One", "ram": 8}),
                '{"name": "Deep", "ram": ' + deep + "}",
                wide,
                json.dumps({"name": "Long Name " + "x" * 2000, "ram": 4}),
                json.dumps({"name": "Fine Two", "ram": 16}),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    report = import_table(src, tmp_path / "ds", _tiny_mapping(), progress=False)
    got = {(q.record, q.stage): q.reason for q in report.quarantined}
    assert got[("line 2", "row")].startswith("nested more deeply")
    assert got[("line 3", "row")] == "the record has 61 keys; at most 50 are read"
    assert "2,010 characters" in got[("line 4", "row")]
    assert set(by_name(read_all(tmp_path / "ds"))) == {"Fine One", "Fine Two"}


def test_a_csv_with_too_many_columns_is_refused_by_name(tmp_path: Path, monkeypatch):
    from dualgraph.corpus import tabular

    monkeypatch.setattr(tabular, "MAX_COLUMNS", 50)
    src = tmp_path / "wide.csv"
    src.write_text(",".join(["name", "ram"] + [f"c{i}" for i in range(60)]) + "\nA," + "1," * 60 + "1\n")
    report = import_table(src, tmp_path / "ds", _tiny_mapping(), progress=False)
    assert [(q.file, q.stage, q.reason) for q in report.quarantined] == [
        (str(src), "read", "the header has 62 columns; at most 50 are read")
    ]


def test_reimport_prunes_pages_of_rows_gone_from_the_table(tmp_path: Path):
    out = tmp_path / "ds"
    src = tmp_path / "t.csv"
    src.write_text("name,ram\nAlpha,8\nBeta,4\nGamma,2\n", encoding="utf-8")
    assert import_table(src, out, _tiny_mapping(), progress=False).pruned == 0
    src.write_text("name,ram\nAlpha,8\nGamma,2\n", encoding="utf-8")
    kept = import_table(src, out, _tiny_mapping(), progress=False, prune=False)
    assert kept.pruned == 0 and set(by_name(read_all(out))) == {"Alpha", "Beta", "Gamma"}
    report = import_table(src, out, _tiny_mapping(), progress=False)
    assert report.pruned == 1 and report.counts["pruned"] == 1
    assert set(by_name(read_all(out))) == {"Alpha", "Gamma"}
    # a file that cannot be read prunes nothing: its rows are unknown, not gone
    missing = import_table([src, tmp_path / "gone.csv"], out, _tiny_mapping(), progress=False)
    assert missing.pruned == 0 and set(by_name(read_all(out))) == {"Alpha", "Gamma"}
    unreadable = import_table(tmp_path / "gone.csv", out, _tiny_mapping(), progress=False)
    assert unreadable.pruned == 0 and set(by_name(read_all(out))) == {"Alpha", "Gamma"}
