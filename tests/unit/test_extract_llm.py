"""The LLM extractor's contract, driven by a scripted in-process model.

The fake below implements the ``LLM`` protocol and replays recorded answers (valid JSON,
broken JSON, a transport error ...), so these tests check prompting, parsing and
reporting without a server. The test against a real OpenAI-compatible server lives with
the backend's integration tests, not here.
"""

from __future__ import annotations

import json

import pytest

from dualgraph.models.base import LLM, ChatRequest, ChatResult
from dualgraph.tkg.extract_llm import DEFAULT_PROMPT, ExtractionReport, LLMExtractor, load_prompt
from dualgraph.tkg.model import Chunk, Mention


class ScriptedLLM:
    """Answers each request with the recorded result whose key occurs in the user message."""

    name = "scripted"

    def __init__(self, script: dict[str, ChatResult], *, raises: Exception | None = None, short: bool = False):
        self.script = script
        self.raises = raises
        self.short = short
        self.calls: list[list[ChatRequest]] = []

    def complete(self, requests: list[ChatRequest]) -> list[ChatResult]:
        self.calls.append(list(requests))
        if self.raises:
            raise self.raises
        out = []
        for req in requests:
            user = req.messages[-1]["content"]
            out.append(next((r for key, r in self.script.items() if key in user), ChatResult(text='{"entities": []}')))
        return out[:-1] if self.short else out


def ok(*items: tuple[str, str], **kw) -> ChatResult:
    return ChatResult(text=json.dumps({"entities": [{"name": n, "description": d} for n, d in items]}), **kw)


CHUNKS = [
    Chunk("p#a", "p", "The S Pen clicks into the Galaxy S24 Ultra.", "Feature", 0, ("Galaxy S24 Ultra",)),
    Chunk("p#b", "p", "Rated IP68 against dust and water.", "Feature", 1, ("Galaxy S24 Ultra",)),
    Chunk("p#c", "p", "Stereo speakers tuned by AKG.", "Feature", 2, ("Galaxy S24 Ultra",)),
]


def test_the_fake_is_an_llm():
    assert isinstance(ScriptedLLM({}), LLM)


def test_valid_answers_become_mentions_in_chunk_order():
    llm = ScriptedLLM(
        {
            "S Pen": ok(("S Pen", "A stylus that clicks into the phone."), ("Galaxy S24 Ultra", "The phone.")),
            "IP68": ok(("IP68", "Dust and water rating.")),
            "Stereo": ok(("stereo speakers", "Speakers tuned by AKG."), ("AKG", "Tuned the speakers.")),
        }
    )
    report = LLMExtractor(llm).extract(CHUNKS)
    assert [(m.chunk_id, m.name) for m in report.mentions] == [
        ("p#a", "S Pen"),
        ("p#a", "Galaxy S24 Ultra"),
        ("p#b", "IP68"),
        ("p#c", "stereo speakers"),
        ("p#c", "AKG"),
    ]
    assert report.problems == []
    assert report.counts["llm"]["chunks"] == 3 and report.counts["llm"]["answered"] == 3
    assert report.counts["llm"]["mentions"] == 5


def test_requests_carry_schema_version_and_chunk():
    llm = ScriptedLLM({})
    ex = LLMExtractor(llm, max_entities=7)
    ex.extract(CHUNKS[:1])
    (req,) = llm.calls[0]
    assert req.prompt_version == "extract_entities.v1" == DEFAULT_PROMPT.stem
    assert req.stage == "tkg.extract" and req.temperature == 0.0
    items = req.schema["properties"]["entities"]
    assert items["maxItems"] == 7
    assert items["items"]["properties"]["name"]["maxLength"] == 80
    assert items["items"]["properties"]["description"]["maxLength"] == 400
    user = req.messages[-1]["content"]
    assert CHUNKS[0].text in user and "Galaxy S24 Ultra" in user and "Feature" in user
    assert "at most 7 entities" in req.messages[0]["content"]
    assert "{chunk}" not in user and "{max_entities}" not in req.messages[0]["content"]


def test_braces_in_the_chunk_are_not_placeholders():
    chunk = Chunk("x", "d", "Template {section} and {chunk} literally.", "Real section")
    req = LLMExtractor(ScriptedLLM({})).request(chunk)
    assert "Template {section} and {chunk} literally." in req.messages[-1]["content"]


def test_batches_of_batch_size():
    llm = ScriptedLLM({})
    LLMExtractor(llm, batch_size=2).extract(CHUNKS)
    assert [len(c) for c in llm.calls] == [2, 1]


def test_error_and_broken_json_are_reported_not_dropped():
    llm = ScriptedLLM(
        {
            "S Pen": ChatResult(text="", error="HTTP 503 after 3 attempts", attempts=3),
            "IP68": ChatResult(text="I could not find any entities, sorry."),
            "Stereo": ok(("stereo speakers", "Speakers tuned by AKG.")),
        }
    )
    report = LLMExtractor(llm).extract(CHUNKS)
    assert [p.chunk_id for p in report.problems] == ["p#a", "p#b"]
    assert "HTTP 503" in report.problems[0].error
    assert "unreadable" in report.problems[1].error
    assert [m.name for m in report.mentions] == ["stereo speakers"]
    assert report.counts["llm"]["failed"] == 2


