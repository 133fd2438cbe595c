"""The one currency table (dualgraph.skg.currencies, CLDR through babel) and its three readers:
catalog price strings (corpus.prices), spec values (skg.quantities) and questions (query.parse_numbers)."""

from __future__ import annotations

import pytest

from dualgraph.corpus.prices import parse_price
from dualgraph.query.read.model import NumericConstraint
from dualgraph.query.read.parse import parse_question
from dualgraph.skg import currencies, quantities

# --------------------------------------------------------------------------- the table


def test_codes_are_current_iso_4217():
    codes = currencies.table().codes
    assert {"SAR", "USD", "GBP", "EUR", "INR", "JPY", "SEK", "AED", "CHF"} <= codes
    assert len(codes) > 140 and all(len(c) == 3 and c.isupper() for c in codes)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("SAR", "SAR"),
        ("Saudi riyal", "SAR"),
        ("Saudi riyals", "SAR"),
        ("euros", "EUR"),
        ("euro", "EUR"),
        ("Indian rupees", "INR"),
        ("US dollars", "USD"),
        ("British pounds", "GBP"),
        ("€", "EUR"),
        ("₹", "INR"),
        ("zł", "PLN"),
        ("US$", "USD"),
        ("A$", "AUD"),
        ("quid", "GBP"),
        ("bucks", "USD"),
        ("Rs.", "INR"),
    ],
)
def test_names_plurals_symbols_and_informal_words(text, code):
    assert currencies.lookup(text, hint=()) == code


@pytest.mark.parametrize("text", ["kr", "riyals", "riyal", "SR", "real", "mark", "won", "rand"])
def test_an_ambiguous_spelling_needs_a_hint(text):
    assert currencies.lookup(text, hint=()) is None
    assert len(currencies.table().candidates(text)) >= 1


@pytest.mark.parametrize(
    ("text", "hint", "code"),
    [
        ("riyals", ["SAR"], "SAR"),
        ("riyals", ["QAR"], "QAR"),
        ("SR", ["SAR"], "SAR"),
        ("kr", ["SEK"], "SEK"),
        ("kr", ["NOK"], "NOK"),
        ("$", ["CAD"], "CAD"),
        ("dollars", ["AUD"], "AUD"),
        ("sar", ["SAR"], "SAR"),  # the catalog's own code in any case
    ],
)
def test_the_catalogs_currency_decides(text, hint, code):
    assert currencies.lookup(text, hint=hint) == code


def test_defaults_keep_the_readings_before_the_table():
    # "$" is USD, "pounds" GBP, "rupees" INR when nothing says otherwise, and also in a catalog whose
    # currency is not one of their readings
    for text, code in [("$", "USD"), ("£", "GBP"), ("pounds", "GBP"), ("dollars", "USD"), ("rupees", "INR")]:
        assert currencies.lookup(text, hint=()) == code
        assert currencies.lookup(text, hint=["SAR"]) == code


def test_lower_case_codes_that_are_words_are_no_currency():
    for word in ("all", "top", "pen", "try", "cup", "mad"):
        assert currencies.lookup(word, hint=()) is None


def test_hinted_sets_the_hint_for_the_block():
    assert currencies.hint() == frozenset()
    with currencies.hinted(["sar"]):
        assert currencies.hint() == {"SAR"} and currencies.lookup("riyals") == "SAR"
    assert currencies.lookup("riyals") is None


def test_the_table_is_built_once():
    assert currencies.table() is currencies.table()


def test_every_informal_word_has_a_reason():
    from importlib import resources

    import yaml

    raw = yaml.safe_load(resources.files("dualgraph.skg").joinpath("currency_words.yaml").read_text("utf-8"))
    for block in ("words", "defaults"):
        for word, entry in raw[block].items():
            assert entry.get("reason"), (block, word)
    for word, entry in raw["defaults"].items():
        assert entry["code"] in currencies.table().codes, word


# --------------------------------------------------------------------------- catalog price strings


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("SAR 1,295", None, "1295 SAR"),
        ("1 295 SR", "SAR", "1295 SAR"),
        ("SR 1,385", "SAR", "1385 SAR"),
        ("895", "SAR", "895 SAR"),
        ("1 295 SR", None, None),  # SR is also the Seychelles rupee: only the catalog's currency decides
        ("₹1,29,999", None, "129999 INR"),
        ("£33.29/mo", None, None),  # a monthly instalment is not the price
        ("$1,299", "CAD", "1299 CAD"),
        ("$1,299", None, "1299 USD"),
        ("1 299 kr", "SEK", "1299 SEK"),
        ("1 299 kr", None, None),  # kr is Swedish, Norwegian or Danish
        ("CHF 499", None, "499 CHF"),
        ("499 zł", None, "499 PLN"),
    ],
)
def test_price_strings_in_new_currencies(text, default, expected):
    assert parse_price(text, default_currency=default) == expected


def test_spec_values_read_new_currencies():
    assert quantities.parse_price("895 SAR") == (quantities.Decimal("895"), "SAR")
    assert quantities.parse_price("SR 1,385") is None
    with currencies.hinted(["SAR"]):
        assert quantities.parse_price("SR 1,385") == (quantities.Decimal("1385"), "SAR")
    q = quantities.parse_quantity("2 pounds")  # a spec value's pounds stay mass
    assert q is not None and q.dimension == "mass"
    assert quantities.normalise_unit("SAR") == ("SAR", "currency", 1.0)


