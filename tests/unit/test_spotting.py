"""The quantity spotter on the shapes shops write: several facts in one value, labels, counts, versions."""

from __future__ import annotations

import pytest

from dualgraph.skg.spotting import spot, spot_parts


def _facts(text: str, entry: str | None = None, section: str | None = None) -> list[tuple]:
    return [
        (x.kind, x.dimension, x.value if x.value is not None else (x.dims or (x.low, x.high)), x.unit, x.label)
        for x in spot(text, entry=entry, section=section)
    ]


@pytest.mark.parametrize(
    ("text", "entry", "want"),
    [
        ("8 GB RAM, 128 GB inbuilt", "Memory", [("data", 8.0, "ram"), ("data", 128.0, "inbuilt")]),
        ("Li-Po 5000 mAh, non-removable", "Battery", [("charge", 5000.0, "li-po")]),
        ("Lithium Ion 3.85 Volts, 4000 mAh", "Battery", [("voltage", 3.85, "lithium ion"), ("charge", 4000.0, "")]),
        (
            "5000 mAh Battery with 33W Fast Charging",
            "Battery",
            [("charge", 5000.0, ""), ("power", 33.0, "fast charging")],
        ),
        ("Octa Core, 2.2 GHz Processor", "Processor", [("count", 8.0, "core"), ("frequency", 2.2e9, "")]),
        (
            "6.67 inches, 1080 x 2400 px, 120 Hz Display with Punch Hole",
            "Display",
            [("length", 169.418, ""), ("pixels", (1080.0, 2400.0), ""), ("frequency", 120.0, "")],
        ),
    ],
)
def test_several_facts_in_one_value(text, entry, want):
    got = [(d, v, lab) for _, d, v, _, lab in _facts(text, entry)]
    assert got == want


def test_camera_list_positions_and_labels():
    facts = spot("50 MP + 8 MP + 2 MP Triple Rear & 16 MP Front Camera", entry="Camera")
    mp = [(x.value, x.label, x.position) for x in facts if x.dimension == "resolution_mp"]
    assert mp == [(50.0, "rear", 0), (8.0, "rear", 1), (2.0, "rear", 2), (16.0, "front", 3)]
    assert [(x.value, x.label) for x in facts if x.kind == "count"] == [(3.0, "rear")]


def test_qualifiers_and_up_to():
    facts = spot("4,500 mAh (typical) / Up to 25 W", entry="Battery")
    assert [(x.value, x.qualifier, x.high) for x in facts] == [(4500.0, "typical", None), (25.0, "up_to", 25.0)]
    (card,) = spot("upto 1 TB", entry="Memory Card")
    assert (card.value, card.unit, card.qualifier, card.high) == (1000.0, "GB", "up_to", 1000.0)


def test_a_core_cluster_labels_its_clock():
    facts = spot("2x 3.5 GHz + 6x 2.0 GHz", entry="CPU")
    assert [(x.value, x.label) for x in facts] == [(3.5e9, "2x"), (2.0e9, "6x")]


def test_ranges_and_a_restated_unit():
    (r,) = spot("50 - 60 Hz", entry="AC input frequency")
    assert (r.low, r.high, r.qualifier) == (50.0, 60.0, "range")
    assert [x.value for x in spot('15.2 cm (6")', entry="Display diagonal")] == [152.0]


@pytest.mark.parametrize(
    ("text", "label", "value"),
    [("Android v14", "android", 14.0), ("iOS v26", "ios", 26.0), ("Bluetooth 5.3", "bluetooth", 5.3)],
)
def test_versions_are_their_own_kind(text, label, value):
    (x,) = spot(text)
    assert (x.kind, x.dimension, x.unit, x.label, x.value) == ("version", "version", None, label, value)


@pytest.mark.parametrize(
    "text",
    [
        "Dimensity 6300",
        "Snapdragon 8 Gen 3",
        "Snapdragon 8s Gen3",
        "Snapdragon 7+ Gen3",
        "Helio G99",
        "5G",
        "IP68",
        "16:9",
        "B1/B3/B5",
        "Unisoc 9863A",
        "i5-1235U",
    ],
)
def test_numbers_that_are_not_quantities(text):
    assert [x for x in spot(text, entry="Processor") if x.kind == "measure"] == []
    assert [x for x in spot(text, entry="Processor") if x.kind == "version"] == []


def test_bare_numbers_stay_unitless_or_take_the_entry_unit():
    (rating,) = spot("63", entry="Rating")
    assert (rating.value, rating.unit, rating.dimension) == (63.0, None, None)
    (battery,) = spot("5000", entry="Battery Capacity (mAh)")
    assert (battery.value, battery.unit) == (5000.0, "mAh")
    (bt,) = spot("5.3", entry="Bluetooth version")
    assert (bt.kind, bt.value) == ("version", 5.3)


def test_positions_run_across_the_parts_of_a_value():
    parts = spot_parts(["8 GB RAM", "128 GB inbuilt"], entry="Memory")
    assert [[(x.value, x.position) for x in p] for p in parts] == [[(8.0, 0)], [(128.0, 1)]]


@pytest.mark.parametrize(
    "variant",
    [
        "5000mAh Battery with 33W Fast Charging",
        "5000 MAH battery with 33 w fast charging",
        "5,000 mAh Battery with 33W Fast Charging",
    ],
)
def test_spelling_variations_give_the_same_facts(variant):
    want = [("charge", 5000.0), ("power", 33.0)]
    assert [(x.dimension, x.value) for x in spot(variant, entry="Battery")] == want
