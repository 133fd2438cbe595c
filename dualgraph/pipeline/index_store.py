"""The store of an index directory: which backend it was built with, where its files are, and a
market's view of it.

The index directory remembers its store (``store.json``); the stores themselves
(:mod:`dualgraph.stores.factory`) take a path and a configuration and know nothing of index
layouts or markets, which are settled here.
"""

from __future__ import annotations

import json
from pathlib import Path

from dualgraph.corpus.markets import MarketError, check_market
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.skg import ontology as O
from dualgraph.stores.base import SparqlStore, StoreError
from dualgraph.stores.config import StoreConfig
from dualgraph.stores.factory import open_backend

STORE_FILE = "store.json"


def open_store(
    config: StoreConfig,
    index_dir: str | Path,
    *,
    read_only: bool = False,
    market: str | None = None,
    in_memory: bool = False,
    profile: str | None = None,
) -> SparqlStore:
    """The configured store of the index in ``index_dir``: the embedded Oxigraph inside it, or a remote one.

    The backend is the one ``config.kind`` names (:mod:`dualgraph.stores.registry`). A remote
    endpoint is opened by its server profile (:mod:`dualgraph.stores.profiles`): ``profile``
    here, else the config's ``profile`` field, else ``"generic"`` (only the URLs the config
    gives, Digest auth, no row cap), which is how endpoints were opened before profiles
    existed. Every remote store gets a circuit breaker (8 transient failures in a row, 30 s
    cool-down, unless the config says otherwise).

    With ``in_memory`` (read-only only), an embedded store is copied into memory and the
    files are let go; a remote endpoint is used as it is.

    With ``market``, reads see the shared graphs and that market's documents only
    (:func:`restrict_to_market`); an unknown market raises :class:`StoreError` naming the
    markets the index holds.

    >>> import tempfile
    >>> with open_store(StoreConfig(), tempfile.mkdtemp()) as s:
    ...     type(s).__name__, s.capabilities.bulk_load_files
    ('OxigraphStore', True)
    """
    if profile is not None:
        config = config.model_copy(update={"profile": profile})
    store = open_backend(config, IndexLayout(Path(index_dir)).store, read_only=read_only, in_memory=in_memory)
    if market is not None:
        try:
            restrict_to_market(store, check_market(market))
        except (MarketError, StoreError) as e:
            store.close()
            raise StoreError(str(e)) from e
    return store


def save_store_config(config: StoreConfig, index_dir: str | Path) -> None:
    """Remember the store (without its password) so later commands on the index find it."""
    (Path(index_dir) / STORE_FILE).write_text(config.model_dump_json(indent=1), encoding="utf-8")


def load_store_config(index_dir: str | Path) -> StoreConfig:
    """The store an index was built with; an index without ``store.json`` uses the embedded one."""
    path = Path(index_dir) / STORE_FILE
    if not path.is_file():
        return StoreConfig()
    return StoreConfig(**json.loads(path.read_text(encoding="utf-8")))


def market_dataset(store: SparqlStore, market: str) -> list[str] | None:
    """The graphs a query about ``market`` may read: the shared ones and that market's documents.

    ``None`` when no other market has documents in the store (nothing to hide, and a
    restricted dataset costs Oxigraph a lookup per listed graph for every pattern).
    """
    graphs = store.graphs()
    prefix = O.market_graphs(market)
    own = [g for g in graphs if g.startswith(prefix)]
    if not own:
        found = sorted({m for g in graphs if (m := O.market_of_graph(g)) is not None})
        raise StoreError(f"no documents of market {market!r} in this index (markets: {', '.join(found) or 'none'})")
    # shared graphs, and graphs of this market (its documents and its price summaries)
    mine = [g for g in graphs if O.market_of_graph(g) in (None, market)]
    if len(mine) == len(graphs):
        return None
    return mine


def restrict_to_market(store: SparqlStore, market: str) -> None:
    """Make every later read of ``store`` see one market only (see :func:`market_dataset`)."""
    if not store.capabilities.dataset_restriction:
        raise StoreError(f"{store!r} cannot restrict queries to one market's graphs")
    store.restrict(market_dataset(store, market))  # type: ignore[attr-defined]
