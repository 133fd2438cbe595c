"""Chunking: structure first, a hard size cap, overlap, and ids that depend only on content."""

from __future__ import annotations

import re

import pytest

from dualgraph.corpus.markdown import CHUNK_BREAK, specs_chunks
from dualgraph.corpus.model import Variant
from dualgraph.tkg import chunking
from dualgraph.tkg.chunking import chunk_document, count_tokens

FEATURES = """# Feature from the "Retro Radio R2" page
Tune in with the built-in FM radio and DAB+ receiver.
[CHUNK_BREAK]
# Feature from the "Retro Radio R2" page
Stereo speakers fill the room with sound.
[CHUNK_BREAK]
# FAQ from the "Retro Radio R2" page
Does it have a warranty? Yes, a 10-year warranty.
"""

# Sentences numbered so a test can see what is kept, lost or repeated.
LONG_PROSE = " ".join(
    f"Sentence number {i} describes the stereo speakers and the FM radio of the set." for i in range(60)
)


def words(text: str) -> list[str]:
    return re.findall(r"number (\d+)", text)


def test_each_marked_block_is_its_own_chunk():
    chunks = chunk_document("radio", FEATURES)
    assert [c.text.splitlines()[-1] for c in chunks] == [
        "Tune in with the built-in FM radio and DAB+ receiver.",
        "Stereo speakers fill the room with sound.",
        "Does it have a warranty? Yes, a 10-year warranty.",
    ]
    assert [c.section for c in chunks] == ['Feature from the "Retro Radio R2" page'] * 2 + [
        'FAQ from the "Retro Radio R2" page'
    ]
    assert [c.ordinal for c in chunks] == [0, 1, 2]


def test_records_carry_document_and_products():
    chunks = chunk_document("radio", FEATURES, products=["Retro Radio R2"])
    assert all(c.doc_id == "radio" and c.products == ("Retro Radio R2",) for c in chunks)


@pytest.mark.parametrize("max_tokens", [30, 64, 120, 400])
def test_never_over_the_cap(max_tokens):
    text = FEATURES + "\n" + CHUNK_BREAK + "\n# Long\n" + LONG_PROSE + "\n" + "x" * 3000 + "\n" + "word " * 700
    chunks = chunk_document("d", text, max_tokens=max_tokens, overlap_tokens=10)
    assert chunks and max(count_tokens(c.text) for c in chunks) <= max_tokens


def test_long_prose_splits_at_sentences_with_overlap_and_loses_nothing():
    chunks = chunk_document("d", "# Story\n" + LONG_PROSE, max_tokens=120, overlap_tokens=30)
    assert len(chunks) > 3
    seen = [n for c in chunks for n in words(c.text)]
    assert sorted(set(map(int, seen))) == list(range(60))  # every sentence kept
    for a, b in zip(chunks, chunks[1:]):
        assert words(a.text)[-1] in words(b.text)  # consecutive chunks overlap
        assert b.text.startswith("# Story\n")  # a continuation repeats its header
        body = b.text.split("\n", 1)[1]
        assert body.startswith("Sentence number ") and body.rstrip().endswith(".")  # whole sentences
    assert all(c.section == "Story" for c in chunks)


def test_no_overlap_when_asked():
    chunks = chunk_document("d", LONG_PROSE, max_tokens=120, overlap_tokens=0)
    seen = [n for c in chunks for n in words(c.text)]
    assert len(seen) == len(set(seen)) == 60


def test_tiny_tail_is_merged():
    text = "# T\n" + " ".join(f"Sentence number {i} is here." for i in range(20)) + " Bye."
    chunks = chunk_document("d", text, max_tokens=50, overlap_tokens=0, min_tokens=20)
    tail = chunks[-1].text
    assert count_tokens(tail) > 20 or len(chunks) == 1  # "Bye." did not end up alone
    assert tail.endswith("Bye.")


def test_spec_sections_pack_and_keep_their_product():
    a = Variant(
        "Radio R2 Black",
        "Radio R2",
        ("radios",),
        tuple((f"Section {i}:Entry {j}", f"value {i}.{j}") for i in range(12) for j in range(5)),
    )
    md = f"\n\n{CHUNK_BREAK}\n\n".join(specs_chunks([a], title="Radio R2"))
    chunks = chunk_document("d", md, max_tokens=200)
    assert 1 < len(chunks) <= 5  # small ## sections packed (about 45 tokens each), not one chunk each
    for c in chunks:
        assert c.text.startswith('# Specifications of "Radio R2 Black"')  # the product stays named
        assert count_tokens(c.text) <= 200
    entries = [ln for c in chunks for ln in c.text.splitlines() if ln.startswith("Entry")]
    assert len(entries) == 60 == len(set(entries))  # every spec once, none lost


def test_section_of_a_single_subsection_chunk_names_both_headers():
    chunks = chunk_document("d", '# Specifications of "P"\n## Audio\nRadio: FM\nSpeakers: stereo')
    assert chunks[0].section == 'Specifications of "P" > Audio'


def test_header_only_and_blank_blocks_make_no_chunk():
    text = f"# Lonely header\n\n{CHUNK_BREAK}\n\n   \n{CHUNK_BREAK}\nBody text here."
    chunks = chunk_document("d", text)
    assert [c.text for c in chunks] == ["Body text here."]
    assert chunk_document("d", "") == []


def test_ids_are_stable_and_content_derived():
    a = chunk_document("radio", FEATURES)
    b = chunk_document("radio", FEATURES)
    assert [c.chunk_id for c in a] == [c.chunk_id for c in b]
    assert all(c.chunk_id.startswith("radio#") for c in a)
    assert len({c.chunk_id for c in a}) == len(a)
    # Editing one block changes only that block's id.
    edited = chunk_document("radio", FEATURES.replace("Stereo speakers", "Twin speakers"))
    assert [x.chunk_id == y.chunk_id for x, y in zip(a, edited)] == [True, False, True]
    # The same text in another document gets another id.
    assert chunk_document("other", FEATURES)[0].chunk_id != a[0].chunk_id


def test_exact_duplicates_get_an_ordinal_suffix():
    text = f"Same words.\n{CHUNK_BREAK}\nOther words.\n{CHUNK_BREAK}\nSame words."
    ids = [c.chunk_id for c in chunk_document("d", text)]
    assert len(set(ids)) == 3 and ids[2] == ids[0] + "~2"


def test_counter_can_be_swapped():
    chunks = chunk_document("d", "aaaa bbbb cccc dddd", max_tokens=2, overlap_tokens=0, count=lambda t: len(t.split()))
    assert [c.text for c in chunks] == ["aaaa bbbb", "cccc dddd"]


def test_fallback_counter(monkeypatch):
    monkeypatch.setattr(chunking, "_project_count", None)
    assert chunking.count_tokens("Wi-Fi 6E, 120Hz!") == 7  # Wi - Fi 6E , 120Hz !


def test_bad_options():
    with pytest.raises(ValueError):
        chunk_document("d", "x", max_tokens=0)
    # An overlap past half a window is clamped, not an error.
    assert chunk_document("d", LONG_PROSE, max_tokens=60, overlap_tokens=500)
