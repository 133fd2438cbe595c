"""Ray's own log lines stay quiet unless asked for (``dualgraph.pipeline.ray_logging``).

An index build and a bulk answer run on a fresh local Ray in a child process, as ``dualgraph index``
and ``dualgraph ask --questions`` run them (progress on, as in ``scripts/demo.sh``); what the child
prints is read back. Without ``DUALGRAPH_RAY_LOGS`` no Ray INFO line and none of Ray Data's notes
may appear. That with ``DUALGRAPH_RAY_LOGS=1`` they do (so this check can see them when they are
there) is checked on the Ray Job of ``tests/integration/test_ray_job.py``, whose output
``ray job submit`` streams back.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dualgraph.pipeline.ray_logging import RAY_LOGS_ENV

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys
from ray import cloudpickle
from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer
from dualgraph.pipeline.index import build_index
import tests.unit.test_bulk_answer as toy

root = sys.argv[1]
specs = lambda i: (("Battery:Capacity", f"{4000 + i} mAh"), ("Price", f"{100 + i} GBP"))
pages = [(f"p{i}", f"# Phone {i}\n\nA phone.", [Variant(f"Phone {i}", "Phone", ("smartphones",), specs(i))])
         for i in range(6)]
write_dataset(f"{root}/ds", pages)
config = IndexConfig(
    runner="ray", ray_min_documents=0, ray_min_cpus=1, progress=True, batch_size=2, patterns=False, tkg=TkgConfig(enabled=False)
)
print("products", build_index(f"{root}/ds", f"{root}/ix", config)["products"], flush=True)
cloudpickle.register_pickle_by_value(toy)  # the actors cannot import test modules
q = f"{root}/questions.json"
open(q, "w").write(json.dumps({f"q{i}": {"question": f"question {i}"} for i in range(6)}))
cfg = BulkAnswerConfig(runner="ray", concurrency=1, batch_size=2, progress=True)
print("answered", bulk_answer(q, f"{root}/answers.jsonl", engine_factory=toy.ToyEngine, strategy="skg",
                              config=cfg).answered, flush=True)
"""

# Ray's log format: "2026-01-01 10:00:00,000\tINFO streaming_executor.py:215 -- Starting execution …"
RAY_INFO = re.compile(r"\b(?:INFO|DEBUG)\s+[\w.]+\.py:\d+ -- ")
RAY_NOTES = (
    "Registered dataset logger",
    "Starting execution of Dataset",
    "Execution plan of Dataset",
    "execution finished",
    "Progress bars disabled",
    "Started a local Ray instance",
    "Token authentication is enabled",
)


def run_child(tmp_path: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in (RAY_LOGS_ENV, "RAY_ADDRESS", "RAY_DATA_LOG_LEVEL")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-4000:]
    return out


def ray_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if RAY_INFO.search(line) or any(n in line for n in RAY_NOTES)]


@pytest.mark.ray
def test_ray_is_quiet_by_default(tmp_path):
    # the other half, Ray's lines when asked for, is the Ray Job of tests/integration/test_ray_job.py
    quiet = run_child(tmp_path)
    assert "products 6" in quiet and "answered 6" in quiet  # both ran on Ray
    assert ray_lines(quiet) == []
    # our own bars are still there
    assert "convert" in quiet and "100%" in quiet
