"""Documents into bounded, stably identified chunks for the Textual KG.

The page Markdown already marks its structure: ``[CHUNK_BREAK]`` between blocks (each
feature block, FAQ block and spec table) and ``#``/``##`` headers inside them. Those
marks are honoured first, so two feature blocks never share a chunk; only then is text
cut by size, at line and sentence boundaries where possible, with a hard cap: no chunk
ever counts more than ``max_tokens``. Small ``##`` sections under one ``#`` header (a
spec table's Display, Camera, Battery ...) are packed together rather than emitted one
line each, and a chunk that starts inside a section repeats that section's header lines,
so a spec chunk still names its product.

Chunk ids are ``<doc_id>#<hash of the text>``: the same text in the same document gets
the same id on every run and machine, and an edit changes only the ids of the chunks it
touched. Exact duplicate texts in one document get ``~2``, ``~3`` ... in reading order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from dualgraph.skg.names import short_hash
from dualgraph.tkg.model import Chunk

__all__ = ["CHUNK_BREAK", "chunk_document", "count_tokens"]

CHUNK_BREAK = "[CHUNK_BREAK]"

_project_count: Callable[[str], int] | None
try:  # the project-wide approximate BPE count, when that module is present
    from dualgraph.models.tokens import count_tokens as _project_count
except ImportError:  # pragma: no cover - depends on the checkout
    _project_count = None

_FALLBACK_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Tokens in ``text``: the project's counter when present, else words and symbols.

    Kept behind this one function so the counter can be swapped in one place.

    >>> count_tokens("") == 0
    True
    """
    if _project_count is not None:
        return _project_count(text)
    return len(_FALLBACK_TOKEN.findall(text))


_HEADER = re.compile(r"^(#{1,2})\s+(\S.*?)\s*#*\s*$")
# A sentence ends at . ! ? (optionally closed by a quote or bracket) before a space and a
# capital, digit or opening mark; "5.2" or "e.g. the" do not end one.
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"”’)\]]))\s+(?=[A-Z0-9\"“‘(\[])")


Count = Callable[[str], int]


def _sections(block: str) -> list[tuple[str | None, str | None, list[str]]]:
    """(``#`` header line, ``##`` header line, body lines) for each section with a body."""
    out: list[tuple[str | None, str | None, list[str]]] = []
    top: str | None = None
    sub: str | None = None
    body: list[str] = []
    for raw in block.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _HEADER.match(line)
        if not m:
            body.append(line)
            continue
        if body:
            out.append((top, sub, body))
            body = []
        if len(m.group(1)) == 1:
            top, sub = line, None
        else:
            sub = line
    if body:
        out.append((top, sub, body))
    return out


def _split_words(text: str, limit: int, count: Count) -> list[str]:
    """Cut text with no usable boundary into word runs of at most ``limit`` tokens."""
    pieces: list[str] = []
    cur: list[str] = []
    for word in text.split():
        while count(word) > limit:  # one unbroken run longer than the limit: cut by characters
            lo, hi = 1, len(word)
            while lo < hi:  # the longest prefix that fits
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if count(word[:mid]) <= limit else (lo, mid - 1)
            if cur:
                pieces.append(" ".join(cur))
                cur = []
            pieces.append(word[:lo])
            word = word[lo:]
        if cur and count(" ".join(cur + [word])) > limit:
            pieces.append(" ".join(cur))
            cur = []
        cur.append(word)
    if cur:
        pieces.append(" ".join(cur))
    return pieces


def _units(lines: list[str], limit: int, step: int, count: Count) -> list[tuple[str, str]]:
    """(separator, text) units: whole lines; a line over ``limit`` as its sentences; a
    sentence over ``limit`` as word runs of ``step`` tokens, so windows can still overlap.
    Pieces of one line are joined back with a space, lines with a newline."""
    out: list[tuple[str, str]] = []
    for line in lines:
        if count(line) <= limit:
            out.append(("\n", line))
            continue
        sep = "\n"
        for sent in _SENTENCE_END.split(line):
            for piece in [sent] if count(sent) <= limit else _split_words(sent, step, count):
                out.append((sep, piece))
                sep = " "
    return out


def _join(units: list[tuple[str, str]]) -> str:
    return "".join(sep + text if i else text for i, (sep, text) in enumerate(units))


