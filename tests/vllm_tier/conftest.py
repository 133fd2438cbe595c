"""The vLLM tier: the batch LLM stage on a real vLLM engine, on CPU.

Runs only where ``vllm`` imports (the CPU build lives in its own environment, ``.venv-vllm``,
made by ``scripts/setup.sh --vllm``; ``scripts/test.sh`` runs this folder there). In the main
environment every test here is skipped (a ``skipif`` mark on each module, so no fixture starts
Ray or an engine). The folder is not called ``vllm``: with ``tests/`` on ``sys.path`` it would pass
for the ``vllm`` package, as a namespace package. One engine pass is shared by the tier's tests:
starting a vLLM engine costs tens of seconds on two cores.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def smollm2_folder() -> Path:
    spec = importlib.util.spec_from_file_location("smollm2_safetensors", ROOT / "scripts" / "smollm2_safetensors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = Path(os.environ.get("DUALGRAPH_SMOLLM2_DIR", module.DEFAULT_OUT))
    return module.convert(out)


@pytest.fixture(scope="session")
def ray_cpu() -> Iterator[None]:
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        if started:
            ray.shutdown()
