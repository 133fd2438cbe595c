"""cluster/: the Ray cluster-launcher config passes Ray's own schema (the one `ray up` checks), has
the node types the README promises, gives every Ray process the offline environment, and installs
this checkout; the jobs' runtime env is one Ray accepts. Broken copies are caught."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = ROOT / "cluster" / "ray-cluster.yaml"
RUNTIME_ENV = ROOT / "cluster" / "runtime-env.yaml"
OFFLINE = ("HF_HUB_OFFLINE=1", "TRANSFORMERS_OFFLINE=1")


def _config() -> dict:
    return yaml.safe_load(CLUSTER.read_text(encoding="utf-8"))


def _launcher_check(config: dict) -> dict:
    """What `ray up` does before starting anything: fill in the provider's defaults, then validate."""
    from ray.autoscaler._private.util import prepare_config, validate_config

    prepared = prepare_config(copy.deepcopy(config))
    validate_config(prepared)
    return prepared


def test_the_launcher_config_passes_rays_schema():
    prepared = _launcher_check(_config())
    assert prepared["provider"]["type"] == "aws"
    types = prepared["available_node_types"]
    assert prepared["head_node_type"] == "head" and set(types) == {"head", "cpu", "gpu"}
    assert types["head"]["resources"].get("CPU") == 0  # the driver and the job server only
    assert types["cpu"]["resources"]["CPU"] > 0 and "GPU" not in types["cpu"]["resources"]
    assert types["gpu"]["resources"]["GPU"] >= 1 and types["gpu"]["min_workers"] == 0
    assert types["gpu"]["docker"]["worker_image"].endswith("-gpu")


def test_every_ray_process_starts_offline_and_the_checkout_is_installed():
    config = _config()
    for key in ("head_start_ray_commands", "worker_start_ray_commands"):
        start = " ".join(config[key])
        assert all(var in start for var in OFFLINE), key
        assert "ray start" in start
    assert "--head" in " ".join(config["head_start_ray_commands"])
    mount = next(dst for dst, src in config["file_mounts"].items() if src == ".")
    installs = " ".join(config["setup_commands"] + config["available_node_types"]["gpu"]["worker_setup_commands"])
    assert f'-e "{mount}[serve,endpoint]"' in installs and f'-e "{mount}[serve,endpoint,gpu]"' in installs
    # the extras named there exist in pyproject.toml
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for extra in ("serve", "endpoint", "gpu"):
        assert re.search(rf"^{extra} = \[", pyproject, re.M), extra


def test_the_ray_images_are_the_version_the_k8s_image_builds_on():
    config = _config()
    dockerfile = (ROOT / "k8s" / "Dockerfile").read_text(encoding="utf-8")
    version = re.search(r"^ARG RAY_VERSION=(\S+)", dockerfile, re.M).group(1)
    images = [config["docker"]["image"], config["available_node_types"]["gpu"]["docker"]["worker_image"]]
    assert all(image.startswith(f"rayproject/ray:{version}-") for image in images), images


def test_the_jobs_runtime_env_is_accepted_by_ray():
    from ray.runtime_env import RuntimeEnv

    data = yaml.safe_load(RUNTIME_ENV.read_text(encoding="utf-8"))
    env = RuntimeEnv(**data)
    assert env["working_dir"] == "."
    assert {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}.items() <= env["env_vars"].items()
    assert ".venv*" in data["excludes"] and "runs" in data["excludes"]  # the upload stays small


@pytest.mark.parametrize(
    "breakage",
    [
        pytest.param(lambda c: c.pop("provider"), id="no provider"),
        pytest.param(lambda c: c["available_node_types"]["cpu"].pop("node_config"), id="node type without node_config"),
        pytest.param(lambda c: c["available_node_types"]["gpu"]["resources"].update(GPU="1"), id="resource as string"),
        pytest.param(lambda c: c.update(head_node_type="master"), id="unknown head node type"),
        pytest.param(lambda c: c.update(max_worker=3), id="misspelt key"),
    ],
)
def test_a_broken_copy_is_refused(breakage):
    broken = _config()
    breakage(broken)
    with pytest.raises((jsonschema.ValidationError, ValueError, KeyError)):
        _launcher_check(broken)
