"""A parallel run keeps each group of tests on one worker (tests/conftest.py): the shared servers
and runtimes start once, and a module's fixtures are set up once.

xdist's loadgroup scheduler reads a test's group from the end of its node id (``…::test@group``);
when that suffix is missing, every test goes to whichever worker is free, silently.
"""

from __future__ import annotations

import os

import pytest


def test_a_loadgroup_worker_sees_the_group_in_the_node_id(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not a worker of a --dist loadgroup run (scripts/test.sh runs one)")
    assert os.environ.get("PYTEST_XDIST_WORKER")
    assert request.node.nodeid.endswith("@test_xdist_groups"), request.node.nodeid


@pytest.mark.ray
def test_a_ray_test_joins_the_ray_group(request: pytest.FixtureRequest) -> None:
    """Marked ray but starts nothing: only its group is checked."""
    groups = [m.args[0] for m in request.node.iter_markers("xdist_group")]
    assert groups == ["ray"]
    if getattr(request.config.option, "loadgroup", False):
        assert request.node.nodeid.endswith("@ray"), request.node.nodeid
