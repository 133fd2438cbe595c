"""Store backends by name: the built-ins, registration in code, entry points, and unknown names."""

from __future__ import annotations

import importlib
import sys
import tomllib
import types
from importlib import metadata
from pathlib import Path

import pytest

from dualgraph.stores import registry
from dualgraph.stores.base import Capabilities, StoreError
from dualgraph.stores.builtin import BUILTIN, EndpointOpener
from dualgraph.stores.config import StoreConfig
from dualgraph.stores.factory import open_backend
from dualgraph.stores.profiles import PROFILES

ROOT = Path(__file__).resolve().parents[2]


class FakeStore:
    """Just enough of a store for the factory; records how it was opened."""

    capabilities = Capabilities(persistent=False)

    def __init__(self, config: StoreConfig, path: Path, read_only: bool) -> None:
        self.config, self.path, self.read_only = config, path, read_only
        self.closed = False

    def close(self) -> None:
        self.closed = True


def fake_opener(config: StoreConfig, *, path: Path, read_only: bool) -> FakeStore:
    return FakeStore(config, path, read_only)


@pytest.fixture
def no_entry_points(monkeypatch):
    """No installed distribution offers a store: only what the registry holds in code counts."""
    monkeypatch.setattr(registry.metadata, "entry_points", lambda **kw: [])


@pytest.fixture
def plugin_entry_points(monkeypatch):
    """A fake installed distribution offering store backends through the entry point group."""
    module = types.ModuleType("fake_store_plugin")
    module.open_fake = fake_opener  # type: ignore[attr-defined]
    module.not_an_opener = 42  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_store_plugin", module)
    points = [
        metadata.EntryPoint("fakestore", "fake_store_plugin:open_fake", registry.ENTRY_POINT_GROUP),
        metadata.EntryPoint("brokenstore", "no_such_plugin_module:open", registry.ENTRY_POINT_GROUP),
        metadata.EntryPoint("numberstore", "fake_store_plugin:not_an_opener", registry.ENTRY_POINT_GROUP),
        # another group's entry point of the same look is not a store
        metadata.EntryPoint("otherstore", "fake_store_plugin:open_fake", "some.other.group"),
    ]

    def entry_points(**selection):
        return [ep for ep in points if all(getattr(ep, k) == v for k, v in selection.items())]

    monkeypatch.setattr(registry.metadata, "entry_points", entry_points)
    yield
    for name in ("fakestore", "numberstore", "otherstore"):
        registry.unregister_store(name)


def test_the_built_in_backends_are_registered_in_code(no_entry_points):
    assert set(registry.store_names()) == {"oxigraph", "endpoint", *PROFILES}
    assert set(BUILTIN) == {"oxigraph", "endpoint", *PROFILES}
    for kind in PROFILES:
        assert BUILTIN[kind].profile == kind  # type: ignore[attr-defined]


def test_the_entry_points_in_pyproject_name_the_built_in_openers():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    points = declared[registry.ENTRY_POINT_GROUP]
    assert set(points) == set(BUILTIN)
    for name, target in points.items():
        module, _, attr = target.partition(":")
        assert getattr(importlib.import_module(module), attr) is BUILTIN[name], name


def test_an_unknown_kind_fails_naming_the_known_ones(no_entry_points, tmp_path):
    with pytest.raises(StoreError) as err:
        open_backend(StoreConfig(kind="oxigraf"), tmp_path)
    message = str(err.value)
    assert "unknown store kind 'oxigraf'" in message
    assert "known: blazegraph, endpoint, generic, oxigraph, oxigraph-server, virtuoso" in message


def test_the_embedded_backend_opens_in_the_path_given(tmp_path):
    with open_backend(StoreConfig(), tmp_path / "db") as store:
        assert type(store).__name__ == "OxigraphStore"
        assert store.capabilities.update
    assert (tmp_path / "db").is_dir()


def test_a_backend_registered_in_code_is_opened_by_its_name(no_entry_points, tmp_path):
    registry.register_store("fake", fake_opener)
    try:
        assert "fake" in registry.store_names()
        store = open_backend(StoreConfig(kind="fake", query_url="x://y"), tmp_path, read_only=True)
        assert isinstance(store, FakeStore)
        assert (store.path, store.read_only, store.config.query_url) == (tmp_path, True, "x://y")
        # only an embedded Oxigraph store is copied into memory; others are used as they are
        assert isinstance(open_backend(StoreConfig(kind="fake"), tmp_path, read_only=True, in_memory=True), FakeStore)
    finally:
        registry.unregister_store("fake")
    with pytest.raises(StoreError, match="unknown store kind 'fake'"):
        open_backend(StoreConfig(kind="fake"), tmp_path)


