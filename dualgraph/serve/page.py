"""The web page for a person: a question box, the answer, the products as a table, the evidence
behind a disclosure. Rendered on the server as plain HTML (no script, nothing fetched from
elsewhere): the form is a GET, so an answer has a URL, works with keyboard and screen reader, and
needs no JavaScript at all. Every value from the index or the question is escaped.
"""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = ["render_page"]

_STYLE = """
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1b1b1b}
label{font-weight:600;display:block;margin:.6rem 0 .2rem}
textarea{width:100%;font:inherit;box-sizing:border-box}
select,button{font:inherit;padding:.3rem .6rem}
button{margin-top:.8rem}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
table{border-collapse:collapse;margin:.6rem 0;width:100%}
th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left;vertical-align:top}
caption{text-align:left;font-weight:600;padding:.3rem 0}
.meta{display:flex;flex-wrap:wrap;gap:.4rem 1.5rem;padding:0;list-style:none}
.error{color:#a51d2d;font-weight:600}
pre{white-space:pre-wrap;background:#f3f3f3;padding:.5rem;overflow-x:auto}
details{margin:1rem 0}
summary{cursor:pointer;font-weight:600}
"""


def _options(values: list[str], chosen: str | None) -> str:
    return "".join(
        f'<option value="{escape(v)}"{" selected" if v == chosen else ""}>{escape(v)}</option>' for v in values
    )


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return escape(str(value))


