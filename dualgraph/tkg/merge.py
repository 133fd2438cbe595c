"""Mentions into entities, and the Textual KG on disk.

Mentions are merged by a canonical key, not by exact name: the key is NFKC text,
case-folded, with punctuation and spacing removed ("Wi-Fi 6E" = "WiFi 6E" = "wi fi 6e",
"S Pen" = "S-Pen"), a leading article dropped, meaningful symbols spelled out ("S25+" =
"S25 Plus", never = "S25") and simple English plurals folded word by word ("speakers" =
"speaker", "batteries" = "battery", but "glass", "lens", "Plus", "iOS" stay). The entity
id is a hash of that key, so it is the same on every run.

Descriptions are aggregated under a token bound (the same counter as chunking, so the
threshold and the cut agree): near-identical sentences are kept once and the sentences
that most mentions support come first. A summariser (an LLM hook) is called only when
the extract would not fit.

On disk a TKG is three Parquet files in one folder, each written to a temporary name
and renamed into place: ``chunks.parquet``, ``entities.parquet`` and
``entity_chunks.parquet`` (the bipartite entity-chunk index, in each entity's order).
"""

from __future__ import annotations

import functools
import logging
import math
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from dualgraph.skg.names import short_hash
from dualgraph.tkg.chunking import count_tokens
from dualgraph.tkg.model import Chunk, Entity, Mention

__all__ = ["entity_key", "fold_plural", "load_tkg", "merge_mentions", "normalise_name", "save_tkg"]

log = logging.getLogger(__name__)

_SYMBOLS = {"+": " plus ", "&": " and ", "%": " percent ", "@": " at "}
_ARTICLES = ("the ", "a ", "an ")
# Words whose final s is not a plural, or whose plural folds irregularly.
_KEEP = frozenset(
    """lens series species news windows ios macos tvos watchos ipados chaos kudos
    ethos canvas atlas bias gas bus plus status bonus campus virus corpus focus radius chassis
    analysis axis basis thesis tennis always perhaps whereas various previous famous gorgeous
    its this his has was does is us yes""".split()
)
# Words in -os whose s is a plural; others ("Atmos", "iOS", "chaos") keep it.
_OS_PLURALS = frozenset(
    """photos videos logos demos stereos radios studios ratios scenarios portfolios memos
    tattoos zeros kilos pianos cameos duos trios combos promos infos""".split()
)
_IES_TO_IE = frozenset("movies selfies cookies calories smoothies zombies ties lies pies".split())
_CHES_TO_CHE = frozenset("caches niches headaches aches moustaches".split())


@functools.lru_cache(maxsize=1 << 17)  # called for every word of every chunk: most are repeats
def fold_plural(word: str) -> str:
    """A simple English singular of one lower-case word; words with digits stay.

    >>> [fold_plural(w) for w in ["speakers", "batteries", "glass", "watches", "lens", "plus", "movies"]]
    ['speaker', 'battery', 'glass', 'watch', 'lens', 'plus', 'movie']
    """
    if len(word) <= 3 or not word.isalpha() or word in _KEEP:
        return word
    if word.endswith("ies"):
        return word[:-1] if word in _IES_TO_IE else word[:-3] + "y"
    if word.endswith(("sses", "shes", "xes", "zzes")) or (word.endswith("ches") and word not in _CHES_TO_CHE):
        return word[:-2]
    if (
        word.endswith(("ss", "us", "is", "ics"))
        or not word.endswith("s")
        or (word.endswith("os") and word not in _OS_PLURALS)
    ):
        return word
    return word[:-1]


def normalise_name(name: str) -> str:
    """A name as shown: outer spaces and quotes stripped, inner spaces collapsed. Symbols
    stay as written ("Core™"); only the merge key folds them.

    >>> normalise_name('  "Gorilla\\u00a0Glass  Victus 2" ')
    'Gorilla Glass Victus 2'
    """
    text = " ".join(name.split())
    return text.strip(" \"'`“”‘’*_").strip()


