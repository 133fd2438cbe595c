"""How many number-bearing spec values each dataset keeps as text: old parser vs new spotter.

For every dataset under the shared data folder (``../shared/data``, or ``$DUALGRAPH_SHARED_DATA``;
see ``dualgraph.shared_data``) it reads the spec values as they are written,
counts those that contain a digit and how many of them stay text:

* old: the value is read when every ``split_values`` part that has a digit parses with
  ``parse_quantity(part, entry=, section=)`` or ``parse_price(part)`` (as the SKG converter
  does); otherwise it is kept as text.
* new: the value is read when ``dualgraph.skg.spotting.spot(value, entry=, section=)`` gives
  at least one fact; "n/a" while that module cannot be imported.

Datasets (entry and section are the names the importers give a value):

* smartprix-raw: ``smartphones_raw.csv``, every column but model and price (sections from
  ``samples/smartprix/mapping_raw.yaml``); every non-empty cell counts.
* smartprix-cleaned: ``smartphones_cleaned.csv``, every column but model and price_inr
  (sections from ``samples/smartprix/mapping.yaml``, cells as written, units not appended).
* icecat: ``icecat-sample/*.ndjson`` ``attrs`` values (sections from the description's Key
  Specifications block, as the Icecat importer reads them).
* amazon-pqa: the quoted ``value:"..."`` strings of the attribute candidates of semiPQA
  (attribute ranking, data-to-text), hetPQA and ePQA (rows with source ``attribute``); the
  same product attributes repeat once per question, so distinct (attribute, value) pairs count.
* amazon-pqa-units: the same files' typed numbers (``{ unit:inches, value:9. }``), written
  "9 inches" (Amazon's trailing "." dropped): whether the unit table knows Amazon's unit names.

For each dataset the ten most common shapes of what stays text are printed (digit runs
replaced by 9), so a reader sees what stays text and why.

    .venv/bin/python bench/value_coverage.py [--top 10] [--dataset icecat ...]
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dualgraph.corpus.icecat import key_spec_sections  # noqa: E402
from dualgraph.shared_data import shared_data_dir  # noqa: E402
from dualgraph.skg import quantities as Q  # noqa: E402
from dualgraph.skg.names import split_spec_key  # noqa: E402

DATA = shared_data_dir()
SMARTPRIX = DATA / "smartprix-india-2025"
ICECAT = DATA / "icecat-sample"
AMAZON = DATA / "amazon-contextual-pqa"
SAMPLES = ROOT / "samples" / "smartprix"

Value = tuple[str, str | None, str]  # (entry, section, value text)

_DIGIT = re.compile(r"\d")
_DIGITS = re.compile(r"\d+")
_ATTRIBUTE = re.compile(r"^\s*([\w.-]+):\s*(.*)$", re.S)
_QUOTED = re.compile(r'value:"((?:[^"\\]|\\.)*)"')
_NORMALISED = re.compile(r"normalized_value:\s*\{[^{}]*\},?\s*")
_BLOCK = re.compile(r"\{([^{}]*)\}")
_UNIT_FIELD = re.compile(r"\bunit:\s*([A-Za-z_]+)")
_VALUE_FIELD = re.compile(r"\bvalue:\s*(-?\d+(?:\.\d*)?)")


# --------------------------------------------------------------------------- datasets


def _spec_names(mapping: Path) -> dict[str, tuple[str | None, str]]:
    """Column -> (section, entry) from an import-table mapping's ``specs``."""
    specs = (yaml.safe_load(mapping.read_text(encoding="utf-8")) or {}).get("specs") or {}
    out: dict[str, tuple[str | None, str]] = {}
    for column, target in specs.items():
        key = target.get("entry") if isinstance(target, dict) else target
        if isinstance(key, str) and key:
            out[column] = split_spec_key(key)
    return out


def _csv_values(path: Path, mapping: Path, skip: set[str]) -> Iterator[Value]:
    names = _spec_names(mapping) if mapping.exists() else {}
    with open(path, encoding="utf-8-sig", newline="") as f:
        for row in csv.DictReader(f):
            for column, cell in row.items():
                if column in skip or cell is None or not cell.strip():
                    continue
                section, entry = names.get(column, (None, column))
                yield entry, section, cell.strip()


def smartprix_raw() -> Iterator[Value]:
    return _csv_values(SMARTPRIX / "smartphones_raw.csv", SAMPLES / "mapping_raw.yaml", {"model", "price"})


def smartprix_cleaned() -> Iterator[Value]:
    return _csv_values(SMARTPRIX / "smartphones_cleaned.csv", SAMPLES / "mapping.yaml", {"model", "price_inr"})


def icecat() -> Iterator[Value]:
    for path in sorted(ICECAT.glob("*.ndjson")):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                record = json.loads(line)
                sections = key_spec_sections(record.get("description") or "")
                for name, value in (record.get("attrs") or {}).items():
                    if value is None or (isinstance(value, str) and not value.strip()):
                        continue
                    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                    yield name, sections.get(name), text.strip()


def _amazon_candidates() -> Iterator[str]:
    """Every attribute candidate string ("name:  { value:... }") of the PQA files present."""
    csv.field_size_limit(1 << 30)
    sources = [
        ("semiPQA/attribute_ranking", "\t", "candidate", None),
        ("semiPQA/data-to-text", "\t", "data", None),
        ("hetPQA/answer_generation", "\t", "candidate", "attribute"),
        ("hetPQA/evidence_ranking", "\t", "candidate", "attribute"),
        ("ePQA", ",", "candidate", "attribute"),
    ]
    for folder, delimiter, column, source in sources:
        for path in sorted((AMAZON / folder).glob("*.csv")):
            with open(path, encoding="utf-8", newline="") as f:
                for row in csv.DictReader(f, delimiter=delimiter):
                    if source is None or row.get("source") == source:
                        yield row.get(column) or ""


