"""The parser reads a catalog's words from the catalog: a vocabulary built from its patterns, none
written into the parser. A catalog of a domain no list was written for (bicycles) parses as well
as one of phones, and without a catalog only general English is known."""

import ast
import contextvars
import re
from pathlib import Path

import numpy as np

from dualgraph.lexicon.patterns import Pattern
from dualgraph.lexicon.vocabulary import QuestionVocabulary, current, use
from dualgraph.query.read.parse import parse_question

PACKAGE = Path(__file__).resolve().parents[2] / "dualgraph"
# the reader and the catalog words it reads with
READER = [PACKAGE / "query", PACKAGE / "lexicon"]


def _bikes() -> QuestionVocabulary:
    ps = [
        Pattern("c1", "category", "", "", name="Road Bicycles"),
        Pattern("c2", "category", "", "", name="Bike Helmets"),
        Pattern("n1", "spec_numeric", "", "", name="Frame size", section="Frame", dimension="length"),
        Pattern("n2", "spec_numeric", "", "", name="Weight", section="General", dimension="mass"),
        Pattern("f1", "feature", "", "", name="Disc Brakes"),
        Pattern("f2", "feature", "", "", name="Dropper Post support"),
        Pattern("v1", "spec_value", "", "", name="Groupset", values=[{"name": "Shimano 105"}, {"name": "SRAM Rival"}]),
        Pattern("v2", "spec_value", "", "", name="Mudguards", values=[{"name": "Yes"}, {"name": "No"}]),
        *(
            Pattern(f"p{i}", "product", "", "", name=n)
            for i, n in enumerate(["Vela Aero 3 Pro", "Vela Aero 5 Pro", "Vela Gravel 2"])
        ),
    ]
    return QuestionVocabulary.from_patterns(ps)


def test_a_catalog_nobody_wrote_a_list_for():
    v = _bikes()
    q = "Which road bicycles with disc brakes and a Shimano 105 groupset have a frame size of at least 54 cm?"
    p = parse_question(q, vocabulary=v)
    assert [(e.phrase, e.kind) for e in p.entities] == [("road bicycles", "category")]
    kinds = {type(c).__name__: c for c in p.constraints}
    assert kinds["FeatureConstraint"].phrase == "disc brakes"
    assert (kinds["ValueConstraint"].phrase, kinds["ValueConstraint"].attribute) == ("Shimano 105", "groupset")
    num = kinds["NumericConstraint"]
    assert (num.op, num.value, num.unit, num.attribute) == (">=", 540.0, "mm", "frame size")


def test_features_without_capability_words_and_yes_no_entries():
    v = _bikes()
    assert v.features.search("bikes with a dropper post").group() == "dropper post"  # "Dropper Post support"
    assert v.attributes.fullmatch("mudguards") is None  # valued Yes/No: what a product has, not a measure
    assert v.value_families("a SRAM Rival groupset") == [(2, 12, "Groupset")]
    assert v.value_families("no rival here") == []  # a plain lower-case word is English


def test_names_go_on_with_the_catalogs_own_tails():
    v = _bikes()
    assert "pro" in v.name_tails and "vela" in v.brands
    p = parse_question("How heavy is the vela aero 5 Pro?", vocabulary=v)
    assert not any(type(c).__name__ == "ValueConstraint" for c in p.constraints)


def test_without_a_catalog_only_general_english_is_known():
    general = contextvars.Context().run(current)  # a fresh context: no vocabulary set
    assert general.categories.fullmatch("phones") is None
    assert general.features.search("phones with NFC") is None
    assert general.attributes.fullmatch("weight") is not None  # a measure of any physical thing
    p = contextvars.Context().run(parse_question, "Which phones weigh under 200 g?")
    assert not [e for e in p.entities if e.kind == "category"]


def test_the_vocabulary_in_use_is_scoped():
    v = _bikes()
    with use(v):
        assert current() is v
    assert current() is not v


def test_categories_by_meaning_need_an_embedder():
    def toy(texts):  # "handsets" sits next to "Mobile Phones", "cameras" does not
        table = {"Mobile Phones": [1, 0], "Tablets": [0, 1], "handsets": [0.9, 0.1], "cameras": [0.2, -0.9]}
        return np.asarray([table.get(t, [0.5, -0.5]) for t in texts], dtype=np.float32)

    v = QuestionVocabulary.of(categories=["Mobile Phones", "Tablets"], embed=toy)
    assert v.for_question("Which handsets have cameras?").is_category("handsets")
    assert not v.for_question("Which handsets have cameras?").is_category("cameras")
    assert (
        QuestionVocabulary.of(categories=["Mobile Phones"]).for_question("any handsets").is_category("handsets")
        is False
    )


