"""Freed native memory goes back to the OS when asked (glibc Linux, where the indexer runs)."""

import ctypes
import ctypes.util
import sys

import pytest

from dualgraph.stores.heap import release_free_memory


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def glibc():
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    return libc if hasattr(libc, "malloc_trim") else None


@pytest.mark.skipif(glibc() is None, reason="malloc_trim is glibc's")
def test_a_fragmented_heap_shrinks_after_release():
    libc = glibc()
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    # 160 MB in small blocks, then all but every 64th freed: the heap cannot shrink from its
    # top, so the free pages stay resident until someone trims them (as after a bulk load)
    blocks = [libc.malloc(2048) for _ in range(80_000)]
    for b in blocks:
        ctypes.memset(b, 1, 2048)
    kept = []
    for i, b in enumerate(blocks):
        if i % 64:
            libc.free(b)
        else:
            kept.append(b)
    before = rss_mb()
    assert release_free_memory() is True
    after = rss_mb()
    for b in kept:
        libc.free(b)
    assert before - after > 80, (before, after)
