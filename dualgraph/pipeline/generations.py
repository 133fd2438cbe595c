"""Generations of an index directory: a reader sees the old index or the new one, never a half-built one.

An index run never writes where readers read. It builds the next generation beside the one
being read and publishes it by replacing one symbolic link::

    INDEX/
      current -> generations/g000004    what every reader opens (a relative link, replaced atomically)
      next -> generations/g000005       only while a run builds it; a killed run resumes there
      generations/g000004/              a whole index: skg/, tkg/, patterns/, manifest.json, state.json, ...
      generations/g000004/cache -> ../../cache
      cache/                            the response cache, shared by every generation
      manifest.json -> current/manifest.json, skg -> current/skg, ...   the old layout's paths, as links
      .index.lock                       held by the run that writes (``index``, ``align``)

A new generation starts as a copy of the current one that costs what the run changes, not what
the index holds: files nobody rewrites in place are hard links (the store's SST files, which
RocksDB never modifies, the content-addressed shards, the files replaced by rename), the small
ones written in place are copied, and the views a run rebuilds (``tkg/``, ``patterns/``) are hard
links made private (:func:`unshare`) just before the stage that rewrites them.

A reader holds a shared ``flock`` on the generation's ``.lease`` file for as long as it reads
(:func:`lease`); an old generation is deleted, at the end of a run or at the start of the next,
only when no reader holds it. Locks die with their process, so a killed reader holds nothing.
Every lease file is made by the run that writes the generation, so an index on a read-only
directory is read with leases too (a shared lock needs only a file opened for reading).

An index directory without ``current`` (made before generations, or copied by a tool that
followed the links) is read as it is, in place; its first run moves it into a generation.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GENERATIONS = "generations"
CURRENT = "current"
NEXT = "next"
LOCK = ".index.lock"
LEASE = ".lease"
PURPOSE = ".purpose"
CACHE = "cache"
# entries of the index directory that belong to no generation
_MACHINERY = frozenset({GENERATIONS, CURRENT, NEXT, LOCK, CACHE})
_NAME = re.compile(r"^g(\d{6,})$")
_STORE = "skg/oxigraph"
# files replaced by rename, never written in place: a hard link to the current generation's is safe
_REPLACED = frozenset(
    {"state.json", "manifest.json", "quarantine.jsonl", "coverage.json", "values_kept_as_text.jsonl", "skg/catalog.nq"}
)
# content-addressed, written once under a temporary name
_IMMUTABLE = ("skg/shards/", "tkg/shards/")
# views a run rewrites as a whole, some files in place: linked, then made private before the rewrite
VIEWS = ("tkg/", "patterns/", "align/")


class IndexBusy(RuntimeError):
    """Another process is writing this index (an index or align run); the message is one line."""


def _gen_name(n: int) -> str:
    return f"g{n:06d}"


def current_generation(index_dir: str | os.PathLike[str]) -> Path | None:
    """The generation readers of ``index_dir`` see now, or None for an index without generations
    (or not built yet). Only a link ``current -> generations/gNNNNNN`` counts: a copy that followed
    the links is read in place, as an index from before generations.

    >>> import tempfile
    >>> current_generation(tempfile.mkdtemp()) is None
    True
    """
    root = Path(index_dir)
    link = root / CURRENT
    try:
        target = os.readlink(link)
    except OSError:
        return None
    parts = Path(target).parts
    if len(parts) != 2 or parts[0] != GENERATIONS or not _NAME.match(parts[1]):
        return None
    gen = root / GENERATIONS / parts[1]
    return gen if gen.is_dir() else None


def resolve(index_dir: str | os.PathLike[str]) -> Path:
    """The directory that holds the index's parts now: its current generation, or ``index_dir``
    itself (an index from before generations, or a generation's own directory)."""
    return current_generation(index_dir) or Path(index_dir)


def index_root(path: str | os.PathLike[str]) -> Path:
    """The index directory a generation's directory belongs to (``path`` itself otherwise).

    >>> str(index_root("/x/ix/generations/g000003")), str(index_root("/x/ix"))
    ('/x/ix', '/x/ix')
    """
    p = Path(path)
    if _NAME.match(p.name) and p.parent.name == GENERATIONS:
        return p.parent.parent
    return p


def generation_name(path: str | os.PathLike[str]) -> str | None:
    """``"g000003"`` for a generation's directory, None for anything else."""
    p = Path(path)
    return p.name if _NAME.match(p.name) and p.parent.name == GENERATIONS else None


# -- readers ------------------------------------------------------------------------------------


@dataclass
class Lease:
    """A reader's hold on one generation (``dir``): it is not deleted until :meth:`release`.

    For an index without generations ``dir`` is the index directory and nothing is held."""

    dir: Path
    _fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing drops the flock

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __del__(self) -> None:
        self.release()


def lease(index_dir: str | os.PathLike[str], *, attempts: int = 50) -> Lease:
    """Resolve ``index_dir`` to its current generation and hold it (a shared lock on its lease
    file), so that no index run deletes it while it is read. A generation being deleted at this
    very moment is skipped for the one that replaced it. A generation's own directory (a reader
    pinned to one, opening another part of it) is held as it is.

    >>> import tempfile
    >>> with lease(tempfile.mkdtemp()) as held:  # no generations: read in place, nothing held
    ...     held.held
    False
    """
    if generation_name(index_dir) is not None:
        return hold(index_dir)
    for _ in range(attempts):
        gen = current_generation(index_dir)
        if gen is None:
            return Lease(Path(index_dir))
        held = _hold(gen)
        if held is not None:
            return held
        time.sleep(0.01)
    raise IndexBusy(f"index {index_dir}: its generations changed {attempts} times while being opened; try again")


def hold(gen_dir: str | os.PathLike[str]) -> Lease:
    """Hold a generation's directory that is already known (a pinned reader opening another part);
    a directory that is no generation, or has no lease file, is returned unheld."""
    gen = Path(gen_dir)
    if generation_name(gen) is None or not (gen / LEASE).is_file():
        return Lease(gen)
    held = _hold(gen)
    if held is None:
        raise FileNotFoundError(f"index generation {gen} was removed: open the index again")
    return held


def _hold(gen: Path) -> Lease | None:
    path = gen / LEASE
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        # a generation without a lease file (one copied in by hand) is read unheld; one being
        # deleted has lost its directory as well
        return Lease(gen) if gen.is_dir() else None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        # deleted between the open and the lock: the path no longer leads to this lease file
        if os.stat(path).st_ino != os.fstat(fd).st_ino:
            raise FileNotFoundError(path)
    except OSError:
        os.close(fd)
        return None
    return Lease(gen, fd)


# -- writers ------------------------------------------------------------------------------------


@dataclass
class Generation:
    """The generation a run writes (``dir``), in the index directory ``root``."""

    root: Path
    dir: Path
    purpose: str
    resumed: bool = False
    cloned: dict[str, Any] = field(default_factory=dict)
    published: bool = False

    @property
    def name(self) -> str:
        return self.dir.name

    def report(self) -> dict[str, Any]:
        """What the manifest says of it: its name, whether a killed run's was resumed, what the copy cost."""
        return {"name": self.name, "resumed": self.resumed, "copied_from": self.cloned}

    def publish(self) -> list[str]:
        """Make this generation the one readers see (one atomic rename of a link), give the old
        layout's paths their links into it, and delete the old generations nobody reads; returns
        the generations deleted."""
        _replace_link(self.root / CURRENT, f"{GENERATIONS}/{self.name}")
        with contextlib.suppress(FileNotFoundError):
            (self.root / NEXT).unlink()
        self.published = True
        _link_entries(self.root, self.dir)
        return collect(self.root)


@contextlib.contextmanager
def writing(index_dir: str | os.PathLike[str], *, purpose: str = "index") -> Iterator[Generation]:
    """Write a new generation of the index at ``index_dir``, holding the index's write lock.

    ``purpose`` ``"index"`` resumes the generation a killed index run left (``next``), else
    starts one as a copy of the current generation (or of an index from before generations, or
    empty). Other purposes (``"align"``) never resume: what they left is discarded, and an index
    run left unfinished must be finished first. The caller calls :meth:`Generation.publish` when
    the generation is whole; a generation not published stays for the next index run to resume.
    """
    root = Path(index_dir)
    root.mkdir(parents=True, exist_ok=True)
    fd = _lock(root)
    try:
        _tidy(root)
        gen = _resume(root, purpose) or _start(root, purpose)
        try:
            yield gen
        except BaseException:
            if purpose != "index" and not gen.published:
                _drop_next(root)
            raise
    finally:
        os.close(fd)


def _lock(root: Path) -> int:
    path = root / LOCK
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
        os.close(fd)
        raise IndexBusy(
            f"index {root}: another run (pid {holder}) is writing it; wait for it to end, or stop it "
            "(a stopped index run resumes where it was)"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def _tidy(root: Path) -> None:
    """Leftovers of killed runs: half-made copies, half-deleted generations, a ``next`` that was published."""
    gens = root / GENERATIONS
    if gens.is_dir():
        for d in gens.iterdir():
            if d.name.startswith((".tmp-", ".trash-")):
                shutil.rmtree(d, ignore_errors=True)
    nxt = _next_generation(root)
    if nxt is not None and nxt == current_generation(root):
        (root / NEXT).unlink()


def _next_generation(root: Path) -> Path | None:
    try:
        target = Path(os.readlink(root / NEXT))
    except OSError:
        return None
    gen = root / target
    return gen if len(target.parts) == 2 and _NAME.match(target.name) and gen.is_dir() else None


def _drop_next(root: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        (root / NEXT).unlink()
    collect(root)


def _resume(root: Path, purpose: str) -> Generation | None:
    gen = _next_generation(root)
    if gen is None:
        if os.path.lexists(root / NEXT):
            (root / NEXT).unlink()  # a link to nothing: its run never got past the copy
        return None
    left_by = (gen / PURPOSE).read_text(encoding="utf-8").strip() if (gen / PURPOSE).is_file() else "index"
    if left_by == "index" and purpose != "index":
        raise IndexBusy(
            f"index {root}: an index run stopped before it finished ({gen.name}); run `dualgraph index` "
            f"to finish it before `{purpose}`"
        )
    if left_by != purpose or purpose != "index":
        _drop_next(root)
        return None
    return Generation(root, gen, purpose, resumed=True)


def _start(root: Path, purpose: str) -> Generation:
    gens = root / GENERATIONS
    gens.mkdir(exist_ok=True)
    numbers = [int(m.group(1)) for d in gens.iterdir() if (m := _NAME.match(d.name.split("-")[-1]))]
    name = _gen_name(max(numbers, default=0) + 1)
    tmp = gens / f".tmp-{name}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    source = current_generation(root)
    sources: list[tuple[Path, str]] = []
    if source is not None:
        sources.append((source, source.name))
        # a real entry beside the links (an old-layout file put there, a copy's leftover) is part of the index
        overlay = [e for e in _own_entries(root) if not e.is_symlink()]
    else:
        overlay = _own_entries(root)  # an index from before generations, in place (or nothing yet)
    stats = _Stats()
    for entry in _own_entries(source) if source is not None else []:
        if not (root / entry.name).exists() or (root / entry.name).is_symlink():
            _clone(entry, tmp / entry.name, entry.name, stats)
    for entry in overlay:
        _clone(entry, tmp / entry.name, entry.name, stats)
    if overlay:
        sources.append((root, "the index directory"))
    (root / CACHE).mkdir(exist_ok=True)
    (tmp / CACHE).symlink_to(Path("..", "..", CACHE))
    (tmp / LEASE).touch()
    (tmp / PURPOSE).write_text(purpose + "\n", encoding="utf-8")
    gen = gens / name
    os.rename(tmp, gen)
    _replace_link(root / NEXT, f"{GENERATIONS}/{name}")
    cloned = stats.report(time.perf_counter())
    cloned["from"] = [label for _, label in sources]
    return Generation(root, gen, purpose, cloned=cloned)


def _own_entries(directory: Path) -> list[Path]:
    """The entries of an index directory or generation that are parts of the index."""
    return sorted(
        e
        for e in directory.iterdir()
        if e.name not in _MACHINERY and not e.name.startswith(".") and not e.name.endswith(".tmp")
    )


class _Stats:
    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.linked = self.copied = self.copied_bytes = self.linked_bytes = 0

    def report(self, now: float) -> dict[str, Any]:
        return {
            "linked_files": self.linked,
            "linked_bytes": self.linked_bytes,
            "copied_files": self.copied,
            "copied_bytes": self.copied_bytes,
            "seconds": round(now - self.started, 3),
        }


def _clone(src: Path, dst: Path, rel: str, stats: _Stats) -> None:
    """Copy one entry of a generation into another: hard links where no one writes in place."""
    if src.is_symlink():
        return  # links inside a generation are made by it (cache), not copied
    if src.is_dir():
        dst.mkdir()
        for child in sorted(src.iterdir()):
            _clone(child, dst / child.name, f"{rel}/{child.name}", stats)
        return
    if not src.is_file() or src.name.endswith(".tmp"):
        return
    in_store = rel.startswith(_STORE + "/")
    if in_store and (src.name == "LOCK" or src.name.startswith("LOG")):
        return  # RocksDB's lock and its info logs belong to the process that opened the copy
    linkable = (
        (in_store and src.suffix == ".sst")  # RocksDB never writes an SST file after it is made
        or rel in _REPLACED
        or rel.startswith(_IMMUTABLE)
        or rel.startswith(VIEWS)
    )
    size = src.stat().st_size
    if linkable:
        try:
            os.link(src, dst)
            stats.linked += 1
            stats.linked_bytes += size
            return
        except OSError as e:
            if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP):
                raise
    shutil.copy2(src, dst)
    stats.copied += 1
    stats.copied_bytes += size


def unshare(*paths: str | os.PathLike[str]) -> int:
    """Give each file under ``paths`` an inode of its own (a copy renamed over it) when it is a
    hard link shared with another generation, before a stage rewrites it in place; returns the
    bytes copied. Files of this generation's own are left alone."""
    copied = 0
    for top in map(Path, paths):
        files = [top] if top.is_file() else [p for p in top.rglob("*") if p.is_file() and not p.is_symlink()]
        for f in files:
            st = f.lstat()
            if st.st_nlink < 2:
                continue
            tmp = f.with_name(f".{f.name}.{os.getpid()}.unshare")
            shutil.copy2(f, tmp)
            os.replace(tmp, f)
            copied += st.st_size
    return copied


def collect(index_dir: str | os.PathLike[str]) -> list[str]:
    """Delete the generations that are neither current nor being built and that no reader holds;
    returns their names. A held one stays for a later run to delete."""
    root = Path(index_dir)
    gens = root / GENERATIONS
    if not gens.is_dir():
        return []
    keep = {g.name for g in (current_generation(root), _next_generation(root)) if g is not None}
    removed = []
    for d in sorted(gens.iterdir()):
        if d.name in keep or not d.is_dir() or d.is_symlink():
            continue
        if not _NAME.match(d.name):
            if d.name.startswith((".tmp-", ".trash-")):
                shutil.rmtree(d, ignore_errors=True)
            continue
        fd = None
        try:
            fd = os.open(d / LEASE, os.O_RDWR | os.O_CLOEXEC)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except FileNotFoundError:
            pass  # no lease file: nobody can hold it
        except BlockingIOError:
            if fd is not None:
                os.close(fd)
            continue  # a reader holds it
        try:
            trash = gens / f".trash-{d.name}-{os.getpid()}"
            os.rename(d, trash)  # readers that resolve it from now on find it gone
            shutil.rmtree(trash, ignore_errors=True)
            removed.append(d.name)
        finally:
            if fd is not None:
                os.close(fd)
    return removed


def _replace_link(link: Path, target: str) -> None:
    """Point ``link`` at ``target`` in one rename; a real directory in its way (a copy that followed
    the links) is moved aside first."""
    if link.exists() and not link.is_symlink():
        aside = link.parent / GENERATIONS / f".trash-{link.name}-{os.getpid()}"
        os.rename(link, aside)
    tmp = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    tmp.symlink_to(target)
    os.replace(tmp, link)


def _link_entries(root: Path, gen: Path) -> None:
    """The old layout's paths (``INDEX/manifest.json``, ``INDEX/skg``, ...) as links through
    ``current``; real entries left there (an index from before generations, moved into its first
    generation by the run that published it) are moved aside and deleted."""
    trash = root / GENERATIONS / f".trash-root-{os.getpid()}"
    names = {e.name for e in _own_entries(gen)}
    for entry in _own_entries(root):
        if entry.is_symlink():
            if entry.name in names and os.readlink(entry) == f"{CURRENT}/{entry.name}":
                continue
            entry.unlink()
        else:
            trash.mkdir(exist_ok=True)
            os.rename(entry, trash / entry.name)
    for name in sorted(names):
        if not os.path.lexists(root / name):
            (root / name).symlink_to(Path(CURRENT, name))
    shutil.rmtree(trash, ignore_errors=True)
