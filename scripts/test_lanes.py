"""Sum the JUnit XML files of a test run by lane and print one closing line for the whole run.

    python3 scripts/test_lanes.py RUN.xml [RUN2.xml ...]

A lane is a marker that tests/conftest.py puts on every test (unit, integration, e2e, deploy,
store, llm, serve, browser, ray, spark, vllm) and also writes into the XML as the property
``lanes``; a test is counted in its most specific lane (a Ray Serve test under "serve", not
"integration"). Lanes run side by side under xdist, so a lane's time is the sum of its tests'
durations (seconds of one worker), not wall time. Standard library only.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import defaultdict

# most specific first
ORDER = ["browser", "serve", "vllm", "ray", "spark", "llm", "store", "e2e", "deploy", "integration", "unit"]


def lane_of(case: ET.Element) -> str:
    lanes: set[str] = set()
    for prop in case.iter("property"):
        if prop.get("name") == "lanes":
            lanes |= set(filter(None, (prop.get("value") or "").split(",")))
    if "vllm_tier" in case.get("classname", ""):
        lanes.add("vllm")
    return next((lane for lane in ORDER if lane in lanes), "other")


def main(paths: list[str]) -> int:
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for path in paths:
        for case in ET.parse(path).getroot().iter("testcase"):
            lane = lane_of(case)
            seconds[lane] += float(case.get("time") or 0)
            outcome = "passed"
            for child in case:
                if child.tag in {"failure", "error"}:
                    outcome = "failed"
                elif child.tag == "skipped":
                    outcome = "xfailed" if (child.get("type") or "").endswith("xfail") else "skipped"
            counts[lane][outcome] += 1
    print(f"{'lane':12s} {'tests':>6s} {'failed':>6s} {'seconds':>8s}")
    for lane in sorted(seconds, key=lambda k: -seconds[k]):
        c = counts[lane]
        print(f"{lane:12s} {sum(c.values()):6d} {c['failed']:6d} {seconds[lane]:8.1f}")
    total = {k: sum(c[k] for c in counts.values()) for k in ("passed", "failed", "skipped", "xfailed")}
    # the closing line CI reads: the whole run, every lane and both environments together
    print(f"all: {total['passed']} passed, {total['failed']} failed, {total['skipped'] + total['xfailed']} skipped")
    return 1 if total["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
