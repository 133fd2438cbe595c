"""The aligner's judge: features, the calibrated rule, the LLM verdicts and how they combine."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dualgraph.align.judge import (
    FEATURES,
    SCHEMA,
    JudgePair,
    LLMJudge,
    RuleJudge,
    Verdict,
    cooccurrence,
    features,
    judge_candidates,
    name_similarity,
)
from dualgraph.models.base import ChatRequest, ChatResult

# -- features ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "low", "high"),
    [
        ("3.5 mm audio port", "Headphone jack", 0.0, 0.1),
        ("Wi-Fi 6E", "wifi 6e", 0.9, 1.0),
        ("NFC", "nfc", 1.0, 1.0),
        ("Display type", "Type display", 1.0, 1.0),  # word order does not matter to the word part
        ("Battery capacity", "Battery", 0.3, 0.8),
        ("Bluetooth", "Bluetoth", 0.5, 0.9),  # a typo keeps most trigrams
        ("", "anything", 0.0, 0.0),
        ("", "", 0.0, 0.0),
        ("Ｗｉ‑Ｆｉ", "wi-fi", 1.0, 1.0),  # full-width letters and a non-breaking hyphen
    ],
)
def test_name_similarity(a, b, low, high):
    s = name_similarity(a, b)
    assert low <= s <= high
    assert s == name_similarity(b, a)


def test_cooccurrence_and_feature_row():
    assert cooccurrence({"a", "b"}, {"b", "c"}) == pytest.approx(1 / 3)
    assert cooccurrence(set(), set()) == 0.0
    row = features(0.7, {"a"}, {"a"}, "Weight", "weight")
    assert row.shape == (len(FEATURES),) and row.tolist() == [0.7, 1.0, 1.0]


# -- the rule ---------------------------------------------------------------------------------


def separable(rng: np.random.Generator, n_pos: int, n_neg: int) -> tuple[np.ndarray, np.ndarray]:
    pos = np.column_stack([rng.uniform(0.75, 1.0, n_pos), rng.uniform(0.2, 1.0, n_pos), rng.uniform(0.3, 1.0, n_pos)])
    neg = np.column_stack([rng.uniform(0.0, 0.65, n_neg), rng.uniform(0.0, 0.15, n_neg), rng.uniform(0.0, 0.25, n_neg)])
    return pos, neg


def test_fit_reaches_the_target_and_predicts_held_out_pairs():
    rng = np.random.default_rng(0)
    pos, neg = separable(rng, 60, 300)  # imbalanced: the class weights balance it
    judge = RuleJudge.fit(pos, neg, target_precision=0.95)
    assert judge.reached and judge.calibrated_on == "fit"
    assert judge.precision is not None and judge.precision >= 0.95
    assert judge.recall is not None and judge.recall > 0.9
    assert (judge.n_pos, judge.n_neg) == (60, 300)
    assert judge.weights.shape == (3,) and judge.weights[0] > 0
    test_pos, test_neg = separable(np.random.default_rng(1), 50, 50)
    assert judge.accept(test_pos).mean() > 0.9
    assert judge.accept(test_neg).mean() < 0.05
    p = judge.probability(np.vstack([test_pos, test_neg]))
    assert p.shape == (100,) and np.all((p >= 0) & (p <= 1))
    # the same threshold rule as accept, on one row as well as on many
    assert judge.accept(test_pos[0]).shape == (1,)


def test_the_lowest_threshold_meeting_the_target_is_chosen():
    rng = np.random.default_rng(2)
    pos, neg = separable(rng, 40, 40)
    # overlapping classes: precision rises with the threshold
    neg = np.vstack([neg, pos[:10] - 0.02])
    judge = RuleJudge.fit(pos, neg, target_precision=0.8)
    assert judge.reached and judge.precision is not None and judge.precision >= 0.8
    p_pos, p_neg = judge.probability(pos), judge.probability(neg)
    cuts = np.unique(np.concatenate([p_pos, p_neg]))
    lower = cuts[cuts < judge.threshold]
    for t in lower:  # every lower threshold misses the target
        tp, fp = (p_pos >= t).sum(), (p_neg >= t).sum()
        assert tp / (tp + fp) < 0.8


def test_validation_data_calibrates_the_threshold():
    rng = np.random.default_rng(3)
    pos, neg = separable(rng, 40, 40)
    val_pos, val_neg = separable(np.random.default_rng(4), 30, 30)
    judge = RuleJudge.fit(pos, neg, val_pos=val_pos, val_neg=val_neg, target_precision=0.9)
    assert judge.calibrated_on == "validation" and judge.reached
    tp = judge.accept(val_pos).sum()
    fp = judge.accept(val_neg).sum()
    assert judge.precision == pytest.approx(tp / (tp + fp))
    assert judge.recall == pytest.approx(tp / 30)
    with pytest.raises(ValueError, match="both"):
        RuleJudge.fit(pos, neg, val_pos=val_pos)


def test_an_unreachable_target_falls_back_to_the_best_f1():
    rng = np.random.default_rng(5)
    # the same distribution on both sides: no threshold gives 99% precision
    pos = rng.uniform(0, 1, (80, 3))
    neg = rng.uniform(0, 1, (80, 3))
    judge = RuleJudge.fit(pos, neg, target_precision=0.99)
    assert not judge.reached
    p_pos, p_neg = judge.probability(pos), judge.probability(neg)

    def f1(t: float) -> float:
        tp, fp = (p_pos >= t).sum(), (p_neg >= t).sum()
        if tp == 0:
            return 0.0
        precision, recall = tp / (tp + fp), tp / len(pos)
        return 2 * precision * recall / (precision + recall)

    best = max(f1(t) for t in np.concatenate([p_pos, p_neg]))
    assert f1(judge.threshold) == pytest.approx(best)
    assert judge.precision is not None and judge.precision < 0.99


def test_fit_refuses_missing_classes():
    with pytest.raises(ValueError, match="default"):
        RuleJudge.fit(np.zeros((0, 3)), np.ones((4, 3)))
    with pytest.raises(ValueError, match="columns"):
        RuleJudge.fit(np.zeros((4, 2)), np.ones((4, 2)))


def test_save_load_round_trip(tmp_path):
    rng = np.random.default_rng(6)
    judge = RuleJudge.fit(*separable(rng, 30, 30))
    path = tmp_path / "rule.json"
    judge.save(path)
    data = json.loads(path.read_text())
    assert data["features"] == list(FEATURES) and data["calibrated_on"] == "fit"
    back = RuleJudge.load(path)
    assert back.to_dict() == judge.to_dict()
    x = rng.uniform(0, 1, (50, 3))
    np.testing.assert_array_equal(back.probability(x), judge.probability(x))
    with pytest.raises(ValueError, match="features"):
        RuleJudge.from_dict({**data, "features": ["cosine", "name"]})


def test_default_needs_high_cosine_and_some_support():
    judge = RuleJudge.default()
    assert judge.calibrated_on == "none" and judge.precision is None and not judge.reached
    assert not judge.accept([1.0, 0.0, 0.0])[0]  # cosine alone is not enough
    assert not judge.accept([0.4, 1.0, 1.0])[0]  # nor are names and products without the cosine
    assert judge.accept([0.92, 0.1, 0.5])[0]
    assert judge.accept([0.8, 0.5, 0.5])[0]
    assert RuleJudge.from_dict(judge.to_dict()).to_dict() == judge.to_dict()


def test_fit_or_default():
    rng = np.random.default_rng(7)
    pos, neg = separable(rng, 9, 30)
    assert RuleJudge.fit_or_default(pos, neg).calibrated_on == "none"
    pos, neg = separable(rng, 10, 30)
    assert RuleJudge.fit_or_default(pos, neg, target_precision=0.9).calibrated_on == "fit"


# -- the LLM judge ----------------------------------------------------------------------------


class FakeLLM:
    """Answers from a script keyed by the text entity's name; records every request."""

    name = "fake"

    def __init__(self, answers: dict[str, ChatResult]) -> None:
        self.answers = answers
        self.calls: list[list[ChatRequest]] = []

    def complete(self, requests: list[ChatRequest]) -> list[ChatResult]:
        self.calls.append(list(requests))
        out = []
        for r in requests:
            user = r.messages[-1]["content"]
            key = next(k for k in self.answers if f"name: {k}\n" in user)
            out.append(self.answers[key])
        return out


