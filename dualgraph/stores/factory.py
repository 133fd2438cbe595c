"""Open the store an index is configured for; the index directory remembers which."""

from __future__ import annotations

import json
from pathlib import Path

from dualgraph.config import StoreConfig
from dualgraph.stores.base import SparqlStore, StoreError, restrict_to_market

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
    """The configured store: the embedded Oxigraph under ``index_dir``, or a remote endpoint.

    A remote endpoint is opened by its server profile (:mod:`dualgraph.stores.profiles`):
    ``profile`` here, else the config's ``profile`` field, else ``"generic"`` (only the
    URLs the config gives, Digest auth, no row cap), which is how endpoints were opened
    before profiles existed. Every remote store gets a circuit breaker (8 transient
    failures in a row, 30 s cool-down, unless the config says otherwise).

    With ``in_memory`` (read-only only), an embedded store is copied into memory and the
    files are let go (:meth:`~dualgraph.stores.oxigraph.OxigraphStore.copy_to_memory`); a
    remote endpoint is used as it is.

    With ``market``, reads see the shared graphs and that market's documents only
    (:func:`~dualgraph.stores.base.restrict_to_market`); an unknown market raises
    :class:`StoreError` naming the markets the index holds.

    >>> import tempfile
    >>> with open_store(StoreConfig(), tempfile.mkdtemp()) as s:
    ...     type(s).__name__, s.capabilities.bulk_load_files
    ('OxigraphStore', True)
    """
    if in_memory and not read_only:
        raise StoreError("only a read-only store can be copied into memory (an index run writes to the files)")
    store = _open(config, index_dir, read_only=read_only, profile=profile)
    if in_memory:
        from dualgraph.stores.oxigraph import OxigraphStore

        if isinstance(store, OxigraphStore):
            disk = store
            try:
                store = disk.copy_to_memory()
            finally:
                disk.close()
    if market is not None:
        from dualgraph.corpus.markets import MarketError, check_market

        try:
            code = check_market(market)
            restrict_to_market(store, code)
        except (MarketError, StoreError) as e:
            store.close()
            raise StoreError(str(e)) from e
    return store


def _open(config: StoreConfig, index_dir: str | Path, *, read_only: bool, profile: str | None) -> SparqlStore:
    if config.kind == "oxigraph":
        from dualgraph.pipeline.layout import IndexLayout
        from dualgraph.stores.oxigraph import OxigraphStore

        return OxigraphStore(IndexLayout(Path(index_dir)).store, read_only=read_only)
    if not config.query_url:
        raise StoreError("store kind 'endpoint' needs query_url (--sparql-url)")
    try:
        from dualgraph.stores.circuit import CircuitBreaker
        from dualgraph.stores.profiles import open_endpoint
        from dualgraph.stores.retry import RetryPolicy
    except ModuleNotFoundError as e:
        raise StoreError(
            f"the endpoint store needs the [endpoint] extra: pip install 'dualgraph[endpoint]' ({e})"
        ) from e
    # StoreConfig may not know these fields yet (older configs): absent means the defaults
    kind = profile or config.profile or "generic"
    failures, cooldown = config.breaker_failures, config.breaker_cooldown_s
    return open_endpoint(
        kind,
        config.query_url,
        update_url=config.update_url,
        graph_store_url=config.graph_store_url,
        user=config.user,
        password=config.password,
        max_rows=config.max_rows,
        load_parallel=config.load_parallel,
        read_only=read_only,
        timeout_s=config.timeout_s,
        retry=RetryPolicy(config.retry_attempts, config.retry_backoff_s, config.retry_budget_s),
        breaker=CircuitBreaker(failures=failures, cooldown_s=cooldown),
    )


def save_store_config(config: StoreConfig, index_dir: str | Path) -> None:
    """Remember the store (without its password) so later commands on the index find it."""
    (Path(index_dir) / STORE_FILE).write_text(config.model_dump_json(indent=1), encoding="utf-8")


def load_store_config(index_dir: str | Path) -> StoreConfig:
    """The store an index was built with; an index without ``store.json`` uses the embedded one."""
    path = Path(index_dir) / STORE_FILE
    if not path.is_file():
        return StoreConfig()
    return StoreConfig(**json.loads(path.read_text(encoding="utf-8")))
