"""Server profiles: what differs between the SPARQL servers DualGraph runs on in production.

A profile holds where a server kind keeps its query, update, Graph Store Protocol and
bulk load URLs (relative to the server's root), how it wants credentials, its row cap,
whether its default graph is the union of the named graphs, and a few capability flags.
:func:`dualgraph.stores.endpoint.open_endpoint` turns a profile and one query URL into a configured
:class:`~dualgraph.stores.endpoint.SparqlEndpointStore`: the other URLs are derived from
the query URL, so ``--sparql-url`` and a profile name are all a deployment needs.

>>> p = get_profile("oxigraph-server")
>>> p.urls("http://127.0.0.1:7878/query")
ServerUrls(query='http://127.0.0.1:7878/query', update='http://127.0.0.1:7878/update', graph_store='http://127.0.0.1:7878/store', bulk_load='http://127.0.0.1:7878/store')
>>> get_profile("blazegraph").urls("http://h:9999/bigdata/namespace/skg/sparql").bulk_load
'http://h:9999/bigdata/namespace/skg/sparql'
>>> get_profile("blazegraph").root_and_namespace("http://h:9999/bigdata/namespace/skg/sparql")
('http://h:9999/bigdata', 'skg')
"""

from __future__ import annotations

import ipaddress
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple
from urllib.parse import urlsplit
from xml.sax.saxutils import escape, quoteattr

from pydantic import BaseModel, ConfigDict, Field

from dualgraph.stores.base import Capabilities, StoreError

if TYPE_CHECKING:
    import requests


ServerKind = Literal["virtuoso", "oxigraph-server", "blazegraph", "generic"]
AuthStyle = Literal["none", "basic", "digest"]


def is_loopback_host(host: str | None) -> bool:
    """Whether ``host`` names this machine (``localhost``, 127.0.0.0/8, ``::1``).

    >>> [is_loopback_host(h) for h in ("localhost", "127.0.0.2", "::1", "10.0.0.1", "db.example")]
    [True, True, True, False, False]
    """
    if not host:
        return False
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name other than localhost may resolve anywhere


def check_auth_transport(urls: Iterable[str | None], *, allow_insecure: bool) -> None:
    """Refuse to send credentials over plain HTTP to another machine: Basic auth is the password
    in clear, and a Digest answer can be attacked offline. https, or a loopback URL, passes;
    ``allow_insecure`` (the user's own flag, never a saved store's) lets the rest through.

    >>> check_auth_transport(["http://127.0.0.1:8890/sparql-auth", "https://db.example/sparql"], allow_insecure=False)
    >>> check_auth_transport(["http://db.example:8890/sparql-auth"], allow_insecure=False)
    Traceback (most recent call last):
    ...
    dualgraph.stores.base.StoreError: refusing to send the store password over plain HTTP to db.example (http://db.example:8890/sparql-auth): use https, or allow_insecure_auth (--allow-insecure-auth) on a network you trust
    """
    if allow_insecure:
        return
    for url in urls:
        if not url:
            continue
        parts = urlsplit(url)
        if parts.scheme.lower() != "https" and not is_loopback_host(parts.hostname):
            raise StoreError(
                f"refusing to send the store password over plain HTTP to {parts.hostname} ({url}): use https, "
                "or allow_insecure_auth (--allow-insecure-auth) on a network you trust"
            )


class ServerUrls(NamedTuple):
    """The endpoints of one server (``None``: the server has none of that kind)."""

    query: str
    update: str
    graph_store: str | None
    bulk_load: str | None