PAIRS = [
    JudgePair("headphone jack", "A 3.5 mm jack for wired headphones.", "Audio › 3.5 mm jack", "values: yes, no"),
    JudgePair("fast charging", "Charges to 50% in 30 minutes.", "Battery › Capacity", "values: 4000 mAh, 5000 mAh"),
    JudgePair("screen", "A 6.1-inch OLED display.", "Display › Type", "values: OLED, LCD"),
    JudgePair("stylus", "", "Input › Stylus", ""),
]


def scripted() -> FakeLLM:
    return FakeLLM(
        {
            "headphone jack": ChatResult(
                text='{"same": true, "confidence": 0.9}', parsed={"same": True, "confidence": 0.9}
            ),
            "fast charging": ChatResult(text='{"same": false}', parsed={"same": False}),
            "screen": ChatResult(text="", error="the answer was cut off"),
            "stylus": ChatResult(text='{"same": "yes"}', parsed={"same": "yes", "confidence": 85}),
        }
    )


def test_llm_judge_maps_every_result():
    llm = scripted()
    verdicts = LLMJudge(llm, batch=3).judge(PAIRS)
    assert verdicts == [
        Verdict(True, 0.9, None),
        Verdict(False, 0.5, None),  # no confidence given
        Verdict(None, 0.0, "the answer was cut off"),
        Verdict(None, 0.0, "'same' is not a boolean: 'yes'"),
    ]
    assert [len(c) for c in llm.calls] == [3, 1]  # batches of 3 requests, one per pair


