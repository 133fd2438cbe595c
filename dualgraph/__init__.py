"""DualGraph: question answering over semi-structured catalogs.

One corpus is indexed into two views: a Symbolic KG (RDF from spec tables, queried
with SPARQL) and a Textual KG (entities from prose, embedded). This package holds
both, the stores behind them and the batch pipelines that build them.
"""

__version__ = "0.1.0"
