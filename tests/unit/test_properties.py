"""Property tests: the parsers and namers that see raw catalog text, fed arbitrary and hostile text.

Each reader must either give a well-formed answer or its documented error, and must stay
fast on long adversarial input (a catalog value can be megabytes).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import math
import os
import re
import time
import unicodedata
from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pyoxigraph import NamedNode

from dualgraph.corpus.model import Variant
from dualgraph.skg import dates as D
from dualgraph.skg import quantities as Q
from dualgraph.skg.names import product_iri, slug
from dualgraph.skg.ontology import document_graph
from dualgraph.text_norm import strip_format

FAST = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces of spec values, so generated text reaches the numeric, unit, range and date
# branches far more often than uniformly random characters would.
_TOKENS = [
    "0",
    "1",
    "7",
    "12",
    "128",
    "1.5",
    "0.05",
    "1,000",
    "2,520",
    "1,72,999",
    "128,256",
    "1,5",
    "9" * 30,
    "GB",
    "TB",
    "mAh",
    "mm",
    "inch",
    '"',
    "°C",
    "°F",
    "W",
    "Hz",
    "GHz",
    "kg",
    "g",
    "MP",
    "%",
    "fps",
    "x",
    "£",
    "€",
    "$",
    "GBP",
    "EUR",
    "Rs.",
    "/-",
    " ",
    "  ",
    "-",
    "–",
    "~",
    "..",
    "to",
    "up to",
    "approx.",
    "+",
    "/",
    ",",
    ";",
    ":",
    "(",
    ")",
    "[",
    "]",
    "x ",
    " x ",
    "and",
    "or",
    "Q3",
    "H2",
    "2021",
    "1999",
    "2099",
    "2020-03-15",
    "15/03/2021",
    "03.04.2021",
    "March",
    "Sept.",
    "released",
    "announced",
    "Exp.",
    "0x1f",
    "\u00a0",
    "\u202f",
    "×",
    "−",
    "e",
    "E10",
    "1e308",
    "nan",
    "inf",
    "Infinity",
]
value_text = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(_TOKENS), max_size=14).map("".join),
    st.lists(st.sampled_from(_TOKENS), max_size=14).map(" ".join),
)
names = st.one_of(
    st.none(), st.sampled_from(["Battery Capacity (mAh)", "Weight", "Display", "Resolution"]), st.text(max_size=20)
)


def _finite(x: float | None) -> bool:
    return x is None or (isinstance(x, float) and math.isfinite(x))


# --------------------------------------------------------------------------------------------
# quantities


@FAST
@given(value_text, names, names)
def test_parse_quantity_gives_finite_numbers_or_none(text, entry, section):
    q = Q.parse_quantity(text, entry=entry, section=section)
    if q is None:
        return
    assert _finite(q.value) and _finite(q.low) and _finite(q.high)
    assert all(_finite(d) for d in q.dims)
    assert (q.unit is None) == (q.dimension is None)
    if q.low is not None and q.high is not None:
        assert q.low <= q.high


@FAST
@given(value_text)
def test_parse_price_is_a_finite_amount_with_a_currency_code(text):
    p = Q.parse_price(text)
    if p is None:
        return
    amount, code = p
    assert isinstance(amount, Decimal) and amount.is_finite()
    assert re.fullmatch(r"[A-Z]{3}", code)
    Q.format_number(amount)  # every price can be written as an xsd:decimal


@FAST
@given(value_text)
def test_split_values_loses_no_text(text):
    items = Q.split_values(text)
    assert all(isinstance(i, str) and i and i == i.strip() for i in items)

    def visible(t: str) -> Counter[str]:
        return Counter(c for c in t if not c.isspace() and c not in ",;")

    # only separators and spaces may go (a shared unit may be added to the items before it)
    assert not visible(text) - visible("".join(items))


@FAST
@given(st.one_of(st.floats(), st.decimals(allow_nan=True, allow_infinity=True), st.integers()))
def test_format_number_writes_a_decimal_or_refuses_non_finite(x):
    finite = Decimal(x).is_finite() if not isinstance(x, float) else math.isfinite(x)
    if not finite:
        with pytest.raises(ValueError):
            Q.format_number(x)
        return
    out = Q.format_number(x)
    assert re.fullmatch(r"-?\d+(\.\d+)?", out) and out != "-0"


@SOME
@given(st.text(max_size=12), st.sampled_from(["GB", "mm", "inch", "°C", "zork", "GBP"]))
def test_unit_helpers_never_raise_on_unknown_units(unit, to_unit):
    Q.normalise_unit(unit)
    Q.unit_symbol(unit)
    with contextlib.suppress(ValueError):  # unknown unit or another dimension: the documented refusal
        assert math.isfinite(Q.convert(1.5, unit, to_unit))


# --------------------------------------------------------------------------------------------
# dates


@FAST
@given(value_text, names, names, st.sampled_from([None, True, False]))
def test_spot_dates_gives_real_days_inside_the_text(text, entry, section, day_first):
    facts = D.spot_dates(text, entry=entry, section=section, day_first=day_first)
    for f in facts:
        assert isinstance(f.start, datetime.date) and f.start <= f.end
        assert 1900 <= f.start.year <= f.end.year <= 2099
        assert f.precision in D.PRECISIONS
        assert f.status is None or f.status in D.STATUSES
        assert 0 <= f.start_char < f.end_char <= len(text)
        assert D.date_terms(f)
    spans = [(f.start_char, f.end_char) for f in facts]
    assert spans == sorted(spans) and all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


@FAST
@given(value_text, names)
def test_date_status_is_a_known_status(text, entry):
    assert D.date_status(text, entry=entry) in (None, *D.STATUSES)


@SOME
@given(st.lists(value_text, max_size=8))
def test_infer_day_first_is_a_vote(values):
    assert D.infer_day_first(values) in (None, True, False)


# --------------------------------------------------------------------------------------------
# long adversarial values: each call must finish in time proportional to its length


def _long(unit: str, n: int = 20_000) -> str:
    return (unit * (n // len(unit) + 1))[:n]


_QUANTITY_BOMBS = ["1.", "1,", "1 ", "1-", "1x", "1/", "12.5 GB, ", "£1.1", "GBP 1", "up to ", "(1 ", "1e9", "a1"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("unit", _QUANTITY_BOMBS)
def test_quantity_readers_stay_fast_on_long_values(unit):
    text = _long(unit)
    for fn in (Q.parse_quantity, Q.parse_price, Q.split_values):
        started = time.perf_counter()
        fn(text)
        assert time.perf_counter() - started < 2.0, f"{fn.__name__} on 20k x {unit!r}"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("unit", ["1.", "2020/", "1-", "Q3 ", "March ", "Released a: ", "2020-"])
def test_date_readers_stay_fast_on_long_values(unit):
    text = _long(unit)
    for fn in (D.spot_dates, D.date_status, lambda t: D.infer_day_first([t])):
        started = time.perf_counter()
        fn(text)
        assert time.perf_counter() - started < 2.0, f"date reader on 20k x {unit!r}"


# dates._Text.dated_by_words rescanned the whole clause before every year: 20k chars of '2020 ab ' took ~20 s
@pytest.mark.timeout(3)
@pytest.mark.parametrize("unit", ["2020 ab cd ef ", "2020 "])
def test_many_bare_years_stay_fast(unit):
    text = _long(unit)
    started = time.perf_counter()
    D.spot_dates(text)
    D.date_status(text)
    assert time.perf_counter() - started < 2.0


# --------------------------------------------------------------------------------------------
# IRIs

# What an IRI reference may not hold unescaped (RFC 3987): controls, space and these.
_IRI_FORBIDDEN = re.compile(r'[\x00-\x20\x7f-\x9f<>"{}|^`\\]')
# Directory names as os.listdir gives them: any bytes but "/" and NUL, decoded with surrogateescape.
fs_names = st.binary(min_size=1, max_size=24).map(lambda b: os.fsdecode(b.replace(b"/", b"_").replace(b"\0", b"_")))


def _valid_iri(iri: str) -> bool:
    if _IRI_FORBIDDEN.search(iri) or any(unicodedata.category(c) in ("Cs", "Zs", "Zl", "Zp") for c in iri):
        return False
    NamedNode(iri)  # pyoxigraph parses IRIs strictly and raises on a bad one
    return True


@FAST
@given(st.text(max_size=40), st.one_of(st.none(), st.text(max_size=12)))
def test_product_iri_is_valid_and_stable(name, code):
    iri = product_iri(name, code)
    assert _valid_iri(iri)
    slug.cache_clear()
    assert product_iri(name, code) == iri


@FAST
@given(st.text(max_size=30), st.text(max_size=30))
def test_products_with_different_names_get_different_iris(a, b):
    # names that differ only by invisible format characters (a soft hyphen, a zero-width space) are one name
    assume(
        unicodedata.normalize("NFKC", strip_format(a)).strip() != unicodedata.normalize("NFKC", strip_format(b)).strip()
    )
    assert product_iri(a) != product_iri(b)


# names.short_hash encoded with strict UTF-8: product_iri('\ud800') raised UnicodeEncodeError
@SOME
@given(st.text(max_size=6), st.sampled_from(["\ud800", "\udc80", "\udfff"]), st.text(max_size=6))
def test_product_iri_survives_lone_surrogates(before, surrogate, after):
    assert _valid_iri(product_iri(before + surrogate + after))


@FAST
@given(st.one_of(st.text(min_size=1, max_size=40), fs_names))
def test_document_graph_is_a_valid_iri(doc_id):
    g = document_graph(doc_id)
    assert _valid_iri(g)
    assert document_graph(doc_id) == g


@FAST
@given(st.one_of(st.text(min_size=1, max_size=20), fs_names), st.one_of(st.text(min_size=1, max_size=20), fs_names))
def test_document_graphs_never_merge_two_directories(a, b):
    assume(a != b)
    assert document_graph(a) != document_graph(b)


@pytest.mark.parametrize(
    "a, b", [("file-Case", "file-case"), ("file-caf\u00e9", "file-cafe\u0301"), ("file-a b", "file-a_b")]
)
def test_document_graph_twins(a, b):
    assert document_graph(a) != document_graph(b)


# --------------------------------------------------------------------------------------------
# variant records

# Lone surrogates included: JSON text may carry "\ud800" and json.loads returns it as is.
# (st.text drops surrogates whatever its alphabet says, so strings are joined from characters.)
_ALL_CHARS = st.one_of(st.characters(), st.sampled_from(["\ud800", "\udbff", "\udc80", "\udfff"]))


def _any_text(max_size: int) -> st.SearchStrategy[str]:
    return st.lists(_ALL_CHARS, max_size=max_size).map("".join)


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _any_text(20))
json_like = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
any_text = _any_text(24)
records = st.one_of(
    json_like,
    st.fixed_dictionaries(
        {"name": st.one_of(any_text, json_like)},
        optional={
            "prod_range": st.one_of(any_text, json_like),
            "categories": st.one_of(st.lists(any_text, max_size=3), json_like),
            "specs": st.one_of(st.dictionaries(any_text, st.one_of(any_text, json_scalars), max_size=5), json_like),
        },
    ),
)


@FAST
@given(records)
def test_variant_from_record_returns_a_storable_variant_or_raises_value_error(rec):
    notes: list[str] = []
    try:
        v = Variant.from_record(rec, notes)
    except ValueError:
        return
    assert isinstance(v, Variant) and v.name.strip()
    # what the reader keeps must be writable as UTF-8 (state files, N-Quads, Arrow columns)
    json.dumps(v.to_record(), ensure_ascii=False).encode("utf-8")
    json.dumps(notes, ensure_ascii=False).encode("utf-8")
    assert all(k.strip() for k, _ in v.specs)


@FAST
@given(records)
def test_variant_from_record_without_a_problem_list_raises_value_error_only(rec):
    with contextlib.suppress(ValueError):
        Variant.from_record(rec)
