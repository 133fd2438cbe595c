"""Interpretations of a compiled question, checked on the store before one is answered.

The grounder ranks readings of each mention; the compiler emits the best joint one. When the
store says that reading cannot be what was meant (see :mod:`.beam`), the runner-up readings
are tried in a bounded beam, each checked with an existence query, and the answer says which
reading it took, what it left unread and how far the next one was.
"""

from dualgraph.query.interpret.beam import BeamConfig, Emission, Reading, reconsider

__all__ = ["BeamConfig", "Emission", "Reading", "reconsider"]
