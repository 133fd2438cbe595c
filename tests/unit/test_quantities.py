"""Tests for dualgraph.skg.quantities: units, conversion, parsing, lists, prices, literals."""

from __future__ import annotations

import dataclasses
import doctest
import json
import math
import time
from decimal import Decimal
from importlib import resources
from pathlib import Path

import pytest
import yaml

from dualgraph import shared_data
from dualgraph.skg import quantities
from dualgraph.skg.quantities import (
    Quantity,
    convert,
    format_number,
    normalise_unit,
    parse_price,
    parse_quantity,
    split_values,
)
from dualgraph.skg.spotting import spot

# Hand labels for real value strings; each string is read from the public data set it came from
# (dualgraph.shared_data), never copied into the repository.
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "value_strings" / "real_values.jsonl"
LABELS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
NO_DATA = shared_data.missing(sorted({r["ref"]["file"] for r in LABELS}))
# with the data: `value` read from each `ref`, each part's `text` cut from it by its `at` spans
RECORDS = LABELS if NO_DATA else [shared_data.with_strings(r) for r in LABELS]
needs_data = pytest.mark.skipif(NO_DATA is not None, reason=f"real value strings: {NO_DATA}")


def fields(q: Quantity | None) -> dict | None:
    """The non-default fields of a Quantity, in the fixture's shape."""
    if q is None:
        return None
    out = {}
    for f in dataclasses.fields(Quantity):
        v = getattr(q, f.name)
        if f.name == "dims":
            v = list(v)
        if v not in (None, []):
            out[f.name] = v
    return out


def assert_matches(got: dict | None, want: dict | None, context: str = "") -> None:
    if want is None or got is None:
        assert got == want, context
        return
    assert set(got) == set(want), f"{context}: {got} != {want}"
    for key, w in want.items():
        g = got[key]
        if isinstance(w, float) or (isinstance(w, list) and w and isinstance(w[0], float)):
            assert g == pytest.approx(w, rel=1e-9, abs=1e-12), f"{context}: {key} {g} != {w}"
        else:
            assert g == w, f"{context}: {key} {g!r} != {w!r}"


# --------------------------------------------------------------------------- units


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("tb", ("GB", "data", 1000.0)),
        ("TB", ("GB", "data", 1000.0)),
        ("MB", ("GB", "data", 0.001)),
        ("GiB", ("GB", "data", 1.073741824)),
        ('"', ("mm", "length", 25.4)),
        ("inches", ("mm", "length", 25.4)),
        ("cm", ("mm", "length", 10.0)),
        ("g", ("g", "mass", 1.0)),
        ("KG", ("g", "mass", 1000.0)),
        ("lbs", ("g", "mass", 453.59237)),
        ("GHz", ("Hz", "frequency", 1e9)),
        ("mhz", ("Hz", "frequency", 1e6)),
        ("kW", ("W", "power", 1000.0)),
        ("MAH", ("mAh", "charge", 1.0)),
        ("Ah", ("mAh", "charge", 1000.0)),
        ("kWh", ("Wh", "energy", 1000.0)),
        ("uA", ("A", "current", 1e-6)),
        ("µA", ("A", "current", 1e-6)),
        ("μA", ("A", "current", 1e-6)),  # Greek mu, not the micro sign
        ("hrs", ("s", "time", 3600.0)),
        ("Mbps", ("Mbps", "data_rate", 1.0)),
        ("mbps", ("Mbps", "data_rate", 1.0)),
        ("Gbit/s", ("Mbps", "data_rate", 1000.0)),
        ("MB/s", ("MB/s", "byte_rate", 1.0)),
        ("MBps", ("MB/s", "byte_rate", 1.0)),
        ("cd/m²", ("nit", "luminance", 1.0)),
        ("℃", ("°C", "temperature", 1.0)),
        ("megapixels", ("MP", "resolution_mp", 1.0)),
        ("₹", ("INR", "currency", 1.0)),
        ("Rs.", ("INR", "currency", 1.0)),
    ],
)
def test_normalise_unit(spelling, expected):
    got = normalise_unit(spelling)
    assert got is not None and got[:2] == expected[:2]
    assert got[2] == pytest.approx(expected[2])