def entity_key(name: str) -> str:
    """The merge key of a name (see the module notes); empty for a name with no letters or digits.

    >>> entity_key("Stereo Speakers") == entity_key("stereo speaker")
    True
    >>> entity_key("Wi-Fi 6E") == entity_key("WiFi 6E"), entity_key("Galaxy S25+") == entity_key("Galaxy S25")
    (True, False)
    >>> entity_key("the S Pen")
    'spen'
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(_SYMBOLS.get(ch, ch) for ch in text)
    text = " ".join(text.split())
    for article in _ARTICLES:
        if text.startswith(article) and len(text) > len(article):
            text = text[len(article) :]
            break
    words = re.findall(r"[^\W_]+", text)
    return "".join(fold_plural(w) for w in words)


def entity_id(key: str) -> str:
    """``ent-`` + a hash of the merge key."""
    return "ent-" + short_hash(key, length=16)


# ----------------------------------------------------------------------------- descriptions

_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")


_NEAR_MIN_WORDS = 8
_NEAR_SHARE = 0.85


def _sentence_key(sentence: str) -> frozenset[str]:
    return frozenset(re.findall(r"[^\W_]+", sentence.casefold()))


def _near(a: frozenset[str], b: frozenset[str]) -> bool:
    """Near-identical: the same words (case and punctuation aside), or long sentences that
    share 85% of their words and all their numbers. Numbers must agree, since "Refresh
    Rate: 120 Hz" and "Refresh Rate: 60 Hz" are different facts."""
    if a == b:
        return True
    if min(len(a), len(b)) < _NEAR_MIN_WORDS or {w for w in a if w[0].isdigit()} != {w for w in b if w[0].isdigit()}:
        return False
    return _share_enough(a, b)


def _share_enough(a: frozenset[str], b: frozenset[str]) -> bool:
    """The words test of :func:`_near`: a Jaccard similarity of at least ``_NEAR_SHARE``."""
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared) >= _NEAR_SHARE


def extract_description(descriptions: Iterable[str], *, max_tokens: int = 120) -> str:
    """The best-supported distinct sentences of ``descriptions``, within ``max_tokens``.

    Sentences are ranked by how many descriptions carry them (near-duplicates count
    together), then by how many distinct words they hold, then alphabetically, so the
    result does not depend on the order of the mentions.

    >>> extract_description(["Tuned by AKG.", "Loud stereo speakers.", "loud stereo speakers", "Loud stereo speakers."])
    'Loud stereo speakers. Tuned by AKG.'
    """
    return _extract(descriptions, max_tokens)[0]


class _SentenceGroups:
    """Near-identical sentences grouped, each joining the *first* group it is near.

    A scan of every group per sentence grows with the square of an entity's mentions, and a
    common feature of a large catalog has tens of thousands. The same answer comes from
    candidates only: the group of the same word set, and the long groups with the same
    numbers that share a word of the sentence's prefix (prefix filtering: two sets with a
    Jaccard similarity of at least ``t`` share a word among the first ``n - floor(t·n) + 1`` of
    each, in any fixed word order).

    The order is rarest word first (``rarity``: how many of the entity's sentences hold the
    word), as in the all-pairs similarity joins: in alphabetical order the prefixes were
    words like "a" and "and" that every sentence holds, so each candidate list was nearly
    every group again. Any fixed order gives the same groups; this one gives short lists.
    """

    def __init__(self, rarity: Counter[str] | None = None) -> None:
        self.groups: list[tuple[frozenset[str], Counter[str]]] = []
        self._same: dict[frozenset[str], int] = {}
        self._by_prefix_word: dict[tuple[frozenset[str], str], list[int]] = {}
        self._rarity: Counter[str] = rarity if rarity is not None else Counter()

    def _prefix(self, key: frozenset[str]) -> tuple[frozenset[str], list[str]]:
        numbers = frozenset(w for w in key if w[0].isdigit())
        ordered = sorted(key, key=lambda w: (self._rarity[w], w))
        # one word more than the bound needs, so float rounding can never drop a candidate
        return numbers, ordered[: len(key) - math.floor(_NEAR_SHARE * len(key)) + 1]

    def add(self, sentence: str, key: frozenset[str] | None = None) -> None:
        """Put ``sentence`` in its group; ``key``: its :func:`_sentence_key`, when known."""
        key = _sentence_key(sentence) if key is None else key
        found = self._same.get(key)
        long = len(key) >= _NEAR_MIN_WORDS
        if long:
            numbers, prefix = self._prefix(key)
            for word in prefix:
                for i in self._by_prefix_word.get((numbers, word), ()):
                    # :func:`_near` for a candidate: both long, the same numbers (the index's key)
                    if (found is None or i < found) and _share_enough(key, self.groups[i][0]):
                        found = i
        if found is not None:
            self.groups[found][1][sentence] += 1
            return
        index = len(self.groups)
        self.groups.append((key, Counter({sentence: 1})))
        self._same[key] = index
        if long:
            for word in prefix:
                self._by_prefix_word.setdefault((numbers, word), []).append(index)


