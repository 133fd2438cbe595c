"""Answering a question over the symbolic graph, in four stages, each handing one typed object on:

- :mod:`~dualgraph.query.read`: the question read once into an intent and its mentions;
- :mod:`~dualgraph.query.ground`: each mention given ranked groundings on the catalog;
- :mod:`~dualgraph.query.interpret`: joint readings compiled, checked on the store, one chosen;
- :mod:`~dualgraph.query.sparql`: the query emitted, guarded, run, and its rows read into the answer
  (and the LLM's SPARQL path).

What one catalog's words can name (its patterns, vocabulary and mined lexicon) is built at index
time in :mod:`dualgraph.lexicon`.
"""