@pytest.mark.parametrize("spelling", ["G", "K", "D", "M", "P", "MBPS", "foo", "", "Mb"])
def test_normalise_unit_refuses_colliding_or_unknown_spellings(spelling):
    # "G" would turn 5G into grams; "MBPS" could be bits or bytes.
    assert normalise_unit(spelling) is None


def test_every_canonical_unit_maps_to_itself():
    raw = yaml.safe_load(resources.files("dualgraph.skg").joinpath("units.yaml").read_text("utf-8"))
    assert len(raw) >= 20
    for dimension, block in raw.items():
        for symbol in block["units"]:
            canonical, dim, _ = normalise_unit(symbol)
            assert dim == dimension, symbol
            assert canonical == (block["canonical"] or symbol)
        if block["canonical"]:
            assert normalise_unit(block["canonical"]) == (block["canonical"], dimension, 1.0)


def test_a_spelling_naming_two_units_is_rejected():
    table = "data:\n  canonical: GB\n  units:\n    GB: [1, x]\nmultiplier:\n  canonical: x\n  units:\n    x: [1]\n"
    with pytest.raises(ValueError, match="names two units"):
        quantities._build_table(table)


def test_a_case_insensitive_clash_needs_the_exact_spelling():
    table = quantities._build_table(
        "a:\n  canonical: Mbps\n  units:\n    Mbps: [1]\nb:\n  canonical: MBps\n  units:\n    MBps: [1]\n"
    )
    assert table.exact["Mbps"].dimension == "a" and table.exact["MBps"].dimension == "b"
    assert "mbps" not in table.loose


# --------------------------------------------------------------------------- convert


@pytest.mark.parametrize(
    ("value", "src", "dst", "expected"),
    [
        (1, "TB", "GB", 1000.0),
        (512, "GB", "TB", 0.512),
        (2048, "MB", "GB", 2.048),
        (6.7, "inch", "cm", 17.018),
        (6.7, '"', "mm", 170.18),
        (356, "mm", "in", 14.015748031496),
        (1.25, "kg", "g", 1250.0),
        (1, "lb", "oz", 16.0),
        (3.2, "GHz", "MHz", 3200.0),
        (500, "kHz", "Hz", 500000.0),
        (2.5, "kW", "W", 2500.0),
        (5, "Ah", "mAh", 5000.0),
        (57, "Wh", "kWh", 0.057),
        (24, "months", "years", 2.0),
        (29, "hours", "s", 104400.0),
        (90, "min", "h", 1.5),
        (212, "°F", "°C", 100.0),
        (-40, "°C", "°F", -40.0),
        (1, "Gbps", "Mbps", 1000.0),
        (799, "GBP", "£", 799.0),
    ],
)
def test_convert(value, src, dst, expected):
    assert convert(value, src, dst) == pytest.approx(expected)


def test_convert_compares_tb_with_gb_in_si():
    # "at least 1 TB" must accept a 1000 GB drive and reject 512 GB.
    threshold = convert(1, "TB", "GB")
    assert threshold == 1000.0
    assert parse_quantity("1000 GB").value >= threshold > parse_quantity("512 GB").value
    assert parse_quantity("1 TB").value == parse_quantity("1000 GB").value


@pytest.mark.parametrize(
    ("src", "dst"), [("GB", "mm"), ("GBP", "INR"), ("Hz", "W"), ("mAh", "Wh"), ("furlong", "mm"), ("mm", "G")]
)
def test_convert_refuses(src, dst):
    with pytest.raises(ValueError):
        convert(1.0, src, dst)


# --------------------------------------------------------------------------- parse_quantity

Q = dict  # readability in the table below


