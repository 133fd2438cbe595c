"""Batched LLM summaries of merged descriptions, with a scripted stand-in for the model
(the real server is exercised in tests/integration/test_llm_index.py)."""

from dualgraph.models.base import ChatResult
from dualgraph.tkg.merge import extract_description
from dualgraph.tkg.model import Mention
from dualgraph.tkg.summarise import merge_with_summaries


class Scripted:
    name = "scripted"

    def __init__(self, fail: bool = False):
        self.fail, self.requests = fail, []

    def complete(self, requests):
        self.requests.extend(requests)
        if self.fail:
            return [ChatResult(text="", error="HTTP 500") for _ in requests]
        return [
            ChatResult(text="", parsed={"description": f"summary of {len(r.messages[1]['content'])} chars"})
            for r in requests
        ]


LONG = [
    Mention("Speakers", f"The phone has speaker feature number {i} with a long explanation.", f"c{i}")
    for i in range(20)
]
SHORT = [Mention("IP68", "Dust and water resistant.", "c1")]


def test_only_entities_over_the_bound_are_summarised_in_one_batch():
    llm = Scripted()
    entities = {e.name: e for e in merge_with_summaries(LONG + SHORT, llm, max_description_tokens=30)}
    assert len(llm.requests) == 1 and "Speakers" in llm.requests[0].messages[1]["content"]
    assert entities["Speakers"].description.startswith("summary of")
    assert entities["IP68"].description == "Dust and water resistant."
    assert llm.requests[0].prompt_version == "summarise_entity.v1" and llm.requests[0].schema


def test_a_failed_summary_keeps_the_extractive_description():
    entities = {e.name: e for e in merge_with_summaries(LONG, Scripted(fail=True), max_description_tokens=30)}
    assert entities["Speakers"].description == extract_description([m.description for m in LONG], max_tokens=30)
