"""The contrastive loss of the aligner: symmetric InfoNCE over a batch of anchor pairs.

Row ``i`` of ``a`` (an SKG node's projection) and row ``i`` of ``b`` (its TKG entity's) are a
positive pair; every other row of the batch is a negative for both. The positive stays in the
softmax's denominator (a cross-entropy over the whole row): the reference implementation's loss
left it out, which lets the loss fall below zero and rewards pushing negatives away without
pulling the positive in. Cosine similarities are divided by ``temperature``; the two directions
(SKG→text and text→SKG) are averaged, each a mean over the batch.

>>> import torch
>>> eye = torch.eye(2)
>>> round(info_nce(eye, eye, temperature=1.0).item(), 4)  # log(1 + e^-1)
0.3133
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def info_nce(a: torch.Tensor, b: torch.Tensor, *, temperature: float) -> torch.Tensor:
    """The symmetric InfoNCE loss of paired rows ``a[i]`` ↔ ``b[i]`` (a scalar tensor, ≥ 0)."""
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, not {temperature}")
    if a.ndim != 2 or a.shape != b.shape:
        raise ValueError(
            f"a and b must be matrices of one shape (pairs × dim), not {tuple(a.shape)} and {tuple(b.shape)}"
        )
    if a.shape[0] < 2:
        raise ValueError("a batch needs at least two pairs: with one there are no negatives to contrast")
    logits = F.normalize(a, dim=1) @ F.normalize(b, dim=1).T / temperature
    target = torch.arange(a.shape[0], device=a.device)
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2
