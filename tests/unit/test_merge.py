"""Merging mentions by canonical name, bounded descriptions, and the TKG files."""

from __future__ import annotations

import random

import pyarrow.parquet as pq
import pytest

from dualgraph.skg.names import short_hash
from dualgraph.tkg.chunking import count_tokens
from dualgraph.tkg.merge import (
    entity_id,
    entity_key,
    extract_description,
    fold_plural,
    load_tkg,
    merge_mentions,
    save_tkg,
)
from dualgraph.tkg.model import Chunk, Entity, Mention


@pytest.mark.parametrize(
    "a,b",
    [
        ("stereo speakers", "Stereo Speaker"),
        ("batteries", "battery"),
        ("Wi-Fi 6E", "WiFi 6E"),
        ("Wi-Fi 6E", "wi fi  6e"),
        ("S Pen", "S-Pen"),
        ("the S Pen", "S Pen"),
        ("Galaxy S25+", "Galaxy S25 Plus"),
        ("Dolby\u00a0Atmos", "dolby atmos"),
        ("ＩＰ６８", "IP68"),  # full-width forms fold under NFKC
        ("USB-C charging", "USB C Charging"),
        ("watches", "watch"),
        ("Photos", "photo"),
    ],
)
def test_same_key(a, b):
    assert entity_key(a) == entity_key(b)


@pytest.mark.parametrize(
    "a,b",
    [
        ("Galaxy S25+", "Galaxy S25"),
        ("Galaxy S25 Plus", "Galaxy S25"),
        ("glass", "glas"),
        ("Dolby Atmos", "Dolby Atmo"),
        ("lens", "len"),
        ("iOS", "iO"),
        ("5G", "5"),
        ("AT&T", "ATT"),
    ],
)
def test_different_key(a, b):
    assert entity_key(a) != entity_key(b)


@pytest.mark.parametrize(
    "word,singular",
    [
        ("speakers", "speaker"),
        ("batteries", "battery"),
        ("glass", "glass"),
        ("glasses", "glass"),
        ("plus", "plus"),
        ("boxes", "box"),
        ("series", "series"),
        ("graphics", "graphics"),
        ("movies", "movie"),
        ("caches", "cache"),
        ("atmos", "atmos"),
        ("s25", "s25"),
        ("gps", "gps"),
        ("status", "status"),
    ],
)
def test_fold_plural(word, singular):
    assert fold_plural(word) == singular


def test_empty_keys_are_skipped():
    assert entity_key("—") == "" and merge_mentions([Mention("—", "dash", "c1")]) == []


def test_merge_groups_counts_and_orders():
    ms = [
        Mention("Stereo speakers", "Loud stereo speakers.", "c1"),
        Mention("FM radio", "Tunes FM stations.", "c1"),
        Mention("stereo speaker", "Tuned by AKG.", "c2"),
        Mention("Stereo speakers", "Loud stereo speakers.", "c3"),
        Mention("Stereo Speakers", "", "c3"),
    ]
    ents = merge_mentions(ms)
    assert [e.name for e in ents] == ["Stereo speakers", "FM radio"]  # first-mention order
    sp = ents[0]
    assert sp.chunk_ids == ["c1", "c2", "c3"] and sp.mention_count == 4
    assert sp.description == "Loud stereo speakers. Tuned by AKG."
    assert sp.entity_id == entity_id(entity_key("stereo speakers")) == "ent-" + short_hash("stereospeaker", length=16)


def test_display_name_ties_are_deterministic():
    ms = [Mention("S-Pen", "a", "c1"), Mention("S Pen", "b", "c2"), Mention("s pen", "c", "c3")]
    names = {merge_mentions(random.sample(ms, 3))[0].name for _ in range(10)}
    assert names == {"S Pen"}  # one vote each: the shortest form, then the first alphabetically
    ms.append(Mention("s pen", "d", "c4"))
    assert merge_mentions(ms)[0].name == "s pen"  # the most frequent form wins


