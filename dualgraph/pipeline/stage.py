"""Pipeline stages as plain functions over batches of rows, with declared contracts.

A :class:`Stage` names the columns it needs and the ones it adds, and checks on
every batch that no row was dropped or duplicated and that what it added has the
column's declared Arrow type (:mod:`dualgraph.pipeline.columns`). The same object
runs on a plain list of dicts (unit tests, the inline runner) and inside Ray
``map_batches`` over Arrow batches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dualgraph.pipeline.columns import check_columns, column, schema

Row = dict[str, Any]


class ContractError(RuntimeError):
    """A stage broke its declared contract (missing column, lost or extra rows)."""


@dataclass(frozen=True)
class Stage:
    """A one-row-in, one-row-out batch transform.

    ``fn`` receives the batch as a list of rows and returns, in the same order,
    one dict of *new* columns per row; every column it adds is declared in
    :data:`dualgraph.pipeline.columns.COLUMNS`.

    >>> count = Stage("count", needs=("text",), adds=("n_quads",), fn=lambda rows: [{"n_quads": len(r["text"])} for r in rows])
    >>> count.run([{"text": "ab"}, {"text": ""}])
    [{'text': 'ab', 'n_quads': 2}, {'text': '', 'n_quads': 0}]
    >>> Stage("bad", needs=("text",), adds=("n_quads",), fn=lambda rows: [{"n_quads": r["text"]} for r in rows]).run([{"text": "ab"}])
    Traceback (most recent call last):
    ...
    TypeError: stage 'bad' wrote column 'n_quads' (int64) that does not fit: row 0 holds 'ab'
    """

    name: str
    needs: tuple[str, ...]
    adds: tuple[str, ...]
    fn: Callable[[list[Row]], Sequence[Row]]
    drops: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # a column no one declared fails where the stage is defined, not in a worker mid-run
        for name in (*self.needs, *self.adds, *self.drops):
            column(name)

    def run(self, rows: list[Row]) -> list[Row]:
        for i, row in enumerate(rows):
            missing = [c for c in self.needs if c not in row]
            if missing:
                raise ContractError(f"stage {self.name!r}: row {i} lacks columns {missing}")
        new = list(self.fn(rows))
        if len(new) != len(rows):
            raise ContractError(f"stage {self.name!r} returned {len(new)} rows for {len(rows)}")
        out = []
        for extra in new:
            missing = [c for c in self.adds if c not in extra]
            if missing:
                raise ContractError(f"stage {self.name!r} did not produce {missing}")
        check_columns(self.name, new, self.adds)
        for row, extra in zip(rows, new):
            merged = {**row, **extra}
            for c in self.drops:
                merged.pop(c, None)
            out.append(merged)
        return out

    def for_ray(self) -> Callable[[Any], Any]:
        """The stage as a ``map_batches`` function over Arrow batches (``batch_format="pyarrow"``):
        its output batch has the declared type of every column it holds."""
        stage = self

        def apply(batch):  # pyarrow.Table -> pyarrow.Table
            import pyarrow as pa

            out = stage.run(batch.to_pylist())
            names = list(out[0]) if out else [n for n in batch.column_names if n not in stage.drops]
            names += [n for n in stage.adds if n not in names]
            return pa.Table.from_pylist(out, schema=schema(names))

        apply.__name__ = f"stage_{self.name}"
        return apply


def run_inline(
    stages: Sequence[Stage],
    rows: list[Row],
    *,
    batch_size: int = 64,
    on_batch: Callable[[int], object] | None = None,
) -> list[Row]:
    """Run stages in this process, batch by batch (tests, tiny catalogs, debugging).

    ``on_batch(n)`` is called after each batch with its row count (a progress bar's update)."""
    out: list[Row] = []
    for start in range(0, len(rows), batch_size):
        batch = rows[start : start + batch_size]
        for stage in stages:
            batch = stage.run(batch)
        out.extend(batch)
        if on_batch is not None:
            on_batch(len(batch))
    return out


# the stages of this worker process, unpickled once when the pool starts it
_WORKER_STAGES: list[Stage] = []


def _start_worker(payload: bytes) -> None:
    import cloudpickle

    _WORKER_STAGES[:] = cloudpickle.loads(payload)


def _run_in_worker(rows: list[Row]) -> list[Row]:
    return run_inline(_WORKER_STAGES, rows, batch_size=max(len(rows), 1))


def run_in_processes(
    stages: Sequence[Stage],
    rows: list[Row],
    *,
    workers: int,
    batch_size: int = 64,
    on_batch: Callable[[int], object] | None = None,
) -> list[Row]:
    """Run stages over batches of rows in a pool of ``workers`` fresh processes; rows come back in order.

    For a machine with a few cores where Ray's start and object store cost more than they give:
    a worker starts in about a second and only rows cross between processes. Stages are sent
    once per worker with ``cloudpickle`` (their functions are closures over their settings).
    Workers are spawned, not forked: the driver holds the store's threads, which a fork would
    copy in whatever state they were. A failure in a batch is raised here, as inline."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    import cloudpickle

    batches = [rows[start : start + batch_size] for start in range(0, len(rows), batch_size)]
    if not batches:
        return []
    payload = cloudpickle.dumps(list(stages))
    results: list[list[Row] | None] = [None] * len(batches)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        min(workers, len(batches)), mp_context=context, initializer=_start_worker, initargs=(payload,)
    ) as pool:
        futures = {pool.submit(_run_in_worker, batch): i for i, batch in enumerate(batches)}
        try:
            for done in as_completed(futures):
                i = futures[done]
                results[i] = done.result()
                if on_batch is not None:
                    on_batch(len(batches[i]))
        except BrokenProcessPool as e:
            raise RuntimeError(
                f"a worker process of the conversion pool died ({e}); out of memory? "
                "set local_processes to 1 to convert in this process"
            ) from e
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    return [row for part in results if part is not None for row in part]
