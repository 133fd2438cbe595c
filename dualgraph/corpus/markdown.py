"""Page Markdown shared by the HTML and table importers: variant specs and text blocks as
chunks of bounded size, separated by :data:`CHUNK_BREAK`, so both render pages the same way."""

from __future__ import annotations

from collections.abc import Iterable

from dualgraph.corpus.model import Variant
from dualgraph.skg.names import split_spec_key

__all__ = ["CHUNK_BREAK", "chunk_lines", "specs_chunks"]

CHUNK_BREAK = "[CHUNK_BREAK]"


def _split_long(line: str, limit: int) -> list[str]:
    if len(line) <= limit:
        return [line]
    out, cur = [], ""
    for word in line.split(" "):
        while len(word) > limit:  # one unbroken token longer than a chunk
            if cur:
                out.append(cur)
                cur = ""
            out.append(word[:limit])
            word = word[limit:]
        if cur and len(cur) + 1 + len(word) > limit:
            out.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    return out + ([cur] if cur else [])


def chunk_lines(header: str, lines: Iterable[str], *, chunk_chars: int = 5000) -> list[str]:
    """Pack lines under ``header`` into chunks of at most ``chunk_chars`` characters.

    A continuation chunk repeats the header and the current ``## `` sub-heading, so each
    chunk reads on its own; a chunk never ends on a sub-heading when it can be avoided.

    >>> chunk_lines("# H", ["## S", "a: 1", "b: 2"], chunk_chars=14)
    ['# H\\n## S\\na: 1', '# H\\n## S\\nb: 2']
    """
    chunks: list[str] = []
    cur, base, size = [header], 1, len(header)
    sub: str | None = None
    room = max(chunk_chars - len(header) - 41, 20)  # leaves space for a repeated sub-heading
    for line in lines:
        for piece in _split_long(line, room):
            is_sub = piece.startswith("## ")
            if size + 1 + len(piece) > chunk_chars and len(cur) > base:
                carry = [cur.pop()] if cur[-1].startswith("## ") and len(cur) - 1 > base else []
                chunks.append("\n".join(cur))
                cur = [header] + (carry or ([sub] if sub and not is_sub else []))
                base, size = len(cur), sum(len(x) + 1 for x in cur) - 1
            cur.append(piece)
            size += 1 + len(piece)
            if is_sub:
                sub = piece
    if len(cur) > 1:
        chunks.append("\n".join(cur))
    return chunks


def _product_lines(v: Variant, common: set[str]) -> list[str]:
    lines = []
    if "name" not in common:
        lines.append(f"Product Name: {v.name}")
    if "range" not in common:
        lines.append(f"Product Range: {v.prod_range}")
    if "categories" not in common and v.categories:
        lines.append(f"Product Categories: {', '.join(v.categories)}")
    return lines


def _spec_lines(items: list[tuple[str, str, str]]) -> list[str]:
    lines, section = [], None
    for sec, entry, value in items:
        if sec != section:
            lines.append(f"## {sec}")
            section = sec
        lines.append(f"{entry}: {' '.join(value.split())}")
    return lines


def specs_chunks(variants: list[Variant], *, title: str, chunk_chars: int = 5000) -> list[str]:
    """The variants' specs as Markdown chunks: what all share, once, then each variant.

    Sections are those of the graph (a key without a section is under "Specifications")
    and come in first-seen order, with entries grouped under their section.

    >>> a = Variant("P 128GB", "P", ("phones",), (("Display:Size", "6.1 inch"), ("Price", "9 GBP")))
    >>> b = Variant("P 256GB", "P", ("phones",), (("Display:Size", "6.1 inch"), ("Price", "11 GBP")))
    >>> print("\\n---\\n".join(specs_chunks([a, b], title="P")))
    # Specifications shared by all 2 products of the "P" page
    Products: P 128GB; P 256GB
    Product Range: P
    Product Categories: phones
    ## Display
    Size: 6.1 inch
    ---
    # Specifications of "P 128GB" (from the "P" page)
    ## Specifications
    Price: 9 GBP
    ---
    # Specifications of "P 256GB" (from the "P" page)
    ## Specifications
    Price: 11 GBP
    """
    if not variants:
        return []
    order: dict[tuple[str, str], int] = {}
    sec_order: dict[str, int] = {}
    per_variant = []
    for v in variants:
        parsed: dict[tuple[str, str], str] = {}
        for key, value in v.specs:
            if not value.strip():
                continue
            sec, entry = split_spec_key(key)
            sec_order.setdefault(sec, len(sec_order))
            order.setdefault((sec, entry), len(order))
            parsed.setdefault((sec, entry), value)
        per_variant.append(parsed)

    def ordered(keys: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        return sorted(keys, key=lambda k: (sec_order[k[0]], order[k]))

    common_specs: set[tuple[str, str]] = set()
    common_meta: set[str] = set()
    chunks: list[str] = []
    if len(variants) > 1:
        first = per_variant[0]
        common_specs = {k for k, val in first.items() if all(p.get(k) == val for p in per_variant[1:])}
        common_meta = {"name"}
        if len({v.prod_range for v in variants}) == 1:
            common_meta.add("range")
        if len({v.categories for v in variants}) == 1:
            common_meta.add("categories")
        head = [f"Products: {'; '.join(v.name for v in variants)}"]
        if "range" in common_meta:
            head.append(f"Product Range: {variants[0].prod_range}")
        if "categories" in common_meta and variants[0].categories:
            head.append(f"Product Categories: {', '.join(variants[0].categories)}")
        body = _spec_lines([(s, e, first[(s, e)]) for s, e in ordered(common_specs)])
        chunks += chunk_lines(
            f'# Specifications shared by all {len(variants)} products of the "{title}" page',
            head + body,
            chunk_chars=chunk_chars,
        )
    for v, parsed in zip(variants, per_variant):
        own = ordered(k for k in parsed if k not in common_specs)
        lines = _product_lines(v, common_meta) + _spec_lines([(s, e, parsed[(s, e)]) for s, e in own])
        header = f'# Specifications of "{v.name}" (from the "{title}" page)'
        chunks += chunk_lines(header, lines, chunk_chars=chunk_chars) or [header]
    return chunks
