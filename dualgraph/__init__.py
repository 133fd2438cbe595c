"""DualGraph: question answering over semi-structured catalogs.

One corpus is indexed into two views: a Symbolic KG (RDF from spec tables, queried
with SPARQL) and a Textual KG (entities from prose, embedded). This package holds
both, the stores behind them and the batch pipelines that build them.

The front door is :class:`DualGraph` (``from dualgraph import DualGraph``): build or open
an index, ask, explain, query, search, serve. It is imported on first use, so ``import
dualgraph`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dualgraph.api import DualGraph

__version__ = "0.1.0"
__all__ = ["DualGraph", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "DualGraph":
        from dualgraph.api import DualGraph

        return DualGraph
    raise AttributeError(f"module 'dualgraph' has no attribute {name!r}")
