"""``dualgraph ask --questions … --out …``: answer a questions file in bulk, resumably.

Engines are expensive to open (an embedding model, a store), so each Ray actor, or the
inline runner, opens one and feeds it batches of questions. Records stream back to this
process, the only writer, which appends each finished batch to OUT (flushed and fsynced),
so a crash loses at most the batches in flight; a rerun resumes from OUT. A successful
run ends by rewriting OUT in question order.

A question whose answering raises becomes an error record and the run goes on; so does one
that runs past its budget (``AskConfig.budget``: the engine answers in a worker that is killed
past the deadline or the memory budget, see :mod:`dualgraph.budget.engine`), whose record says
which budget (``over_budget``). A resumed run answers error records again, but keeps over-budget
ones unless ``retry_over_budget``: the same question would only run into its budget again. An
engine that returns the wrong records (missing, foreign, duplicated or reordered ids,
another strategy) is a bug, not a question failure: the run stops with
:class:`~dualgraph.pipeline.stage.ContractError`, keeping what was written.

>>> import json, tempfile
>>> from pathlib import Path
>>> from dualgraph.answer.record import AnswerRecord
>>> class Shout:
...     def answer_batch(self, items, *, strategy):
...         return [AnswerRecord(id=i, question=q, answer=q.upper(), strategy=strategy) for i, q in items]
>>> d = Path(tempfile.mkdtemp())
>>> _ = (d / "q.json").write_text(json.dumps({"a": {"question": "hi?"}, "b": {"question": "ho?"}}))
>>> cfg = BulkAnswerConfig(runner="inline", progress=False)
>>> r = bulk_answer(d / "q.json", d / "out.jsonl", engine_factory=Shout, strategy="skg", config=cfg)
>>> (r.answered, r.errors, r.skipped_resumed)
(2, 0, 0)
>>> [json.loads(line)["answer"] for line in (d / "out.jsonl").read_text().splitlines()]
['HI?', 'HO?']
>>> bulk_answer(d / "q.json", d / "out.jsonl", engine_factory=Shout, strategy="skg", config=cfg).skipped_resumed
2
"""

from __future__ import annotations

import math
import os
import time
import warnings
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from itertools import chain
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field
from tqdm import tqdm

from dualgraph.answer.question_text import QuestionRefused, safe_text, screen_question
from dualgraph.answer.record import AnswerRecord, TokenCounts, error_record
from dualgraph.corpus.clean import has_lone_surrogate
from dualgraph.pipeline.answer_files import (
    AnswerWriter,
    QuestionsError,
    read_answers,
    read_questions,
    write_answers_atomic,
)
from dualgraph.pipeline.stage import ContractError

__all__ = [
    "BulkAnswerConfig",
    "BulkReport",
    "Engine",
    "QuestionsError",
    "ResumeWarning",
    "StrategyMismatchError",
    "answer_items",
    "bulk_answer",
    "choose_runner",
    "read_questions",
]

Item = tuple[str, str]


class Engine(Protocol):
    """What bulk answering needs from an engine: one record per ``(id, question)``, same order."""

    def answer_batch(self, items: list[Item], *, strategy: str) -> list[AnswerRecord]: ...


class ResumeWarning(UserWarning):
    """Something in an existing answers file was set aside while resuming."""


class StrategyMismatchError(ValueError):
    """OUT holds answers of another strategy; resuming would mix two runs in one file."""


INLINE_BELOW = 400
"""Questions under which ``runner='auto'`` answers inline. Starting Ray and an engine per actor
takes 20-30 s on a small machine, while one inline engine answers about 10 questions a second
and two actors at best double that: below a few hundred questions the start-up is not repaid."""


