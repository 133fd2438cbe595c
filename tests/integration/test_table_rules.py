"""Rules computed from the spec tables give the very facts their SPARQL gives.

Each catalog is indexed twice (embedded Oxigraph, inline, no TKG): with the packaged rules,
whose tag rules take their facts from the spec tables, and with a rules file that differs only
in a disabled rule, so every rule runs its SPARQL. The derived graphs must be equal. The catalogs cover tag lists whose values hold quantities ("Bluetooth
5.3"), values spelled two ways that share a value node ("5G" / "5g"), a product sold in two
markets (its specs in two documents) and a product listing a tag that another holds only as a
quantity.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.lexicon.holders import EntryHolders
from dualgraph.lexicon.value_names import ValueNames
from dualgraph.lexicon.vocabulary import catalog_values
from dualgraph.pipeline.index import _LiveSpecs, build_index
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.pipeline.state import IndexState
from dualgraph.query.ground.features import _words_regex
from dualgraph.skg import ontology as O
from dualgraph.skg.rules import DEFAULT_RULES, Rule, def_regex, load_rules
from dualgraph.skg.spec_table import holder_rows, value_name_rows
from dualgraph.skg.table_rules import computed, said_facts, tag_facts, tag_values, twins
from dualgraph.stores.oxigraph import OxigraphStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import gen_catalog

CONFIG = IndexConfig(runner="inline", progress=False, patterns=False, tkg={"enabled": False}, batch_size=16)
TAG_VALUE = next(r for r in load_rules() if r.id == "tag-value")
PATTERNS = {name: def_regex(name) for name in ("affirmative", "negative")}
FROM_TABLES = ["no-feature", "tag-absent", "tag-feature", "tag-value", "yes-feature"]


def phone(name: str, features: str, extra: tuple[tuple[str, str], ...] = ()) -> Variant:
    return Variant(name, name.rsplit(" ", 1)[0], ("phones",), (("Connectivity:Features", features), *extra))


def _hand_made(root: Path) -> list[tuple[Path, str | None]]:
    uk = [
        ("a", "A", [phone("Alpha 1", "NFC, 5G, Bluetooth 5.3, Wi-Fi 6, Dual SIM, VoLTE")]),
        ("b", "B", [phone("Beta 1", "NFC, 5g, Bluetooth 5.3, IR blaster, Dual SIM", (("Audio:Radio", "no"),))]),
        (
            "c",
            "C",
            [
                phone(
                    "Gamma 1",
                    "IR blaster, eSIM, 3.5 mm jack, VoLTE",
                    (("Audio:Jack", "3.5 mm"), ("Audio:Radio", "Yes (FM)")),
                )
            ],
        ),
    ]
    de = [
        ("a", "A", [phone("Alpha 1", "NFC, 5G, Bluetooth 5.3, Wi-Fi 6, Dual SIM, VoLTE")]),
        ("d", "D", [phone("Delta 1", "eSIM, Wi-Fi 6, 3.5 mm, Dual SIM")]),
    ]
    write_dataset(root / "uk", uk)
    write_dataset(root / "de", de)
    return [(root / "uk", "uk"), (root / "de", "de")]


def _generated(root: Path, seed: int) -> list[tuple[Path, str | None]]:
    gen_catalog.generate(root / "ds", 120, seed=seed)
    return [(root / "ds", None)]


CATALOGS = {
    "hand-made, two markets": _hand_made,
    "generated, seed 5": lambda root: _generated(root, 5),
    "generated, seed 11": lambda root: _generated(root, 11),
}


def _index(tmp_path: Path, make, config: IndexConfig = CONFIG, name: str = "ix") -> tuple[Path, list[dict]]:
    manifests = [build_index(ds, tmp_path / name, config, market=market) for ds, market in make(tmp_path)]
    return tmp_path / name, manifests


def _tables(index: Path):
    state = IndexState.open(IndexLayout(index).state)
    return _LiveSpecs(state.documents, IndexLayout(index).shards).tables


def _derived(index: Path) -> set[tuple[str, str, str]]:
    with OxigraphStore(IndexLayout(index).store, read_only=True) as store:
        return set(store.construct(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{O.DERIVED_GRAPH}> {{ ?s ?p ?o }} }}"))


def _rules_without_twins(tmp_path: Path) -> Path:
    # the packaged rules but for the body of a disabled rule: the same facts, and no twin applies
    text = DEFAULT_RULES.read_text(encoding="utf-8")
    marker = "    enabled: false\n"
    assert marker in text
    path = tmp_path / "rules.yaml"
    path.write_text(
        text.replace("HAVING (COUNT(DISTINCT ?v) = 1)", "HAVING (COUNT(DISTINCT ?v) = 1) # edited"), "utf-8"
    )
    assert twins(load_rules(path), load_rules()) == ()
    return path


@pytest.mark.parametrize("name", list(CATALOGS))
def test_the_twins_write_the_derived_graph_sparql_writes(tmp_path: Path, name: str) -> None:
    index, manifests = _index(tmp_path / "a", CATALOGS[name])
    sparql_config = CONFIG.model_copy(update={"rules_path": _rules_without_twins(tmp_path)})
    plain, plain_manifests = _index(tmp_path / "b", CATALOGS[name], sparql_config)
    assert all(m["rules"]["from_tables"] == FROM_TABLES for m in manifests)
    assert all("from_tables" not in m["rules"] for m in plain_manifests)
    with_twins, without = _derived(index), _derived(plain)
    assert with_twins == without, (sorted(with_twins - without)[:5], sorted(without - with_twins)[:5])
    for predicate in (O.FROM_ENTRY, O.HAS_FEATURE, O.LACKS_FEATURE):
        # the tag rules had work to do: tags, products listing them, products listing others
        value_at = 0 if predicate == O.FROM_ENTRY else 2
        assert sum(1 for t in without if t[1] == f"<{predicate}>" and "#value-" in t[value_at]) >= 3, predicate
    # and so had the yes / no rules: a feature or its lack read from a value that says so
    said = {p for _, p, o in without if "#value-" not in o and p in (f"<{O.HAS_FEATURE}>", f"<{O.LACKS_FEATURE}>")}
    assert said == {f"<{O.HAS_FEATURE}>", f"<{O.LACKS_FEATURE}>"}


def test_the_twin_of_tag_value_is_its_sparql(tmp_path: Path) -> None:
    index, _ = _index(tmp_path, CATALOGS["generated, seed 5"])
    with OxigraphStore(IndexLayout(index).store, read_only=True) as store:
        sparql = set(store.construct(O.sparql_prologue() + TAG_VALUE.construct_query()))
    assert tag_values(_tables(index)) == sparql and len(sparql) >= 3


def test_a_value_held_only_as_a_quantity_is_no_tag(tmp_path: Path) -> None:
    index, _ = _index(tmp_path, _hand_made)
    tags = {v.rsplit(".", 1)[-1].rstrip(">") for v, _, _ in tag_values(_tables(index)) or ()}
    # these are on two products or more as text ("5G" and "5g", read as 5 grams, share a value
    # node); Bluetooth 5.3 and Wi-Fi 6 (versions) and Dual SIM (two SIMs) are on two products
    # or more but only ever with a quantity
    assert {"nfc", "ir_blaster", "esim", "5g", "volte"} <= tags
    assert not {"bluetooth_5_3", "wi_fi_6", "dual_sim"} & tags


def test_twins_only_for_the_packaged_rules(tmp_path: Path) -> None:
    packaged = load_rules()
    assert twins(packaged, load_rules()) == ("tag-value", "tag-feature", "tag-absent", "yes-feature", "no-feature")
    edited = [
        Rule(**{**r.model_dump(), "where": r.where + "\n# edited"}) if r.id == "tag-value" else r for r in packaged
    ]
    assert twins(edited, load_rules()) == ()
    extra = Rule(id="mine", description="", where="?p skg:hasSpec ?s", insert="?p skg:hasFeature ?s", focus="p")
    assert twins([*packaged, extra], load_rules()) == ()  # it writes what tag-absent tests for
    assert computed(packaged, None, load_rules(), PATTERNS) == {}


def test_tables_from_an_older_converter_give_no_facts(tmp_path: Path) -> None:
    index, _ = _index(tmp_path, _hand_made)
    tables = _tables(index)
    old = type(tables)(tables.values.drop_columns(["spec", "quantity"]), tables.quantities)
    assert tag_values(old) is None and tag_facts(old) is None
    assert said_facts(old, PATTERNS["affirmative"], PATTERNS["negative"]) is None
    assert computed(load_rules(), old, load_rules(), PATTERNS) == {}


HOLDERS_QUERY = (
    "SELECT DISTINCT ?e ?u ?p WHERE { ?s skg:inEntry ?e . ?p skg:hasSpec ?s . "
    "OPTIONAL { ?s skg:hasQuantity/skg:hasUnit ?u } }"
)


@pytest.mark.parametrize("name", list(CATALOGS))
def test_the_holders_and_value_name_tables_are_what_the_store_says(tmp_path: Path, name: str) -> None:
    index, _ = _index(tmp_path, CATALOGS[name])
    with OxigraphStore(IndexLayout(index).store, read_only=True) as store:
        rows = store.select(O.sparql_prologue() + HOLDERS_QUERY)["results"]["bindings"]
    want: dict[tuple[str, str | None], set[str]] = {}
    for b in rows:
        want.setdefault((b["e"]["value"], None), set()).add(b["p"]["value"])
        if "u" in b:
            want.setdefault((b["e"]["value"], b["u"]["value"]), set()).add(b["p"]["value"])
    table = EntryHolders(holder_rows(_tables(index)))
    got = {key: set(table.products(*key)) for key in want}
    assert got == want
    # nothing more than the store holds: every (entry, unit) of the table is one the store names
    assert {(e, u or None) for e, u, _ in (tuple(r.values()) for r in holder_rows(_tables(index)).to_pylist())} == set(
        want
    )
    assert any(u is not None for _, u in want) and len(want) >= 5
    _value_names_are_what_the_store_says(index)


VALUE_NAMES_QUERY = (
    "SELECT DISTINCT ?vn ?e ?en ?p WHERE { ?v a skgt:Value ; skg:hasName ?vn . "
    "?s skg:hasValue ?v ; skg:inEntry ?e . ?e skg:hasName ?en . ?p skg:hasSpec ?s }"
)


def _value_names_are_what_the_store_says(index: Path) -> None:
    """The value-name table (on the same index as the holders: one build for both) holds the
    store's rows, and answers the two questions an engine asks of it as the store's REGEX does."""
    rows = value_name_rows(_tables(index))
    table = ValueNames(rows)
    with OxigraphStore(IndexLayout(index).store, read_only=True) as store:
        found = store.select(O.sparql_prologue() + VALUE_NAMES_QUERY)["results"]["bindings"]
        want = {(b["vn"]["value"], b["e"]["value"], b["en"]["value"], b["p"]["value"]) for b in found}
        assert {tuple(r.values()) for r in rows.to_pylist()} == want and len(want) >= 20
        assert sorted(catalog_values(store, names=table)) == sorted(catalog_values(store))
        # words of the catalogue's own values, one of them matching nothing
        words = sorted({w for vn, *_ in want for w in vn.lower().split() if w.isalpha()})[:12] + ["nothingness"]
        for word in words:
            rx = _words_regex([word])
            res = store.select(
                O.sparql_prologue() + "SELECT ?e (COUNT(DISTINCT ?p) AS ?n) WHERE { ?v a skgt:Value ; "
                f'skg:hasName ?vn . FILTER(REGEX(LCASE(STR(?vn)), "{rx}")) ?s skg:hasValue ?v ; skg:inEntry ?e . '
                "?p skg:hasSpec ?s } GROUP BY ?e"
            )
            by_store = {b["e"]["value"]: int(b["n"]["value"]) for b in res["results"]["bindings"]}
            assert table.entries_holding(rx) == by_store, word
