"""Brands and product lines derived from two real catalogs, without a store.

Runs :func:`dualgraph.skg.catalog_facts.derive_facts` on

* Smartprix (India, 2025), ``smartphones_raw.csv``: the name is ``model``, the range is the
  model without its trailing "(8GB RAM + 128GB)", no brand column. The derived brand is
  compared with the ``brand`` column of ``smartphones_cleaned.csv`` (joined on ``model``).
  A second run gives the cleaned CSV's brand to every other range only, and scores the
  brands found for the ranges left without it; a third also cuts the brand word from those
  names ("Galaxy S24"), so only the leading words learned from the entries can tell.
* the Open Icecat sample (``icecat-sample/*.ndjson``): the name and range are the title, the
  categories and the ``brand`` field (often a reseller) are read as the importer reads them.

    .venv/bin/python bench/catalog_facts.py [--data DIR] [--top 30]

Needs the shared data folder (``../shared/data`` beside the checkout or ``$DUALGRAPH_SHARED_DATA``;
read only). Product data from Open Icecat:
https://icecat.biz, © Icecat N.V.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import time
from collections import Counter
from pathlib import Path

from dualgraph.shared_data import shared_data_dir
from dualgraph.skg.catalog_facts import CatalogFacts, ProductRecord, derive_facts, name_key

ROOT = Path(__file__).resolve().parents[1]
VARIANT_SUFFIX = re.compile(r"\s*\([^()]*\)\s*$")


def smartprix_records(path: Path, brands: dict[str, str] | None = None) -> list[ProductRecord]:
    """One record per row (the raw CSV repeats a few models; the first row wins)."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    out: dict[str, ProductRecord] = {}
    for r in rows:
        model = r["model"].strip()
        if not model or model in out:
            continue
        brand = (brands or {}).get(model)
        out[model] = ProductRecord(
            iri=model,
            name=model,
            range=VARIANT_SUFFIX.sub("", model),
            categories=("smartphones",),
            brands=(brand,) if brand else (),
        )
    return list(out.values())


