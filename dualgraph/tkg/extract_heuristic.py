"""Entity mentions from chunks with no model: products, spec terms, phrases and codes.

Choice of method, measured on 2 CPU cores with the same product, spec and filter rules
around two phrase finders: spaCy 3.8 + ``en_core_web_sm`` 3.8 (noun chunks, proper-noun
runs; ``ner`` and ``lemmatizer`` off) and the rules below. On the 83 Open Icecat
descriptions (242 chunks) spaCy ran at about 70 chunks/s, the rules at about 2,000
(~28x). On the shop-style fixtures of the unit tests spaCy found 25 of 31 wanted names,
the rules 31 (those fixtures were written alongside the rules, so read that as "no
better", not as a precise score): its tokenizer splits catalog names at digits and
hyphens ("Gorilla Glass Victus" without "2", "G connectivity", "year warranty"). It
also adds about 210 MB (spaCy, thinc, blis, model), and PyPI carries the model only as
third-party mirrors. YAKE ranks keywords by corpus statistics, which one chunk is too
short for. So no NLP library is used: this module has its own tokenizer and a POS-free
phrase chunker (runs of content words between stop words, verbs and punctuation, trimmed
of marketing adjectives), plus catalog rules that no general NLP model knows:

* product names of the chunk's page (``Chunk.products``), matched case-insensitively
  with any spacing or hyphenation ("galaxy s24ultra" is "Galaxy S24 Ultra");
* ``Entry: value`` spec lines (also Icecat's ``- **Section**: Entry: value; ...``): the
  entry, and each value that names something (not yes/no, not a bare number);
* codes and quantities written as one token with digits ("IP68", "5G", "120Hz", "S24");
* names in capitals inside a longer phrase ("Digital Crystal Clear" of "Digital Crystal
  Clear technology").

Each mention's description is the chunk's sentences that contain it (at most two
sentences, 300 characters), so nothing is invented.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dualgraph.tkg.merge import entity_key, normalise_name
from dualgraph.tkg.model import Chunk, Mention

__all__ = ["HeuristicExtractor"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


class L:
    """Word lists (lower case). Kept short and domain-tuned; extend them here."""

    STOPWORDS = _words("""a an the and or but nor so yet for of in on at to from by with without into onto
        over under up down out off about above below after before between during through until upon
        within across along around behind beyond against among via per than then as if because while
        whether when where why how what which who whom whose this that these those there here it its
        it's itself they them their theirs themselves you your yours yourself we our ours us i me my
        mine he him his she her hers one's is are was were be been being am do does did done doing has
        have had having can could will would shall should may might must not no nor very too also just
        only even still more most less least much many few several some any all each every both either
        neither other another such own same again ever always never often now once soon already almost
        quite rather really else etc thanks like unlike whatever wherever whenever however plus minus
        get gets got let lets let's way anything everything something nothing anyone everyone someone
        yes ok okay e.g i.e don't doesn't didn't isn't aren't won't can't couldn't you're we're they're
        we've you've i'm you'll we'll that's there's what's here's""")
    # Verbs that glue phrases together in shop copy; noun-like ones ("display", "charge") are left out.
    VERBS = _words("""make makes made take takes took give gives gave keep keeps kept enjoy enjoys capture
        captures see sees saw seen feel feels felt offer offers offered provide provides provided
        deliver delivers delivered bring brings brought allow allows allowed help helps helped stay
        stays come comes came go goes went gone find finds found look looks run runs ran add adds
        added treat treats spread spreads reveal reveals stretch stretches span spans equip equips
        equipped slide slides preserve preserves meet meets protect protects protected handle handles
        mean means fill fills tune tunes tuned ship ships shipped jot sketch need needs want wants
        love loves know knows say says show shows turn turns put puts start starts choose
        chooses connect connects supports include includes included boasts combine combines combined
        last lasts lasting rated powered designed engineered crafted built optimised optimized packed
        paired inspired certified tested become becomes became leave leaves
        enables enable enabled lets ensure ensures ensured discover discovers explore explores
        creates create created transform transforms upgrade unlock unlocks tickle spice
        shoots shoot shot relax think try tries tried wait waits hold holds held
        seem seems stays remain remains apply applies using featuring including offering providing
        allowing enabling presents appears appear burst bursts pushed draws extends uses lets gets got
        getting making taking giving keeping going""")
    LY_NOUNS = _words("family assembly supply monopoly butterfly italy anomaly jelly belly rally ally poly reply")
    # Evaluative adjectives trimmed from the front of a phrase: they are not part of a name.
    FLUFF = _words("""new great amazing stunning incredible impressive beautiful perfect ultimate best better
        brilliant awesome powerful favourite favorite whole rich vivid bold expansive astounding magical
        memorable various additional extra easy simple built-in integrated dedicated latest innovative
        exceptional excellent superb fantastic unique special high-quality top real true ample sleek
        stylish elegant gorgeous huge big seamless smooth crisp fast faster fastest ideal essential
        hassle-free ultra-fast next-level next-gen cutting-edge state-of-the-art world's incredibly
        slim slimmer thin lightweight solid sheer heightened fullness own much more most""")
    # Sections too generic to qualify a one-word entry ("Features: Material" is just "Material").
    GENERIC_SECTIONS = _words("features feature general details other misc miscellaneous technical certificates")
    WEAK_TAIL = _words("way ways lot lots time times day days bit thing things kind part one ones more")
    MEASURE_UNITS = _words("""mm cm m km in inch inches ft g kg mg lb lbs oz ml l cl dl s sec ms min h hr
        hrs year years month months week weeks day days x""")
    UNIT_WORDS = _words("gb tb mb kb mah wh w v hz khz mhz ghz mp k fps nits dpi ppi bit")
    # Spec values that name nothing, entries that repeat the product, page boilerplate;
    # compared by entity key, so spelling variants are covered.
    PLAIN_VALUES = frozenset(
        map(
            entity_key,
            """yes|no|none|n/a|not applicable|not supported|supported|
        included|not included|available|not available|unknown|other|true|false|y|n|optional|standard|
        all|nil|not""".split("|"),
        )
    )
    META_ENTRIES = frozenset(map(entity_key, "product name|product|products|title|name".split("|")))
    JUNK_KEYS = frozenset(
        map(
            entity_key,
            """click here|learn more|find out more|read more|see more|
        shop now|buy now|sign up|log in|terms and conditions|privacy policy|cookie policy|see details|
        view all|add to cart|add to basket|faq|page|feature|specifications|key specifications|
        image description|and more|more info|more information|t&cs|t&c""".split("|"),
        )
    )


