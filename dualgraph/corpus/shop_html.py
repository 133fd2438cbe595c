"""Raw shop pages (the Samsung UK scrape) to variants, Markdown and a SpecsQA dataset dir.

The scraper stores one JSON per variant (``html``, ``variant_name`` joined with
``<SEP>``, ``variant_features``, ``product_range``, ``price``, ``model_code``, ``url``,
``url_hash``, ``layout_type``) next to a ``<url_hash>.html`` copy of each page.
:func:`import_scrape` groups the variants by page and writes one dataset document per
page; every record it cannot use is kept as a :class:`Quarantine` entry with its file,
record and reason. Spec Markdown (:mod:`dualgraph.corpus.markdown`), prices
(:mod:`dualgraph.corpus.prices`) and :class:`ImportReport` (:mod:`dualgraph.corpus.report`)
are shared with the table importer, so both render specs the same way.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup, Tag
from tqdm import tqdm

from dualgraph.corpus.markdown import CHUNK_BREAK, chunk_lines, specs_chunks
from dualgraph.corpus.model import Quarantine, Variant
from dualgraph.corpus.prices import parse_price
from dualgraph.corpus.report import ImportReport
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.skg.names import DEFAULT_SECTION

__all__ = [
    "SpecTable",
    "categories_from_url",
    "import_scrape",
    "page_markdown",
    "page_title",
    "parse_html_page",
    "parse_scraped_variant",
    "parse_spec_table",
]

# Outputs of the reference databuilder that can sit in a scrape dir; they are not records.
_NOT_RECORDS = {"specs.json", "metadata.json"}


# --------------------------------------------------------------------------- small parsers


def categories_from_url(url: str) -> tuple[str, ...]:
    """Category slugs as the reference takes them (``url.split('/')[4:-2]``), with the
    query dropped and a trailing slash assumed, so both spellings of a link agree.

    >>> categories_from_url("https://www.samsung.com/uk/smartphones/galaxy-z/galaxy-z-fold7/buy/?modelCode=X")
    ('smartphones', 'galaxy-z', 'galaxy-z-fold7')
    """
    path = urlsplit(url.strip()).path if url else ""
    if not path.endswith("/"):
        path += "/"
    return tuple(unquote(s) for s in path.split("/")[2:-2] if s)


# --------------------------------------------------------------------------- spec tables


@dataclass(slots=True)
class SpecTable:
    """A page's spec table: ordered ``("Section:Entry", value)`` pairs and what went wrong."""

    pairs: list[tuple[str, str]]
    parser: str | None  # "A", "B" or "table"; None when no table was found
    problems: list[tuple[str, str]]  # (record, reason)


def _text(el: Tag | None) -> str:
    return " ".join(el.get_text(" ", strip=True).split()) if el is not None else ""


def _soup(html: str | BeautifulSoup) -> BeautifulSoup:
    return html if isinstance(html, BeautifulSoup) else BeautifulSoup(html, "lxml")


def _layout_a(soup: BeautifulSoup) -> list[tuple[str, str, str]]:
    out = []
    for root in soup.select("section#specs"):
        for item in root.select("div.pdd32-product-spec__item"):
            section = _text(item.select_one(".pdd32-product-spec__title"))
            for li in item.select("li.pdd32-product-spec__content-item"):
                out.append(
                    (
                        section,
                        _text(li.select_one(".pdd32-product-spec__content-item-title")),
                        _text(li.select_one(".pdd32-product-spec__content-item-desc")),
                    )
                )
    return out


def _hidden(el: Tag) -> bool:
    style = str(el.get("style") or "").replace(" ", "").lower()  # a single-valued attribute: a str
    return el.get("aria-hidden") == "true" or el.has_attr("hidden") or "display:none" in style


def _layout_b(soup: BeautifulSoup) -> list[tuple[str, str, str]]:
    tables = soup.select("div.specification__table")
    # A layout-B page keeps the tables of every tab; the shown one is the selected variant's.
    shown = [t for t in tables if not _hidden(t)] or tables
    out = []
    for table in shown:
        for row in table.select("div.specification__row"):
            section = _text(row.find(["h3", "h4"]))
            for li in row.find_all("li"):
                if li.find_parent("div", class_="detail") is not None:
                    continue  # a list inside a value belongs to that value
                name, detail = li.select_one("div.name"), li.select_one("div.detail")
                if name is None and detail is None:
                    continue
                items = detail.find_all("li") if detail is not None else []
                value = ", ".join(_text(i) for i in items) if items else _text(detail)
                out.append((section, _text(name), value))
    return out


