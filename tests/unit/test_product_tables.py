"""Lists and counts read from per-product tables give the rows the store gives for the same query.

An invented catalogue of seven products (two names on one, none on another, prices in two
currencies, variants of one range, a typed node that is no product) is loaded into Oxigraph; every
WHERE form the tables read is compared, row for row and in order, with the query the emitter
writes, run on the store. A form the tables do not read must be left to the store (None).
"""

from __future__ import annotations

import pytest

from dualgraph.query.read.model import Intent
from dualgraph.query.sparql.emit import condition_block, select_query
from dualgraph.query.sparql.product_tables import ProductTables, tables_for
from dualgraph.query.sparql.safety import run_select
from dualgraph.stores.namespaces import SKG, SKGT
from dualgraph.stores.oxigraph import OxigraphStore

P = [f"{SKG}product-t{i}" for i in range(7)]
PHONES, TABLETS = f"{SKG}category-phones", f"{SKG}category-tablets"
BATTERY, CELLS = f"{SKG}entry-battery", f"{SKG}entry-cells"


def _catalogue() -> OxigraphStore:
    g = "<http://example.org/g/one>"
    quads = []

    def add(s: str, p: str, o: str) -> None:
        quads.append(f"<{s}> {p} {o} {g} .")

    names = ["Zeta One", "alpha Two", "Beta Three", "Beta Three", "Gamma Four", None, "Ärger Six"]
    for i, name in enumerate(names):
        add(P[i], "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", f"<{SKGT}Product>")
        if name:
            add(P[i], f"<{SKG}hasName>", f'"{name}"')
    add(P[1], f"<{SKG}hasName>", '"Two, renamed"')  # a product with two names: a row each
    for i in (0, 1, 2, 5):
        add(P[i], f"<{SKG}belongs>", f"<{PHONES}>")
    for i in (3, 4, 6):
        add(P[i], f"<{SKG}belongs>", f"<{TABLETS}>")
    xsd = "http://www.w3.org/2001/XMLSchema#"
    prices = {0: ["199.99"], 1: ["300", "150"], 2: ["500.00"], 3: ["120"], 4: ["80.5"], 5: ["10"]}
    for i, values in prices.items():
        for v in values:
            add(P[i], f"<{SKG}hasPrice>", f'"{v}"^^<{xsd}decimal>')
    for i, cur in [(0, "GBP"), (1, "GBP"), (1, "EUR"), (2, "EUR"), (3, "GBP"), (4, "GBP"), (5, "GBP")]:
        add(P[i], f"<{SKG}hasCurrency>", f'"{cur}"')
    add(P[6], f"<{SKG}hasPrice>", '"n/a"')  # a price no filter can compare
    add(P[6], f"<{SKG}hasCurrency>", '"GBP"')
    for i, mah, n in [(0, 4000, 0), (1, 5000, 0), (2, 3000, 0), (3, 5000, 0), (0, 4500, 1), (4, 5000, 0)]:
        s = f"{SKG}spec-t{i}-battery{n}"
        add(P[i], f"<{SKG}hasSpec>", f"<{s}>")
        add(s, f"<{SKG}inEntry>", f"<{BATTERY}>")
        add(s, f"<{SKG}hasNumericValue>", f'"{mah}"^^<{xsd}integer>')
    # decimals past 18 places and integers past 64 bits: the store reads them as no number
    add(P[2], f"<{SKG}hasSpec>", f"<{SKG}spec-t2-battery9>")
    add(f"{SKG}spec-t2-battery9", f"<{SKG}inEntry>", f"<{BATTERY}>")
    add(f"{SKG}spec-t2-battery9", f"<{SKG}hasNumericValue>", f'"4100.1234567890123456789"^^<{xsd}decimal>')
    add(P[2], f"<{SKG}hasSpec>", f"<{SKG}spec-t2-cells9>")
    add(f"{SKG}spec-t2-cells9", f"<{SKG}inEntry>", f"<{CELLS}>")
    add(f"{SKG}spec-t2-cells9", f"<{SKG}hasNumericValue>", f'"99999999999999999999"^^<{xsd}integer>')
    add(f"{SKG}spec-t6-battery", f"<{SKG}inEntry>", f"<{BATTERY}>")  # a value no filter can compare
    add(P[6], f"<{SKG}hasSpec>", f"<{SKG}spec-t6-battery>")
    add(f"{SKG}spec-t6-battery", f"<{SKG}hasNumericValue>", '"large"')
    add(f"{SKG}spec-t5-cells", f"<{SKG}inEntry>", f"<{CELLS}>")
    add(P[5], f"<{SKG}hasSpec>", f"<{SKG}spec-t5-cells>")
    add(f"{SKG}spec-t5-cells", f"<{SKG}hasNumericValue>", f'"4200.0"^^<{xsd}double>')
    add(f"{SKG}spec-t4-cells", f"<{SKG}inEntry>", f"<{CELLS}>")
    add(P[4], f"<{SKG}hasSpec>", f"<{SKG}spec-t4-cells>")
    add(f"{SKG}spec-t4-cells", f"<{SKG}hasNumericValue>", f'"6000"^^<{xsd}integer>')
    add(P[3], f"<{SKG}variantOf>", f"<{SKG}range-beta>")
    add(P[2], f"<{SKG}variantOf>", f"<{SKG}range-beta>")
    add(f"{SKG}range-beta", f"<{SKG}belongs>", f"<{PHONES}>")  # no product: never counted
    store = OxigraphStore.in_memory()
    store.update("INSERT DATA { " + " ".join(f"GRAPH {g} {{ {q.rsplit(' ', 2)[0]} }}" for q in quads) + " }")
    return store.copy_to_memory()


