"""The catalog-aware tokeniser and the BM25 index (bm25s); no embedder involved."""

from __future__ import annotations

import json

import pytest

from dualgraph.stores.vector import IndexMismatchError
from dualgraph.tkg.lexical import META_FILE, LexicalIndex, tokenize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5G", ["5g"]),
        ("120Hz AMOLED", ["120hz", "amoled"]),
        ("IP68-rated", ["ip68-rated", "ip68", "rated", "ip68rated"]),
        ("Wi-Fi", ["wi-fi", "wi", "fi", "wifi"]),
        ("SM-S928B", ["sm-s928b", "sm", "s928b", "sms928b"]),
        ("Galaxy S24+", ["galaxy", "s24+"]),
        ("Bluetooth 5.3", ["bluetooth", "5.3"]),
        ("S Pen", ["s", "pen"]),
        ("Samsung's", ["samsung"]),
        ("IP68.", ["ip68"]),
    ],
)
def test_catalog_tokens_survive(text, expected):
    assert tokenize(text) == expected


def test_case_folded_and_stopwords_dropped():
    assert tokenize("Which PHONE has the IP68 rating?") == ["phone", "ip68", "rating"]


def test_spellings_meet():
    # Each pair must share the token a catalog question hinges on.
    for a, b, token in [
        ("120 Hz", "120Hz", "120hz"),
        ("WiFi 6", "Wi-Fi 6", "wifi"),
        ("5000 mAh", "5,000mAh", "5000mah"),
        ("6.7 inch", "6.7-inch", "6.7inch"),
    ]:
        assert token in tokenize(a) and token in tokenize(b), (a, b)


def test_unit_glue_only_after_numbers():
    assert tokenize("2 cameras") == ["2", "cameras"]
    assert tokenize("the k value") == ["k", "value"]


CORPUS = {
    "a": "Galaxy S24 Ultra with S Pen, 120Hz display and IP68",
    "b": "Galaxy A15 5G, 90Hz display",
    "c": "Galaxy Tab S9 with Wi-Fi 6E and S Pen included",
    "d": "Galaxy Buds with IPX7 water resistance",
}


@pytest.fixture
def index() -> LexicalIndex:
    return LexicalIndex.build(list(CORPUS), list(CORPUS.values()))


def test_exact_catalog_tokens_retrieve_the_right_text(index):
    hits = index.search(["phones with 5G", "IP68 water resistance", "wifi 6e tablet", "120 Hz screen"], k=2)
    assert hits[0][0][0] == "b"
    assert {h for h, _ in hits[1]} == {"a", "d"}
    assert hits[2][0][0] == "c"
    assert hits[3][0][0] == "a"


def test_only_matching_documents_are_returned_and_k_is_respected(index):
    assert index.search(["zzz unknown"], k=3) == [[]]
    assert index.search([""], k=3) == [[]]
    assert len(index.search(["galaxy"], k=3)[0]) == 3
    assert index.search(["galaxy"], k=0) == [[]]


def test_ties_ordered_by_id():
    idx = LexicalIndex.build(["z", "m", "a"], ["same text"] * 3)
    assert [i for i, _ in idx.search(["same"], k=2)[0]] == ["a", "m"]


def test_scores_vector_in_id_order(index):
    scores = index.scores("S Pen")
    assert len(scores) == 4 and scores[0] > 0 and scores[2] > 0 and scores[1] == 0


def test_empty_corpus():
    idx = LexicalIndex.build([], [])
    assert len(idx) == 0 and idx.search(["5G"], k=3) == [[]]


def test_bad_build_arguments():
    with pytest.raises(ValueError):
        LexicalIndex.build(["a", "a"], ["x", "y"])
    with pytest.raises(ValueError):
        LexicalIndex.build(["a"], ["x", "y"])


def test_save_load_round_trip(index, tmp_path):
    queries = ["S Pen", "5G", "water resistance IPX7"]
    index.save(tmp_path / "lex")
    loaded = LexicalIndex.load(tmp_path / "lex")
    assert loaded.ids() == index.ids()
    assert loaded.search(queries, k=3) == index.search(queries, k=3)


def test_load_detects_divergence(index, tmp_path):
    index.save(tmp_path)
    meta = json.loads((tmp_path / META_FILE).read_text())
    meta["ids"].append("ghost")
    (tmp_path / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(IndexMismatchError, match="4 documents and .* terms; lexical.json lists 5 ids"):
        LexicalIndex.load(tmp_path)
    meta["ids"].pop()
    meta["tokenizer"] = 0
    (tmp_path / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(IndexMismatchError, match="tokenizer"):
        LexicalIndex.load(tmp_path)
