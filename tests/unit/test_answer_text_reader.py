"""Reading products out of retrieved text (``dualgraph.answer.text_reader``) on synthetic chunks.

Each case builds real :class:`Chunk`/:class:`Retrieval` objects by hand so the expected
products follow from the texts written here: anchoring on the most specific phrase,
widening it with the question's own words, words said near each other, scoping by product
names, and the low-confidence guess when nothing anchors the question.
"""

from __future__ import annotations

from dualgraph.answer.strategies import ANCHORED
from dualgraph.answer.text_reader import GUESS_CHUNKS, SCOPE_ONLY, fold_corpus, read_products
from dualgraph.query.caps import CAP_FACTOR
from dualgraph.tkg.model import Chunk
from dualgraph.tkg.retrieval import Retrieval, ScoredChunk, ScoredEntity


def sc(cid: str, text: str, products: list[str], score: float) -> ScoredChunk:
    return ScoredChunk(Chunk(cid, f"doc-{cid}", text, products=tuple(products)), score, len(text.split()))


def ent(eid: str, name: str, *, lexical: float | None = 1.0) -> ScoredEntity:
    return ScoredEntity(eid, name, 1.0, dense=0.5, lexical=lexical)


def views(question: str, chunks: list[ScoredChunk], entities: list[ScoredEntity]) -> tuple[Retrieval, Retrieval]:
    """The voted retrieval (top chunks) and the exhaustive one (every chunk, the matched entities)."""
    voted = Retrieval(question, chunks[:3], chunks, entities=entities)
    exhaustive = Retrieval(question, chunks, chunks, entities=entities, exhaustive=True)
    return voted, exhaustive


# -- anchoring on a phrase ------------------------------------------------------------------

PEN_CHUNKS = [
    sc("a", "Every Tab A comes with an S Pen in the box.", ["Tab A"], 0.9),
    sc("b", "A pen holder sits on the side of the cover.", ["Tab B"], 0.8),
    sc("c", "A bright screen for films.", ["Tab C"], 0.4),
]