@pytest.fixture(scope="module")
def store() -> OxigraphStore:
    return _catalogue()


PRICE = '?p skg:hasPrice ?v2 ; skg:hasCurrency "{cur}" .'
WHERE_FORMS = {
    "category": [f"?p skg:belongs <{PHONES}> ."],
    "one of two categories": [f"?p skg:belongs ?s1 . FILTER(?s1 IN (<{PHONES}>, <{TABLETS}>))"],
    "named products": [f"VALUES ?p {{ <{P[1]}> <{P[5]}> <{SKG}not-a-product> }}"],
    "under a price": [condition_block(PRICE.format(cur="GBP") + " FILTER(?v2 < 200)")],
    "price between": [condition_block(PRICE.format(cur="GBP") + " FILTER(?v2 >= 100) FILTER(?v2 <= 300)")],
    "price in euros": [condition_block(PRICE.format(cur="EUR") + " FILTER(?v2 > 100)")],
    "price equal": [condition_block(PRICE.format(cur="GBP") + " FILTER(?v2 = 120)")],
    "a currency nobody prices in": [condition_block(PRICE.format(cur="JPY") + " FILTER(?v2 > 1)")],
    "a spec range": [
        condition_block(
            f"?p skg:hasSpec ?s3 . ?s3 skg:inEntry <{BATTERY}> ; skg:hasNumericValue ?v3 . FILTER(?v3 >= 4000)"
        )
    ],
    "a spec between": [
        condition_block(
            f"?p skg:hasSpec ?s3 . ?s3 skg:inEntry <{BATTERY}> ; skg:hasNumericValue ?v3 . "
            "FILTER(?v3 >= 3500) FILTER(?v3 <= 4800)"
        )
    ],
    "either of two entries": [
        condition_block(
            f"{{ ?p skg:hasSpec ?s4 . ?s4 skg:inEntry <{BATTERY}> ; skg:hasNumericValue ?v4 . }} UNION "
            f"{{ ?p skg:hasSpec ?s4 . ?s4 skg:inEntry <{CELLS}> ; skg:hasNumericValue ?v4 . }} FILTER(?v4 > 4100)"
        )
    ],
    "category, price and spec": [
        f"?p skg:belongs <{PHONES}> .",
        condition_block(PRICE.format(cur="GBP") + " FILTER(?v2 < 400)"),
        condition_block(
            f"?p skg:hasSpec ?s3 . ?s3 skg:inEntry <{BATTERY}> ; skg:hasNumericValue ?v3 . FILTER(?v3 > 3000)"
        ),
    ],
    "nothing matches": [f"?p skg:belongs <{TABLETS}> .", condition_block(PRICE.format(cur="EUR") + " FILTER(?v2 > 1)")],
    "no condition": [],
}