@pytest.mark.parametrize(
    ("text", "entry", "want"),
    [
        # plain units, with and without a space
        ("120 Hz", None, Q(value=120.0, unit="Hz", dimension="frequency", original_unit="Hz")),
        ("120Hz", None, Q(value=120.0, unit="Hz", dimension="frequency", original_unit="Hz")),
        ("5000mAh", None, Q(value=5000.0, unit="mAh", dimension="charge", original_unit="mAh")),
        ("2,520 mAh", None, Q(value=2520.0, unit="mAh", dimension="charge", original_unit="mAh")),
        ("25W", None, Q(value=25.0, unit="W", dimension="power", original_unit="W")),
        ("45 W", None, Q(value=45.0, unit="W", dimension="power", original_unit="W")),
        ("1TB", None, Q(value=1000.0, unit="GB", dimension="data", original_unit="TB")),
        ("1 TB", None, Q(value=1000.0, unit="GB", dimension="data", original_unit="TB")),
        ("512 MB RAM", None, Q(value=0.5, unit="GB", dimension="data", original_unit="MB")),
        ("6.7 inch", None, Q(value=170.18, unit="mm", dimension="length", original_unit="inch")),
        ("6.7-inch", None, Q(value=170.18, unit="mm", dimension="length", original_unit="inch")),
        ("6.7 inch Dynamic AMOLED", None, Q(value=170.18, unit="mm", dimension="length", original_unit="inch")),
        ("5000 mAh Li-Ion", None, Q(value=5000.0, unit="mAh", dimension="charge", original_unit="mAh")),
        ('6.7" (170.3mm)', None, Q(value=170.18, unit="mm", dimension="length", original_unit="inch")),
        ("6.7″", None, Q(value=170.18, unit="mm", dimension="length", original_unit="inch")),
        ('35.6 cm (14")', None, Q(value=356.0, unit="mm", dimension="length", original_unit="cm")),
        ('13.2 cm (5.2")', None, Q(value=132.0, unit="mm", dimension="length", original_unit="cm")),
        ("1.2 kg", None, Q(value=1200.0, unit="g", dimension="mass", original_unit="kg")),
        ("2.4 GHz", None, Q(value=2.4e9, unit="Hz", dimension="frequency", original_unit="GHz")),
        ("2.5 kW", None, Q(value=2500.0, unit="W", dimension="power", original_unit="kW")),
        ("5 Ah", None, Q(value=5000.0, unit="mAh", dimension="charge", original_unit="Ah")),
        ("2600 cd/m²", None, Q(value=2600.0, unit="nit", dimension="luminance", original_unit="nit")),
        ("45%", None, Q(value=45.0, unit="%", dimension="percent", original_unit="%")),
        ("120º", None, Q(value=120.0, unit="°", dimension="angle", original_unit="°")),
        ("64.1 °C", None, Q(value=64.1, unit="°C", dimension="temperature", original_unit="°C")),
        ("-20 °C", None, Q(value=-20.0, unit="°C", dimension="temperature", original_unit="°C")),
        ("68 °F", None, Q(value=20.0, unit="°C", dimension="temperature", original_unit="°F")),
        ("8 ms", None, Q(value=0.008, unit="s", dimension="time", original_unit="ms")),
        ("64-bit", None, Q(value=64.0, unit="bit", dimension="bits", original_unit="bit")),
        ("100x", None, Q(value=100.0, unit="x", dimension="multiplier", original_unit="x")),
        ("21 GB/s", None, Q(value=21000.0, unit="MB/s", dimension="byte_rate", original_unit="GB/s")),
        ("1000 Mbit/s", None, Q(value=1000.0, unit="Mbps", dimension="data_rate", original_unit="Mbps")),
        ("32 fl oz", None, Q(value=0.946352946, unit="l", dimension="volume", original_unit="fl oz")),
        # qualifiers
        (
            "Up to 29 hours",
            None,
            Q(value=104400.0, unit="s", dimension="time", high=104400.0, qualifier="up_to", original_unit="h"),
        ),
        (
            "upto 1 TB",
            None,
            Q(value=1000.0, unit="GB", dimension="data", high=1000.0, qualifier="up_to", original_unit="TB"),
        ),
        (
            "Max. 195g",
            None,
            Q(value=195.0, unit="g", dimension="mass", high=195.0, qualifier="up_to", original_unit="g"),
        ),
        ("< 5 W", None, Q(value=5.0, unit="W", dimension="power", high=5.0, qualifier="up_to", original_unit="W")),
        (
            "at least 8 GB",
            None,
            Q(value=8.0, unit="GB", dimension="data", low=8.0, qualifier="at_least", original_unit="GB"),
        ),
        (
            "Min. 2 h",
            None,
            Q(value=7200.0, unit="s", dimension="time", low=7200.0, qualifier="at_least", original_unit="h"),
        ),
        (
            "18+ months",
            None,
            Q(
                value=47335428.0,
                unit="s",
                dimension="time",
                low=47335428.0,
                qualifier="at_least",
                original_unit="month",
            ),
        ),
        ("3 and up", None, Q(value=3.0, low=3.0, qualifier="at_least")),
        ("Up to 8", None, Q(value=8.0, high=8.0, qualifier="up_to")),
        ("approx. 8", None, Q(value=8.0, qualifier="approx")),
        (
            "2.5 GHz max",
            None,
            Q(value=2.5e9, unit="Hz", dimension="frequency", high=2.5e9, qualifier="up_to", original_unit="GHz"),
        ),
        ("Approx. 195g", None, Q(value=195.0, unit="g", dimension="mass", qualifier="approx", original_unit="g")),
        ("~ 190 g", None, Q(value=190.0, unit="g", dimension="mass", qualifier="approx", original_unit="g")),
        ("~190g", None, Q(value=190.0, unit="g", dimension="mass", qualifier="approx", original_unit="g")),
        # ranges
        (
            "2.0 - 3.5 GHz",
            None,
            Q(unit="Hz", dimension="frequency", low=2e9, high=3.5e9, qualifier="range", original_unit="GHz"),
        ),
        (
            "1.8~2.4GHz",
            None,
            Q(unit="Hz", dimension="frequency", low=1.8e9, high=2.4e9, qualifier="range", original_unit="GHz"),
        ),
        (
            "500 MHz - 1.2 GHz",
            None,
            Q(unit="Hz", dimension="frequency", low=5e8, high=1.2e9, qualifier="range", original_unit="GHz"),
        ),
        (
            "100-240 V",
            None,
            Q(unit="V", dimension="voltage", low=100.0, high=240.0, qualifier="range", original_unit="V"),
        ),
        (
            "-20 - 60 °C",
            None,
            Q(unit="°C", dimension="temperature", low=-20.0, high=60.0, qualifier="range", original_unit="°C"),
        ),
        ("-15 - 5°", None, Q(unit="°", dimension="angle", low=-15.0, high=5.0, qualifier="range", original_unit="°")),
        (
            "24 months to 60 months",
            None,
            Q(unit="s", dimension="time", low=63113904.0, high=157784760.0, qualifier="range", original_unit="month"),
        ),
        ("2-12", None, Q(low=2.0, high=12.0, qualifier="range")),
        (
            "5 - 35",
            "Operating temperature (°C)",
            Q(unit="°C", dimension="temperature", low=5.0, high=35.0, qualifier="range", original_unit="°C"),
        ),
        # dimensions
        ("158.4 x 75.8 x 8.2 mm", None, Q(unit="mm", dimension="length", dims=[158.4, 75.8, 8.2], original_unit="mm")),
        ("15 x 7 cm", None, Q(unit="mm", dimension="length", dims=[150.0, 70.0], original_unit="cm")),
        ('20" x 20"', None, Q(unit="mm", dimension="length", dims=[508.0, 508.0], original_unit="inch")),
        (
            "3088 x 1440 (Quad HD+)",
            "Resolution",
            Q(unit="px", dimension="pixels", dims=[3088.0, 1440.0], original_unit="px"),
        ),
        ("3088 x 1440 (Quad HD+)", None, Q(dims=[3088.0, 1440.0])),
        ("2400 x 1080", "Resolution", Q(unit="px", dimension="pixels", dims=[2400.0, 1080.0], original_unit="px")),
        (
            "1,920 x 1,080",
            "Display resolution",
            Q(unit="px", dimension="pixels", dims=[1920.0, 1080.0], original_unit="px"),
        ),
        ("720 x 1612 px Display", None, Q(unit="px", dimension="pixels", dims=[720.0, 1612.0], original_unit="px")),
        (
            "1280x720@30fps",
            "Resolution at capture speed",
            Q(unit="px", dimension="pixels", dims=[1280.0, 720.0], original_unit="px"),
        ),
        (
            "158.4 x 75.8 x 8.2",
            "Dimensions (WxHxD)",
            Q(unit="mm", dimension="length", dims=[158.4, 75.8, 8.2], original_unit="mm"),
        ),
        (
            "15 x 7 x 1",
            "Package dimensions (cm)",
            Q(unit="mm", dimension="length", dims=[150.0, 70.0, 10.0], original_unit="cm"),
        ),
        ("2400 x 600 dpi", None, Q(unit="dpi", dimension="dot_density", dims=[2400.0, 600.0], original_unit="dpi")),
        # bare numbers and entry hints
        ("8", None, Q(value=8.0)),
        ("6.67", None, Q(value=6.67)),
        ("-3", None, Q(value=-3.0)),
        ("5000", "Battery Capacity (mAh)", Q(value=5000.0, unit="mAh", dimension="charge", original_unit="mAh")),
        ("195", "Weight (g)", Q(value=195.0, unit="g", dimension="mass", original_unit="g")),
        ("1.2", "Weight in kg", Q(value=1200.0, unit="g", dimension="mass", original_unit="kg")),
        ("799", "Price", Q(value=799.0)),
        ("8999", "Price (INR)", Q(value=8999.0, unit="INR", dimension="currency", original_unit="INR")),
        ("6.1", "Display diagonal (metric)", Q(value=6.1)),
        ("10.5", "Depth (min)", Q(value=10.5)),  # minimum, not minutes
        ("2", "Port(s)", Q(value=2.0)),
        ("65", "Charging power (W)", Q(value=65.0, unit="W", dimension="power", original_unit="W")),
        # label: number unit
        ("Battery: 5000 mAh", None, Q(value=5000.0, unit="mAh", dimension="charge", original_unit="mAh")),
        # prices as quantities
        ("799.00 GBP", "Price", Q(value=799.0, unit="GBP", dimension="currency", original_unit="GBP")),
        ("₹1,72,999", None, Q(value=172999.0, unit="INR", dimension="currency", original_unit="INR")),
        (
            "Up to ₹8,999",
            None,
            Q(value=8999.0, unit="INR", dimension="currency", high=8999.0, qualifier="up_to", original_unit="INR"),
        ),
    ],
)
def test_parse_quantity(text, entry, want):
    assert_matches(fields(parse_quantity(text, entry=entry)), want, text)