def test_result_does_not_depend_on_mention_order():
    ms = [Mention("FM radio", f"Sentence {i % 4} about the radio.", f"c{i}") for i in range(12)]
    first = merge_mentions(ms, max_description_tokens=20)[0]
    for seed in range(5):
        shuffled = random.Random(seed).sample(ms, len(ms))
        other = merge_mentions(shuffled, max_description_tokens=20)[0]
        assert (other.entity_id, other.name, other.description, other.mention_count) == (
            first.entity_id,
            first.name,
            first.description,
            first.mention_count,
        )


def test_description_is_bounded_in_tokens_and_prefers_supported_sentences():
    descs = ["The radio has a large rotary dial for tuning stations quickly."] * 5 + [
        f"Unrelated remark number {i} about packaging and shipping options." for i in range(30)
    ]
    text = extract_description(descs, max_tokens=40)
    assert count_tokens(text) <= 40
    assert text.startswith("The radio has a large rotary dial")
    assert text.count("rotary dial") == 1  # duplicates kept once


def test_near_identical_sentences_are_kept_once():
    text = extract_description(
        ["The S Pen clicks into the phone.", "The S Pen clicks into the phone!", "the s pen clicks into the phone"],
        max_tokens=100,
    )
    assert text.lower().count("clicks") == 1


def test_one_long_sentence_is_cut_not_lost():
    text = extract_description(["word " * 300], max_tokens=30)
    assert 0 < count_tokens(text) <= 30 and text.endswith("…")


def test_summariser_is_used_only_when_the_extract_would_not_fit():
    calls = []

    def summarise(name, descriptions):
        calls.append((name, len(descriptions)))
        return f"Summary of {name}."

    small = [Mention("IP68", "Dust and water rating.", "c1")]
    assert merge_mentions(small, summarise=summarise)[0].description == "Dust and water rating."
    assert calls == []
    big = [Mention("IP68", f"Rating sentence {i} with some extra words in it.", f"c{i}") for i in range(40)]
    assert merge_mentions(big, max_description_tokens=30, summarise=summarise)[0].description == "Summary of IP68."
    assert calls == [("IP68", 40)]


def test_failing_or_long_summary_falls_back_or_is_cut():
    big = [Mention("IP68", f"Rating sentence {i} with some extra words in it.", f"c{i}") for i in range(40)]

    def broken(name, descriptions):
        raise RuntimeError("server down")

    fallback = merge_mentions(big, max_description_tokens=30, summarise=broken)[0].description
    assert fallback == merge_mentions(big, max_description_tokens=30)[0].description
    long = merge_mentions(big, max_description_tokens=30, summarise=lambda n, d: "long " * 100)[0].description
    assert count_tokens(long) <= 30


def test_save_and_load_round_trip(tmp_path):
    chunks = [
        Chunk("p#1", "p", "Stereo speakers.", "Feature", 0, ("Radio R2", "Radio R2 Black")),
        Chunk("p#2", "p", "FM radio.", "", 1, ()),
    ]
    ents = merge_mentions(
        [
            Mention("stereo speakers", "Loud.", "p#1"),
            Mention("FM radio", "Tunes.", "p#2"),
            Mention("Stereo speaker", "Tuned.", "p#2"),
        ]
    )
    out = save_tkg(tmp_path / "tkg", chunks, ents)
    assert sorted(p.name for p in out.iterdir()) == ["chunks.parquet", "entities.parquet", "entity_chunks.parquet"]
    assert pq.read_table(out / "chunks.parquet").column_names == [
        "chunk_id",
        "doc_id",
        "text",
        "section",
        "ordinal",
        "products",
    ]
    assert pq.read_table(out / "entities.parquet").column_names == ["entity_id", "name", "description", "mention_count"]
    assert pq.read_table(out / "entity_chunks.parquet").to_pylist() == [
        {"entity_id": ents[0].entity_id, "chunk_id": "p#1"},
        {"entity_id": ents[0].entity_id, "chunk_id": "p#2"},
        {"entity_id": ents[1].entity_id, "chunk_id": "p#2"},
    ]
    chunks2, ents2 = load_tkg(out)
    assert chunks2 == chunks
    assert [(e.entity_id, e.name, e.description, e.chunk_ids, e.mention_count) for e in ents2] == [
        (e.entity_id, e.name, e.description, e.chunk_ids, e.mention_count) for e in ents
    ]


