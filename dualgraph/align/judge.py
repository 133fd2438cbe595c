"""Which candidate pairs the aligner accepts: a calibrated rule, and optionally an LLM's verdict.

Each candidate (an SKG node, a TKG entity) is described by three features (:data:`FEATURES`):
the cosine of their projections, the Jaccard overlap of the products they belong to, and the
similarity of their names (:func:`name_similarity`). :class:`RuleJudge` is a logistic
regression over them with a probability threshold calibrated to a target precision on anchor
pairs; :class:`LLMJudge` asks a chat model whether the two denote the same product property;
:func:`judge_candidates` combines the two, sending to the LLM only the pairs worth its cost.
"""

from __future__ import annotations

import json
import math
import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from dualgraph.models.base import LLM, ChatRequest, ChatResult
from dualgraph.tkg.extract_llm import load_prompt

__all__ = [
    "DEFAULT_PROMPT",
    "FEATURES",
    "MIN_POSITIVES",
    "SCHEMA",
    "Decision",
    "JudgePair",
    "LLMJudge",
    "RuleJudge",
    "Verdict",
    "cooccurrence",
    "features",
    "judge_candidates",
    "name_similarity",
]

FEATURES = ("cosine", "cooccurrence", "name")
MIN_POSITIVES = 10
"""Fewer positive anchors than this and :meth:`RuleJudge.fit_or_default` keeps the default rule."""

DEFAULT_PROMPT = Path(__file__).with_name("prompts") / "judge.txt"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"same": {"type": "boolean"}, "confidence": {"type": "number"}},
    "required": ["same"],
}
STAGE = "align_judge"

# -- features ---------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")
# punctuation inside a word is dropped, not spaced: "Wi-Fi" reads as "wifi", "3.5" as "35"
_JOINER = re.compile(r"(?<=[^\W_])[-‐‑‒–.'’](?=[^\W_])")
_NON_WORD = re.compile(r"[\W_]+")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _jaccard(a: set, b: set) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def _trigrams(text: str) -> set[str]:
    norm = _NON_WORD.sub(" ", _JOINER.sub("", _fold(text))).strip()
    if not norm:
        return set()
    padded = f" {norm} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def name_similarity(a: str, b: str) -> float:
    """How alike two names read, in [0, 1]: the larger of the Jaccard overlap of their word
    tokens (casefolded, alphanumeric) and that of their character trigrams (on the casefolded
    name with punctuation inside words dropped and the rest turned to single spaces).

    Names only: synonyms that share no letters score low, which is why it is one feature
    among three. An empty name has no similarity to anything (0.0).

    >>> name_similarity("3.5 mm audio port", "Headphone jack")
    0.0
    >>> name_similarity("Wi-Fi 6E", "wifi 6e")
    1.0
    >>> round(name_similarity("Bluetooth version", "Bluetooth"), 2)
    0.53
    """
    words = _jaccard(set(_WORD.findall(_fold(a))), set(_WORD.findall(_fold(b))))
    grams = _jaccard(_trigrams(a), _trigrams(b))
    return max(words, grams)


def cooccurrence(a_products: set, b_products: set) -> float:
    """The Jaccard overlap of the products two nodes belong to (0.0 when either set is empty).

    >>> cooccurrence({"p1", "p2", "p3"}, {"p2", "p3", "p4"})
    0.5
    >>> cooccurrence(set(), {"p1"})
    0.0
    """
    return _jaccard(set(a_products), set(b_products))


def features(cosine: float, a_products: set, b_products: set, a_name: str, b_name: str) -> np.ndarray:
    """The feature row of one candidate pair, in the order of :data:`FEATURES`.

    >>> features(0.9, {"p1"}, {"p1", "p2"}, "NFC", "nfc").tolist()
    [0.9, 0.5, 1.0]
    """
    return np.array(
        [float(cosine), cooccurrence(a_products, b_products), name_similarity(a_name, b_name)], dtype=np.float64
    )


# -- the calibrated rule ----------------------------------------------------------------------


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # no overflow for large |z|


def _as_features(name: str, x: Any) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 1 and a.shape[0] == len(FEATURES):
        a = a[None, :]
    if a.ndim == 2 and a.shape[0] == 0:
        a = a.reshape(0, len(FEATURES))
    if a.ndim != 2 or a.shape[1] != len(FEATURES):
        raise ValueError(f"{name} must have {len(FEATURES)} columns {FEATURES}, not shape {np.shape(x)}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} holds NaN or infinite features")
    return a


