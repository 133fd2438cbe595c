"""Stable, content-derived node ids.

The same string gives the same IRI on any machine, in any processing order, with no
counters or caches. Strings are Unicode-normalised (NFKC) and case-folded, so names
that differ only in case, spacing or punctuation meet on one node; nodes whose
identity must stay exact (products, specs) carry a short hash of their exact key.
Each node kind has its own id prefix, and entries are scoped by their section.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

from dualgraph.lexicon.english import general_words
from dualgraph.skg import ontology as O
from dualgraph.skg.quantities import normalise_unit
from dualgraph.text_norm import strip_format

# Symbols that carry meaning in catalogs and would otherwise vanish from an id.
_SYMBOLS = {
    "+": " plus ",
    "&": " and ",
    "%": " pct ",
    "°": " deg ",
    '"': " in ",
    "″": " in ",
    "#": " no ",
}
_MAX_SLUG = 80


def canonical(text: str) -> str:
    """Unicode-normalised, case-folded text with whitespace collapsed.

    >>> canonical("  Galaxy\u00a0S25  ULTRA ")
    'galaxy s25 ultra'
    >>> canonical("Bat\u200btery") == canonical("Battery")
    True
    """
    # format characters first: NFKC keeps them, and they would split one name into two nodes
    text = unicodedata.normalize("NFKC", strip_format(text)).casefold()
    return " ".join(text.split())


def short_hash(*parts: str, length: int = 10) -> str:
    """A hex digest of the exact parts (joined unambiguously)."""
    # surrogatepass: a lone surrogate from a hostile input still hashes, to its own digest
    h = hashlib.sha1("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return h[:length]


@functools.lru_cache(maxsize=1 << 16)
def slug(text: str, *, keep: str = "") -> str:
    """An IRI-safe local name: canonical text, symbols spelled out, other runs as ``_``.

    Letters of any script are kept. Long slugs are cut and suffixed with a hash of the
    whole text, so they stay unique and stable.

    >>> slug("Wi-Fi 6E (802.11ax)")
    'wi_fi_6e_802_11ax'
    >>> slug("Galaxy S25+")
    'galaxy_s25_plus'
    """
    norm = canonical(text)
    out = "".join(_SYMBOLS.get(ch, ch) for ch in norm)
    out = re.sub(r"[^\w" + re.escape(keep) + r"]+", "_", out).strip("_")
    out = out.replace("__", "_") or "empty"
    if len(out) > _MAX_SLUG:
        out = out[: _MAX_SLUG - 11].rstrip("_") + "_" + short_hash(norm)
    return out


DEFAULT_SECTION = "Specifications"


def split_spec_key(key: str) -> tuple[str, str]:
    """``"Section:Entry"`` into its parts; a key without a colon falls in the default section.

    >>> split_spec_key("Display:Refresh Rate")
    ('Display', 'Refresh Rate')
    >>> split_spec_key("Price")
    ('Specifications', 'Price')
    >>> split_spec_key("Bat\u200btery:Capa\u2060city")  # invisible characters do not make a new entry
    ('Battery', 'Capacity')
    """
    key = strip_format(key)
    if ":" in key:
        section, entry = key.split(":", 1)
        section, entry = _readable(section.strip()), _readable(entry.strip())
        if section and entry:
            return section, entry
        return (section or DEFAULT_SECTION), (entry or section or _readable(key.strip()))
    return DEFAULT_SECTION, _readable(key.strip())


_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def _readable(name: str) -> str:
    """A name written as a database column in words, as a question names it, with the unit that
    ends it in brackets, where a bracket would have stood ("annual_energy_use_kwh_yr" is "Annual
    energy use (kwh/yr)", "height_in" "Height (in)"); after one word that names no measure the unit
    stays a word ("built_in", "total_megapixels"); any other name as written.

    >>> _readable("annual_energy_use_kwh_yr"), _readable("height_in"), _readable("total_megapixels")
    ('Annual energy use (kwh/yr)', 'Height (in)', 'Total megapixels')
    >>> _readable("Refresh Rate"), _readable("SKU_ID"), _readable("model_year"), _readable("built_in")
    ('Refresh Rate', 'SKU_ID', 'Model year', 'Built in')
    """
    if not _SNAKE.fullmatch(name):
        return name
    words = name.split("_")
    unit = ""
    for n in (2, 1):  # "kwh_yr" is kWh/yr before "yr" is years
        tail = "/".join(words[-n:])
        # after two words or more; after one, only a measure ("height_in", "weight_kg", while "built_in"
        # and "total_megapixels" stay words)
        lead_ok = len(words) > n + 1 or (len(words) == n + 1 and words[0] in general_words("measure_nouns"))
        if lead_ok and words[-1] not in general_words("not_column_units") and normalise_unit(tail) is not None:
            words, unit = words[:-n], f" ({tail})"
            break
    text = " ".join(words)
    return text[:1].upper() + text[1:] + unit


def category_iri(name: str) -> str:
    return O.SKG + "category-" + slug(name)


def range_iri(name: str) -> str:
    return O.SKG + "range-" + slug(name)


def product_iri(name: str, model_code: str | None = None) -> str:
    """Products keep their exact identity (name and model code) in a hash suffix."""
    key = unicodedata.normalize("NFKC", strip_format(name)).strip()
    return O.SKG + "product-" + slug(name) + "-" + short_hash(key, model_code or "", length=8)


def section_iri(section: str) -> str:
    return O.SKG + "section-" + slug(section)


def entry_iri(section: str, entry: str) -> str:
    return O.SKG + "entry-" + slug(section) + "." + slug(entry)


def value_iri(section: str, entry: str, value: str) -> str:
    """Values are shared only within their entry, so ``yes`` does not become a global hub."""
    return O.SKG + "value-" + slug(section) + "." + slug(entry) + "." + slug(value)


def spec_iri(product: str, section: str, entry: str, value: str) -> str:
    return O.SKG + "spec-" + short_hash(product, canonical(section), canonical(entry), value, length=16)


def feature_iri(name: str) -> str:
    return O.SKG + "feature-" + slug(name)
