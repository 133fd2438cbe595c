"""The service's parts that need no Ray: its config, the stats book and merge, the page renderer."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from dualgraph.serve.config import ServeConfig
from dualgraph.serve.page import render_page
from dualgraph.serve.stats import StatsBook, merge_snapshots

# -- config ---------------------------------------------------------------------------------------------


def test_fixed_replicas_by_default_and_batches_that_can_fill():
    options = ServeConfig(replicas=3, max_batch_size=12).deployment_options()
    assert options["num_replicas"] == 3 and "autoscaling_config" not in options
    # slots to spare for probes and slow bodies; the engine's own bound is in questions
    assert options["max_ongoing_requests"] == 256 and ServeConfig(max_batch_size=200).ongoing() == 400
    assert ServeConfig(max_batch_size=12).engine_questions() == 48
    # past the queue, Serve itself answers 503 with the service's Retry-After
    assert options["max_queued_requests"] == 64
    assert options["backpressure_config"] == {"status_code": 503, "retry_after_s": 2.0}


def test_http_options_bound_idle_connections_and_back_the_replica_deadline():
    options = ServeConfig(port=9001, request_timeout_s=30, body_timeout_s=5, keep_alive_timeout_s=7).http_options()
    assert options == {"host": "127.0.0.1", "port": 9001, "keep_alive_timeout_s": 7, "request_timeout_s": 45.0}


def test_autoscaling_from_config():
    options = ServeConfig(replicas=2, min_replicas=1, max_replicas=6, max_batch_size=8).deployment_options()
    assert "num_replicas" not in options
    assert options["autoscaling_config"] == {
        "min_replicas": 1,
        "initial_replicas": 2,
        "max_replicas": 6,
        "target_ongoing_requests": 8.0,
    }
    explicit = ServeConfig(max_replicas=4, target_ongoing_requests=3).deployment_options()
    assert explicit["autoscaling_config"]["target_ongoing_requests"] == 3


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"replicas": 5, "max_replicas": 4}, "min_replicas <= replicas <= max_replicas"),
        ({"max_batch_size": 16, "max_ongoing_requests": 8}, "no batch could fill"),
        ({"max_batch": 16}, "max_batch"),  # a misspelt field is refused, not ignored
        ({"gil_switch_interval_s": 0}, "greater than 0"),
        ({"gil_switch_interval_s": 1}, "less than or equal to 0.1"),
    ],
)
def test_incoherent_configs_are_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        ServeConfig(**fields)


# -- stats ------------------------------------------------------------------------------------------------


def test_the_book_counts_and_keeps_a_window():
    book = StatsBook(window=10)
    for i in range(25):
        book.request(200 if i % 5 else 400, (i + 1) / 1000)
    book.batch(3)
    book.batch(5)
    book.answered(8, 1)
    snap = book.snapshot()
    assert snap["requests"] == 25 and snap["status"] == {"200": 20, "400": 5}
    assert len(snap["latency_ms"]) == 10 and min(snap["latency_ms"]) == pytest.approx(16.0)  # the latest 10 only
    stats = merge_snapshots([snap])
    assert stats.replicas == 1 and stats.questions == 8 and stats.errors == 1 and stats.batches == 2
    assert stats.mean_batch_size == 4.0 and stats.batch_size.max == 5
    assert stats.latency_ms.p50 == pytest.approx(20.5) and stats.latency_ms.max == pytest.approx(25.0)


def test_replicas_merge_into_one_view():
    a, b = StatsBook(), StatsBook()
    for ms in (10, 20, 30):
        a.request(200, ms / 1000)
    b.request(504, 1.0)
    a.batch(2)
    b.batch(6)
    stats = merge_snapshots([a.snapshot(), b.snapshot()])
    assert stats.replicas == 2 and stats.requests == 4 and stats.status_counts == {"200": 3, "504": 1}
    assert stats.latency_ms.max == pytest.approx(1000.0) and stats.mean_batch_size == 4.0
    empty = merge_snapshots([StatsBook().snapshot()])
    assert empty.latency_ms.p50 is None and empty.mean_batch_size is None


# -- the page -----------------------------------------------------------------------------------------------


class _Outline(HTMLParser):
    """Tags, ids and the text of the page, and whether any element is unbalanced."""

    VOID = frozenset({"meta", "input", "br", "link", "img"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: set[str] = set()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.broken = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.ids |= {v for k, v in attrs if k == "id" and v}
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.broken = True

    def handle_data(self, data):
        self.text.append(data)


def _outline(html: str) -> _Outline:
    p = _Outline()
    p.feed(html)
    assert not p.broken and not p.stack, "unbalanced HTML"
    return p


RECORD = {
    "question": "phones <b>cheap</b>",
    "answer": "2 products match:\n- Alpha <One>\n- Beta & Co",
    "answer_list": ["Alpha <One>", "Beta & Co"],
    "strategy": "skg",
    "route": ["skg"],
    "latency_s": 0.0123,
    "batch_size": 4,
    "evidence": {
        "sparql": "SELECT ?name WHERE { ?p <x> ?name } # <script>",
        "rows": [
            {"p": "https://w3id.org/p/1", "name": "Alpha <One>", "price": 100},
            {"p": "https://w3id.org/p/2", "name": "Beta & Co", "price": 250},
        ],
        "rows_total": 2,
        "chunk_ids": ["doc-1#3"],
        "confidence": 0.9,
        "trace": ["grounded 'cheap' to price"],
    },
}


def test_the_page_renders_the_answer_table_and_evidence_escaped():
    html = render_page(
        title="DualGraph", strategies=["skg", "tkg"], markets=["default"], question="phones <b>cheap</b>", record=RECORD
    )
    outline = _outline(html)
    assert "script" not in outline.tags and "<b>" not in html  # nothing from the index or the question runs
    assert {"question", "strategy", "products", "evidence", "sparql", "rows", "chunks", "trace"} <= outline.ids
    assert "market" not in outline.ids  # one market: no picker
    products = re.search(r'<table id="products">.*?</table>', html, re.S).group(0)
    assert "2 products" in products and "&lt;One&gt;" in products and "Beta &amp; Co" in products
    assert "<td>100</td>" in products and "<td>250</td>" in products and "w3id.org/p/1" not in products
    answer_text = re.search(r'<p id="answer-text">(.*?)</p>', html, re.S).group(1)
    assert answer_text == "2 products match:"  # the list lines live in the table
    assert re.search(r'<details id="evidence"><summary>Evidence</summary>', html)
    assert '<option value="skg" selected>' in html
    assert "0.90" in html and "12 ms" in html


def test_the_page_offers_markets_and_shows_errors():
    html = render_page(title="t", strategies=["skg"], markets=["de", "uk"], market="uk", error="unknown <market>")
    outline = _outline(html)
    assert "market" in outline.ids and '<option value="uk" selected>' in html and ">all markets<" in html
    assert 'role="alert"' in html and "unknown &lt;market&gt;" in html
    record = {**RECORD, "answer_list": None, "value": 3, "answer": "3", "error": None}
    html = render_page(title="t", strategies=["skg"], markets=["default"], record=record)
    assert 'id="products"' not in html and '<span id="answer-value">3</span>' in html
    failed = {**RECORD, "error": "the store is down", "answer_list": None}
    assert "Not answered: the store is down" in render_page(title="t", strategies=[], markets=[], record=failed)


def test_every_form_field_has_a_label():
    html = render_page(title="t", strategies=["skg"], markets=["de", "uk"])
    fields = set(re.findall(r'<(?:textarea|select|input)[^>]* id="([^"]+)"', html))
    labels = set(re.findall(r'<label for="([^"]+)"', html))
    assert fields and fields <= labels


def test_the_page_says_what_was_not_read_and_which_bounds_were_reached():
    quiet = render_page(title="t", strategies=["skg"], markets=["default"], record=RECORD)
    assert 'id="unread"' not in quiet and 'id="caps"' not in quiet  # an ordinary answer says neither
    record = {
        **RECORD,
        "unread": ["hardtail", "<never ridden>"],
        "caps": [
            {"name": "query_rows", "limit": 1000, "unit": "rows", "what": "rows past 1000 <cut>", "lowered": True}
        ],
    }
    html = render_page(title="t", strategies=["skg"], markets=["default"], record=record)
    unread = re.search(r'<p id="unread"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert "hardtail" in unread and "&lt;never ridden&gt;" in unread and "<never" not in html
    caps = re.search(r'<ul id="caps"[^>]*>(.*?)</ul>', html, re.S).group(1)
    assert "query_rows" in caps and "limit 1000 rows" in caps and "rows past 1000 &lt;cut&gt;" in caps