def test_save_replaces_and_leaves_no_temporary_files(tmp_path):
    save_tkg(tmp_path, [Chunk("a#1", "a", "x")], [Entity("ent-1", "X", "x", ["a#1"], 1)])
    save_tkg(tmp_path, [], [])
    chunks, ents = load_tkg(tmp_path)
    assert chunks == [] and ents == []
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    save_tkg(tmp_path, [Chunk("a#1", "a", "x")], [])
    import pyarrow.parquet

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(pyarrow.parquet, "write_table", boom)
    with pytest.raises(OSError):
        save_tkg(tmp_path, [Chunk("b#1", "b", "y")], [])
    monkeypatch.undo()
    assert [c.chunk_id for c in load_tkg(tmp_path)[0]] == ["a#1"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_sentences_that_differ_in_a_number_are_different_facts():
    text = extract_description(["Refresh Rate (Display): 120 Hz", "Refresh Rate (Display): 60 Hz"], max_tokens=100)
    assert "120 Hz" in text and "60 Hz" in text


def test_long_sentences_differing_in_one_word_are_near_identical():
    a = "The built-in FM radio tunes in to every local station with a large rotary dial."
    b = "The built-in FM radio tunes in to every local station with a big rotary dial."
    assert extract_description([a, b, a], max_tokens=100) == a


def _groups_by_scan(sentences: list[str]) -> list[tuple[frozenset[str], dict[str, int]]]:
    """The definition the indexed grouping must match: each sentence joins the first near group."""
    from dualgraph.tkg.merge import _near, _sentence_key

    groups: list[tuple[frozenset[str], dict[str, int]]] = []
    for sent in sentences:
        key = _sentence_key(sent)
        for gkey, forms in groups:
            if _near(key, gkey):
                forms[sent] = forms.get(sent, 0) + 1
                break
        else:
            groups.append((key, {sent: 1}))
    return groups


@pytest.mark.parametrize("by_rarity", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_indexed_sentence_grouping_matches_a_scan_of_every_group(seed, by_rarity):
    """Long sentences that differ in a word or two, numbers that differ or not, short repeats:
    the prefix-filtered grouping puts every sentence in the same group as the full scan, in
    alphabetical word order and rarest word first alike."""
    from collections import Counter

    from dualgraph.tkg.merge import _sentence_key, _SentenceGroups

    rnd = random.Random(seed)
    vocab = [f"w{i}" for i in range(30)]
    bases = [rnd.sample(vocab, rnd.randint(3, 14)) for _ in range(12)]
    sentences = []
    for _ in range(400):
        words = list(rnd.choice(bases))
        for _ in range(rnd.choice([0, 0, 1, 2, 3])):  # edits: swap in a word, or drop one
            if rnd.random() < 0.5 and len(words) > 2:
                words.pop(rnd.randrange(len(words)))
            else:
                words[rnd.randrange(len(words))] = rnd.choice(vocab)
        if rnd.random() < 0.4:
            words.append(str(rnd.choice([60, 90, 120])))
        rnd.shuffle(words)
        sentences.append(" ".join(words))
    rarity = Counter(w for key in {_sentence_key(s) for s in sentences} for w in key) if by_rarity else None
    grouping = _SentenceGroups(rarity)
    for s in sentences:
        grouping.add(s)
    assert [(k, dict(f)) for k, f in grouping.groups] == _groups_by_scan(sentences)
    assert len(grouping.groups) > 20  # the data holds many groups, so a wrong candidate set would show