# A word: letters/digits with inner - . / ' (5.2, Wi-Fi, 802.11ax, world's) and a trailing +.
_TOKEN = re.compile(r"[^\W_](?:[\w]|[-./'’&](?=[^\W_]))*\+*")
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"”’)\]]))\s+(?=[A-Z0-9\"“‘(\[])")
_HEADER = re.compile(r"^#{1,6}\s+")
# Inch and foot marks that Unicode counts as letters (14ʺ) would glue to numbers, and
# trademark signs would cut "Corning® Gorilla® Armor 2" into pieces.
_PRIMES = str.maketrans({"ʺ": '"', "″": '"', "ʹ": "'", "′": "'", "’": "'", "®": "", "™": "", "℠": ""})
_SPEC_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?(?P<key>[A-Za-z][^:\n]{0,60}?)(?:\*\*)?\s*:\s+(?P<value>\S.*)$")
_ICECAT_LINE = re.compile(r"^\s*[-*]\s*\*\*(?P<section>[^*]+)\*\*\s*:\s*(?P<items>.+)$")
_QUANTITY = re.compile(r"^[~≈<>]?\d[\d.,]*\s*(?:-\s*\d[\d.,]*\s*)?-?[^\W\d_]{0,6}\.?$")


@dataclass(frozen=True, slots=True)
class _Tok:
    text: str
    start: int
    end: int


def _sentences(line: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(line) if s.strip()]


def _has_digit(word: str) -> bool:
    return any(ch.isdigit() for ch in word)


def _is_code(word: str) -> bool:
    """A model number or compact quantity: letters and digits in one token ("IP68", "120Hz")."""
    return _has_digit(word) and any(ch.isalpha() for ch in word) and len(word) <= 24


def _measurement(value: str) -> bool:
    """A number with a unit of size, weight or time ("6.9mm", "232 g", "2 years")."""
    if not _QUANTITY.match(value) or re.fullmatch(r"\d+G", value):  # "5G" is a network, "5 g" a weight
        return False
    return re.sub(r"[^a-z]", "", value.lower()) in L.MEASURE_UNITS


