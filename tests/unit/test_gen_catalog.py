"""The synthetic scale catalog (bench/gen_catalog.py): reproducible, readable, and as noisy as promised."""

import hashlib
import re
import sys
from pathlib import Path

import pytest

from dualgraph.corpus.specsqa import iter_metadata_files, read_document

# bench is a folder of scripts, not a package
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import gen_catalog

PRODUCTS = 60
MARKETS = ("uk", "de", "in")

# one pattern per noisy shape the generator promises; each must turn up in a small catalog
NOISY_SHAPES = {
    "battery in words": r"Li-(Po|Ion) \d+ ?mAh",
    "inches spelt out": r"^\d+(\.\d+)? inches$",
    "decimal comma and inch mark": r'^\d+,\d+"$',
    "RAM and storage together": r"^\d+GB RAM / \d+(GB|TB)$",
    "hertz": r"^\d+ ?Hz$",
    "kilograms": r"^\d+(\.\d+)? kg$",
    "grams for a heavy item": r"^\d{4,5} g$",
    "several facts in one value": r"^GSM / (CDMA / )?HSPA / LTE",
    "ISO date": r"^\d{4}-\d\d-\d\d$",
    "month and year": r"^[A-Z][a-z]+ \d{4}$",
    "release quarter": r"^Released \d{4}, Q[1-4]$",
    "day/month/year": r"^\d\d/\d\d/\d{4}$",
    "yes": r"^Yes$",
    "no": r"^No$",
}


def digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    root = tmp_path_factory.mktemp("catalog")
    counts = gen_catalog.generate(root / "a", PRODUCTS, seed=7, markets=MARKETS)
    return root, counts


def read_all(root: Path):
    docs = []
    for meta in iter_metadata_files(root):
        doc, problems = read_document(meta, root)
        assert problems == [], problems
        docs.append(doc)
    return docs


def test_same_seed_same_bytes_other_seed_other_bytes(catalog):
    root, counts = catalog
    again = gen_catalog.generate(root / "b", PRODUCTS, seed=7, markets=MARKETS)
    assert again == counts
    assert digest(root / "a") == digest(root / "b")
    gen_catalog.generate(root / "c", PRODUCTS, seed=8, markets=MARKETS)
    assert digest(root / "a") != digest(root / "c")


def test_counts_match_what_is_read_back(catalog):
    root, counts = catalog
    docs = read_all(root / "a")
    variants = [v for d in docs for v in d.variants]
    assert counts["products"] == len(variants) == PRODUCTS
    assert counts["documents"] == len(docs)
    assert counts["spec_values"] == sum(len(v.specs) for v in variants)
    assert all(1 <= len(d.variants) <= 4 for d in docs)
    assert len({v.name for v in variants}) == PRODUCTS
    assert len({v.model_code for v in variants}) == PRODUCTS


def test_values_come_in_every_noisy_shape(catalog):
    root, _ = catalog
    variants = [v for d in read_all(root / "a") for v in d.variants]
    values = [value for v in variants for _, value in v.specs]
    missing = [name for name, pat in NOISY_SHAPES.items() if not any(re.search(pat, value) for value in values)]
    assert missing == []
    # absent: an entry one phone states and another leaves out
    phones = [dict(v.specs) for v in variants if "Mobile Phones" in v.categories]
    assert any("Comms:NFC" in s for s in phones) and any("Comms:NFC" not in s for s in phones)


def test_prices_per_market(catalog):
    root, _ = catalog
    for v in (v for d in read_all(root / "a") for v in d.variants):
        specs = dict(v.specs)
        assert re.fullmatch(r"\d+\.\d\d GBP", specs["Price"])
        assert re.fullmatch(r"\d+\.\d\d EUR", specs["Price:DE"])
        assert re.fullmatch(r"\d+\.\d\d INR", specs["Price:IN"])


def test_pages_state_and_negate_features(catalog):
    root, _ = catalog
    texts = [d.text for d in read_all(root / "a")]
    assert all(150 <= len(t.split()) <= 400 for t in texts)
    assert all("**Markets:** uk, de, in" in t for t in texts)
    joined = "\n".join(texts)
    assert re.search(r"\b(does not support|has no|lacks|is not) [a-z]", joined)
    assert re.search(r"\bhas (wireless charging|a backlit keyboard|active noise cancelling|built-in GPS)", joined)


def test_streams_exactly_the_requested_products():
    for n in (1, 5, 13):
        pages = list(gen_catalog.iter_pages(n, seed=1, variants_per_family=(2, 3)))
        assert sum(len(vs) for _, _, vs in pages) == n


def test_refuses_a_non_empty_directory_and_unknown_markets(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "file-x").mkdir()
    with pytest.raises(FileExistsError):
        gen_catalog.generate(tmp_path / "old", 3)
    with pytest.raises(ValueError, match="unknown markets"):
        gen_catalog.generate(tmp_path / "new", 3, markets=("fr",))
    assert not (tmp_path / "new").exists()


def test_heavy_pages_add_a_data_sheet_and_leave_plain_pages_as_they_were(catalog, tmp_path):
    root, counts = catalog
    heavy = gen_catalog.generate(tmp_path / "h", PRODUCTS, seed=7, markets=MARKETS, heavy=True)
    assert heavy["documents"] == counts["documents"] and heavy["products"] == PRODUCTS
    # about 90 entries more per product: enough for the thousand quads of a full data sheet
    assert heavy["spec_values"] - counts["spec_values"] >= 80 * PRODUCTS
    plain = {v.name: dict(v.specs) for d in read_all(root / "a") for v in d.variants}
    sheets = {v.name: dict(v.specs) for d in read_all(tmp_path / "h") for v in d.variants}
    # the sheet is added; what every page held is held unchanged, value for value
    assert all(plain[name].items() <= sheets[name].items() for name in plain)
    values = [value for specs in sheets.values() for value in specs.values()]
    assert any(re.fullmatch(r"-?\d+ - \d+ °C", v) for v in values)  # ranges, as data sheets write them
    assert any(re.fullmatch(r"\d+ - \d+%", v) for v in values)
    # a family's variants share one sheet
    by_family = {}
    for d in read_all(tmp_path / "h"):
        sheet = [{k: v for k, v in var.specs if k.startswith("Operational conditions:")} for var in d.variants]
        by_family[d.doc_id] = all(s == sheet[0] for s in sheet)
    assert all(by_family.values())
