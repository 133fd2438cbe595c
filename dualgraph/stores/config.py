"""Which store holds the Symbolic KG, and how it is reached: the configuration a backend opens from.

:class:`dualgraph.config.IndexConfig` holds one (and :mod:`dualgraph.config` names it too); it
lives here because the stores read it and must not import the application's configuration.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from dualgraph.stores.base import StoreError

PASSWORD_ENV = "DUALGRAPH_SPARQL_PASSWORD"
PASSWORD_FILE_ENV = "DUALGRAPH_SPARQL_PASSWORD_FILE"


class StoreConfig(BaseModel):
    """Which SPARQL store holds the Symbolic KG."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(
        "oxigraph",
        min_length=1,
        description="The store backend, by the name it is registered under (dualgraph.stores.registry): "
        "'oxigraph': the embedded on-disk store inside the index directory; "
        "'endpoint': a SPARQL 1.1 server over HTTP (Virtuoso, Blazegraph, Fuseki, GraphDB, ...) of the server "
        "profile `profile` names; a profile's own name ('virtuoso', 'oxigraph-server', 'blazegraph', 'generic'): "
        "a server of that profile; or a backend another package registers in the 'dualgraph.stores' entry points.",
    )
    query_url: str | None = Field(
        None, description="SPARQL query endpoint (kind 'endpoint'), e.g. http://127.0.0.1:8890/sparql-auth."
    )
    update_url: str | None = Field(None, description="SPARQL update endpoint; default: query_url.")
    graph_store_url: str | None = Field(
        None,
        description="SPARQL Graph Store Protocol endpoint for bulk loads (Virtuoso: /sparql-graph-crud-auth); "
        "without it loads fall back to INSERT DATA batches.",
    )
    user: str | None = Field(None, description="User for HTTP Digest auth on the endpoint.")
    password: str | None = Field(
        None,
        exclude=True,
        description="Password for the endpoint; taken from DUALGRAPH_SPARQL_PASSWORD (or the file "
        "DUALGRAPH_SPARQL_PASSWORD_FILE names) when not given, never saved.",
    )
    allow_insecure_auth: bool = Field(
        False,
        exclude=True,
        description="Send the password over plain HTTP to a host other than this machine (off: such a store "
        "is refused; use https). Never saved: a store.json cannot turn it on.",
    )
    max_rows: int | None = Field(
        None, description="The server's result row cap (Virtuoso ResultSetMaxRows), so cut results are reported."
    )
    timeout_s: float = Field(60.0, gt=0, description="Timeout of one request to the endpoint, in seconds.")
    retry_attempts: int = Field(
        4,
        ge=1,
        description="Tries per request to the endpoint when it fails transiently (refused, reset, "
        "timed out, HTTP 429/502/503/504); other errors are not retried.",
    )
    retry_backoff_s: float = Field(
        0.5, gt=0, description="Wait before the second try, in seconds; doubled for each further one, with jitter."
    )
    retry_budget_s: float = Field(
        30.0, gt=0, description="No new try starts this many seconds after the first one; then the request fails."
    )
    profile: Literal["virtuoso", "oxigraph-server", "blazegraph", "generic"] | None = Field(
        None,
        description="The kind of SPARQL server (dualgraph.stores.profiles): fills in its update, Graph Store and "
        "bulk-load URLs, auth style and row cap from query_url; None: 'generic' (only the URLs given).",
    )
    load_parallel: int | None = Field(
        None, ge=1, description="Named graphs uploaded at once by a bulk load; None: the profile's choice."
    )
    breaker_failures: int = Field(
        8,
        ge=1,
        description="Transient failures in a row after which the store reports the server down and fails fast.",
    )
    breaker_cooldown_s: float = Field(
        30.0, gt=0, description="Seconds a server reported down is left alone before one probe request."
    )

    def with_password_from_env(self, environ: Mapping[str, str] | None = None) -> StoreConfig:
        """A copy holding the password from DUALGRAPH_SPARQL_PASSWORD, else from the file
        DUALGRAPH_SPARQL_PASSWORD_FILE names (a mounted secret), when none is set.

        The one place secrets are read: they stay out of config files, argv and the index.
        """
        # every backend but the embedded one is a server that may want it
        if self.kind == "oxigraph" or self.password is not None:
            return self
        env = os.environ if environ is None else environ
        password = env.get(PASSWORD_ENV) or None
        if password is None and env.get(PASSWORD_FILE_ENV):
            path = env[PASSWORD_FILE_ENV]
            try:
                # one line, as secret mounts and editors leave it: the line break is not the password
                password = Path(path).read_text(encoding="utf-8").rstrip("\r\n") or None
            except OSError as e:
                raise StoreError(
                    f"cannot read the store password file {path} ({PASSWORD_FILE_ENV}): {e.strerror}"
                ) from e
        return self.model_copy(update={"password": password})
