"""One currency table for the whole project: ISO 4217 codes, symbols and English names.

Built once (lazily) from CLDR through ``babel``: the currencies legal tender in some territory
today, their symbols in CLDR's English locales ("$", "£", "₹", "US$", "A$", "kr"), their English
names in singular and plural ("Saudi riyal", "Saudi riyals", "euros") and each name's head noun
("riyals", "rupees", "dollars"). :file:`currency_words.yaml` adds the few spellings CLDR lacks
(slang such as "quid" and "bucks", shop abbreviations such as "Rs." and "SR"), each with a reason.

A spelling may name several currencies: "$" is the US, Canadian, Australian … dollar, "kr" the
Swedish or Norwegian krone, "riyals" the Saudi or Qatari riyal. Such a spelling names a currency
only with a hint, the catalog's own price currencies (:func:`hinted`; the compiler sets them from
the index, a table import from its mapping), or through a default in the data file ("$" is USD,
"pounds" GBP, "rupees" INR: the readings before this table). A head noun alone ("real", "mark",
"rand", "won" are English words too) never names a currency without a hint or a default.

>>> lookup("SAR"), lookup("Saudi riyals"), lookup("€"), lookup("quid"), lookup("$")
('SAR', 'SAR', 'EUR', 'GBP', 'USD')
>>> lookup("riyals") is None, lookup("kr") is None, lookup("real") is None
(True, True, True)
>>> with hinted(["SAR"]):
...     lookup("riyals"), lookup("SR"), lookup("sar")
('SAR', 'SAR', 'SAR')
>>> lookup("$", hint=["CAD"]), lookup("kr", hint=["SEK"])
('CAD', 'SEK')
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType

import yaml

__all__ = ["CurrencyTable", "hint", "hinted", "lookup", "prices_nothing", "table"]

_HINT: ContextVar[frozenset[str]] = ContextVar("currency_hint", default=frozenset())
# inside hinted(): whether the catalog prices anything at all; None outside (nothing known)
_PRICED: ContextVar[bool | None] = ContextVar("catalog_priced", default=None)


@dataclass(frozen=True)
class CurrencyTable:
    codes: frozenset[str]  # ISO 4217 codes in current use
    symbolic: frozenset[str]  # codes CLDR's 'en' gives a symbol of their own ("$", "€"): safe in lower case
    symbols: frozenset[str]  # casefolded signs and abbreviations written before amounts ("$", "rs.", "sr")
    names: Mapping[str, frozenset[str]]  # casefolded full name or symbol -> codes ("saudi riyals", "€")
    heads: Mapping[str, frozenset[str]]  # casefolded head noun -> codes ("riyals", "dollar")
    defaults: Mapping[str, str]  # casefolded ambiguous spelling -> its code when no hint decides

    def candidates(self, text: str) -> frozenset[str]:
        """Every currency ``text`` may name (several for "$"), with no hint applied."""
        t = text.strip()
        key = t.casefold()
        if t.upper() in self.codes and (t.isupper() or t.upper() in self.symbolic):
            return frozenset({t.upper()})
        return self.names.get(key) or self.heads.get(key) or frozenset()

    def spellings(self) -> list[str]:
        """Every spelling (codes, symbols, names, head nouns), longest first."""
        return sorted({*self.codes, *self.names, *self.heads}, key=lambda s: (-len(s), s))


def _one_word(text: str) -> bool:
    return bool(re.fullmatch(r"[^\W\d_]", text))


@functools.cache
def table() -> CurrencyTable:
    """The table, built on first use (babel is imported here, not at module import).

    Building it walks CLDR's locale data (~0.5 CPU-s), which every process that reads a price or a
    question paid again (each engine, each budget worker): the built table is kept as JSON in the
    user's cache folder (:func:`_cache_file`, keyed by the babel version and the sources the table
    is built from), and read back from there (a few ms) while the key holds."""
    path = _cache_file()
    cached = _read_cached(path) if path is not None else None
    if cached is not None:
        return cached
    built = _build()
    if path is not None:
        _write_cached(path, built)
    return built


_CACHE_FORMAT = 1  # bump when what is written changes shape


def _cache_file() -> Path | None:
    """``$XDG_CACHE_HOME/dualgraph/currencies/table-KEY.json`` (``~/.cache``), KEY a hash of the
    babel version, this module's source and ``currency_words.yaml``: a change to any gives a new
    file. None where the sources cannot be read (then the table is built each time, as before)."""
    try:
        import babel

        here = resources.files("dualgraph.skg")
        key = hashlib.sha256()
        for part in (
            str(_CACHE_FORMAT).encode(),
            str(babel.__version__).encode(),
            here.joinpath("currencies.py").read_bytes(),
            here.joinpath("currency_words.yaml").read_bytes(),
        ):
            key.update(part + b"\0")
    except (ImportError, OSError):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dualgraph" / "currencies" / f"table-{key.hexdigest()[:16]}.json"


def _read_cached(path: Path) -> CurrencyTable | None:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return CurrencyTable(
            frozenset(raw["codes"]),
            frozenset(raw["symbolic"]),
            frozenset(raw["symbols"]),
            MappingProxyType({k: frozenset(v) for k, v in raw["names"].items()}),
            MappingProxyType({k: frozenset(v) for k, v in raw["heads"].items()}),
            MappingProxyType(dict(raw["defaults"])),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # absent, or unreadable: built afresh


def _write_cached(path: Path, t: CurrencyTable) -> None:
    data = {
        "codes": sorted(t.codes),
        "symbolic": sorted(t.symbolic),
        "symbols": sorted(t.symbols),
        "names": {k: sorted(v) for k, v in t.names.items()},
        "heads": {k: sorted(v) for k, v in t.heads.items()},
        "defaults": dict(t.defaults),
    }
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)  # whole or absent: a reader never sees half a file
    except OSError:  # a read-only home: the next process builds it again
        with contextlib.suppress(OSError):
            tmp.unlink()


def _build() -> CurrencyTable:
    from babel import Locale, localedata
    from babel.languages import get_official_languages
    from babel.numbers import get_currency_name, get_territory_currencies

    en = Locale("en")
    regions = [t for t in en.territories if isinstance(t, str) and len(t) == 2 and t.isalpha()]
    home = {t: get_territory_currencies(t) for t in regions}
    codes = {c for cs in home.values() for c in cs}
    names: dict[str, set[str]] = {}
    heads: dict[str, set[str]] = {}
    symbolic = set()
    symbols = set()
    known = set(localedata.locale_identifiers())
    english = [(x, None) for x in sorted(known) if x == "en" or x.startswith("en_")]
    # a currency's symbol where it is spent ("zł" in pl_PL, "kr" in sv_SE): shops print prices so
    native = [(f"{lang}_{t}", set(cs)) for t, cs in home.items() for lang in get_official_languages(t)]
    for loc, only in english + [(x, cs) for x, cs in native if x in known]:
        for code, sym in Locale.parse(loc).currency_symbols.items():
            sym = sym.strip("\u200e\u200f")  # bidi marks around Arabic symbols
            # a one-letter symbol ("R", "K", "L") is a letter in model names and units ("8K", "5 L")
            if code in codes and (only is None or code in only) and sym != code and not _one_word(sym):
                names.setdefault(sym.casefold(), set()).add(code)
                symbols.add(sym.casefold())
                if loc == "en":
                    symbolic.add(code)
    for code in codes:
        for count in (1, 2):
            name = get_currency_name(code, count=count, locale="en").casefold()
            if name.upper() == code:
                continue
            names.setdefault(name, set()).add(code)
            head = name.rsplit(" ", 1)[-1]
            if head != name:
                heads.setdefault(head, set()).add(code)
    raw = yaml.safe_load(resources.files("dualgraph.skg").joinpath("currency_words.yaml").read_text("utf-8"))
    for word, entry in raw["words"].items():
        names.setdefault(str(word).casefold(), set()).update(entry["codes"])
        if not str(word).islower():  # "Rs", "SR", "S$" are signs; "quid", "bucks" words
            symbols.add(str(word).casefold())
    defaults = {str(w).casefold(): e["code"] for w, e in raw["defaults"].items()}
    return CurrencyTable(
        frozenset(codes),
        frozenset(symbolic),
        frozenset(symbols),
        MappingProxyType({k: frozenset(v) for k, v in names.items()}),
        MappingProxyType({k: frozenset(v) for k, v in heads.items() if k not in names}),
        MappingProxyType(defaults),
    )


def hint() -> frozenset[str]:
    """The catalog's price currencies set by :func:`hinted` (empty outside it)."""
    return _HINT.get()