def icecat_records(folder: Path) -> list[ProductRecord]:
    out = []
    for path in sorted(folder.glob("*.ndjson")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            title = (r.get("title") or "").strip()
            cats = r.get("categories") or []
            brand = (r.get("brand") or "").strip()
            out.append(
                ProductRecord(
                    iri=str(r.get("id")),
                    name=title,
                    range=title,
                    categories=tuple(c for c in cats if isinstance(c, str)),
                    brands=(brand,) if brand else (),
                )
            )
    return out


def summary(title: str, records: list[ProductRecord], facts: CatalogFacts, seconds: float, top: int) -> None:
    print(f"\n== {title}: {len(records)} products, {seconds * 1000:.0f} ms")
    n = len(records) or 1
    print(
        f"brands {len(facts.brands)}, lines {len(facts.lines)}; products with a brand "
        f"{len(facts.product_brand)} ({len(facts.product_brand) / n:.1%}), with a line {len(facts.product_lines)} "
        f"({len(facts.product_lines) / n:.1%}), with a type {len(facts.product_types)}"
    )
    print("brand sources:", dict(Counter(facts.brand_source.values()).most_common()))
    brands = sorted(facts.brands.values(), key=lambda b: (-b.products, b.key))
    print("brands:", ", ".join(f"{b.name} ({b.products})" for b in brands))
    print(f"top {top} lines (brand line: products / ranges; broader):")
    for x in sorted(facts.lines.values(), key=lambda x: (-x.products, x.id))[:top]:
        brand = facts.brands[x.brand].name if x.brand else "-"
        wider = facts.lines[(x.brand, x.broader)].name if x.broader else ""
        print(f"  {brand:>10} | {x.name:<22} {x.products:4d} / {x.ranges:3d}  {('< ' + wider) if wider else ''}")
    if facts.type_broader:
        print("type broader:", "; ".join(f"{a} < {b}" for a, b in facts.type_broader))


def agreement(
    facts: CatalogFacts, truth: dict[str, str], products: list[str]
) -> tuple[int, int, Counter[tuple[str, str | None]]]:
    hits, misses = 0, Counter[tuple[str, str | None]]()
    for model in products:
        got = facts.product_brand.get(model)
        if got == name_key(truth[model]):
            hits += 1
        else:
            misses[(truth[model], facts.brands[got].name if got else None)] += 1
    return hits, len(products), misses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=shared_data_dir())
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()

    sp = args.data / "smartprix-india-2025"
    with open(sp / "smartphones_cleaned.csv", encoding="utf-8-sig", newline="") as f:
        truth = {r["model"].strip(): r["brand"].strip() for r in csv.DictReader(f)}

    records = smartprix_records(sp / "smartphones_raw.csv")
    t0 = time.time()
    facts = derive_facts(records)
    summary("Smartprix raw (names only)", records, facts, time.time() - t0, args.top)
    joined = [r.iri for r in records if r.iri in truth]
    hits, total, misses = agreement(facts, truth, joined)
    print(f"brand agreement with smartphones_cleaned.csv: {hits}/{total} = {hits / max(1, total):.1%}")
    wrong = sum(n for (_, got), n in misses.items() if got is not None)
    print(f"  of which a different brand: {wrong}, no brand: {total - hits - wrong}")
    print("disagreements (cleaned brand, derived):", dict(misses.most_common(10)))

    # Brand entries on every other range (in name order), learning for the rest.
    ranges = sorted({r.range for r in records if r.iri in truth})
    given = set(ranges[::2])
    half = {m: b for m, b in truth.items() if VARIANT_SUFFIX.sub("", m) in given}
    records = smartprix_records(sp / "smartphones_cleaned.csv", half)
    t0 = time.time()
    facts = derive_facts(records)
    print(f"\n== Smartprix cleaned, brand entry on {len(given)} of {len(ranges)} ranges ({time.time() - t0:.2f} s)")
    print("brand sources:", dict(Counter(facts.brand_source.values()).most_common()))
    hidden = [r.iri for r in records if r.iri not in half]
    hits, total, misses = agreement(facts, truth, hidden)
    print(f"brand agreement on the products without the entry: {hits}/{total} = {hits / max(1, total):.1%}")
    wrong = sum(n for (_, got), n in misses.items() if got is not None)
    print(f"  of which a different brand: {wrong}, no brand: {total - hits - wrong}")
    print("disagreements (cleaned brand, derived):", dict(misses.most_common(10)))

    # The same, with the brand word also cut from the names that lack the entry ("Galaxy S24",
    # "iPhone 15", "Redmi Note 13"): only the words learned from the other half can tell.
    cut = [
        r if r.brands else ProductRecord(r.iri, r.name.split(None, 1)[-1], r.range.split(None, 1)[-1], r.categories)
        for r in records
    ]
    facts = derive_facts(cut)
    print("\n== the same, brand word cut from the names without the entry")
    print("brand sources:", dict(Counter(facts.brand_source.values()).most_common()))
    hits, total, misses = agreement(facts, truth, hidden)
    print(f"brand agreement on the products without the entry: {hits}/{total} = {hits / max(1, total):.1%}")
    wrong = sum(n for (_, got), n in misses.items() if got is not None)
    print(f"  of which a different brand: {wrong}, no brand: {total - hits - wrong}")
    print("disagreements (cleaned brand, derived):", dict(misses.most_common(10)))

    records = icecat_records(args.data / "icecat-sample")
    t0 = time.time()
    facts = derive_facts(records)
    summary("Icecat sample (title, brand field, categories)", records, facts, time.time() - t0, args.top)
    changed = [
        (r.brands[0], facts.brand_name(r.iri), r.name[:40])
        for r in records
        if facts.brand_source.get(r.iri) == "name-over-entry"
    ]
    print(f"brand field overruled by the title ({len(changed)}):")
    for listed, got, title in changed:
        print(f"  {listed} -> {got}: {title}")


if __name__ == "__main__":
    main()