def _logistic_irls(x: np.ndarray, y: np.ndarray, sample_weight: np.ndarray, l2: float) -> np.ndarray:
    """Weights then bias of a weighted, L2-penalised (bias excluded) logistic regression by Newton steps."""
    xa = np.hstack([x, np.ones((x.shape[0], 1))])
    penalty = np.full(xa.shape[1], float(l2))
    penalty[-1] = 1e-9  # the bias is not shrunk; the tiny ridge keeps the Hessian invertible
    beta = np.zeros(xa.shape[1])
    for _ in range(100):
        p = _sigmoid(xa @ beta)
        grad = xa.T @ (sample_weight * (p - y)) + penalty * beta
        hess = (xa * (sample_weight * p * (1.0 - p))[:, None]).T @ xa + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        beta = beta - step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return beta


def _choose_threshold(p_pos: np.ndarray, p_neg: np.ndarray, target: float) -> tuple[float, float, float, bool]:
    """``(threshold, precision, recall, reached)`` for accepting probabilities ``≥ threshold``.

    The lowest threshold (so the highest recall) whose precision reaches ``target``; when none
    does, the one with the best F1 (the lowest of equals)."""
    cuts = np.unique(np.concatenate([p_pos, p_neg]))  # ascending
    pos_sorted = np.sort(p_pos)
    neg_sorted = np.sort(p_neg)
    tp = (len(pos_sorted) - np.searchsorted(pos_sorted, cuts, side="left")).astype(np.float64)
    fp = (len(neg_sorted) - np.searchsorted(neg_sorted, cuts, side="left")).astype(np.float64)
    precision = np.divide(tp, tp + fp, out=np.zeros_like(tp), where=(tp + fp) > 0)
    recall = tp / max(len(pos_sorted), 1)
    ok = np.flatnonzero(precision >= target)
    if ok.size:
        i, reached = int(ok[0]), True
    else:
        f1 = np.divide(
            2 * precision * recall, precision + recall, out=np.zeros_like(tp), where=(precision + recall) > 0
        )
        i, reached = int(np.argmax(f1)), False
    return float(cuts[i]), float(precision[i]), float(recall[i]), reached


