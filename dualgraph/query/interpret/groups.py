"""Questions that compare groups of products, not products: "On average, whose cameras are lighter,
Canon's or Nikon's?", "Who has more CMOS models, Sony or Panasonic?", "Which section has more
products, Beds or Wardrobes?".

The groups are the scope the question named as alternatives (brands, product lines, categories);
the answer is the group that wins on the mean of a measure, or on how many of its products meet
the question's conditions. The scope mentions stop restricting the query: one query reads every
group at once (a ``UNION`` that binds ``?g``, the group's number), grouped by it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from dualgraph.lexicon.catalog_names import singular
from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.pattern import fill
from dualgraph.lexicon.tokens import norm_tokens
from dualgraph.query.ground.base import Grounding
from dualgraph.query.read.lists import joined
from dualgraph.query.read.model import Intent
from dualgraph.query.read.reading import Reading

__all__ = ["Groups", "compared_groups", "either_scope"]

_MAX_GROUPS = 4
_IRIS = re.compile(r"<[^<>\s]+>")
_ENTRY = re.compile(r"skg:inEntry\s+(<[^<>\s]+>)")


class Groups:
    """The groups a question compares: their names, the ``UNION`` block that binds ``?g`` to each
    group's number, and the scope groundings they were read from (which then restrict nothing)."""

    def __init__(self, names: list[str], patterns: list[str], used: list[Grounding]):
        self.names, self.used = names, used
        self.block = " UNION ".join(f"{{ {p} BIND({i} AS ?g) }}" for i, p in enumerate(patterns))

    def neutral(self, gr: Grounding) -> Grounding:
        """``gr`` as a mention read but restricting nothing (its products are split into the groups)."""
        return replace(gr, kind="category", snippet="", name_filter=None, filters=[])


def compared_groups(
    reading: Reading, intent: Intent, scope: list[Grounding], trace: list[str]
) -> tuple[Intent, Groups] | None:
    """The intent and groups of a question comparing two or more groups of products, else None;
    ``scope`` holds the question's scope and value mentions.

    The question must offer the groups as alternatives ("or", "vs") or set one against the other
    ("Are Leica cameras heavier on average than Sony's?") and compare: how many
    (``counts_compared``: "more models", "more common") or how much of a measure (a comparative
    with an average, "whose … are lighter"). A measure named by a word for a grouping ("which
    brand's bikes are pricier") is no measure: the comparative's own attribute is read instead.
    """
    if not (reading.alternatives or reading.contrasted) or intent.kind not in ("average", "compare", "list", "yesno"):
        return None
    cmp = reading.comparative
    if intent.kind in ("list", "yesno") and not (reading.counts_compared or (cmp and cmp[1])):
        return None
    names, patterns, used = _groups(scope)
    if len(names) < 2:
        names, patterns, used = _feature_groups(reading, scope)
    if not 2 <= len(names) <= _MAX_GROUPS:
        return None
    groups = Groups(names, patterns, used)
    direction = (cmp[0] if cmp else None) or intent.direction or "max"
    if reading.counts_compared:
        trace.append(f"groups compared by how many products they hold: {names}, {direction}")
        return Intent("count", direction=direction, groups=tuple(names)), groups
    if cmp is None and intent.direction is None:
        return None
    grouping = general_words("brand_words") | general_words("range_words") | general_words("section_words")
    attr = next((a for a in ((cmp[1] if cmp else ""), intent.attribute) if a and a.casefold() not in grouping), "")
    trace.append(f"groups compared by their mean {attr or 'price'}: {names}, {direction}")
    return Intent("average", attr, direction, word=intent.word, groups=tuple(names)), groups


def either_scope(reading: Reading, scope: list[Grounding], trace: list[str]) -> list[Grounding]:
    """``scope`` with brands or lines said as alternatives ("Canon or Nikon cameras", "Arc and Dune
    wheelsets") read as one mention that either satisfies (each alone would exclude the other); the
    merged mention keeps them as ``parts``, for a question that compares them."""
    out: list[Grounding] = []
    for gr in scope:
        prev = out[-1] if out else None
        if (
            prev is not None
            and _alternative(gr)
            and _alternative(prev)
            and joined(reading.between(_span(prev).end, _span(gr).start), versus=True)
        ):
            parts = [*(prev.parts or [prev]), gr]
            out[-1] = _either(parts, reading)
            trace.append(f"scope {[_span(p).text for p in parts]}: alternatives, either one")
            continue
        out.append(gr)
    return out


def _alternative(gr: Grounding) -> bool:
    return gr.kind in ("brand", "line") and gr.resolved and bool(gr.snippet or gr.name_filter) and _span(gr) is not None


def _span(gr: Grounding):
    return getattr(gr.source, "span", None)


def _either(parts: list[Grounding], reading: Reading) -> Grounding:
    """One scope mention that any of ``parts`` satisfies."""
    first, last = _span(parts[0]), _span(parts[-1])
    source = replace(parts[0].source, span=replace(first, end=last.end, text=reading.between(first.start, last.end)))
    branches = " UNION ".join(f"{{ {_pattern(gr, f'?es{i}')} }}" for i, gr in enumerate(parts))
    return Grounding(
        source, "brand", snippet=branches, confidence=min(gr.confidence for gr in parts), parts=list(parts)
    )