@pytest.mark.parametrize(
    "text",
    [
        "Dynamic AMOLED 2X",
        "Yes",
        "No",
        "",
        "   ",
        "Snapdragon 8 Gen 3",
        "8 Gen 3",
        "Android 14",
        "Wi-Fi 6E",
        "Bluetooth 5.3",
        "Bluetooth: 5.3",
        "IP68",
        "5G",
        "4G",
        "3G",
        "2G",
        "4K",
        "8K",
        "3D",
        "1080p",
        "802.11ax",
        "7840U",
        "2.0+EDR",
        "8 GB + 128 GB",
        "12MP + 50MP",
        "2.4 GHz / 5 GHz",
        "2x 3.5 GHz",
        "2 x 8 GB",
        "2x DIMM",
        "16:9",
        "0x116",
        "2-in-1",
        "5 in 1",
        "16.78 million colours",
        "20 Series",
        "2 Pieces",
        "128,256 GB",
        "1,5 kg",
        "900,1800",
        "₹8,999 - ₹9,999",
        "220-240V - 50/60Hz",
        "1.2.1",
        "2023-01-02",
        "1 2 3",
    ],
)
def test_not_a_quantity(text):
    assert parse_quantity(text) is None


def test_quantity_is_frozen_and_hashable():
    q = parse_quantity("5000 mAh")
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.value = 1.0  # type: ignore[misc]
    assert hash(q) == hash(parse_quantity("5000mAh"))