def _generic_tables(soup: BeautifulSoup) -> list[tuple[str, str, str]]:
    out = []
    for table in soup.find_all("table"):
        heading = table.find_previous(["h2", "h3", "h4"])
        section = _text(table.find("caption")) or _text(heading)
        for tr in table.find_all("tr"):
            cells = tr.find_all(["th", "td"], recursive=False)
            if len(cells) == 1 and (cells[0].name == "th" or cells[0].get("colspan")):
                section = _text(cells[0])
            elif len(cells) >= 2 and not all(c.name == "th" for c in cells):
                out.append((section, _text(cells[0]), "; ".join(_text(c) for c in cells[1:] if _text(c))))
    for dl in soup.find_all("dl"):
        section = _text(dl.find_previous(["h2", "h3", "h4"]))
        for dt in dl.find_all("dt"):
            out.append((section, _text(dt), _text(dt.find_next_sibling("dd"))))
    return out


_PARSERS = {"A": _layout_a, "B": _layout_b, "table": _generic_tables}


def parse_spec_table(html: str | BeautifulSoup, *, layout: str | None = "C") -> SpecTable:
    """Read the spec table: the declared layout first, then the others, then plain tables.

    An item without a title is keyed by its section; repeated keys keep every distinct
    value, joined with ``", "`` (several untitled items make one list-valued entry).

    >>> t = parse_spec_table("<table><tr><th>Weight</th><td>190 g</td></tr></table>")
    >>> t.pairs, t.parser
    ([('Specifications:Weight', '190 g')], 'table')
    """
    soup = _soup(html)
    order = ["B", "A", "table"] if (layout or "").upper() == "B" else ["A", "B", "table"]
    problems: list[tuple[str, str]] = []
    for name in order:
        values: dict[str, list[str]] = {}
        for section, entry, value in _PARSERS[name](soup):
            section = section or DEFAULT_SECTION
            key = f"{section}:{entry or section}"
            if not value:
                problems.append((f"spec item {key!r}", "spec item has no value; left out"))
                continue
            bucket = values.setdefault(key, [])
            if value not in bucket:
                bucket.append(value)
        if values:  # a table whose items all lack values does not count as found
            return SpecTable([(k, ", ".join(v)) for k, v in values.items()], name, problems)
    return SpecTable([], None, problems)


# --------------------------------------------------------------------------- variants


