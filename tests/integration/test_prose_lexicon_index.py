"""Page words mined at index time (``dualgraph.lexicon.mining``), end to end: ``build_index``
writes ``tkg/prose_lexicon.json`` from the pages of an invented catalog, and ``QAEngine.open`` reads it
so that a question in the pages' words ("vlogging camera") meets the spec entry those words stand
beside ("Camera:Front Camera"), not the principal variant ("Camera:Rear Camera").

Every expected answer is computed from ``PHONES`` below, never from the system's output."""

from __future__ import annotations

import json

import pytest

from dualgraph.answer.engine import AskConfig, QAEngine
from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index import build_index

CONFIG = IndexConfig(
    runner="inline", progress=False, batch_size=4, patterns=True, tkg=TkgConfig(embed_chunks=False, summarise=False)
)

# name -> (rear MP, front MP or None, battery mAh); more products state a rear camera than a front one,
# so the rear camera is the principal variant of "camera"
PHONES: dict[str, tuple[int, int | None, int]] = {
    "Zorvik A1": (50, 32, 5000),
    "Zorvik A2": (64, 16, 4500),
    "Quellan B1": (12, 32, 4000),
    "Quellan B2": (48, 8, 5500),
    "Tessaro C1": (13, 48, 4800),
    "Tessaro C2": (108, None, 6000),
    "Mirado D1": (50, None, 5000),
    "Mirado D2": (8, 20, 3900),
}

# the prose: "vlogging" stands beside the front camera's value on four products; "twilight" only on one
PROSE = {
    "Zorvik A1": "Film yourself with the 32 MP vlogging camera. The 50 MP camera on the back shoots crisp "
    "landscapes, and the 5000 mAh cell lasts two days.",
    "Zorvik A2": "Its 16 MP vlogging camera keeps your face sharp. The 64 MP shooter handles distant hills.",
    "Quellan B1": "Creators will like the 32 MP vlogging camera above the screen. A modest 12 MP sensor sits behind.",
    "Quellan B2": "A 48 MP camera captures mountain views. The 5500 mAh cell never quits.",
    "Tessaro C1": "A 48 MP vlogging camera up front is rare at this price. The 13 MP unit on the back is plain.",
    "Tessaro C2": "The 108 MP camera resolves every leaf. Charging the 6000 mAh cell takes an hour.",
    "Mirado D1": "Its 50 MP camera does well in daylight.",
    "Mirado D2": "The 20 MP twilight camera lights your face at dusk. The 8 MP camera behind is basic.",
}
NEW_WORD, LONE_WORD, UNUSED_WORD = "vlogging", "twilight", "marzipan"


def phone(name: str) -> Variant:
    rear, front, battery = PHONES[name]
    specs = [("Camera:Rear Camera", f"{rear} MP"), ("Battery:Capacity", f"{battery} mAh")]
    if front is not None:
        specs.append(("Camera:Front Camera", f"{front} MP"))
    return Variant(name, name.rsplit(" ", 1)[0], ("smartphones",), tuple(specs))


def pages():
    return [(name.replace(" ", "-").lower(), f"# {name}\n\n{PROSE[name]}\n", [phone(name)]) for name in PHONES]


def where(pred) -> set[str]:
    return {n for n, (rear, front, _) in PHONES.items() if pred(rear, front)}


GOLD_FRONT = where(lambda rear, front: front is not None and front >= 32)
GOLD_REAR = where(lambda rear, front: rear >= 32)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("proselexicon")
    write_dataset(root / "ds", pages())
    manifest = build_index(root / "ds", root / "ix", CONFIG)
    return root / "ix", manifest


@pytest.fixture(scope="module")
def engine(built):
    with QAEngine.open(built[0], AskConfig()) as e:
        yield e


def test_the_catalog_is_not_trivial():
    # the gold answers differ, so reading the wrong camera fails the test
    assert len(GOLD_FRONT) == 3 and len(GOLD_REAR) == 5
    assert GOLD_FRONT - GOLD_REAR and GOLD_REAR - GOLD_FRONT
    assert sum(f is not None for _, f, _ in PHONES.values()) < len(PHONES)
    assert sum(NEW_WORD in t for t in PROSE.values()) >= 3 and sum(LONE_WORD in t for t in PROSE.values()) == 1
    assert not any(UNUSED_WORD in t for t in PROSE.values())


def test_index_writes_the_mined_lexicon(built):
    index, manifest = built
    report = manifest["prose_lexicon"]
    assert isinstance(report, dict) and report["words"] >= 1 and report["pages"] >= len(PHONES)
    path = index / "tkg" / "prose_lexicon.json"
    assert path.is_file()
    lexicon = json.loads(path.read_text("utf-8"))
    assert len(lexicon) == report["words"]
    # the word that sets "Front Camera" apart from its variant "Rear Camera"
    assert lexicon.get(NEW_WORD) == ["front"]


def test_a_word_beside_one_product_only_is_not_mined(built):
    lexicon = json.loads((built[0] / "tkg" / "prose_lexicon.json").read_text("utf-8"))
    assert LONE_WORD not in lexicon
    # nor are the catalog's own words, nor product-name words
    assert not {"camera", "front", "rear", "zorvik", "quellan"} & set(lexicon)


def answers(engine, question: str) -> tuple[set[str], str]:
    """The products answered, and the trace to show when they are wrong."""
    r = engine.answer(question)
    trace = "\n".join([question, f"route {r.route}, error {r.error}", *r.evidence.trace])
    assert r.error is None, trace
    return set(r.answer_list or ()), trace


def test_the_mined_word_reaches_the_front_camera(engine):
    got, trace = answers(engine, f"Which phones have a {NEW_WORD} camera of at least 32 MP?")
    assert got == GOLD_FRONT, trace


def test_an_unknown_word_means_the_principal_camera(engine):
    got, trace = answers(engine, f"Which phones have a {UNUSED_WORD} camera of at least 32 MP?")
    assert got == GOLD_REAR, trace


def test_a_run_stopped_before_the_lexicon_is_mined_mines_it_when_resumed(tmp_path):
    """Killed after the pattern index was marked fresh and before the lexicon was mined: the resumed run
    mines it (the lexicon's own stale flag in the state says so, and so does the self-check, which finds
    the text graph's files newer than the last manifest and rebuilds that view, which the lexicon reads)."""
    from reliability_tools.kill_points import run_killed

    plain = [(slug, text.replace(NEW_WORD, "selfie"), variants) for slug, text, variants in pages()]
    write_dataset(tmp_path / "v1", plain)
    build_index(tmp_path / "v1", tmp_path / "ix", CONFIG)
    assert NEW_WORD not in json.loads((tmp_path / "ix" / "tkg" / "prose_lexicon.json").read_text("utf-8"))
    write_dataset(tmp_path / "v2", pages())
    assert run_killed(tmp_path / "v2", tmp_path / "ix", CONFIG, "lexicon") == -9
    manifest = build_index(tmp_path / "v2", tmp_path / "ix", CONFIG)
    assert manifest["views"]["lexicon"]["built"] and not manifest["views"]["patterns"]["built"]
    lexicon = json.loads((tmp_path / "ix" / "tkg" / "prose_lexicon.json").read_text("utf-8"))
    assert lexicon.get(NEW_WORD) == ["front"]