def test_long_pathological_input_is_fast():
    nasty = ["1," * 5000 + "1 GB", "1" * 5000 + "x", "x 1" * 3000, "(" * 4000 + "1", "9" * 300 + ".5 GHz"]
    start = time.perf_counter()
    for text in nasty:
        parse_quantity(text)
        split_values(text)
    assert time.perf_counter() - start < 2.0


# --------------------------------------------------------------------------- split_values


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("2,520 mAh", ["2,520 mAh"]),
        ("1,920 x 1,080", ["1,920 x 1,080"]),
        ("1,000,000 hours", ["1,000,000 hours"]),
        ("128,256 GB", ["128 GB", "256 GB"]),
        ("128GB, 256GB", ["128GB", "256GB"]),
        ("2.4 GHz, 1.8 GHz", ["2.4 GHz", "1.8 GHz"]),
        ("800,850,900,1800 MHz", ["800 MHz", "850 MHz", "900 MHz", "1800 MHz"]),
        ("100,000 km", ["100,000 km"]),
        ("50 x 50,75 x 75,100 x 100", ["50 x 50", "75 x 75", "100 x 100"]),
        ("₹1,72,999", ["₹1,72,999"]),
        ("₹1,299, ₹1,499", ["₹1,299", "₹1,499"]),
        ("£129,999", ["£129,999"]),
        ("1,5 kg", ["1,5 kg"]),
        ("Hours 128,256", ["Hours 128", "256"]),  # "rs" inside a word is no rupee sign
        ("1,5,10 m", ["1 m", "5 m", "10 m"]),
        ("Memory Card (Hybrid), upto 1 TB", ["Memory Card (Hybrid)", "upto 1 TB"]),
        ("Wi-Fi 4 (802.11n, 2.4 GHz), Wi-Fi 5", ["Wi-Fi 4 (802.11n, 2.4 GHz)", "Wi-Fi 5"]),
        ("HP Sure Recover; HP Client Security", ["HP Sure Recover", "HP Client Security"]),
        ("a, , b,", ["a", "b"]),
        ("Android 14", ["Android 14"]),
        ("", []),
        (
            "The phone has a 6.7-inch display, which is great for watching videos.",
            ["The phone has a 6.7-inch display, which is great for watching videos."],
        ),
        (
            "Enjoy a bright screen. It lasts all day, even with heavy use, thanks to the big battery",
            ["Enjoy a bright screen. It lasts all day, even with heavy use, thanks to the big battery"],
        ),
        (
            "6.56 inches, 720 x 1600 px, 90 Hz Display with Water Drop Notch",
            ["6.56 inches", "720 x 1600 px", "90 Hz Display with Water Drop Notch"],
        ),
    ],
)
def test_split_values(text, parts):
    assert split_values(text) == parts