def test_the_parser_holds_no_product_domain_words():
    """String literals of the parser modules (docstrings and comments aside) name no product,
    part, measure or technology of a domain: those come from the catalog."""
    domain = [
        "phone",
        "tablet",
        "laptop",
        "smartwatch",
        "snapdragon",
        "amoled",
        "nfc",
        "refresh",
        "battery",
        "camera",
        "selfie",
        "android",
        "television",
        "earbud",
        "chipset",
        "headphone",
        "bluetooth",
        "hdmi",
    ]
    found = []
    for f in sorted(f for d in READER for f in d.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        docs = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body and isinstance(n.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                docs.add(id(node.value))  # attribute docstrings
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                hits = [w for w in domain if re.search(rf"(?<![a-z]){w}", node.value.casefold())]
                if hits and not _is_message(tree, node):
                    found.append((f.name, node.lineno, hits))
    assert not found, found


def _is_message(tree: ast.AST, node: ast.Constant) -> bool:
    """A string inside an f-string is a message to people (a trace line), not a word list."""
    return any(isinstance(parent, ast.JoinedStr) and node in parent.values for parent in ast.walk(tree))


def _benches() -> QuestionVocabulary:
    """An invented shop whose category is broad and whose names say the kind: "Garden benches"
    holds "ORLA Corner bench", "ORLA 2-seat bench", ... and one "Corner table" elsewhere."""
    names = [
        "ORLA Corner bench, 120 cm",
        "TIVA Corner bench (301.22)",
        "ORLA 2-seat bench",
        "MOSS 2-seat bench, outdoor",
        "MOSS 3-seat bench",
        "TIVA Corner table",
        "Corner ORLA bench",  # the first word is the maker's: never a phrase of its own
        "ORLA Cover for 3-seat bench",  # a cover: the kind follows the first word
    ]
    ps = [
        Pattern("c1", "category", "", "", name="Garden benches"),
        Pattern("c2", "category", "", "", name="Tables"),
        *(Pattern(f"p{i}", "product", "", "", name=n) for i, n in enumerate(names)),
    ]
    return QuestionVocabulary.from_patterns(ps)


def test_words_that_product_names_write_before_a_category_noun_are_a_name_phrase():
    v = _benches()
    assert {"corner bench", "2 seat bench"} <= v.name_phrases
    assert not {"3 seat bench", "corner table", "orla bench"} & v.name_phrases  # one name each; a maker's word
    assert v.name_phrase("corner", "benches") == "corner bench"
    assert v.name_phrase("2-seat", "benches") == "2 seat bench"
    assert v.name_phrase("3-seat", "benches") is None
    p = parse_question("Which corner benches cost under 500?", vocabulary=v)
    # one name mention, and the category word; "corner" is no maker
    assert [(e.phrase, e.kind) for e in p.entities] == [("corner benches", "phrase"), ("benches", "category")]
    p = parse_question("Which 2-seat benches are there?", vocabulary=v)
    assert ("2-seat benches", "phrase") in [(e.phrase, e.kind) for e in p.entities]
    # a word no two names write before the noun keeps the reading it had
    p = parse_question("Which orla benches are there?", vocabulary=v)
    assert ("orla", "brand") in [(e.phrase, e.kind) for e in p.entities]


def test_a_name_phrase_grounds_on_the_kind_names_state_after_their_first_word():
    from types import SimpleNamespace

    import pyoxigraph

    from dualgraph.query.ground.entities import EntityGrounder
    from dualgraph.query.read.model import EntityRef, Span

    names = [
        "ORLA Corner bench, 120 cm",
        "TIVA Corner bench (301.22)",
        "ORLA Corner bench-bed",  # a bench-bed
        "ORLA Cover for corner bench",  # a cover
        "MOSS 2-seat bench, outdoor",
        "MOSS 2 seat bench",
    ]
    products = [Pattern(f"p{i}", "product", "", "", name=n) for i, n in enumerate(names)]
    grounder = EntityGrounder(SimpleNamespace(by_kind={"product": products}))
    trace: list[str] = []
    for phrase, want in [("corner benches", names[:2]), ("2-seat benches", names[4:])]:
        g = grounder._name_kind(EntityRef(Span(6, 6 + len(phrase), phrase), phrase, "phrase"), trace)
        assert g is not None and g.name_filter and [n for n, _ in g.candidates] == want, trace
        # the filter the store runs selects the same names (Oxigraph's regular expressions)
        store = pyoxigraph.Store()
        rows = store.query(
            "SELECT ?name WHERE { VALUES ?name { " + " ".join(f'"{n}"' for n in names) + " } "
            f"FILTER({g.name_filter}) }}"
        )
        assert sorted(str(r["name"].value) for r in rows) == sorted(want)
    assert grounder._name_kind(EntityRef(Span(0, 10, "bench-beds"), "bench-beds", "phrase"), []) is None

    # a category word that is a part of its category's name: the names whose kind ends in it
    _, hits = grounder._kind_names(["benches"], whole=False)
    assert hits == [names[0], names[1], names[4], names[5]]  # not the bench-bed, not the cover
