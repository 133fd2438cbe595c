"""The hostile dataset generator and its checker (reliability_tools.hostile)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import unicodedata
from pathlib import Path

import pytest

from dualgraph.corpus.specsqa import read_document
from reliability_tools.hostile import (
    OUTCOMES,
    QUICK_LIMITS,
    HostileManifest,
    check_index,
    write_hostile_dataset,
)

REQUIRED_KINDS = {
    # metadata
    "meta-not-json", "meta-truncated", "meta-array", "meta-empty", "meta-bom", "meta-invalid-utf8",
    "meta-surrogate", "meta-nan", "meta-deep", "meta-huge", "meta-is-dir", "meta-symlink-loop",
    "meta-symlink-outside", "content-traversal", "content-absolute", "prescience-is-dir",
    "prescience-symlink-loop", "prescience-traversal", "content-missing", "prescience-missing",
    "prescience-unknown-format", "content-not-list", "meta-id-not-string",
    # rawspecs
    "specs-not-list", "specs-no-name", "specs-control-chars", "specs-surrogate-name", "specs-huge-value",
    "specs-nan", "specs-nested-value", "specs-empty-key", "specs-too-many", "duplicate-name",
    # directory level
    "empty-dir", "markdown-only", "stray-file", "not-file-dir", "case-twin", "nfc-twin",
}  # fmt: skip


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> HostileManifest:
    return write_hostile_dataset(tmp_path_factory.mktemp("h") / "ds", good=6, seed=3, limits=QUICK_LIMITS)


def _tree(root: Path) -> dict[str, str]:
    """Every entry under root (links not followed) with a digest of what it holds."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "link:" + os.readlink(p)
            elif p.is_dir():
                out[rel] = "dir"
            else:
                data = p.read_bytes().replace(str(root.parent).encode(), b"<PARENT>")
                out[rel] = hashlib.sha256(data).hexdigest()
    return out


def test_same_seed_same_bytes_other_seed_other_names(tmp_path):
    a = write_hostile_dataset(tmp_path / "a" / "ds", good=5, seed=7, limits=QUICK_LIMITS)
    b = write_hostile_dataset(tmp_path / "b" / "ds", good=5, seed=7, limits=QUICK_LIMITS)
    c = write_hostile_dataset(tmp_path / "c" / "ds", good=5, seed=8, limits=QUICK_LIMITS)
    assert _tree(Path(a.root)) == _tree(Path(b.root))
    assert [e for e in a.entries] == [e for e in b.entries] and a.marker == b.marker
    assert a.expected_products() != c.expected_products()


def test_every_kind_is_there_once_with_a_well_formed_expectation(hostile):
    assert set(hostile.kinds) >= REQUIRED_KINDS
    names = [e.name for e in hostile.entries]
    assert len(names) == len(set(names))
    per_kind = {k: sum(e.kind == k for e in hostile.entries) for k in hostile.kinds}
    assert per_kind["good"] == 6 and per_kind["case-twin"] == per_kind["nfc-twin"] == per_kind["duplicate-name"] == 2
    root = Path(hostile.root)
    for e in hostile.entries:
        assert e.expected in OUTCOMES and e.description
        assert os.path.lexists(root / e.name), e.name
        if e.expected == "indexed":
            assert e.products and not set(e.products) & set(e.absent_products)
        else:
            assert not e.products and e.min_records == 0
        assert len(e.sanitised) <= e.min_records
    goods = [p for e in hostile.entries if e.kind == "good" for p in e.products]
    assert len(goods) == len(set(goods)) == 6
    assert all(Path(p).exists() and Path(p).parent == root.parent for p in hostile.outside_paths)


def test_manifest_round_trips_through_json(hostile):
    data = json.loads(json.dumps(hostile.to_dict()))
    assert HostileManifest.from_dict(data) == hostile


def test_good_documents_read_cleanly(hostile):
    root = Path(hostile.root)
    for e in hostile.entries:
        if e.kind in ("good", "case-twin", "nfc-twin"):
            doc, problems = read_document(root / e.name / f"{e.name}.json", root)
            assert problems == [] and [v.name for v in doc.variants] == list(e.products)
            assert e.products[0] in doc.text