class BulkAnswerConfig(BaseModel):
    """How ``dualgraph ask --questions`` runs."""

    model_config = ConfigDict(extra="forbid")

    runner: Literal["ray", "inline", "auto"] = Field(
        "auto",
        description="'ray' answers on Ray Data actors (local Ray unless ray_address is set); "
        "'inline' answers in this process with one engine (tests, debugging, small files); "
        "'auto' picks by size (see choose_runner): inline below inline_below questions to answer "
        "or with a single CPU, Ray otherwise and always with a ray_address.",
    )
    inline_below: int = Field(
        INLINE_BELOW,
        ge=0,
        description="'auto': fewer questions to answer than this run inline (Ray's start-up and one engine "
        "per actor cost more than they save).",
    )
    ray_address: str | None = Field(
        None,
        description="Address of an existing Ray cluster ('auto', 'ray://host:10001'); None starts local Ray. "
        "On a cluster the index must be on storage every worker sees.",
    )
    batch_size: int = Field(
        8, ge=1, description="Questions handed to one engine call; also the unit written and lost on a crash."
    )
    concurrency: int | None = Field(
        None,
        ge=1,
        description="Engine actors on Ray (each opens its own engine); default: min(2, CPUs / num_cpus), "
        "never more than there are batches.",
    )
    num_cpus: float = Field(1.0, gt=0, description="CPUs Ray reserves for each engine actor.")
    num_gpus: float = Field(0.0, ge=0, description="GPUs Ray reserves for each engine actor (e.g. to embed on a GPU).")
    resume: bool = Field(
        True, description="Keep the answers already in OUT and answer only the rest; False overwrites OUT."
    )
    retry_errors: bool = Field(
        True,
        description="When resuming, answer again the questions whose record in OUT has an error (except "
        "those stopped past a budget: see retry_over_budget).",
    )
    retry_over_budget: bool = Field(
        False,
        description="When resuming, also answer again the questions whose record in OUT says they ran past "
        "their deadline or memory budget (over_budget); off: those records are kept, since the same question "
        "would run into the same budget (raise the budget and set this to try them again).",
    )
    ordered: bool = Field(
        True,
        description="After a successful run, rewrite OUT atomically in questions-file order "
        "(dropping records of ids the questions file does not have).",
    )
    progress: bool = Field(True, description="Show a progress bar (questions done, rate, errors).")


class BulkReport(BaseModel):
    """What one bulk run did. Tokens and latencies cover the records produced by this run."""

    total: int = Field(..., description="questions in the questions file")
    answered: int = Field(..., description="questions answered without error in this run")
    errors: int = Field(..., description="questions that got an error record in this run")
    skipped_resumed: int = Field(..., description="questions whose record in OUT was kept (not run again)")
    retried_errors: int = Field(0, description="error records found in OUT and answered again")
    over_budget: int = Field(
        0, description="questions of this run stopped past their deadline or memory budget (counted in errors)"
    )
    kept_over_budget: int = Field(
        0,
        description="over-budget records found in OUT and kept, not run again (counted in skipped_resumed; "
        "retry_over_budget runs them)",
    )
    foreign_ids: int = Field(
        0, description="records in OUT whose id is not in the questions file (dropped by the ordered rewrite)"
    )
    elapsed_s: float = Field(..., description="wall-clock seconds of the whole run")
    questions_per_s: float = Field(..., description="(answered + errors) / elapsed_s")
    out_path: Path = Field(..., description="the answers file")
    strategy: str = Field(..., description="the strategy the questions were answered with")
    runner: str = Field("inline", description="the runner that answered ('inline' or 'ray'; 'auto' resolved)")
    tokens: TokenCounts = Field(default_factory=TokenCounts, description="LLM tokens summed over this run's records")
    latency_p50_s: float = Field(0.0, description="median per-question latency (engine-reported) in this run")
    latency_p90_s: float = Field(0.0, description="90th percentile per-question latency in this run")
    latency_max_s: float = Field(0.0, description="slowest question in this run")


def answer_items(
    engine: Engine, items: list[Item], *, strategy: str, gone: Sequence[Any] | None = None
) -> list[AnswerRecord]:
    """Answer a batch, isolating failures: if the batch call raises, each question is tried alone.

    Returns one checked record per item, in order; a question that still raises gets an
    error record. A contract violation by the engine raises :class:`ContractError`.
    ``gone``: one flag (``is_set()``) per item, handed to an engine that takes them (a
    :class:`~dualgraph.budget.engine.IsolatedEngine`: it stops work nobody waits for).
    """
    if not items:
        return []

    def extra(flags: Sequence[Any] | None) -> dict[str, Any]:
        return {"gone": list(flags)} if flags is not None else {}

    try:
        return _checked(engine.answer_batch(list(items), strategy=strategy, **extra(gone)), items, strategy)
    except ContractError:
        raise
    except Exception as batch_error:
        if len(items) == 1:  # the retry would be the very same call
            qid, question = items[0]
            return [error_record(qid, question, strategy, batch_error)]
    out = []
    for i, (qid, question) in enumerate(items):
        t0 = time.perf_counter()
        alone = extra([gone[i]] if gone is not None else None)
        try:
            out += _checked(
                engine.answer_batch([(qid, question)], strategy=strategy, **alone), [(qid, question)], strategy
            )
        except ContractError:
            raise
        except Exception as e:
            out.append(error_record(qid, question, strategy, e, latency_s=time.perf_counter() - t0))
    return out


