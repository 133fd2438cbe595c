"""One small catalog indexed two ways gives the same store: in process (`--runner inline`) and as
a real Ray Job (`ray job submit … python jobs/index_catalog.py`) on a Ray head started here on
loopback with its dashboard (the job server).

The head runs in a process group of its own, stopped by that group's id at the end (never `ray
stop`, which would stop every Ray on the machine). It asks for a token made up for the test. The
job asks for Ray's own log lines, which must then reach the user through `ray job submit`. (An
index built on a local Ray started for it is checked quiet in a child process by
tests/integration/test_ray_logs_quiet.py, and matched against the inline runner's by
tests/integration/test_index.py.)
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.pipeline.ray_logging import RAY_LOGS_ENV
from tests.integration.test_ray_logs_quiet import ray_lines

pytestmark = [pytest.mark.ray, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# Ray even for a catalog this small: no document threshold, no CPU threshold (two cores here); the
# static embedder keeps the Textual KG build (its mentions reach the store) to seconds per run.
CONFIG = """\
ray_min_documents: 0
ray_min_cpus: 1
batch_size: 2
progress: false
models:
  embedder:
    kind: static
"""


def _phone(name: str, mah: int, price: float, storage: str, nfc: str) -> Variant:
    specs = (
        ("Battery:Capacity", f"{mah} mAh"),
        ("Storage:Capacity", storage),
        ("Connectivity:NFC", nfc),
        ("Price", f"{price} GBP"),
    )
    return Variant(name, name.rsplit(" ", 1)[0], ("smartphones",), specs)


PAGES = [
    (
        "a",
        "# Alpha\n\nThe Alpha has a bright screen and supports wireless charging.",
        [_phone("Alpha 1", 5000, 450, "128 GB", "Yes"), _phone("Alpha 2", 5000, 520, "1 TB", "Yes")],
    ),
    (
        "b",
        "# Beta\n\nBeta ships with a stylus pen but lacks an IR blaster.",
        [_phone("Beta 1", 4500, 300, "512 GB", "No")],
    ),
    ("c", "# Gamma\n\nGamma has stereo speakers.", [_phone("Gamma 1", 6000, 499.99, "2 TB", "Yes")]),
    ("d", "# Delta\n\nA compact phone with a headphone jack.", [_phone("Delta 1", 4000, 199, "64 GB", "No")]),
    ("e", "# Epsilon\n\nEpsilon does not support NFC.", [_phone("Epsilon 1", 5500, 610, "256 GB", "No")]),
]


def _free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


@dataclass
class RayHead:
    dashboard_url: str
    env: dict[str, str]


def _start_head(env: dict[str, str]) -> tuple[int, Path, str, int, str]:
    """`ray start --head` on free loopback ports in a new process group; returns the group id,
    the temp dir, the dashboard URL, the exit status and the output."""
    gcs, dash, client, agent_http, agent_grpc, env_agent, metrics, node_mgr, obj_mgr = _free_ports(9)
    # Ray's socket paths must stay short: a temp dir of its own under /tmp, not pytest's deep one
    temp = Path(tempfile.mkdtemp(prefix="dgrj", dir="/tmp"))
    cmd = [
        str(BIN / "ray"),
        "start",
        "--head",
        "--node-ip-address=127.0.0.1",
        f"--port={gcs}",
        "--include-dashboard=true",
        "--dashboard-host=127.0.0.1",
        f"--dashboard-port={dash}",
        f"--ray-client-server-port={client}",
        f"--dashboard-agent-listen-port={agent_http}",
        f"--dashboard-agent-grpc-port={agent_grpc}",
        f"--runtime-env-agent-port={env_agent}",
        f"--metrics-export-port={metrics}",
        f"--node-manager-port={node_mgr}",
        f"--object-manager-port={obj_mgr}",
        "--num-cpus=2",
        f"--temp-dir={temp}",
        "--disable-usage-stats",
    ]
    starter = subprocess.Popen(
        cmd, env=env, cwd=temp, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        out, _ = starter.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        starter.kill()
        out, _ = starter.communicate()
    # its own session: every Ray process it started stays in this group, whatever ray start did
    return starter.pid, temp, f"http://127.0.0.1:{dash}", starter.returncode, out


def _stop_head(group: int, temp: Path) -> None:
    # SIGTERM gets 3 s, then SIGKILL: some of the head's processes outlived SIGTERM for the whole
    # 10 s this once waited (an 11.4 s teardown in a CI run), and nothing of this throwaway head
    # (its temp dir goes next) needs a graceful end
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and _group_alive(group):
            time.sleep(0.2)
    shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture
def ray_head() -> Iterator[RayHead]:
    """A Ray head with its dashboard on 127.0.0.1 (free ports), in its own process group."""
    if not (BIN / "ray").exists():
        pytest.skip(f"no `ray` command next to {sys.executable}")
    pytest.importorskip("aiohttp", reason="the job server needs ray[default] (the dashboard)")
    env = dict(os.environ)
    env.update(
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",  # the job's `python` is this environment's
        RAY_AUTH_MODE="token",
        RAY_AUTH_TOKEN=secrets.token_hex(32),
        RAY_USAGE_STATS_ENABLED="0",
    )
    # Ray gives its raylet 30 s to register; on a machine whose cores are busy that can pass, so
    # a second start is allowed before the test fails
    for _attempt in (1, 2):
        group, temp, url, status, out = _start_head(env)
        if status == 0:
            break
        _stop_head(group, temp)
    assert status == 0, f"ray start failed twice; the second time:\n{out[-3000:]}"
    try:
        yield RayHead(url, env)
    finally:
        _stop_head(group, temp)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def _quads(index: Path) -> list[str]:
    """Every quad of the index's embedded store, as N-Quads lines, sorted."""
    import pyoxigraph as ox

    store = ox.Store.read_only(str(IndexLayout(index).store))
    lines = sorted(str(q) for q in store.quads_for_pattern(None, None, None, None))
    assert not any("_:" in line.split(" ", 1)[0] for line in lines), "blank nodes: labels differ between stores"
    return lines


