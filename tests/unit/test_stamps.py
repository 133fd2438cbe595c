"""File stamps let a re-index skip reading unchanged documents, and never skip a changed one."""

import os

import pytest

from dualgraph.config import IndexConfig
from dualgraph.corpus import stamps
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.index_stages import read_stage, unchanged_documents
from dualgraph.pipeline.stage import run_inline

METAS = [f"file-{k}/file-{k}.json" for k in "abc"]


def _dataset(root):
    write_dataset(
        root,
        [
            (
                k,
                f"The {k} phone has a bright screen.",
                [Variant(f"Phone {k}", "Phone", ("phones",), (("B:C", "1 mAh"),))],
            )
            for k in "abc"
        ],
    )
    return root


def _first_read(root):
    rows = run_inline([read_stage(str(root), previous={})], [{"meta_path": m} for m in METAS])

    return {r["meta_path"]: r["content_hash"] for r in rows}, {
        r["meta_path"]: stamps.stamp_from_row(r["stamp"]) for r in rows
    }


@pytest.fixture
def no_racy_margin(monkeypatch):
    # ctime cannot be set back, so a file a test just wrote is always racily clean under the
    # real margin; with none, a stamp taken after the write vouches for it
    monkeypatch.setattr(stamps, "RACY_NS", 0)


def _page(root, k):
    return root / f"file-{k}" / f"part-{k}.md"


def test_stamped_documents_are_not_read_again(tmp_path, no_racy_margin):
    root = _dataset(tmp_path / "ds")
    hashes, stamped = _first_read(root)
    found = unchanged_documents(root, METAS, hashes, stamps=stamped)
    assert found.hashed == 0 and found.hashes == hashes
    # without stamps every document is read to compare
    assert unchanged_documents(root, METAS, hashes).hashed == 3


def test_a_rewrite_with_the_same_size_and_mtime_is_seen(tmp_path, no_racy_margin):
    root = _dataset(tmp_path / "ds")
    hashes, stamped = _first_read(root)
    page = _page(root, "b")
    before = os.stat(page)
    text = page.read_text()
    page.write_text(text.replace("bright", "bleaky"))  # same length
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))  # mtime set back; ctime moves on
    assert os.stat(page).st_size == before.st_size
    found = unchanged_documents(root, METAS, hashes, stamps=stamped)
    assert found.hashed == 1 and sorted(found.hashes) == [METAS[0], METAS[2]]


def test_a_file_renamed_over_the_old_one_is_seen(tmp_path, no_racy_margin):
    root = _dataset(tmp_path / "ds")
    hashes, stamped = _first_read(root)
    page = _page(root, "c")
    before = os.stat(page)
    other = tmp_path / "swap.md"
    other.write_text(page.read_text().replace("bright", "bleaky"))
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, page)
    found = unchanged_documents(root, METAS, hashes, stamps=stamped)
    assert METAS[2] not in found.hashes and found.hashed == 1


def test_a_missing_page_that_appears_is_seen(tmp_path, no_racy_margin):
    root = _dataset(tmp_path / "ds")
    page = _page(root, "a")
    text = page.read_text()
    page.unlink()
    hashes, stamped = _first_read(root)
    assert [None] in [f[1:] for f in stamped[METAS[0]]["files"]]
    page.write_text(text)
    found = unchanged_documents(root, METAS, hashes, stamps=stamped)
    assert METAS[0] not in found.hashes


def test_racily_clean_files_are_read_and_stamped_again(tmp_path):
    root = _dataset(tmp_path / "ds")
    hashes, stamped = _first_read(root)  # written and stamped within the racy margin
    found = unchanged_documents(root, METAS, hashes, stamps=stamped)
    assert found.hashed == 3 and found.hashes == hashes
    assert sorted(found.restamped) == METAS


def test_another_salt_or_limits_reads_again(tmp_path, no_racy_margin):
    from dualgraph.corpus.limits import ReadLimits

    root = _dataset(tmp_path / "ds")
    hashes, stamped = _first_read(root)
    assert unchanged_documents(root, METAS, hashes, stamps=stamped, salt="other").hashed == 3
    tight = ReadLimits(max_file_bytes=10)
    assert unchanged_documents(root, METAS, hashes, stamps=stamped, limits=tight).hashes == {}


def test_index_reads_only_what_its_stamps_cannot_vouch_for(tmp_path, no_racy_margin):
    root, ix = _dataset(tmp_path / "ds"), tmp_path / "ix"
    cfg = IndexConfig(runner="inline", progress=False)
    assert build_index(root, ix, cfg)["documents"]["converted"] == 3
    again = build_index(root, ix, cfg)["documents"]
    assert (again["read_to_compare"], again["unchanged"]) == (0, 3)
    page = _page(root, "b")
    before = os.stat(page)
    page.write_text(page.read_text().replace("bright", "bleaky"))
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    changed = build_index(root, ix, cfg)["documents"]
    assert changed["reprocessed"] == ["file-b"] and changed["read_to_compare"] == 1
    off = build_index(root, ix, cfg.model_copy(update={"trust_file_stamps": False}))["documents"]
    assert (off["read_to_compare"], off["unchanged"]) == (3, 3)