@dataclass(eq=False)
class RuleJudge:
    """A logistic rule over :data:`FEATURES`: ``probability = σ(features · weights + bias)``,
    accepted at ``probability ≥ threshold``.

    ``precision`` / ``recall`` are measured at that threshold on the data it was calibrated on
    (``calibrated_on``: ``"fit"`` the training anchors, ``"validation"`` held-out ones,
    ``"none"`` for :meth:`default`); ``reached`` says whether ``precision`` met
    ``target_precision``. ``n_pos`` / ``n_neg``: the anchor pairs it was fitted on.
    """

    weights: np.ndarray
    bias: float
    threshold: float
    precision: float | None = None
    recall: float | None = None
    n_pos: int = 0
    n_neg: int = 0
    reached: bool = False
    target_precision: float | None = None
    calibrated_on: str = "none"

    def __post_init__(self) -> None:
        self.weights = np.asarray(self.weights, dtype=np.float64).reshape(len(FEATURES))

    @classmethod
    def fit(
        cls,
        pos: np.ndarray,
        neg: np.ndarray,
        *,
        target_precision: float = 0.9,
        l2: float = 1.0,
        val_pos: np.ndarray | None = None,
        val_neg: np.ndarray | None = None,
    ) -> RuleJudge:
        """Fit on positive and negative anchor pairs (rows of :func:`features`), then calibrate.

        The logistic regression weighs both classes equally whatever their counts (balanced
        class weights) and is fitted by Newton's method (IRLS) with an L2 penalty ``l2`` on the
        weights, which also keeps it finite on separable anchors. The threshold is the lowest
        whose precision reaches ``target_precision`` on ``pos``/``neg``, or on
        ``val_pos``/``val_neg`` when given (held-out anchors: the honest choice, precision on
        the training rows is optimistic); when none reaches it, the F1-best, with
        ``reached=False``.

        >>> rng = np.random.default_rng(0)
        >>> pos = np.column_stack([rng.uniform(0.7, 1, 40), rng.uniform(0.3, 1, 40), rng.uniform(0.3, 1, 40)])
        >>> neg = np.column_stack([rng.uniform(0, 0.6, 60), rng.uniform(0, 0.2, 60), rng.uniform(0, 0.2, 60)])
        >>> judge = RuleJudge.fit(pos, neg, target_precision=0.95)
        >>> judge.reached, judge.precision >= 0.95, judge.accept([[0.95, 0.8, 0.9], [0.2, 0.0, 0.1]]).tolist()
        (True, True, [True, False])
        """
        if not 0.0 < target_precision <= 1.0:
            raise ValueError(f"target_precision must be in (0, 1], not {target_precision}")
        if l2 < 0:
            raise ValueError(f"l2 must be ≥ 0, not {l2}")
        p = _as_features("pos", pos)
        n = _as_features("neg", neg)
        if len(p) == 0 or len(n) == 0:
            raise ValueError(
                f"fitting needs positive and negative anchors (got {len(p)} and {len(n)}); use RuleJudge.default()"
            )
        if (val_pos is None) != (val_neg is None):
            raise ValueError("give both val_pos and val_neg, or neither")
        x = np.vstack([p, n])
        y = np.concatenate([np.ones(len(p)), np.zeros(len(n))])
        total = len(p) + len(n)
        sample_weight = np.where(y == 1, total / (2 * len(p)), total / (2 * len(n)))
        beta = _logistic_irls(x, y, sample_weight, l2)
        judge = cls(
            weights=beta[:-1],
            bias=float(beta[-1]),
            threshold=0.5,
            n_pos=len(p),
            n_neg=len(n),
            target_precision=float(target_precision),
        )
        if val_pos is not None and val_neg is not None:
            cp, cn, judge.calibrated_on = (
                _as_features("val_pos", val_pos),
                _as_features("val_neg", val_neg),
                "validation",
            )
            if len(cp) == 0:
                raise ValueError("val_pos is empty: no precision can be measured on it")
        else:
            cp, cn, judge.calibrated_on = p, n, "fit"
        judge.threshold, judge.precision, judge.recall, judge.reached = _choose_threshold(
            judge.probability(cp), judge.probability(cn), target_precision
        )
        return judge

    @classmethod
    def default(cls) -> RuleJudge:
        """The fallback rule for when there are too few anchors to fit (< :data:`MIN_POSITIVES`).

        UNCALIBRATED: its weights are set by hand, not fitted, and its precision is unknown
        (``precision``, ``recall`` are None, ``calibrated_on`` is ``"none"``). It asks for a high
        cosine AND some support from the names or the shared products:
        ``15·cosine + 4·cooccurrence + 4·name − 15.5 ≥ 0``. A cosine of 1.0 alone is not
        enough; the support ``cooccurrence + name`` (at most 2) must exceed 0.31 at a cosine
        of 0.95, 0.5 at 0.9, 0.875 at 0.8, 1.25 at 0.7, and nothing passes below 0.5.
        Conservative on purpose: a wrong link misleads answers, a missing one only leaves the
        text side unused.

        >>> judge = RuleJudge.default()
        >>> judge.accept([[1.0, 0.0, 0.0], [0.9, 0.0, 0.6], [0.8, 0.2, 0.3], [0.5, 0.5, 1.0]]).tolist()
        [False, True, False, False]
        """
        return cls(weights=np.array([15.0, 4.0, 4.0]), bias=-15.5, threshold=0.5)

    @classmethod
    def fit_or_default(
        cls, pos: np.ndarray, neg: np.ndarray, *, min_positives: int = MIN_POSITIVES, **fit_kwargs: Any
    ) -> RuleJudge:
        """:meth:`fit` when there are at least ``min_positives`` positives and one negative, else :meth:`default`."""
        p = _as_features("pos", pos)
        n = _as_features("neg", neg)
        if len(p) < min_positives or len(n) == 0:
            return cls.default()
        return cls.fit(p, n, **fit_kwargs)

    def probability(self, x: Any) -> np.ndarray:
        """The rule's probability that each feature row is a true pair, shape ``(n,)``."""
        a = _as_features("features", x)
        return _sigmoid(a @ self.weights + self.bias)

    def accept(self, x: Any) -> np.ndarray:
        """Whether each feature row is accepted (bool array, shape ``(n,)``)."""
        return self.probability(x) >= self.threshold

    def to_dict(self) -> dict[str, Any]:
        return {
            "features": list(FEATURES),
            "weights": [float(w) for w in self.weights],
            "bias": float(self.bias),
            "threshold": float(self.threshold),
            "precision": self.precision,
            "recall": self.recall,
            "n_pos": int(self.n_pos),
            "n_neg": int(self.n_neg),
            "reached": bool(self.reached),
            "target_precision": self.target_precision,
            "calibrated_on": self.calibrated_on,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleJudge:
        if tuple(data.get("features", FEATURES)) != FEATURES:
            raise ValueError(f"a rule over features {data.get('features')} cannot judge {FEATURES}")
        return cls(
            weights=np.asarray(data["weights"], dtype=np.float64),
            bias=float(data["bias"]),
            threshold=float(data["threshold"]),
            precision=data.get("precision"),
            recall=data.get("recall"),
            n_pos=int(data.get("n_pos", 0)),
            n_neg=int(data.get("n_neg", 0)),
            reached=bool(data.get("reached", False)),
            target_precision=data.get("target_precision"),
            calibrated_on=str(data.get("calibrated_on", "none")),
        )

    def save(self, path: str | os.PathLike) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | os.PathLike) -> RuleJudge:
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


