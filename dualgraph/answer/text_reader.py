"""Read product answers out of retrieved text without a model.

The Textual KG has no product filter, so a list answer comes from the *phrase* the question
hinges on: the most specific Textual KG entity whose whole name is in the question ("S Pen",
"recycled aluminium frame", "IP68"). Every product whose text (any chunk of its page) contains
that phrase is an answer; products are ranked by the best vote of their chunks. When no
entity name occurs in the question, the products of the top voted chunks are the answer,
with a low confidence — that is a guess and says so.

When the specs read nothing beyond the scope, the phrases they left unread are the condition. The
pages' own sentences (:class:`~dualgraph.tkg.statements.StatementIndex`) are then asked for them
by meaning ("anchored to the wall" in "must be fixed to the wall"), and every page holding the
phrase is read for what it says of it: a page saying "it is not a hardtail" answers "which are
not hardtails", never "which are hardtails".

>>> from dualgraph.tkg.model import Chunk
>>> from dualgraph.tkg.retrieval import Retrieval, ScoredChunk, ScoredEntity
>>> c1 = ScoredChunk(Chunk("c1", "d1", "Comes with an S Pen.", products=("Tab A",)), 0.9, 5)
>>> c2 = ScoredChunk(Chunk("c2", "d2", "A large screen.", products=("Tab B",)), 0.5, 4)
>>> ex = Retrieval("Which tablets come with an S Pen?", [c1], [c1, c2],
...                entities=[ScoredEntity("e1", "S Pen", 1.0, lexical=2.0)], exhaustive=True)
>>> read_products(ex.question, ex, ex, chunk_count=lambda e: 1).products
['Tab A']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from dualgraph.lexicon.catalog_names import singular
from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.vocabulary import current
from dualgraph.query.caps import CAP_FACTOR, TEXT_GUESS_CHUNKS, CapHit
from dualgraph.tkg.model import Chunk
from dualgraph.tkg.polarity import negated, negation_words
from dualgraph.tkg.retrieval import Retrieval
from dualgraph.tkg.statements import StatementIndex, StatementMatch

__all__ = ["ANCHORED", "FoldedCorpus", "Reading", "fold", "fold_corpus", "read_products"]

GUESS_CHUNKS = 3
"""Voted chunks whose products are the answer when no phrase anchors the question."""
NEAR_WINDOW = 5
"""Words of an anchor phrase count as said together within this many words."""
ANCHORED = 0.8
"""Confidence of an answer read by a phrase of the question found in the text."""
SCOPE_ONLY = 0.5
COMMON_SHARE = 0.3
"""A one-word anchor on more than this share of the products' pages is too common to answer by."""
MEASURE_ANCHOR = 0.6
"""Confidence of an answer anchored on a bare measurement ("7000 mah")."""
"""Confidence of an answer read from product names alone."""
LEAD_WORDS = 3
"""Function words before the first unread one that belong to its clause ("can be | stacked", "in other | colours")."""
STATED = 0.6
"""Cosine from which the pages' sentences that say an unread clause answer it as an anchor would."""
HUB_SHARE = 0.25
"""An entity in more than this share of the chunks names a topic, not a distinguishing fact."""
_STOP = frozenset(
    """a an the in on at of for to with from by and or is are be do does can which what who
that this these those it its you your my me i""".split()
)
# words that name no fact: grammar, "a product", "supports"; the catalog's categories are added
# from the vocabulary in use (the hub filter below catches the rest: words on most pages)
_GENERIC = general_words("function_words") | general_words("product_nouns") | general_words("capability_words")


@dataclass(slots=True)
class Reading:
    products: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    phrase: str | None = None
    confidence: float = 0.0
    trace: list[str] = field(default_factory=list)
    caps: list[CapHit] = field(default_factory=list)
    gainsaid: list[str] = field(default_factory=list)
    """Products in scope whose pages hold the phrase only to say the opposite of what is asked."""


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"['’]s\b", "", text)  # possessives: "Samsung's S Pen" is not "samsung s s pen"
    return " ".join(re.findall(r"\w+", text))


def _is_measure(phrase: str) -> bool:
    """A number and its unit, nothing more: "7000 mah", "120 hz" (not "10 year warranty").

    >>> _is_measure("7000 mah"), _is_measure("10 year warranty"), _is_measure("ip68")
    (True, False, False)
    """
    from dualgraph.skg.quantities import parse_quantity

    return bool(re.fullmatch(r"\d[\d.]*\s*[a-z]+", phrase)) and parse_quantity(phrase) is not None