def _amazon(kind: str) -> Iterator[Value]:
    seen: set[tuple[str, str]] = set()
    for candidate in _amazon_candidates():
        if not (m := _ATTRIBUTE.match(candidate)):
            continue
        name, body = m.group(1), m.group(2)
        if kind == "text":
            values = [v.replace('\\"', '"').strip() for v in _QUOTED.findall(body)]
        else:
            values = []
            for block in _BLOCK.findall(_NORMALISED.sub("", body)):
                unit, number = _UNIT_FIELD.search(block), _VALUE_FIELD.search(block)
                if unit and number:
                    values.append(f"{number.group(1).removesuffix('.')} {unit.group(1)}")
        for value in values:
            if value and (name, value) not in seen:
                seen.add((name, value))
                yield name, None, value


def amazon_pqa() -> Iterator[Value]:
    return _amazon("text")


def amazon_pqa_units() -> Iterator[Value]:
    return _amazon("units")


DATASETS: dict[str, Callable[[], Iterator[Value]]] = {
    "smartprix-raw": smartprix_raw,
    "smartprix-cleaned": smartprix_cleaned,
    "icecat": icecat,
    "amazon-pqa": amazon_pqa,
    "amazon-pqa-units": amazon_pqa_units,
}


# --------------------------------------------------------------------------- readers


def old_reads(value: str, entry: str | None, section: str | None) -> bool:
    """Every digit-bearing part of the value parses as a quantity or a price."""
    for part in Q.split_values(value):
        if _DIGIT.search(part) is None:
            continue
        if Q.parse_quantity(part, entry=entry, section=section) is None and Q.parse_price(part) is None:
            return False
    return True


def new_spotter() -> Callable[[str, str | None, str | None], str | None] | None:
    """The kinds of the new spotter's facts ("" for none, "version" when only versions);
    None while dualgraph.skg.spotting is missing."""
    try:
        from dualgraph.skg.spotting import spot  # type: ignore[import-not-found]
    except ImportError:
        return None

    def reads(value: str, entry: str | None, section: str | None) -> str:
        kinds = {getattr(x, "kind", "measure") for x in spot(value, entry=entry, section=section)}
        return "" if not kinds else "version" if kinds == {"version"} else "fact"

    return reads


def shape(value: str) -> str:
    s = _DIGITS.sub("9", " ".join(value.split()))
    return s if len(s) <= 80 else s[:77] + "..."


# --------------------------------------------------------------------------- report


def measure(values: Iterator[Value], new) -> dict:
    n = numeric = old_text = new_text = versions_only = 0
    old_shapes: collections.Counter[str] = collections.Counter()
    new_shapes: collections.Counter[str] = collections.Counter()
    for entry, section, value in values:
        n += 1
        if _DIGIT.search(value) is None:
            continue
        numeric += 1
        if not old_reads(value, entry, section):
            old_text += 1
            old_shapes[shape(value)] += 1
        if new is not None:
            kind = new(value, entry, section)
            if not kind:
                new_text += 1
                new_shapes[shape(value)] += 1
            versions_only += kind == "version"
    return {
        "values": n,
        "numeric": numeric,
        "old_text": old_text,
        "new_text": new_text if new is not None else None,
        "versions_only": versions_only,
        "old_shapes": old_shapes,
        "new_shapes": new_shapes,
    }


def _share(part: int | None, whole: int) -> str:
    if part is None:
        return "n/a"
    return f"{100 * part / whole:.1f}%" if whole else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", action="append", choices=list(DATASETS), help="only these (repeatable)")
    ap.add_argument("--top", type=int, default=10, help="shapes shown per dataset")
    args = ap.parse_args(argv)

    new = new_spotter()
    if new is None:
        print("new: n/a (dualgraph.skg.spotting cannot be imported yet)\n")
    results = {}
    for name in args.dataset or list(DATASETS):
        t0 = time.perf_counter()
        results[name] = measure(DATASETS[name](), new)
        results[name]["seconds"] = time.perf_counter() - t0

    head = (
        "| dataset | values | number-bearing | kept as text (old) | kept as text (new) | share before | share after |"
    )
    print(head)
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, r in results.items():
        new_text = "n/a" if r["new_text"] is None else r["new_text"]
        print(
            f"| {name} | {r['values']} | {r['numeric']} | {r['old_text']} | {new_text} "
            f"| {_share(r['old_text'], r['numeric'])} | {_share(r['new_text'], r['numeric'])} |"
        )
    print("\nshare = number-bearing values kept as text / number-bearing values")
    if new is not None:
        only = ", ".join(f"{name} {r['versions_only']}" for name, r in results.items())
        print(f"new: values read only as versions (no measure or count): {only}")
    for name, r in results.items():
        print(f"\n## {name} ({r['seconds']:.1f} s): most common shapes still kept as text (digit runs -> 9)")
        for label, shapes in (("old", r["old_shapes"]), ("new", r["new_shapes"])):
            if label == "new" and r["new_text"] is None:
                print("  new: n/a")
                continue
            print(f"  {label}:")
            for s, count in shapes.most_common(args.top):
                print(f"    {count:6d}  {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
