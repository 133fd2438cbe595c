"""Reading documents someone else wrote: confinement, limits, cleaning and per-document isolation."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dualgraph.corpus.limits import ReadLimits
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import DocumentError, read_document, scan_dataset, write_dataset
from dualgraph.pipeline.index_stages import read_stage
from dualgraph.skg.ontology import document_graph

GOOD = [Variant("Phone X", "Phone X", ("phones",), (("Battery:Capacity", "5000 mAh"),))]


def dataset(tmp_path: Path) -> Path:
    root = tmp_path / "ds"
    write_dataset(root, [("p1", "# Phone X\nA page.", GOOD)])
    return root


def meta_of(root: Path, stem: str = "p1") -> Path:
    return root / f"file-{stem}" / f"file-{stem}.json"


def rewrite_meta(root: Path, **changes) -> None:
    path = meta_of(root)
    meta = json.loads(path.read_text())
    meta.update(changes)
    path.write_text(json.dumps(meta))


def reasons(problems) -> str:
    return " | ".join(f"{q.record}: {q.reason}" for q in problems)


def test_a_content_path_outside_the_root_is_refused_and_its_text_never_read(tmp_path):
    root = dataset(tmp_path)
    (tmp_path / "secret.md").write_text("SECRETWORD")
    rewrite_meta(
        root, content=[{"path_textualized": "../secret.md"}, {"path_textualized": str(tmp_path / "secret.md")}]
    )
    doc, problems = read_document(meta_of(root), root)
    assert "SECRETWORD" not in doc.text
    text = reasons(problems)
    assert "resolves outside the dataset root" in text and "absolute path refused" in text


def test_a_symlink_leading_out_of_the_root_is_refused(tmp_path):
    root = dataset(tmp_path)
    (tmp_path / "secret.json").write_text(json.dumps([{"name": "Leaked", "specs": {}}]))
    os.symlink(tmp_path / "secret.json", root / "file-p1" / "inject-p1.json.lnk")
    rewrite_meta(root, prescience=[{"format": "rawspecs", "path": "file-p1/inject-p1.json.lnk"}])
    doc, problems = read_document(meta_of(root), root)
    assert doc.variants == [] and "resolves outside the dataset root" in reasons(problems)


@pytest.mark.parametrize("kind", ["directory", "loop"])
def test_a_prescience_path_that_is_a_directory_or_a_symlink_loop_is_a_record(tmp_path, kind):
    root = dataset(tmp_path)
    target = root / "file-p1" / "specs"
    if kind == "directory":
        target.mkdir()
    else:
        os.symlink(target, target)
    rewrite_meta(root, prescience=[{"format": "rawspecs", "path": "file-p1/specs"}])
    doc, problems = read_document(meta_of(root), root)
    assert doc.text.startswith("# Phone X")  # the rest of the document is read
    assert "prescience path 'file-p1/specs' refused" in reasons(problems)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: (p.unlink(), p.mkdir()), "is a directory"),
        (lambda p: (p.unlink(), os.symlink(p, p)), "cannot resolve"),
        (lambda p: p.write_text("[" * 100_000), "nested too deeply"),
        (lambda p: p.write_bytes(b'{"id": "\xff"}'), "not UTF-8"),
        (lambda p: p.write_text("{}" + " " * 200_000), "larger than the limit"),
    ],
    ids=["directory", "symlink-loop", "deep-json", "bad-utf8", "too-large"],
)
def test_unusable_metadata_is_one_clear_document_error(tmp_path, make, reason):
    root = dataset(tmp_path)
    make(meta_of(root))
    with pytest.raises(DocumentError, match=reason) as err:
        read_document(meta_of(root), root, limits=ReadLimits(max_metadata_bytes=150_000))
    assert "file-p1" in str(err.value)


def test_a_byte_order_mark_is_read(tmp_path):
    root = dataset(tmp_path)
    meta_of(root).write_bytes(b"\xef\xbb\xbf" + meta_of(root).read_bytes())
    doc, problems = read_document(meta_of(root), root)
    assert [v.name for v in doc.variants] == ["Phone X"] and problems == []


def test_names_and_values_are_cleaned_and_the_change_reported(tmp_path):
    root = dataset(tmp_path)
    rec = {
        "name": "Phone\u202e \ud800Y\x00",
        "specs": {"Bat\u200btery:Capacity": "5000\x1b mAh", "A:B": ["nested"], "A:C": "x" * 50, "": "v"},
    }
    (root / "file-p1" / "inject-p1.json").write_text(json.dumps([rec]))
    doc, problems = read_document(meta_of(root), root, limits=ReadLimits(max_value_chars=40))
    [v] = doc.variants
    assert v.name == "Phone \ufffdY" and v.specs == (("Battery:Capacity", "5000 mAh"),)
    text = reasons(problems)
    for expected in (
        "lone surrogate",
        "control character",
        "invisible character",
        "list value",
        "over the limit of 40",
    ):
        assert expected in text
    assert "empty key" in text
    # the original stays in the report, escaped
    assert "\\u202e" in text and "\\ud800" in text


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json_and_never_become_text(tmp_path, token):
    root = dataset(tmp_path)
    (root / "file-p1" / "inject-p1.json").write_text(f'[{{"name": "P", "specs": {{"A:B": {token}}}}}]')
    doc, problems = read_document(meta_of(root), root)
    assert doc.variants == [] and f"{token.lstrip('-')} is not a JSON value" in reasons(problems)


def test_variants_over_the_limit_are_reported_not_dropped_silently(tmp_path):
    root = dataset(tmp_path)
    recs = [{"name": f"P{i}", "specs": {}} for i in range(30)]
    (root / "file-p1" / "inject-p1.json").write_text(json.dumps(recs))
    doc, problems = read_document(meta_of(root), root, limits=ReadLimits(max_variants_per_file=10))
    assert len(doc.variants) == 10 and "30 variant records, over the limit of 10" in reasons(problems)


def test_every_entry_is_a_document_or_ignored_with_a_reason(tmp_path):
    root = dataset(tmp_path)
    (root / "file-empty").mkdir()
    (root / "file-lost").mkdir()
    (root / "file-lost" / "part-lost.md").write_text("a page without metadata")
    (root / "README.txt").write_text("x")
    (root / "file-plain").write_text("x")
    scan = scan_dataset(root)
    assert scan.documents == ["file-lost/file-lost.json", "file-p1/file-p1.json"]
    assert {i["path"]: i["reason"] for i in scan.ignored} == {
        "README.txt": "not a document directory (documents are file-<id>/ directories)",
        "file-empty": "empty document directory",
        "file-plain": "named like a document directory but not a directory",
    }


def test_the_read_stage_quarantines_any_failure_of_one_document_and_goes_on(tmp_path):
    root = dataset(tmp_path)
    write_dataset(root, [("p2", "# Two", [Variant("Phone Two", "Phone Two", ("phones",), ())])])
    (root / "file-lost").mkdir()
    (root / "file-lost" / "part-lost.md").write_text("a page without metadata")
    meta_of(root, "p2").write_text("[" * 100_000)
    rows = read_stage(str(root.resolve()), {}).run([{"meta_path": m} for m in scan_dataset(root).documents])
    status = {r["meta_path"]: (r["status"], r["problems"]) for r in rows}
    assert status["file-p1/file-p1.json"][0] == "ok"
    lost_status, lost = status["file-lost/file-lost.json"]
    assert lost_status == "quarantined" and "no metadata file file-lost.json" in lost[0]["reason"]
    assert "part-lost.md" in lost[0]["reason"]
    deep_status, deep = status["file-p2/file-p2.json"]
    assert deep_status == "quarantined" and "nested too deeply" in deep[0]["reason"]
    assert deep[0]["file"].endswith("file-p2/file-p2.json")


def test_document_graphs_never_merge_names_that_differ_in_case_or_normal_form():
    names = ["file-Case", "file-case", "file-caf\u00e9", "file-cafe\u0301", "file-a b", "file-a_b", "file-a%20b"]
    graphs = [document_graph(n) for n in names]
    assert len(set(graphs)) == len(names)
    assert all(g.isascii() and " " not in g for g in graphs)