class FoldedCorpus(dict[str, tuple[str, tuple[str, ...]]]):
    """``chunk_id → (folded text, products)``, with an inverted index from each word to the chunks
    whose folded text holds it.

    An anchor phrase, or a run of the question's words, can only be in a chunk that holds every
    one of its words (folded texts and phrases are both single-space-joined words), so the
    chunks worth reading are the intersection of a few posting lists instead of the whole
    catalog's text, question after question. The index is built on first use (or by
    :meth:`prepare`), once per engine.

    >>> corpus = FoldedCorpus({"c1": ("a frame of recycled aluminium", ("A",)), "c2": ("an aluminium case", ("B",))})
    >>> corpus.holding(["aluminium"]), corpus.holding(["recycled", "aluminium"]), corpus.holding(["steel"])
    (['c1', 'c2'], ['c1'], [])
    """

    _postings: dict[str, list[int]] | None = None
    _ids: list[str] | None = None

    def prepare(self) -> None:
        if self._postings is not None:
            return
        ids = list(self)
        postings: dict[str, list[int]] = {}
        for i, cid in enumerate(ids):
            for word in set(self[cid][0].split()):
                postings.setdefault(word, []).append(i)
        self._ids, self._postings = ids, postings

    def holding(self, words: Iterable[str]) -> list[str]:
        """The chunks whose folded text holds every one of ``words`` as a word, in corpus order."""
        self.prepare()
        assert self._postings is not None and self._ids is not None
        lists = sorted((self._postings.get(w, []) for w in set(words)), key=len)
        if not lists:
            return list(self._ids)
        if not lists[0]:
            return []
        common = set(lists[0])
        for more in lists[1:]:
            common.intersection_update(more)
            if not common:
                return []
        return [self._ids[i] for i in sorted(common)]

    def holds_run(self, run: str) -> bool:
        """Whether some chunk holds the words of ``run`` side by side (``run``: folded words)."""
        return any(_contains(self[cid][0], run) for cid in self.holding(run.split()))


def fold_corpus(chunks: Mapping[str, Chunk]) -> FoldedCorpus:
    """Every chunk's text folded the way anchors are matched, with its products (and a word index)."""
    return FoldedCorpus({cid: (fold(c.text), tuple(c.products)) for cid, c in chunks.items()})


def _contains(text: str, phrase: str) -> bool:
    return f" {phrase} " in f" {text} "


def _near(text: str, phrase: str, window: int = NEAR_WINDOW) -> bool:
    """``phrase`` as written, or all its words within ``window`` words of each other
    ("a frame of 100% recycled aluminium" holds "recycled aluminium frame").

    >>> _near("its frame is 100 recycled aluminium and light", "recycled aluminium frame")
    True
    >>> _near("recycled parts and much later a frame " + "x " * 10 + "aluminium", "recycled aluminium frame")
    False
    """
    if _contains(text, phrase):
        return True
    words = phrase.split()
    if len(words) < 2 or any(f" {w} " not in f" {text} " for w in words):
        return False
    tokens = text.split()
    # in the phrase's order, so that among equally rare words the pivot is always the same one:
    # over a set it followed the hash seed, and so did the answer
    where = {w: [i for i, t in enumerate(tokens) if t == w] for w in dict.fromkeys(words)}
    rarest = min(where, key=lambda w: len(where[w]))
    return any(all(any(abs(j - i) < window for j in where[w]) for w in where if w != rarest) for i in where[rarest])


class _Runs:
    """Which runs of words some text holds (as whole words), each run looked up once.

    ``corpus``: look runs up through its word index instead of searching all of ``texts``."""

    def __init__(self, texts: list[str], corpus: FoldedCorpus | None = None) -> None:
        self._corpus = corpus
        # one string to search: a run of words holds no newline, so a match never spans two texts
        self._haystack = "" if corpus is not None else "\n".join(f" {t} " for t in texts)
        self._known: dict[tuple[str, ...], bool] = {}
        self.lookups = 0  # runs asked about, known or not (the work of a question)

    def held(self, run: list[str]) -> bool:
        self.lookups += 1
        key = tuple(run)
        if key not in self._known:
            joined = " ".join(run)
            self._known[key] = (
                self._corpus.holds_run(joined) if self._corpus is not None else f" {joined} " in self._haystack
            )
        return self._known[key]


