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
