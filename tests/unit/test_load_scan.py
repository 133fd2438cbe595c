"""The bulk loader's line and statement count: block-wise, the same as reading line by line."""

import random

import pytest

from dualgraph.stores.oxigraph import _scan


def _line_by_line(path):
    lines = statements = 0
    with path.open("rb") as f:
        for line in f:
            lines += 1
            s = line.strip()
            if s and not s.startswith(b"#"):
                statements += 1
    return lines, statements


PARTS = [
    b'<http://x/a> <http://x/b> "c" <http://x/g> .',
    b"",
    b"  ",
    b"# a comment",
    b"  # an indented comment",
    b"\t",
    b"\r",
    b"\x0c",
    b'<http://x/y#z> <http://x/p> "v # not a comment" .',
    b"  <http://x/a> <http://x/b> <http://x/c> .",
]


@pytest.mark.parametrize("seed", range(4))
def test_counts_match_a_line_by_line_read_at_any_block_size(tmp_path, seed):
    rng = random.Random(seed)
    path = tmp_path / "f.nq"
    for _ in range(400):
        text = b"\n".join(rng.choice(PARTS) for _ in range(rng.randint(0, 25)))
        if rng.random() < 0.5:
            text += b"\n"
        path.write_bytes(text)
        for block in (1, 2, 3, 7, 64, 1 << 20):
            assert _scan(path, block=block) == _line_by_line(path), (text, block)
