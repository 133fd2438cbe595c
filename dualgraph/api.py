"""One front door to an index: :class:`DualGraph` builds it, answers over it, queries it, serves it.

Everything the ``dualgraph`` command does from a terminal, in Python::

    from dualgraph import DualGraph

    graph = DualGraph.open("runs/demo/index")          # reads nothing yet
    record = graph.ask("Which phones have 5G?")        # loads the engine on first use (seconds)
    print(graph.explain("Which phones have 5G?"))      # the trace and SPARQL `dualgraph ask --explain` prints
    graph.sparql("SELECT ?n WHERE { ?p skg:hasName ?n } LIMIT 3")   # read-only, as `dualgraph sparql`
    graph.close()                                      # or use it as a context manager

The parts are opened lazily, each by the first call that needs it: the read-only store
(milliseconds) by :meth:`DualGraph.sparql`, the answering engine (the embedder, the pattern
index, the Textual KG: seconds) by :meth:`DualGraph.ask` and its kin, the Textual KG and the
embedder by :meth:`DualGraph.search`. The CLI's ``index``, ``ask``, ``sparql``, ``search``, ``check``
and ``serve`` commands and the Ray jobs in ``jobs/`` are thin shells over this class.

Importing this module is cheap: the engine, the pipeline and the stores are imported by the
calls that use them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

if TYPE_CHECKING:  # heavy modules: imported by the calls that need them, not by ``import dualgraph``
    from dualgraph.answer.engine import AskConfig, EngineSpec, QAEngine
    from dualgraph.answer.record import AnswerRecord
    from dualgraph.budget import WorkBudget
    from dualgraph.budget.engine import IsolatedEngine
    from dualgraph.budget.worker import BudgetedWorker
    from dualgraph.config import IndexConfig
    from dualgraph.models.base import Embedder
    from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, BulkReport
    from dualgraph.pipeline.generations import Lease
    from dualgraph.pipeline.index_check import PartCheck, Reader
    from dualgraph.serve.config import ServeConfig
    from dualgraph.stores.base import SparqlStore
    from dualgraph.tkg.loader import TextualKG
    from dualgraph.tkg.retrieval import Retrieval

__all__ = ["DualGraph", "format_answer", "format_explanation"]

SearchMode = Literal["vote", "exhaustive", "naive"]
T = TypeVar("T")

QUERY_GRACE_S = 0.5
"""Seconds past a SPARQL query's own timeout before its worker is killed: a query the store stops
by itself (at its next row) ends without costing a new worker."""


class DualGraph:
    """A catalog's index (Symbolic KG + Textual KG) and everything one does with it.

    Make one with :meth:`open` (an index that exists) or :meth:`build` (index a dataset
    directory, then open it); the plain constructor takes the same arguments as
    :meth:`open` and checks nothing. Close it with :meth:`close`, or use it in a ``with``
    block. Settings for answering are an :class:`~dualgraph.answer.engine.AskConfig`
    (``config=``), with ``strategy`` and ``market`` as shortcuts.

    What each call costs: :meth:`open` reads nothing; :meth:`sparql` opens the read-only
    store (milliseconds, plus a worker process's start: a second or so); :meth:`ask`,
    :meth:`ask_many` and :meth:`explain` open the answering engine on first use (seconds: the
    embedder, the pattern index, the Textual KG), then take milliseconds a question;
    :meth:`search` loads the Textual KG and the embedder on first use; :meth:`build` indexes
    (minutes for thousands of products); :meth:`ask_file` answers a whole questions file (on
    Ray Data when it pays); :meth:`serve` runs Ray Serve until stopped.

    Every question and every SPARQL query runs under a budget (``AskConfig.budget``,
    :class:`~dualgraph.budget.WorkBudget`: a deadline and 1 GB of memory by default) in a worker
    process that is killed past it, so a runaway query or reading ends with its work: a
    question gets an error record naming the budget (``over_budget``), a query raises
    :class:`~dualgraph.budget.DeadlineExceeded` (a ``QueryTimeout``) or
    :class:`~dualgraph.budget.MemoryExceeded`. :attr:`engine` and :attr:`store` are the
    in-process ones, for callers that want them; they are not bounded.

    A tiny catalog, indexed in a temporary folder, then asked, queried and searched:

    >>> import tempfile
    >>> from dualgraph.config import IndexConfig
    >>> from dualgraph.corpus.model import Variant
    >>> from dualgraph.corpus.specsqa import write_dataset
    >>> def phone(name, mah, text):
    ...     spec = (("Battery:Capacity", f"{mah} mAh"),)
    ...     return (name.replace(" ", "-"), text, [Variant(name, name, ("phones",), spec)])
    >>> dataset, index = tempfile.mkdtemp(), tempfile.mkdtemp()
    >>> _ = write_dataset(dataset, [
    ...     phone("Phone A", 6000, "# Phone A\\n\\nThe Phone A has stereo speakers and a 6000 mAh battery."),
    ...     phone("Phone B", 4000, "# Phone B\\n\\nThe Phone B is light, with a 4000 mAh battery."),
    ... ])
    >>> graph = DualGraph.build(dataset, index, config=IndexConfig(runner="inline", progress=False))
    >>> graph.manifest["products"], graph.loaded
    (2, ())
    >>> graph.sparql("SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n } ORDER BY ?n")["results"]["bindings"]
    [{'n': {'type': 'literal', 'value': 'Phone A'}}, {'n': {'type': 'literal', 'value': 'Phone B'}}]
    >>> graph.loaded
    ('store',)
    >>> record = graph.ask("Which phones have a battery of at least 5000 mAh?")
    >>> record.answer_list, record.route
    (['Phone A'], ['skg'])
    >>> [r.answer_list for r in graph.ask_many(["Which phones have a 4000 mAh battery?", "How many phones are there?"])]
    [['Phone B'], None]
    >>> print(format_answer(record))  # doctest: +ELLIPSIS
    1 product match:
    - Phone A
    [skg+tkg_fb: skg, symbolic confidence 0.90, ... ms]
    >>> print(graph.explain(record))  # doctest: +ELLIPSIS
    trace:
      skg: parse: numeric 'at least 5000 mAh': battery >= 5000.0 mAh
    ...
    SELECT DISTINCT ?p ?name WHERE {
    ...
      { SELECT DISTINCT ?p WHERE { ?p skg:hasSpec ?s1 ... FILTER(?v1 >= 5000) } }
    ...
    >>> graph.search("stereo speakers", k=1).products
    ['Phone A']
    >>> with graph:  # leaving the block closes what was opened
    ...     graph.loaded
    ('store', 'engine', 'textual')
    >>> graph.loaded
    ()
    """

    def __init__(
        self,
        index_dir: str | Path,
        *,
        config: AskConfig | None = None,
        strategy: str | None = None,
        market: str | None = None,
    ) -> None:
        self.index_dir = Path(index_dir)
        overrides = {k: v for k, v in (("strategy", strategy), ("market", market)) if v is not None}
        # the AskConfig class lives with the engine (a heavy import): without a config it is made on first use
        self._given: AskConfig | None = config.model_copy(update=overrides) if config is not None else None
        self._overrides = overrides
        self._manifest: dict[str, Any] | None = None
        self._lock = threading.RLock()
        self._closed = False
        self._store: SparqlStore | None = None
        self._engine: QAEngine | None = None
        self._textual: TextualKG | None = None
        self._embedder: Embedder | None = None
        self._retrievers: dict[tuple, Any] = {}
        self._answers: IsolatedEngine | None = None  # the engine in a budgeted worker (ask and its kin)
        self._queries: BudgetedWorker | None = None  # the store in a budgeted worker (sparql)
        self._lease: Lease | None = None

    # -- making one -------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        index_dir: str | Path,
        *,
        config: AskConfig | None = None,
        strategy: str | None = None,
        market: str | None = None,
    ) -> DualGraph:
        """The index at ``index_dir`` (built by :meth:`build` or ``dualgraph index``); loads nothing.

        ``config``: how questions are answered (:class:`~dualgraph.answer.engine.AskConfig`;
        default its defaults); ``strategy`` and ``market`` replace its fields of that name.
        ``market`` restricts answers and SPARQL to one market's products and prices.
        Raises :class:`FileNotFoundError` when the folder holds no finished index (no
        ``manifest.json``) and :class:`ValueError` for an unknown strategy.

        >>> import tempfile
        >>> try:
        ...     DualGraph.open(tempfile.mkdtemp())
        ... except FileNotFoundError as e:
        ...     print(str(e).split(" ", 1)[1])
        is not an index directory (no manifest.json): run `dualgraph index` first
        """
        graph = cls(index_dir, config=config, strategy=strategy, market=market)
        if not (graph.index_dir / "manifest.json").is_file():
            raise FileNotFoundError(
                f"{graph.index_dir} is not an index directory (no manifest.json): run `dualgraph index` first"
            )
        if config is not None or strategy is not None:
            from dualgraph.answer.strategies import STRATEGIES

            chosen = graph.config.strategy
            if chosen not in STRATEGIES:
                raise ValueError(f"unknown strategy {chosen!r}; choose one of {', '.join(STRATEGIES)}")
        return graph

    @classmethod
    def build(
        cls,
        dataset_dir: str | Path,
        index_dir: str | Path,
        *,
        config: IndexConfig | None = None,
        market: str | None = None,
        ask_config: AskConfig | None = None,
    ) -> DualGraph:
        """Index a SpecsQA dataset directory into ``index_dir``, then open it (costly: minutes for
        thousands of products; a rerun converts only what changed).

        ``config``: how the index is built (:class:`~dualgraph.config.IndexConfig`; its default
        runs on local Ray when that pays); ``market``: the market this directory is the whole
        snapshot of (see :func:`~dualgraph.pipeline.index.build_index`). ``ask_config``: the
        returned graph's answering settings. The build's manifest is :attr:`manifest`.
        SIGTERM and Ctrl-C stop the run with the Ray it started shut down; a rerun resumes.
        """
        from dualgraph.pipeline.index import build_index
        from dualgraph.pipeline.ray_session import ray_session

        with ray_session():
            manifest = build_index(dataset_dir, index_dir, config, market=market)
        graph = cls(index_dir, config=ask_config)
        graph._manifest = manifest
        return graph

    # -- what it holds ----------------------------------------------------------------------------

    @property
    def config(self) -> AskConfig:
        """The answering settings (:class:`~dualgraph.answer.engine.AskConfig`)."""
        if self._given is None:
            from dualgraph.answer.engine import AskConfig

            self._given = AskConfig(**self._overrides)
        return self._given

    @property
    def market(self) -> str | None:
        """The market answers and SPARQL are restricted to (None: all markets)."""
        if self._given is not None:
            return self._given.market
        return self._overrides.get("market")

    @property
    def manifest(self) -> dict[str, Any]:
        """What the last index run wrote (``manifest.json``): counts, timings, model usage."""
        if self._manifest is None:
            self._manifest = json.loads((self.generation / "manifest.json").read_text(encoding="utf-8"))
        return self._manifest

    @property
    def budget(self) -> WorkBudget:
        """The budget of each question and SPARQL query (``config.budget``; read without importing the engine)."""
        if self._given is not None:
            return self._given.budget
        from dualgraph.budget import WorkBudget

        return WorkBudget()

    @property
    def generation(self) -> Path:
        """The directory this graph reads: the index's generation that was current when the first
        part was opened (``INDEX/generations/gNNNNNN``), held until :meth:`close` so that an index
        run publishing a newer one meanwhile does not delete it; the index directory itself for an
        index built before generations. Every part (store, engine, Textual KG) comes from it, so
        they always belong together; open the index again to read a newer one."""
        with self._lock:
            self._check_open()
            if self._lease is None:
                from dualgraph.pipeline.generations import lease

                self._lease = lease(self.index_dir)
            return self._lease.dir

    @property
    def loaded(self) -> tuple[str, ...]:
        """The parts opened so far, of ``'store'``, ``'engine'``, ``'textual'`` (in this process or in
        the budgeted workers that answer questions and queries)."""
        parts = (
            ("store", self._store or self._queries),
            ("engine", self._engine or self._answers),
            ("textual", self._textual),
        )
        return tuple(name for name, part in parts if part is not None)

    @property
    def store(self) -> SparqlStore:
        """The Symbolic KG's store, read-only (opened on first use: milliseconds for the embedded one)."""
        with self._lock:
            self._check_open()
            if self._store is None:
                from dualgraph.pipeline.index_store import index_store_config, open_store

                given = self._given

                where = self.generation

                def opened() -> SparqlStore:
                    config = index_store_config(
                        where,
                        url=given.store_url if given is not None else None,
                        allow_insecure_auth=given.allow_insecure_auth if given is not None else False,
                    )
                    return open_store(config, where, read_only=True, market=self.market)

                self._store = _open_checked(where, "store", opened)
            return self._store

    @property
    def engine(self) -> QAEngine:
        """The answering engine (:class:`~dualgraph.answer.engine.QAEngine`) in this process, opened on
        first use: seconds (the embedder, the pattern index, the Textual KG). Its calls are not
        bounded by the budget; :meth:`ask` and its kin use a budgeted worker's engine instead
        (unless ``config.budget.isolate`` is off, when they use this one)."""
        with self._lock:
            self._check_open()
            if self._engine is None:
                from dualgraph.answer.engine import QAEngine

                where = self.generation
                self._engine = _open_checked(where, "engine", lambda: QAEngine.open(where, self.config))
            return self._engine

    def engine_spec(self, *, serving: bool = False) -> EngineSpec:
        """The picklable recipe of this graph's engine, which Ray workers open for themselves
        (bulk answering's actors, Serve's replicas). With ``serving``, the settings ``dualgraph
        serve`` uses unless told otherwise: an embedded store of up to
        :data:`~dualgraph.answer.engine.IN_MEMORY_QUADS` quads copied into memory, 2 threads a batch.

        >>> spec = DualGraph("index", strategy="tkg").engine_spec(serving=True)
        >>> spec.config.strategy, spec.config.batch_threads, spec.config.in_memory_quads > 0
        ('tkg', 2, True)
        """
        from dualgraph.answer.engine import EngineSpec

        if serving:
            return EngineSpec.serving(self.index_dir, self.config)
        return EngineSpec(index_dir=self.index_dir, config=self.config)

    # -- answering --------------------------------------------------------------------------------

    def prepare(self) -> DualGraph:
        """Open the engine and do its per-index work now (seconds to a minute on a large catalog)
        rather than in the first questions: for a process that will answer many. Answers do not change."""
        self._answerer().prepare()
        return self

    def open_engine(self) -> DualGraph:
        """Open what answers questions now rather than at the first question (the engine, in its
        budgeted worker unless ``config.budget.isolate`` is off), raising what opening raises:
        :class:`FileNotFoundError`, a :class:`~dualgraph.stores.base.StoreError`,
        :class:`~dualgraph.pipeline.index_check.IndexDamaged`."""
        self._answerer()
        return self

    def _answerer(self) -> QAEngine | IsolatedEngine:
        """What answers :meth:`ask` and its kin: the engine in a budgeted worker, opened on first use
        (or, with ``config.budget.isolate`` off, the in-process :attr:`engine`)."""
        if not self.config.budget.isolate:
            return self.engine
        with self._lock:
            self._check_open()
            if self._answers is None:
                from dualgraph.budget.engine import IsolatedEngine

                where = self.generation  # the worker reads the generation this graph holds
                spec = self.engine_spec().model_copy(update={"index_dir": where})
                self._answers = _open_checked(where, "engine", lambda: IsolatedEngine(spec).open())
            return self._answers

    def ask(self, question: str, *, strategy: str | None = None) -> AnswerRecord:
        """Answer one question: an :class:`~dualgraph.answer.record.AnswerRecord` (``answer``,
        ``answer_list``, ``value``, ``evidence`` with the SPARQL, its rows and the trace).

        ``strategy`` replaces the configured one for this question. The first call opens the
        engine (seconds); for many questions :meth:`ask_many` is faster (one batch). A question
        the engine refuses (empty, too long, not valid Unicode) gets a record with ``error`` set,
        and so does one that runs past its budget (``over_budget`` says which: its work was stopped).
        """
        return self._answerer().answer(question, strategy=strategy)

    def ask_many(
        self, questions: Iterable[str] | Mapping[str, str], *, strategy: str | None = None, batch_size: int = 16
    ) -> list[AnswerRecord]:
        """Answer several questions in batches of ``batch_size``; one record each, in order.

        ``questions``: texts (record ids ``"0"``, ``"1"``, ...) or a mapping of id to text. The
        engine works on a batch at once (one embedding call for its phrases, shared compiler
        work), as bulk answering and the server do, and as they do, a question that makes a
        batch fail gets its own error record instead of failing the others. A batch runs under
        one question's budget; past it, its questions are answered again one by one, each under
        its own.
        """
        from dualgraph.pipeline.bulk_answer import answer_items

        if isinstance(questions, str):
            raise TypeError("ask_many takes several questions (a list, or a mapping of id to question); ask takes one")
        if isinstance(questions, Mapping):
            items = [(str(k), v) for k, v in questions.items()]
        else:
            items = [(str(i), q) for i, q in enumerate(questions)]
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        engine = self._answerer()
        name = strategy or self.config.strategy
        out: list[AnswerRecord] = []
        for start in range(0, len(items), batch_size):
            out += answer_items(engine, items[start : start + batch_size], strategy=name)
        return out

    def explain(self, question: str | AnswerRecord, *, strategy: str | None = None) -> str:
        """Why the answer is what it is, as ``dualgraph ask --explain`` prints it below the answer:
        the caps its work reached, every decision of the trace (how the question was read and
        grounded, the route taken), the SPARQL with its first rows, the text chunks used
        (:func:`format_explanation`).

        ``question``: a question (answered now, as :meth:`ask`: the first call opens the engine)
        or a record already answered. :func:`format_answer` gives the answer and this together.
        """
        from dualgraph.answer.record import AnswerRecord

        record = question if isinstance(question, AnswerRecord) else self.ask(question, strategy=strategy)
        return format_explanation(record)

    def ask_file(self, questions: str | Path, out: str | Path, *, bulk: BulkAnswerConfig | None = None) -> BulkReport:
        """Answer a questions file (SpecsQA JSON: an object keyed by id, each with ``question``)
        into ``out`` (JSON Lines, one record a question), as ``dualgraph ask --questions``:
        resumable, on Ray Data actors when it pays (``bulk``:
        :class:`~dualgraph.pipeline.bulk_answer.BulkAnswerConfig`), each opening its own engine
        from :meth:`engine_spec`; the index folder must be one every worker sees. Returns the
        run's report. SIGTERM and Ctrl-C stop it with the Ray it started shut down.

        Each engine answers in a budgeted worker (``config.budget``): a question past its
        deadline or memory budget gets an error record saying which (``over_budget``) and the run
        goes on; a resumed run keeps that record unless ``bulk.retry_over_budget``.
        """
        from dualgraph.pipeline.bulk_answer import bulk_answer
        from dualgraph.pipeline.index_check import check_readable
        from dualgraph.pipeline.ray_session import ray_session

        where = self.generation  # held through the run: every worker reads this generation
        check_readable(where, "engine")  # once here, not as a traceback from every worker
        spec = self.engine_spec().model_copy(update={"index_dir": where})
        factory: Callable[[], Any] = spec
        if spec.config.budget.isolate:
            from dualgraph.budget.engine import IsolatedEngineFactory

            factory = IsolatedEngineFactory(spec)
        with ray_session():
            return bulk_answer(questions, out, engine_factory=factory, strategy=spec.config.strategy, config=bulk)

    # -- the graphs themselves --------------------------------------------------------------------

    def sparql(self, query: str, *, timeout: float = 30.0, max_rows: int = 10_000) -> dict[str, Any]:
        """Run a read-only SPARQL query, as ``dualgraph sparql`` does (prefixes ``skg:`` ``skgt:``
        ``rdf:`` ``rdfs:`` ``xsd:`` predeclared); opens the store on first use (milliseconds).

        Returns SPARQL 1.1 JSON results: ``{"head": {"vars": [...]}, "results": {"bindings":
        [...]}}`` for SELECT, ``{"head": {}, "boolean": ...}`` for ASK; CONSTRUCT and DESCRIBE
        give ``{"triples": [(s, p, o), ...]}``. A result of more than ``max_rows`` rows (or
        triples) is cut to ``max_rows`` and says so: ``"truncated": True, "max_rows": max_rows``.

        The query is checked on its parse tree first (:func:`~dualgraph.stores.guard.read_query`):
        updates, SERVICE calls and engine built-ins raise
        :class:`~dualgraph.stores.guard.QueryRefused` before the store is touched; a query
        running past ``timeout`` seconds raises :class:`~dualgraph.stores.base.QueryTimeout`;
        other failures :class:`~dualgraph.stores.base.StoreError` (all three are StoreErrors).

        On the embedded store the query runs in a worker process holding the store (started on
        first use), which is killed when the query runs past ``timeout`` (and :data:`QUERY_GRACE_S`
        more) or grows past ``config.budget.memory_mb``: :class:`~dualgraph.budget.DeadlineExceeded`
        (a QueryTimeout) or :class:`~dualgraph.budget.MemoryExceeded` (a StoreError) then says the
        work has ended. A SPARQL server's queries run there, under its own limits and ``timeout``.

        >>> import tempfile
        >>> try:
        ...     DualGraph(tempfile.mkdtemp()).sparql('INSERT DATA { skg:x skg:hasName "x" }')
        ... except Exception as e:
        ...     print(type(e).__name__, e)
        QueryRefused INSERT DATA refused: queries are read-only (use insert_where or bulk_load to write)
        """
        from dualgraph.budget import DeadlineExceeded
        from dualgraph.budget.hosts import runs_here, user_query
        from dualgraph.stores.guard import read_query

        read_query(query)  # the stores' own check, on the parsed query: a refused one starts nothing
        budget = self.budget
        if not budget.isolate or (self._queries is None and not runs_here(self.index_dir)):
            # a SPARQL server's queries run there, under its limits and the client's timeout
            return user_query(self.store, query, timeout=timeout, max_rows=max_rows)
        worker = self._query_worker()
        deadline = timeout + QUERY_GRACE_S if timeout is not None else budget.deadline_s
        try:
            return worker.call(
                "sparql", query, timeout, max_rows, deadline_s=deadline, memory_mb=budget.memory_mb, what="the query"
            )
        except DeadlineExceeded:
            raise DeadlineExceeded("the query", timeout if timeout is not None else deadline or 0.0) from None

    def _query_worker(self) -> BudgetedWorker:
        """The read-only store in a budgeted worker, started on first use (the index glanced at first)."""
        with self._lock:
            self._check_open()
            if self._queries is None:
                from dualgraph.budget.hosts import StoreOpener
                from dualgraph.budget.worker import BudgetedWorker

                given, budget, where = self._given, self.budget, self.generation
                opener = StoreOpener(
                    where,
                    store_url=given.store_url if given is not None else None,
                    allow_insecure_auth=given.allow_insecure_auth if given is not None else False,
                    market=self.market,
                )
                worker = BudgetedWorker(
                    opener, name="store", open_timeout_s=budget.open_timeout_s, check_every_s=budget.check_every_s
                )

                def opened() -> BudgetedWorker:
                    try:
                        worker.wait_ready()
                    except BaseException:
                        worker.close()
                        raise
                    return worker

                self._queries = _open_checked(where, "store", opened)
            return self._queries

    def search(self, text: str, *, k: int = 5, entities: int = 10, mode: SearchMode = "vote") -> Retrieval:
        """The Textual KG's entities and chunks for a text, as ``dualgraph search`` finds them: a
        :class:`~dualgraph.tkg.retrieval.Retrieval` (``entities``, ``chunks``, ``products``).

        ``mode``: ``"vote"`` (the top ``k`` chunks by the votes of the ``entities`` best-matching
        entities), ``"exhaustive"`` (also every chunk that mentions a matched entity: see
        ``products``) or ``"naive"`` (plain vector search over chunk embeddings; only for an index
        built with ``tkg.embed_chunks``). The first call loads the Textual KG and the embedder
        (seconds). Raises :class:`FileNotFoundError` when the index has no Textual KG (or, for
        ``"naive"``, no chunk embeddings).
        """
        if mode not in ("vote", "exhaustive", "naive"):
            raise ValueError(f"unknown search mode {mode!r}; one of vote, exhaustive, naive")
        key = ("naive", k) if mode == "naive" else ("vote", k, entities)
        with self._lock:
            self._check_open()
            retriever = self._retrievers.get(key)
            if retriever is None:
                textual, embedder = self._textual_kg()
                if mode == "naive":
                    retriever = textual.naive(embedder, top_chunks=k)
                else:
                    retriever = textual.entity_vote(embedder, top_chunks=k, top_entities=entities)
                self._retrievers[key] = retriever
        if mode == "naive":
            return retriever.retrieve([text])[0]
        return retriever.retrieve([text], exhaustive=mode == "exhaustive")[0]

    def _textual_kg(self) -> tuple[TextualKG, Embedder]:
        if self._textual is None:
            from dualgraph.tkg.loader import TextualKG

            where = self.generation
            self._textual = _open_checked(where, "text", lambda: TextualKG.open(where))
        if self._embedder is None:
            from dualgraph.models.factory import build_models, index_models

            # the (cached) embedder the index was built with, so texts land in the same vector space
            self._embedder, _ = build_models(index_models(self.generation).model_copy(update={"llm": None}))
        return self._textual, self._embedder

    # -- checking ---------------------------------------------------------------------------------

    def check(self, *, store_url: str | None = None, allow_insecure_auth: bool = False) -> list[PartCheck]:
        """Verify every part of the index against its manifest, as ``dualgraph check`` does: one
        :class:`~dualgraph.pipeline.index_check.PartCheck` a part (``part``, ``status`` of ok,
        missing, corrupt or absent, ``why``; ``broken`` when missing or corrupt). Reads every
        byte (checksums, the store's counts): seconds a gigabyte. Writes and repairs nothing;
        ``dualgraph index`` (or :meth:`build`) rebuilds what is broken. An index whose store is a
        SPARQL server gets one more line: the server answers and holds the manifest's products
        (``store_url``/``allow_insecure_auth`` as for reading it; default the graph's settings).

        The parts :meth:`ask`, :meth:`search` and :meth:`sparql` open are glanced at (present,
        of the recorded size) before they are opened; a damaged one raises
        :class:`~dualgraph.pipeline.index_check.IndexDamaged`, whose message is one line naming it.
        """
        from dualgraph.pipeline.index_check import check_index

        self._check_open()
        given = self._given
        return check_index(
            self.index_dir,
            store_url=store_url or (given.store_url if given is not None else None),
            allow_insecure_auth=allow_insecure_auth or (given.allow_insecure_auth if given is not None else False),
        )

    # -- serving ----------------------------------------------------------------------------------

    def serve(
        self, config: ServeConfig | None = None, *, blocking: bool = True, name: str = "dualgraph", **options: Any
    ) -> Any:
        """Answer over HTTP with Ray Serve, as ``dualgraph serve`` does (needs the ``serve`` extra).

        ``config``: :class:`~dualgraph.serve.config.ServeConfig` (host, port, replicas, batching,
        the API key's variable, ...); keyword ``options`` replace its fields (``port=8080``).
        Each replica opens its own engine from :meth:`engine_spec` with ``serving``. With
        ``blocking`` (the default) this serves until SIGTERM or Ctrl-C, then shuts Serve and the
        Ray it started down; without it, it returns Serve's handle once the application runs.
        """
        from dualgraph.pipeline.index_check import check_readable
        from dualgraph.serve.app import run
        from dualgraph.serve.config import ServeConfig

        check_readable(self.index_dir, "engine")

        if options:
            given = config.model_dump(exclude_unset=True) if config is not None else {}
            config = ServeConfig.model_validate({**given, **options})
        spec = self.engine_spec(serving=True)
        spec = spec.model_copy(update={"index_dir": spec.index_dir.resolve()})  # replicas may start elsewhere
        return run(spec, config, blocking=blocking, name=name)

    # -- closing ----------------------------------------------------------------------------------

    def close(self) -> None:
        """Close what was opened (the engine, the store) and let the loaded parts go. Idempotent;
        any later call but :meth:`close` raises :class:`RuntimeError`."""
        with self._lock:
            self._closed = True
            engine, store, held = self._engine, self._store, self._lease
            workers = [w for w in (self._answers, self._queries) if w is not None]
            self._engine = self._store = self._textual = self._embedder = self._lease = None
            self._answers = self._queries = None
            self._retrievers.clear()
        try:
            for worker in workers:
                worker.close()
            if engine is not None:
                engine.close()
        finally:
            try:
                if store is not None:
                    store.close()
            finally:
                if held is not None:
                    held.release()

    def __enter__(self) -> DualGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"this DualGraph ({self.index_dir}) is closed")

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"loaded={list(self.loaded)}"
        return f"DualGraph({str(self.index_dir)!r}, {state})"


def _open_checked(index_dir: Path, reader: Reader, opener: Callable[[], T]) -> T:
    """Open a part of the index, glancing first at the parts ``reader`` needs (present, of the
    recorded size); when opening fails all the same, the damaged part is named if checksums find one."""
    from dualgraph.pipeline.index_check import check_readable, diagnose

    check_readable(index_dir, reader)
    try:
        return opener()
    except Exception as e:
        damaged = diagnose(index_dir, reader)
        if damaged is None:
            raise  # every part is as recorded: the failure is not the index's
        raise damaged from e


def format_answer(record: AnswerRecord, *, explain: bool = False) -> str:
    """An answer record as ``dualgraph ask`` prints it (with ``explain``: as ``--explain`` does).

    >>> from dualgraph.answer.record import AnswerRecord
    >>> print(format_answer(AnswerRecord(id="0", question="q", answer="Two phones.", strategy="skg", route=["skg"])))
    Two phones.
    [skg: skg, 0 ms]
    """
    lines = []
    if record.error:
        lines.append(f"error: {record.error}")
    lines.append(record.answer)
    if record.value is not None and not isinstance(record.value, list):
        lines.append(f"value: {record.value}")
    ev = record.evidence
    conf = f", symbolic confidence {ev.confidence:.2f}" if ev.confidence is not None else ""
    tokens = f", {record.tokens.total} LLM tokens" if record.tokens.total else ""
    lines.append(
        f"[{record.strategy}: {' > '.join(record.route) or '-'}{conf}{tokens}, {record.latency_s * 1000:.0f} ms]"
    )
    if record.caps:
        lines.append(f"caps reached: {', '.join(c.name for c in record.caps)} (--explain says what they cut)")
    if explain:
        lines += ["", format_explanation(record)]
    return "\n".join(lines)


def format_explanation(record: AnswerRecord) -> str:
    """Why a record says what it says, as ``dualgraph ask --explain`` prints it below the answer:
    the caps its work reached (when any), the trace of decisions, the SPARQL with its first 20 rows,
    the text chunks used.

    >>> from dualgraph.answer.record import AnswerRecord, Evidence
    >>> ev = Evidence(sparql="SELECT ?p WHERE { ?p a skgt:Product }", rows=[{"p": "product-a"}], rows_total=1,
    ...               trace=["skg: parse: intent list"], chunk_ids=["file-a#1"])
    >>> print(format_explanation(AnswerRecord(id="0", question="q", strategy="skg", evidence=ev)))
    trace:
      skg: parse: intent list
    <BLANKLINE>
    | p |
    | --- |
    | product-a |
    <BLANKLINE>
    1 row from:
    ```sparql
    SELECT ?p WHERE { ?p a skgt:Product }
    ```
    <BLANKLINE>
    chunks: file-a#1
    """
    ev = record.evidence
    lines = []
    if record.caps:
        lines.append("caps reached:")
        for cap in record.caps:
            lowered = " (confidence lowered)" if cap.lowered else ""
            lines.append(f"  {cap.name} at {cap.limit:g} {cap.unit}: {cap.what}{lowered}")
        lines.append("")
    lines += ["trace:"] + [f"  {line}" for line in ev.trace]
    if ev.sparql:
        from dualgraph.query.sparql.render import render_markdown
        from dualgraph.query.sparql.safety import QueryResult

        vars_ = list(ev.rows[0]) if ev.rows else []
        rows = [{k: {"type": "literal", "value": str(v)} for k, v in r.items()} for r in ev.rows]
        table = render_markdown(
            QueryResult(query=ev.sparql, vars=vars_, rows=rows, total_rows=ev.rows_total), max_rows=20
        )
        lines += ["", table]
    if ev.chunk_ids:
        lines += ["", "chunks: " + ", ".join(ev.chunk_ids[:10])]
    return "\n".join(lines)