def test_anchor_is_the_longest_entity_phrase_not_a_word_of_it():
    q = "Which tablets come with an S Pen?"
    voted, ex = views(q, PEN_CHUNKS, [ent("e-pen", "Pen"), ent("e-spen", "S Pen")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1)
    # "Pen" alone would also take Tab B ("pen holder"); the multiword phrase is the anchor
    assert r.phrase == "s pen"
    assert r.products == ["Tab A"]
    assert r.confidence >= ANCHORED
    assert any("anchored on 's pen'" in t for t in r.trace)


def test_anchor_found_in_the_whole_corpus_not_only_in_retrieved_chunks():
    q = "Which tablets come with an S Pen?"
    voted, ex = views(q, PEN_CHUNKS, [ent("e-spen", "S Pen")])
    unretrieved = Chunk("d", "doc-d", "Tab D ships with the S Pen and a charger.", products=("Tab D",))
    corpus = fold_corpus({**{c.chunk_id: c.chunk for c in PEN_CHUNKS}, "d": unretrieved})
    r = read_products(q, voted, ex, chunk_count=lambda e: 2, corpus=corpus)
    assert r.products == ["Tab A", "Tab D"]  # ranked: Tab A's chunk scored, Tab D's never retrieved
    # without the corpus only what retrieval found can answer
    assert read_products(q, voted, ex, chunk_count=lambda e: 2).products == ["Tab A"]


def test_no_phrase_anchored_in_any_text_gives_an_empty_low_confidence_answer():
    q = "Which tablets come with a stylus dock?"
    voted, ex = views(q, PEN_CHUNKS, [ent("e-dock", "stylus dock")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1)
    assert r.products == [] and r.confidence < ANCHORED


def test_candidates_are_every_retrieved_product_best_first():
    q = "Which tablets come with an S Pen?"
    voted, ex = views(q, PEN_CHUNKS, [ent("e-spen", "S Pen")])
    assert read_products(q, voted, ex).candidates == ["Tab A", "Tab B", "Tab C"]


# -- widening the anchor with the question's words -----------------------------------------


def test_anchor_widened_to_the_questions_wording_when_the_text_holds_it():
    q = "Which tablets ship in plastic free packaging?"
    chunks = [
        sc("p", "Our plastic free packaging uses recycled card.", ["Tab P"], 0.7),
        sc("q", "Plastic parts were reduced in the frame.", ["Tab Q"], 0.9),
    ]
    voted, ex = views(q, chunks, [ent("e-plastic", "plastic")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1)
    assert r.phrase == "plastic free packaging"
    assert r.products == ["Tab P"]  # "plastic" alone would take Tab Q's frame too
    assert any("widened" in t for t in r.trace)


def test_widening_never_starts_or_ends_on_a_function_word():
    q = "Which tablets come with an S Pen?"
    chunks = [sc("a", "The tablet will come with an S Pen.", ["Tab A"], 0.9)]
    voted, ex = views(q, chunks, [ent("e-spen", "S Pen")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1)
    # "come with an s pen" is in the text and is the widest run that starts on a content word
    assert r.phrase == "come with an s pen"
    assert r.products == ["Tab A"]


# -- proximity ------------------------------------------------------------------------------


def test_phrase_words_said_near_each_other_match_far_apart_do_not():
    q = "Which tablets have plastic-free packaging?"
    near = sc("n", "The packaging is 100% plastic-free and light.", ["Tab N"], 0.8)
    far = sc("f", "Plastic trim on the back. " + "word " * 12 + "Free delivery and recycled packaging.", ["Tab F"], 0.9)
    voted, ex = views(q, [near, far], [ent("e-pf", "plastic-free packaging")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1)
    assert r.phrase == "plastic free packaging"
    assert r.products == ["Tab N"]


# -- scope from product names ---------------------------------------------------------------

NAMES = ["Nova S14", "Nova S18", "Orbit A15"]
BATTERY_CHUNKS = [
    sc("s14", "Battery: 5000 mAh", ["Nova S14"], 0.6),
    sc("s18", "Battery: 6000 mAh", ["Nova S18"], 0.7),
    sc("a15", "Battery: 6000 mAh", ["Orbit A15"], 0.9),
]


def test_a_product_name_word_scopes_the_answer_instead_of_anchoring_it():
    q = "Which Nova phones have a 6000 mAh battery?"
    voted, ex = views(q, BATTERY_CHUNKS, [ent("e-nova", "Nova"), ent("e-mah", "6000 mAh")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1, names=NAMES)
    assert r.products == ["Nova S18"]  # Orbit A15 says 6000 mAh too, but is not a Nova
    assert r.phrase == "6000 mah"
    assert any("scope from product names: 'nova'" in t for t in r.trace)


def test_only_product_names_in_the_question_answer_every_product_in_scope():
    q = "Tell me about the Nova range"
    voted, ex = views(q, BATTERY_CHUNKS, [ent("e-nova", "Nova")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1, names=NAMES)
    assert r.products == ["Nova S18", "Nova S14"]  # best chunk score first
    assert r.confidence == SCOPE_ONLY < ANCHORED
    assert r.phrase is None


def test_two_brands_named_scope_to_either_brand():
    names = ["Nova S18", "Orbit A15", "Kappa S13"]
    chunks = [
        sc("s18", "Battery: 6000 mAh", ["Nova S18"], 0.7),
        sc("a15", "Battery: 6000 mAh", ["Orbit A15"], 0.9),
        sc("s13", "Battery: 6000 mAh", ["Kappa S13"], 0.8),
    ]
    q = "Which Nova or Orbit phones have a 6000 mAh battery?"
    voted, ex = views(q, chunks, [ent("e-nova", "Nova"), ent("e-orbit", "Orbit"), ent("e-mah", "6000 mAh")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1, names=names)
    assert sorted(r.products) == ["Nova S18", "Orbit A15"]


# -- no anchor: the guess -------------------------------------------------------------------


def test_no_catalog_phrase_guesses_the_top_voted_chunks_with_low_confidence():
    q = "Which tablet feels nicest in the hand?"
    chunks = [
        sc("x1", "Soft edges.", ["Tab X"], 0.9),
        sc("y", "Light.", ["Tab Y"], 0.8),
        sc("x2", "Curved back.", ["Tab X"], 0.7),
        sc("z", "Heavy.", ["Tab Z"], 0.6),
    ]
    voted = Retrieval(q, chunks, chunks, entities=[ent("e-soft", "soft edges", lexical=None)])  # dense-only match
    r = read_products(q, voted, voted)
    assert GUESS_CHUNKS == 3
    assert r.products == ["Tab X", "Tab Y"]  # products of the top 3 voted chunks, once each
    # Tab Z, in a lower chunk, was left out by the cap: named, and the guess is less sure for it
    assert [(c.name, c.limit, c.what) for c in r.caps] == [
        ("text_guess_chunks", GUESS_CHUNKS, "1 more product(s) in lower voted chunks not read into the guess")
    ]
    assert r.confidence == round(0.3 * CAP_FACTOR, 3) and r.confidence < ANCHORED
    assert r.phrase is None and any("a guess" in t for t in r.trace)


def test_guess_with_nothing_retrieved_is_empty_with_zero_confidence():
    q = "Which tablet feels nicest in the hand?"
    empty = Retrieval(q, [], [])
    r = read_products(q, empty, empty)
    assert (r.products, r.confidence) == ([], 0.0)


def test_an_entity_in_too_many_chunks_is_a_topic_not_an_anchor():
    q = "Which tablets have Bluetooth?"
    chunks = [sc(f"c{i}", "Bluetooth 5.3 inside.", [f"Tab {i}"], 1 - i / 10) for i in range(4)]
    voted, ex = views(q, chunks, [ent("e-bt", "Bluetooth")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 3, total_chunks=4)
    assert any("too common to anchor: Bluetooth" in t for t in r.trace)
    assert r.phrase is None and r.confidence < ANCHORED  # fell through to the guess


def test_generic_catalog_words_never_anchor():
    q = "Which phones support it?"
    chunks = [sc("a", "These phones are great.", ["P1"], 0.9)]
    voted, ex = views(q, chunks, [ent("e-phones", "phones")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1)
    assert r.phrase is None and r.confidence < ANCHORED


def test_two_products_named_without_a_phrase_answer_both():
    names = ["Nova S18", "Orbit A15", "Kappa S13"]
    q = "Is the Nova S18 cheaper than the Orbit A15?"
    chunks = [sc("s18", "Price: 19999 INR", ["Nova S18"], 0.7), sc("a15", "Price: 19999 INR", ["Orbit A15"], 0.9)]
    voted, ex = views(q, chunks, [ent("e-s18", "Nova S18"), ent("e-a15", "Orbit A15")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1, names=names)
    assert sorted(r.products) == ["Nova S18", "Orbit A15"]


def test_a_one_word_anchor_most_pages_use_is_weak():
    from dualgraph.answer.text_reader import ANCHORED, read_products
    from dualgraph.tkg.model import Chunk
    from dualgraph.tkg.retrieval import Retrieval, ScoredChunk, ScoredEntity

    names = [f"Pad {i}" for i in range(10)]
    chunks = [
        ScoredChunk(Chunk(f"c{i}", f"d{i}", "A bright screen for reading.", products=(n,)), 0.5, 5)
        for i, n in enumerate(names[:6])
    ]
    ex = Retrieval(
        "Which pads have a screen?",
        chunks,
        chunks,
        entities=[ScoredEntity("e", "screen", 1.0, lexical=1.0)],
        exhaustive=True,
    )
    r = read_products(ex.question, ex, ex, names=names)
    assert len(r.products) == 6 and r.confidence < ANCHORED
    assert any("weak anchor" in t for t in r.trace)


# -- what the specs left unread --------------------------------------------------------------

BIKE_CHUNKS = [
    sc("a", "A downhill bike, an aluminium hardtail with a 120 mm fork.", ["Rig A"], 0.9),
    sc("b", "A downhill bike with 200 mm of travel front and rear.", ["Rig B"], 0.8),
    sc("c", "Never been ridden, still in the box: a downhill bike.", ["Rig C"], 0.7),
]


def test_the_words_the_specs_left_unread_anchor_before_the_scope_they_read():
    q = "Which downhill bikes are hardtails?"
    voted, ex = views(q, BIKE_CHUNKS, [ent("e-dh", "downhill bike")])
    corpus = fold_corpus({c.chunk_id: c.chunk for c in BIKE_CHUNKS})
    before = read_products(q, voted, ex, chunk_count=lambda e: 1, corpus=corpus)
    assert before.phrase == "downhill bike" and len(before.products) == 3  # the scope again: no answer
    # no entity is named "hardtail(s)": the pages' own word is the anchor, in the singular they write
    r = read_products(q, voted, ex, chunk_count=lambda e: 1, corpus=corpus, unread=["hardtails"], words_alone=True)
    assert r.phrase == "hardtail" and r.products == ["Rig A"]
    assert any("the pages' own words 'hardtail'" in t for t in r.trace)
    # beside conditions the specs read, an unread word is looked up only as an entity's name
    beside = read_products(q, voted, ex, chunk_count=lambda e: 1, corpus=corpus, unread=["hardtails"])
    assert beside.phrase == "downhill bike"


def test_an_entity_naming_an_unread_word_beats_a_longer_one_on_the_read_scope():
    q = "Which downhill bikes are hardtails?"
    voted, ex = views(q, BIKE_CHUNKS, [ent("e-dh", "downhill bike"), ent("e-ht", "aluminium hardtail")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1, unread=["hardtails"])
    assert r.products == ["Rig A"]


def test_unread_words_the_question_says_together_are_one_phrase():
    q = "Which downhill bikes have never been ridden?"
    voted, ex = views(q, BIKE_CHUNKS, [ent("e-dh", "downhill bike")])
    corpus = fold_corpus({c.chunk_id: c.chunk for c in BIKE_CHUNKS})
    r = read_products(
        q, voted, ex, chunk_count=lambda e: 1, corpus=corpus, unread=["never", "ridden"], words_alone=True
    )
    assert r.phrase == "never ridden" or r.phrase == "never been ridden", r.trace
    assert r.products == ["Rig C"]


def test_a_name_of_function_words_and_numbers_never_anchors():
    # an extracted "in 1" is on every page that says "2 in 1" or "in 1 second": no fact of the question
    chunks = [
        sc("a", "A 2 in 1 design that folds in 1 second.", ["Cam A"], 0.9),
        sc("b", "Shoots in 1 burst mode with a fast lens.", ["Cam B"], 0.8),
    ]
    q = "Which cameras have a full-frame sensor (crop factor 1)?"
    voted, ex = views(q, chunks, [ent("e-in1", "in 1")])
    r = read_products(q, voted, ex, chunk_count=lambda e: 1)
    assert r.phrase is None and r.confidence < ANCHORED, r.trace


def test_the_unread_condition_is_no_scope_even_where_a_product_name_holds_it():
    # "Brand New" is in one listing's title and on the pages of three new bikes: it is what is asked
    chunks = [
        sc("a", "Enduro frame. Brand new, never ridden.", ["Rig A Brand New"], 0.9),
        sc("b", "Brand new, tags still on.", ["Rig B"], 0.8),
        sc("c", "Brand new and unused.", ["Rig C"], 0.7),
        sc("d", "Well used, some scratches.", ["Rig D"], 0.6),
    ]
    q = "How many bikes are sold as brand new?"
    voted, ex = views(q, chunks, [ent("e-bn", "Brand new")])
    corpus = fold_corpus({c.chunk_id: c.chunk for c in chunks})
    names = ["Rig A Brand New", "Rig B", "Rig C", "Rig D"]
    kw = {"chunk_count": lambda e: 1, "corpus": corpus, "names": names}
    r = read_products(q, voted, ex, **kw, unread=["brand", "new"], words_alone=True)
    assert r.products == ["Rig A Brand New", "Rig B", "Rig C"], r.trace
    # asked nothing unread, a phrase inside a product name still scopes the answer
    assert any("scope from product names" in t for t in read_products(q, voted, ex, **kw).trace)
