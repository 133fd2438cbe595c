"""Answer text from templates, and the requests the LLM writer makes (``dualgraph.answer.writer``).

Templates must never squeeze a list into one sentence: every product is its own line.
"""

from __future__ import annotations

from dualgraph.answer.writer import WRITER_PROMPT_VERSION, LLMWriter, template_text


def names(n: int) -> list[str]:
    return [f"Phone {i:02d} (8GB RAM + 128GB)" for i in range(1, n + 1)]


def test_a_list_of_35_names_renders_every_name_on_its_own_line():
    many = names(35)
    text = template_text("list", many, None, source="skg")
    lines = text.split("\n")
    assert lines[0] == "35 products match:"
    assert lines[1:] == [f"- {n}" for n in many]
    assert len(lines) == 36


def test_a_textual_list_says_where_it_comes_from_and_keeps_every_line():
    many = names(35)
    text = template_text("list", many, None, source="tkg", phrase="s pen")
    lines = text.split("\n")
    assert lines[0] == "From the product descriptions mentioning 's pen': 35 products match:"
    assert lines[1:] == [f"- {n}" for n in many]


def test_one_product_list_is_singular():
    assert template_text("list", ["Solo"], None, source="skg") == "1 product match:\n- Solo"


def test_empty_lists():
    assert template_text("list", [], None, source="skg") == "No product in the catalog matches."
    assert template_text("list", None, None, source="tkg") == "From the product descriptions: no product found."


def test_count_texts():
    assert template_text("count", None, 13, source="skg") == "13 products match."
    assert template_text("count", None, 12345, source="skg") == "12,345 products match."
    assert template_text("count", None, 4.0, source="skg") == "4 products match."
    # no value: the list's length
    assert template_text("count", ["A", "B"], None, source="skg") == "2 products match."
    assert (
        template_text("count", None, 3, source="tkg", phrase="7000 mah")
        == "From the product descriptions mentioning '7000 mah': 3 products match."
    )


def test_superlative_texts():
    assert template_text("superlative", ["A"], "A", source="skg") == "A."
    assert template_text("superlative", ["A", "B", "C"], "A", source="skg") == "A. Tied with: B; C."
    # a value question ("what is the lowest price ...") names the number, then its products
    assert template_text("superlative", ["Kappa S29"], 9999, source="skg") == "9,999. (Kappa S29)"
    assert template_text("compare", ["A", "B"], "B", source="skg") == "B. Tied with: A."
    # no winner: the list is written out
    assert template_text("superlative", ["A", "B"], None, source="skg") == "2 products match:\n- A\n- B"


def test_yes_no_texts():
    assert template_text("yesno", ["A"], "yes", source="skg") == "Yes."
    assert template_text("yesno", [], "no", source="skg") == "No."
    assert template_text("yesno", [], "no", source="tkg") == "From the product descriptions: No."


def test_describe_text():
    assert template_text("describe", ["A"], "A", source="skg") == "A."
    assert template_text("describe", ["A", "B"], ["A", "B"], source="skg") == "A; B."


def test_writer_requests_let_the_model_choose_only_from_the_texts_products():
    w = LLMWriter(llm=None, max_tokens=123, max_context_chars=50)
    reqs = w.requests(
        [
            {
                "question": "Which have an S Pen?",
                "context": "x" * 500,
                "answer_list": ["Tab A"],
                "value": None,
                "choose_from": ["Tab A", "Tab B"],
            },
            {"question": "How many?", "context": "", "answer_list": None, "value": 3},
        ]
    )
    assert len(reqs) == 2
    text_one, spec_one = reqs
    schema = text_one.schema
    assert schema["properties"]["answer_list"]["items"] == {"enum": ["Tab A", "Tab B"]}
    assert sorted(schema["required"]) == ["answer", "answer_list"] and schema["additionalProperties"] is False
    user = text_one.messages[-1]["content"]
    assert "x" * 50 in user and "x" * 51 not in user  # context cut to max_context_chars
    assert (text_one.max_tokens, text_one.temperature, text_one.stage, text_one.prompt_version) == (
        123,
        0.0,
        "answer",
        WRITER_PROMPT_VERSION,
    )
    # spec answers: the model writes text only, and is told when there is no context
    assert list(spec_one.schema["properties"]) == ["answer"]
    assert "(no context was found)" in spec_one.messages[-1]["content"]
    assert '"value": 3' in spec_one.messages[-1]["content"]


def test_writer_with_nothing_to_write_makes_no_call():
    class Refuses:
        def complete(self, requests):
            raise AssertionError("no call expected")

    assert LLMWriter(Refuses()).write([]) == []


def test_a_looked_up_value_comes_before_whose_it_is():
    assert template_text("describe", ["Arc Lamp"], "Ana Berg", source="skg") == "Ana Berg (Arc Lamp)."
    assert template_text("describe", ["Arc Lamp"], ["Steel", "Oak"], source="skg") == "Steel; Oak (Arc Lamp)."
    assert template_text("describe", ["Arc Lamp"], "Arc Lamp", source="skg") == "Arc Lamp."  # no lookup
