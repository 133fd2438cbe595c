"""The sentence table of ``dualgraph.tkg.statements``: what a question costs, and what is left out.

A counting embedder (three word stems; meaning is tested with MiniLM in
``tests/integration/test_prose_statements.py``) shows that a question embeds the sentences that
share a stem with its clause and the most-stated ones, not the catalogue's.
"""

from __future__ import annotations

import numpy as np

from dualgraph.tkg.statements import MAX_CANDIDATES, StatementIndex


class Counting:
    def __init__(self) -> None:
        self.texts = 0

    def embed(self, texts, *, stage="default"):
        self.texts += len(texts)
        rows = [[t.lower().count(w) for w in ("waterpr", "stack", "wall")] for t in texts]
        v = np.array(rows, dtype="float32") + 1e-3
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def _pages(n: int) -> list[tuple[str, list[str]]]:
    # every product states one templated fact and a sentence of its own, on two pages each
    fact = ["It is waterproof.", "It is not waterproof."]
    return [(f"{fact[i % 2]} The {_word(i)} frame is made of steel.", [f"P{i}", f"Q{i}"]) for i in range(n)]


def _word(i: int) -> str:
    """A word of its own per product (numbers would be masked into one wording)."""
    return "".join(chr(97 + (i // 26**k) % 26) for k in range(3))


def test_a_question_embeds_what_shares_its_words_and_the_most_stated_not_the_catalogue():
    for n in (300, 3000):
        embedder = Counting()
        index = StatementIndex(_pages(n), embedder)
        assert len(index) >= n  # each product's own sentence is in the table
        match = index.match("is waterproof", negated=False)
        assert match is not None and len(match.products) == n  # the "It is waterproof." pages: half, two products each
        assert embedder.texts <= 2 * MAX_CANDIDATES + 1, (n, embedder.texts)
        before = embedder.texts
        index.match("is waterproof", negated=True)
        assert embedder.texts == before + 1  # the sentences are embedded once per index: only the clause again


def test_spec_lines_and_own_name_headings_are_no_statements():
    pages = [
        (f"# Page from the Kettle {i} page\nBrand: {_word(i)}\nIt is waterproof.", [f"Kettle {i}"]) for i in range(8)
    ]
    index = StatementIndex(pages, Counting())
    assert list(index.products) == ["It is waterproof."]
