"""Page readings behind the response cache: a page read before is not read again, and the
text graph comes out the same."""

from contextlib import closing

from dualgraph.models.cache import ResponseCache
from dualgraph.pipeline import tkg_build
from dualgraph.pipeline.tkg_build import cached_reader
from dualgraph.tkg.text_features import PageText, reading_key, text_feature_nquads

FEATURES = {"NFC": "nfc", "IR blaster": "ir", "headphone jack": "jack"}


def _pages(extra=""):
    return [
        PageText(("http://x/p1",), "It supports NFC but lacks an IR blaster.", FEATURES),
        PageText(("http://x/p2", "http://x/p3"), "It keeps the headphone jack." + extra, FEATURES),
        PageText(("http://x/p4",), "No NFC here, sadly.", FEATURES),
    ]


def test_a_second_reading_comes_from_the_cache_with_the_same_quads(tmp_path, monkeypatch):
    read = []
    original = tkg_build.read_statements

    def counting(pages):
        read.extend(p.text for p in pages)
        return original(pages)

    monkeypatch.setattr(tkg_build, "read_statements", counting)
    with closing(ResponseCache(tmp_path / "r.sqlite")) as cache:
        first = text_feature_nquads(_pages(), reader=cached_reader(cache))
        assert len(read) == 3
        again = text_feature_nquads(_pages(), reader=cached_reader(cache))
        assert again == first == text_feature_nquads(_pages())
        assert len(read) == 3  # nothing read twice
        changed = text_feature_nquads(_pages(" No NFC either."), reader=cached_reader(cache))
        assert read[3:] == ["It keeps the headphone jack. No NFC either."]
        assert changed == text_feature_nquads(_pages(" No NFC either."))


def test_the_key_is_the_text_and_the_phrases_not_the_products():
    a = PageText(("http://x/a",), "It has NFC.", FEATURES)
    assert reading_key(a) == reading_key(PageText(("http://x/b",), "It has NFC.", dict(reversed(FEATURES.items()))))
    assert reading_key(a) != reading_key(PageText(("http://x/a",), "It has NFC.", {"NFC": "nfc"}))


def test_entity_descriptions_from_the_cache_are_the_ones_merging_writes(tmp_path, monkeypatch):
    from dualgraph.pipeline.tkg_build import cached_describe
    from dualgraph.tkg import merge
    from dualgraph.tkg.model import Mention

    mentions = [
        Mention("Stereo speakers", "Loud stereo speakers. Tuned by AKG.", "c1"),
        Mention("stereo speaker", "Tuned by AKG.", "c2"),
        Mention("NFC", "Tap to pay with NFC.", "c2"),
        Mention("NFC", "NFC pairs headphones in a tap.", "c3"),
    ]
    plain = merge.merge_mentions(mentions, max_description_tokens=12)
    with closing(ResponseCache(tmp_path / "r.sqlite")) as cache:
        first = merge.merge_mentions(mentions, max_description_tokens=12, describe=cached_describe(cache, 12))
        calls = []
        monkeypatch.setattr("dualgraph.pipeline.tkg_build.extract_description", lambda *a, **k: calls.append(a) or "x")
        again = merge.merge_mentions(mentions, max_description_tokens=12, describe=cached_describe(cache, 12))
    assert first == plain == again and calls == []  # the second merge described nothing itself
    assert any(e.description for e in plain)