def test_split_then_parse_a_band_list():
    parts = split_values("700,800,850,900,1500,1800 MHz")
    values = [parse_quantity(p).value for p in parts]
    assert values == [7e8, 8e8, 8.5e8, 9e8, 1.5e9, 1.8e9]


# --------------------------------------------------------------------------- parse_price


@pytest.mark.parametrize(
    ("text", "amount", "code"),
    [
        ("799.00 GBP", "799.00", "GBP"),
        ("£799", "799", "GBP"),
        ("GBP 1,299.99", "1299.99", "GBP"),
        ("₹8,999", "8999", "INR"),
        ("₹1,72,999", "172999", "INR"),
        ("Rs. 12,499", "12499", "INR"),
        ("Rs 12,499/-", "12499", "INR"),
        ("INR 8999", "8999", "INR"),
        ("8999 INR", "8999", "INR"),
        ("$1,099", "1099", "USD"),
        ("US$ 5", "5", "USD"),
        ("€949,00", "949.00", "EUR"),
        ("1.299,99 EUR", "1299.99", "EUR"),
        ("€1.299", "1.299", "EUR"),  # a single dot is a decimal point
        ("£129,999", "129999", "GBP"),
        ("799.00 GBP (inc. VAT)", "799.00", "GBP"),
    ],
)
def test_parse_price(text, amount, code):
    got = parse_price(text)
    assert got == (Decimal(amount), code)
    assert isinstance(got[0], Decimal)


@pytest.mark.parametrize(
    "text", ["799", "Free", "", "₹8,999 - ₹9,999", "£5 + £3", "GBP", "-£5", "1,72,999", "£1,2,3", "₹95,,4"]
)
def test_parse_price_refuses(text):
    assert parse_price(text) is None


# --------------------------------------------------------------------------- format_number


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (6.7 * 25.4, "170.18"),
        (0.1 + 0.2, "0.3"),
        (-0.0, "0"),
        (0.0, "0"),
        (Decimal("-0.00"), "0"),
        (Decimal("799.00"), "799"),
        (Decimal("1299.99"), "1299.99"),
        (2.2e-05, "0.000022"),
        (1e-9, "0.000000001"),
        (1e20, "100000000000000000000"),
        (3.5e9, "3500000000"),
        (104400.0, "104400"),
        (-15.5, "-15.5"),
        (123456789012345678, "123456789012345678"),
        (True, "1"),
    ],
)
def test_format_number(x, text):
    assert format_number(x) == text


@pytest.mark.parametrize("x", [math.nan, math.inf, -math.inf, Decimal("NaN"), Decimal("Infinity")])
def test_format_number_refuses_non_finite(x):
    with pytest.raises(ValueError):
        format_number(x)