def _expand(words: list[str], phrase: str, texts: list[str], runs: _Runs | None = None) -> str:
    """The longest run of the question's words around ``phrase`` that the text still contains.

    Extraction often keeps only part of a phrase ("bamboo" of "bamboo-fibre casing"); the
    question's own wording, when the text holds it, is the sharper anchor. Runs may not start
    or end on a function word.

    >>> _expand("which kettles have a bamboo fibre casing".split(), "bamboo",
    ...         ["its bamboo fibre casing stays cool", "bamboo handle"])
    'bamboo fibre casing'
    """
    target = phrase.split()
    n = len(target)
    starts = [i for i in range(len(words) - n + 1) if words[i : i + n] == target]
    if not starts:
        return phrase
    runs = runs or _Runs(texts)
    # A text holding a run holds each shorter run inside it, so once a run is missing every run
    # around it is too: the loops stop there instead of trying every (start, end) pair, which made
    # a long question cubic. The runs tried, and their order, are otherwise those of the full scan.
    best, best_len = phrase, n
    for i in starts:
        for a in range(i, -1, -1):
            if not runs.held(words[a : i + n]):
                break
            for b in range(i + n, len(words) + 1):
                run = words[a:b]
                if not runs.held(run):
                    break
                if len(run) <= best_len or run[0] in _STOP or run[-1] in _STOP:
                    continue
                best, best_len = " ".join(run), len(run)
    return best


def _singulars(folded: str) -> set[str]:
    return {singular([w])[0] for w in folded.split()}


def _runs_of(folded_question: str, unread: Iterable[str]) -> list[str]:
    """The unread phrases, with unread words the question says side by side joined into one
    ("brand", "new" → "brand new"), longest first.

    >>> _runs_of("how many bikes are sold as brand new", ["brand", "new"])
    ['brand new', 'brand', 'new']
    >>> _runs_of("which have never been ridden", ["never", "ridden"])[0]
    'never been ridden'
    """
    phrases = [fold(u) for u in unread if fold(u)]
    words = {w for p in phrases for w in p.split()}
    glue = _STOP | general_words("function_words")
    runs: list[str] = []
    current: list[str] = []
    for w in [*folded_question.split(), ""]:
        if w in words or (current and w in glue):  # "never been ridden": a function word inside
            current.append(w)
            continue
        while current and current[-1] not in words:
            current.pop()
        if len(current) > 1:
            runs.append(" ".join(current))
        current = []
    return sorted(dict.fromkeys([*runs, *phrases]), key=lambda p: -len(p.split()))


def _said_in_text(unread: Iterable[str], corpus: FoldedCorpus, generic: frozenset[str]) -> str | None:
    """The first unread phrase some page holds, as written or with its last word singular (the
    pages say "hardtail" where the question asks for "hardtails"), trimmed of function words at
    either end; None when no page holds one.

    >>> corpus = FoldedCorpus({"c1": ("a light hardtail with a steel frame", ("A",)), "c2": ("never been ridden", ("B",))})
    >>> _said_in_text(["hardtails"], corpus, frozenset()), _said_in_text(["never been ridden"], corpus, frozenset())
    ('hardtail', 'never been ridden')
    >>> _said_in_text(["titanium"], corpus, frozenset()) is None
    True
    """
    for phrase in unread:
        words = fold(phrase).split()
        while words and (words[0] in _STOP or words[0] in generic):
            words = words[1:]
        while words and (words[-1] in _STOP or words[-1] in generic):
            words = words[:-1]
        if not words:
            continue
        for form in dict.fromkeys([" ".join(words), " ".join(singular(words))]):
            if any(_near(corpus[c][0], form) for c in corpus.holding(form.split())):
                return form
    return None