def _extract(descriptions: Iterable[str], max_tokens: int) -> tuple[str, bool]:
    """The extract and whether it holds every distinct sentence."""
    sentences = [sent for desc in descriptions for sent in _SENT.split(" ".join(desc.split())) if sent]
    keys: dict[str, frozenset[str]] = {}
    for sent in sentences:
        if sent not in keys:
            keys[sent] = _sentence_key(sent)
    rarity: Counter[str] = Counter()
    for key in set(keys.values()):
        rarity.update(key)
    grouping = _SentenceGroups(rarity)
    for sent in sentences:
        grouping.add(sent, keys[sent])
    groups = grouping.groups
    ranked = []
    for gkey, forms in groups:
        best = min(forms, key=lambda s: (-forms[s], -len(s), s))  # most frequent, then fullest form
        ranked.append((-sum(forms.values()), -len(gkey), best))
    ranked.sort()
    out: list[str] = []
    used = 0
    complete = True
    for _, _, sent in ranked:
        sep = 1 if out else 0
        # every word holds a token at least: a sentence that cannot fit is not counted (a common
        # entity has thousands of distinct sentences, and the budget is full after a few)
        if out and used + sep + len(sent.split()) > max_tokens:
            complete = False
            continue
        n = count_tokens(sent) + sep
        if used + n > max_tokens:
            complete = False
            if not out:  # a first sentence over the bound is cut rather than lost
                out.append(_truncate(sent, max_tokens))
                used = max_tokens
            continue
        out.append(sent)
        used += n
    return " ".join(out), complete


def _truncate(text: str, max_tokens: int) -> str:
    words = text.split()
    while words and count_tokens(" ".join(words) + " …") > max_tokens:
        words.pop()
    return " ".join(words) + " …" if words else ""


def _aggregate(
    name: str, descriptions: list[str], max_tokens: int, summarise: Callable[[str, list[str]], str] | None
) -> str:
    extract, complete = _extract(descriptions, max_tokens)
    if summarise is None or complete:  # the hook costs a model call: only when text was left out
        return extract
    unique = list(dict.fromkeys(" ".join(d.split()) for d in descriptions if d.strip()))
    try:
        summary = " ".join(summarise(name, unique).split())
    except Exception as e:  # the hook is a remote model: keep the extract, say why
        log.warning("summarising %r failed (%s); kept the extractive description", name, e)
        return extract
    if not summary:
        return extract
    return summary if count_tokens(summary) <= max_tokens else _truncate(summary, max_tokens)


# ----------------------------------------------------------------------------- merging


def _display_name(forms: Counter[str]) -> str:
    """The most frequent surface form; ties: the shortest, then the first alphabetically."""
    return min(forms, key=lambda f: (-forms[f], len(f), f))


def merge_mentions(
    mentions: Iterable[Mention],
    *,
    max_description_tokens: int = 120,
    summarise: Callable[[str, list[str]], str] | None = None,
    progress: bool = False,
    describe: Callable[[list[tuple[str, list[str]]]], list[str]] | None = None,
) -> list[Entity]:
    """Entities of ``mentions`` merged by :func:`entity_key`, in order of first mention.

    ``summarise(name, descriptions)`` replaces the extractive description when the
    distinct sentences do not fit ``max_description_tokens``; a failing or empty
    summary falls back to the extract. Mentions whose name has no letter or digit are
    skipped.

    >>> ms = [Mention("Stereo speakers", "Loud stereo speakers.", "c1"),
    ...       Mention("stereo speaker", "Tuned by AKG.", "c2"),
    ...       Mention("Stereo speakers", "Loud stereo speakers.", "c2")]
    >>> [(e.name, e.description, e.chunk_ids, e.mention_count) for e in merge_mentions(ms)]
    [('Stereo speakers', 'Loud stereo speakers. Tuned by AKG.', ['c1', 'c2'], 3)]
    """
    forms: dict[str, Counter[str]] = {}
    descs: dict[str, list[str]] = {}
    chunks: dict[str, dict[str, None]] = {}
    counts: Counter[str] = Counter()
    key_of: dict[str, str] = {}  # a common feature is named the same way thousands of times
    for m in mentions:
        name = normalise_name(m.name)
        key = key_of.get(name)
        if key is None:
            key = key_of[name] = entity_key(name)
        if not key:
            continue
        forms.setdefault(key, Counter())[name] += 1
        if m.description.strip():
            descs.setdefault(key, []).append(m.description)
        chunks.setdefault(key, {})[m.chunk_id] = None
        counts[key] += 1
    from dualgraph.progress import progress_bar

    def own(items: list[tuple[str, list[str]]]) -> list[str]:
        return [_aggregate(name, found, max_description_tokens, summarise) for name, found in items]

    # ``describe``: the same descriptions in bulk, e.g. through a cache (see describe_version)
    describe = describe or own
    out = []
    keys = list(forms)
    with progress_bar("merge entities", total=len(keys), unit="entity", enabled=progress) as bar:
        for start in range(0, len(keys), 2048):
            part = keys[start : start + 2048]
            names = [_display_name(forms[key]) for key in part]
            found = describe([(name, descs.get(key, [])) for name, key in zip(names, part, strict=True)])
            for key, name, desc in zip(part, names, found, strict=True):
                out.append(Entity(entity_id(key), name, desc, list(chunks[key]), counts[key]))
            bar.update(len(part))
    return out


