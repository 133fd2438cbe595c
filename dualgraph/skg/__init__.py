"""The Symbolic KG: ontology, canonical ids, quantities, triple conversion, rules."""
