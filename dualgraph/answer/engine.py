"""Open an index once and answer batches of questions with any strategy.

>>> AskConfig().strategy
'skg+tkg_fb'

:class:`EngineSpec` is the picklable recipe bulk answering hands to Ray workers; each worker
opens its own :class:`QAEngine` (embedder, read-only store, Textual KG) once.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from dualgraph.answer.names import AnswerNames
from dualgraph.answer.question_text import QuestionRefused, QuestionTooLong, screen_question
from dualgraph.answer.record import AnswerRecord, Evidence, TokenCounts, error_record
from dualgraph.answer.sources import SourceResult
from dualgraph.answer.strategies import STRATEGIES, Agent, Outcome, Router, Toolkit, run_strategy
from dualgraph.answer.text_reader import fold
from dualgraph.answer.writer import LLMWriter, template_text
from dualgraph.budget import WorkBudget
from dualgraph.lexicon.vocabulary import QuestionVocabulary, current, use
from dualgraph.models.factory import LLMConfig
from dualgraph.query.caps import QUESTION_CHARS, CapHit, add_cap
from dualgraph.query.interpret.fitted import reader_config
from dualgraph.stores.base import SparqlStore

__all__ = ["AskConfig", "EngineSpec", "QAEngine"]


_SCOPE_KINDS = ("category", "brand", "entity")


class AskConfig(BaseModel):
    """How questions are answered."""

    model_config = ConfigDict(extra="forbid")

    strategy: str = Field("skg+tkg_fb", description=f"Answering strategy, one of: {', '.join(STRATEGIES)}.")
    currency: str | None = Field(
        None, description="Currency of bare prices ('under 20k'); None: the catalog's most common."
    )
    market: str | None = Field(
        None, description="Answer from this market's products and prices only (its graphs); None: all markets."
    )
    min_confidence: float = Field(
        default_factory=lambda: reader_config().min_confidence,
        ge=0,
        le=1,
        description="Symbolic answers grounded with less confidence than this fall back to the text "
        "(fallback strategies, agentic). Default: the fitted dualgraph/query/interpret/reader_config.yaml.",
    )
    empty_min_confidence: float = Field(
        default_factory=lambda: reader_config().empty_min_confidence,
        ge=0,
        le=1,
        description="An empty symbolic answer is trusted only with at least this confidence; else the text "
        "is consulted. Default: the fitted reader_config.yaml.",
    )
    max_steps: int = Field(4, ge=1, le=20, description="Agentic: most steps per question.")
    max_agent_tokens: int = Field(6000, ge=100, description="Agentic with an LLM: token budget per question.")
    llm: LLMConfig | None = Field(None, description="An OpenAI-compatible chat server; None: zero-token answering.")
    llm_sparql: bool = Field(True, description="With an LLM: generate SPARQL with it (compiler query as the draft).")
    llm_candidates: int = Field(3, ge=1, le=10, description="With an LLM: SPARQL candidates per question.")
    llm_router: bool = Field(True, description="With an LLM: route with it (the example router is its fallback).")
    llm_writer: bool = Field(True, description="With an LLM: write answer text with it (templates otherwise).")
    llm_context_chars: int = Field(
        12000,
        ge=500,
        description="With an LLM: most characters of retrieved context "
        "given to the answer writer and, per observation, to the agent (fit the model's window).",
    )
    rows_in_record: int = Field(200, ge=0, description="Result rows copied into each answer record.")
    max_question_chars: int | None = Field(
        1000,
        ge=1,
        description="Longest question read, in characters; a longer one gets an error record "
        "(None: no cap, for measuring). Questions are also refused when empty or not valid Unicode.",
    )
    in_memory_quads: int = Field(
        0,
        ge=0,
        description="Copy the embedded store into memory at open when the index holds at most this many "
        "quads: its queries then run about twice as fast, for a few seconds per million quads at open and "
        "about 0.3 KB of RAM per quad (bench/memory_store.py). 0: query the files. `ask --questions` and "
        "`serve` use IN_MEMORY_QUADS unless told otherwise.",
    )
    store_url: str | None = Field(
        None,
        description="For an index whose store is a SPARQL server: the endpoint to query, named by the user "
        "(--sparql-url), in place of the URL in the index's store.json. The store password is sent only to "
        "an endpoint named here or in DUALGRAPH_SPARQL_URL (dualgraph.pipeline.index_store.index_store_config).",
    )
    allow_insecure_auth: bool = Field(
        False, description="Send the store password over plain HTTP to another machine (off: refused; use https)."
    )
    batch_threads: int = Field(
        1,
        ge=1,
        le=64,
        description="Threads that compile and query one batch's questions at once on the Symbolic KG: "
        "Oxigraph and FAISS run without the GIL, so a second thread uses a second core for part of the "
        "work (`serve` uses 2 unless told otherwise). Answers do not change, only how fast a batch is.",
    )
    names: Literal["product", "range", "auto"] = Field(
        "auto",
        description="What answers name: catalog products "
        "(listings/variants), product ranges, or 'auto' (ranges when the "
        "catalog's pages offer option pickers, i.e. 'Variant features' specs).",
    )
    budget: WorkBudget = Field(
        default_factory=WorkBudget,
        description="The deadline and memory budget of each question (or batch of them) and each user SPARQL "
        "query, enforced by running them in a worker process that is killed past either (dualgraph.budget): "
        "DualGraph.ask/ask_many/explain/sparql, bulk runs and the server. A QAEngine opened directly runs "
        "in the caller's process and is not bounded.",
    )


class EngineSpec(BaseModel):
    """A picklable recipe for a :class:`QAEngine` (what Ray workers receive)."""

    index_dir: Path = Field(..., description="The index directory built by `dualgraph index`.")
    config: AskConfig = Field(default_factory=AskConfig, description="Answering settings.")

    @classmethod
    def serving(cls, index_dir: Path, config: AskConfig) -> EngineSpec:
        """The recipe ``dualgraph serve`` uses unless ``config`` says otherwise: an embedded store of
        up to :data:`IN_MEMORY_QUADS` quads copied into memory, 2 threads a batch."""
        defaults = {"in_memory_quads": IN_MEMORY_QUADS, "batch_threads": 2}
        config = config.model_copy(update={k: v for k, v in defaults.items() if k not in config.model_fields_set})
        return cls(index_dir=index_dir, config=config)

    def __call__(self) -> QAEngine:
        # a bulk engine (inline or one per Ray actor) answers many questions: its per-index work is
        # done once, up front, instead of by whichever questions come first
        engine = QAEngine.open(self.index_dir, self.config)
        engine.prepare()
        return engine


IN_MEMORY_QUADS = 3_000_000
"""Largest index (quads) that bulk answering and ``serve`` copy into memory by default:
about 1 GB of RAM per engine at this size."""


def _index_quads(index: Path) -> int:
    """The quads the index held after its last run, from its manifest (0 if it does not say)."""
    try:
        return int(json.loads((index / "manifest.json").read_text(encoding="utf-8")).get("triples") or 0)
    except (OSError, ValueError):
        return 0


MEMO_TEXTS = 20_000
"""Embeddings an engine keeps in memory (about 1.5 KB each for MiniLM), before starting over."""


class _MemoEmbedder:
    """An embedder that keeps the rows it returned in memory, by text.

    Questions embed the same phrases and catalog names again and again ("price", a category
    name); the response cache answers them, but with a SQLite read per call. The rows kept are
    the ones the inner embedder returned, so a text gets the very same vector either way.
    Everything else (``name``, ``dim``, hit counts) is the inner embedder's.
    """

    def __init__(self, inner: Any, limit: int = MEMO_TEXTS) -> None:
        self.inner = inner
        self.limit = limit
        self._rows: dict[str, np.ndarray] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        texts = list(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in self._rows]
        if missing:
            # a private copy: callers get fresh arrays, so one normalising in place cannot change the memo
            fresh = np.array(self.inner.embed(missing, stage=stage), dtype=np.float32)
            known = dict(zip(missing, fresh, strict=True))
            out = np.stack([known[t] if t in known else self._rows[t] for t in texts])
            if len(self._rows) + len(missing) > self.limit:
                self._rows.clear()
            self._rows.update(known)
            return out
        return np.stack([self._rows[t] for t in texts]) if texts else np.zeros((0, self.inner.dim), np.float32)


def _search_threads(n: int) -> None:
    """FAISS threads for this process's searches.

    An engine searches its flat indexes one question (one phrase) at a time: starting an OpenMP
    team for a single query row costs more than the search (7 ms against 2 ms on two busy
    cores), and a bulk run's parallelism comes from its engines, not from inside a search."""
    try:
        import faiss
    except ImportError:  # pragma: no cover - faiss is a core dependency
        return
    faiss.omp_set_num_threads(n)
    # numpy's BLAS too: its threads wake for every small product (one question's phrase against
    # the pattern index: 5.4 ms with two threads next to torch's spinning OpenMP team, 0.06 ms on one)
    from threadpoolctl import threadpool_limits

    threadpool_limits(n, user_api="blas")


