"""SpecsQA dataset directories, read and written exactly as the authors' databuilder lays them out.

::

    DATASET/file-<id>/file-<id>.json      metadata: content[*].path_textualized, prescience[*]
    DATASET/file-<id>/part-<id>.md        the page text (Markdown)
    DATASET/file-<id>/inject-<id>.json    rawspecs: a JSON list of variant records

Paths inside the metadata are relative to the dataset root. Reading never stops at a
bad record: whatever cannot be used is returned as :class:`Quarantine` entries next
to the part of the document that could be read.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from dualgraph.corpus.model import Document, Quarantine, Variant

KNOWN_PRESCIENCE = {"rawspecs"}


class DocumentError(Exception):
    """The document as a whole cannot be read (its metadata is unusable)."""


def iter_metadata_files(root: str | os.PathLike) -> Iterator[Path]:
    """Every ``file-*/file-*.json`` metadata file under ``root``, in a stable order."""
    root = Path(root)
    for sub in sorted(root.iterdir()):
        if sub.is_dir() and sub.name.startswith("file-"):
            meta = sub / f"{sub.name}.json"
            if meta.is_file():
                yield meta


def content_hash(meta_path: str | os.PathLike, root: str | os.PathLike, salt: str = "") -> str:
    """A digest of the metadata file and every file it points to (missing ones included by name)."""
    h = hashlib.sha256(salt.encode())
    meta_path = Path(meta_path)
    raw = meta_path.read_bytes()
    h.update(raw)
    try:
        meta = json.loads(raw)
    except ValueError:
        return h.hexdigest()
    for rel in _referenced_paths(meta):
        p = Path(root) / rel
        h.update(rel.encode())
        h.update(p.read_bytes() if p.is_file() else b"\0missing")
    return h.hexdigest()


def _referenced_paths(meta: object) -> list[str]:
    if not isinstance(meta, dict):
        return []
    out = []
    for group, key in (("content", "path_textualized"), ("prescience", "path")):
        items = meta.get(group)
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get(key), str):
                out.append(item[key])
    return out


def read_document(meta_path: str | os.PathLike, root: str | os.PathLike) -> tuple[Document, list[Quarantine]]:
    """Read one dataset document; raises :class:`DocumentError` if its metadata is unusable.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_dataset(d, [("p1", "# Phone", [Variant("Phone X", "Phone X", ("phones",), (("Price", "9.00 GBP"),))])])
    >>> doc, problems = read_document(d / "file-p1" / "file-p1.json", d)
    >>> (doc.doc_id, doc.variants[0].name, problems)
    ('file-p1', 'Phone X', [])
    """
    meta_path = Path(meta_path)
    root = Path(root)
    src = str(meta_path)
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise DocumentError(f"{src}: cannot read metadata: {e}") from e
    except ValueError as e:
        raise DocumentError(f"{src}: malformed metadata JSON: {e}") from e
    if not isinstance(meta, dict):
        raise DocumentError(f"{src}: metadata is a {type(meta).__name__}, not an object")
    doc_id = meta.get("id") or meta_path.parent.name
    if not isinstance(doc_id, str):
        raise DocumentError(f"{src}: metadata 'id' is not a string")
    problems: list[Quarantine] = []

    def bad(record: str, reason: str, file: str = src) -> None:
        problems.append(Quarantine(file=file, record=record, stage="read", reason=reason))

    texts: list[str] = []
    if meta.get("type") not in ("fs:directory", "ignore"):
        content = meta.get("content") or []
        if not isinstance(content, list):
            bad("content", "'content' is not a list")
            content = []
        for i, part in enumerate(content):
            rel = part.get("path_textualized") if isinstance(part, dict) else None
            if not isinstance(rel, str):
                bad(f"content[{i}]", "content part has no 'path_textualized'")
                continue
            path = root / rel
            try:
                texts.append(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                bad(f"content[{i}]", "markdown file is missing", file=str(path))
            except (OSError, UnicodeDecodeError) as e:
                bad(f"content[{i}]", f"cannot read markdown: {e}", file=str(path))

    variants: list[Variant] = []
    prescience = meta.get("prescience") or []
    if not isinstance(prescience, list):
        bad("prescience", "'prescience' is not a list")
        prescience = []
    for i, pre in enumerate(prescience):
        if not isinstance(pre, dict) or not isinstance(pre.get("path"), str):
            bad(f"prescience[{i}]", "prescience entry has no 'path'")
            continue
        fmt = pre.get("format")
        path = root / pre["path"]
        if fmt not in KNOWN_PRESCIENCE:
            bad(
                f"prescience[{i}]",
                f"unknown prescience format {fmt!r} (known: {sorted(KNOWN_PRESCIENCE)})",
                file=str(path),
            )
            continue
        try:
            records = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            bad(f"prescience[{i}]", "prescience file is missing", file=str(path))
            continue
        except ValueError as e:
            bad(f"prescience[{i}]", f"malformed or truncated JSON: {e}", file=str(path))
            continue
        if isinstance(records, dict):
            records = [records]
        if not isinstance(records, list):
            bad(f"prescience[{i}]", f"rawspecs is a {type(records).__name__}, not a list", file=str(path))
            continue
        for j, rec in enumerate(records):
            label = f"variant[{j}]"
            if isinstance(rec, dict) and isinstance(rec.get("name"), str):
                label += f" {rec['name']!r}"
            notes: list[str] = []
            try:
                variants.append(Variant.from_record(rec, notes))
            except ValueError as e:
                bad(label, str(e), file=str(path))
                continue
            for note in notes:
                bad(label, note, file=str(path))
    doc = Document(doc_id=doc_id, source=src, text="\n\n".join(texts), variants=variants)
    return doc, problems


def write_dataset(root: str | os.PathLike, pages: Iterable[tuple[str, str, list[Variant]]]) -> int:
    """Write ``(stem, markdown, variants)`` pages as a SpecsQA dataset directory; returns the page count.

    Files are written atomically (temp file + rename), so an interrupted import never
    leaves a half-written page that a later index run would read.
    """
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    n = 0
    for stem, markdown, variants in pages:
        fid = f"file-{stem}"
        d = root / fid
        d.mkdir(exist_ok=True)
        md_rel = f"{fid}/part-{stem}.md"
        _atomic_write(root / md_rel, markdown)
        meta: dict = {
            "id": fid,
            "type": "fs:file",
            "content": [{"id": f"part-{stem}", "path": md_rel, "path_textualized": md_rel}],
            "name": f"{stem}.md",
            "path": md_rel,
        }
        if variants:
            inj_rel = f"{fid}/inject-{stem}.json"
            recs = [v.to_record() for v in variants]
            _atomic_write(root / inj_rel, json.dumps(recs, ensure_ascii=False, indent=1))
            meta["prescience"] = [{"format": "rawspecs", "path": inj_rel}]
        _atomic_write(d / f"{fid}.json", json.dumps(meta, ensure_ascii=False, indent=1))
        n += 1
    return n


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
