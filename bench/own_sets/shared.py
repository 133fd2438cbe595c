"""What the own question sets share: devmix's ``make_set.py`` loaded as a module (its catalog
builder, question ``Builder`` and command line serve every set over the same conventions) and
the five SpecsQA category names their questions carry.

The set scripts run as files (``python3 bench/own_sets/<set>/make_set.py``), so each puts this
folder on ``sys.path`` and imports from here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

__all__ = ["AGGREGATION", "GROUP", "INVERSE", "MULTI", "REASONING", "devmix"]

INVERSE = "Inverse Queries"
MULTI = "Multi-Condition Queries"
GROUP = "Group Comparison Queries"
REASONING = "Reasoning Queries"
AGGREGATION = "Aggregation Queries"

_spec = importlib.util.spec_from_file_location("devmix", Path(__file__).resolve().parent / "devmix" / "make_set.py")
assert _spec is not None and _spec.loader is not None
devmix = importlib.util.module_from_spec(_spec)
sys.modules["devmix"] = devmix
_spec.loader.exec_module(devmix)