def test_format_number_never_uses_exponents():
    for x in (1e-12, 1.5e-7, 9.99e25, 12345.678e10):
        text = format_number(x)
        assert "e" not in text.lower() and Decimal(text) == Decimal(f"{x:.15g}")


# --------------------------------------------------------------------------- real values


def test_fixture_is_real_and_varied():
    assert len(RECORDS) >= 300
    assert {r["src"] for r in RECORDS} == {"icecat", "smartprix", "amazon"}
    parsed = [p for r in RECORDS for p in r["parts"] if p["q"] is not None]
    refused = [p for r in RECORDS for p in r["parts"] if p["q"] is None]
    assert len(parsed) >= 200 and len(refused) >= 100
    assert {p["q"].get("qualifier") for p in parsed} >= {None, "range", "up_to", "at_least"}
    assert any(p["q"].get("dims") for p in parsed)


@needs_data
def test_fixture_strings_resolve():
    keys = {(r["src"], r["entry"], r["value"]) for r in RECORDS}
    assert len(keys) == len(LABELS), "each (source, entry, value) once"


@needs_data
@pytest.mark.parametrize(
    "record",
    RECORDS,
    ids=[f"{r['src']}:{r['value'][:40]}" if "value" in r else f"{r['src']}:{i}" for i, r in enumerate(RECORDS)],
)
def test_real_value(record):
    parts = split_values(record["value"])
    assert parts == [p["text"] for p in record["parts"]]
    for part in record["parts"]:
        got = fields(parse_quantity(part["text"], entry=record["entry"]))
        assert_matches(got, part["q"], f"{record['value']!r} / {part['text']!r}")
    if "price" in record:
        want = record["price"]
        got = parse_price(record["value"])
        assert (None if got is None else [str(got[0]), got[1]]) == want


def test_doctests():
    result = doctest.testmod(quantities, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


def test_memory_counted_in_binary_steps_is_read_in_binary():
    # graphics cards and memory state "16384 MB" for 16 GB and "1536 MB" for 1.5 GB: a count of MB in
    # whole steps of 128 is binary (units.yaml), so "with 2 GB of memory" finds the 2048 MB cards
    assert parse_quantity("16384 MB").value == parse_quantity("16 GB").value == 16.0
    assert parse_quantity("2048 MB").value == 2.0 and parse_quantity("1536 MB").value == 1.5
    # counts that are no such multiple stay decimal, as shops and drive labels write them
    assert parse_quantity("500 MB").value == 0.5 and parse_quantity("1000 MB").value == 1.0
    assert parse_quantity("1 TB").value == parse_quantity("1000 GB").value


def test_a_fraction_before_a_unit_is_its_value():
    # shutter speeds and optical formats are fractions ("1/4000 sec", '1/2.3"'): a proper fraction
    # right before a unit is one quantity, so "faster than 1/1000 s" can compare them
    assert parse_quantity("1/4000 sec").value == 0.00025
    assert parse_quantity("1/2 sec").value == 0.5
    assert parse_quantity('1/2"').value == 12.7  # mm
    assert [x.value for x in spot("Shutter: 30 sec, max 1/8000 s")] == [30.0, 0.000125]
    # a slash between two numbers without a unit, or an improper "fraction", is a list
    assert parse_quantity("2133/2400") is None and parse_quantity("2133/2400 MHz") is None
    assert parse_quantity("1/2") is None and parse_quantity("1/2 EUR") is None


@pytest.mark.parametrize("value", [1 / 180000, 1 / 32000, 2.5e-7, 123456.123456789])
def test_written_decimals_compare_in_the_store(value):
    """A decimal of more than 18 places is no number to Oxigraph: every filter on it failed, and a
    camera's 1/180000 s was out of "1/32,000 s or faster"."""
    from dualgraph.skg.quantities import format_number
    from dualgraph.stores.oxigraph import OxigraphStore

    lit = format_number(value)
    rows = OxigraphStore.in_memory().select(
        f'SELECT ?ok WHERE {{ BIND("{lit}"^^<http://www.w3.org/2001/XMLSchema#decimal> <= {value * 1.5:.6e} AS ?ok) }}'
    )["results"]["bindings"]
    assert rows and rows[0].get("ok", {}).get("value") == "true", lit