def test_llm_requests_carry_both_sides_and_the_schema():
    llm = scripted()
    judge = LLMJudge(llm, max_tokens=48)
    judge.judge(PAIRS[:2])
    (requests,) = llm.calls
    for pair, request in zip(PAIRS, requests):
        assert request.schema == SCHEMA
        assert request.schema["required"] == ["same"]
        assert request.stage == "align_judge" and request.max_tokens == 48 and request.temperature == 0.0
        assert request.prompt_version == judge.prompt_version == "align_judge.v1"
        assert request.messages[0]["role"] == "system" and request.messages[-1]["role"] == "user"
        user = request.messages[-1]["content"]
        for text in (pair.text_name, pair.text_description, pair.skg_name, pair.skg_description):
            assert text in user
        assert "{" not in user  # every placeholder filled


def test_llm_judge_confidence_is_clipped_and_missing_results_are_errors():
    class Short:
        name = "short"

        def complete(self, requests):
            return [ChatResult(text="", parsed={"same": True, "confidence": 85})]  # one result for two requests

    verdicts = LLMJudge(Short()).judge(PAIRS[:2])
    assert verdicts[0] == Verdict(True, 0.85, None)
    assert verdicts[1].same is None and verdicts[1].error


def test_llm_judge_prompt_needs_a_version(tmp_path):
    bad = tmp_path / "judge.txt"
    bad.write_text("## system\nx\n## user\n{skg_description}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="version"):
        LLMJudge(scripted(), prompt_path=bad)


# -- combining --------------------------------------------------------------------------------


def test_judge_candidates_rule_only():
    rule = RuleJudge(weights=np.array([10.0, 0.0, 0.0]), bias=-8.0, threshold=0.5)  # accepts cosine ≥ 0.8
    x = np.array([[0.9, 0, 0], [0.5, 0, 0]])
    out = judge_candidates(x, rule=rule)
    assert [(d.accepted, d.how) for d in out] == [(True, "rule"), (False, "rule")]
    accepted, score, how = out[0]  # a plain tuple too
    assert (accepted, how) == (True, "rule")
    assert score == pytest.approx(rule.probability(x[:1])[0])


def test_judge_candidates_asks_the_llm_only_within_the_band():
    # probability = σ(10·cosine − 8): 0.5 at cosine 0.8, ≥ 0.3 from cosine ~0.715
    rule = RuleJudge(weights=np.array([10.0, 0.0, 0.0]), bias=-8.0, threshold=0.5)
    x = np.array(
        [
            [0.95, 0, 0],  # rule accepts; the LLM says same → accepted by the LLM
            [0.90, 0, 0],  # rule accepts; the LLM says not same → vetoed
            [0.78, 0, 0],  # just below the threshold, in the band; the LLM's answer fails → the rule's no
            [0.75, 0, 0],  # in the band; the LLM says same → rescued
            [0.30, 0, 0],  # far below: never asked
        ]
    )
    pairs = [
        JudgePair("a", "", "A", ""),
        JudgePair("b", "", "B", ""),
        JudgePair("c", "", "C", ""),
        JudgePair("d", "", "D", ""),
        JudgePair("e", "", "E", ""),
    ]
    yes = ChatResult(text="", parsed={"same": True, "confidence": 1.0})
    no = ChatResult(text="", parsed={"same": False, "confidence": 1.0})
    llm = FakeLLM({"a": yes, "b": no, "c": ChatResult(text="", error="HTTP 500"), "d": yes, "e": yes})
    out = judge_candidates(x, rule=rule, llm_judge=LLMJudge(llm), pairs=pairs, band=0.2)
    assert [(d.accepted, d.how) for d in out] == [
        (True, "llm"),
        (False, "llm"),
        (False, "rule-fallback"),
        (True, "llm"),
        (False, "rule"),
    ]
    asked = [r.messages[-1]["content"] for call in llm.calls for r in call]
    assert len(asked) == 4 and not any("name: e\n" in u for u in asked)
    # a failed verdict on a pair the rule accepts keeps the rule's yes
    llm_fail = FakeLLM({"a": ChatResult(text="", error="timeout"), "b": no, "c": no, "d": no, "e": no})
    out = judge_candidates(x[:1], rule=rule, llm_judge=LLMJudge(llm_fail), pairs=pairs[:1])
    assert [(d.accepted, d.how) for d in out] == [(True, "rule-fallback")]
    with pytest.raises(ValueError, match="JudgePair"):
        judge_candidates(x, rule=rule, llm_judge=LLMJudge(llm), pairs=pairs[:2])