def _keep_code(word: str) -> bool:
    """A code worth an entity: "IP68", "5G", "120Hz", "S24"; not a measurement ("6.9mm")."""
    return _is_code(word) and not _measurement(word)


def _split_at_verb(run: list[_Tok]) -> list[list[_Tok]]:
    """Split "Object Tracking Sound+ moves audio" at "moves": a lower-case -s word after a
    name and before more words is a verb far more often than a plural inside a compound."""
    for i in range(1, len(run) - 1):
        w = run[i].text
        if (
            w.islower()
            and w.endswith("s")
            and not w.endswith(("ss", "us", "is"))
            and len(w) > 3
            and _is_name_word(run[i - 1].text)
        ):
            return [run[:i]] + _split_at_verb(run[i + 1 :])
    return [run] if run else []


def _is_name_word(word: str) -> bool:
    """Capitalised, an acronym, camel-cased or a code: the words of product-feature names."""
    return word[:1].isupper() or _has_digit(word) or any(ch.isupper() for ch in word[1:])


def _product_pattern(name: str) -> re.Pattern[str] | None:
    parts = re.findall(r"[^\W\d_]+|\d+|[+]", name)
    if not parts:
        return None
    body = r"[\W_]*".join(re.escape(p) for p in parts)  # any spacing, hyphens, dots or quotes between
    return re.compile(r"(?<![\w])" + body + r"(?![\w+])", re.IGNORECASE)