def _product_rows(names: list[str], rows: list[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    """Columns and one row per product: the evidence row that names it, if any (its other plain values)."""
    by_name: dict[str, dict[str, Any]] = {}
    for row in rows:
        for value in row.values():
            if isinstance(value, str) and value in names and value not in by_name:
                by_name[value] = row
    columns: list[str] = []
    for row in by_name.values():
        for k, v in row.items():
            if k not in columns and not (isinstance(v, str) and (v in names or v.startswith(("http://", "https://")))):
                columns.append(k)
    table = [[n, *(by_name.get(n, {}).get(c) for c in columns)] for n in names]
    return columns, table


def _without_list(text: str, names: list[str] | None) -> str:
    """The answer text less the lines that only list a product the table shows."""
    if not names:
        return text
    shown = set(names)
    kept = [ln for ln in text.splitlines() if ln.strip().lstrip("-*• ").strip() not in shown]
    return "\n".join(kept).strip()


def _answer_html(record: dict[str, Any]) -> str:
    parts: list[str] = ['<section aria-labelledby="answer-h"><h2 id="answer-h">Answer</h2>']
    if record.get("error"):
        parts.append(f'<p class="error" role="alert">Not answered: {escape(record["error"])}</p>')
    names = record.get("answer_list")
    parts.append(f'<p id="answer-text">{escape(_without_list(record.get("answer") or "", names))}</p>')
    ev = record.get("evidence") or {}
    confidence = ev.get("confidence")
    meta = [
        ("Strategy", record.get("strategy")),
        ("Route", " → ".join(record.get("route") or []) or "none"),
        ("Confidence", "n/a" if confidence is None else f"{confidence:.2f}"),
        ("Latency", f"{1000 * float(record.get('latency_s') or 0):.0f} ms"),
        ("Batch", record.get("batch_size", 1)),
    ]
    parts.append(
        '<ul class="meta" aria-label="How it was answered">'
        + "".join(f'<li><strong>{k}:</strong> <span data-field="{k.lower()}">{_cell(v)}</span></li>' for k, v in meta)
        + "</ul>"
    )
    if record.get("value") is not None:
        parts.append(f'<p><strong>Value:</strong> <span id="answer-value">{_cell(record["value"])}</span></p>')
    parts += _said_not_done(record)
    if names is not None:
        columns, table = _product_rows(list(names), ev.get("rows") or [])
        head = "".join(f'<th scope="col">{escape(c)}</th>' for c in ["Product", *columns])
        body = "".join(
            "<tr>" + f'<th scope="row">{_cell(r[0])}</th>' + "".join(f"<td>{_cell(v)}</td>" for v in r[1:]) + "</tr>"
            for r in table
        )
        parts.append(
            f'<table id="products"><caption>{len(names)} product{"s" if len(names) != 1 else ""}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )
    parts.append(_evidence_html(ev))
    parts.append("</section>")
    return "".join(parts)


def _said_not_done(record: dict[str, Any]) -> list[str]:
    """What the answer did not take into account, in sight beside it: the words of the question
    nothing read (the answer holds without them) and the bounds the question's work reached."""
    out = []
    if unread := record.get("unread"):
        words = ", ".join(f"“{escape(str(w))}”" for w in unread)
        out.append(f'<p id="unread" class="error" role="note"><strong>Not read:</strong> {words}. '
                   "The answer does not take these words into account.</p>")  # fmt: skip
    if caps := record.get("caps"):
        items = "".join(
            f"<li><strong>{escape(str(c.get('name')))}</strong> "
            f"(limit {_cell(c.get('limit'))} {escape(str(c.get('unit') or ''))}): {escape(str(c.get('what') or ''))}</li>"
            for c in caps
        )
        out.append(f'<h3 id="caps-h">Bounds reached</h3><ul id="caps" aria-labelledby="caps-h">{items}</ul>')
    return out


def _evidence_html(ev: dict[str, Any]) -> str:
    parts = ['<details id="evidence"><summary>Evidence</summary>']
    if ev.get("sparql"):
        parts.append(f'<h3>SPARQL</h3><pre id="sparql"><code>{escape(ev["sparql"])}</code></pre>')
    rows = ev.get("rows") or []
    if rows:
        columns = list(dict.fromkeys(k for r in rows for k in r))
        total = ev.get("rows_total") or len(rows)
        head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns)
        body = "".join("<tr>" + "".join(f"<td>{_cell(r.get(c))}</td>" for c in columns) + "</tr>" for r in rows)
        parts.append(
            f'<table id="rows"><caption>Rows ({len(rows)} of {total})</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )
    chunks = ev.get("chunk_ids") or []
    if chunks:
        parts.append(
            '<h3>Text chunks</h3><ol id="chunks">' + "".join(f"<li>{escape(c)}</li>" for c in chunks) + "</ol>"
        )
    trace = ev.get("trace") or []
    if trace:
        parts.append('<h3>Trace</h3><ol id="trace">' + "".join(f"<li>{escape(t)}</li>" for t in trace) + "</ol>")
    if len(parts) == 1:
        parts.append("<p>No evidence was recorded.</p>")
    parts.append("</details>")
    return "".join(parts)


def render_page(
    *,
    title: str,
    strategies: list[str],
    markets: list[str],
    question: str = "",
    strategy: str | None = None,
    market: str | None = None,
    record: dict[str, Any] | None = None,
    error: str | None = None,
) -> str:
    """The whole page; with ``record``, its answer below the form; with ``error``, why there is none."""
    strategy = strategy or (record or {}).get("strategy")
    market_field = (
        '<label for="market">Market</label><select id="market" name="market">'
        + _options(["", *markets], market or "").replace('value=""></option>', 'value="">all markets</option>')
        + "</select>"
        if len(markets) > 1
        else ""
    )
    form = (
        '<form method="get" role="search">'
        '<label for="question">Question</label>'
        f'<textarea id="question" name="question" rows="3" required>{escape(question)}</textarea>'
        '<label for="strategy">Strategy</label>'
        f'<select id="strategy" name="strategy">{_options(strategies, strategy)}</select>'
        f"{market_field}"
        '<div><button type="submit" id="ask">Ask</button></div></form>'
    )
    result = ""
    if error:
        result = f'<p class="error" role="alert" id="error">{escape(error)}</p>'
    elif record is not None:
        result = _answer_html(record)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main><h1>{escape(title)}</h1>{form}{result}</main></body></html>"
    )
