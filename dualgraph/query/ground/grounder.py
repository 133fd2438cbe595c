"""Ground each parsed constraint and entity on the graph: which pattern answers it, and how.

Every constraint is grounded on its own (never the whole question at once), against the
:class:`~dualgraph.lexicon.patterns.PatternIndex` and, where exact names decide, against the
patterns' structured facts (names, units, value lists). The result is a :class:`Grounding`
holding a SPARQL snippet over ``?p`` with ``{s}``/``{v}`` placeholders (the compiler gives
each block fresh variables), FILTER expressions over ``{v}``, a confidence and a trace.

This module is the public entry point; :class:`Grounder` puts together the parts, each in a
module of its own that says what each form grounds to:

- :mod:`~dualgraph.query.ground.numbers`: prices, numeric constraints, ordering attributes;
- :mod:`~dualgraph.query.ground.features`: features and spec values (prose as the last resort);
- :mod:`~dualgraph.query.ground.entities`: products, ranges, brands, categories;
- :mod:`~dualgraph.query.ground.base`: the :class:`Grounding` result and the shared state;
- :mod:`~dualgraph.query.ground.name_match`: :func:`norm_tokens`, :func:`token_match` and the lexical
  score of an attribute against an entry's names.
"""

from __future__ import annotations

from dualgraph.query.ground.base import MIN_CONFIDENCE, Grounding
from dualgraph.query.ground.dates import DateGrounder
from dualgraph.query.ground.entities import EntityGrounder
from dualgraph.query.ground.features import FeatureGrounder
from dualgraph.query.ground.name_match import (
    _lexical,  # noqa: F401 - importers (tests) score entries with it here
    norm_tokens,
    token_match,
)

__all__ = ["MIN_CONFIDENCE", "Grounder", "Grounding", "norm_tokens", "token_match"]


class Grounder(FeatureGrounder, EntityGrounder, DateGrounder):
    """Grounds constraints on one graph: ``store`` for catalog facts (currencies, product
    names), ``patterns`` for what can be asked. Each call appends its decisions to ``trace``."""