@pytest.mark.parametrize("form", list(WHERE_FORMS))
@pytest.mark.parametrize("kind", ["list", "count", "ranges"])
def test_rows_are_the_stores(store, form, kind):
    blocks = WHERE_FORMS[form]
    intent = Intent("count" if kind != "list" else "list")
    query = select_query(intent, blocks, [], ordered=False, tie_broken=False, count_ranges=kind == "ranges")
    tables = ProductTables(store, timeout_s=10)
    got = tables.result(query, intent, blocks, [], ordered=False, count_ranges=kind == "ranges", row_cap=100)
    assert got is not None, "a form the tables read was left to the store"
    want = run_select(store, query, row_cap=100)
    assert got.rows == want.rows
    assert (got.vars, got.total_rows, got.truncated) == (want.vars, want.total_rows, want.truncated)


def test_a_list_past_the_cap_is_cut_as_the_store_cuts_it(store):
    blocks = WHERE_FORMS["one of two categories"]
    query = select_query(Intent("list"), blocks, [], ordered=False, tie_broken=False, count_ranges=False)
    got = ProductTables(store, timeout_s=10).result(
        query, Intent("list"), blocks, [], ordered=False, count_ranges=False, row_cap=3
    )
    want = run_select(store, query, row_cap=3)
    assert got is not None and got.truncated and want.truncated
    assert (got.rows, got.total_rows) == (want.rows, want.total_rows)


def test_another_number_on_the_same_entry_is_not_read_again(store):
    tables = ProductTables(store, timeout_s=10)
    spec = f"?p skg:hasSpec ?s{{i}} . ?s{{i}} skg:inEntry <{BATTERY}> ; skg:hasNumericValue ?v{{i}} ."
    first = tables.mask(condition_block(spec.format(i=2) + " FILTER(?v2 >= 4000)"))
    read = tables.seconds_reading
    second = tables.mask(condition_block(spec.format(i=5) + " FILTER(?v5 < 4000)"))
    assert tables.seconds_reading == read, "the entry's values were read from the store again"
    assert first is not None and second is not None and not (first & second).any()


def test_repeated_conditions_are_read_once(store):
    tables = ProductTables(store, timeout_s=10)
    block = condition_block(
        f"?p skg:hasSpec ?s3 . ?s3 skg:inEntry <{BATTERY}> ; skg:hasNumericValue ?v3 . FILTER(?v3 >= 4000)"
    )
    first = tables.mask(block)
    read = tables.seconds_reading
    assert first is not None and tables.mask(block) is first
    assert tables.seconds_reading == read


ORDER_BY_BATTERY = condition_block(
    f"?p skg:hasSpec ?so . ?so skg:inEntry <{BATTERY}> ; skg:hasNumericValue ?val ."
).replace("SELECT DISTINCT ?p WHERE", "SELECT ?p ?val WHERE")
ORDER_BY_PRICE = '?p skg:hasPrice ?val ; skg:hasCurrency "GBP" .'


