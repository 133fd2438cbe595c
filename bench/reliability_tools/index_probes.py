"""Probes of an index on disk (issue 34, points 3 and 6): readers during a re-index, a re-index
killed half-way, every part deleted and corrupted in turn, an index on a read-only directory.

Each probe returns rows ``(case, what happened, held)`` for the reliability report.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from dualgraph.config import IndexConfig

from . import kill_points

ROOT = Path(__file__).resolve().parents[2]
Row = tuple[str, str, bool]

_READER = """
import json, sys
from pathlib import Path
from dualgraph import DualGraph
ix, stop, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
seen = []
while not stop.exists() or len(seen) < 3:
    try:
        with DualGraph.open(ix) as graph:
            rows = graph.sparql("SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a skgt:Product }")
            n = int(rows["results"]["bindings"][0]["n"]["value"])
            seen.append([graph.generation.name, graph.manifest["products"], n, None])
    except Exception as e:
        seen.append([None, None, None, f"{type(e).__name__}: {str(e)[:200]}"])
out.write_text(json.dumps(seen))
"""


def child_env() -> dict[str, str]:
    """The environment of a child process that imports this checkout (and these tools)."""
    path = os.pathsep.join([str(ROOT), str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path}


def reader_during_reindex(work: Path, runs: int = 3) -> Row:
    """A reader in its own process opens the index through the front door in a loop while
    ``runs`` re-indexes change, remove and add documents; every read must see one whole generation
    (the store holding what that generation's manifest counts), never an error or a partial one."""
    v1, v2 = work / "v1", work / "v2"
    kill_points.write_v1(v1)
    shutil.copytree(v1, v2)
    kill_points.make_v2(v2)
    config = kill_points.skg_only_config()
    ix = work / "ix"
    from dualgraph.pipeline.index import build_index

    counts = {build_index(v1, ix, config)["products"]}
    stop, out = work / "stop", work / "seen.json"
    reader = subprocess.Popen(
        [sys.executable, "-c", _READER, str(ix), str(stop), str(out)], env=child_env(), stderr=subprocess.DEVNULL
    )
    try:
        time.sleep(1.5)
        for i in range(runs):
            counts.add(build_index(v2 if i % 2 == 0 else v1, ix, config)["products"])
    finally:
        stop.touch()
        reader.wait(timeout=300)
    seen = json.loads(out.read_text()) if out.is_file() else []
    errors = [e for *_, e in seen if e]
    partial = [s for s in seen if s[3] is None and (s[1] != s[2] or s[2] not in counts)]
    gens = len({g for g, *_ in seen if g})
    held = bool(seen) and not errors and not partial
    what = (
        f"{len(seen)} reads over {runs} re-indexes saw {gens} generations; "
        f"{len(errors)} errors, {len(partial)} partial (a store not holding its manifest's products)"
        + (f"; first: {(errors or partial)[0]}" if errors or partial else "")
    )
    return ("re-index with a concurrent reader", what, held)


def killed_reindex(work: Path, points: tuple[str, ...]) -> list[Row]:
    """A re-index SIGKILLed at each point: the old index must stay readable and whole, and the
    next run must resume and give what a clean run gives."""
    from dualgraph import DualGraph
    from dualgraph.pipeline.generations import NEXT
    from dualgraph.pipeline.index import build_index
    from dualgraph.pipeline.index_check import check_index

    config = kill_points.skg_only_config()
    prepared = kill_points.prepare(work / "prep", config)
    rows = []
    for point in points:
        ix = work / f"ix-{point}"
        shutil.copytree(prepared.v1_index, ix, symlinks=True)
        old = json.loads((ix / "manifest.json").read_text())["products"]
        killed = kill_points.run_killed(prepared.v2_dataset, ix, config, point) == -9
        with DualGraph.open(ix) as graph:
            n = int(graph.sparql(_COUNT)["results"]["bindings"][0]["n"]["value"])
        broken = [c.line() for c in check_index(ix) if c.broken]
        left = (ix / NEXT).is_symlink()
        m = build_index(prepared.v2_dataset, ix, config)
        same = kill_points.dump(ix) == kill_points.dump(prepared.clean)
        held = killed and n == old and not broken and same and m["generation"]["resumed"] == left
        rows.append(
            (
                f"re-index killed at {point!r}",
                f"killed: {killed}; read after the kill: {n} of the old {old} products, check "
                f"{'clean' if not broken else broken[0]}; resumed: {m['generation']['resumed']}; "
                f"store {'equals' if same else 'DIFFERS from'} a clean run's",
                held,
            )
        )
    return rows


_COUNT = "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a skgt:Product }"


def _junk(path: Path) -> None:
    size = path.stat().st_size
    path.write_bytes((b"junk" * max(size, 1))[: max(size, 8)] if size else b"junk")


def damage_cases(ix: Path, *, every_part: bool) -> list[tuple[str, str, Callable[[Path], None]]]:
    """(case, the part's path, damage) for the parts of the built index at ``ix``: each part
    deleted and corrupted (``every_part``), or a few representative ones."""
    from dualgraph.pipeline.generations import resolve
    from dualgraph.pipeline.index_check import STORE_PART, read_manifest

    gen = resolve(ix)
    parts = read_manifest(gen).get("parts", {})
    names = sorted(parts)
    if not every_part:
        wanted = [STORE_PART, "state.json"] + [n for n in names if n.startswith("skg/shards/")][:1]
        wanted += [n for n in names if n.startswith("tkg/entity_index/")][:1]
        names = [n for n in names if n in wanted]
    out = []
    for rel in names:
        kind = parts[rel].get("kind")

        def delete(ix: Path, rel: str = rel) -> None:
            p = resolve(ix) / rel
            shutil.rmtree(p) if p.is_dir() else p.unlink()

        def corrupt(ix: Path, rel: str = rel, kind: str | None = kind) -> None:
            p = resolve(ix) / rel
            if kind == "store":
                _junk(p / "CURRENT")
            else:
                _junk(p)

        out.append((f"{rel} deleted", rel, delete))
        out.append((f"{rel} corrupted", rel, corrupt))
    return out


def part_damage(built: Path, dataset: Path, config: IndexConfig, work: Path, *, every_part: bool) -> list[Row]:
    """Each part of ``built`` deleted and corrupted in turn (on a copy): ``check`` must name it
    (or call an absent cache absent), the re-index must rebuild it and say so, the products must
    be all there again, nothing may end in a traceback."""
    from dualgraph.pipeline.index import build_index
    from dualgraph.pipeline.index_check import check_index

    want = json.loads((built / "manifest.json").read_text())["products"]
    rows = []
    for case, rel, damage in damage_cases(built, every_part=every_part):
        ix = work / "copy"
        if ix.exists():
            shutil.rmtree(ix)
        shutil.copytree(built, ix, symlinks=True)
        damage(ix)
        try:
            found = [c for c in check_index(ix) if c.part == rel or c.part.startswith(rel.rstrip("/") + "/")]
            named = any(c.broken for c in found) or any(c.status == "absent" for c in found)
            m = build_index(dataset, ix, config)
            repaired = [line for line in m["repaired"] if line.startswith(rel)]
            clean = [c.line() for c in check_index(ix) if c.broken]
            ok = named and m["products"] == want and not clean
            what = (
                f"check: {found[0].line() if found else 'not listed'}; re-index: "
                f"{repaired[0] if repaired else 'nothing said'}; {m['products']} of {want} products"
                + (f"; still broken: {clean[0]}" if clean else "")
            )
        except Exception as e:  # a traceback where a line was due is the finding
            ok, what = False, f"{type(e).__name__}: {str(e)[:200]}"
        rows.append((case, what, ok))
    return rows


def unprivileged_prefix() -> list[str] | None:
    """A command prefix under which files are checked as for an ordinary user (None: no way here)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search"] if setpriv else None


def read_only_copy(ix: Path, to: Path) -> Path:
    """A copy of the index (its links kept) that nobody but root with every capability may write."""
    shutil.copytree(ix, to, symlinks=True)
    subprocess.run(["chmod", "-R", "a-w", str(to)], check=True)
    return to


def writable_again(path: Path) -> None:
    subprocess.run(["chmod", "-R", "u+w", str(path)], check=False)
