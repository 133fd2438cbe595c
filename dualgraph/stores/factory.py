"""Open a store backend by the name its configuration gives (:mod:`dualgraph.stores.registry`).

This knows nothing of index directories or markets: the caller says where an embedded
store's files are (:func:`dualgraph.pipeline.index_store.open_store` does, for an index).
"""

from __future__ import annotations

from pathlib import Path

from dualgraph.stores.base import SparqlStore, StoreError
from dualgraph.stores.config import StoreConfig
from dualgraph.stores.registry import store_opener


def open_backend(
    config: StoreConfig,
    path: str | Path,
    *,
    read_only: bool = False,
    in_memory: bool = False,
) -> SparqlStore:
    """The store of the backend ``config.kind`` names; an embedded one keeps its files in ``path``.

    With ``in_memory`` (read-only only), an embedded Oxigraph store is copied into memory and
    the files are let go (:meth:`~dualgraph.stores.oxigraph.OxigraphStore.copy_to_memory`);
    any other store is used as it is.

    >>> import tempfile
    >>> with open_backend(StoreConfig(), tempfile.mkdtemp()) as s:
    ...     type(s).__name__, s.capabilities.bulk_load_files
    ('OxigraphStore', True)
    """
    if in_memory and not read_only:
        raise StoreError("only a read-only store can be copied into memory (an index run writes to the files)")
    store = store_opener(config.kind)(config, path=Path(path), read_only=read_only)
    if in_memory:
        from dualgraph.stores.oxigraph import OxigraphStore

        if isinstance(store, OxigraphStore):
            disk = store
            try:
                store = disk.copy_to_memory()
            finally:
                disk.close()
    return store
