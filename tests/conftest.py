import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
TESTS = Path(__file__).parent

# The folder a test lives in names its tier; `-m unit`, `-m "integration and not ray"` … select lanes.
_TIER_BY_FOLDER = {"unit": "unit", "integration": "integration", "e2e": "e2e", "deploy": "deploy", "vllm_tier": "vllm"}

# Session-scoped servers and runtimes: the tests that share one are kept on one xdist worker
# (--dist loadgroup), so a parallel run starts each of them once, not once per worker, and two
# local Ray or Spark runtimes never fight over the two cores.
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        lanes = _lanes(item)
        for lane in sorted(lanes):
            item.add_marker(getattr(pytest.mark, lane))
        lanes |= {m for m in ("ray", "spark") if item.get_closest_marker(m)}
        # --junitxml keeps user properties: scripts/test_lanes.py sums the run's time by lane from them
        item.user_properties.append(("lanes", ",".join(sorted(lanes))))
        group = _group(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


def _group(item: pytest.Item) -> str | None:
    if item.get_closest_marker("ray") or item.get_closest_marker("serve"):
        return "ray"
    if item.get_closest_marker("spark"):
        return "spark"
    for name in getattr(item, "fixturenames", ()):
        if name in _SHARED_FIXTURE_GROUPS:
            return _SHARED_FIXTURE_GROUPS[name]
    return None


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
