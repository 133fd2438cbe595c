"""The pattern statistics and tag facts counted from hand-made spec rows: names spelled two ways,
nulls from older shards, and a spec that only one of its copies reads a quantity in."""

import pyarrow as pa

from dualgraph.skg.spec_table import QUANTITY_COLUMNS, VALUE_COLUMNS, SpecTables, iter_rows, pattern_rows
from dualgraph.skg.table_rules import tag_facts


def _table(columns, rows):
    return pa.table({c: pa.array([r[i] for r in rows], pa.string()) for i, c in enumerate(columns)})


def _values(rows):
    # product, entry, section_name, entry_name, value, value_name, spec, quantity[, units]
    return _table(VALUE_COLUMNS, [r if len(r) == len(VALUE_COLUMNS) else (*r, None) for r in rows])


QUANTITIES = _table(
    QUANTITY_COLUMNS,
    [
        ("p1", "w", "180", "g", "mass", ""),
        ("p2", "w", "200", "g", "mass", ""),
        ("p2", "w", "200", "g", "mass", ""),
        ("p3", "w", "7", None, None, "battery"),
        ("p3", "w", "9", None, None, "ram"),
    ],
)


def test_names_spelled_two_ways_give_the_least_as_sparql_min_does():
    values = _values(
        [
            ("p1", "e", "Display", "refresh rate", "v1", "120hz", "s1", "1"),
            ("p2", "e", "display", "Refresh Rate", "v1", "120 Hz", "s2", "1"),
            ("p3", "e", None, "refresh rate", "v2", "90 Hz", "s3", "1"),
        ]
    )
    rows = pattern_rows(SpecTables(values, QUANTITIES))
    assert rows["entries"] == [
        {"e": "e", "entry": "Refresh Rate", "section": "Display", "products": "3", "distinct": "2"}
    ]
    assert sorted((r["v"], r["name"], r["products"]) for r in rows["values"]) == [
        ("v1", "120 Hz", "2"),
        ("v2", "90 Hz", "1"),
    ]


def test_numbers_count_products_once_and_leave_out_a_null_unit():
    values = _values([("p1", "w", "Body", "Weight", "v", "180 g", "s1", "1")])
    rows = pattern_rows(SpecTables(values, QUANTITIES))
    by_label = {r["l"]: r for r in rows["numeric"]}
    assert by_label[""] == {"e": "w", "l": "", "lo": "180", "hi": "200", "products": "2", "u": "g", "d": "mass"}
    assert by_label["ram"] == {"e": "w", "l": "ram", "lo": "9", "hi": "9", "products": "1"}  # no unit, no dimension
    modes = sorted((r["l"], r["n"], r["products"]) for r in rows["numeric_mode"])
    assert modes == [("", "180", "1"), ("", "200", "1"), ("battery", "7", "1"), ("ram", "9", "1")]
    assert [sorted(r["labels"].split("\x1f")) for r in rows["labels_meet"]] == [["battery", "ram"]]


def test_a_spec_whose_one_copy_holds_a_quantity_is_no_tag():
    # "5G" on p1 is read as a quantity in one market's copy of its spec s1 and not in the other's:
    # the spec holds a quantity, so only p2's text spec s2 says 5G as text, and the entry lists tags
    # (text specs twice its products) only with the NFC and eSIM specs
    rows = [
        ("p1", "e", "Net", "Features", "5g", "5G", "s1", ""),
        ("p1", "e", "Net", "Features", "5g", "5G", "s1", "1"),
        ("p2", "e", "Net", "Features", "5g", "5G", "s2", ""),
        ("p1", "e", "Net", "Features", "nfc", "NFC", "s3", ""),
        ("p2", "e", "Net", "Features", "nfc", "NFC", "s4", ""),
        ("p2", "e", "Net", "Features", "esim", "eSIM", "s5", ""),
        ("p1", "e", "Net", "Features", "esim", "eSIM", "s6", ""),
    ]
    facts = tag_facts(SpecTables(_values(rows), QUANTITIES))
    assert facts is not None
    tags = sorted(v for v, _, _ in facts["tag-value"])
    # 5g: on two products, with one text spec (s2): a tag, held as text by p2 only
    assert tags == ["<5g>", "<esim>", "<nfc>"]
    has = sorted((p, v) for p, _, v in facts["tag-feature"])
    assert has == [("<p1>", "<esim>"), ("<p1>", "<nfc>"), ("<p2>", "<5g>"), ("<p2>", "<esim>"), ("<p2>", "<nfc>")]
    assert sorted((p, v) for p, _, v in facts["tag-absent"]) == [("<p1>", "<5g>")]


def test_rows_come_a_batch_at_a_time_in_order():
    t = _values([(f"p{i}", "e", "S", "E", "v", "V", f"s{i}", "") for i in range(5)])
    assert [r[0] for r in iter_rows(t, ("product",), batch_rows=2)] == [f"p{i}" for i in range(5)]
