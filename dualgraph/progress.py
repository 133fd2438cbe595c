"""One look for the progress bars of long steps: a count, a rate and the time left, on stderr.

A step of the index run that can take more than a second shows one; callers pass
``enabled=False`` (``--no-progress``, tests) to keep the terminal clean. Steps made of a few
big queries count the queries, so even those show that something moves and how fast.

>>> import io
>>> out = io.StringIO()
>>> with progress_bar("demo", total=3, unit="doc", file=out) as bar:
...     bar.update(3)
>>> "demo: 100%" in out.getvalue() and "3/3" in out.getvalue()
True
"""

from __future__ import annotations

from typing import TextIO

from tqdm import tqdm

__all__ = ["progress_bar"]


def progress_bar(
    desc: str, *, total: int | None = None, unit: str = "it", enabled: bool = True, file: TextIO | None = None
) -> tqdm:
    """A tqdm bar; ``total=None`` for a step whose size is not known up front."""
    # half a second between redraws: a 100k-item step must not spend its time drawing
    return tqdm(total=total, desc=desc, unit=unit, disable=not enabled, dynamic_ncols=True, mininterval=0.5, file=file)
