"""Shop HTML (layouts A/B/C) -> variants, Markdown and a dataset dir, on hand-written fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dualgraph.corpus.markdown import CHUNK_BREAK, chunk_lines, specs_chunks
from dualgraph.corpus.model import Variant
from dualgraph.corpus.prices import parse_price
from dualgraph.corpus.report import QUARANTINE_FILE
from dualgraph.corpus.shop_html import (
    categories_from_url,
    import_scrape,
    page_markdown,
    parse_html_page,
    parse_scraped_variant,
    parse_spec_table,
)
from dualgraph.corpus.specsqa import iter_metadata_files, read_document

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "shop_html"
URL_A = "https://www.example-shop.test/uk/smartphones/galaxy-nova/galaxy-nova-5/buy/"


def html(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def record(variant_name: str, *, layout: str = "A", page: str = "layout_a.html", url: str = URL_A, **extra) -> dict:
    rec = {
        "html": html(page),
        "variant_name": variant_name,
        "variant_features": [],
        "product_range": None,
        "price": "",
        "model_code": "",
        "url": url,
        "url_hash": "",
        "layout_type": layout,
        "access": "2025-01-01",
    }
    rec.update(extra)
    return rec


# --------------------------------------------------------------------------- spec tables


def test_layout_a_sections_untitled_items_and_missing_values():
    table = parse_spec_table(html("layout_a.html"), layout="A")
    assert table.parser == "A"
    assert table.pairs == [
        ("Display:Size (Main Display)", '6.6" (167.1mm)'),
        ("Display:Resolution (Main Display)", "1080 x 2340 (FHD+)"),
        ("Colour:Colour", "Moon Grey"),
        ("Sensors:Sensors", "Accelerometer, Fingerprint Sensor"),  # several untitled items: one list value
        ("Battery:Battery Capacity (mAh, Typical)", "5000"),
    ]
    assert table.problems == [("spec item 'Battery:Wireless Charging'", "spec item has no value; left out")]


def test_layout_b_uses_the_shown_table_and_list_values():
    table = parse_spec_table(html("layout_b.html"), layout="B")
    assert table.parser == "B"
    specs = dict(table.pairs)
    assert specs["Memory:RAM"] == "8 GB"  # the aria-hidden tab (12 GB) is another variant's
    assert specs["Connectivity:Wi-Fi"] == "802.11 a/b/g/n/ac/ax, Wi-Fi 6E"
    assert specs["Weight:Weight"] == "581 g"
    assert table.problems == []


def test_layout_c_falls_back_to_a_plain_table():
    table = parse_spec_table(html("layout_c.html"), layout="C")
    assert table.parser == "table"
    assert table.pairs == [
        ("General:Colour", "Black"),
        ("General:Output Power", "25 W"),
        ("Physical specification:Weight", "48.5 g"),
        ("Physical specification:Cable included", "USB-C to USB-C"),
    ]


def test_layout_c_tries_layout_a_first_and_wrong_declared_layout_still_reads():
    assert parse_spec_table(html("layout_a.html"), layout="C").parser == "A"
    assert parse_spec_table(html("layout_b.html"), layout="A").parser == "B"


def test_no_table_is_reported_not_an_empty_success():
    table = parse_spec_table(html("no_specs.html"))
    assert (table.pairs, table.parser) == ([], None)


# --------------------------------------------------------------------------- small parsers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Total price:\n£799.00", "799.00 GBP"),
        ("£1,299", "1299 GBP"),
        ("From £399", "399 GBP"),
        ("Total price:\n£1,049.00\nor £43.71/mo for 24 months", "1049.00 GBP"),
        ("Was £999.00\nNow £849.00\nSave £150.00", "849.00 GBP"),
        ("€1.299,00", "1299.00 EUR"),
        ("$249.99", "249.99 USD"),
        ("₹1,29,999", "129999 INR"),
        ("Rs. 8,999", "8999 INR"),
        ("Coming soon", None),
        ("", None),
        ("£12,34", "12.34 GBP"),  # no grouping ends in two digits: a decimal comma, in any currency
        ("$1.297,50", "1297.50 USD"),
        ("£1,2345", None),  # neither a grouping nor cents: no guess
    ],
)
def test_parse_price(text, expected):
    assert parse_price(text) == expected


def test_categories_from_url_matches_reference_slicing():
    assert categories_from_url(URL_A) == ("smartphones", "galaxy-nova", "galaxy-nova-5")
    assert categories_from_url(URL_A.rstrip("/")) == ("smartphones", "galaxy-nova", "galaxy-nova-5")
    assert categories_from_url("https://www.example-shop.test/uk/tvs/all-tvs/") == ("tvs",)
    assert categories_from_url("") == ()


def test_scraped_variant_gets_table_price_model_code_and_features():
    rec = record(
        "Galaxy Nova 5<SEP>Moon Grey<SEP>128GB",
        product_range="Galaxy Nova 5",
        price="Total price:\n£449.00",
        model_code="SM-N500",
        variant_features=["Colour:Moon Grey", "Storage:128GB"],
    )
    v, notes = parse_scraped_variant(rec, source="v1.json")
    assert v.name == "Galaxy Nova 5 Moon Grey 128GB"
    assert v.prod_range == "Galaxy Nova 5"
    assert v.categories == ("smartphones", "galaxy-nova", "galaxy-nova-5")
    specs = dict(v.specs)
    assert specs["Price"] == "449.00 GBP"
    assert specs["Model Code"] == v.model_code == "SM-N500"
    assert specs["Variant features:Storage"] == "128GB"
    assert specs["Display:Size (Main Display)"] == '6.6" (167.1mm)'
    assert [(q.file, q.record, q.stage) for q in notes] == [
        ("v1.json", "spec item 'Battery:Wireless Charging'", "parse")
    ]


def test_scraped_variant_without_price_has_no_price_spec_and_bad_feature_is_noted():
    v, notes = parse_scraped_variant(
        record("Nova<SEP>Grey", price="Coming soon", variant_features=["no colon"]), source="v2.json"
    )
    assert "Price" not in dict(v.specs)
    assert v.prod_range == "Nova"  # range defaults to the first <SEP> part
    assert ("variant_features[0]", "not a 'key:value' string: 'no colon'") in [(q.record, q.reason) for q in notes]


def test_malformed_html_record_is_quarantined_with_reason():
    v, notes = parse_scraped_variant(
        record("Galaxy Band 2", page="broken.html", model_code="SM-B2"), source="band.json"
    )
    reasons = {(q.file, q.record, q.reason) for q in notes}
    assert ("band.json", "html", "HTML looks truncated (no closing </html>); used what could be parsed") in reasons
    assert ("band.json", "html", "no spec table found (layout 'A'; tried A, B, plain tables)") in reasons
    assert dict(v.specs) == {"Model Code": "SM-B2"}  # the variant survives with what was readable


def test_record_without_html_or_name():
    _, notes = parse_scraped_variant({"variant_name": "X", "html": ""}, source="x.json")
    assert [(q.record, q.reason) for q in notes] == [("html", "record has no page HTML; spec table not read")]
    with pytest.raises(ValueError, match="no 'variant_name'"):
        parse_scraped_variant({"html": "<html></html>"}, source="y.json")
    with pytest.raises(ValueError, match="not an object"):
        parse_scraped_variant(["a"], source="z.json")  # type: ignore[arg-type]


def test_bare_page_variant_from_title():
    variants, notes = parse_html_page(html("layout_a.html"), source="a.html")
    assert [(v.name, v.prod_range, v.categories) for v in variants] == [
        ("Galaxy Nova 5", "Galaxy Nova 5", ("smartphones", "galaxy-nova", "galaxy-nova-5"))
    ]
    assert len(notes) == 1  # the empty Wireless Charging item
    variants, notes = parse_html_page(html("no_specs.html"), source="n.html")
    assert variants == [] and [(q.record, q.reason) for q in notes] == [
        ("html", "no spec table found (tried A, B, plain tables)")
    ]


# --------------------------------------------------------------------------- markdown


def _variants() -> list[Variant]:
    base = {"Display:Size": "6.6 inch", "Colour:Colour": "Moon Grey", "Connectivity:NFC": ""}
    a = Variant.from_record(
        {
            "name": "Nova 5<SEP>128GB",
            "prod_range": "Nova 5",
            "categories": ["smartphones"],
            "specs": {**base, "Price": "449.00 GBP", "Memory:Storage": "128 GB", "Model Code": "SM-1"},
        }
    )
    b = Variant.from_record(
        {
            "name": "Nova 5<SEP>256GB",
            "prod_range": "Nova 5",
            "categories": ["smartphones"],
            "specs": {**base, "Price": "499.00 GBP", "Memory:Storage": "256 GB", "Model Code": "SM-2"},
        }
    )
    return [a, b]


def test_page_markdown_blocks_are_separate_chunks_and_noise_is_dropped():
    md = page_markdown(html("layout_a.html"), _variants())
    chunks = md.split(f"\n\n{CHUNK_BREAK}\n\n")
    heads = [c.splitlines()[0] for c in chunks]
    assert heads == [
        '# Feature from the "Galaxy Nova 5" page',
        '# Feature from the "Galaxy Nova 5" page',
        '# FAQ from the "Galaxy Nova 5" page',
        '# Specifications shared by all 2 products of the "Galaxy Nova 5" page',
        '# Specifications of "Nova 5 128GB" (from the "Galaxy Nova 5" page)',
        '# Specifications of "Nova 5 256GB" (from the "Galaxy Nova 5" page)',
    ]
    first = chunks[0].splitlines()
    assert first[-2:] == [
        "Image description: Nova 5 in Moon Grey, seen from the back",
        "Image description: Night portrait taken with Nova 5",
    ]  # document order, once each
    assert "Nested card text stays in the outer block." in first
    for noise in ("Play video", "Free delivery", "Offers", "Copyright", "tracking", "UNNAMED"):
        assert noise not in md
    assert "Does Nova 5 support eSIM?" in chunks[2]


def test_specs_are_per_variant_with_shared_values_once():
    chunks = specs_chunks(_variants(), title="Nova 5")
    shared, a, b = chunks
    assert "## Display\nSize: 6.6 inch" in shared and "## Colour\nColour: Moon Grey" in shared
    assert "Product Range: Nova 5" in shared and "Products: Nova 5 128GB; Nova 5 256GB" in shared
    assert "## Specifications\nPrice: 449.00 GBP\nModel Code: SM-1\n## Memory\nStorage: 128 GB" in a
    assert "Price: 499.00 GBP" in b and "Price: 449.00 GBP" not in b
    assert "6.6 inch" not in a  # not repeated per variant
    assert "NFC" not in "".join(chunks)  # an empty value is not written
    single = specs_chunks(_variants()[:1], title="Nova 5")
    assert len(single) == 1 and "Product Name: Nova 5 128GB" in single[0] and "Size: 6.6 inch" in single[0]


def test_chunks_respect_the_size_cap_and_repeat_headers():
    lines = ["## Camera"] + [f"Mode {i}: a long description of camera mode number {i}" for i in range(60)]
    chunks = chunk_lines("# Specifications of X", lines, chunk_chars=300)
    assert len(chunks) > 5
    assert all(len(c) <= 300 for c in chunks)
    assert all(c.startswith("# Specifications of X\n## Camera\n") for c in chunks)
    long_feature = '<title>T</title><div class="feature-x"><p>' + "word " * 3000 + "</p></div>"
    parts = page_markdown(long_feature, [], chunk_chars=1000).split(CHUNK_BREAK)
    assert len(parts) >= 15 and all(len(p.strip()) <= 1000 for p in parts)


# --------------------------------------------------------------------------- import


def _write(path: Path, obj) -> None:
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")


@pytest.fixture()
def scrape_dir(tmp_path: Path) -> Path:
    src = tmp_path / "scrape"
    src.mkdir()
    a_hash = "aaaaaaaaaaaaaaaa"
    for i, (opt, price, code) in enumerate([("128GB", "£449.00", "SM-1"), ("256GB", "Total price:\n£499.00", "SM-2")]):
        _write(
            src / f"a{i}.json",
            record(
                f"Galaxy Nova 5<SEP>Moon Grey<SEP>{opt}",
                product_range="Galaxy Nova 5",
                price=price,
                model_code=code,
                url_hash=a_hash,
                variant_features=[f"Storage:{opt}"],
            ),
        )
    _write(src / f"{a_hash}.html", html("layout_a.html"))
    _write(
        src / "a_dup.json",
        record(
            "Galaxy Nova 5<SEP>Moon Grey<SEP>128GB",
            product_range="Galaxy Nova 5",
            price="£449.00",
            model_code="SM-1",
            url_hash=a_hash,
        ),
    )
    _write(
        src / "b0.json",
        record(
            "Slate 9 Wi-Fi<SEP>Graphite",
            layout="B",
            page="layout_b.html",
            product_range="Galaxy Slate 9",
            url="https://x.test/uk/tablets/galaxy-slate-9/buy/",
            url_hash="bbbbbbbbbbbbbbbb",
            model_code="SM-X9",
        ),
    )
    _write(
        src / "c0.json",
        record(
            "25W Travel Adapter<SEP>Black",
            layout="C",
            page="layout_c.html",
            url="https://x.test/uk/mobile-accessories/travel-adapter/buy/",
            url_hash="cccccccccccccccc",
        ),
    )
    _write(src / "broken_html.json", record("Galaxy Band 2", page="broken.html", url_hash="dddddddddddddddd"))
    _write(src / "truncated.json", '{"html": "<html>", "variant_name": "Cut')
    _write(src / "no_name.json", {"html": "<html></html>", "url_hash": "eeeeeeeeeeeeeeee"})
    _write(src / "specs.json", [])  # a reference databuilder output, not a record
    (src / "pages").mkdir()
    _write(src / "pages" / "ffffffffffffffff.html", html("layout_c.html"))  # page without variant JSONs
    _write(src / "pages" / "0000000000000000.html", html("no_specs.html"))
    return src


def test_import_scrape_quarantines_every_bad_input(scrape_dir: Path, tmp_path: Path):
    out = tmp_path / "ds"
    report = import_scrape(scrape_dir, out, progress=False)
    got = {(Path(q.file).name, q.record, q.stage, q.reason) for q in report.quarantined}
    [bad_json] = [q for q in report.quarantined if Path(q.file).name == "truncated.json"]
    assert (bad_json.record, bad_json.stage) == ("record", "read")
    assert bad_json.reason.startswith("malformed JSON: Unterminated string")
    assert ("no_name.json", "record", "parse", "record has no 'variant_name'") in got
    assert (
        "broken_html.json",
        "html",
        "parse",
        "HTML looks truncated (no closing </html>); used what could be parsed",
    ) in got
    assert ("0000000000000000.html", "html", "parse", "no spec table found (tried A, B, plain tables)") in got
    dup = [q for q in report.quarantined if q.stage == "duplicate"]
    assert len(dup) == 1 and Path(dup[0].file).name in {"a0.json", "a_dup.json"}
    assert report.records == 10  # 8 variant JSONs + 2 bare pages
    assert report.pages == 6 and report.variants == 6
    lines = (out / QUARANTINE_FILE).read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(report.quarantined)
    assert set(json.loads(lines[0])) == {"file", "record", "stage", "reason"}


def test_import_scrape_round_trip_and_is_reproducible(scrape_dir: Path, tmp_path: Path):
    out = tmp_path / "ds"
    import_scrape(scrape_dir, out, progress=False)
    docs = {}
    for meta in iter_metadata_files(out):
        doc, problems = read_document(meta, out)
        assert problems == []
        docs[doc.doc_id] = doc
    assert set(docs) == {f"file-{c * 16}" for c in "abcdf0"}
    nova = docs["file-" + "a" * 16]
    assert [v.name for v in nova.variants] == ["Galaxy Nova 5 Moon Grey 128GB", "Galaxy Nova 5 Moon Grey 256GB"]
    assert [v.model_code for v in nova.variants] == ["SM-1", "SM-2"]
    assert dict(nova.variants[1].specs)["Price"] == "499.00 GBP"
    assert nova.text.count(CHUNK_BREAK) == 5 and "All-day battery" in nova.text
    slate = docs["file-" + "b" * 16].variants[0]
    assert (slate.name, slate.prod_range, slate.categories) == (
        "Slate 9 Wi-Fi Graphite",
        "Galaxy Slate 9",
        ("tablets", "galaxy-slate-9"),
    )
    bare = docs["file-" + "f" * 16].variants
    assert [v.name for v in bare] == ["25W Travel Adapter"]
    assert docs["file-" + "0" * 16].variants == [] and docs["file-" + "0" * 16].text.strip() == ""
    # every written variant reads back equal to what the parser produced
    direct, _ = parse_scraped_variant(json.loads((scrape_dir / "c0.json").read_text()), source="c0.json")
    assert docs["file-" + "c" * 16].variants == [direct]

    again = tmp_path / "ds2"
    import_scrape(scrape_dir, again, progress=False)
    files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for rel in files:
        if rel.name != QUARANTINE_FILE:  # quarantine entries name the source paths
            assert (out / rel).read_bytes() == (again / rel).read_bytes(), rel


def test_docstring_examples_run():
    import doctest

    import dualgraph.corpus.markdown as markdown_mod
    import dualgraph.corpus.prices as prices_mod
    import dualgraph.corpus.report as report_mod
    import dualgraph.corpus.shop_html as mod

    for m in (mod, markdown_mod, prices_mod, report_mod):
        assert doctest.testmod(m).failed == 0, m.__name__
