"""Store backends by name, the way rdflib finds its stores: registered in code, or as entry points.

A backend is an *opener*: ``opener(config, path=..., read_only=...)`` returns a
:class:`~dualgraph.stores.base.SparqlStore`, where ``config`` is the
:class:`~dualgraph.stores.config.StoreConfig` naming it (its ``kind``) and ``path`` is where
an embedded backend keeps its files. Another package adds one with :func:`register_store`,
or without any code running first, as an entry point in the ``dualgraph.stores`` group::

    [project.entry-points."dualgraph.stores"]
    mystore = "mypackage.stores:open_mystore"

The built-in backends (:mod:`dualgraph.stores.builtin`) are registered here directly, so they
work from a checkout whose entry points were never installed; pyproject.toml declares them as
entry points too. A name registered in code wins over an entry point of the same name.

>>> "oxigraph" in store_names() and "virtuoso" in store_names()
True
>>> store_opener("no-such-store")
Traceback (most recent call last):
...
dualgraph.stores.base.StoreError: unknown store kind 'no-such-store'; known: blazegraph, endpoint, generic, ...
"""

from __future__ import annotations

import threading
from importlib import metadata
from pathlib import Path
from typing import Protocol

from dualgraph.stores.base import SparqlStore, StoreError
from dualgraph.stores.builtin import BUILTIN
from dualgraph.stores.config import StoreConfig

ENTRY_POINT_GROUP = "dualgraph.stores"


class StoreOpener(Protocol):
    """Opens one backend's store from its configuration."""

    def __call__(self, config: StoreConfig, *, path: Path, read_only: bool) -> SparqlStore: ...


_openers: dict[str, StoreOpener] = dict(BUILTIN)
# entry points are looked up at each miss, not cached: a package installed since is found
_lock = threading.Lock()


def register_store(name: str, opener: StoreOpener, *, replace: bool = False) -> None:
    """Make ``opener`` the backend named ``name`` (a ``StoreConfig.kind``).

    Registering a taken name raises :class:`StoreError` unless ``replace`` is true, so two
    packages cannot take one name without noticing.
    """
    if not name or not isinstance(name, str):
        raise StoreError(f"a store backend needs a name, not {name!r}")
    if not callable(opener):
        raise StoreError(f"the opener of store backend {name!r} is not callable: {opener!r}")
    with _lock:
        if not replace and name in _openers and _openers[name] is not opener:
            raise StoreError(f"store kind {name!r} is registered already ({_openers[name]!r})")
        _openers[name] = opener


def unregister_store(name: str) -> None:
    """Forget the backend registered in code as ``name`` (an entry point of that name stays findable)."""
    with _lock:
        _openers.pop(name, None)


def _entry_points() -> dict[str, metadata.EntryPoint]:
    # one name may come from two installed distributions: the first found is kept, as
    # importlib.metadata lists them in sys.path order
    found: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep)
    return found


def store_names() -> list[str]:
    """Every backend name that can be opened: those registered in code and the installed entry points."""
    with _lock:
        names = set(_openers)
    return sorted(names | set(_entry_points()))


def store_opener(name: str) -> StoreOpener:
    """The opener of the backend ``name``; an unknown name raises :class:`StoreError` listing the known ones."""
    with _lock:
        opener = _openers.get(name)
    if opener is not None:
        return opener
    ep = _entry_points().get(name)
    if ep is None:
        raise StoreError(f"unknown store kind {name!r}; known: {', '.join(store_names())}")
    try:
        loaded = ep.load()
    except Exception as e:  # whatever the plugin's import raises, say which entry point it was
        raise StoreError(f"store kind {name!r}: cannot load its entry point {ep.value!r}: {e}") from e
    if not callable(loaded):
        raise StoreError(f"store kind {name!r}: entry point {ep.value!r} is not callable")
    with _lock:
        # a registration in code made meanwhile wins, as it would have before the lookup
        return _openers.setdefault(name, loaded)