def test_broken_entries_are_broken_the_way_they_say(hostile):
    root = Path(hostile.root)

    def meta(kind: str) -> Path:
        return root / f"file-bad-{kind}" / f"file-bad-{kind}.json"

    with pytest.raises(RecursionError):
        json.loads(meta("meta-deep").read_bytes())
    with pytest.raises(UnicodeDecodeError):
        meta("meta-invalid-utf8").read_bytes().decode("utf-8")
    assert meta("meta-bom").read_bytes().startswith(b"\xef\xbb\xbf")
    with pytest.raises(ValueError):
        json.loads(meta("meta-nan").read_bytes(), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    surrogate = json.loads(meta("meta-surrogate").read_bytes())
    assert "\ud800" in surrogate["content"][0]["path_textualized"]
    assert meta("meta-huge").stat().st_size > QUICK_LIMITS.max_file_bytes
    assert meta("meta-is-dir").is_dir()
    with pytest.raises(OSError) as loop:
        meta("meta-symlink-loop").stat()
    assert loop.value.errno == errno.ELOOP
    assert root.resolve() not in meta("meta-symlink-outside").resolve().parents
    assert isinstance(json.loads(meta("meta-id-not-string").read_bytes())["id"], int)

    traversal = json.loads(meta("content-traversal").read_bytes())["content"][1]["path_textualized"]
    assert traversal.startswith("..") and hostile.marker in (root / traversal).read_text()
    absolute = json.loads(meta("content-absolute").read_bytes())["content"][1]["path_textualized"]
    assert os.path.isabs(absolute) and hostile.marker in Path(absolute).read_text()

    bulk = json.loads((root / "file-bad-specs-too-many" / "inject-file-bad-specs-too-many-bad.json").read_bytes())
    assert len(bulk) == QUICK_LIMITS.max_variants + 1
    names = json.loads(
        (root / "file-bad-specs-control-chars" / "inject-file-bad-specs-control-chars-bad.json").read_text()
    )
    assert {"\x00", "\x1b", "\u202e", "\u200b"} <= set("".join(v["name"] for v in names))

    assert (root / "file-Case").is_dir() and (root / "file-case").is_dir()
    twins = [n for n in os.listdir(root) if unicodedata.normalize("NFC", n) == "file-caf\u00e9"]
    assert sorted(twins) == sorted(["file-caf\u00e9", "file-cafe\u0301"])
    assert not any((root / "file-empty").iterdir())


def test_refuses_a_non_empty_root(tmp_path):
    (tmp_path / "x").write_text("")
    with pytest.raises(FileExistsError):
        write_hostile_dataset(tmp_path, good=1)


def test_full_size_stays_under_budget(tmp_path):
    m = write_hostile_dataset(tmp_path / "ds", good=2, seed=0)
    total = sum(p.stat().st_size for p in Path(m.root).rglob("*") if p.is_file() and not p.is_symlink())
    assert total < 40_000_000
    huge = Path(m.root) / "file-bad-meta-huge" / "file-bad-meta-huge.json"
    assert huge.stat().st_size > 10_000_000


# --------------------------------------------------------------------------------------------
# the checker, against a simulated index that does everything right, then breaks one thing


def _perfect(hostile: HostileManifest) -> tuple[dict, list[dict], set[str]]:
    root = Path(hostile.root)
    manifest: dict = {"dataset": str(root.resolve()), "ignored": []}
    records: list[dict] = []
    products: set[str] = set()
    for e in hostile.entries:
        if e.expected == "ignored":
            manifest["ignored"].append({"path": e.name, "reason": "not a document"})
            continue
        products |= set(e.products) | set(e.sanitised)
        meta = str(root.resolve() / e.name / f"{e.name}.json")
        n = max(e.min_records - len(e.sanitised), 1 if e.expected == "quarantined" else 0)
        records += [{"file": meta, "record": "x", "stage": "read", "reason": "bad"}] * n
    return manifest, records, products


def test_checker_passes_a_perfect_index(hostile):
    manifest, records, products = _perfect(hostile)
    result = check_index(manifest, records, products, hostile, store_text=["Battery 5000 mAh"])
    assert result.ok, result.table()
    assert result.found_products == result.expected_products > 0
    assert all(e.ok for e in result.entries)
    assert "file-bad-meta-deep" in result.table()
    json.dumps(result.to_dict())


def test_checker_sees_each_kind_of_failure(hostile):
    manifest, records, products = _perfect(hostile)
    good = next(e.products[0] for e in hostile.entries if e.kind == "good")
    assert check_index(manifest, records, products - {good}, hostile).lost == [good]

    assert check_index(manifest, records, products, hostile, store_text=[f"see {hostile.marker} here"]).leaks

    fewer = {**manifest, "ignored": [i for i in manifest["ignored"] if i["path"] != "README.txt"]}
    assert check_index(fewer, records, products, hostile).unaccounted == ["README.txt"]

    deep = [r for r in records if "file-bad-meta-deep" not in r["file"]]
    assert check_index(manifest, deep, products, hostile).unaccounted == ["file-bad-meta-deep"]

    zombie = check_index(manifest, records, products | {"Refused Meta Huge Phone"}, hostile)
    assert zombie.zombies and zombie.wrong == ["file-bad-meta-huge"]

    raw = next(e for e in hostile.entries if e.kind == "specs-control-chars").absent_products[0]
    assert check_index(manifest, records, products | {raw}, hostile).unsafe_names

    # a record naming the outside path, not the document, is not the document's record
    outside = [
        {**r, "file": str(Path(hostile.root) / "../x.md")} if "content-traversal" in r["file"] else r for r in records
    ]
    assert check_index(manifest, outside, products, hostile).unaccounted == ["file-bad-content-traversal"]

    # case twins are different entries: a record for one does not count for the other
    twin = [r for r in records if "file-bad-meta-empty" not in r["file"]]
    twin.append({"file": str(Path(hostile.root) / "file-BAD-meta-empty" / "x.json")})
    assert not check_index(manifest, twin, products, hostile).ok
