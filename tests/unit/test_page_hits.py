"""Names spelled per chunk, kept between runs: after any change of chunks or vocabulary, the
pages built with the saved hits are the pages a full read builds."""

from __future__ import annotations

import random
from pathlib import Path

from dualgraph.tkg.model import Chunk, Entity
from dualgraph.tkg.page_hits import PageHits
from dualgraph.tkg.text_features import chunk_pages

WORDS = "the phone has a good battery and keeps the jack but lacks wireless charging for now".split()
NAMES = [
    "battery",
    "Batteries",
    "3.5 mm jack",
    "Wi-Fi 6",
    "the S Pen",
    "wireless charging",
    "IR blaster",
    "NFC",
    "stereo speakers",
    "fast chargers",
    "USB-C",
    "dual SIM",
]
PHRASES = [
    "two batteries",
    "a 3.5mm jack",
    "WiFi 6",
    "an S Pen",
    "Wireless Charging",
    "no IR blasters",
    "NFC, sadly",
    "stereo speaker",
    "fast charger",
    "USB C port",
    "Dual-SIM",
    "the wi-fi 6 radio",
]


def _chunks(rng: random.Random, n: int) -> list[Chunk]:
    out = []
    for i in range(n):
        words = [rng.choice(WORDS) for _ in range(12)] + rng.sample(PHRASES, 3)
        rng.shuffle(words)
        out.append(Chunk(f"c{i}", f"d{i % 5}", " ".join(words) + ".", products=(f"Phone {i}",)))
    return out


def _entities(names: list[str]) -> list[Entity]:
    return [Entity(f"e{i}-{n}", n, "", ["c0"]) for i, n in enumerate(names)]


def _pages(chunks, entities, hits=None):
    products = {c.chunk_id: [f"http://x/p{c.chunk_id}"] for c in chunks}
    return [(p.products, p.text, dict(p.features)) for p in chunk_pages(chunks, entities, products, hits=hits)]


def test_saved_hits_give_the_pages_of_a_full_read(tmp_path: Path) -> None:
    rng = random.Random(3)
    path = tmp_path / "hits.json"
    chunks = _chunks(rng, 60)
    vocabulary = NAMES[:6]
    first = PageHits.load(path, "v")
    assert _pages(chunks, _entities(vocabulary), first) == _pages(chunks, _entities(vocabulary))
    first.save(path, {c.chunk_id for c in chunks}, first.vocabulary_now)
    for step in range(6):
        # some names leave, some join; a few chunks change their text, one goes, one comes
        vocabulary = sorted(set(rng.sample(NAMES, 7)))
        for i in rng.sample(range(len(chunks)), 3):
            chunks[i] = Chunk(chunks[i].chunk_id, "d", chunks[i].text + f" {rng.choice(PHRASES)}.", products=("P",))
        chunks = [*chunks[1:], Chunk(f"new{step}", "d", _chunks(rng, 1)[0].text, products=("P",))]
        hits = PageHits.load(path, "v")
        assert _pages(chunks, _entities(vocabulary), hits) == _pages(chunks, _entities(vocabulary)), step
        assert hits.kept > 0 and hits.read >= 4  # three changed chunks and the new one
        hits.save(path, {c.chunk_id for c in chunks}, hits.vocabulary_now)


def test_a_name_new_to_the_vocabulary_is_found_in_unchanged_chunks(tmp_path: Path) -> None:
    path = tmp_path / "hits.json"
    chunks = [
        Chunk("c1", "d", "It has two batteries and NFC.", products=("P",)),
        Chunk("c2", "d", "No NFC.", products=("Q",)),
    ]
    hits = PageHits.load(path, "v")
    _pages(chunks, _entities(["NFC"]), hits)
    hits.save(path, {"c1", "c2"}, hits.vocabulary_now)
    again = PageHits.load(path, "v")
    pages = _pages(chunks, _entities(["NFC", "battery"]), again)
    assert pages[0][2] == {"NFC": "e0-NFC", "battery": "e1-battery"}
    assert (again.kept, again.read, again.reread) == (2, 0, 1)  # only c1 holds "battery" (folded)


def test_hits_of_other_reading_code_are_not_used(tmp_path: Path) -> None:
    path = tmp_path / "hits.json"
    hits = PageHits.load(path, "v1")
    _pages([Chunk("c1", "d", "It has NFC.", products=("P",))], _entities(["NFC"]), hits)
    hits.save(path, {"c1"}, hits.vocabulary_now)
    assert PageHits.load(path, "v1").chunks and not PageHits.load(path, "v2").chunks
    path.write_text("{broken", encoding="utf-8")
    assert not PageHits.load(path, "v1").chunks


def test_a_new_name_spelled_across_folded_words_is_found(tmp_path: Path) -> None:
    # "iPads case" folds to "ipad" + "case": it spells "iPadcase", whose letters the raw text lacks
    path = tmp_path / "hits.json"
    chunks = [Chunk("c1", "d", "Two iPads case, with NFC.", products=("P",))]
    hits = PageHits.load(path, "v")
    _pages(chunks, _entities(["NFC"]), hits)
    hits.save(path, {"c1"}, hits.vocabulary_now)
    again = PageHits.load(path, "v")
    entities = _entities(["NFC", "iPadcase"])
    assert _pages(chunks, entities, again) == _pages(chunks, entities)
    assert _pages(chunks, entities)[0][2] == {"NFC": "e0-NFC", "iPadcase": "e1-iPadcase"}
    assert again.reread == 1
