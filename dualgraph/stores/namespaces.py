"""The namespaces every store predeclares, so a query may write ``skg:hasName`` without a PREFIX line.

They are the Symbolic KG's (:mod:`dualgraph.skg.ontology` builds every other IRI on them) and
RDF's own. They are spelled here, not there, because the stores sit below the graph that uses
them: a store must know its predeclared prefixes without importing the application.

>>> PREFIXES["skg"]
'https://w3id.org/dualgraph/skg#'
"""

from __future__ import annotations

BASE = "https://w3id.org/dualgraph/"
SKG = BASE + "skg#"
SKGT = BASE + "skgt#"
GRAPH = BASE + "graph/"
"""Every named graph of an index is under this; a shared server holds others (Virtuoso's own)."""
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"
XSD_STRING = XSD + "string"

PREFIXES: dict[str, str] = {
    "skg": SKG,
    "skgt": SKGT,
    "rdf": RDF,
    "rdfs": RDFS,
    "xsd": XSD,
}
