"""Words read from the catalog's own data: variants of one attribute and their principal, and page
words tied to the spec values they stand beside (no word list of a product domain)."""

from dualgraph.lexicon.mining import prose_synonyms, variants
from dualgraph.lexicon.pattern import Pattern
from dualgraph.lexicon.synonyms import CatalogLexicon
from dualgraph.query.ground.name_match import lexical_score


def num(entry, label=None, count=10, section="Specs", unit="MP", dimension="resolution_mp"):
    pid = f"{section}|{entry}|{label}|{unit}"
    return Pattern(
        pid, "spec_numeric", "", "", section=section, entry=entry, entry_iri="e:" + entry, label=label,
        unit=unit, dimension=dimension, count=count,
    )  # fmt: skip


REAR, FRONT = num("Rear camera resolution", count=40), num("Front camera resolution", count=30)
SECOND = num("Second rear camera resolution", count=5)
WIDTH = num("Width", unit="mm", dimension="length", count=45)
DEPTH = num("Depth", unit="mm", dimension="length", count=44)
PATTERNS = [REAR, FRONT, SECOND, WIDTH, DEPTH]


def test_the_variant_most_products_state_is_the_principal():
    v = variants(PATTERNS)
    assert REAR.pattern_id in v.principal and FRONT.pattern_id not in v.principal
    assert v.variant_words[FRONT.pattern_id] == {"front"}
    assert v.variant_words[SECOND.pattern_id] == {"second"}
    assert v.shared[FRONT.pattern_id] == {"camera", "resolution"}
    # attributes of one dimension that share no word are not variants of each other
    assert WIDTH.pattern_id not in v.principal and not v.shared[DEPTH.pattern_id]


def test_labels_inside_one_entry_are_variants_too():
    rear, front = num("Camera", "rear", 900, "Camera"), num("Camera", "front", 700, "Camera")
    v = variants([front, rear])
    assert v.principal == {rear.pattern_id} and v.distinct[front.pattern_id] == {"front"}


def lexicon(patterns, **kw):
    return CatalogLexicon([], variants=variants(patterns), **kw)


def best(attribute, patterns, lex):
    return max(patterns, key=lambda p: lexical_score(attribute, p, lex))


def test_a_bare_attribute_and_the_main_one_mean_the_principal():
    lex = lexicon(PATTERNS)
    cams = [FRONT, SECOND, REAR]
    assert best("camera resolution", cams, lex) is REAR
    assert best("main camera", cams, lex) is REAR
    assert best("primary camera", cams, lex) is REAR
    assert best("front camera", cams, lex) is FRONT
    # without the catalog's variants the bare word cannot choose (all three name "camera resolution")
    assert len({round(lexical_score("camera resolution", p), 6) for p in [FRONT, REAR]}) == 1


def test_variants_do_not_decide_what_the_question_does_not_name():
    ram, inbuilt = (
        num("Memory", "ram", 99, "Memory", "GB", "data"),
        num("Memory", "inbuilt", 98, "Memory", "GB", "data"),
    )
    lex = lexicon([ram, inbuilt])
    # "storage" names neither label nor the entry they share: the principal gets no edge
    assert lexical_score("storage", ram, lex) == lexical_score("storage", inbuilt, lex)


FACTS = {p: [("MP", 32.0, frozenset({"front"})), ("MP", 50.0, frozenset({"rear"}))] for p in "abcdefg"}


def test_page_words_beside_a_products_own_values_become_its_entry_words():
    pages = [
        (["a"], "Take sharp selfies with the 32 MP shooter."),
        (["b"], "Its 32 MP selfie sensor sits in a punch hole."),
        (["c", "d"], "The 50 MP camera catches landscapes at night."),
        (["e", "f", "g"], "A 50 MP camera with a wide lens."),
    ]
    mined = prose_synonyms(pages, FACTS, catalog_words=["camera"])
    assert mined["selfie"] == ["front"]  # "selfies" and "selfie" are one word
    assert "camera" not in mined  # the catalog's own word meets its names directly
    assert "landscapes" not in mined  # one page (two variants of one product line) is too little


def test_one_page_the_spec_table_and_unmatched_values_prove_nothing():
    one = prose_synonyms([(["a"], "Take selfies with the 32 MP shooter.")], FACTS)
    assert one == {}
    table = [([p], "Front camera: 32 MP selfie") for p in "abc"]  # the page restating its table
    assert prose_synonyms(table, FACTS) == {}
    other = [([p], "Selfies look fine at 12 MP.") for p in "abc"]  # no fact of these products is 12 MP
    assert prose_synonyms(other, FACTS) == {}


def test_mined_words_reach_the_attribute_score():
    # a word no general list knows ("vlogging"), tied to "front" by the catalog's pages
    lex = lexicon([REAR, FRONT], mined={"vlogging": ["front"]})
    assert best("vlogging camera", [REAR, FRONT], lex) is FRONT
    assert best("vlogging camera", [REAR, FRONT], lexicon([REAR, FRONT])) is REAR


def test_the_only_quantity_of_its_kind_in_a_section_is_named_by_the_section():
    cap = num("Capacity", count=20, section="Battery", unit="mAh", dimension="charge")
    size = num("Screen Size", count=20, section="Display", unit="mm", dimension="length")
    rate = num("Refresh Rate", count=20, section="Display", unit="Hz", dimension="frequency")
    lex = lexicon([cap, size, rate])
    assert lex.variants.alone == {cap.pattern_id}
    # "battery" names Battery › Capacity fully: the section holds no other quantity
    assert lexical_score("battery", cap, lex) > lexical_score("battery", cap)
    assert lexical_score("battery", cap, lex) >= 0.99
    # "display" names a section of two quantities: which one is still open
    assert lexical_score("display", rate, lex) == lexical_score("display", rate)
