import pyoxigraph as ox

from dualgraph.corpus.model import Variant
from dualgraph.skg import ontology as O
from dualgraph.skg.triples import convert_document


def _store(nquads: str) -> ox.Store:
    s = ox.Store()
    s.load(nquads.encode(), format=ox.RdfFormat.N_QUADS)
    return s


def _q(store, query):
    return list(store.query(query, prefixes=O.PREFIXES, use_default_graph_as_union=True))


PHONE = Variant(
    name="Phone X 256GB Black",
    prod_range="Phone X",
    categories=("smartphones", "galaxy-x"),
    specs=(
        ("Battery:Capacity", "5,000 mAh"),
        ("Storage:Capacity", "256 GB, 1 TB"),
        ("Display:Resolution", "2400 x 1080"),
        ("Price", "499.00 GBP"),
        ("Model Code", "SM-X1"),
        ("Network:NFC", "Yes"),
        ("Display:Type", "Dynamic AMOLED 2X"),
    ),
)


def test_converted_document_is_valid_nquads_in_its_own_graph():
    conv = convert_document("file-abc", [PHONE])
    store = _store(conv.nquads)
    assert {g.value for g in store.named_graphs()} == {O.document_graph("file-abc"), O.VOCAB_GRAPH}
    # everything about the product itself sits in the document's graph
    own = _q(
        store, f"SELECT ?p WHERE {{ GRAPH <{O.document_graph('file-abc')}> {{ ?x skg:hasSpec ?s ; skg:hasName ?n }} }}"
    )
    assert own
    assert conv.n_products == 1
    assert conv.n_quads == len(store)


def test_numbers_units_dims_and_lists():
    store = _store(convert_document("d", [PHONE]).nquads)
    rows = _q(
        store,
        """SELECT ?e ?n ?u WHERE { ?s skg:inEntry/skg:hasName ?e ; skg:inSection/skg:hasName "Storage" ;
                         skg:hasQuantity ?q . ?q skg:hasNumericValue ?n ; skg:hasUnit ?u } ORDER BY ?n""",
    )
    values = [(float(r["n"].value), r["u"].value) for r in rows]
    # "256 GB, 1 TB" is two values; both in one unit so they compare
    assert len(values) == 2 and values[0][1] == values[1][1]
    assert values[0][0] < values[1][0]
    bat = _q(
        store, 'SELECT ?n WHERE { ?s skg:inSection/skg:hasName "Battery" ; skg:hasQuantity/skg:hasNumericValue ?n }'
    )
    assert [float(r["n"].value) for r in bat] == [5000.0]
    dims = _q(store, "SELECT ?a ?b WHERE { ?s skg:hasQuantity ?q . ?q skg:hasDim1 ?a ; skg:hasDim2 ?b }")
    assert [(float(r["a"].value), float(r["b"].value)) for r in dims] == [(2400.0, 1080.0)]


def test_price_is_numeric_with_currency_unit():
    store = _store(convert_document("d", [PHONE]).nquads)
    rows = _q(
        store,
        'SELECT ?n ?u WHERE { ?s skg:inEntry/skg:hasName "Price" ; skg:hasQuantity ?q . ?q skg:hasNumericValue ?n ; skg:hasUnit ?u }',
    )
    assert [(float(r["n"].value), r["u"].value) for r in rows] == [(499.0, "GBP")]


def test_text_values_keep_their_exact_name():
    store = _store(convert_document("d", [PHONE]).nquads)
    rows = _q(store, 'SELECT ?v WHERE { ?s skg:inEntry/skg:hasName "Type" ; skg:hasValue/skg:hasName ?v }')
    assert [r["v"].value for r in rows] == ["Dynamic AMOLED 2X"]


def test_conversion_is_deterministic_and_order_independent():
    other = Variant("Phone X 128GB Blue", "Phone X", ("smartphones",), (("Battery:Capacity", "4000 mAh"),))
    a = convert_document("d", [PHONE, other]).nquads
    b = convert_document("d", [other, PHONE]).nquads
    assert sorted(a.splitlines()) == sorted(b.splitlines())
    assert a == convert_document("d", [PHONE, other]).nquads


def test_literals_are_escaped():
    v = Variant('Odd "quoted"\nname \\ x', "R", (), (("S:E", 'say "hi"\tnow'),))
    store = _store(convert_document("d", [v]).nquads)
    names = {r["n"].value for r in _q(store, "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n }")}
    assert names == {'Odd "quoted"\nname \\ x'}


def test_number_like_text_that_does_not_parse_is_reported_not_dropped():
    v = Variant("P", "R", (), (("Camera:Sensor", "1/1.3 inch type sensor blah"),))
    conv = convert_document("d", [v])
    store = _store(conv.nquads)
    names = [
        r["n"].value
        for r in _q(store, 'SELECT ?n WHERE { ?s skg:inEntry/skg:hasName "Sensor" ; skg:hasValue/skg:hasName ?n }')
    ]
    assert names == ["1/1.3 inch type sensor blah"]
    if not _q(store, "SELECT ?n WHERE { ?s skg:hasQuantity/skg:hasNumericValue ?n }"):
        assert conv.kept_as_text and conv.kept_as_text[0]["value"] == "1/1.3 inch type sensor blah"
