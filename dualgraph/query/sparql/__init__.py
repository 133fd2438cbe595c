"""The query of a reading: emitted per intent, guarded before it touches a store, its rows read into
the answer in the unit asked; and the LLM path that writes SPARQL from retrieved patterns."""
