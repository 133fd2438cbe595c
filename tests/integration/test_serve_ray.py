"""Ray Serve over loopback: the JSON API (ask, ask_batch, health, stats, info, OpenAPI, the optional
SPARQL endpoint), concurrent questions batched into engine calls, bad requests refused.

Real parts: local Ray, Ray Serve's HTTP proxy on 127.0.0.1 (a free port), the QA engine on the
fixture catalog's index, real HTTP requests. Expected answers come from the CSV.
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import catalog_index, http_json, models_where, source_rows

from dualgraph.answer.engine import AskConfig, EngineSpec
from dualgraph.answer.record import AnswerRecord
from dualgraph.skg import ontology as O

serve = pytest.importorskip("ray.serve", reason="the `serve` extra (ray[serve]) is not installed")
pytestmark = [pytest.mark.ray, pytest.mark.network]

price = lambda r: int(r["price_inr"])  # noqa: E731


@pytest.fixture(scope="module")
def service(tmp_path_factory, shared_serve):
    """Two applications on the session's proxy (tests/integration/conftest.py): the default one at
    '/', and one with the SPARQL endpoint switched on (small caps) at '/open'."""
    from dualgraph.serve.app import ServeConfig, build_app

    index = catalog_index(tmp_path_factory)
    port = shared_serve.port
    spec = EngineSpec(index_dir=index, config=AskConfig())
    open_config = ServeConfig(
        port=port, sparql_endpoint=True, sparql_max_rows=5, sparql_max_chars=600, sparql_timeout_s=0.5
    )
    with shared_serve.running(
        (
            "dualgraph-test",
            "/",
            build_app(spec, ServeConfig(port=port, max_batch_size=8, batch_wait_s=0.2, max_batch_questions=20)),
        ),
        ("dualgraph-open", "/open", build_app(spec, open_config)),
    ) as url:
        yield url


def _gold_under(limit: int) -> set[str]:
    return models_where(lambda r, x=limit: price(r) < x)


def test_concurrent_questions_are_batched_and_answered(service):
    asks = {f"q{i}": limit for i, limit in enumerate([10000, 15000, 20000, 30000, 50000, 100000])}
    with ThreadPoolExecutor(6) as pool:
        replies = list(
            pool.map(
                lambda kv: http_json(
                    service + "/ask",
                    {"id": kv[0], "question": f"Which phones cost under {kv[1]} INR?", "strategy": "skg"},
                ),
                asks.items(),
            )
        )
    sizes = []
    for (qid, limit), (status, body) in zip(asks.items(), replies):
        assert status == 200, body
        sizes.append(body.pop("batch_size"))
        record = AnswerRecord.model_validate(body)
        assert record.id == qid and record.strategy == "skg" and record.error is None
        assert set(record.answer_list) == _gold_under(limit)
    assert max(sizes) > 1, sizes  # concurrent requests shared an engine call


def test_ask_batch_answers_in_order_and_shares_batches(service):
    limits = [12000, 25000, 60000, 9000]
    status, body = http_json(
        service + "/ask_batch",
        {"questions": [{"id": f"b{i}", "question": f"Which phones cost under {x} INR?"} for i, x in enumerate(limits)]},
    )
    assert status == 200, body
    answers = body["answers"]
    assert [a["id"] for a in answers] == ["b0", "b1", "b2", "b3"]
    for a, x in zip(answers, limits):
        assert set(a["answer_list"]) == _gold_under(x) and a["strategy"] == "skg+tkg_fb"
    assert max(a["batch_size"] for a in answers) > 1


def test_the_old_root_post_still_answers(service):
    status, body = http_json(service + "/", {"question": "Which phones have 5G?"})
    assert status == 200 and body["strategy"] == "skg+tkg_fb"
    assert set(body["answer_list"]) == models_where(lambda r: r["has_5g"] == "True")


def test_bad_requests_get_400_and_the_service_goes_on(service):
    ask = service + "/ask"
    assert http_json(ask, b"not json")[0] == 400
    status, body = http_json(ask, {"q": "no question key"})
    assert status == 400 and "question" in body["error"]
    assert http_json(ask, {"question": 42})[0] == 400
    assert http_json(ask, {"question": "5G?", "colour": "red"})[0] == 400  # a misspelt field is not ignored
    status, body = http_json(ask, {"question": "Which phones have 5G?", "strategy": "nonsense"})
    assert status == 400 and "unknown strategy" in body["error"]
    status, body = http_json(ask, {"question": "Which phones have 5G?", "market": "mars"})
    assert status == 400 and "unknown market" in body["error"] and "default" in body["error"]
    assert http_json(service + "/ask_batch", {"questions": []})[0] == 400
    status, body = http_json(service + "/ask_batch", {"questions": [{"question": "5G?"}] * 21})
    assert status == 413 and "at most 20" in body["error"]
    status, body = http_json(ask, {"question": "Which phones have 5G?", "market": "default", "names": "product"})
    assert status == 200 and set(body["answer_list"]) == models_where(lambda r: r["has_5g"] == "True")


def test_oversized_bodies_get_413_declared_or_streamed(service):
    big = json.dumps({"question": "5G " * 30000}).encode()  # past the default 64 KiB
    status, body = http_json(service + "/ask", big)
    assert status == 413 and "65536 bytes" in body["error"]
    # sent in chunks without a length: refused once the count passes the limit
    conn = http.client.HTTPConnection("127.0.0.1", int(service.rsplit(":", 1)[1]), timeout=60)
    conn.putrequest("POST", "/ask")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    for i in range(0, len(big), 8192):
        piece = big[i : i + 8192]
        conn.send(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
    conn.send(b"0\r\n\r\n")
    response = conn.getresponse()
    assert response.status == 413 and "65536 bytes" in json.loads(response.read())["error"]


def test_health_info_and_openapi(service):
    status, health = http_json(service + "/health")
    assert status == 200 and health["status"] == "ok" and health["uptime_s"] > 0
    status, info = http_json(service + "/info")
    assert status == 200 and info["strategy"] == "skg+tkg_fb" and "agentic" in info["strategies"]
    assert info["markets"] == ["default"] and info["sparql_endpoint"] is False
    status, doc = http_json(service + "/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.")
    assert {"/ask", "/ask_batch", "/health", "/stats", "/info"} <= set(doc["paths"])
    assert "/sparql" not in doc["paths"]
    ask_schema = doc["components"]["schemas"]["AskRequest"]
    assert ask_schema["required"] == ["question"] and {"strategy", "market", "names"} <= set(ask_schema["properties"])
    assert "batch_size" in doc["components"]["schemas"]["AskReply"]["properties"]


def test_stats_count_requests_batches_and_errors(service):
    before = http_json(service + "/stats")[1]
    questions = [f"Which phones cost under {10000 + 500 * i} INR?" for i in range(10)] + ["   "]
    with ThreadPoolExecutor(11) as pool:
        replies = list(pool.map(lambda q: http_json(service + "/ask", {"question": q}), questions))
    assert [s for s, _ in replies] == [200] * 11
    http_json(service + "/ask", b"not json")
    status, after = http_json(service + "/stats")
    assert status == 200
    assert after["questions"] - before["questions"] == 11
    assert after["errors"] - before["errors"] == 1  # the empty question's error record
    assert after["requests"] - before["requests"] >= 13  # 11 questions, the bad one, the first GET /stats
    assert after["status_counts"]["400"] >= 1 and after["status_counts"]["200"] >= 11
    assert after["batches"] > before["batches"] and after["batch_size"]["max"] > 1
    lat = after["latency_ms"]
    assert 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"]


def test_the_sparql_endpoint_is_off_by_default(service):
    assert http_json(service + "/sparql", {"query": "ASK {}"})[0] == 404


def store_workers_busy_over(seconds: float, app: str = "dualgraph-open") -> float:
    """CPU seconds the Serve replicas of ``app`` and the budgeted store workers they started use
    over the next ``seconds`` (a query left running would be in one of them). Only this module's
    application: another test run's replicas on a shared machine are none of its business."""
    tick = os.sysconf("SC_CLK_TCK")

    def workers() -> dict[int, float]:
        replicas, stores = {}, {}
        for entry in os.listdir("/proc"):
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, NotADirectoryError):
                continue
            cpu, parent = (int(stat[11]) + int(stat[12])) / tick, int(stat[1])
            if f"ServeReplica:{app}:".encode() in command[0]:
                replicas[int(entry)] = cpu
            elif b"dualgraph.budget.child" in command and b"store" in command:
                stores[int(entry)] = (parent, cpu)
        assert replicas, f"no Serve replica of {app!r} found"
        return {**replicas, **{pid: cpu for pid, (parent, cpu) in stores.items() if parent in replicas}}

    before = workers()
    time.sleep(seconds)
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in workers().items())