def parse_scraped_variant(obj: dict, *, source: str) -> tuple[Variant, list[Quarantine]]:
    """One scraper JSON record as a :class:`Variant`, plus notes on what could not be used.

    Raises ``ValueError`` when the record cannot name a variant at all. A missing spec
    table or price does not sink the variant: it is kept with what could be read.

    >>> v, notes = parse_scraped_variant({"variant_name": "Galaxy A<SEP>Black", "price": "£199",
    ...     "model_code": "SM-A1", "url": "https://x/uk/smartphones/galaxy-a/buy/",
    ...     "variant_features": ["Colour:Black"],
    ...     "html": "<html><table><tr><th>RAM</th><td>4 GB</td></tr></table></html>"}, source="a.json")
    >>> v.name, v.categories, dict(v.specs)["Price"], dict(v.specs)["Variant features:Colour"], notes
    ('Galaxy A Black', ('smartphones', 'galaxy-a'), '199 GBP', 'Black', [])
    """
    if not isinstance(obj, dict):
        raise ValueError(f"record is a {type(obj).__name__}, not an object")
    name = obj.get("variant_name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("record has no 'variant_name'")
    notes: list[Quarantine] = []

    def note(record: str, reason: str) -> None:
        notes.append(Quarantine(file=source, record=record, stage="parse", reason=reason))

    specs: dict[str, str] = {}
    html = obj.get("html")
    if not isinstance(html, str) or not html.strip():
        note("html", "record has no page HTML; spec table not read")
    else:
        if "</html>" not in html[-4096:].lower():
            note("html", "HTML looks truncated (no closing </html>); used what could be parsed")
        table = parse_spec_table(html, layout=obj.get("layout_type"))
        if table.parser is None:
            note("html", f"no spec table found (layout {obj.get('layout_type')!r}; tried A, B, plain tables)")
        for record, reason in table.problems:
            note(record, reason)
        specs.update(table.pairs)
    price = parse_price(obj.get("price")) if isinstance(obj.get("price"), str) else None
    if price:
        specs.setdefault("Price", price)
    code = obj.get("model_code")
    if isinstance(code, str) and code.strip():
        specs.setdefault("Model Code", code.strip())
    feats = obj.get("variant_features") or []
    for i, feat in enumerate(feats if isinstance(feats, list) else [feats]):
        k, sep, v = feat.partition(":") if isinstance(feat, str) else ("", "", "")
        if not sep or not k.strip() or not v.strip():
            note(f"variant_features[{i}]", f"not a 'key:value' string: {feat!r}")
            continue
        specs.setdefault(f"Variant features:{k.strip()}", v.strip())
    rng = obj.get("product_range")
    url = obj.get("url")
    rec = {
        "name": name,
        "prod_range": rng if isinstance(rng, str) else None,
        "categories": list(categories_from_url(url)) if isinstance(url, str) else [],
        "specs": specs,
    }
    # Built through from_record so the written record reads back to an equal Variant.
    return Variant.from_record(rec), notes


def page_title(html: str | BeautifulSoup) -> str:
    """The page's ``<title>`` without a trailing ``| Site`` part ('' when there is none).

    >>> page_title("<title>Galaxy S25 Ultra | Samsung UK</title>")
    'Galaxy S25 Ultra'
    """
    title = _text(_soup(html).find("title"))
    parts = [p.strip() for p in title.split(" | ")]
    return " | ".join(parts[:-1]) if len(parts) > 1 and parts[0] else title


def parse_html_page(html: str, *, source: str) -> tuple[list[Variant], list[Quarantine]]:
    """A bare saved page as one variant named after its title; none when it has no spec
    table (a page without specs is text only, not a product).

    >>> vs, notes = parse_html_page("<title>Buds | Shop</title><dl><dt>Weight</dt><dd>5 g</dd></dl>", source="p.html")
    >>> [(v.name, v.specs) for v in vs], notes
    ([('Buds', (('Specifications:Weight', '5 g'),))], [])
    """
    soup = _soup(html)
    notes: list[Quarantine] = []
    title = page_title(soup)
    table = parse_spec_table(soup)
    notes += [Quarantine(source, r, "parse", why) for r, why in table.problems]
    if not title:
        notes.append(Quarantine(source, "title", "parse", "page has no <title>; no variant can be named"))
        return [], notes
    if table.parser is None:
        notes.append(Quarantine(source, "html", "parse", "no spec table found (tried A, B, plain tables)"))
        return [], notes
    link = soup.find("link", rel="canonical") or soup.find("meta", property="og:url")
    url = str(link.get("href") or link.get("content") or "") if link else ""
    rec = {
        "name": title,
        "prod_range": title,
        "categories": list(categories_from_url(url)) if url else [],
        "specs": dict(table.pairs),
    }
    return [Variant.from_record(rec)], notes


# --------------------------------------------------------------------------- page markdown


def _outermost(soup: BeautifulSoup, wanted) -> list[Tag]:
    found = soup.find_all(lambda t: t.name == "div" and wanted(t))
    return [t for t in found if not any(p.name == "div" and wanted(p) for p in t.parents)]


def _is_feature(t: Tag) -> bool:
    return any(c.startswith(("hubble-feature-", "feature-")) for c in t.get("class") or [])


def _is_faq(t: Tag) -> bool:
    return any(c.endswith("faq__accordion") for c in t.get("class") or [])


def _block_lines(block: Tag) -> list[str]:
    lines: list[str] = []
    for s in block.stripped_strings:
        s = " ".join(s.split())
        if s and (not lines or lines[-1] != s):
            lines.append(s)
    alts = dict.fromkeys(" ".join(str(img.get("alt") or "").split()) for img in block.find_all("img"))
    return lines + [f"Image description: {a}" for a in alts if a]  # document order, deduplicated


def page_markdown(html: str, variants: list[Variant], *, chunk_chars: int = 5000, title: str | None = None) -> str:
    """A page as Markdown chunks separated by ``[CHUNK_BREAK]``: each feature block, each
    FAQ block, then the specs per variant. Navigation, promos and loose text are dropped.

    >>> html = '<title>Buds | Shop</title><div class="feature-intro"><h2>Sound</h2><span class="blind">x</span></div>'
    >>> print(page_markdown(html, []))
    # Feature from the "Buds" page
    Sound
    <BLANKLINE>
    """
    soup = _soup(html)
    for el in soup.select(".blind, script, style, noscript, template"):
        el.decompose()  # screen-reader duplicates and code are not page text
    title = title or page_title(soup) or (variants[0].prod_range if variants else "untitled")
    chunks: list[str] = []
    for block in _outermost(soup, _is_feature):
        chunks += chunk_lines(f'# Feature from the "{title}" page', _block_lines(block), chunk_chars=chunk_chars)
    for block in _outermost(soup, _is_faq):
        chunks += chunk_lines(f'# FAQ from the "{title}" page', _block_lines(block), chunk_chars=chunk_chars)
    chunks += specs_chunks(variants, title=title, chunk_chars=chunk_chars)
    return f"\n\n{CHUNK_BREAK}\n\n".join(chunks) + "\n"


# --------------------------------------------------------------------------- import


def _page_stem(obj: dict, path: Path) -> str:
    h = obj.get("url_hash")
    if isinstance(h, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,64}", h):
        return h
    url = obj.get("url")
    if isinstance(url, str) and url.strip():  # the scraper's own rule for url_hash
        return hashlib.md5(url.encode("utf-8")).hexdigest()[:16]
    return re.sub(r"[^A-Za-z0-9_-]", "_", path.stem)


def _read_text(path: Path, report: ImportReport, record: str) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        report.add(str(path), record, "read", f"cannot read file: {e}")
        return None


def import_scrape(
    src_dir: str | Path, out_dir: str | Path, *, chunk_chars: int = 5000, progress: bool = True
) -> ImportReport:
    """Turn a scrape directory (variant JSONs and ``<url_hash>.html`` pages, searched
    recursively) into a SpecsQA dataset dir: one document per page, stem = ``url_hash``.

    Pages without variant JSONs are read as bare pages (:func:`parse_html_page`).
    Duplicated variants (same model code and name on a page) are written once.
    """
    src, out = Path(src_dir), Path(out_dir)
    report = ImportReport(source=str(src), out_dir=str(out))
    files = sorted(
        p
        for p in src.rglob("*")
        if p.is_file() and p.suffix.lower() in (".json", ".html", ".htm") and p.name not in _NOT_RECORDS
    )
    html_files: dict[str, Path] = {}
    pages: dict[str, list[tuple[Variant, Path]]] = {}
    for path in tqdm(files, desc="scrape files", unit="file", disable=not progress):
        if path.suffix.lower() != ".json":
            html_files[path.stem] = path
            continue
        report.records += 1
        raw = _read_text(path, report, "file")
        if raw is None:
            continue
        try:
            obj = json.loads(raw)
            variant, notes = parse_scraped_variant(obj, source=str(path))
        except ValueError as e:  # json.JSONDecodeError is a ValueError too
            reason = f"malformed JSON: {e}" if isinstance(e, json.JSONDecodeError) else str(e)
            report.add(str(path), "record", "read" if isinstance(e, json.JSONDecodeError) else "parse", reason)
            continue
        report.quarantined += notes
        page = pages.setdefault(_page_stem(obj, path), [])
        dup = next((p for v, p in page if (v.model_code, v.name) == (variant.model_code, variant.name)), None)
        if dup is not None:
            report.add(
                str(path),
                f"variant {variant.name!r}",
                "duplicate",
                f"same model code and name as {dup.name}; kept once",
            )
            continue
        page.append((variant, path))

    def page_html(stem: str) -> str:
        if stem in html_files:
            text = _read_text(html_files[stem], report, "page")
            if text is not None:
                return text
        for _, path in pages.get(stem, []):
            obj = json.loads(path.read_text(encoding="utf-8"))  # read fine a moment ago
            if isinstance(obj.get("html"), str) and obj["html"].strip():
                return obj["html"]
        return ""

    def build() -> Iterable[tuple[str, str, list[Variant]]]:
        for stem in sorted(set(pages) | set(html_files)):
            html = page_html(stem)
            variants = [v for v, _ in pages.get(stem, [])]
            if stem not in pages:
                report.records += 1
                variants, notes = parse_html_page(html, source=str(html_files[stem]))
                report.quarantined.extend(notes)
            report.variants += len(variants)
            yield stem, page_markdown(html, variants, chunk_chars=chunk_chars), variants

    report.pages = write_dataset(out, tqdm(build(), desc="write pages", unit="page", disable=not progress))
    report.write_quarantine(out)
    return report
