import json

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import DocumentError, iter_metadata_files, read_document, write_dataset

V = Variant("Phone A 128GB", "Phone A", ("smartphones",), (("Battery:Capacity", "5000 mAh"), ("Price", "199.00 GBP")))


def _meta(root, stem):
    return root / f"file-{stem}" / f"file-{stem}.json"


def test_round_trip(tmp_path):
    write_dataset(tmp_path, [("a", "# A\ntext", [V]), ("b", "# B", [])])
    metas = list(iter_metadata_files(tmp_path))
    assert [m.parent.name for m in metas] == ["file-a", "file-b"]
    doc, problems = read_document(metas[0], tmp_path)
    assert problems == [] and doc.variants == [V] and doc.text == "# A\ntext"
    doc_b, _ = read_document(metas[1], tmp_path)
    assert doc_b.variants == []


def test_reads_the_authors_layout_with_sep_names(tmp_path):
    d = tmp_path / "file-0123abcd"
    d.mkdir()
    (d / "part-0123abcd.md").write_text('# Feature from "x" page\nBig battery')
    (d / "inject-0123abcd.json").write_text(
        json.dumps(
            [
                {
                    "name": "Galaxy A26 5G<SEP>128GB<SEP>Black",
                    "prod_range": "Galaxy A26 5G",
                    "categories": ["smartphones", "galaxy-a"],
                    "specs": {
                        "Battery:Battery Capacity (mAh, Typical)": "5000",
                        "Price": "249.00 GBP",
                        "Model Code": "SM-A266B",
                        "Variant features:Storage": "128GB",
                    },
                }
            ]
        )
    )
    (d / "file-0123abcd.json").write_text(
        json.dumps(
            {
                "id": "file-0123abcd",
                "type": "fs:file",
                "content": [
                    {
                        "id": "part-0123abcd",
                        "path": "file-0123abcd/part-0123abcd.html",
                        "path_textualized": "file-0123abcd/part-0123abcd.md",
                    }
                ],
                "name": "0123abcd.html",
                "path": "file-0123abcd/part-0123abcd.html",
                "prescience": [{"format": "rawspecs", "path": "file-0123abcd/inject-0123abcd.json"}],
            }
        )
    )
    doc, problems = read_document(d / "file-0123abcd.json", tmp_path)
    assert problems == []
    (v,) = doc.variants
    assert v.name == "Galaxy A26 5G 128GB Black"
    assert v.prod_range == "Galaxy A26 5G"
    assert v.model_code == "SM-A266B"
    assert dict(v.specs)["Variant features:Storage"] == "128GB"


def test_malformed_metadata_raises_naming_the_file(tmp_path):
    write_dataset(tmp_path, [("a", "x", [V])])
    _meta(tmp_path, "a").write_text('{"id": "file-a", "content": [')
    with pytest.raises(DocumentError, match="file-a.json.*malformed metadata"):
        read_document(_meta(tmp_path, "a"), tmp_path)


def test_truncated_prescience_is_quarantined_text_kept(tmp_path):
    write_dataset(tmp_path, [("a", "some text", [V])])
    inj = tmp_path / "file-a" / "inject-a.json"
    inj.write_text(inj.read_text()[:40])
    doc, problems = read_document(_meta(tmp_path, "a"), tmp_path)
    assert doc.text == "some text" and doc.variants == []
    (q,) = problems
    assert q.file.endswith("inject-a.json") and "truncated" in q.reason and q.record == "prescience[0]"


def test_missing_markdown_is_quarantined_specs_kept(tmp_path):
    write_dataset(tmp_path, [("a", "t", [V])])
    (tmp_path / "file-a" / "part-a.md").unlink()
    doc, problems = read_document(_meta(tmp_path, "a"), tmp_path)
    assert doc.variants == [V]
    (q,) = problems
    assert q.file.endswith("part-a.md") and q.reason == "markdown file is missing"


def test_unknown_prescience_format_is_quarantined(tmp_path):
    write_dataset(tmp_path, [("a", "t", [V])])
    meta = json.loads(_meta(tmp_path, "a").read_text())
    meta["prescience"][0]["format"] = "xlsx-dump"
    _meta(tmp_path, "a").write_text(json.dumps(meta))
    doc, problems = read_document(_meta(tmp_path, "a"), tmp_path)
    (q,) = problems
    assert "unknown prescience format 'xlsx-dump'" in q.reason and doc.variants == []


def test_unusable_values_are_quarantined_rest_of_variant_kept(tmp_path):
    write_dataset(tmp_path, [("a", "t", [V])])
    inj = tmp_path / "file-a" / "inject-a.json"
    recs = json.loads(inj.read_text())
    recs[0]["specs"]["Camera:Modes"] = {"night": True}
    recs.append({"prod_range": "nameless"})
    inj.write_text(json.dumps(recs))
    doc, problems = read_document(_meta(tmp_path, "a"), tmp_path)
    assert [v.name for v in doc.variants] == ["Phone A 128GB"]
    assert dict(doc.variants[0].specs)["Battery:Capacity"] == "5000 mAh"
    reasons = sorted(q.reason for q in problems)
    assert any("'Camera:Modes' has a dict value" in r for r in reasons)
    assert any("has no 'name'" in r for r in reasons)
    assert all(q.file.endswith("inject-a.json") for q in problems)