def _checked(records: Any, items: Sequence[Item], strategy: str) -> list[AnswerRecord]:
    if not isinstance(records, (list, tuple)):
        raise ContractError(f"engine.answer_batch returned {type(records).__name__}, not a list of AnswerRecord")
    wrong = [type(r).__name__ for r in records if not isinstance(r, AnswerRecord)]
    if wrong:
        raise ContractError(f"engine.answer_batch returned {wrong[0]} where an AnswerRecord was due")
    want = [qid for qid, _ in items]
    got = [r.id for r in records]
    if got != want:
        counts, wanted = Counter(got), set(want)
        missing = [q for q in want if q not in counts]
        foreign = [q for q in counts if q not in wanted]
        duplicated = [q for q, n in counts.items() if n > 1]
        detail = (
            f"missing {missing}, foreign {foreign}, duplicated {duplicated}"
            if missing or foreign or duplicated
            else "the ids are out of order"
        )
        raise ContractError(f"engine.answer_batch returned {len(got)} records for {len(want)} questions: {detail}")
    other = [r.id for r in records if r.strategy != strategy]
    if other:
        raise ContractError(
            f"engine.answer_batch labelled id {other[0]!r} with strategy "
            f"{records[want.index(other[0])].strategy!r}, not the requested {strategy!r}"
        )
    return list(records)


