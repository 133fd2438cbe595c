import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
TESTS = Path(__file__).parent

# The folder a test lives in names its tier; `-m unit`, `-m "integration and not ray"` … select lanes.
_TIER_BY_FOLDER = {"unit": "unit", "integration": "integration", "e2e": "e2e", "deploy": "deploy", "vllm_tier": "vllm"}

# Session-scoped servers and runtimes: the tests that share one are kept on one xdist worker
# (--dist loadgroup), so a parallel run starts each of them once, not once per worker, and two
# local Ray or Spark runtimes never fight over the two cores. Every other test is kept with the
# rest of its module, so a module-scoped fixture (an index built, a service started) is set up
# once, on one worker.
_SHARED_FIXTURE_GROUPS = {
    "virtuoso": "virtuoso",
    "endpoint_store": "virtuoso",
    "oxigraph_server": "oxigraph-server",
    "oxigraph_server_store": "oxigraph-server",
    "llamacpp": "llamacpp",
    "spark": "spark",
}


def _lanes(item: pytest.Item) -> set[str]:
    """Markers naming the lanes a test belongs to, read from its folder, its own marks and its fixtures."""
    rel = Path(str(item.fspath)).resolve().relative_to(TESTS)
    lanes = {_TIER_BY_FOLDER[rel.parts[0]]} if rel.parts[0] in _TIER_BY_FOLDER else set()
    fixtures = set(getattr(item, "fixturenames", ()))
    if fixtures & {"virtuoso", "endpoint_store", "oxigraph_server", "oxigraph_server_store"}:
        lanes.add("store")
    if "llamacpp" in fixtures:
        lanes.add("llm")
    if rel.name.startswith("test_serve"):
        lanes.add("serve")
    if "browser" in rel.name:
        lanes.add("browser")
    return lanes


# The order in which a parallel run hands out its groups: the long shared runtimes first, the
# many short unit modules last, so the workers finish together (longest work first).
_GROUP_RANK = {"ray": 0, "llamacpp": 1, "spark": 2, "virtuoso": 3, "oxigraph-server": 3}
_TIER_RANK = {"e2e": 4, "integration": 5, "unit": 6}


def pytest_configure(config: pytest.Config) -> None:
    if _loadgroup(config):
        # hand the groups out in the order collection leaves them (below), not by test count
        config.option.loadscopereorder = False


def _loadgroup(config: pytest.Config) -> bool:
    # the workers see --dist as "no" and xdist's own flag instead
    return getattr(config.option, "loadgroup", False) or getattr(config.option, "dist", "no") == "loadgroup"


# tryfirst: xdist reads the xdist_group marks in its own hook of this name, which must see them
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    ranks = {}
    for item in items:
        lanes = _lanes(item)
        for lane in sorted(lanes):
            item.add_marker(getattr(pytest.mark, lane))
        lanes |= {m for m in ("ray", "spark") if item.get_closest_marker(m)}
        # --junitxml keeps user properties: scripts/test_lanes.py sums the run's time by lane from them
        item.user_properties.append(("lanes", ",".join(sorted(lanes))))
        group = _group(item)
        item.add_marker(pytest.mark.xdist_group(group))
        rel = Path(str(item.fspath)).resolve().relative_to(TESTS)
        # within its group, a test on the session's Ray Serve comes last: Serve is up only while they run
        ranks[item] = (
            _GROUP_RANK.get(group, _TIER_RANK.get(rel.parts[0], 7)),
            "shared_serve" in getattr(item, "fixturenames", ()),
        )
    if _loadgroup(config):
        order = {item: i for i, item in enumerate(items)}
        items.sort(key=lambda item: (ranks[item], order[item]))


# (pytest registers only names that start with pytest_; specname says which hook)
@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")
def pytest_collection_modifyitems_name_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the group into the node id (``path::test@group``), which is how xdist's loadgroup
    scheduler reads it, where xdist itself could not: pytest-xdist 3.8 writes the suffix into an
    attribute that pytest 9.2 no longer reads (pytest-dev/pytest-xdist#1386), and every test would
    go to whichever worker is free. Checked by tests/unit/test_xdist_groups.py."""
    if not getattr(config.option, "loadgroup", False):  # set on the workers of a loadgroup run
        return
    for item in items:
        if "@" in item.nodeid.rsplit("]", 1)[-1]:
            continue  # xdist did it (a release with the fix)
        ident = f"{item.nodeid}@{item.get_closest_marker('xdist_group').args[0]}"
        if hasattr(item, "_id"):  # pytest >= 9.2: a structured id, parsed back from the string
            item._id = type(item._id).parse(ident)
        else:
            item._nodeid = ident


def _group(item: pytest.Item) -> str:
    if item.get_closest_marker("ray") or item.get_closest_marker("serve"):
        return "ray"
    if item.get_closest_marker("spark"):
        return "spark"
    for name in getattr(item, "fixturenames", ()):
        if name in _SHARED_FIXTURE_GROUPS:
            return _SHARED_FIXTURE_GROUPS[name]
    return Path(str(item.fspath)).stem  # test module names are unique across tests/


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
