"""Query results as context for answer generation: a Markdown table with the query that produced it."""

from __future__ import annotations

from dualgraph.query.sparql.safety import QueryResult


def _cell(binding: dict | None) -> str:
    if not binding:
        return ""
    text = binding["value"]
    if binding.get("type") == "uri":
        text = text.rsplit("#", 1)[-1]
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(result: QueryResult, *, max_rows: int = 50, title: str | None = None) -> str:
    """The rows as a Markdown table, the SPARQL in a code block, and a note when rows were cut.

    >>> r = QueryResult(query="SELECT ?n WHERE { ?p skg:hasName ?n }", vars=["n"],
    ...                 rows=[{"n": {"type": "literal", "value": "Phone A"}}], total_rows=1)
    >>> print(render_markdown(r))
    | n |
    | --- |
    | Phone A |
    <BLANKLINE>
    1 row from:
    ```sparql
    SELECT ?n WHERE { ?p skg:hasName ?n }
    ```
    """
    lines = [f"**{title}**", ""] if title else []
    lines.append("| " + " | ".join(result.vars) + " |")
    lines.append("| " + " | ".join("---" for _ in result.vars) + " |")
    shown = result.rows[:max_rows]
    for row in shown:
        lines.append("| " + " | ".join(_cell(row.get(v)) for v in result.vars) + " |")
    lines.append("")
    total = result.total_rows
    # a cut result was read only up to one row past the cap: its true size is unknown
    note = f"more than {result.row_cap} rows" if result.truncated else f"{total} row{'s' if total != 1 else ''}"
    if len(shown) < total:
        note += f" ({len(shown)} shown"
        note += "; the query's result was cut there)" if result.truncated else ")"
    lines.append(f"{note} from:")
    lines += ["```sparql", result.query.strip(), "```"]
    return "\n".join(lines)
