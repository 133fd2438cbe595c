"""Candidate pairs for the aligner: exact batched kNN and mutual best matches, in bounded memory."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest

from dualgraph.align.candidates import Candidate, knn, mutual_best


def unit_rows(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    x = rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_knn_equals_brute_force():
    rng = np.random.default_rng(1)
    q, b = unit_rows(rng, 57, 16), unit_rows(rng, 83, 16)
    scores, ids = knn(q, b, k=5)
    assert scores.shape == ids.shape == (57, 5)
    assert scores.dtype == np.float32 and ids.dtype == np.int64
    full = q.astype(np.float64) @ b.astype(np.float64).T
    want = np.argsort(-full, axis=1, kind="stable")[:, :5]
    np.testing.assert_array_equal(ids, want)  # random data: no ties
    np.testing.assert_allclose(scores, np.take_along_axis(full, want, axis=1), atol=1e-5)


def test_batching_gives_the_same_result():
    rng = np.random.default_rng(2)
    q, b = unit_rows(rng, 101, 8), unit_rows(rng, 40, 8)
    one_scores, one_ids = knn(q, b, k=7, batch=4096)
    for batch in (1, 7, 100, 101):
        scores, ids = knn(q, b, k=7, batch=batch)
        np.testing.assert_array_equal(ids, one_ids)
        np.testing.assert_array_equal(scores, one_scores)


def test_knn_clips_k_and_handles_empty_sides():
    rng = np.random.default_rng(3)
    q, b = unit_rows(rng, 4, 3), unit_rows(rng, 2, 3)
    _, ids = knn(q, b, k=10)
    assert ids.shape == (4, 2) and sorted(ids[0].tolist()) == [0, 1]
    assert knn(q, b[:0], k=3)[1].shape == (4, 0)
    assert knn(q[:0], b, k=3)[0].shape == (0, 2)
    assert knn(q, b, k=0)[1].shape == (4, 0)
    with pytest.raises(ValueError, match="dim"):
        knn(q, unit_rows(rng, 2, 5), k=1)


def test_gpu_without_one_is_a_clear_error():
    import faiss

    if hasattr(faiss, "StandardGpuResources") and faiss.get_num_gpus() > 0:
        pytest.skip("this machine has a GPU")
    rng = np.random.default_rng(4)
    with pytest.raises(RuntimeError, match="GPU"):
        knn(unit_rows(rng, 2, 3), unit_rows(rng, 2, 3), k=1, gpu=True)


def test_mutual_best_recovers_a_permutation():
    rng = np.random.default_rng(5)
    src = unit_rows(rng, 200, 32)
    perm = rng.permutation(200)
    noisy = src[perm] + 0.05 * rng.standard_normal((200, 32)).astype(np.float32)
    dst = noisy / np.linalg.norm(noisy, axis=1, keepdims=True)
    cands = mutual_best(src, dst, k=5)
    assert len(cands) == 200 and all(c.mutual and c.rank == 0 for c in cands)
    # dst row j is a noisy copy of src row perm[j]: src row i went to dst row inverse[i]
    inverse = np.argsort(perm)
    assert [(c.src, c.dst) for c in cands] == [(i, int(inverse[i])) for i in range(200)]
    assert [c.src for c in cands] == sorted(c.src for c in cands)


def test_a_decoy_that_is_best_for_two_sources_is_mutual_for_one():
    src = np.array([[1.0, 0.0, 0.0], [0.8, 0.6, 0.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    # dst 0 is both src 0's and src 1's best match, and it prefers src 0
    dst = np.array([[0.96, 0.28, 0.0], [0.0, 0.6, 0.8], [0.0, 0.0, 1.0]], dtype=np.float32)
    top = knn(src, dst, k=1)[1][:, 0].tolist()
    assert top == [0, 0, 2]
    cands = mutual_best(src, dst, k=3)
    assert [(c.src, c.dst, c.mutual) for c in cands] == [(0, 0, True), (2, 2, True)]

    wider = mutual_best(src, dst, k=3, keep_top=2)
    by_src: dict[int, list[Candidate]] = {}
    for c in wider:
        by_src.setdefault(c.src, []).append(c)
    # src 1 has no mutual pair: its first two neighbours, ranks 0 and 1, both non-mutual
    assert [(c.dst, c.rank, c.mutual) for c in by_src[1]] == [(0, 0, False), (1, 1, False)]
    # src 0 keeps its mutual pair and two more
    assert [(c.rank, c.mutual) for c in by_src[0]] == [(0, True), (1, False), (2, False)]
    # keep_top never reaches past rank k - 1
    assert max(c.rank for c in mutual_best(src, dst, k=2, keep_top=5)) == 1


def test_min_score_filters():
    src = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    dst = np.array([[1.0, 0.0], [0.6, 0.8]], dtype=np.float32)
    assert [(c.src, c.dst) for c in mutual_best(src, dst)] == [(0, 0), (1, 1)]
    assert [(c.src, c.dst) for c in mutual_best(src, dst, min_score=0.9)] == [(0, 0)]
    assert all(c.score >= 0.5 for c in mutual_best(src, dst, k=2, keep_top=2, min_score=0.5))
    assert mutual_best(src[:0], dst) == [] and mutual_best(src, dst[:0]) == []


N, DIM = 20_000, 32  # an all-pairs float32 matrix would take N * N * 4 bytes = 1.6 GB


@pytest.fixture(scope="module")
def big_pair():
    rng = np.random.default_rng(7)
    return unit_rows(rng, N, DIM), unit_rows(rng, N, DIM)


def test_memory_stays_bounded_under_tracemalloc(big_pair):
    src, dst = big_pair
    # tracemalloc sees numpy's buffers (the check would catch a dense similarity block)
    tracemalloc.start()
    try:
        probe = np.ones((1000, 2000), dtype=np.float32)
        assert tracemalloc.get_traced_memory()[1] >= probe.nbytes
        del probe
        tracemalloc.reset_peak()
        cands = mutual_best(src, dst, k=10, batch=1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert cands and all(c.mutual for c in cands)
    assert peak < 100 * 2**20, f"peak traced memory {peak / 2**20:.1f} MiB"


def test_memory_stays_bounded_in_resident_set():
    """FAISS's own buffers are C++ allocations tracemalloc does not see: measure the peak RSS of a
    fresh process instead, before and during the search."""
    script = textwrap.dedent(
        f"""
        import resource
        import numpy as np
        from dualgraph.align.candidates import mutual_best
        rng = np.random.default_rng(7)
        def rows():
            x = rng.standard_normal(({N}, {DIM})).astype(np.float32)
            return x / np.linalg.norm(x, axis=1, keepdims=True)
        src, dst = rows(), rows()
        mutual_best(src[:50], dst[:50], batch=16)  # FAISS and BLAS threads warmed up
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        mutual_best(src, dst, k=10, batch=1024)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print((after - before) // 1024)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    grown_mib = int(done.stdout.strip().splitlines()[-1])
    assert grown_mib < 200, f"peak RSS grew by {grown_mib} MiB (all pairs would be ~1600)"
