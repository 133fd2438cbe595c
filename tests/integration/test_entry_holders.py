"""The index's table of which products hold each entry answers what the store answers.

Choosing between entries asks which products hold an entry (or a unit of it). The index writes
that table beside the pattern index (``lexicon/holders.py``); an engine answers from it where
it used to walk every spec of the store at start. Built on the answer tests' fixture catalog.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import catalog_index, shared_engine

from dualgraph.lexicon.holders import HOLDERS_FILE, EntryHolders
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.query.ground import entry_choice
from dualgraph.stores.oxigraph import OxigraphStore


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    return catalog_index(tmp_path_factory)


def test_the_index_writes_the_table_and_it_answers_what_the_store_answers(index: Path) -> None:
    layout = IndexLayout(index)
    assert (index / "patterns" / HOLDERS_FILE).is_file()
    table = EntryHolders.read(index / "patterns" / HOLDERS_FILE)
    with OxigraphStore(layout.store, read_only=True) as store:
        # a store with no table registered asks the store itself: the oracle
        asked = entry_choice.holders(store, [])
        every = list(entry_choice._HOLDERS[store])
        from_store = entry_choice.holders(store, every)
    assert asked == {} and len(every) >= 10 and any(u is not None for _, u in every)
    assert {key: table.products(*key) for key in every} == from_store
    assert table.products("https://example.org/no-such-entry", None) == frozenset()


def test_an_engine_answers_from_the_table(tmp_path_factory) -> None:
    engine = shared_engine(tmp_path_factory)
    stores = [s for s in list(entry_choice._TABLES.keys())]
    assert stores, "no engine registered the index's table"
    record = engine.answer("Which phones have a 7000 mAh battery?")
    assert record.error is None
    # the store-wide pass never ran for the engine's store
    assert not any(s in entry_choice._HOLDERS for s in stores)