def describe_key(name: str, descriptions: list[str], max_tokens: int) -> str:
    """What an extractive description depends on: the name, the descriptions in order, the bound."""
    return short_hash(name, str(max_tokens), *descriptions, length=32)


@functools.lru_cache(maxsize=1)
def describe_version() -> str:
    """Changes with this module's code, so a cached description is never one an older rule wrote."""
    return "describe-" + short_hash(Path(__file__).read_text("utf-8"), length=16)


# ----------------------------------------------------------------------------- storage

CHUNKS_FILE = "chunks.parquet"
ENTITIES_FILE = "entities.parquet"
ENTITY_CHUNKS_FILE = "entity_chunks.parquet"


def _write_atomic(table, path: Path) -> None:
    import pyarrow.parquet as pq

    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, path)  # readers see the old file or the new one, never half of one
    finally:
        tmp.unlink(missing_ok=True)


def save_tkg(directory: str | Path, chunks: Iterable[Chunk], entities: Iterable[Entity]) -> Path:
    """Write the three TKG files into ``directory`` (created if missing); returns it.

    >>> import tempfile
    >>> d = save_tkg(tempfile.mkdtemp(), [Chunk("p#1", "p", "Loud stereo speakers.", "Audio", 0, ("P",))],
    ...              [Entity("ent-1", "Stereo speakers", "Loud.", ["p#1"], 1)])
    >>> chunks, entities = load_tkg(d)
    >>> chunks[0].products, entities[0].chunk_ids
    (('P',), ['p#1'])
    """
    import pyarrow as pa

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    chunks = list(chunks)
    entities = list(entities)
    _write_atomic(
        pa.table(
            {
                "chunk_id": pa.array([c.chunk_id for c in chunks], pa.string()),
                "doc_id": pa.array([c.doc_id for c in chunks], pa.string()),
                "text": pa.array([c.text for c in chunks], pa.string()),
                "section": pa.array([c.section for c in chunks], pa.string()),
                "ordinal": pa.array([c.ordinal for c in chunks], pa.int32()),
                "products": pa.array([list(c.products) for c in chunks], pa.list_(pa.string())),
            }
        ),
        out / CHUNKS_FILE,
    )
    _write_atomic(
        pa.table(
            {
                "entity_id": pa.array([e.entity_id for e in entities], pa.string()),
                "name": pa.array([e.name for e in entities], pa.string()),
                "description": pa.array([e.description for e in entities], pa.string()),
                "mention_count": pa.array([e.mention_count for e in entities], pa.int64()),
            }
        ),
        out / ENTITIES_FILE,
    )
    _write_atomic(
        pa.table(
            {
                "entity_id": pa.array([e.entity_id for e in entities for _ in e.chunk_ids], pa.string()),
                "chunk_id": pa.array([c for e in entities for c in e.chunk_ids], pa.string()),
            }
        ),
        out / ENTITY_CHUNKS_FILE,
    )
    return out


def load_tkg(directory: str | Path) -> tuple[list[Chunk], list[Entity]]:
    """The chunks and entities :func:`save_tkg` wrote, in their saved order."""
    import pyarrow.parquet as pq

    d = Path(directory)
    rows = pq.read_table(d / CHUNKS_FILE).to_pylist()
    chunks = [
        Chunk(r["chunk_id"], r["doc_id"], r["text"], r["section"] or "", int(r["ordinal"]), tuple(r["products"] or ()))
        for r in rows
    ]
    links: dict[str, list[str]] = {}
    for r in pq.read_table(d / ENTITY_CHUNKS_FILE).to_pylist():
        links.setdefault(r["entity_id"], []).append(r["chunk_id"])
    entities = [
        Entity(r["entity_id"], r["name"], r["description"], links.get(r["entity_id"], []), int(r["mention_count"]))
        for r in pq.read_table(d / ENTITIES_FILE).to_pylist()
    ]
    return chunks, entities
