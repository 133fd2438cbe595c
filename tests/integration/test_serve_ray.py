"""Ray Serve over loopback: concurrent questions batched into engine calls, answers as records.

Real parts: local Ray, Ray Serve's HTTP proxy on 127.0.0.1 (a free port), the QA engine on the
fixture catalog's index. Expected answers come from the CSV.
"""

from __future__ import annotations

import json
import socket
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import catalog_index, http_json, models_where

from dualgraph.answer.engine import AskConfig, EngineSpec
from dualgraph.answer.record import AnswerRecord

serve = pytest.importorskip("ray.serve", reason="the `serve` extra (ray[serve]) is not installed")
pytestmark = [pytest.mark.ray, pytest.mark.network]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    from dualgraph.serve.app import ServeConfig, run

    index = catalog_index(tmp_path_factory)
    port = _free_port()
    run(
        EngineSpec(index_dir=index, config=AskConfig()),
        ServeConfig(port=port, max_batch_size=8, batch_wait_s=0.2),
        blocking=False,
        name="dualgraph-test",
    )
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        serve.delete("dualgraph-test")
        serve.shutdown()


def test_concurrent_questions_are_batched_and_answered(service):
    price = lambda r: int(r["price_inr"])  # noqa: E731
    asks = {
        f"q{i}": (f"Which phones cost under {limit} INR?", models_where(lambda r, x=limit: price(r) < x))
        for i, limit in enumerate([10000, 15000, 20000, 30000, 50000, 100000])
    }
    with ThreadPoolExecutor(6) as pool:
        replies = list(
            pool.map(
                lambda kv: http_json(service, {"id": kv[0], "question": kv[1][0], "strategy": "skg"}), asks.items()
            )
        )
    sizes = []
    for (qid, (_, gold)), (status, body) in zip(asks.items(), replies):
        assert status == 200, body
        sizes.append(body.pop("batch_size"))
        record = AnswerRecord.model_validate(body)
        assert record.id == qid and record.strategy == "skg" and record.error is None
        assert set(record.answer_list) == gold
    assert max(sizes) > 1, sizes  # concurrent requests shared an engine call


def test_bad_requests_get_400_and_the_service_goes_on(service):
    assert http_json(service, b"not json")[0] == 400
    assert http_json(service, {"q": "no question key"})[0] == 400
    status, body = http_json(service, {"question": "Which phones have 5G?", "strategy": "nonsense"})
    assert status == 400 and "unknown strategy" in body["error"]
    status, body = http_json(service, {"question": "Which phones have 5G?"})
    assert status == 200 and body["strategy"] == "skg+tkg_fb"
    assert set(body["answer_list"]) == models_where(lambda r: r["has_5g"] == "True")
    with urllib.request.urlopen(service, timeout=30) as r:
        info = json.loads(r.read())
    assert info["strategy"] == "skg+tkg_fb" and "agentic" in info["strategies"]


def test_batches_fill_past_serves_default_of_five_ongoing_requests(service):
    """Ray Serve lets a replica hold 5 requests unless told otherwise, which capped every batch at 5
    whatever max_batch_size said; the deployment now holds twice max_batch_size (8 here)."""
    questions = [f"Which phones cost under {10000 + 1000 * i} INR?" for i in range(16)]
    with ThreadPoolExecutor(16) as pool:
        replies = list(pool.map(lambda q: http_json(service, {"question": q, "strategy": "skg"}), questions))
    assert all(status == 200 for status, _ in replies)
    assert max(body["batch_size"] for _, body in replies) > 5
