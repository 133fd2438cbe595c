"""Where accepted pairs go in the pattern index: aliases on the pattern of the node they name."""

from __future__ import annotations

from dualgraph.align.output import alignment_nquads, annotate
from dualgraph.lexicon.pattern import Pattern

PAIRS = [
    {"text_iri": "http://x/e-port", "text_name": "3.5 mm audio port", "skg_iri": "http://x/f-jack"},
    {"text_iri": "http://x/e-oled", "text_name": "OLED screen", "skg_iri": "http://x/v-amoled"},
    {"text_iri": "http://x/e-panel", "text_name": "panel kind", "skg_iri": "http://x/e-type"},
]


def _patterns() -> list[Pattern]:
    return [
        Pattern("f", "feature", "t", "", name="Headphone jack", feature_iri="http://x/f-jack", node_iri="http://x/f-jack"),
        Pattern(
            "v", "spec_value", "t", "", section="Display", entry="Type", entry_iri="http://x/e-type",
            values=[{"name": "AMOLED", "iri": "http://x/v-amoled", "count": 3}, {"name": "LCD", "iri": "http://x/v-lcd", "count": 2}],
        ),
        Pattern("p", "product", "t", "", name="Phone", node_iri="http://x/f-jack"),
        Pattern("n", "spec_numeric", "t", "", entry="Capacity", entry_iri="http://x/e-cap"),
    ]  # fmt: skip


def test_aliases_go_to_the_node_they_name():
    out, changed = annotate(_patterns(), PAIRS)
    f, v, p, n = out
    assert f.aliases == ["3.5 mm audio port"] and f.aligned == ["http://x/e-port"]
    # a value's link stays on the value: the entry's other values and the entry itself do not take it
    amoled, lcd = v.values
    assert amoled["aliases"] == ["OLED screen"] and amoled["aligned"] == ["http://x/e-oled"]
    assert "aliases" not in lcd
    assert v.aliases == ["panel kind"] and v.aligned == ["http://x/e-panel"]
    assert "OLED screen" in v.lexical_text and "panel kind" in v.lexical_text
    assert p.aliases == [] and n.aliases == []  # products are linked by name at index time
    assert changed == 2


def test_annotating_again_replaces_rather_than_adds():
    once, _ = annotate(_patterns(), PAIRS)
    twice, _ = annotate(once, PAIRS[:1])
    assert twice[0].aliases == ["3.5 mm audio port"]
    assert twice[1].aliases == [] and "aliases" not in twice[1].values[0]
    # the input patterns are not changed
    assert _patterns()[0].aliases == [] and once[1].values[0]["aliases"] == ["OLED screen"]


def test_old_patterns_without_alias_fields_still_load():
    data = _patterns()[0].to_dict()
    del data["aliases"], data["aligned"]
    assert Pattern.from_dict(data).aliases == []


def test_nquads_per_pair():
    lines = alignment_nquads([{**PAIRS[0], "score": 0.8123456, "judge": "llm"}])
    assert any('"0.8123"' in line for line in lines) and any('"llm"' in line for line in lines)
    assert all(line.endswith("<https://w3id.org/dualgraph/graph/alignment> .\n") for line in lines)