def _pattern(gr: Grounding, var: str) -> str:
    """The graph pattern over ``?p`` of one scope mention, with variables of its own (``var``…)."""
    pattern = fill(gr.snippet, var, f"{var}v") if gr.snippet else ""
    if gr.name_filter:  # a brand read from the names: the pattern binds the name it tests
        pattern += f" ?p skg:hasName ?name . FILTER({gr.name_filter})"
    return pattern.strip()


def _groups(scope: list[Grounding]) -> tuple[list[str], list[str], list[Grounding]]:
    """(names, graph patterns, groundings) of the groups in ``scope`` (the scope and value mentions):
    a brand or line each, a value of an entry with another value named; a category mention that
    found several categories ("Beds or Wardrobes") one group per category."""
    names: list[str] = []
    patterns: list[str] = []
    used: list[Grounding] = []
    entries = [m.group(1) if (m := _ENTRY.search(gr.snippet)) else "" for gr in scope]
    for i, top in enumerate(scope):
        for j, gr in enumerate(top.parts or [top]):
            if not gr.resolved or not (gr.snippet or gr.name_filter):
                continue
            # a brand or line; or one value of an entry another alternative names a value of ("Nvidia's or AMD's")
            valued = gr.kind in ("value", "feature-value") and (
                len(top.parts) >= 2 or (entries[i] and entries.count(entries[i]) >= 2)
            )
            if gr.kind in ("brand", "line") or valued:
                span = _span(gr)  # as the question writes it: "BESTÅ", "Canon's"; a value as the list names it
                said = getattr(gr.source, "phrase", "") if valued else ""
                phrase = str(said) if said else span.text if span is not None else str(getattr(gr.source, "phrase", ""))
                names.append(re.sub(r"['’]s?$", "", phrase.strip()))
                patterns.append(_pattern(gr, f"?gs{i}_{j}"))
            elif gr.kind == "category" and len(gr.candidates) >= 2 and "skg:belongs" in gr.snippet:
                iris = {_slug(iri): iri for iri in _IRIS.findall(gr.snippet)}
                named = [(name, iris.get(_slug(name))) for name, _ in gr.candidates]
                if len(named) != len(iris) or any(iri is None for _, iri in named):
                    continue  # the categories found are not the ones the mention's names say
                names += [name for name, _ in named]
                patterns += [f"?p skg:belongs {iri} ." for _, iri in named]
            else:
                continue
            if not any(u is top for u in used):
                used.append(top)
    return names, patterns, used


_FEATURE_KINDS = ("feature", "text-feature")


def _feature_groups(reading: Reading, scope: list[Grounding]) -> tuple[list[str], list[str], list[Grounding]]:
    """Features offered as alternatives, one group each ("bottom freezers versus top freezers",
    "the ones with Wi-Fi or the ones with Bluetooth"): said side by side, joined by "or", "vs" or a
    comma; a negated feature is a condition, never a group."""
    feats = [gr for gr in scope if gr.kind in _FEATURE_KINDS and gr.resolved and gr.snippet and _span(gr) is not None]
    feats = [gr for gr in feats if not getattr(gr.source, "negated", False)]
    run: list[Grounding] = []
    for gr in feats:
        if run and not joined(_between_words(reading, _span(run[-1]).end, _span(gr).start), versus=True):
            if len(run) >= 2:
                break
            run = []
        run.append(gr)
    if len(run) < 2:
        return [], [], []
    names = [_feature_name(gr) for gr in run]
    return names, [_pattern(gr, f"?gf{i}") for i, gr in enumerate(run)], run


def _feature_name(gr: Grounding) -> str:
    """A feature group's name: the catalogue's own name for it where that is the words said, in
    the singular or plural ("bottom freezers" → "Bottom Freezer"), else the words said."""
    said = re.sub(r"['’]s?$", "", _span(gr).text.strip())
    want = singular(norm_tokens(said))
    own = next((name for name, _ in gr.candidates if singular(norm_tokens(name)) == want), None)
    return own or said


def _between_words(reading: Reading, start: int, end: int) -> str:
    """The words between two mentions, less the ones that only point at the products ("the ones
    with"): what joins the two alternatives."""
    between = re.sub(r"\b(?:the\s+)?(?:ones?\s+)?(?:with|that\s+have)\s*$", "", reading.between(start, end), flags=re.I)
    # the noun both are said of, after the first ("Wi-Fi speakers versus NFC speakers")
    return re.sub(r"^\s*[^\W\d_]+(?=\s+(?:or|vs\.?|versus|and)\b)", "", between, flags=re.I)


def _slug(text: str) -> str:
    """A category's name or IRI reduced to the letters and digits of its name ("Trail Bikes" and
    "…#category-trail_bikes>" alike)."""
    return re.sub(r"[\W_]+", "", text.rsplit("category-", 1)[-1].casefold())
