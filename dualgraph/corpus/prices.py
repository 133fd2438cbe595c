"""Raw shop price texts to the ``Price`` spec value ``"<number> <ISO code>"``."""

from __future__ import annotations

import functools
import re

from dualgraph.skg import currencies

__all__ = ["parse_price", "plain_number"]

# loose on purpose: plain_number() checks the grouping; a space groups only before three digits ("1 295")
_NUM = r"\d+(?:(?:[.,\u00a0\u202f]|\s(?=\d{3}\b))\d+)*"


@functools.cache
def _amount_re() -> re.Pattern[str]:
    """An amount with a currency before or after it, any spelling of :mod:`dualgraph.skg.currencies`."""
    table = currencies.table()
    names = "|".join(re.escape(n) for n in table.spellings() if n not in table.codes)
    cur = rf"(?:(?<![^\W\d_])(?:{names})|\b(?:{'|'.join(sorted(table.codes))})\b)"
    return re.compile(
        rf"(?P<pre>{cur})\s?(?P<num>{_NUM})|(?P<num2>{_NUM})\s?(?P<post>{cur})(?![^\W\d_])",
        re.I,
    )


# Card texts also show savings, old prices and monthly instalments; those are not the price.
_SKIP_BEFORE = re.compile(r"(save|saving|was|rrp|off|discount|cashback|trade[- ]?in|up to)\W*$", re.I)
_SKIP_AFTER = re.compile(r"^\s*(/\s*mo|/\s*month|per month|a month|p/?m\b|x\s*\d|off\b)", re.I)


def plain_number(text: str, *, decimal_comma: bool = False) -> str | None:
    """The number's text without thousands separators, or ``None`` if the grouping is not
    a valid (Western or Indian) one, so a list such as ``"32,64"`` never becomes 3264.

    >>> plain_number("1,299.00"), plain_number("1,29,999"), plain_number("32,64")
    ('1299.00', '129999', None)
    >>> plain_number("1.299,00", decimal_comma=True)
    '1299.00'
    """
    text = text.strip()
    if decimal_comma:
        text = text.translate(str.maketrans(".,", ",."))
    whole, dot, frac = text.partition(".")
    groups = re.split(r"[,\u00a0\u202f ]", whole)
    if not all(g.isdigit() for g in groups) or (dot and not frac.isdigit()):
        return None
    if len(groups) > 1:
        tail = groups[1:]
        western = all(len(g) == 3 for g in tail)
        indian = len(tail[-1]) == 3 and all(len(g) == 2 for g in tail[:-1])
        if not 1 <= len(groups[0]) <= 3 or not (western or indian):
            return None
    return "".join(groups) + (dot + frac if dot else "")


def parse_price(text: str | None, *, default_currency: str | None = None) -> str | None:
    """A raw price text as the ``Price`` spec value ``"<number> <ISO code>"``, or ``None``.

    The amount after "Total price" wins; otherwise the first amount that is not a saving,
    an old price or a monthly instalment. A bare number needs ``default_currency``, which also
    decides an ambiguous sign ("$" is USD unless the catalog prices in CAD, "SR" is the Saudi
    riyal in a catalog priced in SAR).

    >>> parse_price("Total price:\\n£799.00"), parse_price("From £1,299"), parse_price("Save £200 Now €349")
    ('799.00 GBP', '1299 GBP', '349 EUR')
    >>> parse_price("₹1,29,999"), parse_price("8999", default_currency="INR"), parse_price("£33.29/mo")
    ('129999 INR', '8999 INR', None)
    >>> parse_price("1.299,00 €"), parse_price("Was £999 Now £899"), parse_price("$1.297,50")
    ('1299.00 EUR', '899 GBP', '1297.50 USD')
    >>> parse_price("SAR 1,295"), parse_price("1 295 SR", default_currency="SAR"), parse_price("1 295 SR")
    ('1295 SAR', '1295 SAR', None)
    """
    if not isinstance(text, str) or not text.strip():
        return None
    start = 0
    m_total = re.search(r"total\s+price", text, re.I)
    if m_total:
        start = m_total.end()
    hint = [default_currency] if default_currency else None
    for m in _amount_re().finditer(text, start):
        line_before = text[: m.start()].rsplit("\n", 1)[-1]
        if _SKIP_BEFORE.search(line_before) or _SKIP_AFTER.match(text[m.end() :]):
            continue
        # an ambiguous sign ("$", "kr", "SR") reads as the catalog's own currency when it is one of its readings
        code = currencies.lookup(m.group("pre") or m.group("post"), hint=hint)
        raw = m.group("num") or m.group("num2")
        # "€1.299,00", "$297,00": a comma before the last one or two digits is a decimal comma in any
        # currency (no grouping ends in fewer than three); dots that can only be thousands, in euros
        euro_style = bool(re.search(r",\d{1,2}$", raw)) or (
            code == "EUR" and bool(re.search(r"^\d{1,3}(\.\d{3})+$", raw))
        )
        num = plain_number(raw, decimal_comma=euro_style)
        if code and num is not None:
            return f"{num} {code}"
    if default_currency:
        num = plain_number(text.strip())
        if num is not None:
            return f"{num} {default_currency.upper()}"
    return None
