"""A document written in a decimal-comma locale is read by its own measures, not as English.

The catalogue is invented: a shop that writes "12,5 cm", "1.299,00 €" and "5.000 mAh"
beside English version names ("Bluetooth 5.3"), and an English one beside it that writes
"2,520 mAh" and "22.4 in". Each number is checked in the store the converter writes.
"""

import pyoxigraph as ox
import pytest

from dualgraph.corpus.model import Variant
from dualgraph.skg import ontology as O
from dualgraph.skg import quantities as Q
from dualgraph.skg.triples import convert_document


def _numbers(variants) -> dict[str, list[float]]:
    store = ox.Store()
    store.load(convert_document("d", variants).nquads.encode(), format=ox.RdfFormat.N_QUADS)
    rows = store.query(
        "SELECT ?e ?n WHERE { ?s skg:inEntry/skg:hasName ?e ; skg:hasQuantity/skg:hasNumericValue ?n }",
        prefixes=O.PREFIXES,
        use_default_graph_as_union=True,
    )
    out: dict[str, list[float]] = {}
    for r in rows:
        out.setdefault(r["e"].value, []).append(float(r["n"].value))
    return {k: sorted(v) for k, v in out.items()}


def _kettle(name: str, specs) -> Variant:
    return Variant(name=name, prod_range=name, categories=("kettles",), specs=tuple(specs))


GERMAN = [
    _kettle(
        "Kessel A",
        [
            ("Height", "12,5 cm"),
            ("Price", "1.299,00 €"),
            ("Battery", "5.000 mAh"),
            ("Volume", "1,7 l"),
            ("Weight (kg)", "0,95"),
            ("Bluetooth", "Bluetooth 5.3"),
            ("Released", "15.03.2021"),
        ],
    ),
    _kettle("Kessel B", [("Height", "9,75 cm"), ("Price", "49,90 €"), ("Volume", "1.500 ml")]),
]
ENGLISH = [
    _kettle(
        "Kettle A", [("Height", "22.4 in"), ("Battery", "2,520 mAh"), ("Volume", "1,500 ml"), ("Weight", "1.5 kg")]
    ),
]


def test_a_decimal_comma_document_reads_its_numbers_as_written():
    got = _numbers(GERMAN)
    assert got["Height"] == [97.5, 125.0]  # mm
    assert got["Price"] == [49.9, 1299.0]
    assert got["Battery"] == [5000.0]  # a dot between thousands
    assert got["Volume"] == [1.5, 1.7]  # litres: "1.500 ml" is 1.5 l
    assert got["Weight (kg)"] == [950.0]  # grams, from a bare number the entry gives a unit


def test_an_english_document_is_read_as_before():
    got = _numbers(ENGLISH)
    assert got["Height"] == [pytest.approx(568.96)]
    assert got["Battery"] == [2520.0]
    assert got["Volume"] == [1.5]
    assert got["Weight"] == [1500.0]


def test_the_vote_counts_measures_only():
    # versions, codes and years do not vote; neither do numbers either locale could write
    assert not Q.infer_decimal_comma(["Bluetooth 5,3", "Model 1,2", "2021"])
    assert not Q.infer_decimal_comma(["1.500 g", "2,520 mAh"])
    assert Q.infer_decimal_comma(["Bluetooth 5.3", "6,3 kg"])
    assert Q.infer_decimal_comma(["0,95"])  # a value that is one number votes
    assert not Q.infer_decimal_comma(["6,3 kg", "22.4 in", "1.5 kg"])
    # a price an importer wrote in its own form ("138.00 USD") says nothing of the page's locale
    assert Q.infer_decimal_comma(["4,00 GHz", "1,15 GHz", "DDR4 @ 1.35V", "138.00 USD"])


def test_spaced_thousands_are_one_number_in_any_document():
    assert Q.delocalise("12\u202f990 kr", decimal_comma=False) == "12,990 kr"
    assert Q.parse_quantity(Q.delocalise("1\u00a0234,5 mm", decimal_comma=True)).value == 1234.5
    # a plain space is a list or a product of numbers, not a group
    assert Q.delocalise("2 400 x 1 080", decimal_comma=True) == "2 400 x 1 080"