class QAEngine:
    """Answers questions over one index. Build it with :meth:`open`; close it when done."""

    def __init__(
        self,
        kit: Toolkit,
        *,
        config: AskConfig,
        writer: LLMWriter | None = None,
        closers=(),
        meter=None,
        names: AnswerNames | None = None,
        vocabulary: QuestionVocabulary | None = None,
        store: SparqlStore | None = None,
    ) -> None:
        self.store = store  # the index's store, read-only (what a capped SPARQL endpoint may query)
        self.kit, self.config, self.writer, self._closers, self.meter = kit, config, writer, list(closers), meter
        self.names = names or AnswerNames({}, "product")
        self.vocabulary = vocabulary or current()  # the catalog's words (see dualgraph.lexicon.vocabulary)

    @classmethod
    def open(cls, index_dir: str | Path, config: AskConfig | None = None) -> QAEngine:
        from dualgraph.answer.agentic import Planner
        from dualgraph.answer.router import ExampleRouter, LLMRouter
        from dualgraph.answer.sources import SymbolicSource, TextualSource
        from dualgraph.lexicon.mining import load_prose_synonyms
        from dualgraph.lexicon.patterns import PatternIndex
        from dualgraph.models.base import TokenMeter
        from dualgraph.models.factory import build_models, index_models
        from dualgraph.pipeline.generations import lease
        from dualgraph.pipeline.index_store import index_store_config, open_store
        from dualgraph.query.ground.text_features import read_text_features
        from dualgraph.query.interpret.compiler import Compiler
        from dualgraph.tkg.text_features import STATED_FILE

        config = config or AskConfig()
        if config.strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {config.strategy!r}; choose one of {', '.join(STRATEGIES)}")
        # the generation readers see now, held until the engine closes (pipeline.generations)
        held = lease(index_dir)
        index = held.dir
        if not (index / "manifest.json").is_file():
            raise FileNotFoundError(
                f"{index} is not an index directory (no manifest.json): run `dualgraph index` first"
            )
        # before the models load: a store that may not be opened is refused at once
        store_config = index_store_config(index, url=config.store_url, allow_insecure_auth=config.allow_insecure_auth)
        meter = TokenMeter()
        cached, llm = build_models(index_models(index).model_copy(update={"llm": config.llm}), meter=meter)
        embedder = _MemoEmbedder(cached)
        store = open_store(
            store_config,
            index,
            read_only=True,
            market=config.market,
            in_memory=0 < _index_quads(index) <= config.in_memory_quads,
        )
        patterns = PatternIndex.load(index / "patterns", embedder)
        names = AnswerNames.detect(store, config.names)
        compiler = Compiler(
            store,
            patterns,
            currency=config.currency,
            count_ranges=names.mode == "range",
            prose_synonyms=load_prose_synonyms(index, store, patterns.patterns),
            text_features=read_text_features(index / "tkg" / STATED_FILE),
        )
        generator = None
        if llm is not None and config.llm_sparql:
            from dualgraph.query.sparql.llm import LLMSparqlGenerator

            generator = LLMSparqlGenerator(
                llm, patterns, store, n_candidates=config.llm_candidates, compiler=compiler, currency=config.currency
            )
        textual = None
        if (index / "tkg" / "entity_index").is_dir():
            from dualgraph.tkg.loader import TextualKG

            textual = TextualSource(TextualKG.open(index).entity_vote(embedder), currency=config.currency)

        compiled: dict = {}

        def probe(question: str):
            c = compiler.compile(question)
            if len(compiled) > 1024:  # questions routed to the text never collect theirs
                compiled.clear()
            compiled[question] = c  # the symbolic source answers from it instead of compiling again
            # conditions the specs state: not scope (category, brand, named products), not prose mentions
            grounded = sum(
                1 for g in c.groundings if g.resolved and g.kind not in _SCOPE_KINDS and (g.snippet or g.filters)
            )
            prose = sum(1 for g in c.groundings if g.resolved and g.kind == "prose")
            return c.intent.kind, grounded, c.confidence if not prose else min(c.confidence, 0.3)

        examples = ExampleRouter(embedder, probe=probe)
        router: Router = LLMRouter(llm, examples) if llm is not None and config.llm_router else examples
        agent: Agent = Planner()
        if llm is not None:
            from dualgraph.answer.agent_llm import LLMAgent

            agent = LLMAgent(
                llm,
                fallback=agent,
                max_steps=config.max_steps,
                max_tokens=config.max_agent_tokens,
                max_observation_chars=config.llm_context_chars,
            )
        symbolic = SymbolicSource(compiler, generator=generator, compiled=compiled, threads=config.batch_threads)
        kit = Toolkit(
            symbolic,
            textual,
            router,
            agent,
            min_confidence=config.min_confidence,
            empty_min_confidence=config.empty_min_confidence,
            max_steps=config.max_steps,
        )
        writer = (
            LLMWriter(llm, max_context_chars=config.llm_context_chars)
            if llm is not None and config.llm_writer
            else None
        )
        return cls(
            kit,
            config=config,
            writer=writer,
            closers=[symbolic.close, store.close, held.release],
            meter=meter,
            names=names,
            vocabulary=compiler.vocabulary,
            store=store,
        )

    def prepare(self) -> QAEngine:
        """Do the per-index work now that questions would otherwise start lazily: the products
        holding each entry, the catalog's names and words embedded (lexicon, text features,
        categories), the text's word index; FAISS searches single-threaded. For engines that
        answer many questions (bulk runs, the server); answers do not change."""
        _search_threads(1)
        for source in (self.kit.symbolic, self.kit.textual):
            prepare = getattr(source, "prepare", None)
            if callable(prepare):
                prepare()
        return self

    def close(self) -> None:
        for close in self._closers:
            close()
        self._closers.clear()

    def __enter__(self) -> QAEngine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- answering --------------------------------------------------------------------------

    def answer(self, question: str, *, strategy: str | None = None, qid: str = "0") -> AnswerRecord:
        """One question (see :meth:`answer_batch`)."""
        return self.answer_batch([(qid, question)], strategy=strategy)[0]

    def answer_batch(self, items: list[tuple[str, str]], *, strategy: str | None = None) -> list[AnswerRecord]:
        """One :class:`AnswerRecord` per ``(id, question)``, in order; strategies run batched.

        A question refused by :func:`~dualgraph.answer.question_text.screen_question` (too long,
        empty, not valid Unicode) gets an error record; the others are read cleaned.
        """
        name = strategy or self.config.strategy
        refused: dict[int, AnswerRecord] = {}
        read: list[tuple[str, str, str]] = []  # (id, question as asked, question as read)
        for i, (qid, q) in enumerate(items):
            try:
                read.append((qid, q, screen_question(q, max_chars=self.config.max_question_chars)))
            except QuestionRefused as e:
                cut = []
                if isinstance(e, QuestionTooLong):
                    cut.append(
                        QUESTION_CHARS.hit(e.limit, f"a question of {e.length} characters: not read", lowered=True)
                    )
                refused[i] = error_record(qid, q, name, f"question refused: {e}", caps=cut)
        records = iter(self._answer_read(read, name) if read else [])
        return [refused[i] if i in refused else next(records) for i in range(len(items))]

    def _answer_read(self, items: list[tuple[str, str, str]], name: str) -> list[AnswerRecord]:
        t0 = time.perf_counter()
        # every source reads a word as the catalogue spells it ("aluminum" where it writes "aluminium")
        respelled = self.vocabulary.in_catalog_spelling([q for _, _, q in items])
        questions = [q for q, _ in respelled]
        with use(self.vocabulary):  # the catalog's words, for every source that reads the question
            prefetch = getattr(self.kit.symbolic, "prefetch", None)
            if callable(prefetch):
                prefetch(questions)  # one embedding call for the batch's phrases, not one per phrase
            outcomes = run_strategy(name, questions, self.kit)
        if self.names.mode == "range":
            for o in outcomes:
                o.result.answer_list = self.names.apply(o.result.answer_list)
                o.result.value = self.names.value(o.result.value)
                o.trace.append("answers name product ranges (the catalog's pages offer option pickers)")
        texts, writer_tokens = self._texts(questions, outcomes)
        share = (time.perf_counter() - t0) / max(1, len(items))  # batched work: each question's share
        for (_, asked, q), o, (_, changes) in zip(items, outcomes, respelled):
            if q != asked:
                o.trace.append("question cleaned: Unicode NFC, control and invisible characters removed")
            if changes:
                said = ", ".join(f"{a!r} as {b!r}" for a, b in changes)
                o.trace.append(f"read in the catalogue's spelling: {said} (one letter apart, same meaning)")
        return [
            self._record(qid, asked, name, o, text, wt, share)
            for (qid, asked, _), o, text, wt in zip(items, outcomes, texts, writer_tokens)
        ]

    def _texts(self, questions: list[str], outcomes: list[Outcome]) -> tuple[list[str], list[TokenCounts]]:
        texts = [
            template_text(
                o.result.intent,
                o.result.answer_list,
                o.result.value,
                source="tkg" if o.result.source == "tkg" else "skg",
                phrase=_phrase(o.result),
            )
            for o in outcomes
        ]
        tokens = [TokenCounts() for _ in outcomes]
        for i, o in enumerate(outcomes):
            if o.result.refused and not o.text:
                o.text = o.result.refused  # the refusal is the answer: no writer turns it into a list
            if o.text:
                texts[i] = o.text
        if self.writer is None:
            return texts, tokens
        items, where = [], []
        for i, (q, o) in enumerate(zip(questions, outcomes)):
            if o.text:
                continue
            where.append(i)
            r = o.result
            items.append(
                {
                    "question": q,
                    "context": "\n\n".join(u.context for u in o.used if u.context),
                    "answer_list": r.answer_list,
                    "value": r.value,
                    "choose_from": r.candidates if r.source == "tkg" else None,
                }
            )
        for i, res in zip(where, self.writer.write(items)):
            tokens[i] = TokenCounts(prompt=res.prompt_tokens, completion=res.completion_tokens)
            parsed = res.parsed if isinstance(res.parsed, dict) else None
            if res.error or parsed is None:
                outcomes[i].trace.append(f"llm writer failed ({res.error or 'no JSON'}); template text kept")
                continue
            texts[i] = str(parsed.get("answer") or texts[i])
            chosen = parsed.get("answer_list")
            if isinstance(chosen, list) and outcomes[i].result.source == "tkg":
                allowed = set(outcomes[i].result.candidates)
                kept = [n for n in dict.fromkeys(chosen) if n in allowed]
                outcomes[i].result.answer_list = kept
                outcomes[i].trace.append(f"llm chose {len(kept)} products from the text's candidates")
        return texts, tokens

    def _record(
        self, qid: str, question: str, strategy: str, o: Outcome, text: str, writer_tokens: TokenCounts, seconds: float
    ) -> AnswerRecord:
        r = o.result
        sym = next((u for u in o.used if u.source == "skg"), None)
        tokens = o.tokens + writer_tokens
        for u in o.used:
            tokens = tokens + u.tokens
        trace = [t for u in o.used for t in u.trace] + o.trace
        errors = [u.error for u in o.used if u.error]
        ev = Evidence(
            sparql=r.sparql or (sym.sparql if sym else None),
            rows=(r.rows or (sym.rows if sym else []))[: self.config.rows_in_record],
            rows_total=r.rows_total or (sym.rows_total if sym else 0),
            chunk_ids=[c for u in o.used for c in u.chunk_ids],
            sources=o.route,
            confidence=sym.confidence if sym else None,
            trace=trace,
        )
        failed = r.error if (r.error and r.empty) else None
        if failed is None and r.empty and errors and all(u.error for u in o.used):
            failed = "; ".join(errors)
        names = r.answer_list if (r.answer_list or r.intent != "count") else None  # a count lists nothing
        caps: list[CapHit] = []
        for u in o.used:
            # the specs' caps whenever they were asked (what they cut may be why the text was asked);
            # the text's when its answer is (part of) the answer: a guess set aside cut nothing that counts
            if u.source != "tkg" or "tkg" in r.source.split("+"):
                for hit in u.caps:
                    add_cap(caps, hit)
        return AnswerRecord(
            unread=_unread(sym, r),
            caps=caps,
            id=qid,
            question=question,
            answer=text if not failed else "",
            answer_list=names,
            value=r.value,
            strategy=strategy,
            route=o.route,
            evidence=ev,
            tokens=tokens,
            latency_s=round(seconds, 4),
            error=failed,
        )


def _unread(sym: SourceResult | None, final: SourceResult) -> list[str]:
    """The symbolic side's unread phrases, less those the text answered by (its anchor's words)."""
    if sym is None:
        return []
    if final.source == "skg" or not final.anchor:
        return list(sym.unread)
    anchor = set(fold(final.anchor).split())
    return [u for u in sym.unread if not set(fold(u).split()) <= anchor]


def _phrase(r: Any) -> str | None:
    for t in r.trace:
        if "anchored on " in t:
            return t.split("anchored on ", 1)[1].split(":", 1)[0].strip("'\"")
    return None