def _manifest(index: Path) -> dict:
    return json.loads((index / "manifest.json").read_text(encoding="utf-8"))


def _run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float = 150) -> str:
    """What the command printed, standard output then standard error."""
    done = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{cmd[:4]} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def _submit(cmd: list[str], env: dict[str, str], cwd: Path, wait_s: float = 60) -> str:
    """``ray job submit``, again while the head says no agent has registered yet (it answers HTTP
    500 "No available agent to submit job, please try again later" for a while after a start on a
    busy machine: one clean-clone CI run failed so). Nothing was submitted then, so trying again is safe."""
    deadline = time.monotonic() + wait_s
    while True:
        done = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=150)
        said = done.stdout + done.stderr
        if done.returncode == 0 or "No available agent" not in said or time.monotonic() > deadline:
            assert done.returncode == 0, (
                f"{cmd[:4]} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            )
            return said
        time.sleep(2)


def test_inline_and_a_ray_job_build_identical_stores(tmp_path: Path, ray_head: RayHead) -> None:
    ds = tmp_path / "ds"
    write_dataset(ds, PAGES)
    cfg = tmp_path / "index.yaml"
    cfg.write_text(CONFIG, encoding="utf-8")
    env = dict(ray_head.env)
    env.pop("RAY_ADDRESS", None)  # `dualgraph index` without --ray-address starts a local Ray of its own
    dualgraph = str(BIN / "dualgraph")

    _run(
        [dualgraph, "index", str(ds), "--index", str(tmp_path / "inline"), "--runner", "inline", "--config", str(cfg)],
        env,
        tmp_path,
    )

    # the job's working directory carries the entry points only; the library is the installed one
    workdir = tmp_path / "workdir"
    shutil.copytree(ROOT / "jobs", workdir / "jobs", ignore=shutil.ignore_patterns("__pycache__"))
    # Ray's own lines asked for (the quiet default is tests/integration/test_ray_logs_quiet.py):
    # they must reach the user, so the quiet check can see them when they are there
    runtime_env = {"env_vars": {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", RAY_LOGS_ENV: "1"}}
    job_out = _submit(
        [
            str(BIN / "ray"),
            "job",
            "submit",
            "--address",
            ray_head.dashboard_url,
            "--working-dir",
            str(workdir),
            "--runtime-env-json",
            json.dumps(runtime_env),
            "--",
            "python",
            "jobs/index_catalog.py",
            str(ds),
            str(tmp_path / "job"),
            "--config",
            str(cfg),
        ],
        env,
        tmp_path,
    )
    assert "succeeded" in job_out.lower(), job_out[-2000:]
    said = "\n".join(ray_lines(job_out))
    assert "Execution plan of Dataset" in said and "Starting execution of Dataset" in said, job_out[-3000:]

    inline, job = (_manifest(tmp_path / name) for name in ("inline", "job"))
    assert (inline["converted_on"], job["converted_on"]) == ("inline", "ray")
    for key in ("products", "triples", "specs", "documents"):
        assert inline[key] == job[key], key
    quads = _quads(tmp_path / "inline")
    assert len(quads) > 100
    assert _quads(tmp_path / "job") == quads
