"""A run killed (SIGKILL) at every stage boundary resumes to the store a clean run builds.

The kill comes from the fault-injection hook (``DUALGRAPH_KILL_AT``), not from a timer,
so every named point is hit exactly; the scenario (v1 indexed, v2 changes, removes, adds
and breaks a document) is :mod:`reliability_tools.kill_points`. The store must equal
that of the clean v2 run quad for quad, and the state must list the same documents.
"""

from __future__ import annotations

import pytest

from dualgraph.models.factory import EmbedderConfig, ModelsConfig
from dualgraph.pipeline.faults import KILL_POINTS
from dualgraph.pipeline.index import build_index
from reliability_tools.kill_points import (
    TKG_POINTS,
    dump,
    kill_and_resume,
    prepare,
    skg_only_config,
    with_tkg_config,
)

STATIC = ModelsConfig(embedder=EmbedderConfig(kind="static"))


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    return {
        "skg": prepare(tmp_path_factory.mktemp("skg"), skg_only_config()),
        # the static embedder: the Textual KG and the pattern index are built all the same, and each
        # killed run starts without torch
        "tkg": prepare(tmp_path_factory.mktemp("tkg"), with_tkg_config().model_copy(update={"models": STATIC})),
    }


@pytest.mark.parametrize("point", sorted(set(KILL_POINTS) - {"reconcile"}))
def test_kill_at_point_then_resume_equals_clean_run(point, prepared, tmp_path):
    result = kill_and_resume(prepared["tkg" if point in TKG_POINTS else "skg"], [point], tmp_path)
    assert result.killed, f"the run was not killed at {point!r}: the point is never reached"
    assert result.identical_store and result.identical_state and result.identical_views


def test_a_loaded_pass_the_journal_never_recorded_is_dropped_on_resume(prepared, tmp_path):
    """Killed between the second bulk load and its journal line, then again while the orphan graph is dropped."""
    result = kill_and_resume(prepared["skg"], ["load#2", "reconcile"], tmp_path)
    assert result.killed and result.identical_store and result.identical_state


def test_the_reference_is_what_a_fresh_index_of_v2_is(prepared, tmp_path):
    """v1 then v2 equals v2 from scratch: nothing of v1 lingers in the clean run."""
    p = prepared["skg"]
    build_index(p.v2_dataset, tmp_path / "fresh", p.config)
    assert dump(tmp_path / "fresh") == dump(p.clean)