def _clause_of(folded_question: str, unread: Iterable[str], scope_words: frozenset[str] = frozenset()) -> str | None:
    """The question's words from a few before the first unread word to the last one, its
    negations left out (the polarity is read apart; an embedding hardly tells "not" apart).

    >>> _clause_of("which 3 seat sofas under sr 3000 also come in other colours", ["colours"])
    'in other colours'
    >>> _clause_of("which products can t be ordered on the website", ["ordered", "website"])
    'be ordered on the website'
    >>> _clause_of("which pieces can be stacked", ["stacked"]), _clause_of("which phones", ["nfc"])
    ('can be stacked', None)
    >>> _clause_of("which cross country bikes are hardtails", ["hardtails"])
    'are hardtails'
    """
    marks = {w for u in unread for w in fold(u).split()}
    # fold() splits "can't" into "can t": a negation may be two folded words
    negations = {fold(w) for w in negation_words()}
    words: list[str] = []
    raw = folded_question.split()
    i = 0
    while i < len(raw):
        pair = " ".join(raw[i : i + 2])
        if pair in negations and not set(raw[i : i + 2]) & marks:
            i += 2
        elif raw[i] in negations and raw[i] not in marks:
            i += 1
        else:
            words.append(raw[i])
            i += 1
    at = [i for i, w in enumerate(words) if w in marks]
    if not at:
        return None
    # back over the function words that belong to it ("can be", "in other"), never to the
    # question's first word (the "which", "is" or "how" that asks)
    start, glue = at[0], general_words("function_words")
    while start > 1 and at[0] - start < LEAD_WORDS and words[start - 1] in glue:
        start -= 1
    # the scope ("armchairs", "products") is read apart, and would pull sentences about it
    kept = [w for w in words[start : at[-1] + 1] if w in marks or singular([w])[0] not in scope_words]
    return " ".join(kept) or None


def _stated(
    question: str,
    unread: Iterable[str],
    statements: StatementIndex,
    scope_words: frozenset[str],
    trace: list[str],
) -> StatementMatch | None:
    """The pages' sentences that say the unread clause (None when none comes near), traced."""
    clause = _clause_of(fold(question), unread, scope_words)
    match = statements.match(clause, negated=negated(question)) if clause is not None else None
    if match is None or not match.said:
        return None
    said = "; ".join(
        f"{s.sentence[:60]!r} ({'says it' if s.polarity else 'says not'}, {len(s.products)}, {s.similarity:.2f})"
        for s in match.said[:6]
    )
    more = f" and {len(match.said) - 6} more" if len(match.said) > 6 else ""
    trace.append(f"the pages state {match.clause!r} in {len(match.said)} wording(s): {said}{more}")
    if match.left:
        trace.append(f"{match.left} more sentence(s) sharing a word with it were not read")
    return match


def _answer_by_statements(match: StatementMatch, in_scope: Callable[[str], bool], out: Reading) -> bool:
    """The products whose pages state the clause with the asked polarity; False when none in scope."""
    products = [p for p in match.products if in_scope(p)]
    if not products:
        out.trace.append(f"no page in scope states it {'negated' if match.negated else 'as asked'}")
        return False
    out.products = sorted(products)
    out.phrase = match.clause
    out.confidence = ANCHORED if match.best >= STATED else MEASURE_ANCHOR
    out.trace.append(f"anchored on {match.clause!r}: {len(products)} products whose pages state it")
    return True


def _amend_by_statements(
    hits: dict[str, float],
    phrase: str,
    asked_negated: bool,
    statements: StatementIndex,
    match: StatementMatch | None,
    in_scope: Callable[[str], bool],
    gainsaid: list[str],
) -> str:
    """The pages holding ``phrase`` as written, kept by what they say of it (those only denying it
    dropped; for a negated question, only those denying it kept), with the pages saying it in
    other words (``match``) added."""
    said = statements.polarities(phrase)
    before = len(hits)
    for p in list(hits):
        kept = False in said.get(p, ()) if asked_negated else said.get(p) != {False}
        if not kept:
            del hits[p]
            gainsaid.append(p)
    dropped = before - len(hits)
    added = [p for p in (match.products if match is not None else ()) if in_scope(p) and p not in hits]
    for p in added:
        hits[p] = 0.0
    return (
        f"read for polarity: {dropped} page(s) holding {phrase!r} {'affirm' if asked_negated else 'deny'} it;"
        f" {len(added)} more state it in other words"
    )


