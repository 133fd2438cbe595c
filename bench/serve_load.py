"""Load on `dualgraph serve`, over loopback: throughput and latency for 1, 8 and 32 concurrent clients,
with request batching on and off.

The service runs as a user starts it (`dualgraph serve --index I --port P`, a child process), once
with ``--max-batch N`` (batching on) and once with ``--max-batch 1`` (off: the baseline). Each client
keeps one HTTP connection open and posts the index's questions in turn, as fast as answers come,
for ``--requests`` answers per level (bounded: the whole run is a few minutes). Prints one row per
(batching, clients): requests/s, p50/p99 latency, errors, mean batch size, and the on/off ratio.

    .venv/bin/python bench/serve_load.py --index runs/demo/index \
        --questions runs/demo/questions.json [--clients 1,8,32] [--requests 200] [--path /ask] [--vary]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import string
import subprocess
import sys
import threading
import time
from pathlib import Path

EXE = Path(sys.executable).parent / "dualgraph"


def catalog_nouns(index: str | Path) -> list[str]:
    """The index's own section names ("battery", "display", ...), lower-cased: the nouns ``--vary``
    puts after a new word, so new wording reads like the catalog and the bench names no domain."""
    lines = (Path(index) / "patterns" / "patterns.jsonl").read_text(encoding="utf-8").splitlines()
    sections = {str(json.loads(line).get("section") or "").strip().lower() for line in lines if line.strip()}
    nouns = sorted(s for s in sections if s.isalpha())
    if not nouns:
        raise SystemExit(f"{index}: no section names in patterns/patterns.jsonl to vary the questions with")
    return nouns


def vary_question(question: str, rng: random.Random, nouns: list[str]) -> str:
    """``question`` with a word never seen before and one of the catalog's nouns, so its phrases miss
    every cache (what a live service's new wording costs)."""
    return f"{question.rstrip('?')} with {''.join(rng.choices(string.ascii_lowercase, k=5))} {rng.choice(nouns)}?"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(
    index: str, port: int, max_batch: int, log: Path, replicas: int = 1, extra: list[str] | None = None
) -> subprocess.Popen:
    proc = subprocess.Popen(
        [str(EXE), "serve", "--index", index, "--port", str(port), "--max-batch", str(max_batch)]
        + (["--replicas", str(replicas)] if replicas > 1 else [])
        + list(extra or []),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its Ray and Serve processes go with it
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"dualgraph serve exited {proc.returncode}; see {log}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/health")  # the application's own route: the proxy answers 404 before it is up
            if c.getresponse().status == 200:
                return proc
        except OSError:
            pass
        time.sleep(1)
    stop(proc)
    raise RuntimeError(f"dualgraph serve did not answer within 300 s; see {log}")


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=60)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, signal.SIGKILL)


def load(port: int, path: str, questions: list[str], clients: int, total: int, nouns: list[str] | None = None) -> dict:
    """``clients`` threads, one keep-alive connection each, ``total`` requests between them."""
    lock = threading.Lock()
    latencies: list[float] = []
    batch_sizes: list[int] = []
    errors = [0]
    next_i = [0]
    rng = random.Random(time.time_ns())  # fresh words on every run, so no cache from the last one helps

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while True:
            with lock:
                i = next_i[0]
                if i >= total:
                    return
                next_i[0] += 1
            question = questions[i % len(questions)]
            if nouns:
                question = vary_question(question, rng, nouns)
            body = json.dumps({"question": question, "id": str(i)})
            t = time.perf_counter()
            try:
                conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                data = resp.read()
                ok = resp.status == 200
                record = json.loads(data) if ok else {}
            except (OSError, http.client.HTTPException, ValueError):
                ok, record = False, {}
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            dt = time.perf_counter() - t
            with lock:
                latencies.append(dt)
                if not ok or record.get("error"):
                    errors[0] += 1
                if isinstance(record.get("batch_size"), int):
                    batch_sizes.append(record["batch_size"])

    threads = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t0
    lat = sorted(latencies)
    return {
        "clients": clients,
        "requests": len(lat),
        "req_per_s": round(len(lat) / wall, 2),
        "p50_ms": round(1000 * statistics.median(lat), 1),
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1),
        "errors": errors[0],
        "mean_batch": round(statistics.mean(batch_sizes), 2) if batch_sizes else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", required=True)
    ap.add_argument("--questions", required=True, help="a questions file (JSON object keyed by id)")
    ap.add_argument("--clients", default="1,8,32")
    ap.add_argument("--requests", type=int, default=200, help="answers per level")
    ap.add_argument("--max-batch", type=int, default=16, help="the batching-on setting")
    ap.add_argument("--replicas", type=int, default=1, help="engine replicas (both settings)")
    ap.add_argument("--path", default="/ask", help="the answering route")
    ap.add_argument(
        "--vary",
        action="store_true",
        help="give every question a word never seen before, so its phrases miss the embedding caches "
        "(a live service's new wording) instead of replaying the same few questions",
    )
    ap.add_argument(
        "--serve-arg",
        action="append",
        default=[],
        help="one more argument for `dualgraph serve` in both settings (repeat it: --serve-arg=--batch-threads "
        "--serve-arg=1)",
    )
    ap.add_argument("--log-dir", default="runs/serve_load")
    args = ap.parse_args()
    questions = [q["question"] for q in json.loads(Path(args.questions).read_text(encoding="utf-8")).values()]
    levels = [int(x) for x in args.clients.split(",")]
    logs = Path(args.log_dir)
    logs.mkdir(parents=True, exist_ok=True)
    rows: dict[tuple[str, int], dict] = {}
    for mode, max_batch in (("on", args.max_batch), ("off", 1)):
        port = free_port()
        proc = start(args.index, port, max_batch, logs / f"serve-{mode}.log", args.replicas, args.serve_arg)
        try:
            load(port, args.path, questions, 1, min(10, args.requests))  # warm the engine's caches
            for n in levels:
                row = load(
                    port, args.path, questions, n, args.requests, catalog_nouns(args.index) if args.vary else None
                )
                rows[(mode, n)] = row
                print(json.dumps({"batching": mode, **row}), flush=True)
        finally:
            stop(proc)
    print(
        "\n| clients | batching on req/s | p50 ms | p99 ms | mean batch | batching off req/s | p50 ms | p99 ms | on/off |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n in levels:
        on, off = rows[("on", n)], rows[("off", n)]
        ratio = on["req_per_s"] / off["req_per_s"] if off["req_per_s"] else float("nan")
        print(
            f"| {n} | {on['req_per_s']} | {on['p50_ms']} | {on['p99_ms']} | {on['mean_batch']} | "
            f"{off['req_per_s']} | {off['p50_ms']} | {off['p99_ms']} | {ratio:.2f} |"
        )


if __name__ == "__main__":
    main()
