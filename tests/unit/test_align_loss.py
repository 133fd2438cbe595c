"""The aligner's InfoNCE loss on hand-computed cases."""

from __future__ import annotations

import math

import pytest
import torch

from dualgraph.align.loss import info_nce


def test_hand_computed_asymmetric_case() -> None:
    a = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    b = torch.tensor([[1.0, 0.0], [2.0, 0.0]])  # both texts point the same way: the second pair is wrong
    # cosines a·b: [[1, 1], [0, 0]]. a→b: row 0 log 2, row 1 log 2. b→a (the transpose, [[1, 0], [1, 0]]):
    # row 0 log(1 + e^-1), row 1 log(1 + e). Mean of each direction, then of the two.
    expected = (math.log(2) + (math.log(1 + math.exp(-1)) + math.log(1 + math.e)) / 2) / 2
    assert info_nce(a, b, temperature=1.0).item() == pytest.approx(expected, abs=1e-6)


def test_the_positive_stays_in_the_denominator() -> None:
    # with it left out (the reference's bug) the loss of well-aligned pairs goes negative
    a = torch.eye(4)
    for t in (1.0, 0.1, 0.01):
        loss = info_nce(a, a.clone(), temperature=t).item()
        assert loss >= 0
    assert info_nce(a, a.clone(), temperature=0.01).item() < 1e-6


def test_temperature_sharpens_and_the_loss_is_symmetric() -> None:
    g = torch.Generator().manual_seed(0)
    a, b = torch.randn(8, 5, generator=g), torch.randn(8, 5, generator=g)
    assert info_nce(a, b, temperature=0.5).item() == pytest.approx(info_nce(b, a, temperature=0.5).item(), rel=1e-6)
    aligned = a + 0.01 * b
    assert info_nce(a, aligned, temperature=0.05).item() < info_nce(a, aligned, temperature=1.0).item()


def test_training_on_it_pulls_pairs_together() -> None:
    g = torch.Generator().manual_seed(1)
    x, y = torch.randn(16, 6, generator=g), torch.randn(16, 6, generator=g)
    head = torch.nn.Linear(6, 6)
    opt = torch.optim.SGD(head.parameters(), lr=0.5)
    first = info_nce(x, head(y), temperature=0.2).item()
    for _ in range(50):
        opt.zero_grad()
        loss = info_nce(x, head(y), temperature=0.2)
        loss.backward()
        opt.step()
    assert loss.item() < first / 2


@pytest.mark.parametrize(
    ("a", "b", "t", "message"),
    [
        (torch.eye(2), torch.eye(2), 0.0, "temperature"),
        (torch.eye(2), torch.eye(3), 1.0, "one shape"),
        (torch.ones(1, 2), torch.ones(1, 2), 1.0, "at least two pairs"),
    ],
)
def test_bad_input_is_refused(a, b, t, message) -> None:
    with pytest.raises(ValueError, match=message):
        info_nce(a, b, temperature=t)