def read_products(
    question: str,
    voted: Retrieval,
    exhaustive: Retrieval,
    *,
    chunk_count: Callable[[str], int] | None = None,
    total_chunks: int | None = None,
    corpus: Mapping[str, tuple[str, tuple[str, ...]]] | None = None,
    names: Iterable[str] | None = None,
    unread: Iterable[str] = (),
    words_alone: bool = False,
    statements: StatementIndex | None = None,
) -> Reading:
    """Products the retrieved text supports for ``question`` (see the module docstring).

    ``corpus``: every chunk as ``chunk_id → (folded text, products)`` (:func:`fold_corpus`);
    with it the anchor phrase is looked up in all the text, not only in what retrieval found,
    so a product whose page says it but ranked low is not lost (a :class:`FoldedCorpus` looks
    the phrase's words up in its word index; a plain mapping is scanned whole).
    ``names``: every product name; entity names found inside product names scope the answer.
    ``unread``: the phrases the specs could not read. The text is asked for those: an entity
    naming one of their words anchors before one that does not (the specs already read the
    rest), and with no such entity, when ``words_alone`` (the specs read no condition beyond the
    scope, so these phrases are the condition), a phrase the pages hold as written (or in the
    singular) anchors itself ("hardtails", "never been ridden").
    ``statements``: the pages' sentences (:class:`~dualgraph.tkg.statements.StatementIndex`);
    with it, and the same conditions, the unread clause is also looked for by meaning among what
    the pages state ("anchored to the wall" in "must be fixed to the wall"), and the pages holding
    a phrase as written are read for its polarity ("so it is not a hardtail" holds "hardtail"):
    the answer is the pages that say it as the question asks, affirmed or negated.
    """
    out = Reading()
    ranked: dict[str, float] = {}
    for c in [*voted.candidates, *exhaustive.candidates]:
        for p in c.chunk.products:
            ranked[p] = max(ranked.get(p, 0.0), c.score)
    out.candidates = sorted(ranked, key=lambda p: (-ranked[p], p))

    generic = _GENERIC | current().category_words
    named = [
        e
        for e in exhaustive.entities
        # a name of grammar and bare numbers alone ("in 1", "of 2") says no fact
        if e.lexical is not None
        and fold(e.name)
        and not {w for w in fold(e.name).split() if not w.isdigit()} <= generic
    ]
    if chunk_count is not None and total_chunks:
        hubs = [e for e in named if chunk_count(e.entity_id) > HUB_SHARE * total_chunks]
        if hubs:
            out.trace.append("too common to anchor: " + ", ".join(e.name for e in hubs))
        named = [e for e in named if e not in hubs]
    # A name that is part of product names ("Samsung", "Pixel") says which products, not what
    # they must have: it scopes the answer instead of anchoring it.
    folded_names = {p: fold(p) for p in (names or ())}
    # ... unless it is what the specs could not read: then it is the condition ("brand new" is in a
    # few listing titles and on the pages of every new bike)
    asked = {w for u in unread for w in _singulars(fold(u))}
    scope = sorted(
        {
            fold(e.name)
            for e in named
            if any(_contains(n, fold(e.name)) for n in folded_names.values())
            and not (asked and _singulars(fold(e.name)) <= asked)
        }
    )
    named = [e for e in named if fold(e.name) not in scope]
    if scope:
        out.trace.append("scope from product names: " + ", ".join(repr(x) for x in scope))

    # several scope terms: all of them when some product holds all ("Galaxy" + "Ultra"), else any of
    # the most specific ones ("Nova or Orbit phones", "is the A cheaper than the B")
    every = any(all(_contains(n, x) for x in scope) for n in folded_names.values())
    widest = [x for x in scope if not any(x != y and _contains(y, x) for y in scope)]

    def in_scope(product: str) -> bool:
        name = folded_names.get(product) or fold(product)
        if every or not scope:
            return all(_contains(name, x) for x in scope)
        return any(_contains(name, x) for x in widest)

    focus = {w for u in unread for w in _singulars(fold(u)) if w not in _STOP and w not in generic}
    direct: str | None = None
    stated: StatementMatch | None = None
    if focus:
        own = [e for e in named if _singulars(fold(e.name)) & focus]
        if own:
            named = own
        elif words_alone and isinstance(corpus, FoldedCorpus):
            scope_words = frozenset(singular([w])[0] for w in general_words("product_nouns") | current().category_words)
            stated = _stated(question, unread, statements, scope_words, out.trace) if statements is not None else None
            direct = _said_in_text(_runs_of(fold(question), unread), corpus, generic)
            if stated is not None and direct is None and _answer_by_statements(stated, in_scope, out):
                return out
            if direct is not None:
                named = []
                out.trace.append(f"no entity reads what the specs left unread: the pages' own words {direct!r}")
    if named or direct is not None:
        fq = fold(question)
        # a phrase beats a bare measurement (a bound is the specs' business); the longest name is
        # the most specific; among equals, one said as written beats scattered words, then the rarer
        pool = (
            corpus
            if corpus is not None
            else {c.chunk_id: (fold(c.chunk.text), c.chunk.products) for c in exhaustive.candidates}
        )
        score = {c.chunk_id: c.score for c in [*voted.candidates, *exhaustive.candidates]}
        indexed = pool if isinstance(pool, FoldedCorpus) else None
        texts = [] if indexed is not None else [t for t, _ in pool.values()]
        if direct is not None:
            phrase = direct
        else:
            key = max(
                named,
                key=lambda e: (
                    not _is_measure(fold(e.name)),
                    len(fold(e.name).split()),
                    _contains(fq, fold(e.name)),
                    -(chunk_count(e.entity_id) if chunk_count else 0),
                ),
            )
            phrase = _expand(fq.split(), fold(key.name), texts, _Runs(texts, indexed))
            if phrase != fold(key.name):
                out.trace.append(f"anchor {key.name!r} widened to the question's words {phrase!r}, found in the text")
        hits: dict[str, float] = {}
        # _near needs every word of the phrase in the text: only the chunks holding them all are read
        reread = indexed.holding(phrase.split()) if indexed is not None else list(pool)
        for cid in reread:
            text, products = pool[cid]
            if _near(text, phrase):
                for p in products:
                    if in_scope(p):
                        hits[p] = max(hits.get(p, 0.0), score.get(cid, 0.0))
        if direct is not None and statements is not None:
            out.trace.append(
                _amend_by_statements(hits, phrase, negated(question), statements, stated, in_scope, out.gainsaid)
            )
        out.phrase = phrase
        out.products = sorted(hits, key=lambda p: (-hits[p], p))
        # no page in scope says it, and some say the opposite: that is what the text states, not silence
        out.confidence = ANCHORED if out.products or out.gainsaid else 0.2
        if out.gainsaid and not out.products:
            out.trace.append(f"every page in scope that holds {phrase!r} says the opposite ({len(out.gainsaid)})")
        if len(phrase.split()) == 1 and folded_names and len(hits) > COMMON_SHARE * len(folded_names):
            # one word that most pages use ("screen", "battery") distinguishes nothing
            out.confidence = MEASURE_ANCHOR
            out.trace.append(f"{phrase!r} is on {len(hits)} of {len(folded_names)} products' pages: a weak anchor")
        if out.products and _is_measure(phrase):
            # "7000 mAh" in a text is one value, while the question means a bound: a weak anchor
            out.confidence = MEASURE_ANCHOR
            out.trace.append("the anchor is a measurement: a weak anchor for a numeric condition")
        out.trace.append(f"anchored on {phrase!r}: {len(out.products)} products whose text contains it")
        return out
    if scope and folded_names:
        out.products = sorted((p for p in folded_names if in_scope(p)), key=lambda p: (-ranked.get(p, 0.0), p))
        out.confidence = SCOPE_ONLY
        out.trace.append(
            f"no phrase beyond product names: every product whose name holds the scope ({len(out.products)})"
        )
        return out
    guess: list[str] = []
    for c in voted.chunks[:GUESS_CHUNKS]:
        guess += [p for p in c.chunk.products if p not in guess and in_scope(p)]
    out.products = guess
    out.confidence = 0.3 if guess else 0.0
    out.trace.append(f"no catalog phrase in the question: products of the top {GUESS_CHUNKS} voted chunks (a guess)")
    # the products of the voted chunks past the top few: the guess could have named them as well
    left = {p for c in voted.candidates for p in c.chunk.products if p not in guess and in_scope(p)}
    if guess and left:
        what = f"{len(left)} more product(s) in lower voted chunks not read into the guess"
        out.caps.append(TEXT_GUESS_CHUNKS.hit(GUESS_CHUNKS, what, lowered=True))
        out.confidence = round(out.confidence * CAP_FACTOR, 3)
        out.trace.append(f"{what}: confidence × {CAP_FACTOR}")
    return out
