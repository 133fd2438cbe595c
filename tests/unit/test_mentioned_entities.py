"""The page entities a phrase names are found in names read once, as the store's CONTAINS over
lower-cased names finds them (dualgraph.query.ground.features.FeatureGrounder.mentioned_entities)."""

from __future__ import annotations

from types import SimpleNamespace

from dualgraph.query.ground import features
from dualgraph.query.ground.features import FeatureGrounder
from dualgraph.skg import ontology as O
from dualgraph.stores.oxigraph import OxigraphStore

NAMES = ["Stereo Speakers", "stereo speaker grille", "Wireless Charging", "ÉCRAN OLED", "Straße Mode", "speakers"]


def _store(tmp_path, names: list[str]) -> OxigraphStore:
    lines = []
    for i, name in enumerate(names):
        s = f"<http://example.org/e{i}>"
        lines.append(f'{s} <{O.SKG}hasName> "{name}" <{O.TEXT_GRAPH}> .')
        lines.append(f"{s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{O.TEXT_ENTITY}> <{O.TEXT_GRAPH}> .")
    path = tmp_path / "e.nq"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = OxigraphStore.in_memory()
    store.bulk_load(path)
    return store


def _in_store(store: OxigraphStore, phrase: str) -> list[str]:
    text = phrase.casefold().replace("\\", "\\\\").replace('"', '\\"')
    res = store.select(
        f"SELECT DISTINCT ?s WHERE {{ ?s a <{O.TEXT_ENTITY}> ; skg:hasName ?v . "
        f'FILTER(CONTAINS(LCASE(STR(?v)), "{text}")) }}'
    )
    return sorted(b["s"]["value"] for b in res["results"]["bindings"])


def test_the_same_entities_as_the_stores_contains(tmp_path):
    store = _store(tmp_path, NAMES)
    grounder = FeatureGrounder(SimpleNamespace(store=store), SimpleNamespace())
    for phrase in ("speaker", "Stereo Speakers", "écran", "oled", "charging", "nothing here", "e"):
        assert grounder.mentioned_entities(phrase) == _in_store(store, phrase), phrase
    assert grounder.mentioned_entities("speaker") == [
        "http://example.org/e0",
        "http://example.org/e1",
        "http://example.org/e5",
    ]


def test_more_names_than_the_cap_stop_at_one_past_it(tmp_path, monkeypatch):
    monkeypatch.setattr(features, "PROSE_ENTITY_CAP", 3)
    store = _store(tmp_path, [f"speaker {i}" for i in range(10)])
    grounder = FeatureGrounder(SimpleNamespace(store=store), SimpleNamespace())
    assert len(grounder.mentioned_entities("speaker")) == 4