# --------------------------------------------------------------------------- question amounts


def _prices(question: str, hint: list[str]) -> list[tuple[str, float, str | None]]:
    with currencies.hinted(hint):
        parsed = parse_question(question)
    return [
        (c.op, c.value, c.unit)
        for c in parsed.constraints
        if isinstance(c, NumericConstraint) and c.attribute == "price"
    ]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which armchairs cost less than 500 riyals?", [("<", 500.0, "SAR")]),
        ("sofas under SR 2,000", [("<", 2000.0, "SAR")]),
        ("chairs for less than SAR 1500", [("<", 1500.0, "SAR")]),
        ("Which sofas cost more than SR 3,000?", [(">", 3000.0, "SAR")]),
        ("Which corner sofas cost under 3,000 riyals?", [("<", 3000.0, "SAR")]),
        ("a table for under 2k SAR", [("<", 2000.0, "SAR")]),
        ("shelves under 300 Saudi riyals", [("<", 300.0, "SAR")]),
    ],
)
def test_question_amounts_in_riyals(question, expected):
    assert _prices(question, ["SAR"]) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("phones under £500", [("<", 500.0, "GBP")]),
        ("laptops under $900", [("<", 900.0, "USD")]),
        ("phones under Rs. 20,000", [("<", 20000.0, "INR")]),
        ("a bag under 500 quid", [("<", 500.0, "GBP")]),
        ("phones under 300 euros", [("<", 300.0, "EUR")]),
        ("phones under 20000 rupees", [("<", 20000.0, "INR")]),
    ],
)
def test_question_amounts_without_a_hint_read_as_before(question, expected):
    assert _prices(question, []) == expected


def test_riyals_without_a_catalog_currency_are_a_price_in_no_currency():
    assert _prices("Which armchairs cost less than 500 riyals?", []) == [("<", 500.0, None)]


def test_pounds_of_mass_where_the_catalog_prices_in_another_currency():
    with currencies.hinted(["SAR"]):
        parsed = parse_question("a box weighing 2 pounds")
    (c,) = [c for c in parsed.constraints if isinstance(c, NumericConstraint)]
    assert c.dimension == "mass" and c.unit == "g"
    with currencies.hinted(["GBP"]):
        parsed = parse_question("a box under 2 pounds")
    assert [(c.unit, c.attribute) for c in parsed.constraints if isinstance(c, NumericConstraint)] == [("GBP", "price")]


# --------------------------------------------------------------------------- no placeholder leaves the compiler


def test_a_value_named_in_scope_reaches_the_store_filled(tmp_path, monkeypatch):
    """Issue 33: "SAR" named as a spec value went into the question's scope; its snippet's ``{v}`` was
    left unfilled in the scope query ("QueryRefused: malformed SPARQL query")."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_compiler import compile_catalog
    from test_compiler_raw_values import RECORDS, _variant

    import dualgraph.query.interpret.compiler as compiler_mod
    from dualgraph.query.read.model import Span, ValueConstraint

    compiler = compile_catalog([_variant(r) for r in RECORDS[:7]], tmp_path, currency="GBP")
    real, asked = compiler_mod.ground_names, []

    def with_value_scope(g, question, entities, constraints, trace):
        named, scope, constraints = real(g, question, entities, constraints, trace)
        chip = "Orion K12 Pro"
        gv = g.value(ValueConstraint(Span(0, len(chip), chip), chip, ""), trace)
        assert gv.resolved and "{v}" in gv.snippet  # the template, as scope receives it
        return named, [*scope, gv], constraints

    real_scope = compiler_mod.scope_entries

    def spy(store, blocks, filters):
        asked.extend(blocks)
        scope = real_scope(store, blocks, filters)
        scope.products()  # the query the store is asked
        return scope

    monkeypatch.setattr(compiler_mod, "ground_names", with_value_scope)
    monkeypatch.setattr(compiler_mod, "scope_entries", spy)
    ans = compiler.answer("Which phones have at least 8 GB of RAM?")
    assert asked and not any("{v}" in b or "{s}" in b for b in asked), asked
    assert ans.error is None and ans.sparql and "{v}" not in ans.sparql
    assert ans.answer_list == ["Vela 2"], ans.trace


def test_filled_refuses_a_placeholder():
    from dualgraph.lexicon.pattern import fill, filled

    assert filled(fill("?p skg:hasSpec {s} . {s} skg:hasValue {v} .", "?s1", "?v1")) == (
        "?p skg:hasSpec ?s1 . ?s1 skg:hasValue ?v1 ."
    )
    with pytest.raises(ValueError, match="placeholder"):
        filled("SELECT ?p WHERE { ?p skg:hasValue {v} . {v} skg:hasName {v}_n }")


def test_the_cached_table_is_the_built_one_and_a_bad_cache_file_is_built_again(tmp_path, monkeypatch):
    # table() keeps what it built in the user's cache folder; each process reads it back from there
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = currencies._cache_file()
    assert path is not None and path.is_relative_to(tmp_path)
    built = currencies._build()
    assert currencies._read_cached(path) is None  # none yet
    currencies._write_cached(path, built)
    assert currencies._read_cached(path) == built == currencies.table()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    path.write_text('{"codes": ["SAR"', encoding="utf-8")  # cut short
    assert currencies._read_cached(path) is None