@pytest.mark.parametrize("direction", ["max", "min"])
@pytest.mark.parametrize(
    "blocks",
    [
        [f"VALUES ?p {{ <{P[0]}> <{P[1]}> }}", ORDER_BY_BATTERY],  # two batteries on one: its largest (smallest)
        [f"?p skg:belongs <{PHONES}> .", ORDER_BY_PRICE],  # two prices on one product
        [condition_block(PRICE.format(cur="GBP") + " FILTER(?v2 < 250)"), ORDER_BY_BATTERY],
        [f"VALUES ?p {{ <{P[3]}> <{P[4]}> }}", ORDER_BY_BATTERY],  # ties on value, ordered by name
    ],
)
def test_rankings_are_the_stores(store, blocks, direction):
    intent = Intent("superlative", direction=direction)
    query = select_query(intent, blocks, [], ordered=True, tie_broken=False, count_ranges=False)
    got = ProductTables(store, timeout_s=10).result(
        query, intent, blocks, [], ordered=True, count_ranges=False, row_cap=100
    )
    assert got is not None
    want = run_select(store, query, row_cap=100)
    assert got.rows == want.rows and got.vars == want.vars


@pytest.mark.parametrize(
    "blocks, filters, ordered, kind",
    [
        # a negation is evaluated beside the other conditions, never alone
        ([f"?p skg:hasSpec ?s1 . FILTER NOT EXISTS {{ ?s1 skg:inEntry <{BATTERY}> }}"], [], False, "list"),
        ([f"?p skg:belongs <{PHONES}> ."], ['REGEX(?name, "^Beta")'], False, "list"),  # a filter on names
        ([f"?p skg:belongs <{PHONES}> .", "VALUES ?e { <x:e> }"], [], False, "list"),  # binds no product
        ([f"?p skg:belongs <{PHONES}> ."], [], True, "superlative"),  # no ordering value
        ([f"?p skg:belongs <{TABLETS}> .", ORDER_BY_PRICE], [], True, "superlative"),  # a price "n/a" in scope
        ([f"?p skg:belongs <{TABLETS}> .", ORDER_BY_BATTERY], [], True, "superlative"),  # a battery "large"
        ([f"?p skg:belongs <{PHONES}> .", ORDER_BY_BATTERY], [], True, "superlative"),  # a decimal of 19 places
        ([f"?p skg:belongs <{PHONES}> ."], [], False, "describe"),
        # a union at the top is not one condition's sub-select
        ([f"{{ ?p skg:belongs <{PHONES}> }} UNION {{ ?p skg:belongs <{TABLETS}> }}"], [], False, "list"),
    ],
)
def test_other_forms_are_left_to_the_store(store, blocks, filters, ordered, kind):
    intent = Intent(kind)
    query = select_query(intent, blocks, filters, ordered=ordered, tie_broken=False, count_ranges=False)
    got = ProductTables(store, timeout_s=10).result(
        query, intent, blocks, filters, ordered=ordered, count_ranges=False, row_cap=100
    )
    assert got is None


def test_tables_only_over_a_store_that_cannot_change(store):
    assert tables_for(store, timeout_s=10) is not None
    assert tables_for(OxigraphStore.in_memory(), timeout_s=10) is None


def test_names_with_a_language_leave_lists_to_the_store():
    store = OxigraphStore.in_memory()
    store.update(
        "INSERT DATA { GRAPH <http://example.org/g> { "
        f'<{P[0]}> a <{SKGT}Product> ; <{SKG}hasName> "Eins"@de ; <{SKG}belongs> <{PHONES}> . '
        f'<{P[1]}> a <{SKGT}Product> ; <{SKG}hasName> "Zwei" ; <{SKG}belongs> <{PHONES}> . }} }}'
    )
    blocks = [f"?p skg:belongs <{PHONES}> ."]
    query = select_query(Intent("list"), blocks, [], ordered=False, tie_broken=False, count_ranges=False)
    got = ProductTables(store.copy_to_memory(), timeout_s=10).result(
        query, Intent("list"), blocks, [], ordered=False, count_ranges=False, row_cap=100
    )
    assert got is None
