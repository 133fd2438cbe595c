"""parse_json_loose: the repairs small models need, and bounded time on hostile inputs."""

from __future__ import annotations

import contextlib
import json
import time

import pytest

from dualgraph.models.json_repair import parse_json_loose


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"a": 1}', {"a": 1}),
        ("[1, 2.5, -3e2, true, null]", [1, 2.5, -300.0, True, None]),
        ('"just a string"', "just a string"),
        # fences and prose
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ("Here you go:\n```\n[1, 2]\n```\nAnything else?", [1, 2]),
        ('The answer is {"a": {"b": [1]}} as requested.', {"a": {"b": [1]}}),
        ('Use [brackets] like this: {"a": 1}', {"a": 1}),
        ('{"a": 1} {"b": 2}', {"a": 1}),
        # trailing and doubled commas
        ('{"a": [1, 2,], "b": 3,}', {"a": [1, 2], "b": 3}),
        ("[1,,2]", [1, 2]),
        ("[,]", []),
        # Python literals
        ("{'ok': True, 'no': False, 'x': None}", {"ok": True, "no": False, "x": None}),
        # single quotes, carefully: apostrophes inside stay
        ("{'name': 'Bob's phone'}", {"name": "Bob's phone"}),
        ('{"name": "it\'s fine"}', {"name": "it's fine"}),
        ("['a', \"b 'c' d\"]", ["a", "b 'c' d"]),
        ("{'q': 'say \"hi\"'}", {"q": 'say "hi"'}),
        # unescaped inner double quotes
        ('{"title": "the "best" phone", "n": 1}', {"title": 'the "best" phone', "n": 1}),
        # unquoted keys
        ("{name: 'x', model_no: 2, $ref: 3, kebab-key: 4}", {"name": "x", "model_no": 2, "$ref": 3, "kebab-key": 4}),
        # missing commas between items
        ('{"a": 1 "b": 2}', {"a": 1, "b": 2}),
        ('["x" "y"]', ["x", "y"]),
        # mismatched closer closes the inner container
        ('{"a": [1, 2}', {"a": [1, 2]}),
        # comments
        ('{"a": 1, // the first\n "b": /* two */ 2}', {"a": 1, "b": 2}),
        # escapes
        (r'{"s": "line\nbreak \u00e9 \ud83d\ude00 \q"}', {"s": "line\nbreak é 😀 \\q"}),
    ],
)
def test_repairs(text, expected):
    assert parse_json_loose(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"items": ["x", "y", "tru', {"items": ["x", "y", "tru"]}),
        ('{"a": 1, "b": ', {"a": 1}),
        ('{"a": 1, "b', {"a": 1}),
        ('{"a": 1, "b": [1, 2', {"a": 1, "b": [1, 2]}),
        ('{"a": tr', {"a": True}),
        ('{"a": nul', {"a": None}),
        ("[1.", [1.0]),
        ("[1e", [1]),
        ('[{"a": {"b": {"c": "deep', [{"a": {"b": {"c": "deep"}}}]),
        ('```json\n{"a": [1, 2', {"a": [1, 2]}),
        ('{"a": "x\\', {"a": "x\\"}),
    ],
)
def test_truncated_output_is_closed(text, expected):
    assert parse_json_loose(text) == expected


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("no json at all", "no JSON"),
        ("Answer: 42", "no JSON"),
        ('{"a": @}', "unexpected"),
        ('{"a": yes}', "unexpected word"),
        ("{1: 2}", "expected a key"),
        ('{"a" 1}', "expected ':'"),
        ("[-]", "sign without digits"),
        ("[" * 100_000, "nested too deep"),
    ],
)
def test_hopeless_input_raises_with_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse_json_loose(text)


def test_non_string_is_rejected():
    with pytest.raises(ValueError, match="expected str"):
        parse_json_loose(b"{}")  # type: ignore[arg-type]


def test_valid_json_is_unchanged():
    value = {"a": [1, {"b": "c'd\"e"}], "n": -0.5, "u": "ü", "e": [], "o": {}}
    assert parse_json_loose(json.dumps(value)) == value
    assert parse_json_loose(json.dumps(value, indent=2)) == value


def test_deterministic():
    text = "Sure: {a: 'b's', c: [1, 2,, True"
    assert parse_json_loose(text) == parse_json_loose(text) == {"a": "b's", "c": [1, 2, True]}


ADVERSARIAL = [
    "[" * 200_000,
    "{" * 200_000,
    '{"a":' * 50_000,
    '"' * 200_000,
    "'" * 200_000,
    "[" + '"x" ' * 100_000,
    "{" + "a" * 300_000,
    "[" + "1," * 200_000,
    '["' + "\\" * 300_000,
    "[" + "'a' " * 50_000 + "]",
    "{" + "'k': 'v" + " '" * 100_000 + "}",
    "{[" * 100_000,
    "[1e" + "9" * 10_000 + "]",
    "[" + "9" * 10_000 + "]",
    "x" * 300_000 + "{",
    "{} " * 100_000,
    "[ " + " " * 300_000 + "/*" + "*" * 100_000,
    "]" * 100_000 + "[1]",
    '["a"true' * 30_000,  # every string would run to the end after a kept quote
    "{" * 1_999 + "[]" * 100_000,  # closers deep in a stack
    "[" * 1_999 + "{}" * 100_000,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=[f"adv{i}" for i in range(len(ADVERSARIAL))])
def test_adversarial_inputs_finish_quickly(text):
    """Either a value or a ValueError, never a hang, RecursionError or other exception."""
    t0 = time.perf_counter()
    with contextlib.suppress(ValueError):
        parse_json_loose(text)
    assert time.perf_counter() - t0 < 3.0, "parsing must stay linear in the input"