# -- the LLM judge ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JudgePair:
    """What the LLM is shown of one candidate: the TKG entity's name and description, and the
    SKG node's name and description (e.g. its entry path ``"Display › Type"`` and a few values)."""

    text_name: str
    text_description: str
    skg_name: str
    skg_description: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """The LLM's answer for one pair: ``same`` is None (with ``error``) when it gave no usable
    answer, never a guess. ``confidence`` in [0, 1]: the model's own, 0.5 when it gave none,
    0.0 on error."""

    same: bool | None
    confidence: float
    error: str | None = None


def _load_judge_prompt(path: Path) -> tuple[str, str, str]:
    """``(version, system, user)`` of a judge prompt file: a ``version:`` line, then the
    ``## system`` / ``## user`` parts."""
    head = path.read_text(encoding="utf-8").split("## ", 1)[0]
    found = re.search(r"^version:\s*(\S+)\s*$", head, flags=re.MULTILINE)
    if found is None:
        raise ValueError(f"{path}: needs a 'version: ...' line before its '## system' part")
    system, user = load_prompt(path, requires="{skg_description}")
    return found.group(1), system, user


def _fill(template: str, values: dict[str, str]) -> str:
    # one pass, so a value holding "{skg_name}" is not itself filled in
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def _clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def _confidence(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return 0.5
    c = float(value)
    if 1.0 < c <= 100.0:  # a percentage
        c /= 100.0
    return min(max(c, 0.0), 1.0)


def _verdict(result: ChatResult | None) -> Verdict:
    if result is None:
        return Verdict(None, 0.0, "the LLM returned no result for this pair")
    if result.error is not None:
        return Verdict(None, 0.0, result.error)
    parsed = result.parsed
    if not isinstance(parsed, dict):
        return Verdict(None, 0.0, f"no JSON object in the answer: {result.text[:200]!r}")
    same = parsed.get("same")
    if not isinstance(same, bool):
        return Verdict(None, 0.0, f"'same' is not a boolean: {same!r}")
    return Verdict(same, _confidence(parsed.get("confidence")), None)


class LLMJudge:
    """Asks ``llm`` whether each pair denotes the same product property, ``batch`` pairs per
    :meth:`~dualgraph.models.base.LLM.complete` call (one request per pair, stage
    ``align_judge``). The client does JSON repair and validation; a pair whose answer still
    fails gets ``Verdict(None, 0.0, error)``, counted neither yes nor no.

    >>> class Canned:
    ...     name = "canned"
    ...     def complete(self, requests):
    ...         return [ChatResult(text="", parsed={"same": True, "confidence": 0.8}) for _ in requests]
    >>> LLMJudge(Canned()).judge([JudgePair("headphone jack", "A 3.5 mm jack.", "Audio › Jack", "values: yes")])
    [Verdict(same=True, confidence=0.8, error=None)]
    """

    def __init__(
        self,
        llm: LLM,
        *,
        batch: int = 16,
        max_tokens: int = 64,
        max_description_chars: int = 400,
        prompt_path: str | os.PathLike = DEFAULT_PROMPT,
    ) -> None:
        if batch < 1:
            raise ValueError(f"batch must be ≥ 1, not {batch}")
        self.llm = llm
        self.batch = batch
        self.max_tokens = max_tokens
        self.max_description_chars = max_description_chars
        self.prompt_version, self._system, self._user = _load_judge_prompt(Path(prompt_path))

    def request(self, pair: JudgePair) -> ChatRequest:
        """The chat request for one pair."""
        limit = self.max_description_chars
        user = _fill(
            self._user,
            {
                "text_name": _clip(pair.text_name, 200),
                "text_description": _clip(pair.text_description, limit) or "(none)",
                "skg_name": _clip(pair.skg_name, 200),
                "skg_description": _clip(pair.skg_description, limit) or "(none)",
            },
        )
        messages: tuple[dict[str, str], ...] = ({"role": "user", "content": user},)
        if self._system:
            messages = ({"role": "system", "content": self._system}, *messages)
        return ChatRequest(
            messages=messages,
            schema=SCHEMA,
            max_tokens=self.max_tokens,
            temperature=0.0,
            prompt_version=self.prompt_version,
            stage=STAGE,
        )

    def judge(self, pairs: Sequence[JudgePair]) -> list[Verdict]:
        """One :class:`Verdict` per pair, in order."""
        verdicts: list[Verdict] = []
        for start in range(0, len(pairs), self.batch):
            chunk = pairs[start : start + self.batch]
            results = self.llm.complete([self.request(p) for p in chunk])
            verdicts += [_verdict(results[i] if i < len(results) else None) for i in range(len(chunk))]
        return verdicts


# -- combining them ---------------------------------------------------------------------------


class Decision(NamedTuple):
    """The fate of one candidate: ``score`` is the rule's probability; ``how``: ``"rule"``,
    ``"llm"`` or ``"rule-fallback"`` (the LLM was asked but gave no usable verdict)."""

    accepted: bool
    score: float
    how: str


def judge_candidates(
    cands_features: Any,
    *,
    rule: RuleJudge,
    llm_judge: LLMJudge | None = None,
    pairs: Sequence[JudgePair] | None = None,
    band: float = 0.2,
) -> list[Decision]:
    """Accept or reject each candidate (rows of :func:`features`), in order.

    Without ``llm_judge`` the rule decides. With one, ``pairs`` (one per row) are shown to the
    LLM only when the rule's probability is at least ``threshold − band``, and those are
    accepted exactly when the LLM says ``same``; the rest stay rejected by the rule. A pair
    whose verdict failed falls back to the rule.

    >>> rule = RuleJudge.default()
    >>> [(d.accepted, round(d.score, 2), d.how) for d in judge_candidates([[0.95, 0.5, 0.5], [0.1, 0.0, 0.0]], rule=rule)]
    [(True, 0.94, 'rule'), (False, 0.0, 'rule')]
    """
    x = _as_features("cands_features", cands_features)
    probs = rule.probability(x)
    by_rule = probs >= rule.threshold
    if llm_judge is None:
        return [Decision(bool(a), float(p), "rule") for a, p in zip(by_rule, probs)]
    if pairs is None or len(pairs) != len(x):
        raise ValueError(f"an LLM judge needs one JudgePair per candidate ({len(x)}), got {pairs and len(pairs)}")
    # Cost: the LLM is the expensive judge (one request per pair), and a kNN candidate list is
    # mostly pairs the rule rejects with confidence. Only the rule's accepts (which the LLM may
    # veto) and the near misses just below its threshold (which it may rescue) are worth asking.
    ask = np.flatnonzero(probs >= rule.threshold - band)
    verdicts = llm_judge.judge([pairs[int(i)] for i in ask])
    out = [Decision(bool(a), float(p), "rule") for a, p in zip(by_rule, probs)]
    for i, verdict in zip(ask.tolist(), verdicts):
        if verdict.same is None:
            out[i] = Decision(bool(by_rule[i]), float(probs[i]), "rule-fallback")
        else:
            out[i] = Decision(verdict.same, float(probs[i]), "llm")
    return out
