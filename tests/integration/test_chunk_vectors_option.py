"""Chunk vectors are an option: the default index embeds entities only, and the naive
vector baseline says how to get them rather than failing obscurely."""

import pytest

from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index import build_index
from dualgraph.tkg.loader import TextualKG

PAGES = [
    ("a", "# Alpha\n\nThe Alpha supports NFC and has a bright display.", [Variant("Alpha", "Alpha", ("phones",), ())]),
    ("b", "# Beta\n\nThe Beta lacks NFC but keeps the headphone jack.", [Variant("Beta", "Beta", ("phones",), ())]),
]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("ds")
    write_dataset(root, PAGES)
    return root


def _index(dataset, root, **tkg):
    config = IndexConfig(runner="inline", progress=False, patterns=False, tkg=TkgConfig(summarise=False, **tkg))
    manifest = build_index(dataset, root, config)
    return manifest, TextualKG.open(root)


def test_default_index_embeds_entities_but_not_chunks(dataset, tmp_path):
    manifest, tkg = _index(dataset, tmp_path / "ix")
    assert manifest["tkg"]["chunks"] >= 2 and manifest["tkg"]["entities"] > 0
    assert tkg.chunk_index is None
    assert (tmp_path / "ix" / "tkg" / "entity_index").is_dir()
    with pytest.raises(FileNotFoundError, match="--embed-chunks"):
        tkg.naive(object())


def test_embed_chunks_option_gives_the_naive_baseline_its_vectors(dataset, tmp_path):
    from dualgraph.models.factory import ModelsConfig, build_models

    _, tkg = _index(dataset, tmp_path / "ix", embed_chunks=True)
    assert tkg.chunk_index is not None and len(tkg.chunk_index) == len(tkg.chunks)
    embedder, _ = build_models(ModelsConfig())
    found = tkg.naive(embedder, top_chunks=1).retrieve(["which phone has no NFC"])[0]
    assert found.products


def test_turning_chunk_vectors_off_removes_the_old_ones(dataset, tmp_path):
    _, before = _index(dataset, tmp_path / "ix", embed_chunks=True)
    assert before.chunk_index is not None
    manifest, after = _index(dataset, tmp_path / "ix")
    assert manifest["documents"]["unchanged"] == 2  # only the Textual KG was rebuilt
    assert after.chunk_index is None
