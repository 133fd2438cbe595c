"""Market codes: the country or shop a catalog snapshot belongs to (``uk``, ``de``, ``shop-2``).

A code names graphs and nodes (``graph/market/<code>/doc/…``, ``skg:market-<code>``), so it is
kept to lower-case ASCII letters, digits, ``-`` and ``_``, starting with a letter; upper case is
folded, anything else is refused with a message that says where the code came from.
"""

from __future__ import annotations

import re

from dualgraph.skg.ontology import DEFAULT_MARKET

__all__ = ["DEFAULT_MARKET", "MarketError", "check_market"]

_CODE = re.compile(r"[a-z][a-z0-9_-]{0,31}")


class MarketError(ValueError):
    """An ill-formed market code (the message names where it came from)."""


def check_market(code: str | None, *, where: str = "--market") -> str:
    """The market code in its one spelling; ``None`` or empty is the default market.

    >>> check_market("UK"), check_market(None), check_market("shop_2")
    ('uk', 'default', 'shop_2')
    >>> check_market("u k", where="file-a/file-a.json")
    Traceback (most recent call last):
    ...
    dualgraph.corpus.markets.MarketError: file-a/file-a.json: market code 'u k' is not a market code (a letter, then up to 31 of a-z 0-9 - _)
    """
    if code is None or code == "":
        return DEFAULT_MARKET
    if not isinstance(code, str):
        raise MarketError(f"{where}: market code {code!r} is not a string")
    folded = code.strip().lower()
    if not _CODE.fullmatch(folded):
        raise MarketError(
            f"{where}: market code {code!r} is not a market code (a letter, then up to 31 of a-z 0-9 - _)"
        )
    return folded
