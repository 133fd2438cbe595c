"""Stores behind small protocols: SPARQL stores (embedded Oxigraph, remote endpoints), later vector indexes."""

from dualgraph.stores.base import Capabilities, SparqlStore, StoreError

__all__ = ["Capabilities", "SparqlStore", "StoreError"]