class HeuristicExtractor:
    """Finds entity mentions in chunks by rules (see the module notes).

    >>> chunk = Chunk("p#1", "p", "The built-in FM radio is rated IP68. Click here for more.", products=("Radio R2",))
    >>> sorted(m.name for m in HeuristicExtractor().extract([chunk]))
    ['FM radio', 'IP68', 'Radio R2']
    """

    name = "heuristic"

    def __init__(
        self,
        *,
        max_description_chars: int = 300,
        max_sentences: int = 2,
        max_phrase_words: int = 6,
        max_values_per_entry: int = 8,
        attach_single_product: bool = True,
    ) -> None:
        self.max_description_chars = max_description_chars
        self.max_sentences = max_sentences
        self.max_phrase_words = max_phrase_words
        self.max_values_per_entry = max_values_per_entry
        # A page about one product is about that product throughout, named or not.
        self.attach_single_product = attach_single_product
        self._patterns: dict[str, re.Pattern[str] | None] = {}

    # ------------------------------------------------------------------ public API

    def extract(self, chunks: Sequence[Chunk]) -> list[Mention]:
        """Mentions of every chunk, in chunk order, one per entity key and chunk."""
        out: list[Mention] = []
        for chunk in chunks:
            out += self.extract_chunk(chunk)
        return out

    def extract_chunk(self, chunk: Chunk) -> list[Mention]:
        found: dict[str, tuple[str, list[str]]] = {}  # key -> (name, sentences)

        def add(name: str, sentence: str) -> None:
            name = normalise_name(name)
            key = entity_key(name)
            if not key or key in L.JUNK_KEYS or not any(ch.isalpha() for ch in name):
                return  # boilerplate, or a bare number ("1", "802.11")
            _, sents = found.setdefault(key, (name, []))
            if sentence and sentence not in sents:
                sents.append(sentence)

        lines = [ln.strip() for ln in chunk.text.splitlines() if ln.strip()]
        prose: list[str] = []
        # Spec entries are qualified by their ## section ("Display"), not by the page title.
        section = chunk.section.rsplit(" > ", 1)[-1].strip() if " > " in chunk.section else ""
        for line in lines:
            if line.lower().startswith("image description:"):
                prose.append(line.split(":", 1)[1])  # alt text is prose, not a spec
            elif _HEADER.match(line):
                section = _HEADER.sub("", line).strip() if line.startswith("##") else ""
                prose.append(_HEADER.sub("", line))
            elif not self._spec_line(line, section, add):
                prose.append(line)
        matched_product = self._products(chunk, lines, add)
        for line in prose:
            for sent in _sentences(line):
                masked = self._mask_products(chunk, sent)
                for phrase in self._phrases(masked):
                    add(phrase, sent)
        if self.attach_single_product and len(chunk.products) == 1 and not matched_product:
            first = next((s for ln in prose if not _HEADER.match(ln) for s in _sentences(ln)), "")
            add(chunk.products[0], first or (lines[0] if lines else ""))
        return [Mention(name, self._describe(sents), chunk.chunk_id) for name, sents in found.values()]

    # ------------------------------------------------------------------ products

    def _pattern(self, product: str) -> re.Pattern[str] | None:
        if product not in self._patterns:
            self._patterns[product] = _product_pattern(product)
        return self._patterns[product]

    def _products(self, chunk: Chunk, lines: list[str], add) -> bool:
        hit = False
        for product in chunk.products:
            pat = self._pattern(product)
            if pat is None:
                continue
            # Body sentences describe the product better than the page header does.
            ordered = [ln for ln in lines if not _HEADER.match(ln)] + [ln for ln in lines if _HEADER.match(ln)]
            sents = [s for ln in ordered for s in _sentences(_HEADER.sub("", ln)) if pat.search(s)]
            if sents:
                hit = True
                for s in sents:
                    add(product, s)
        return hit

    def _mask_products(self, chunk: Chunk, sentence: str) -> str:
        # Longest names first, so "Galaxy S24 Ultra" is not read as "Galaxy S24" + "Ultra".
        for product in sorted(chunk.products, key=len, reverse=True):
            pat = self._pattern(product)
            if pat is not None:
                sentence = pat.sub(" | ", sentence)
        return sentence

    # ------------------------------------------------------------------ spec lines

    def _spec_line(self, line: str, section: str, add) -> bool:
        """Adds the entries and values of a spec line; False when the line is prose."""
        m = _ICECAT_LINE.match(line)
        if m and ":" in m.group("items"):
            sec = m.group("section").strip()
            for item in m.group("items").split(";"):
                entry, _, value = item.partition(":")
                if value.strip():
                    self._spec_item(entry.strip(), value.strip(), sec, add)
            return True
        m = _SPEC_LINE.match(line)
        if not m:
            return False
        key, value = m.group("key").strip(), m.group("value").strip()
        if len(key.split()) > 6 or re.search(r"[.!?]", key) or len(value.split()) > 30:
            return False
        if entity_key(key) in L.META_ENTRIES:
            return True  # product name lines: products are matched on their own
        self._spec_item(key, value, section, add)
        return True

    def _spec_item(self, entry: str, value: str, section: str, add) -> None:
        entry = entry.strip("*").strip()
        if not entry:
            return
        # "Size" under "Display" is the display's size; longer entries and names ("NFC") say
        # what they are on their own.
        generic = len(entry.split()) == 1 and not _is_code(entry) and sum(ch.isupper() for ch in entry) < 2
        name = (
            f"{section} {entry}"
            if generic
            and len(section.split()) == 1
            and section.lower() not in L.GENERIC_SECTIONS
            and entity_key(section) not in entity_key(entry)
            and not section.lower().startswith("spec")
            else entry
        )
        line = f"{section} – {entry}: {value}" if section and name == entry else f"{entry}: {value}"
        add(name, line)
        # List values split at ";", ", ", a comma before a letter ("TCO,EPEAT") or " / ";
        # "1,920" stays whole.
        items = [v.strip() for v in re.split(r";\s*|,\s+|,(?=[^\W\d])|\s+/\s+", value)]
        for item in items[: self.max_values_per_entry]:
            if self._notable_value(item):
                add(item, line)

    @staticmethod
    def _notable_value(value: str) -> bool:
        key = entity_key(value)
        if not key or key in L.PLAIN_VALUES or len(value) > 40 or len(value.split()) > 5:
            return False
        first = value.split()[0]
        if not any(ch.isalpha() for ch in first) and not _QUANTITY.match(value):
            return False  # a bare number, or one with a long remark ('6.8" (172.5mm full rectangle)')
        return not _measurement(value)  # "120 Hz" yes (a feature people ask for), "172.5 mm" no

    # ------------------------------------------------------------------ phrases

    def _phrases(self, sentence: str) -> Iterable[str]:
        """Candidate names of one sentence: trimmed content-word runs, their capitalised
        cores, and code tokens."""
        sentence = sentence.translate(_PRIMES)
        toks = [_Tok(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(sentence)]
        runs: list[list[_Tok]] = []
        cur: list[_Tok] = []
        for i, tok in enumerate(toks):
            gap = sentence[toks[i - 1].end : tok.start] if i else ""
            joined = bool(cur) and gap.strip() == ""  # only spaces between: the run goes on
            if self._breaks(tok, first=(i == 0), prev=cur[-1] if cur else None):
                if cur:
                    runs.append(cur)
                cur = []
                continue
            if cur and not joined:
                runs.append(cur)
                cur = []
            if tok.text.endswith("'s") and len(tok.text) > 3:  # a possessive closes a name
                runs.append(cur + [_Tok(tok.text[:-2], tok.start, tok.end - 2)])
                cur = []
                continue
            cur.append(tok)
        if cur:
            runs.append(cur)
        for run in runs:
            for part in _split_at_verb(run):
                yield from self._from_run([t.text for t in part], sentence_start=(part[0] is toks[0]))

    @staticmethod
    def _breaks(tok: _Tok, *, first: bool, prev: _Tok | None) -> bool:
        low = tok.text.lower()
        if low in L.STOPWORDS:
            return True
        if low in L.VERBS:  # a capitalised one after a name is part of it ("Live Translate")
            return first or not (tok.text[:1].isupper() and prev is not None and _is_name_word(prev.text))
        # adverbs: "easily", "Stylishly"
        return (
            low.endswith("ly")
            and len(low) > 5
            and low not in L.LY_NOUNS
            and (tok.text.islower() or prev is None or not _is_name_word(prev.text))
        )

    def _from_run(self, words: list[str], *, sentence_start: bool) -> Iterable[str]:
        for w in words:
            if _keep_code(w):
                yield w
        # Trim marketing adjectives and bare numbers (with their unit) at the front, and
        # generic nouns at the back.
        while words and (words[0].lower() in L.FLUFF or not any(ch.isalpha() for ch in words[0])):
            if not any(ch.isalpha() for ch in words[0]) and len(words) > 1 and words[1].lower() in L.UNIT_WORDS:
                words = words[1:]
            words = words[1:]
        # A participle closing a phrase is a verb ("workloads pushed"); so is a generic tail.
        # A bare number closing a phrase belongs to it only after a name ("Victus 2").
        while words and (
            words[-1].lower() in L.WEAK_TAIL
            or (len(words) > 1 and words[-1].islower() and words[-1].endswith("ed"))
            or (len(words) > 1 and words[-1].isdigit() and not _is_name_word(words[-2]))
        ):
            words = words[:-1]
        half = len(words) // 2
        if half and len(words) % 2 == 0 and words[:half] == words[half:]:
            words = words[:half]  # a heading repeated by the page ("10-year warranty 10-year warranty")
        if not words:
            return
        if len(words) > self.max_phrase_words:
            words = words[-self.max_phrase_words :]  # English puts the head noun last
            sentence_start = False
        caps = [w for w in words if _is_name_word(w)]
        if len(words) == 1:
            w = words[0]
            if (
                _keep_code(w)
                or (sum(ch.isupper() for ch in w) >= 2 and not _is_code(w))
                or (w[:1].isupper() and not sentence_start and len(w) > 2)
            ) and w.lower() not in L.FLUFF:
                yield w
            return
        if all(w.lower() in L.FLUFF or w.isdigit() for w in words):
            return
        yield " ".join(words)
        # The capitalised core of a longer phrase is the name itself ("Digital Crystal
        # Clear" of "Digital Crystal Clear technology").
        if 1 < len(caps) < len(words):
            lead = []
            for w in words:
                if not _is_name_word(w):
                    break
                lead.append(w)
            if len(lead) >= 2 and not (sentence_start and len(lead) == 2 and not _is_code(lead[1])):
                yield " ".join(lead)

    def _describe(self, sentences: list[str]) -> str:
        out = ""
        for sent in sentences[: self.max_sentences]:
            cand = f"{out} {sent}".strip()
            if len(cand) > self.max_description_chars:
                if not out:  # one long sentence: cut at a word boundary
                    cut = cand[: self.max_description_chars - 1].rsplit(" ", 1)[0]
                    out = cut + "…"
                break
            out = cand
        return out
