from pathlib import Path

from dualgraph.corpus.icecat import import_icecat, key_spec_sections, product_variant
from dualgraph.corpus.specsqa import iter_metadata_files, read_document

FIXTURE = Path(__file__).parent.parent / "fixtures" / "icecat" / "products.ndjson"


def test_sections_come_from_the_key_specifications_block():
    import json

    rec = json.loads(FIXTURE.read_text().splitlines()[0])
    specs = dict(product_variant(rec).specs)
    assert specs["Battery:Battery capacity"] == "5000 mAh"
    assert specs["Network:Wi-Fi standards"] == "802.11a, Wi-Fi 6 (802.11ax)"
    # not in the block: default section
    assert specs["Specifications:Product colour"] == "Black"
    assert specs["Product ID"] == "900001" and specs["Price"] == "399.00 USD"
    assert key_spec_sections("no block here") == {}


def test_import_writes_pages_and_quarantines_bad_lines(tmp_path):
    report = import_icecat([FIXTURE], tmp_path / "ds")
    assert (report.records, report.pages) == (3, 2)
    reasons = {q.record: q.reason for q in report.quarantined}
    assert "malformed JSON" in reasons["line 3"] and reasons["line 4"] == "record has no 'title'"
    docs = [read_document(m, tmp_path / "ds")[0] for m in iter_metadata_files(tmp_path / "ds")]
    by_name = {d.variants[0].name: d for d in docs}
    tab = by_name['Orbit Tab 10 25.6 cm (10.1") 4G 1 TB Grey']
    assert tab.variants[0].categories == ("Tablets",) and "included pen" in tab.text
    # re-import gives the same directory names
    again = tmp_path / "again"
    import_icecat([FIXTURE], again)
    assert sorted(p.name for p in (tmp_path / "ds").iterdir()) == sorted(p.name for p in again.iterdir())
