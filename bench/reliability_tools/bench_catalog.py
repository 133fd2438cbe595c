"""The catalog the question and index probes run on: the test suite's fixture phones
(``tests/fixtures/catalog``, imported with ``dualgraph import-table`` as a user would) plus four
phones whose battery key hides a zero-width or tag character (issue 34, point 7).

The full tier can use a larger real catalog instead: the first ``n`` listings of the Smartprix
sample in the shared data folder (``samples/smartprix``), where the issue measured its
runaway questions on 20 products.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "catalog"

HIDDEN, TAG = "\u180e", "\U000e0020"
# name -> (battery key, mAh): two hide a format character in the key, two are plain
INVISIBLE_KEYS = {
    "Zw Alpha One": ("Battery:Capacity", 5000),
    "Zw Beta Two": ("Battery:Capacity", 4000),
    "Zw Gamma Three": (f"Bat{HIDDEN}tery:Capacity", 5000),
    "Zw Delta Four": (f"Battery{TAG}:Capa{HIDDEN}city", 4000),
}


def import_table(source: Path, mapping: Path, out: Path) -> None:
    from dualgraph.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        rc = main(["import-table", str(source), "--mapping", str(mapping), "--out", str(out), "--no-progress"])
    if rc != 0:
        raise RuntimeError(f"import-table failed on {source}")


def write_invisible_key_phones(ds: Path) -> None:
    for i, (name, (key, mah)) in enumerate(INVISIBLE_KEYS.items()):
        fid = f"file-zw{i}"
        d = ds / fid
        d.mkdir(parents=True)
        (d / f"part-zw{i}.md").write_text(f"# {name}\n\nA phone.\n", encoding="utf-8")
        specs = {key: f"{mah} mAh", "Network:5G": "Yes"}
        (d / f"inject-zw{i}.json").write_text(
            json.dumps([{"name": name, "categories": ["phones"], "specs": specs}], ensure_ascii=False), encoding="utf-8"
        )
        meta = {
            "id": fid,
            "type": "fs:file",
            "content": [{"id": f"part-zw{i}", "path_textualized": f"{fid}/part-zw{i}.md"}],
            "name": f"zw{i}.md",
            "prescience": [{"format": "rawspecs", "path": f"{fid}/inject-zw{i}.json"}],
        }
        (d / f"{fid}.json").write_text(json.dumps(meta), encoding="utf-8")


def fixture_catalog(ds: Path) -> dict[str, set[str]]:
    """Write the bench catalog to ``ds``; returns the products that have a 5000 mAh battery
    (``"5000"``), by the source table and the hidden-key phones, and every product (``"all"``)."""
    import_table(FIXTURE / "phones.csv", FIXTURE / "mapping.yaml", ds)
    write_invisible_key_phones(ds)
    with open(FIXTURE / "phones.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    five = {r["model"] for r in rows if r["battery_mah"].strip() == "5000"}
    five |= {n for n, (_, mah) in INVISIBLE_KEYS.items() if mah == 5000}
    return {"5000": five, "all": {r["model"] for r in rows} | set(INVISIBLE_KEYS)}


def smartprix_catalog(ds: Path, n: int) -> bool:
    """The first ``n`` Smartprix listings added to the dataset ``ds``; False when the shared data is not here."""
    from dualgraph.shared_data import shared_data_dir

    try:
        source = shared_data_dir() / "smartprix-india-2025" / "smartphones_cleaned.csv"
    except Exception:  # no shared data folder on this machine
        return False
    if not source.is_file():
        return False
    work = ds.parent / (ds.name + "-all")
    import_table(source, ROOT / "samples" / "smartprix" / "mapping.yaml", work)
    ds.mkdir(parents=True, exist_ok=True)
    for d in sorted(p for p in work.iterdir() if p.is_dir() and p.name.startswith("file-"))[:n]:
        shutil.copytree(d, ds / d.name)
    shutil.rmtree(work)
    return True
