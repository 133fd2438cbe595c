"""The store of an index directory: which backend it was built with, where its files are, and a
market's view of it.

The index directory remembers its store (``store.json``); the stores themselves
(:mod:`dualgraph.stores.factory`) take a path and a configuration and know nothing of index
layouts or markets, which are settled here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from dualgraph.corpus.markets import MarketError, check_market
from dualgraph.pipeline.generations import Lease, lease, resolve
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.skg import ontology as O
from dualgraph.stores.base import SparqlStore, StoreError
from dualgraph.stores.config import PASSWORD_ENV, PASSWORD_FILE_ENV, StoreConfig
from dualgraph.stores.factory import open_backend

STORE_FILE = "store.json"
SPARQL_URL_ENV = "DUALGRAPH_SPARQL_URL"
"""The SPARQL endpoint the user configured for the commands that read an index's store."""


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
    # the generation readers see now, held while its files are read (pipeline.generations): an
    # index run that publishes a newer one meanwhile deletes this one only once it is let go
    held = lease(index_dir)
    try:
        store = open_backend(config, IndexLayout(held.dir).store, read_only=read_only, in_memory=in_memory)
        if market is not None:
            try:
                restrict_to_market(store, check_market(market))
            except (MarketError, StoreError) as e:
                store.close()
                raise StoreError(str(e)) from e
    except BaseException:
        held.release()
        raise
    if held.held and read_only and not in_memory and config.kind == "oxigraph":
        _release_on_close(store, held)
    else:
        held.release()  # a copy in memory, a server, or a writer: nothing of the files is read later
    return store


def _release_on_close(store: SparqlStore, held: Lease) -> None:
    close = store.close

    def close_and_release() -> None:
        try:
            close()
        finally:
            held.release()

    store.close = close_and_release  # type: ignore[method-assign]


def save_store_config(config: StoreConfig, index_dir: str | Path) -> None:
    """Remember the store (without its password) so later commands on the index find it."""
    (Path(index_dir) / STORE_FILE).write_text(config.model_dump_json(indent=1), encoding="utf-8")


def load_store_config(index_dir: str | Path) -> StoreConfig:
    """The store an index was built with; an index without ``store.json`` uses the embedded one.

    ``store.json`` is data in the index, which whoever can write the index may edit: what only
    the user may decide (the password, sending it in clear) is refused there, never read."""
    path = resolve(index_dir) / STORE_FILE
    if not path.is_file():
        return StoreConfig()
    data = json.loads(path.read_text(encoding="utf-8"))
    user_only = sorted(k for k in ("password", "allow_insecure_auth") if isinstance(data, dict) and k in data)
    if user_only:
        raise StoreError(
            f"{path} holds {', '.join(user_only)}, which DualGraph never writes there: remove it "
            f"(the password comes from {PASSWORD_ENV} or {PASSWORD_FILE_ENV})"
        )
    return StoreConfig(**data)


def _same_endpoint(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a.strip().rstrip("/") == b.strip().rstrip("/")


def _origin(url: str) -> tuple[str, str | None, int | None]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.hostname, parts.port


def index_store_config(
    index_dir: str | Path,
    *,
    url: str | None = None,
    allow_insecure_auth: bool = False,
    environ: Mapping[str, str] | None = None,
) -> StoreConfig:
    """The store of the index in ``index_dir``, for reading, with the user's password only where
    the user sent it.

    A server's URL in ``store.json`` is used as the endpoint the user configured only when it is
    the one the user names: ``url`` (``--sparql-url``: used whatever ``store.json`` says), else
    ``DUALGRAPH_SPARQL_URL``, which must match it. A URL the user did not name is refused while a
    password is at hand, before any request; without a password nothing secret is sent, and the
    saved URL is used as before. The other URLs ``store.json`` holds must be on the same server.
    ``allow_insecure_auth`` is the user's flag for sending the password over plain HTTP to
    another machine (:func:`dualgraph.stores.profiles.check_auth_transport`).
    """
    env = os.environ if environ is None else environ
    config = load_store_config(index_dir)
    if config.kind == "oxigraph":
        return config
    saved = config.query_url
    configured = env.get(SPARQL_URL_ENV) or None
    where = Path(index_dir) / STORE_FILE
    if url:
        moved = saved is None or _origin(saved) != _origin(url)
        # a server named anew: the saved store's other URLs were for the old one, the profile gives its own
        config = config.model_copy(
            update={"query_url": url} | ({"update_url": None, "graph_store_url": None} if moved else {})
        )
    elif configured is not None and not _same_endpoint(saved, configured):
        raise StoreError(
            f"{where} names the endpoint {saved}, not {configured} ({SPARQL_URL_ENV}): "
            f"refused; pass --sparql-url {saved} to use it"
        )
    config = config.with_password_from_env(env)
    if config.password and not url and configured is None:
        raise StoreError(
            f"{where} names the endpoint {saved}; the store password is sent only to an endpoint you name: "
            f"pass --sparql-url {saved} or set {SPARQL_URL_ENV}"
        )
    if config.query_url:
        for other in (config.update_url, config.graph_store_url):
            if other and _origin(other) != _origin(config.query_url):
                raise StoreError(f"{where} sends requests to {other}, another server than {config.query_url}: refused")
    return config.model_copy(update={"allow_insecure_auth": allow_insecure_auth})


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
