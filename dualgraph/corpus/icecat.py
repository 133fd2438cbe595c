"""Open Icecat product exports (NDJSON, one product per line) into a SpecsQA dataset directory.

An Icecat record holds a ``title``, marketing ``description`` text that ends in a
``Key Specifications:`` block grouped by section (``- **Battery**: Battery capacity:
5000 mAh; …``), and a flat ``attrs`` object. The flat attributes become the spec table;
their sections are recovered from the Key Specifications block (attributes it does not
list fall in the default section). Each product is its own page and range, named by
its title; the Icecat id is kept as spec ``Product ID``. The page text is the whole
description, so the prose stays available to the Textual KG.

Product data from Open Icecat must be attributed: "Product data: Open Icecat
(https://icecat.biz), © Icecat N.V.".
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from dualgraph.corpus.model import Variant
from dualgraph.corpus.report import ImportReport
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.skg.names import DEFAULT_SECTION, short_hash, slug

_KEY_SPECS = "Key Specifications:"
_SECTION_LINE = re.compile(r"^\s*-\s*\*\*(?P<section>[^*]+)\*\*\s*:\s*(?P<items>.*)$")


def key_spec_sections(description: str) -> dict[str, str]:
    """Attribute name -> section, read from the description's Key Specifications block.

    >>> key_spec_sections("Nice phone.\\n\\nKey Specifications:\\n- **Battery**: Battery capacity: 5000 mAh; Battery technology: Li-Ion")
    {'Battery capacity': 'Battery', 'Battery technology': 'Battery'}
    """
    at = description.find(_KEY_SPECS)
    if at < 0:
        return {}
    out: dict[str, str] = {}
    for line in description[at + len(_KEY_SPECS) :].splitlines():
        m = _SECTION_LINE.match(line)
        if not m:
            continue
        for item in m.group("items").split("; "):
            name, sep, _ = item.partition(": ")
            if sep and name.strip():
                out.setdefault(name.strip(), m.group("section").strip())
    return out


def product_variant(record: dict) -> Variant:
    """One Icecat record as a variant; raises ValueError naming what is missing or malformed."""
    title = record.get("title")
    if not isinstance(title, str) or not title.strip():
        raise ValueError("record has no 'title'")
    attrs = record.get("attrs") or {}
    if not isinstance(attrs, dict):
        raise ValueError(f"'attrs' is a {type(attrs).__name__}, not an object")
    sections = key_spec_sections(record.get("description") or "")
    specs: list[tuple[str, str]] = []
    for name, value in attrs.items():
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        specs.append((f"{sections.get(name, DEFAULT_SECTION)}:{name}", text))
    if record.get("id") is not None:
        specs.append(("Product ID", str(record["id"])))
    price, currency = record.get("price"), record.get("currency")
    if isinstance(price, (int, float)) and isinstance(currency, str) and currency.strip():
        specs.append(("Price", f"{price:.2f} {currency.strip().upper()}"))
    if isinstance(record.get("brand"), str) and record["brand"].strip():
        # Icecat's brand field is often the reseller, not the maker: kept, but named for what it is.
        specs.append(("Listing:Brand (as listed)", record["brand"].strip()))
    cats = record.get("categories") or []
    cats = [cats] if isinstance(cats, str) else [c for c in cats if isinstance(c, str) and c.strip()]
    return Variant(name=title.strip(), prod_range=title.strip(), categories=tuple(cats), specs=tuple(specs))


def _records(paths: Iterable[Path], report: ImportReport) -> Iterator[tuple[Path, int, dict]]:
    for path in paths:
        with contextlib.ExitStack() as stack:
            try:
                fh = stack.enter_context(open(path, encoding="utf-8"))
            except OSError as e:
                report.add(path, "file", "read", str(e))
                continue
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    report.add(path, f"line {lineno}", "row", f"malformed JSON: {e}")
                    continue
                if not isinstance(rec, dict):
                    report.add(path, f"line {lineno}", "row", "not a JSON object")
                    continue
                yield path, lineno, rec


def import_icecat(sources: Iterable[str | Path], out_dir: str | Path) -> ImportReport:
    """Write one dataset page per Icecat product; bad lines are quarantined with file and line.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "p.ndjson").write_text(json.dumps({"id": "1", "title": "Phone X", "description": "Fast.",
    ...     "attrs": {"Battery capacity": "5000 mAh"}, "categories": ["Smartphones"]}) + "\\n{oops\\n")
    >>> r = import_icecat([d / "p.ndjson"], d / "ds")
    >>> r.pages, [q.record for q in r.quarantined]
    (1, ['line 2'])
    """
    paths = [Path(s) for s in sources]
    report = ImportReport(source=", ".join(map(str, paths)), out_dir=str(out_dir))

    def pages():
        for path, lineno, rec in _records(paths, report):
            report.records += 1
            try:
                variant = product_variant(rec)
            except ValueError as e:
                report.add(path, f"line {lineno}", "row", str(e))
                continue
            report.variants += 1
            stem = slug(variant.name)[:40].strip("_") + "-" + short_hash(str(rec.get("id", "")), variant.name)
            yield stem, (rec.get("description") or "").strip(), [variant]

    report.pages = write_dataset(out_dir, pages())
    report.write_quarantine(out_dir)
    return report