def _windows(
    prefix: list[str], lines: list[str], *, max_tokens: int, overlap: int, min_tokens: int, count: Count
) -> list[str]:
    """Texts of ``prefix`` + greedy windows over ``lines``, each within ``max_tokens``.

    Each window after the first starts with the trailing units of the previous one that
    fit in ``overlap`` tokens. A last window adding fewer than ``min_tokens`` new tokens
    is folded into the one before when the cap allows.
    """
    if prefix and count("\n".join(prefix)) > max_tokens // 2:
        prefix = []  # headers would starve the body: the section name still says where we are
    head = "\n".join(prefix)
    room = max_tokens - (count(head) + 1 if prefix else 0)
    units = _units(lines, room, max(1, min(room, overlap // 2 or room)), count)

    def render(body: list[tuple[str, str]]) -> str:
        return head + "\n" + _join(body) if prefix else _join(body)

    windows: list[list[tuple[str, str]]] = []
    fresh: list[int] = []  # units of each window that are new, not overlap
    cur: list[tuple[str, str]] = []
    new = 0
    for unit in units:
        if new and count(render(cur + [unit])) > max_tokens:
            windows.append(cur)
            fresh.append(new)
            carry: list[tuple[str, str]] = []
            for prev in reversed(cur):
                if count(_join([prev] + carry)) > overlap:
                    break
                carry.insert(0, prev)
            while carry and count(render(carry + [unit])) > max_tokens:
                carry.pop(0)
            cur, new = carry, 0
        cur.append(unit)
        new += 1
    if new:
        windows.append(cur)
        fresh.append(new)
    if len(windows) > 1:
        tail = windows[-1][-fresh[-1] :]
        merged = windows[-2] + tail
        if count(_join(tail)) < min_tokens and count(render(merged)) <= max_tokens:
            windows[-2:] = [merged]
    return [render(w) for w in windows]


def _title(header: str | None) -> str:
    return header.lstrip("#").strip() if header else ""


def _block_chunks(block: str, *, max_tokens: int, overlap: int, min_tokens: int, count: Count) -> list[tuple[str, str]]:
    """(section name, text) for one block between chunk breaks.

    Consecutive sections under one ``#`` header are packed while they fit, under that
    header; a section too long to fit is cut on its own, every piece repeating its
    headers. A chunk spanning several ``##`` sections is named by the ``#`` header alone.
    """
    out: list[tuple[str, str]] = []
    cur: list[str] = []
    cur_top: str | None = None
    cur_subs: list[str | None] = []

    def name(top: str | None, subs: list[str | None]) -> str:
        parts = [_title(top)] + ([_title(subs[0])] if len(subs) == 1 else [])
        return " > ".join(p for p in parts if p)

    def flush() -> None:
        nonlocal cur, cur_subs
        if cur:
            out.append((name(cur_top, cur_subs), "\n".join(cur)))
        cur, cur_subs = [], []

    for top, sub, body in _sections(block):
        own = ([sub] if sub else []) + body
        if cur and top == cur_top and count("\n".join(cur + own)) <= max_tokens:
            cur += own
            cur_subs.append(sub)
            continue
        flush()
        cur_top = top
        whole = ([top] if top else []) + own
        if count("\n".join(whole)) <= max_tokens:
            cur, cur_subs = whole, [sub]
            continue
        heads = [h for h in (top, sub) if h]
        for piece in _windows(heads, body, max_tokens=max_tokens, overlap=overlap, min_tokens=min_tokens, count=count):
            out.append((name(top, [sub]), piece))
    flush()
    return out


def chunk_id(doc_id: str, text: str, duplicate: int = 0) -> str:
    """``<doc_id>#<12 hex of the text>``, with ``~n`` for the n-th exact repeat in a document.

    >>> chunk_id("page-1", "Stereo speakers.")
    'page-1#...'
    >>> chunk_id("page-1", "x", 1).endswith("~2")
    True
    """
    base = f"{doc_id}#{short_hash(text, length=12)}"
    return base if duplicate == 0 else f"{base}~{duplicate + 1}"


def chunk_document(
    doc_id: str,
    text: str,
    *,
    products: Sequence[str] = (),
    max_tokens: int = 400,
    overlap_tokens: int = 50,
    min_tokens: int = 20,
    count: Count | None = None,
) -> list[Chunk]:
    """Chunks of one document: by ``[CHUNK_BREAK]`` and headers first, then by size.

    ``count`` replaces the token counter (default :func:`count_tokens`).

    >>> doc = "# Feature\\nLoud stereo speakers.\\n[CHUNK_BREAK]\\n# Specs\\n## Audio\\nRadio: FM"
    >>> [(c.section, c.text) for c in chunk_document("p1", doc)]
    [('Feature', '# Feature\\nLoud stereo speakers.'), ('Specs > Audio', '# Specs\\n## Audio\\nRadio: FM')]
    >>> chunks = chunk_document("p2", "Word " * 1000, max_tokens=50)
    >>> len(chunks), max(count_tokens(c.text) for c in chunks) <= 50
    (41, True)
    """
    if max_tokens < 1:
        raise ValueError("max_tokens must be positive")
    # Overlap past half a window would make windows mostly repeats; clamp rather than fail.
    overlap_tokens = max(0, min(overlap_tokens, max_tokens // 2))
    count = count or count_tokens
    pieces: list[tuple[str, str]] = []
    for block in text.split(CHUNK_BREAK):
        pieces += _block_chunks(
            block, max_tokens=max_tokens, overlap=overlap_tokens, min_tokens=min_tokens, count=count
        )
    seen: dict[str, int] = {}
    chunks = []
    for ordinal, (section, body) in enumerate(pieces):
        dup = seen.get(body, 0)
        seen[body] = dup + 1
        chunks.append(Chunk(chunk_id(doc_id, body, dup), doc_id, body, section, ordinal, tuple(products)))
    return chunks