class ServerProfile(BaseModel):
    """How one kind of SPARQL server is reached and what it can do."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ServerKind = Field(description="The server kind this profile is for.")
    query_paths: tuple[str, ...] = Field(
        description="Paths of the query endpoint under the server root, preferred first; "
        "'{namespace}' stands for a Blazegraph namespace."
    )
    update_path: str | None = Field(description="Path of the update endpoint; None: the query endpoint.")
    graph_store_path: str | None = Field(
        None, description="Path of the SPARQL 1.1 Graph Store Protocol endpoint, if the server has one."
    )
    graph_store_anonymous_path: str | None = Field(
        None, description="Graph Store path to use without credentials, where the server has a separate one."
    )
    graph_param: str = Field("graph", description="Graph Store Protocol parameter naming the target graph.")
    bulk_load_path: str | None = Field(
        None, description="Path that takes a POST of N-Quads for any graphs (a dataset loader), if any."
    )
    bulk_content_type: str = Field("application/n-quads", description="Content type of N-Quads for that loader.")
    auth: AuthStyle = Field("digest", description="How user and password are sent when they are given.")
    max_rows: int | None = Field(None, description="The server's default result row cap; None: no cap.")
    union_default_graph: bool = Field(
        True, description="Queries and update WHEREs without GRAPH see the union of the named graphs."
    )
    union_default_graph_setup: str = Field(
        "", description="What the server needs for union_default_graph to hold, for error messages and docs."
    )
    load_parallel: int = Field(1, ge=1, description="Graphs uploaded at once by bulk_load on this server.")
    namespaces: bool = Field(False, description="The server holds several datasets by name (Blazegraph).")
    default_namespace: str | None = Field(None, description="The dataset used when none is named.")

    def capabilities(self, *, read_only: bool = False) -> Capabilities:
        """The store capabilities a store on this server declares."""
        return Capabilities(
            named_graphs=True,
            bulk_load_files=self.bulk_load_path is not None or self.graph_store_path is not None,
            union_default_graph=self.union_default_graph,
            update=not read_only,
            persistent=True,
            dataset_restriction=True,
        )

    def root_and_namespace(self, query_url: str) -> tuple[str, str | None]:
        """The server root (and namespace) of a query URL, by the query paths this kind uses."""
        for path in self.query_paths:
            pattern = re.escape(path).replace(re.escape("{namespace}"), r"(?P<namespace>[^/?#]+)")
            m = re.fullmatch(rf"(?P<root>.*?){pattern}/?", query_url.split("?", 1)[0])
            if m:
                return m.group("root"), m.groupdict().get("namespace")
        wanted = ", ".join(self.query_paths)
        raise StoreError(f"{query_url} is not a {self.kind} query URL (its path should end in one of: {wanted})")

    def urls(self, query_url: str, *, authenticated: bool = False) -> ServerUrls:
        """Every endpoint of the server whose query endpoint is ``query_url``."""
        if self.kind == "generic":  # nothing known about the layout: only the URL given
            return ServerUrls(query_url, query_url, None, None)
        root, namespace = self.root_and_namespace(query_url)

        def at(path: str | None) -> str | None:
            return None if path is None else root + path.replace("{namespace}", namespace or "")

        anonymous = not authenticated and self.graph_store_anonymous_path is not None
        gsp = self.graph_store_anonymous_path if anonymous else self.graph_store_path
        return ServerUrls(query_url, at(self.update_path) or query_url, at(gsp), at(self.bulk_load_path))


PROFILES: dict[str, ServerProfile] = {
    p.kind: p
    for p in (
        ServerProfile(
            kind="virtuoso",
            # the -auth endpoints take Digest credentials; the plain ones are anonymous
            query_paths=("/sparql-auth", "/sparql"),
            update_path=None,
            graph_store_path="/sparql-graph-crud-auth",
            graph_store_anonymous_path="/sparql-graph-crud",
            auth="digest",
            max_rows=10_000,  # ResultSetMaxRows in virtuoso.ini
            union_default_graph=True,
            union_default_graph_setup="Virtuoso's default graph is the union of all graphs by default",
            load_parallel=4,
        ),
        ServerProfile(
            kind="oxigraph-server",
            query_paths=("/query",),
            update_path="/update",
            graph_store_path="/store",
            bulk_load_path="/store",  # POST of N-Quads adds to the whole dataset
            bulk_content_type="application/n-quads",
            auth="none",  # no auth of its own: put a proxy in front for that
            union_default_graph=True,
            union_default_graph_setup="start it with `oxigraph serve --union-default-graph`",
            load_parallel=4,
        ),
        ServerProfile(
            kind="blazegraph",
            query_paths=("/namespace/{namespace}/sparql",),
            update_path="/namespace/{namespace}/sparql",
            bulk_load_path="/namespace/{namespace}/sparql",  # REST API: POST with an RDF body inserts it
            bulk_content_type="text/x-nquads",
            auth="basic",  # Blazegraph has none; a reverse proxy in front usually asks Basic
            union_default_graph=True,
            union_default_graph_setup="a quads-mode namespace: its default graph is the union of the named graphs",
            # one writer at a time holds Blazegraph's unisolated connection; more only queue
            load_parallel=1,
            namespaces=True,
            default_namespace="kb",
        ),
        ServerProfile(
            kind="generic",
            query_paths=("",),
            update_path=None,
            auth="digest",
            union_default_graph=True,
            union_default_graph_setup="configure the server so its default graph is the union of the named graphs "
            "(Fuseki: tdb2:unionDefaultGraph true)",
        ),
    )
}


def get_profile(kind: str) -> ServerProfile:
    """The profile of a server kind; a :class:`StoreError` names the known ones."""
    try:
        return PROFILES[kind]
    except KeyError:
        raise StoreError(f"unknown SPARQL server profile {kind!r}; known: {', '.join(sorted(PROFILES))}") from None


BIGDATA_NAMESPACE = "http://www.bigdata.com/rdf#/features/KB/Namespace"
"""The property that names a namespace in the VoID description of ``GET /namespace``."""

QUADS_PROPERTIES = {
    "com.bigdata.rdf.store.AbstractTripleStore.quads": "true",
    # truth maintenance and RDFS axioms are triples-mode features; quads mode refuses them
    "com.bigdata.rdf.sail.truthMaintenance": "false",
    "com.bigdata.rdf.store.AbstractTripleStore.axiomsClass": "com.bigdata.rdf.axioms.NoAxioms",
    "com.bigdata.rdf.store.AbstractTripleStore.statementIdentifiers": "false",
    "com.bigdata.rdf.store.AbstractTripleStore.textIndex": "false",
}
"""Namespace properties for a quads-mode namespace (one named graph per document)."""


class BlazegraphNamespaces:
    """Create, list, inspect and delete Blazegraph namespaces through its REST API.

    ``root`` is the web application's URL, e.g. ``http://127.0.0.1:9999/bigdata``.
    """

    def __init__(
        self,
        root: str,
        *,
        user: str | None = None,
        password: str | None = None,
        timeout_s: float = 30.0,
        session: requests.Session | None = None,
        allow_insecure_auth: bool = False,
    ) -> None:
        import requests

        if user is not None and password:
            check_auth_transport([root], allow_insecure=allow_insecure_auth)
        self.root = root.rstrip("/")
        self.timeout_s = timeout_s
        self._auth = requests.auth.HTTPBasicAuth(user, password or "") if user is not None else None
        self._session = session or requests.Session()

    def list(self) -> list[str]:
        """Names of the namespaces, sorted (from the VoID description, as N-Triples)."""
        from rdflib import Graph, URIRef

        url = f"{self.root}/namespace"
        r = self._call("GET", url, params={"describe-each-named-graph": "false"}, headers={"Accept": "text/plain"})
        try:
            graph = Graph().parse(data=r.text, format="nt")
        except Exception as e:  # rdflib raises parser-specific types
            raise StoreError(f"unreadable namespace list from {url}: {e}") from e
        return sorted(str(o) for o in graph.objects(None, URIRef(BIGDATA_NAMESPACE)))

    def create(self, namespace: str, *, quads: bool = True, properties: dict[str, str] | None = None) -> None:
        """Create ``namespace`` (quads mode unless ``quads`` is false); an existing one is an error."""
        _check_name(namespace)
        props = {"com.bigdata.rdf.sail.namespace": namespace, **(QUADS_PROPERTIES if quads else {})}
        props.update(properties or {})
        body = _properties_xml(props)
        url = f"{self.root}/namespace"
        r = self._call("POST", url, data=body.encode("utf-8"), headers={"Content-Type": "application/xml"}, ok=(201,))
        if namespace not in r.text:
            raise StoreError(f"unexpected answer creating namespace {namespace!r} at {url}: {r.text[:200]}")

    def properties(self, namespace: str) -> dict[str, str]:
        """The namespace's configuration properties."""
        _check_name(namespace)
        url = f"{self.root}/namespace/{namespace}/properties"
        r = self._call("GET", url, headers={"Accept": "application/xml"})
        try:
            tree = ET.fromstring(r.content)
        except ET.ParseError as e:
            raise StoreError(f"unreadable properties of namespace {namespace!r} from {url}: {e}") from e
        return {e.get("key", ""): e.text or "" for e in tree.iter("entry")}

    def check_quads(self, namespace: str) -> None:
        """Raise unless ``namespace`` is in quads mode, which DualGraph needs (a graph per document)."""
        mode = self.properties(namespace).get("com.bigdata.rdf.store.AbstractTripleStore.quads", "false")
        if mode.strip().lower() != "true":
            raise StoreError(
                f"Blazegraph namespace {namespace!r} at {self.root} is in triples mode; DualGraph needs a "
                "quads-mode namespace (create one with BlazegraphNamespaces.create)"
            )

    def delete(self, namespace: str) -> None:
        """Destroy ``namespace`` and all its data."""
        _check_name(namespace)
        self._call("DELETE", f"{self.root}/namespace/{namespace}")

    def sparql_url(self, namespace: str) -> str:
        """The SPARQL (and REST load) endpoint of ``namespace``."""
        _check_name(namespace)
        return f"{self.root}/namespace/{namespace}/sparql"

    def _call(self, method: str, url: str, *, ok: tuple[int, ...] = (200,), **kw: Any) -> requests.Response:
        import requests

        try:
            r = self._session.request(method, url, auth=self._auth, timeout=self.timeout_s, **kw)
        except requests.RequestException as e:
            raise StoreError(f"cannot reach Blazegraph at {url}: {e}") from e
        if r.status_code not in ok:
            raise StoreError(f"{method} {url} answered HTTP {r.status_code}: {r.text[:300]}")
        return r


def _check_name(namespace: str) -> None:
    # the name goes into URL paths and a properties file: keep it to what Blazegraph accepts
    if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", namespace):
        raise StoreError(f"not a usable Blazegraph namespace name: {namespace!r}")


def _properties_xml(props: dict[str, str]) -> str:
    """Java's XML properties format, which Blazegraph's namespace API reads."""
    entries = "".join(f"  <entry key={quoteattr(k)}>{escape(v)}</entry>\n" for k, v in props.items())
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<!DOCTYPE properties SYSTEM "http://java.sun.com/dtd/properties.dtd">\n'
        f"<properties>\n{entries}</properties>\n"
    )