def prices_nothing() -> bool:
    """Whether the catalog read inside :func:`hinted` prices none of its products (False outside it).

    >>> prices_nothing()
    False
    >>> with hinted([]):
    ...     prices_nothing()
    True
    >>> with hinted(["GBP"]):
    ...     prices_nothing()
    False
    """
    return _PRICED.get() is False


@contextmanager
def hinted(codes: Iterable[str]) -> Iterator[None]:
    """Within the block, ambiguous spellings read as the catalog's own currencies ``codes`` (none:
    the catalog prices nothing, see :func:`prices_nothing`)."""
    own = frozenset(c.upper() for c in codes if c)
    token, priced = _HINT.set(own), _PRICED.set(bool(own))
    try:
        yield
    finally:
        _PRICED.reset(priced)
        _HINT.reset(token)


@functools.lru_cache(maxsize=4096)
def _lookup(text: str, hint_: frozenset[str]) -> str | None:
    t = table()
    key = text.strip().casefold()
    if text.strip().upper() in hint_:
        return text.strip().upper()  # the catalog's own code, in any case ("under 500 sar")
    cands = t.candidates(text)
    if len(cands) == 1 and key not in t.heads:
        return next(iter(cands))
    mine = cands & hint_
    if len(mine) == 1:
        return next(iter(mine))
    return t.defaults.get(key)


def lookup(text: str, *, hint: Iterable[str] | None = None) -> str | None:
    """The ISO code ``text`` names ("SAR", "riyals", "€", "quid"), or ``None``: not money, or
    ambiguous ("$", "kr", "riyals") with no hint and no default. ``hint``: the catalog's price
    currencies (default: those :func:`hinted` set)."""
    return _lookup(text, frozenset(c.upper() for c in hint) if hint is not None else _HINT.get())