def choose_runner(pending: int, config: BulkAnswerConfig, cpus: int | None = None) -> Literal["ray", "inline"]:
    """The runner a run with ``pending`` questions to answer uses (``config.runner`` unless 'auto').

    >>> choose_runner(50, BulkAnswerConfig(), cpus=8), choose_runner(5000, BulkAnswerConfig(), cpus=8)
    ('inline', 'ray')
    >>> choose_runner(5000, BulkAnswerConfig(), cpus=1), choose_runner(50, BulkAnswerConfig(ray_address="auto"))
    ('inline', 'ray')
    """
    if config.runner != "auto":
        return config.runner
    if config.ray_address is not None:
        return "ray"  # a cluster was asked for: its workers, not this process
    if cpus is None:
        cpus = os.cpu_count() or 1
    one_actor = (config.concurrency or max(1, min(2, int(cpus // config.num_cpus)))) < 2
    # one actor is one engine, as inline, plus Ray's start-up and the hop of every record
    return "inline" if pending < config.inline_below or one_actor else "ray"


def bulk_answer(
    questions_path: str | os.PathLike,
    out_path: str | os.PathLike,
    *,
    engine_factory: Callable[[], Engine],
    strategy: str,
    config: BulkAnswerConfig | None = None,
) -> BulkReport:
    """Answer every question of ``questions_path`` into ``out_path`` (JSONL, one record a line).

    ``engine_factory`` is called once per Ray actor (or once inline) and must be picklable
    for Ray. Raises :class:`QuestionsError` for an unusable questions file,
    :class:`StrategyMismatchError` when resuming a file of another strategy, and
    :class:`ContractError` when the engine, or the pipeline, loses or duplicates records.
    """
    config = config or BulkAnswerConfig()
    started = time.perf_counter()
    questions = read_questions(questions_path)
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    kept, retried, foreign = _prepare_out(out, questions, strategy, config)
    kept_over = sum(1 for qid, _ in questions if qid in kept and kept[qid].over_budget is not None)
    pending = [(qid, q) for qid, q in questions if qid not in kept]
    skipped = len(questions) - len(pending)
    # Ray Data carries questions as Arrow strings, which must be valid UTF-8: a question that is not
    # gets its error record here, before any runner sees it (it used to fail the whole run)
    unsendable = [(qid, q) for qid, q in pending if has_lone_surrogate(q)]
    pending = [(qid, q) for qid, q in pending if not has_lone_surrogate(q)]

    runner = choose_runner(len(pending), config)
    config = config.model_copy(update={"runner": runner})
    done: list[AnswerRecord] = []
    seen: set[str] = set()
    wanted = {qid for qid, _ in pending + unsendable}
    bar = tqdm(
        total=len(questions), initial=skipped, unit="q", desc=f"answer [{strategy}]", disable=not config.progress
    )
    errors = 0
    try:
        # closing(): a failed write must stop the actors (and close the engine) now, not at GC
        with AnswerWriter(out) as writer, closing(_batches(pending, engine_factory, strategy, config)) as batches:
            refused = [[_refused(qid, q, strategy) for qid, q in unsendable]] if unsendable else []
            for records in chain(refused, batches):
                ids = [r.id for r in records]
                stray = [q for q in ids if q not in wanted or q in seen] + [q for q, n in Counter(ids).items() if n > 1]
                if stray:
                    raise ContractError(f"the runner returned id {stray[0]!r} twice or unasked (rows duplicated)")
                writer.write(records)
                seen.update(ids)
                done += records
                errors += sum(r.error is not None for r in records)
                bar.set_postfix(errors=errors, refresh=False)
                bar.update(len(records))
    finally:
        bar.close()

    answered = len(done) - errors
    if answered + errors + skipped != len(questions) or seen != wanted:
        lost = sorted(wanted - seen)
        raise ContractError(
            f"{len(questions)} questions but {answered} answered + {errors} errors + {skipped} skipped; "
            f"no record came back for {lost[:5]}{'…' if len(lost) > 5 else ''}"
        )
    _finish(out, questions, config)
    elapsed = time.perf_counter() - started
    latencies = sorted(r.latency_s for r in done)
    return BulkReport(
        total=len(questions),
        answered=answered,
        errors=errors,
        skipped_resumed=skipped,
        retried_errors=retried,
        over_budget=sum(r.over_budget is not None for r in done),
        kept_over_budget=kept_over,
        foreign_ids=foreign,
        elapsed_s=round(elapsed, 3),
        questions_per_s=round(len(done) / elapsed, 3) if elapsed > 0 else 0.0,
        out_path=out,
        strategy=strategy,
        runner=runner,
        tokens=sum((r.tokens for r in done), TokenCounts()),
        latency_p50_s=_rank(latencies, 0.5),
        latency_p90_s=_rank(latencies, 0.9),
        latency_max_s=latencies[-1] if latencies else 0.0,
    )


def _prepare_out(
    out: Path, questions: list[Item], strategy: str, config: BulkAnswerConfig
) -> tuple[dict[str, AnswerRecord], int, int]:
    """Records in OUT to keep, how many error records will be retried, how many ids are foreign.

    OUT is compacted to the kept records first, so appending never leaves two lines for
    one id nor glues a new line to a crash's partial one.
    """
    if not config.resume or not out.exists():
        out.write_text("", encoding="utf-8")
        return {}, 0, 0
    log = read_answers(out)
    others = sorted({r.strategy for r in log.records.values()} - {strategy})
    if others:
        raise StrategyMismatchError(
            f"{out} holds answers of strategy {', '.join(map(repr, others))}, not {strategy!r}; "
            "use another output file, or overwrite it by not resuming (resume=False)"
        )
    text = dict(questions)
    kept: dict[str, AnswerRecord] = {}
    retried = changed = 0
    for qid, record in log.records.items():
        same = qid in text and (record.question_escaped or record.question) == (safe_text(text[qid])[1] or text[qid])
        if qid not in text:
            kept[qid] = record  # not ours to judge: the ordered rewrite drops it, a plain append keeps it
        elif record.over_budget is not None and same and not config.retry_over_budget:
            kept[qid] = record  # the same question would run into the same budget again
        elif record.error is not None and (config.retry_errors or record.over_budget is not None):
            retried += 1
        elif not same:
            changed += 1  # the answer is to a question the file no longer asks
        else:
            kept[qid] = record
    foreign = sum(qid not in text for qid in kept)
    if log.truncated:
        _warn(f"{out}: the last line is incomplete (a crash mid-write?); it is dropped and its question answered again")
    if changed:
        _warn(f"{out}: {changed} question(s) changed text since they were answered; answering them again")
    if foreign:
        _warn(
            f"{out}: {foreign} record(s) have ids the questions file does not have"
            + ("; the final ordered rewrite drops them" if config.ordered else "")
        )
    if log.truncated or log.duplicates or len(kept) != len(log.records):
        write_answers_atomic(out, list(kept.values()))
    return kept, retried, foreign


def _finish(out: Path, questions: list[Item], config: BulkAnswerConfig) -> None:
    """Check OUT holds every question exactly once, then (``ordered``) rewrite it in question order."""
    log = read_answers(out)
    missing = [qid for qid, _ in questions if qid not in log.records]
    if log.truncated or log.duplicates or missing:
        raise ContractError(
            f"{out} does not hold every question exactly once (missing {missing[:5]}, "
            f"{log.duplicates} duplicated, truncated: {log.truncated})"
        )
    if config.ordered:
        write_answers_atomic(out, [log.records[qid] for qid, _ in questions])


def _batches(
    items: list[Item], engine_factory: Callable[[], Engine], strategy: str, config: BulkAnswerConfig
) -> Generator[list[AnswerRecord], None, None]:
    """Finished batches of records, in completion order."""
    if not items:
        return  # nothing to do: no engine is opened, no Ray started
    if config.runner == "inline":
        yield from _inline_batches(items, engine_factory, strategy, config.batch_size)
    else:
        yield from _ray_batches(items, engine_factory, strategy, config)


def _inline_batches(
    items: list[Item], engine_factory: Callable[[], Engine], strategy: str, batch_size: int
) -> Iterator[list[AnswerRecord]]:
    engine = engine_factory()
    try:
        for start in range(0, len(items), batch_size):
            yield answer_items(engine, items[start : start + batch_size], strategy=strategy)
    finally:
        _close(engine)


class _EngineActor:
    """One engine per Ray actor; batches in and out as pandas frames of JSON lines."""

    def __init__(self, engine_factory: Callable[[], Engine], strategy: str) -> None:
        self._engine = engine_factory()
        self._strategy = strategy

    def __call__(self, batch):  # pandas.DataFrame -> pandas.DataFrame
        import pandas as pd

        items = list(zip(batch["id"].astype(str).tolist(), batch["question"].tolist()))
        try:
            records = answer_items(self._engine, items, strategy=self._strategy)
        except ContractError as e:
            # Ray would re-raise it wrapped beyond recognition: hand it to the driver instead.
            return pd.DataFrame({"id": [q for q, _ in items], "line": "", "fatal": str(e)})
        return pd.DataFrame({"id": [r.id for r in records], "line": [r.to_json_line() for r in records], "fatal": ""})

    def __del__(self) -> None:
        _close(getattr(self, "_engine", None))


def _ray_batches(
    items: list[Item], engine_factory: Callable[[], Engine], strategy: str, config: BulkAnswerConfig
) -> Iterator[list[AnswerRecord]]:
    import ray
    import ray.data

    from dualgraph.pipeline.ray_logging import init_ray, ray_data_quiet

    init_ray(config.ray_address)
    # Our bar reports progress; Ray Data's bars and INFO lines would interleave with it
    # (DUALGRAPH_RAY_LOGS=1 shows Ray's lines; its bars stay off).
    with ray_data_quiet(progress=False):
        n_batches = math.ceil(len(items) / config.batch_size)
        cpus = ray.cluster_resources().get("CPU", 1.0)
        actors = min(config.concurrency or max(1, min(2, int(cpus // config.num_cpus))), n_batches)
        ds: ray.data.Dataset = ray.data.from_items(
            [{"id": q, "question": t} for q, t in items], override_num_blocks=n_batches
        )
        ds = ds.map_batches(
            _EngineActor,
            fn_constructor_kwargs={"engine_factory": engine_factory, "strategy": strategy},
            batch_size=config.batch_size,
            batch_format="pandas",
            compute=ray.data.ActorPoolStrategy(size=actors),
            num_cpus=config.num_cpus,
            num_gpus=config.num_gpus or None,
        )
        for frame in ds.iter_batches(batch_size=None, batch_format="pandas"):
            fatal = [f for f in frame["fatal"].tolist() if f]
            if fatal:
                raise ContractError(fatal[0])
            yield [AnswerRecord.model_validate_json(line) for line in frame["line"].tolist()]


def _refused(qid: str, question: str, strategy: str) -> AnswerRecord:
    try:
        screen_question(question, max_chars=None)
        reason = "the question cannot be sent to the answering workers"
    except QuestionRefused as e:
        reason = str(e)
    return error_record(qid, question, strategy, f"question refused: {reason}")


def _close(engine: Any) -> None:
    close = getattr(engine, "close", None)
    if callable(close):
        close()


def _rank(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile (exact for the small counts of a test run)."""
    if not sorted_values:
        return 0.0
    return sorted_values[max(0, math.ceil(p * len(sorted_values)) - 1)]


def _warn(message: str) -> None:
    warnings.warn(message, ResumeWarning, stacklevel=4)
