"""What the LLM judges share: prompt files, settings, reply parsing and token accounting.

A prompt file ``prompts/NAME.vN.md`` holds a ``## system`` and a ``## user`` part;
``{placeholders}`` are filled in one pass, so text inserted for one placeholder is never
read as another and JSON braces in the prompt stay as written. The file stem
(``judge_claims.v1``) is the requests' ``prompt_version``: a changed prompt is saved as a
new version so cached judgements of the old one are not reused.

>>> p = Prompt(version="t.v1", system="Judge.", user='Q: {question} -> {"x": 1}')
>>> p.messages(question="{answer}?")[1]["content"]
'Q: {answer}? -> {"x": 1}'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from dualgraph.answer.record import AnswerRecord
from dualgraph.models.base import ChatResult
from dualgraph.models.tokens import truncate_to_tokens

__all__ = [
    "PROMPT_DIR",
    "STAGE_CLAIMS",
    "STAGE_PAIRWISE",
    "STAGE_VERIFY",
    "JudgeConfig",
    "Prompt",
    "StageTokens",
    "add_usage",
    "answer_text",
    "clip_tokens",
    "load_prompt",
    "reply_json",
]

STAGE_CLAIMS = "judge_claims"
STAGE_VERIFY = "judge_verify"
STAGE_PAIRWISE = "judge_pairwise"
PROMPT_DIR = Path(__file__).parent / "prompts"
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


@dataclass(frozen=True)
class Prompt:
    """A versioned two-message chat prompt."""

    version: str
    system: str
    user: str

    def messages(self, **values: Any) -> tuple[dict[str, str], ...]:
        """The system and user messages with ``{name}`` placeholders replaced by ``values``."""

        def fill(template: str) -> str:
            return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)

        return ({"role": "system", "content": fill(self.system)}, {"role": "user", "content": fill(self.user)})


@lru_cache(maxsize=16)
def load_prompt(name: str, directory: Path = PROMPT_DIR) -> Prompt:
    """The prompt ``directory/name.md`` (e.g. ``judge_claims.v1``); its stem is the version.

    >>> load_prompt("judge_pairwise.v1").version
    'judge_pairwise.v1'
    """
    path = Path(directory) / f"{name}.md"
    text = re.sub(r"<!--.*?-->", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    parts = re.split(r"^## (system|user)[ \t]*$", text, flags=re.MULTILINE)
    found = {parts[i]: parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}
    if "system" not in found or "user" not in found:
        raise ValueError(f"{path}: needs a '## system' and a '## user' part")
    return Prompt(version=path.stem, system=found["system"], user=found["user"])


class JudgeConfig(BaseModel):
    """Bounds of the LLM judges (every request is capped, so a run's cost is bounded)."""

    model_config = ConfigDict(extra="forbid")

    max_claims: int = Field(20, ge=1, le=100, description="Most claims taken from one text (schema maxItems).")
    max_claim_chars: int = Field(300, ge=20, description="Longest claim, in characters (schema maxLength).")
    max_text_tokens: int = Field(
        600,
        ge=20,
        description="Each answer or gold text is cut to this many "
        "(approximate) tokens before it goes into a prompt, to fit small contexts.",
    )
    claims_max_tokens: int = Field(700, ge=16, description="max_tokens of a claim decomposition request.")
    verify_max_tokens: int = Field(300, ge=16, description="max_tokens of a claim verification request.")
    pairwise_max_tokens: int = Field(200, ge=16, description="max_tokens of a pairwise comparison request.")
    temperature: float = Field(0.0, ge=0.0, le=2.0, description="Sampling temperature of every judge request.")
    claims_prompt: str = Field("judge_claims.v1", description="Prompt file (stem) for claim decomposition.")
    verify_prompt: str = Field("judge_verify.v1", description="Prompt file (stem) for claim verification.")
    pairwise_prompt: str = Field("judge_pairwise.v1", description="Prompt file (stem) for pairwise comparison.")


class StageTokens(BaseModel):
    """Requests and tokens of one judge stage."""

    requests: int = Field(0, description="requests sent (cached answers included)")
    failed: int = Field(0, description="requests whose result carried an error")
    prompt: int = Field(0, description="prompt tokens")
    completion: int = Field(0, description="completion tokens")


def add_usage(usage: dict[str, StageTokens], stage: str, result: ChatResult) -> None:
    """Count one result under its stage."""
    u = usage.setdefault(stage, StageTokens())
    u.requests += 1
    u.failed += result.error is not None
    u.prompt += result.prompt_tokens
    u.completion += result.completion_tokens


def clip_tokens(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` tokens, marked when cut.

    >>> clip_tokens("one two three four", 2)
    'one two …'
    """
    cut = truncate_to_tokens(text, limit)
    return cut if len(cut) == len(text) else cut.rstrip() + " …"


def answer_text(record: AnswerRecord | None) -> str:
    """The text to judge: the answer in words, else its list or value; empty when none.

    >>> answer_text(AnswerRecord(id="1", question="?", strategy="skg", answer_list=["A", "B"]))
    'A; B'
    >>> answer_text(None)
    ''
    """
    if record is None or record.error:
        return ""
    if record.answer.strip():
        return record.answer.strip()
    if record.answer_list:
        return "; ".join(record.answer_list)
    if record.answer_list == []:
        return "No matching products."
    return "" if record.value is None else str(record.value)


def reply_json(result: ChatResult) -> tuple[Any, str | None]:
    """The JSON a result carries (``parsed``, else its text read leniently) or why there is none."""
    if result.error is not None:
        return None, f"LLM error: {result.error}"
    if result.parsed is not None:
        return result.parsed, None
    from dualgraph.models.json_repair import parse_json_loose

    try:
        return parse_json_loose(result.text), None
    except ValueError as e:
        return None, f"the reply is not JSON ({e})"
