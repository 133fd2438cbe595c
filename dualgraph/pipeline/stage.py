"""Pipeline stages as plain functions over batches of rows, with declared contracts.

A :class:`Stage` names the columns it needs and the ones it adds, and checks on
every batch that no row was dropped or duplicated. The same object runs on a plain
list of dicts (unit tests, the inline runner) and inside Ray ``map_batches``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Row = dict[str, Any]


class ContractError(RuntimeError):
    """A stage broke its declared contract (missing column, lost or extra rows)."""


@dataclass(frozen=True)
class Stage:
    """A one-row-in, one-row-out batch transform.

    ``fn`` receives the batch as a list of rows and returns, in the same order,
    one dict of *new* columns per row.

    >>> double = Stage("double", needs=("x",), adds=("y",), fn=lambda rows: [{"y": 2 * r["x"]} for r in rows])
    >>> double.run([{"x": 1}, {"x": 2}])
    [{'x': 1, 'y': 2}, {'x': 2, 'y': 4}]
    """

    name: str
    needs: tuple[str, ...]
    adds: tuple[str, ...]
    fn: Callable[[list[Row]], Sequence[Row]]
    drops: tuple[str, ...] = ()

    def run(self, rows: list[Row]) -> list[Row]:
        for i, row in enumerate(rows):
            missing = [c for c in self.needs if c not in row]
            if missing:
                raise ContractError(f"stage {self.name!r}: row {i} lacks columns {missing}")
        new = list(self.fn(rows))
        if len(new) != len(rows):
            raise ContractError(f"stage {self.name!r} returned {len(new)} rows for {len(rows)}")
        out = []
        for row, extra in zip(rows, new):
            missing = [c for c in self.adds if c not in extra]
            if missing:
                raise ContractError(f"stage {self.name!r} did not produce {missing}")
            merged = {**row, **extra}
            for c in self.drops:
                merged.pop(c, None)
            out.append(merged)
        return out

    def for_ray(self) -> Callable[[Any], Any]:
        """The stage as a ``map_batches`` function over pandas batches."""
        stage = self

        def apply(batch):  # pandas.DataFrame -> pandas.DataFrame
            import pandas as pd

            rows = batch.to_dict("records")
            return pd.DataFrame.from_records(stage.run(rows))

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
