"""The backends that come with DualGraph, as store openers (:mod:`dualgraph.stores.registry`).

``oxigraph`` is the embedded store in the directory it is given; ``endpoint`` is a SPARQL 1.1
server of the profile its configuration names; each server profile
(:mod:`dualgraph.stores.profiles`) is also a backend of its own name, so ``kind: virtuoso``
says as much as ``kind: endpoint`` with ``profile: virtuoso``. Every opener imports its
backend's libraries only when it runs: an install without the ``[endpoint]`` extra still
opens the embedded store.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dualgraph.stores.base import SparqlStore, StoreError
from dualgraph.stores.config import StoreConfig

# the top-level modules the [endpoint] extra installs (pyproject.toml)
_EXTRA_MODULES = {"SPARQLWrapper", "requests"}


def open_oxigraph(config: StoreConfig, *, path: Path, read_only: bool) -> SparqlStore:
    """The embedded Oxigraph store whose files are in ``path``."""
    from dualgraph.stores.oxigraph import OxigraphStore

    return OxigraphStore(path, read_only=read_only)


class EndpointOpener:
    """Opens a SPARQL 1.1 server of one profile; with ``profile=None``, of the one the config names.

    A remote store gets a circuit breaker (8 transient failures in a row, 30 s cool-down,
    unless the config says otherwise); ``path`` is not used.
    """

    def __init__(self, profile: str | None) -> None:
        self.profile = profile

    def __repr__(self) -> str:
        return f"EndpointOpener({self.profile!r})"

    def __call__(self, config: StoreConfig, *, path: Path, read_only: bool) -> SparqlStore:
        profile = self._profile(config)
        if not config.query_url:
            raise StoreError(f"store kind {config.kind!r} needs query_url (--sparql-url)")
        from dualgraph.stores.circuit import CircuitBreaker
        from dualgraph.stores.retry import RetryPolicy

        try:
            # the HTTP store is imported here, where a missing extra can be named, not at the first request
            from dualgraph.stores.endpoint import open_endpoint
        except ImportError as e:
            if (e.name or "").partition(".")[0] not in _EXTRA_MODULES:
                raise  # a fault of the installed code, not a missing extra: its traceback is wanted
            raise StoreError(
                f"store kind {config.kind!r} needs the [endpoint] extra, which is not installed "
                f"(no module {e.name or '?'}): pip install 'dualgraph[endpoint]'"
            ) from None
        return open_endpoint(
            profile,
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
            breaker=CircuitBreaker(failures=config.breaker_failures, cooldown_s=config.breaker_cooldown_s),
            allow_insecure_auth=config.allow_insecure_auth,
        )

    def _profile(self, config: StoreConfig) -> str:
        if self.profile is None:
            # configs from before profiles existed name none: only the URLs they give, Digest auth
            return config.profile or "generic"
        if config.profile is not None and config.profile != self.profile:
            raise StoreError(
                f"store kind {config.kind!r} is the {self.profile!r} server profile, "
                f"but the config names profile {config.profile!r}"
            )
        return self.profile


open_endpoint_store = EndpointOpener(None)
# One per server profile of dualgraph.stores.profiles (a test keeps the two lists equal); the
# entry points in pyproject.toml name these objects.
open_virtuoso = EndpointOpener("virtuoso")
open_oxigraph_server = EndpointOpener("oxigraph-server")
open_blazegraph = EndpointOpener("blazegraph")
open_generic = EndpointOpener("generic")

# each is a dualgraph.stores.registry.StoreOpener (which imports this module)
BUILTIN: dict[str, Callable[..., SparqlStore]] = {
    "oxigraph": open_oxigraph,
    "endpoint": open_endpoint_store,
    "virtuoso": open_virtuoso,
    "oxigraph-server": open_oxigraph_server,
    "blazegraph": open_blazegraph,
    "generic": open_generic,
}
"""The backends registered by name whether or not the package's entry points are installed."""
