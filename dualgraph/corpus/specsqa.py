"""SpecsQA dataset directories, read and written exactly as the authors' databuilder lays them out.

::

    DATASET/file-<id>/file-<id>.json      metadata: content[*].path_textualized, prescience[*]
    DATASET/file-<id>/part-<id>.md        the page text (Markdown)
    DATASET/file-<id>/inject-<id>.json    rawspecs: a JSON list of variant records

Paths inside the metadata are relative to the dataset root and never lead out of it
(:mod:`dualgraph.corpus.paths`). Reading never stops at a
bad record: whatever cannot be used is returned as :class:`Quarantine` entries next
to the part of the document that could be read.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from dualgraph.corpus.clean import clean_text, shown
from dualgraph.corpus.limits import ReadLimits
from dualgraph.corpus.model import Document, Quarantine, Variant
from dualgraph.corpus.paths import FileMissing, PathRefused, parse_json, read_limited, resolve_inside
from dualgraph.corpus.stamps import FileStamp

KNOWN_PRESCIENCE = {"rawspecs"}


class DocumentError(Exception):
    """The document as a whole cannot be read (its metadata is unusable)."""


@dataclass
class DatasetScan:
    """What a dataset directory holds: document metadata paths (relative to the root) and
    every other entry with the reason it is not a document, so nothing is skipped unseen."""

    documents: list[str] = field(default_factory=list)
    ignored: list[dict[str, str]] = field(default_factory=list)


def scan_dataset(root: str | os.PathLike) -> DatasetScan:
    """Sort the entries of a dataset directory into documents and ignored entries (with reasons).

    A ``file-<id>/`` directory is a document even when its metadata is missing or broken:
    reading it then quarantines it with the reason. An empty one is ignored.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for sub in ("file-a", "file-b", "notes"):
    ...     (d / sub).mkdir()
    >>> _ = (d / "file-a" / "file-a.json").write_text("{}")
    >>> _ = (d / "README.txt").write_text("x")
    >>> s = scan_dataset(d)
    >>> s.documents
    ['file-a/file-a.json']
    >>> [(i["path"], i["reason"]) for i in s.ignored]  # doctest: +NORMALIZE_WHITESPACE
    [('README.txt', 'not a document directory (documents are file-<id>/ directories)'),
     ('file-b', 'empty document directory'),
     ('notes', 'not a document directory (documents are file-<id>/ directories)')]
    """
    root = Path(root)
    scan = DatasetScan()
    for sub in sorted(root.iterdir()):
        name = sub.name
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            # undecodable bytes in a file name: no graph name, state key or Arrow column can hold it
            scan.ignored.append({"path": ascii(name), "reason": "name is not valid UTF-8 (rename it to index it)"})
            continue
        if not name.startswith("file-"):
            scan.ignored.append(
                {"path": name, "reason": "not a document directory (documents are file-<id>/ directories)"}
            )
            continue
        try:
            is_dir = sub.is_dir()
            empty = is_dir and next(sub.iterdir(), None) is None
        except OSError as e:
            scan.ignored.append({"path": name, "reason": f"cannot list: {e}"})
            continue
        if not is_dir:
            scan.ignored.append({"path": name, "reason": "named like a document directory but not a directory"})
        elif empty:
            scan.ignored.append({"path": name, "reason": "empty document directory"})
        else:
            scan.documents.append(f"{name}/{name}.json")
    return scan


def iter_metadata_files(root: str | os.PathLike) -> Iterator[Path]:
    """The metadata path of every document directory under ``root``, in a stable order."""
    root = Path(root)
    for rel in scan_dataset(root).documents:
        yield root / rel


def metadata_path(meta_path: str | os.PathLike, given_root: str | os.PathLike) -> Path:
    """The metadata file, confined to the dataset root; :class:`DocumentError` saying why not."""
    meta_path = Path(meta_path)
    root = Path(given_root).resolve()
    rel = meta_path
    for base in (Path(given_root), root, Path(given_root).absolute()):
        if meta_path.is_relative_to(base):
            rel = meta_path.relative_to(base)
            break
    try:
        return resolve_inside(root, str(rel))
    except FileMissing:
        try:
            held = sorted(p.name for p in meta_path.parent.iterdir())[:5]
        except OSError:
            held = []
        raise DocumentError(
            f"{meta_path}: no metadata file {meta_path.name} in the document directory"
            + (f" (it holds {', '.join(held)})" if held else "")
        ) from None
    except (PathRefused, ValueError) as e:
        raise DocumentError(f"{meta_path}: metadata {e}") from e


def content_hash(
    meta_path: str | os.PathLike,
    root: str | os.PathLike,
    salt: str = "",
    *,
    limits: ReadLimits | None = None,
    stamp: FileStamp | None = None,
) -> str:
    """A digest of the metadata file and every file it points to.

    A referenced path that is refused (missing, outside the root, too large) enters the
    digest as its reason, so fixing it counts as a change. With ``stamp``, each file is
    stamped just before it is read (:mod:`dualgraph.corpus.stamps`), so the next run can tell
    it unchanged without reading it.
    """
    limits = limits or ReadLimits()
    meta = metadata_path(meta_path, root)
    root = Path(root).resolve()
    h = hashlib.sha256(salt.encode())
    if stamp is not None:
        stamp.add(meta)
    try:
        raw = read_limited(meta, limits.max_metadata_bytes)
    except (OSError, PathRefused) as e:
        raise DocumentError(f"{meta}: metadata {e}") from e
    h.update(raw)
    try:
        parsed = parse_json(raw)
    except ValueError:
        return h.hexdigest()
    for rel in _referenced_paths(parsed):
        h.update(rel.encode("utf-8", "surrogatepass"))
        try:
            path = resolve_inside(root, rel)
            if stamp is not None:
                stamp.add(path)
            h.update(read_limited(path, limits.max_file_bytes))
        except PathRefused as e:
            if stamp is not None:  # stamped as it is (often: not there), so that fixing it shows
                stamp.add(root / rel)
            h.update(b"\0" + str(e).encode("utf-8", "surrogatepass"))
        except OSError as e:
            h.update(b"\0" + str(e).encode("utf-8", "surrogatepass"))
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


def read_document(
    meta_path: str | os.PathLike, root: str | os.PathLike, *, limits: ReadLimits | None = None
) -> tuple[Document, list[Quarantine]]:
    """Read one dataset document; raises :class:`DocumentError` if its metadata is unusable.

    Every path the metadata names must resolve inside ``root``; files and values over
    ``limits`` are refused. Either way the part is left out with a :class:`Quarantine` record.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_dataset(d, [("p1", "# Phone", [Variant("Phone X", "Phone X", ("phones",), (("Price", "9.00 GBP"),))])])
    >>> doc, problems = read_document(d / "file-p1" / "file-p1.json", d)
    >>> (doc.doc_id, doc.variants[0].name, problems)
    ('file-p1', 'Phone X', [])
    """
    limits = limits or ReadLimits()
    meta_file = metadata_path(meta_path, root)
    root = Path(root).resolve()
    src = str(meta_file)
    try:
        meta = parse_json(read_limited(meta_file, limits.max_metadata_bytes))
    except (OSError, PathRefused) as e:
        raise DocumentError(f"{src}: cannot read metadata: {e}") from e
    except ValueError as e:
        raise DocumentError(f"{src}: malformed metadata JSON: {e}") from e
    if not isinstance(meta, dict):
        raise DocumentError(f"{src}: metadata is a {type(meta).__name__}, not an object")
    doc_id = meta.get("id") or meta_file.parent.name
    if not isinstance(doc_id, str):
        raise DocumentError(f"{src}: metadata 'id' is not a string")
    problems: list[Quarantine] = []

    def bad(record: str, reason: str, file: str = src) -> None:
        problems.append(Quarantine(file=file, record=record, stage="read", reason=reason))

    def part(record: str, rel: str, what: str) -> bytes | None:
        shown_path = str(root / rel) if not Path(rel).is_absolute() else rel
        try:
            return read_limited(resolve_inside(root, rel), limits.max_file_bytes)
        except FileMissing:
            bad(record, f"{what} file is missing", file=shown_path)
        except PathRefused as e:
            # the record names the metadata that holds the path: the path itself may lie outside
            bad(record, f"{what} path {shown(rel)} refused: {e}")
        except OSError as e:
            bad(record, f"cannot read {what}: {e}", file=shown_path)
        return None

    texts: list[str] = []
    if meta.get("type") not in ("fs:directory", "ignore"):
        content = meta.get("content") or []
        if not isinstance(content, list):
            bad("content", "'content' is not a list")
            content = []
        for i, item in enumerate(content):
            rel = item.get("path_textualized") if isinstance(item, dict) else None
            if not isinstance(rel, str):
                bad(f"content[{i}]", "content part has no 'path_textualized'")
                continue
            data = part(f"content[{i}]", rel, "markdown")
            if data is None:
                continue
            try:
                text, changes = clean_text(data.decode("utf-8-sig"))
            except UnicodeDecodeError as e:
                bad(f"content[{i}]", f"cannot read markdown: not UTF-8 ({e})", file=str(root / rel))
                continue
            if changes:
                bad(
                    f"content[{i}]",
                    f"markdown: {', '.join(changes)} removed (the rest is indexed)",
                    file=str(root / rel),
                )
            texts.append(text)

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
        rel = pre["path"]
        where = str(root / rel) if not Path(rel).is_absolute() else rel
        if fmt not in KNOWN_PRESCIENCE:
            bad(
                f"prescience[{i}]", f"unknown prescience format {fmt!r} (known: {sorted(KNOWN_PRESCIENCE)})", file=where
            )
            continue
        data = part(f"prescience[{i}]", rel, "prescience")
        if data is None:
            continue
        try:
            records = parse_json(data)
        except ValueError as e:
            bad(f"prescience[{i}]", f"malformed or truncated JSON: {e}", file=where)
            continue
        if isinstance(records, dict):
            records = [records]
        if not isinstance(records, list):
            bad(f"prescience[{i}]", f"rawspecs is a {type(records).__name__}, not a list", file=where)
            continue
        if len(records) > limits.max_variants_per_file:
            bad(
                f"prescience[{i}]",
                f"{len(records):,} variant records, over the limit of {limits.max_variants_per_file:,}: "
                f"records {limits.max_variants_per_file:,} onwards are not read",
                file=where,
            )
            records = records[: limits.max_variants_per_file]
        for j, rec in enumerate(records):
            label = f"variant[{j}]"
            if isinstance(rec, dict) and isinstance(rec.get("name"), str):
                label += f" {shown(rec['name'], 80)}"
            notes: list[str] = []
            try:
                variants.append(Variant.from_record(rec, notes, max_chars=limits.max_value_chars))
            except ValueError as e:
                bad(label, str(e), file=where)
                continue
            for note in notes:
                bad(label, note, file=where)
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