def test_a_taken_name_is_only_replaced_on_purpose(no_entry_points):
    registry.register_store("fake", fake_opener)
    try:
        registry.register_store("fake", fake_opener)  # the same opener again is no conflict

        def other(config, *, path, read_only):
            return FakeStore(config, path, read_only)

        with pytest.raises(StoreError, match="registered already"):
            registry.register_store("fake", other)
        with pytest.raises(StoreError, match="registered already"):
            registry.register_store("oxigraph", other)
        registry.register_store("fake", other, replace=True)
        assert registry.store_opener("fake") is other
    finally:
        registry.unregister_store("fake")
    assert registry.store_opener("oxigraph") is BUILTIN["oxigraph"]


def test_registration_refuses_what_cannot_be_a_backend():
    with pytest.raises(StoreError, match="needs a name"):
        registry.register_store("", fake_opener)
    with pytest.raises(StoreError, match="not callable"):
        registry.register_store("fake", "not a function")  # type: ignore[arg-type]


def test_a_backend_is_found_through_its_entry_point(plugin_entry_points, tmp_path):
    names = registry.store_names()
    assert {"fakestore", "brokenstore", "numberstore", "oxigraph"} <= set(names)
    assert "otherstore" not in names
    store = open_backend(StoreConfig(kind="fakestore"), tmp_path)
    assert isinstance(store, FakeStore) and store.path == tmp_path
    assert registry.store_opener("fakestore") is fake_opener


def test_code_wins_over_an_entry_point_of_the_same_name(plugin_entry_points, tmp_path):
    def in_code(config, *, path, read_only):
        return "in code"

    registry.register_store("fakestore", in_code)
    assert registry.store_opener("fakestore") is in_code


def test_an_entry_point_that_cannot_be_loaded_says_which(plugin_entry_points, tmp_path):
    with pytest.raises(
        StoreError, match=r"store kind 'brokenstore': cannot load its entry point 'no_such_plugin_module:open'"
    ):
        open_backend(StoreConfig(kind="brokenstore"), tmp_path)
    with pytest.raises(
        StoreError, match="'numberstore': entry point 'fake_store_plugin:not_an_opener' is not callable"
    ):
        open_backend(StoreConfig(kind="numberstore"), tmp_path)
    with pytest.raises(StoreError, match="unknown store kind 'otherstore'"):
        open_backend(StoreConfig(kind="otherstore"), tmp_path)


def test_a_server_profile_is_a_backend_of_its_own_name(tmp_path):
    pytest.importorskip("SPARQLWrapper")
    as_kind = open_backend(StoreConfig(kind="virtuoso", query_url="http://127.0.0.1:9/sparql-auth"), tmp_path)
    as_profile = open_backend(
        StoreConfig(kind="endpoint", profile="virtuoso", query_url="http://127.0.0.1:9/sparql-auth"), tmp_path
    )
    for store in (as_kind, as_profile):
        assert store.graph_store_url == "http://127.0.0.1:9/sparql-graph-crud"  # type: ignore[attr-defined]
        assert store.max_rows == 10_000  # type: ignore[attr-defined]
        store.close()
    generic = open_backend(StoreConfig(kind="endpoint", query_url="http://127.0.0.1:9/q"), tmp_path, read_only=True)
    assert generic.graph_store_url is None and not generic.capabilities.update  # type: ignore[attr-defined]
    generic.close()


def test_a_server_backend_needs_its_url_and_one_profile(tmp_path):
    with pytest.raises(StoreError, match=r"store kind 'endpoint' needs query_url \(--sparql-url\)"):
        open_backend(StoreConfig(kind="endpoint"), tmp_path)
    with pytest.raises(StoreError, match="store kind 'blazegraph' needs query_url"):
        open_backend(StoreConfig(kind="blazegraph"), tmp_path)
    with pytest.raises(StoreError, match="is the 'virtuoso' server profile, but the config names profile 'blazegraph'"):
        EndpointOpener("virtuoso")(
            StoreConfig(kind="virtuoso", profile="blazegraph", query_url="http://h/sparql"),
            path=tmp_path,
            read_only=True,
        )


def test_a_server_backend_reads_its_password_from_the_environment(monkeypatch):
    monkeypatch.setenv("DUALGRAPH_SPARQL_PASSWORD", "secret")
    assert StoreConfig(kind="virtuoso").with_password_from_env().password == "secret"
    assert StoreConfig(kind="endpoint").with_password_from_env().password == "secret"
    assert StoreConfig(kind="oxigraph").with_password_from_env().password is None
    assert StoreConfig(kind="endpoint", password="given").with_password_from_env().password == "given"
