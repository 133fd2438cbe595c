"""The stages of the index pipeline: read documents, convert specs to triples, write shards.

Each stage is a :class:`~dualgraph.pipeline.stage.Stage`; the driver in
:mod:`dualgraph.pipeline.index` chains them over Ray Data or inline.
Row status is one of ``"ok"`` (read and converted), ``"unchanged"`` (same content
as the last run: skipped) and ``"quarantined"`` (unreadable as a whole).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import NamedTuple

from dualgraph.corpus.limits import ReadLimits
from dualgraph.corpus.model import Quarantine, Variant
from dualgraph.corpus.specsqa import DocumentError, content_hash, read_document
from dualgraph.corpus.stamps import FileStamp, stamp_holds, stamp_key
from dualgraph.pipeline.faults import fault_point
from dualgraph.pipeline.stage import Row, Stage
from dualgraph.skg import ontology as O
from dualgraph.skg.names import product_iri
from dualgraph.skg.ontology import DEFAULT_MARKET
from dualgraph.skg.spec_table import QUANTITY_COLUMNS, VALUE_COLUMNS, write_spec_tables
from dualgraph.skg.triples import CONVERTER_VERSION, convert_document


def _problems(items: list[Quarantine]) -> list[dict[str, str]]:
    return [q.to_dict() for q in items]


def read_stage(
    root: str, previous: dict[str, str], *, salt: str = CONVERTER_VERSION, limits: ReadLimits | None = None
) -> Stage:
    """Reads each document, or marks it unchanged when its content hash matches ``previous``.

    ``previous`` maps a metadata path (relative to ``root``) to its last content hash;
    ``salt`` names everything else that decides the output (converter and extractor
    versions), so changing them re-processes every document. Whatever goes wrong with
    one document (a directory where a file should be, a symlink loop, JSON nested past
    the recursion limit, a file over ``limits``) quarantines that document alone.
    """
    limits = limits or ReadLimits()

    def fn(rows: list[Row]) -> list[Row]:
        return [
            _read_one(Path(root), row["meta_path"], previous, salt, limits, known=row.get("known_hash")) for row in rows
        ]

    return Stage(
        "read",
        needs=("meta_path",),
        adds=(
            "doc_id",
            "source",
            "content_hash",
            "status",
            "variants",
            "problems",
            "text",
            "products",
            "stamp",
        ),
        fn=fn,
    )


class Unchanged(NamedTuple):
    """What :func:`unchanged_documents` found: the unchanged documents' hashes by metadata path,
    fresh stamps for those whose stamp could not vouch for them, and how many were hashed."""

    hashes: dict[str, str]
    restamped: dict[str, dict]
    hashed: int


def unchanged_documents(
    root: str | Path,
    metas: list[str],
    previous: dict[str, str],
    *,
    salt: str = CONVERTER_VERSION,
    limits: ReadLimits | None = None,
    progress: bool = False,
    stamps: dict[str, dict | None] | None = None,
) -> Unchanged:
    """The documents whose content hash is still the one in ``previous``.

    Hashing is cheap next to reading and converting, so the driver does it for every known
    document before deciding where the rest runs: a re-index that changed a few documents
    converts them in this process instead of starting Ray's workers for all of them. A
    document whose ``stamps`` entry (the last run's :class:`~dualgraph.corpus.stamps.FileStamp`)
    still holds is not even read. A document whose hash cannot be computed is left to the read
    stage, which reports why.
    """
    from tqdm import tqdm

    limits = limits or ReadLimits()
    key = stamp_key(salt, limits)
    stamps = stamps or {}
    out: dict[str, str] = {}
    restamped: dict[str, dict] = {}
    hashed = 0
    known = [m for m in metas if m in previous]
    for rel in tqdm(known, desc="compare", unit="doc", disable=not progress or not known, mininterval=0.5):
        if stamp_holds(root, stamps.get(rel), key):
            out[rel] = previous[rel]
            continue
        stamp = FileStamp(root, key)
        try:
            digest = content_hash(Path(root) / rel, Path(root), salt=salt, limits=limits, stamp=stamp)
        except Exception:  # the read stage quarantines it with the reason
            continue
        hashed += 1
        if digest == previous[rel]:
            out[rel] = digest
            restamped[rel] = stamp.to_dict()  # racy or stamped by an older version: vouches next time
    return Unchanged(out, restamped, hashed)


def _read_one(
    root: Path, rel: str, previous: dict[str, str], salt: str, limits: ReadLimits, *, known: str | None = None
) -> Row:
    meta = root / rel
    # The directory name keys the graph and the state, not the metadata 'id' (two
    # files could claim the same id); the scan only passes names that are valid UTF-8.
    base: Row = {
        "doc_id": Path(rel).parent.name,
        "source": str(meta),
        "content_hash": "",
        "variants": [],
        "problems": [],
        "text": "",
        "products": [],
        "stamp": None,
    }

    def quarantined(reason: str) -> Row:
        q = Quarantine(file=str(meta), record="document", stage="read", reason=reason)
        return {**base, "status": "quarantined", "problems": _problems([q])}

    try:
        fault_point("read")
        # a hash the driver just computed and found unchanged is not computed again
        digest = known if known is not None and previous.get(rel) == known else None
        if digest is None:
            stamp = FileStamp(root, stamp_key(salt, limits))
            digest = content_hash(meta, root, salt=salt, limits=limits, stamp=stamp)
            base["stamp"] = stamp.to_row()
        base["content_hash"] = digest
        if previous.get(rel) == digest:
            return {**base, "status": "unchanged"}
        doc, problems = read_document(meta, root, limits=limits)
        return {
            **base,
            "source": doc.source,
            "status": "ok",
            "variants": [v.to_row() for v in doc.variants],
            "problems": _problems(problems),
            "text": doc.text,
            "products": [{"iri": product_iri(v.name, v.model_code), "name": v.name} for v in doc.variants],
        }
    except DocumentError as e:
        return quarantined(str(e))
    except OSError as e:
        return quarantined(f"cannot read: {e}")
    except Exception as e:  # one document's failure must not end the run; it is reported
        return quarantined(f"{type(e).__name__} while reading: {e}")


def _convert(rows: list[Row]) -> list[Row]:
    out = []
    for row in rows:
        if row["status"] == "ok":
            try:
                out.append(_convert_one(row))
                continue
            except Exception as e:  # isolate the document, report it, go on
                q = Quarantine(
                    file=row["source"], record="document", stage="convert", reason=f"{type(e).__name__}: {e}"
                )
                row = {**row, "status": "quarantined", "problems": [*row["problems"], *_problems([q])]}
        out.append(
            {
                "status": row["status"],
                "nquads": "",
                "n_quads": 0,
                "n_products": 0,
                "n_specs": 0,
                "problems": row["problems"],
                "kept_as_text": [],
                "coverage": [],
                "value_rows": [],
                "quantity_rows": [],
            }
        )
    return out


def _convert_one(row: Row) -> Row:
    fault_point("convert")
    variants = [Variant.from_row(v) for v in row["variants"]]
    # rows of a market run carry its code; the default market's graphs keep their old names
    conv = convert_document(row["doc_id"], variants, source=row["source"], market=row.get("market") or None)
    problems = [*row["problems"], *(q.to_dict() for q in conv.problems)]
    return {
        "status": "ok",
        "nquads": conv.nquads,
        "n_quads": conv.n_quads,
        "n_products": conv.n_products,
        "n_specs": conv.n_specs,
        "problems": problems,
        "kept_as_text": conv.kept_as_text,
        "coverage": [{"entry": entry, **counts} for entry, counts in conv.coverage.items()],
        "value_rows": [dict(zip(VALUE_COLUMNS, r, strict=True)) for r in conv.value_rows],
        "quantity_rows": [dict(zip(QUANTITY_COLUMNS, r, strict=True)) for r in conv.quantity_rows],
    }


convert_stage = Stage(
    "convert",
    needs=("doc_id", "source", "status", "variants", "problems"),
    adds=(
        "status",
        "nquads",
        "n_quads",
        "n_products",
        "n_specs",
        "problems",
        "kept_as_text",
        "coverage",
        "value_rows",
        "quantity_rows",
    ),
    fn=_convert,
    drops=("variants", "text"),
)


def _shard_key(row: Row) -> str:
    market = row.get("market") or DEFAULT_MARKET
    return row["doc_id"] + row["content_hash"] + ("" if market == DEFAULT_MARKET else "\x1f" + market)


def shard_stage(shard_dir: str) -> Stage:
    """Writes the batch's N-Quads to one shard file, named by the documents and hashes it holds."""

    def fn(rows: list[Row]) -> list[Row]:
        todo = [r for r in rows if r["nquads"]]
        path = ""
        if todo:
            # the same document and content in two markets gives two shards (their graph names differ)
            key = hashlib.sha1("".join(_shard_key(r) for r in todo).encode()).hexdigest()[:20]
            target = Path(shard_dir) / f"shard-{key}.nq"
            if not target.exists():
                # the tables first: a shard file without them would be read as one from an older index
                write_spec_tables(
                    target,
                    (
                        (
                            O.document_graph(r["doc_id"], r.get("market") or DEFAULT_MARKET),
                            r["content_hash"],
                            [[x[c] for c in VALUE_COLUMNS] for x in r["value_rows"]],
                            [[x[c] for c in QUANTITY_COLUMNS] for x in r["quantity_rows"]],
                        )
                        for r in todo
                    ),
                )
                tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
                with open(tmp, "w", encoding="utf-8") as fh:
                    for r in todo:
                        fh.write(r["nquads"])
                os.replace(tmp, target)
            path = str(target)
        return [{"shard_path": path if r["nquads"] else ""} for r in rows]

    return Stage(
        "shard",
        needs=("doc_id", "content_hash", "nquads"),
        adds=("shard_path",),
        fn=fn,
        drops=("nquads", "value_rows", "quantity_rows"),
    )
