"""The two retrieval views as answer sources: each turns a question into a :class:`SourceResult`.

A source answers with structure (``answer_list``/``value``), the context an LLM would read
(``context``: Markdown), its evidence (SPARQL and rows, or chunk ids) and a ``confidence``
that the strategies use to decide on a fallback. Sources never raise for a bad question:
failures come back as ``error``.

- :class:`SymbolicSource`: the zero-token compiler, or, when an LLM generator is given,
  LLM-written SPARQL candidates (with the compiler's query as a draft) run and ranked.
- :class:`TextualSource`: Textual KG retrieval read by :mod:`dualgraph.answer.text_reader`.
"""

from __future__ import annotations

import contextvars
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from dualgraph.answer.record import TokenCounts
from dualgraph.answer.text_reader import ANCHORED, fold_corpus, read_products
from dualgraph.query.caps import CAP_FACTOR, QUERY_ROWS, CapHit
from dualgraph.query.read.parse import parse_question
from dualgraph.query.sparql.render import render_markdown
from dualgraph.query.sparql.safety import QueryResult
from dualgraph.tkg.statements import StatementIndex

__all__ = ["SourceResult", "SymbolicSource", "TextualSource", "plain_rows"]

ROWS_KEPT = 200
"""Rows copied into an answer record's evidence (the full count is kept in ``rows_total``)."""


@dataclass(slots=True)
class SourceResult:
    """What one source made of one question."""

    source: str
    intent: str = "list"
    answer_list: list[str] | None = None
    value: Any = None
    confidence: float = 0.0
    context: str = ""
    sparql: str | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    rows_total: int = 0
    chunk_ids: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    """Textual: every product the retrieved text names, best first (what an LLM may choose from)."""
    anchor: str | None = None
    """Textual: the phrase of the question the answer was read by (None when it is a guess)."""
    covered: list[str] = field(default_factory=list)
    """Symbolic: the parts of the question the parser turned into constraints, names or scope."""
    unread: list[str] = field(default_factory=list)
    """Symbolic: the phrases of the question the answer did not read (left out, never silently)."""
    restricts: bool = True
    """Symbolic: whether the query read a condition beyond the scope. When it did not, what it left
    unread is the question's condition, for the text to look for."""
    scope: str = ""
    """Symbolic: the graph pattern of the scope it grounded (brands, lines, categories); the text
    answers within it. Empty: the whole catalog."""
    refused: str = ""
    """Symbolic: why it asked no query (the question names nothing the catalog knows); the answer
    then says so, unless the text finds a phrase to stand on."""
    trace: list[str] = field(default_factory=list)
    caps: list[CapHit] = field(default_factory=list)
    """The caps this source's work on the question reached, and what they cut (:mod:`dualgraph.query.caps`)."""
    tokens: TokenCounts = field(default_factory=TokenCounts)
    seconds: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def empty(self) -> bool:
        return not self.answer_list and self.value in (None, [], "")


def plain_rows(rows: list[dict[str, Any]], limit: int = ROWS_KEPT) -> list[dict[str, Any]]:
    """W3C JSON bindings → ``{var: value}`` (IRIs shortened to their local name).

    >>> plain_rows([{"name": {"type": "literal", "value": "A"}, "p": {"type": "uri", "value": "http://x#p1"}}])
    [{'name': 'A', 'p': 'p1'}]
    """
    out = []
    for row in rows[:limit]:
        out.append(
            {k: (b["value"].rsplit("#", 1)[-1] if b.get("type") == "uri" else b["value"]) for k, b in row.items()}
        )
    return out


