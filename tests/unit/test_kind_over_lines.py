"""Words of a line's name said without its maker name a kind when more product names state that
kind than the lines hold (dualgraph.query.ground.entities.EntityGrounder._kind_over_lines).

An invented shop: two makers sell a line each called "Desk lamp", a third sells desk lamps
outside any line. "desk lamp" asks for all of them; the lines are the runner-up reading.
"""

from types import SimpleNamespace

from dualgraph.lexicon.pattern import Pattern
from dualgraph.query.ground.entities import EntityGrounder
from dualgraph.query.read.model import EntityRef, Span

NAMES = [
    "ORBO Desk lamp, 40 cm",
    "ORBO Desk lamp, 55 cm",
    "VELT Desk lamp (102.3)",
    "MIRA Desk lamp",  # no line holds it
    "MIRA Floor lamp",
    "ORBO Lamp shade",
]
LINES = {"desklamp": [("http://x/line-orbo", "Desk lamp", 2), ("http://x/line-velt", "Desk lamp", 1)]}


def _grounder(lines: dict) -> EntityGrounder:
    products = [Pattern(f"p{i}", "product", "", "", name=n) for i, n in enumerate(NAMES)]
    g = EntityGrounder(SimpleNamespace(by_kind={"product": products}))
    g._scopes = {("line", key): hits for key, hits in lines.items()}  # the lines the catalog facts name
    return g


def _ref(phrase: str) -> EntityRef:
    return EntityRef(Span(6, 6 + len(phrase), phrase), phrase, "unknown")


def test_a_line_name_said_alone_is_the_kind_when_more_names_state_it():
    trace: list[str] = []
    g = _grounder(LINES)._line(_ref("desk lamp"), ["desk", "lamp"], trace)
    assert g is not None and g.kind == "name-word" and g.name_filter, trace
    assert sorted(n for n, _ in g.candidates) == sorted(NAMES[:4])
    # the lines stay as the runner-up reading, for the beam to try when the kind finds nothing
    assert [a.kind for a in g.alternatives] == ["line"]
    assert "http://x/line-orbo" in g.alternatives[0].snippet


def test_a_line_whose_name_no_product_states_as_its_kind_stays_a_line():
    lines = {"orbis": [("http://x/line-orbis", "Orbis", 2)]}
    g = _grounder(lines)._line(_ref("orbis"), ["orbis"], [])
    assert g is not None and g.kind == "line" and not g.alternatives


def test_lines_that_hold_every_product_of_the_kind_stay_lines():
    lines = {"desklamp": [("http://x/line-all", "Desk lamp", 4)]}
    g = _grounder(lines)._line(_ref("desk lamp"), ["desk", "lamp"], [])
    assert g is not None and g.kind == "line"
