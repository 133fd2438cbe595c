"""The paper's LLM SPARQL generation path, used when an LLM is configured.

For each question the prompt (``prompts/sparql_generation.v2.md``) gets the retrieved
graph patterns **per clause** of the question (each parsed constraint and named entity
searched on its own, so a multi-condition question cannot lose a condition to the
others; the whole question is searched only when the parser found no clause), and, in
the hybrid mode, the rule-based compiler's query as a draft. Several candidates are
sampled at different temperatures (0, 0.3, 0.7: one request each, since not every server
supports ``n`` > 1), all of them for all questions in **one** ``llm.complete`` call.

Each candidate is then checked (:func:`~dualgraph.query.sparql.safety.check_query`: read-only,
parseable) and run (:func:`~dualgraph.query.sparql.safety.run_select`), where a result over the
row cap is cut *and flagged*, never discarded (the reference dropped any result of 100 rows
or more). Failing candidates are dropped with their reason; empty results are kept only
when every candidate that ran came back empty. Candidates with identical product sets are
merged, and the answer is the product set the most candidates agree on (ties: the one
agreeing with the draft, then the earliest candidate) -- never a concatenation of
contradictory tables. When no candidate runs, the draft's own result is used, if any.

Token usage is metered by the LLM under ``stage`` (see :class:`~dualgraph.models.base.TokenMeter`);
each candidate also carries the prompt/completion tokens its result reported.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from dualgraph.lexicon.patterns import Pattern, PatternIndex
from dualgraph.models.base import ChatRequest, ChatResult
from dualgraph.query.read.model import EntityRef, FeatureConstraint, NumericConstraint, ValueConstraint
from dualgraph.query.read.parse import parse_question
from dualgraph.query.sparql.safety import QUERY_TIMEOUT_S, ROW_CAP, QueryResult, run_select

__all__ = [
    "PROMPT_PATH",
    "PROMPT_VERSION",
    "SPARQL_SCHEMA",
    "TEMPERATURES",
    "Candidate",
    "Clause",
    "Generated",
    "LLMSparqlGenerator",
]

PROMPT_PATH = Path(__file__).parent / "prompts" / "sparql_generation.v2.md"
PROMPT_VERSION = "sparql_generation.v2"
# No maxLength: llama.cpp compiles a long maxLength into a grammar of nested optionals that crashes
# its server; ``max_tokens`` bounds the answer instead.
SPARQL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"sparql": {"type": "string"}},
    "required": ["sparql"],
}
TEMPERATURES = (0.0, 0.3, 0.7)
"""Candidate ``i`` samples at ``TEMPERATURES[i % 3]`` (candidate 0 is greedy)."""

Status = Literal["ok", "empty", "failed"]


@dataclass(slots=True)
class Clause:
    """One clause of the question and the patterns retrieved for it alone."""

    text: str
    kind: str
    note: str = ""
    patterns: list[tuple[Pattern, float]] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Candidate:
    """One sampled query and what became of it.

    ``status``: ``ok`` (ran, rows), ``empty`` (ran, no rows) or ``failed`` (no query in the
    answer, refused by the safety check, malformed, or the store raised; ``error`` says which).
    ``products``: the result's product set (``?p`` values, else ``?name``); ``agreement``:
    how many candidates produced that same set; ``duplicate_of``: the earlier candidate
    with the identical set, whose result stands for this one.
    """

    index: int
    temperature: float
    sparql: str | None
    status: Status = "failed"
    error: str | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    total_rows: int = 0
    truncated: bool = False
    products: frozenset[str] = frozenset()
    agreement: int = 0
    duplicate_of: int | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(slots=True)
class Generated:
    """The chosen query for one question, its result, and every candidate.

    ``source``: ``llm`` (a candidate won), ``draft`` (no candidate ran; the compiler's
    query answered) or ``none``. ``answer_list``: the distinct ``?name`` values in row order.
    """

    question: str
    sparql: str | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    answer_list: list[str] = field(default_factory=list)
    total_rows: int = 0
    truncated: bool = False
    candidates: list[Candidate] = field(default_factory=list)
    chosen: int | None = None
    source: Literal["llm", "draft", "none"] = "none"
    draft: str | None = None
    clauses: list[Clause] = field(default_factory=list)
    prompt: str = ""
    error: str | None = None

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.candidates)

    @property
    def completion_tokens(self) -> int:
        return sum(c.completion_tokens for c in self.candidates)


def _load_prompt(path: Path) -> tuple[str, str]:
    from dualgraph.tkg.extract_llm import load_prompt

    return load_prompt(path, requires="{question}")


def _fill(template: str, values: dict[str, str]) -> str:
    # Plain replacement, one pass per placeholder: SPARQL braces in the values stay as they are.
    out = template
    for key, val in values.items():
        out = out.replace("{" + key + "}", val)
    return out


def _distinct(items) -> list[str]:
    seen: set[str] = set()
    out = []
    for x in items:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def extract_sparql(result: ChatResult) -> str | None:
    """The query in an answer: ``parsed["sparql"]``, else the JSON or a bare query in the text.

    >>> extract_sparql(ChatResult(text="", parsed={"sparql": "SELECT ?p WHERE {}"}))
    'SELECT ?p WHERE {}'
    >>> extract_sparql(ChatResult(text='```json\\n{"sparql": "SELECT ?x WHERE {}"}\\n```'))
    'SELECT ?x WHERE {}'
    >>> extract_sparql(ChatResult(text="no idea")) is None
    True
    """
    parsed = result.parsed
    if parsed is None and result.text:
        try:
            parsed = json.loads(result.text)
        except ValueError:
            try:
                from dualgraph.models.json_repair import parse_json_loose

                parsed = parse_json_loose(result.text)
            except Exception:
                parsed = None
    query = parsed.get("sparql") if isinstance(parsed, dict) else None
    if not isinstance(query, str) and result.text:
        m = re.search(
            r"((?:PREFIX\s[^\n]*\n\s*)*(?:SELECT|ASK|CONSTRUCT|DESCRIBE|INSERT|DELETE)\b.*)",
            result.text,
            flags=re.S | re.I,
        )
        query = m.group(1).strip().rstrip("`").strip() if m else None
    if not isinstance(query, str):
        return None
    query = re.sub(r"^\s*```(?:sparql)?\s*|\s*```\s*$", "", query).strip()
    return query or None


def _product_set(rows: list[dict[str, Any]]) -> frozenset[str]:
    key = "p" if any("p" in r for r in rows) else "name"
    return frozenset(r[key]["value"] for r in rows if key in r)


class LLMSparqlGenerator:
    """Generate, check, run and rank SPARQL candidates for questions with ``llm``.

    ``patterns``: the pattern index of ``store``; ``compiler``: the rule-based compiler,
    whose query goes into the prompt as a draft when ``use_draft`` (the hybrid mode);
    ``currency``: the catalog currency named in the price rule (default: the compiler's,
    else GBP). ``patterns_per_constraint``: patterns retrieved per clause.
    """

    def __init__(
        self,
        llm,
        patterns: PatternIndex,
        store,
        *,
        n_candidates: int = 3,
        patterns_per_constraint: int = 5,
        row_cap: int = ROW_CAP,
        use_draft: bool = True,
        compiler=None,
        currency: str | None = None,
        timeout_s: float = QUERY_TIMEOUT_S,
        max_tokens: int = 512,
        stage: str = "sparql_generation",
        prompt_path: str | Path = PROMPT_PATH,
        prompt_version: str = PROMPT_VERSION,
    ) -> None:
        if n_candidates < 1:
            raise ValueError("n_candidates must be at least 1")
        self.llm = llm
        self.patterns = patterns
        self.store = store
        self.n_candidates = n_candidates
        self.k = patterns_per_constraint
        self.row_cap = row_cap
        self.use_draft = use_draft
        self.compiler = compiler
        self.currency = currency or getattr(compiler, "currency", None) or "GBP"
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self.stage = stage
        self.prompt_version = prompt_version
        self.system, self.user = _load_prompt(Path(prompt_path))

    @property
    def meter(self):
        """The LLM's token meter (``None`` when the backend is not metered)."""
        return getattr(self.llm, "meter", None)

    # -- context ----------------------------------------------------------------------------

    def clauses(self, question: str) -> list[Clause]:
        """One :class:`Clause` per parsed constraint and named entity, each with its own patterns;
        the whole question as the only clause when the parser found none."""
        parsed = parse_question(question, currency=self.currency)
        clauses: list[Clause] = []
        searches: list[tuple[Clause, str, tuple[str, ...]]] = []
        items = sorted([*parsed.entities, *parsed.constraints], key=lambda x: x.span.start)
        for item in items:
            text = item.span.text
            if isinstance(item, NumericConstraint):
                bound = f"{item.op} {item.value:g}" + (f" and {item.high:g}" if item.high is not None else "")
                cl = Clause(text, "numeric", f"parsed: {item.attribute or '?'} {bound} {item.unit or ''}".rstrip())
                if item.dimension == "currency":
                    cl.note += " (a price)"
                    cur = item.unit or self.currency
                    cl.extra.append(f'price: ?p skg:hasPrice ?v{{i}} ; skg:hasCurrency "{cur}" .')
                    clauses.append(cl)
                    continue
                searches.append((cl, f"{item.attribute} {text}".strip(), ("spec_numeric",)))
            elif isinstance(item, FeatureConstraint):
                note = "excluded: use the lacks snippet" if item.negated else ("exclusive (only)" if item.only else "")
                cl = Clause(text, "feature", note)
                searches.append((cl, item.phrase, ("feature", "spec_value")))
            elif isinstance(item, ValueConstraint):
                cl = Clause(text, "value", "excluded" if item.negated else "")
                searches.append((cl, f"{item.attribute} {item.phrase}".strip(), ("spec_value", "feature")))
            elif isinstance(item, EntityRef):
                kinds: tuple[str, ...] = ("category",) if item.kind == "category" else ("product", "range", "category")
                cl = Clause(text, f"entity ({item.kind})")
                if item.kind in ("brand", "unknown"):  # a name part, not a catalog node: match the names
                    needle = json.dumps(item.phrase.casefold())
                    cl.extra.append(f"name: FILTER(CONTAINS(LCASE(STR(?name)), {needle}))")
                searches.append((cl, item.phrase, kinds))
            else:  # pragma: no cover - a new constraint type
                continue
            clauses.append(cl)
        if not clauses:
            cl = Clause(question, "whole question", "the parser found no clause")
            searches.append((cl, question, ()))
            clauses.append(cl)
        for cl, text, kinds in searches:
            hits = self.patterns.search([text], k=self.k, kinds=kinds or None)
            cl.patterns = hits[0] if hits else []
        return clauses

    @staticmethod
    def render_clauses(clauses: list[Clause]) -> str:
        """The patterns block of the prompt: a header per clause, then its patterns and snippets."""
        out = []
        for i, cl in enumerate(clauses, 1):
            head = f'Clause {i}: "{cl.text}" [{cl.kind}]' + (f" -- {cl.note}" if cl.note else "")
            lines = [head]
            for extra in cl.extra:
                lines.append("  - " + extra.replace("{i}", str(i)))
            for p, _score in cl.patterns:
                lines.append(f"  - [{p.kind}] {p.text} ({p.count} products)")
                lines.append(f"    {p.fill(s=f'?s{i}', v=f'?v{i}')}")
                if p.lacks_sparql:
                    lines.append(f"    lacks: {p.fill(s=f'?s{i}', v=f'?v{i}', snippet=p.lacks_sparql)}")
            if len(lines) == 1:
                lines.append("  (no pattern found)")
            out.append("\n".join(lines))
        return "\n\n".join(out)

    def _draft(self, question: str) -> str | None:
        if not (self.use_draft and self.compiler is not None):
            return None
        try:
            return self.compiler.compile(question).sparql
        except Exception:  # a compiler failure only costs the draft
            return None

    def prompt(self, question: str, clauses: list[Clause], draft: str | None) -> str:
        draft_block = (
            f"Draft query from the rule-based compiler (check it against the question; keep it when "
            f"right, fix it when wrong):\n{draft}"
            if draft
            else ""
        )
        return _fill(
            self.user,
            {
                "currency": self.currency,
                "patterns": self.render_clauses(clauses),
                "draft": draft_block,
                "question": question,
            },
        ).replace("\n\n\n\n", "\n\n")

    # -- generate ---------------------------------------------------------------------------

    def generate(self, questions: list[str]) -> list[Generated]:
        """One :class:`Generated` per question; every candidate of every question in one LLM call."""
        outs: list[Generated] = []
        requests: list[ChatRequest] = []
        system = _fill(self.system, {"currency": self.currency})
        for q in questions:
            g = Generated(q)
            try:
                g.clauses = self.clauses(q)
            except Exception as e:  # retrieval must not take the batch down
                g.error = f"context: {type(e).__name__}: {e}"
            g.draft = self._draft(q)
            g.prompt = self.prompt(q, g.clauses, g.draft)
            messages = ({"role": "system", "content": system}, {"role": "user", "content": g.prompt})
            for i in range(self.n_candidates):
                requests.append(
                    ChatRequest(
                        messages,
                        schema=SPARQL_SCHEMA,
                        max_tokens=self.max_tokens,
                        temperature=TEMPERATURES[i % len(TEMPERATURES)],
                        prompt_version=self.prompt_version,
                        stage=self.stage,
                    )
                )
            outs.append(g)
        try:
            results = self.llm.complete(requests) if requests else []
        except Exception as e:  # a dead server: every candidate fails with the reason
            results = [ChatResult(text="", error=f"{type(e).__name__}: {e}") for _ in requests]
        for qi, g in enumerate(outs):
            chunk = results[qi * self.n_candidates : (qi + 1) * self.n_candidates]
            g.candidates = [
                self._run(i, requests[qi * self.n_candidates + i].temperature, r) for i, r in enumerate(chunk)
            ]
            self._choose(g)
        return outs

    def _run(self, index: int, temperature: float, result: ChatResult) -> Candidate:
        c = Candidate(
            index, temperature, None, prompt_tokens=result.prompt_tokens, completion_tokens=result.completion_tokens
        )
        if result.error:
            c.error = f"llm: {result.error}"
            return c
        c.sparql = extract_sparql(result)
        if c.sparql is None:
            c.error = "no SPARQL query in the answer"
            return c
        try:
            res = self._select(c.sparql)
        except Exception as e:  # refused (update, SERVICE, not a SELECT), malformed, or a store error
            c.error = f"{type(e).__name__}: {e}"
            return c
        c.rows, c.total_rows, c.truncated = res.rows, res.total_rows, res.truncated
        c.products = _product_set(res.rows)
        c.status = "ok" if res.rows else "empty"
        return c

    def _select(self, query: str) -> QueryResult:
        return run_select(self.store, query, row_cap=self.row_cap, timeout_s=self.timeout_s)

    def _choose(self, g: Generated) -> None:
        ran = [c for c in g.candidates if c.status != "failed"]
        pool = [c for c in ran if c.status == "ok"] or ran  # empties only when every candidate is empty
        first_of: dict[frozenset[str], Candidate] = {}
        votes: dict[frozenset[str], int] = {}
        for c in pool:
            votes[c.products] = votes.get(c.products, 0) + 1
            if c.products in first_of:
                c.duplicate_of = first_of[c.products].index
            else:
                first_of[c.products] = c
        for c in ran:
            c.agreement = votes.get(c.products, 0) if c in pool else 0
        draft_res: QueryResult | None = None
        if g.draft:
            try:
                draft_res = self._select(g.draft)
            except Exception:
                draft_res = None
        if first_of:
            draft_set = _product_set(draft_res.rows) if draft_res is not None else None
            best = min(
                first_of.values(), key=lambda c: (-votes[c.products], 0 if c.products == draft_set else 1, c.index)
            )
            g.chosen, g.source, g.sparql = best.index, "llm", best.sparql
            g.rows, g.total_rows, g.truncated = best.rows, best.total_rows, best.truncated
        elif draft_res is not None:
            g.source, g.sparql = "draft", g.draft
            g.rows, g.total_rows, g.truncated = draft_res.rows, draft_res.total_rows, draft_res.truncated
        else:
            errors = "; ".join(f"#{c.index}: {c.error}" for c in g.candidates if c.error)
            g.error = g.error or f"no candidate ran ({errors or 'no candidates'})"
            return
        g.answer_list = _distinct(r["name"]["value"] for r in g.rows if "name" in r)
