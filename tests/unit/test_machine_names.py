"""Spec names written as database columns ("annual_energy_use_kwh_yr") are read as words, with
the unit that ends them in brackets ("Annual energy use (kwh/yr)"), so their bare numbers take
that unit as "Height (in)" gives its numbers inches.

An invented fridge export; before, "height_in" was one word no question names, and "22.4"
under it a number without a unit. Every expected number follows from the rows below.
"""

import pyoxigraph as ox
import pytest

from dualgraph.corpus.model import Variant
from dualgraph.skg import ontology as O
from dualgraph.skg.triples import convert_document

ROWS = [
    ("Frost 1", {"height_in": "22.4", "annual_energy_use_kwh_yr": "242", "weight_kg": "31", "built_in": "No"}),
    ("Frost 2", {"height_in": "70", "annual_energy_use_kwh_yr": "610", "weight_kg": "88.5", "built_in": "Yes"}),
]


@pytest.fixture(scope="module")
def store() -> ox.Store:
    variants = [Variant(n, n, ("Fridges",), tuple(specs.items())) for n, specs in ROWS]
    s = ox.Store()
    s.load(convert_document("d", variants).nquads.encode(), format=ox.RdfFormat.N_QUADS)
    return s


def _rows(store, query):
    return list(store.query(query, prefixes=O.PREFIXES, use_default_graph_as_union=True))


def test_a_column_name_is_read_as_words(store):
    names = {r["n"].value for r in _rows(store, "SELECT ?n WHERE { ?e a skgt:Entry ; skg:hasName ?n }")}
    assert {"Height (in)", "Annual energy use (kwh/yr)", "Weight (kg)", "Built in"} <= names


def test_the_unit_ending_a_name_is_its_numbers_unit(store):
    got = {
        (r["e"].value, float(r["v"].value), r["u"].value)
        for r in _rows(
            store,
            "SELECT ?e ?v ?u WHERE { ?s skg:inEntry/skg:hasName ?e ; skg:hasQuantity ?q ."
            " ?q skg:hasNumericValue ?v ; skg:hasUnit ?u }",
        )
    }
    assert ("Height (in)", 568.96, "mm") in got and ("Height (in)", 1778.0, "mm") in got
    assert ("Annual energy use (kwh/yr)", 242.0, "kWh/yr") in got
    assert ("Weight (kg)", 88500.0, "g") in got
    assert not any(e == "Built in" for e, _, _ in got)  # Yes/No: no number, so no inches