class SymbolicSource:
    """The Symbolic KG: ``compiler`` always; ``generator`` (an LLMSparqlGenerator) when an LLM is set."""

    name = "skg"

    def __init__(self, compiler, *, generator=None, compiled: dict | None = None, threads: int = 1) -> None:
        self.compiler = compiler
        self.generator = generator
        # questions the router already compiled (question -> Compiled); each is used once
        self.compiled = compiled if compiled is not None else {}
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None

    def prepare(self) -> None:
        """The compiler's per-index tables and catalog embeddings, now rather than on a first question."""
        prepare = getattr(self.compiler, "prepare", None)
        if callable(prepare):
            prepare()

    def prefetch(self, questions: list[str]) -> int:
        """The batch's grounding phrases embedded in one call (see Compiler.prefetch)."""
        prefetch = getattr(self.compiler, "prefetch", None)
        return prefetch(questions) if callable(prefetch) and len(questions) > 1 else 0

    def ask(self, questions: list[str], *, unread: list[tuple[str, ...]] | None = None) -> list[SourceResult]:
        if self.generator is not None:
            return self._generated(questions)
        if self.threads == 1 or len(questions) < 2:
            return [self._compiled(q) for q in questions]
        # A batch's questions on several threads: Oxigraph's query evaluation and FAISS run without
        # the GIL, so one question's query overlaps another's parsing (about 0.8x the time per
        # question on two cores, bench/results/serve_load.md). Each runs in a copy of the caller's
        # context, which holds the catalog vocabulary in use.
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="dualgraph-compile")
        contexts = [contextvars.copy_context() for _ in questions]
        return list(self._pool.map(lambda cq: cq[0].run(self._compiled, cq[1]), zip(contexts, questions)))

    def scope_names(self, result: SourceResult) -> frozenset[str] | None:
        """The names of the products in ``result``'s grounded scope; ``None`` for the whole catalog
        (or a compiler that cannot say)."""
        names = getattr(self.compiler, "scope_names", None)
        if not result.scope or not callable(names):
            return None
        return names(result.scope)

    def close(self) -> None:
        """Let the batch threads go (they also end with the process)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    def _compiled(self, question: str) -> SourceResult:
        t0 = time.perf_counter()
        done = self.compiled.pop(question, None)
        a = self.compiler.answer(question, compiled=done) if done is not None else self.compiler.answer(question)
        r = SourceResult(
            "skg",
            intent=a.intent,
            answer_list=a.answer_list if a.sparql else None,
            value=a.value,
            confidence=a.confidence,
            sparql=a.sparql,
            rows=plain_rows(a.rows),
            rows_total=len(a.rows),
            trace=[f"skg: {t}" for t in a.trace],
            error=a.error,
            unread=list(getattr(a, "unread", [])),
            restricts=getattr(a, "restricts", True),
            scope=getattr(a, "scope_where", ""),
            refused=getattr(a, "refused", ""),
            caps=list(getattr(a, "caps", [])),
        )
        if a.error is None and a.sparql is None and not r.refused:
            r.error = "the question could not be compiled to SPARQL"
        r.covered = getattr(a, "covered", None) or covered_parts(question, getattr(self.compiler, "currency", None))
        if a.sparql:
            vars_ = list(a.rows[0]) if a.rows else []
            r.context = render_markdown(
                QueryResult(
                    query=a.sparql,
                    vars=vars_,
                    rows=a.rows,
                    total_rows=len(a.rows),
                    truncated=getattr(a, "truncated", False),
                ),
                max_rows=50,
            )
        r.seconds = time.perf_counter() - t0
        return r

    def _generated(self, questions: list[str]) -> list[SourceResult]:
        t0 = time.perf_counter()
        out = []
        for g in self.generator.generate(questions):
            intent = parse_question(g.question).intent.kind
            r = SourceResult(
                "skg",
                intent=intent,
                covered=covered_parts(g.question, self.generator.currency),
                sparql=g.sparql,
                rows=plain_rows(g.rows),
                rows_total=g.total_rows,
                tokens=TokenCounts(prompt=g.prompt_tokens, completion=g.completion_tokens),
                error=g.error,
            )
            r.trace = [f"skg: llm sparql, {len(g.candidates)} candidates, chosen {g.chosen} ({g.source})"]
            r.trace += [
                f"skg: candidate #{c.index} t={c.temperature} {c.status} agreement={c.agreement}"
                + (f" error={c.error}" if c.error else "")
                for c in g.candidates
            ]
            if g.sparql:
                r.answer_list = g.answer_list
                r.value = _value_from_rows(intent, g.rows, g.answer_list)
                r.confidence = _agreement(g)
                if g.truncated:  # as the compiler's: a list read from a cut result is missing products
                    cap = self.generator.row_cap
                    what = f"the query returned more than {cap} rows; the answer read the first {cap}"
                    r.caps.append(QUERY_ROWS.hit(cap, what, lowered=intent == "list"))
                    if intent == "list":
                        r.confidence = round(r.confidence * CAP_FACTOR, 3)
                vars_ = list(g.rows[0]) if g.rows else []
                r.context = render_markdown(
                    QueryResult(
                        query=g.sparql, vars=vars_, rows=g.rows, total_rows=g.total_rows, truncated=g.truncated
                    ),
                    max_rows=50,
                )
            out.append(r)
        spent = (time.perf_counter() - t0) / max(1, len(out))
        for r in out:
            r.seconds = spent
        return out


def covered_parts(question: str, currency: str | None = None) -> list[str]:
    """The question's substrings the parser read as constraints, names or scope.

    >>> covered_parts("Which phones under 20k have 5G?")
    ['under 20k', '5G', 'phones']
    """
    try:
        parsed = parse_question(question, currency=currency)
    except Exception:
        return []
    return [x.span.text for x in [*parsed.constraints, *parsed.entities]]


def _agreement(g) -> float:
    """Share of candidates that ran and agree with the chosen one (the draft alone: 0.5)."""
    if g.source == "draft":
        return 0.5
    chosen = next((c for c in g.candidates if c.index == g.chosen), None)
    if chosen is None or not g.candidates:
        return 0.0
    return round(chosen.agreement / len(g.candidates), 3)


def _value_from_rows(intent: str, rows: list[dict[str, Any]], names: list[str]) -> Any:
    if intent == "count" and rows:
        first = rows[0]
        for b in first.values():
            try:
                return int(float(b["value"]))
            except (TypeError, ValueError):
                continue
        return None
    if intent in ("superlative", "compare", "describe") and names:
        return names[0]
    if intent == "yesno":
        return "yes" if names else "no"
    return None


class TextualSource:
    """The Textual KG through entity-vote retrieval; products read from the retrieved text."""

    name = "tkg"

    def __init__(self, retriever, *, currency: str | None = None, max_chunks_in_context: int = 8) -> None:
        self.retriever = retriever
        self.currency = currency
        self.max_chunks = max_chunks_in_context
        links = getattr(retriever, "entity_chunks", {})
        self._chunk_count = lambda e: len(links.get(e, ()))
        chunks = getattr(getattr(retriever, "packer", None), "chunks", None) or {}
        self._total = len(chunks) or None
        self._corpus = fold_corpus(chunks) if chunks else None
        self._names = sorted({p for c in chunks.values() for p in c.products})
        self._chunks = chunks
        self._embedder = getattr(retriever, "embedder", None)
        self._statements: StatementIndex | None = None

    def _statement_index(self) -> StatementIndex | None:
        """The pages' sentences, read on the first question that needs them (none without an embedder)."""
        if self._statements is None and self._embedder is not None and self._chunks:
            self._statements = StatementIndex(((c.text, c.products) for c in self._chunks.values()), self._embedder)
        return self._statements

    def prepare(self) -> None:
        """Index the folded text's words now (once per engine) rather than on the first fallback."""
        if self._corpus is not None:
            self._corpus.prepare()

    def ask(self, questions: list[str], *, unread: list[tuple[str, ...]] | None = None) -> list[SourceResult]:
        """``unread``: per question, what the specs could not read; the text looks for it first
        (:func:`~dualgraph.answer.text_reader.read_products`)."""
        t0 = time.perf_counter()
        try:
            pairs = list(zip(self.retriever.retrieve(questions), self.retriever.retrieve(questions, exhaustive=True)))
        except Exception:
            pairs = [self._alone(q) for q in questions]
        spent = (time.perf_counter() - t0) / max(1, len(questions))
        out = []
        for n, (q, pair) in enumerate(zip(questions, pairs)):
            if isinstance(pair, str):
                out.append(SourceResult("tkg", error=pair, seconds=spent))
                continue
            v, x = pair
            intent = parse_question(q, currency=self.currency).intent
            reading = read_products(
                q,
                v,
                x,
                chunk_count=self._chunk_count,
                total_chunks=self._total,
                corpus=self._corpus,
                names=self._names,
                # handed over only when they are the question's condition (strategies.asked_of_text)
                unread=unread[n] if unread is not None else (),
                words_alone=bool(unread and unread[n]),
                statements=self._statement_index() if unread and unread[n] else None,
            )
            r = SourceResult(
                "tkg",
                intent=intent.kind,
                confidence=reading.confidence,
                trace=[f"tkg: {t}" for t in reading.trace],
                chunk_ids=[c.chunk_id for c in v.chunks],
                candidates=reading.candidates,
                seconds=spent,
                caps=list(reading.caps),
            )
            r.answer_list = reading.products
            r.anchor = reading.phrase if reading.confidence >= ANCHORED else None
            if intent.kind == "count":
                r.value = len(reading.products)
            elif intent.kind in ("superlative", "compare", "describe") and reading.products:
                r.value = reading.products[0]
            elif intent.kind == "yesno":
                r.value = "yes" if reading.products else "no"
            r.context = "\n\n".join(
                f"[{c.chunk_id}] ({', '.join(c.chunk.products) or 'no product'})\n{c.chunk.text.strip()}"
                for c in v.chunks[: self.max_chunks]
            )
            out.append(r)
        return out

    def _alone(self, question: str):
        try:
            return self.retriever.retrieve([question])[0], self.retriever.retrieve([question], exhaustive=True)[0]
        except Exception as e:
            return f"tkg retrieval: {type(e).__name__}: {e}"
