"""Give freed heap memory back to the operating system after a large, short-lived allocation.

Oxigraph's bulk loader sorts quads in native buffers on its own threads, and glibc keeps
what those threads freed in per-thread arenas instead of unmapping it: after loading 1.8M
quads a process sat on 600 MB it no longer used, and over a 100k-product index run the
resident set grew by gigabytes that way. ``malloc_trim(0)`` returns the free pages of every
arena (measured: 608 -> 135 MB after that load). Elsewhere (macOS, musl) it is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys

__all__ = ["release_free_memory"]


@functools.lru_cache(maxsize=1)
def _trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim  # glibc only; musl has no such symbol
    except (OSError, AttributeError):
        return None


def release_free_memory() -> bool:
    """Return free heap pages to the OS; True when the C library could be asked to.

    >>> isinstance(release_free_memory(), bool)
    True
    """
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