def test_wrong_shape_is_reported():
    report = LLMExtractor(ScriptedLLM({"S Pen": ChatResult(text='{"names": "S Pen"}')})).extract(CHUNKS[:1])
    assert len(report.problems) == 1 and "not an entity list" in report.problems[0].error


def test_fenced_and_repairable_json_is_read():
    text = 'Here you go:\n```json\n{"entities": [{"name": "IP68", "description": "Rating.",},]}\n```'
    report = LLMExtractor(ScriptedLLM({"IP68": ChatResult(text=text)})).extract(CHUNKS[1:2])
    assert [m.name for m in report.mentions] == ["IP68"] and report.problems == []


def test_parsed_answer_and_bare_list_and_reference_keys():
    llm = ScriptedLLM(
        {
            "S Pen": ChatResult(text="ignored", parsed={"entities": [{"name": "S Pen", "description": "Stylus."}]}),
            "IP68": ChatResult(text=json.dumps([{"entity_name": "IP68", "entity_description": "Rating."}])),
        }
    )
    report = LLMExtractor(llm).extract(CHUNKS[:2])
    assert [m.name for m in report.mentions] == ["S Pen", "IP68"]


def test_items_are_cleaned_bounded_and_deduplicated():
    long_desc = "word " * 200
    llm = ScriptedLLM(
        {
            "S Pen": ok(
                ("  S   Pen ", "A stylus."),
                ("s-pen", "Again."),
                ("", "No name."),
                ("Empty", ""),
                ("Long", long_desc),
                ("x" * 81, "Too long a name."),
            )
        }
    )
    llm.script["S Pen"].text = llm.script["S Pen"].text[:-2] + ', 42, {"name": 5, "description": "n"}]}'
    report = LLMExtractor(llm).extract(CHUNKS[:1])
    names = [m.name for m in report.mentions]
    assert names == ["S Pen", "Long"]
    assert len(report.mentions[1].description) <= 400 and report.mentions[1].description.endswith("…")
    c = report.counts["llm"]
    assert c["duplicates"] == 1 and c["dropped_items"] == 5


def test_over_limit_is_cut_and_counted():
    items = [(f"Feature {i}", "A feature.") for i in range(5)]
    report = LLMExtractor(ScriptedLLM({"S Pen": ok(*items)}), max_entities=3).extract(CHUNKS[:1])
    assert len(report.mentions) == 3 and report.counts["llm"]["over_limit"] == 2


def test_backend_that_raises_or_returns_too_few():
    report = LLMExtractor(ScriptedLLM({}, raises=TimeoutError("read timed out"))).extract(CHUNKS)
    assert [p.chunk_id for p in report.problems] == ["p#a", "p#b", "p#c"]
    assert "TimeoutError" in report.problems[0].error
    report = LLMExtractor(ScriptedLLM({}, short=True)).extract(CHUNKS)
    assert [p.chunk_id for p in report.problems] == ["p#c"]


def test_usage_and_cut_off_answers_are_counted():
    llm = ScriptedLLM(
        {
            "S Pen": ChatResult(
                text='{"entities": [{"name": "S Pen", "description": "Sty',
                finish_reason="length",
                prompt_tokens=100,
                completion_tokens=50,
                cached=True,
            )
        }
    )
    report = LLMExtractor(llm).extract(CHUNKS[:1])
    c = report.counts["llm"]
    assert c["prompt_tokens"] == 100 and c["completion_tokens"] == 50 and c["cached"] == 1
    assert c["cut_off_answers"] == 1
    assert [m.name for m in report.mentions] == ["S Pen"]


def test_versioned_prompt_file(tmp_path):
    system, user = load_prompt(DEFAULT_PROMPT)
    assert "{max_entities}" in system and "{chunk}" in user and "{products}" in user
    v2 = tmp_path / "extract_entities.v2.md"
    v2.write_text("## user\nList entities of: {chunk}\n", encoding="utf-8")
    ex = LLMExtractor(ScriptedLLM({}), prompt_path=v2)
    req = ex.request(CHUNKS[0])
    assert req.prompt_version == "extract_entities.v2" and len(req.messages) == 1
    bad = tmp_path / "bad.v1.md"
    bad.write_text("## system\nno user part\n", encoding="utf-8")
    with pytest.raises(ValueError):
        LLMExtractor(ScriptedLLM({}), prompt_path=bad)


def test_reports_merge_per_extractor():
    a = ExtractionReport.of("heuristic", [Mention("IP68", "Rating.", "c1")], chunks=1)
    b = LLMExtractor(ScriptedLLM({"IP68": ok(("IP68", "Rating."))})).extract(CHUNKS[1:2])
    both = a.merged(b)
    assert len(both.mentions) == 2
    assert both.counts["heuristic"] == {"chunks": 1, "mentions": 1}
    assert both.counts["llm"]["mentions"] == 1
