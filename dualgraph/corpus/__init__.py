"""The catalog model and its readers (SpecsQA dataset dirs, shop HTML, tables).

``import_table``, ``load_mapping`` and ``import_scrape`` are loaded on first use, so
importing this package does not pull in pydantic, YAML, BeautifulSoup or tqdm.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from dualgraph.corpus.model import Document, Quarantine, Variant
from dualgraph.corpus.report import ImportReport
from dualgraph.corpus.specsqa import read_document, write_dataset

if TYPE_CHECKING:
    from dualgraph.corpus.mapping import load_mapping
    from dualgraph.corpus.shop_html import import_scrape
    from dualgraph.corpus.tabular import import_table

__all__ = [
    "Document",
    "ImportReport",
    "Quarantine",
    "Variant",
    "import_scrape",
    "import_table",
    "load_mapping",
    "read_document",
    "write_dataset",
]

_LAZY = {
    "import_table": "dualgraph.corpus.tabular",
    "load_mapping": "dualgraph.corpus.mapping",
    "import_scrape": "dualgraph.corpus.shop_html",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