def test_the_sparql_endpoint_runs_capped_read_only_queries(service):
    sparql = service + "/open/sparql"
    count = f"SELECT (COUNT(DISTINCT ?p) AS ?n) {{ ?p a <{O.PRODUCT}> }}"
    status, body = http_json(sparql, {"query": count})
    assert status == 200, body
    assert int(body["results"]["bindings"][0]["n"]["value"]) == len(source_rows())
    status, body = http_json(sparql, {"query": "SELECT ?s { ?s ?p ?o }"})
    assert status == 200 and len(body["results"]["bindings"]) == 5 and body["truncated"] is True
    status, body = http_json(sparql, {"query": "ASK { ?s ?p ?o }"})
    assert status == 200 and body["boolean"] is True
    refused = [
        "DROP ALL",
        "INSERT DATA { <urn:a> <urn:b> <urn:c> }",
        "PREFIX x: <urn:x#> DELETE WHERE { ?s ?p ?o }",
        "SELECT * { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",  # no calls out of the service
    ]
    for query in refused:
        status, body = http_json(sparql, {"query": query})
        assert status == 400 and "refused" in body["error"], (query, body)
    status, body = http_json(sparql, {"query": "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"})
    assert status == 400 and "SELECT and ASK" in body["error"]
    status, body = http_json(sparql, {"query": "SELECT * {" + " " * 700 + "}"})
    assert status == 413 and "600" in body["error"]
    assert http_json(sparql, {"query": "SELECT ?s { ?s ?p ?o"})[0] == 400
    status, body = http_json(sparql, {"query": "SELECT ?p { ?p a skgt:Product } LIMIT 1"})  # predeclared prefixes
    assert status == 200 and len(body["results"]["bindings"]) == 1
    slow = "SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
    status, body = http_json(sparql, {"query": slow})
    assert status == 504 and "timed out" in body["error"]
    assert store_workers_busy_over(1.0) < 0.5  # the 504 means the query has stopped, not that it was left behind
    status, body = http_json(sparql, {"query": count})  # the store still answers after the timeout
    assert status == 200


def test_batches_fill_past_serves_default_of_five_ongoing_requests(service):
    """Ray Serve lets a replica hold 5 requests unless told otherwise, which capped every batch at 5
    whatever max_batch_size said; the deployment holds twice max_batch_size (8 here)."""
    questions = [f"Which phones cost under {10000 + 1000 * i} INR?" for i in range(16)]
    with ThreadPoolExecutor(16) as pool:
        replies = list(pool.map(lambda q: http_json(service + "/ask", {"question": q, "strategy": "skg"}), questions))
    assert all(status == 200 for status, _ in replies)
    assert max(body["batch_size"] for _, body in replies) > 5
