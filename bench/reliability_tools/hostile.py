"""A SpecsQA dataset full of hostile entries next to good ones, and a checker for what the index made of it.

``write_hostile_dataset`` writes ``good`` valid documents beside one entry per broken
kind and returns a :class:`HostileManifest` saying, for every entry, what an honest
indexer must do with it:

* ``"indexed"``: the entry is a document; its ``products`` must be in the store, and at
  least ``min_records`` quarantine records must name a file inside it (a bad variant,
  a bad reference). A reference that leaves the dataset is reported through the
  document's own metadata file, never as the outside path itself.
* ``"quarantined"``: the metadata is unusable; at least one quarantine record must name a
  file inside the entry and none of its products may be in the store.
* ``"ignored"``: not a document at all; the index manifest must list it as
  ``manifest["ignored"] = [{"path": "<entry, relative to the dataset root>", "reason": "..."}]``.

``check_index`` compares an index (its manifest, quarantine records, the product names
in its store, the text it holds) with that promise. Big inputs are sized by
:class:`HostileLimits`, so a quick tier can run the same kinds against small limits the
indexer is configured with too.
"""

from __future__ import annotations

import json
import os
import random
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "OUTCOMES",
    "QUICK_LIMITS",
    "CheckResult",
    "EntryCheck",
    "HostileEntry",
    "HostileLimits",
    "HostileManifest",
    "check_index",
    "collect_index_evidence",
    "write_hostile_dataset",
]

OUTCOMES = ("indexed", "quarantined", "ignored")


@dataclass(frozen=True)
class HostileLimits:
    """The limits the indexer is assumed to enforce; the generator writes just past each."""

    max_file_bytes: int = 10_000_000  # a metadata or rawspecs file larger than this is refused
    max_variants: int = 100_000  # variant records in one rawspecs file
    nesting_depth: int = 100_000  # levels of [[[...]]]: far past the JSON parser's recursion limit


# Small enough that every kind is written and indexed in a second or two.
QUICK_LIMITS = HostileLimits(max_file_bytes=64_000, max_variants=300, nesting_depth=100_000)


@dataclass(frozen=True)
class HostileEntry:
    name: str  # a file or directory directly under the dataset root
    kind: str
    description: str
    expected: str  # one of OUTCOMES
    products: tuple[str, ...] = ()  # must be in the store
    optional_products: tuple[str, ...] = ()  # may be in the store (a spec-level problem can keep its product)
    absent_products: tuple[str, ...] = ()  # must never be in the store
    min_records: int = 0  # quarantine records naming a file inside the entry, at least
    # Stored names that may stand in for quarantine records: a name stored with its hostile
    # characters removed is handled as well as one refused.
    sanitised: tuple[str, ...] = ()

    @property
    def broken(self) -> bool:
        return self.kind != "good"


@dataclass(frozen=True)
class HostileManifest:
    root: str
    seed: int
    marker: str  # a word written only outside the root: it must never become searchable
    limits: HostileLimits
    outside_paths: tuple[str, ...]
    entries: tuple[HostileEntry, ...]

    @property
    def kinds(self) -> list[str]:
        return sorted({e.kind for e in self.entries})

    def entry(self, name: str) -> HostileEntry:
        for e in self.entries:
            if e.name == name:
                return e
        raise KeyError(name)

    def expected_products(self) -> set[str]:
        return {p for e in self.entries for p in e.products}

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "seed": self.seed,
            "marker": self.marker,
            "limits": asdict(self.limits),
            "outside_paths": list(self.outside_paths),
            "entries": [
                {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(e).items()} for e in self.entries
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HostileManifest:
        fields: list[dict[str, Any]] = [
            {k: tuple(v) if isinstance(v, list) else v for k, v in e.items()} for e in data["entries"]
        ]
        entries = tuple(HostileEntry(**f) for f in fields)
        return cls(
            root=data["root"],
            seed=data["seed"],
            marker=data["marker"],
            limits=HostileLimits(**data["limits"]),
            outside_paths=tuple(data["outside_paths"]),
            entries=entries,
        )


# ---------------------------------------------------------------------------------------------
# writing


_BRANDS = ("Acme", "Borealis", "Cobalt", "Dynamo", "Ember", "Fjord", "Granite", "Helix", "Indigo", "Juniper")
_SERIES = ("Phone", "Tab", "Watch", "Book", "Buds", "Cam")


class _Writer:
    def __init__(self, root: Path, rng: random.Random, limits: HostileLimits, marker: str) -> None:
        self.root, self.rng, self.limits, self.marker = root, rng, limits, marker
        self.entries: list[HostileEntry] = []
        self.outside: list[str] = []

    # -- building blocks ------------------------------------------------------------------

    def variant(self, name: str, **extra_specs: Any) -> dict[str, Any]:
        r = self.rng
        specs: dict[str, Any] = {
            "Battery:Capacity": f"{r.randrange(3000, 6000, 100)} mAh",
            "Physical:Weight": f"{r.randrange(150, 260)} g",
            "Display:Size": f"{r.randrange(55, 69) / 10} inch",
            "Price": f"{r.randrange(99, 1299)}.00 GBP",
            "Model Code": f"HX-{r.randrange(10**5, 10**6)}",
        }
        specs.update(extra_specs)
        return {"name": name, "prod_range": name.rsplit(" ", 1)[0], "categories": ["devices"], "specs": specs}

    def page(self, name: str) -> str:
        r = self.rng
        return (
            f"# {name}\n\nThe {name} has a {r.randrange(3000, 6000, 100)} mAh battery and charges at "
            f"{r.choice((18, 25, 45, 65))} W. It comes in {r.choice(('black', 'silver', 'green'))}.\n"
        )

    def write_bytes(self, rel: str, data: bytes) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    def write_json(self, rel: str, data: Any) -> None:
        # ensure_ascii keeps lone surrogates writable: they travel as \\udXXX escapes
        self.write_bytes(rel, json.dumps(data, indent=1).encode("ascii"))

    def document(
        self,
        entry: str,
        *,
        products: Iterable[str] = (),
        markdown: str | None = None,
        meta: Mapping[str, Any] | None = None,
        extra_prescience: Iterable[dict[str, Any]] = (),
        extra_content: Iterable[dict[str, Any]] = (),
        write_meta: bool = True,
    ) -> dict[str, Any]:
        """A document directory with one page and one rawspecs file; returns its metadata."""
        names = list(products)
        md_rel = f"{entry}/part-{entry}.md"
        self.write_bytes(
            md_rel, (markdown if markdown is not None else self.page(names[0] if names else entry)).encode()
        )
        data: dict[str, Any] = {
            "id": entry,
            "type": "fs:file",
            "name": f"{entry}.md",
            "content": [{"id": f"part-{entry}", "path_textualized": md_rel}, *extra_content],
            "prescience": list(extra_prescience),
        }
        if names:
            inj_rel = f"{entry}/inject-{entry}.json"
            self.write_json(inj_rel, [self.variant(n) for n in names])
            data["prescience"].insert(0, {"format": "rawspecs", "path": inj_rel})
        data.update(meta or {})
        if write_meta:
            self.write_json(f"{entry}/{entry}.json", data)
        return data

    def add(self, entry: HostileEntry) -> None:
        assert entry.expected in OUTCOMES, entry
        self.entries.append(entry)

    def outside_file(self, suffix: str, data: bytes) -> Path:
        # next to the root, never inside it: what a traversal or an escaping link would reach
        path = self.root.parent / f"{self.root.name}-outside-{suffix}"
        path.write_bytes(data)
        self.outside.append(str(path))
        return path

    # -- kinds ----------------------------------------------------------------------------

    def good(self, n: int) -> None:
        names: list[str] = []
        while len(names) < n:
            name = f"{self.rng.choice(_BRANDS)} {self.rng.choice(_SERIES)} {self.rng.randrange(1, 10_000)}"
            if name not in names:
                names.append(name)
        for i, name in enumerate(names):
            entry = f"file-good-{i:03d}"
            self.document(entry, products=[name])
            self.add(HostileEntry(entry, "good", "a valid page with a spec table", "indexed", products=(name,)))

    def quarantined_meta(self, kind: str, description: str, data: bytes, *, as_name: str | None = None) -> None:
        """A document whose metadata file holds ``data``; the page and specs beside it are fine."""
        entry = f"file-bad-{kind}"
        product = f"Refused {kind.replace('-', ' ').title()} Phone"
        self.document(entry, products=[product], write_meta=False)
        self.write_bytes(f"{entry}/{as_name or entry + '.json'}", data)
        self.add(HostileEntry(entry, kind, description, "quarantined", absent_products=(product,)))

    def metadata_kinds(self) -> None:
        lim = self.limits

        def meta_of(kind: str, **over: Any) -> dict[str, Any]:
            entry = f"file-bad-{kind}"
            product = f"Refused {kind.replace('-', ' ').title()} Phone"
            data = {
                "id": entry,
                "type": "fs:file",
                "content": [{"path_textualized": f"{entry}/part-{entry}.md"}],
                "prescience": [{"format": "rawspecs", "path": f"{entry}/inject-{entry}.json"}],
                "name": product,
            }
            data.update(over)
            return data

        self.quarantined_meta("meta-not-json", "metadata is prose, not JSON", b"this is not json at all\n")
        full = json.dumps(meta_of("meta-truncated")).encode()
        self.quarantined_meta("meta-truncated", "metadata JSON cut off half way", full[: len(full) // 2])
        self.quarantined_meta(
            "meta-array", "metadata is a JSON array, not an object", json.dumps([meta_of("meta-array")]).encode()
        )
        self.quarantined_meta("meta-empty", "metadata file is empty", b"")
        self.quarantined_meta(
            "meta-invalid-utf8",
            "metadata holds bytes that are not UTF-8",
            b'{"id": "file-bad-meta-invalid-utf8", "name": "caf\xe9 \xff\xfe\xc3("}',
        )
        surrogate = meta_of("meta-surrogate")
        surrogate["content"] = [{"path_textualized": "file-bad-meta-surrogate/part-\ud800.md"}]
        self.quarantined_meta(
            "meta-surrogate",
            'a lone surrogate escape "\\ud800" in a path (legal JSON text, not a Unicode string)',
            json.dumps(surrogate).encode("ascii"),
        )
        nan = json.dumps(meta_of("meta-nan", size=float("nan"), weight=float("inf"))).encode()
        self.quarantined_meta("meta-nan", "NaN and Infinity tokens (not JSON by RFC 8259)", nan)
        depth = lim.nesting_depth
        self.quarantined_meta(
            "meta-deep",
            f"{depth} levels of nested arrays (RecursionError in a recursive parser)",
            b'{"id": "file-bad-meta-deep", "x": ' + b"[" * depth + b"]" * depth + b"}",
        )
        big = meta_of("meta-huge")
        big["padding"] = "x" * (lim.max_file_bytes + 1024)
        self.quarantined_meta(
            "meta-huge", f"valid metadata larger than the {lim.max_file_bytes}-byte limit", json.dumps(big).encode()
        )
        self.quarantined_meta(
            "meta-id-not-string",
            "metadata 'id' is a number",
            json.dumps(meta_of("meta-id-not-string", id=12345)).encode(),
        )

        # the metadata path exists but is no file
        entry = "file-bad-meta-is-dir"
        product = "Refused Meta Is Dir Phone"
        self.document(entry, products=[product], write_meta=False)
        (self.root / entry / f"{entry}.json").mkdir()
        self.add(
            HostileEntry(
                entry, "meta-is-dir", "the metadata path is a directory", "quarantined", absent_products=(product,)
            )
        )

        entry = "file-bad-meta-symlink-loop"
        product = "Refused Meta Symlink Loop Phone"
        self.document(entry, products=[product], write_meta=False)
        link = self.root / entry / f"{entry}.json"
        link.symlink_to(link.name)
        self.add(
            HostileEntry(
                entry,
                "meta-symlink-loop",
                "the metadata is a symlink to itself",
                "quarantined",
                absent_products=(product,),
            )
        )

        # a link that leaves the root: following it would trust metadata nobody put in the dataset
        entry = "file-bad-meta-symlink-outside"
        product = f"{self.marker} Linked Phone"
        self.document(
            entry, products=[product], markdown=f"# {product}\n\n{self.marker} linked page\n", write_meta=False
        )
        target = self.outside_file("meta.json", json.dumps(meta_of("meta-symlink-outside", name=product)).encode())
        (self.root / entry / f"{entry}.json").symlink_to(os.path.relpath(target, self.root / entry))
        self.add(
            HostileEntry(
                entry,
                "meta-symlink-outside",
                "the metadata is a symlink to a file outside the dataset root",
                "quarantined",
                absent_products=(product,),
            )
        )

    def bom(self) -> None:
        entry = "file-bad-meta-bom"
        product = "Bom Tolerant Phone"
        data = self.document(entry, products=[product], write_meta=False)
        self.write_bytes(f"{entry}/{entry}.json", b"\xef\xbb\xbf" + json.dumps(data).encode())
        self.add(
            HostileEntry(
                entry,
                "meta-bom",
                "metadata starts with a UTF-8 byte order mark (an editor's artefact, not corruption)",
                "indexed",
                products=(product,),
            )
        )

    def reference_kinds(self) -> None:
        """Documents with one bad reference: the page or specs it names cannot be used."""
        secret = f"Confidential {self.marker} notes that must stay private.\n".encode()
        outside_md = self.outside_file("page.md", secret)
        outside_specs = self.outside_file(
            "inject.json", json.dumps([self.variant(f"{self.marker} Phone")]).encode("ascii")
        )
        rel_up_md = os.path.relpath(outside_md, self.root)
        rel_up_specs = os.path.relpath(outside_specs, self.root)

        def ref(kind: str, description: str, *, records: int = 1, build: Any = None, **doc: Any) -> None:
            entry = f"file-bad-{kind}"
            product = f"Kept {kind.replace('-', ' ').title()} Phone"
            if build is not None:
                doc.update(build(entry))
            self.document(entry, products=[product], **doc)
            self.add(
                HostileEntry(
                    entry,
                    kind,
                    description,
                    "indexed",
                    products=(product,),
                    absent_products=(f"{self.marker} Phone",),
                    min_records=records,
                )
            )

        ref(
            "content-traversal",
            f"a content path {rel_up_md!r} reaching a page outside the root",
            extra_content=[{"path_textualized": rel_up_md}],
        )
        ref(
            "content-absolute",
            "an absolute content path to a page outside the root",
            extra_content=[{"path_textualized": str(outside_md)}],
        )
        ref(
            "content-missing",
            "a content path to a markdown file that does not exist",
            extra_content=[{"path_textualized": "file-bad-content-missing/part-gone.md"}],
        )
        ref("content-not-list", "'content' is a string, not a list", meta={"content": "file-bad-content-not-list/x.md"})

        def pre_dir(entry: str) -> dict[str, Any]:
            (self.root / entry / "inject-dir").mkdir(parents=True)
            return {"extra_prescience": [{"format": "rawspecs", "path": f"{entry}/inject-dir"}]}

        ref("prescience-is-dir", "a prescience path that is a directory", build=pre_dir)

        def pre_loop(entry: str) -> dict[str, Any]:
            (self.root / entry).mkdir(parents=True)
            (self.root / entry / "inject-loop.json").symlink_to("inject-loop.json")
            return {"extra_prescience": [{"format": "rawspecs", "path": f"{entry}/inject-loop.json"}]}

        ref("prescience-symlink-loop", "a prescience file that is a symlink to itself", build=pre_loop)
        ref(
            "prescience-traversal",
            f"a prescience path {rel_up_specs!r} reaching specs outside the root",
            extra_prescience=[{"format": "rawspecs", "path": rel_up_specs}],
        )

        def pre_link_out(entry: str) -> dict[str, Any]:
            (self.root / entry).mkdir(parents=True)
            (self.root / entry / "inject-out.json").symlink_to(os.path.relpath(outside_specs, self.root / entry))
            return {"extra_prescience": [{"format": "rawspecs", "path": f"{entry}/inject-out.json"}]}

        ref(
            "prescience-symlink-outside",
            "a prescience file inside the root that links to specs outside it",
            build=pre_link_out,
        )
        ref(
            "prescience-missing",
            "a second prescience file that does not exist",
            extra_prescience=[{"format": "rawspecs", "path": "file-bad-prescience-missing/inject-gone.json"}],
        )

        def unknown(entry: str) -> dict[str, Any]:
            self.write_json(f"{entry}/specs.csv.json", [self.variant("Unknown Format Phone")])
            return {"extra_prescience": [{"format": "csvspecs", "path": f"{entry}/specs.csv.json"}]}

        ref("prescience-unknown-format", "a prescience entry in an unknown format 'csvspecs'", build=unknown)

    def rawspecs_kinds(self) -> None:
        """Documents with a good rawspecs file and a second, bad one."""
        lim = self.limits

        def bad(
            kind: str,
            description: str,
            payload: Any,
            *,
            raw: bytes | None = None,
            records: int = 1,
            optional: tuple[str, ...] = (),
            absent: tuple[str, ...] = (),
            sanitised: tuple[str, ...] = (),
        ) -> None:
            entry = f"file-bad-{kind}"
            product = f"Kept {kind.replace('-', ' ').title()} Phone"
            rel = f"{entry}/inject-{entry}-bad.json"
            if raw is None:
                self.write_json(rel, payload)
            else:
                self.write_bytes(rel, raw)
            self.document(entry, products=[product], extra_prescience=[{"format": "rawspecs", "path": rel}])
            self.add(
                HostileEntry(
                    entry,
                    kind,
                    description,
                    "indexed",
                    products=(product,),
                    optional_products=optional,
                    absent_products=absent,
                    min_records=records,
                    sanitised=sanitised,
                )
            )

        bad("specs-not-list", "rawspecs is a number, not a list of records", 42)
        bad(
            "specs-no-name",
            "a variant record without 'name'",
            [{"prod_range": "Nameless", "specs": {"Price": "1 GBP"}}],
        )
        hostile_names = {
            "Nul\x00Phone": "NulPhone",
            "Escape \x1b[31mRed\x1b[0m Phone": "Escape [31mRed[0m Phone",
            "Bidi \u202eenohP\u202c Phone": "Bidi enohP Phone",
            "Zero\u200bWidth Phone": "ZeroWidth Phone",
        }
        bad(
            "specs-control-chars",
            "variant names with NUL, ESC, a bidi override and a zero-width space",
            [self.variant(n) for n in hostile_names],
            records=len(hostile_names),
            absent=tuple(hostile_names),
            sanitised=tuple(hostile_names.values()),
        )
        bad(
            "specs-surrogate-name",
            'a variant name with a lone surrogate escape "\\ud800"',
            [self.variant("Lone \ud800 Surrogate Phone")],
            absent=("Lone \ud800 Surrogate Phone",),
        )
        huge = "Huge Value Phone"
        bad(
            "specs-huge-value",
            f"a spec value of {lim.max_file_bytes + 1} characters",
            [self.variant(huge, **{"Misc:Notes": "y" * (lim.max_file_bytes + 1)})],
            optional=(huge,),
        )
        bad(
            "specs-nan",
            "NaN and Infinity numbers as spec values",
            None,
            raw=b'[{"name": "Nan Value Phone", "specs": {"Battery:Capacity": NaN, "Physical:Weight": Infinity, '
            b'"Price": -Infinity}}]',
            optional=("Nan Value Phone",),
        )
        bad(
            "specs-nested-value",
            "a nested object as a spec value",
            [self.variant("Nested Value Phone", **{"Display:Size": {"value": 6.1, "unit": "inch"}})],
            optional=("Nested Value Phone",),
        )
        bad(
            "specs-empty-key",
            "a spec with an empty key",
            [self.variant("Empty Key Phone", **{"": "5000 mAh", " : ": "x"})],
            optional=("Empty Key Phone",),
        )
        n = lim.max_variants + 1
        rows = b",".join(b'{"name":"Bulk %06d Phone","specs":{"Price":"1.00 GBP"}}' % i for i in range(n))
        bad(
            "specs-too-many",
            f"{n} variants in one rawspecs file (over the {lim.max_variants} limit)",
            None,
            raw=b"[" + rows + b"]",
            optional=tuple(f"Bulk {i:06d} Phone" for i in range(min(n, 3))),
        )
        # one product described by two pages (with their own model codes): both pages count
        for side in ("a", "b"):
            entry = f"file-bad-duplicate-{side}"
            self.write_json(
                f"{entry}/inject-{entry}.json",
                [self.variant("Duplicate Phone", **{"Model Code": f"DUP-{side.upper()}"})],
            )
            self.document(
                entry,
                extra_prescience=[{"format": "rawspecs", "path": f"{entry}/inject-{entry}.json"}],
                markdown=f"# Duplicate Phone\n\nPage {side} about it.\n",
            )
            self.add(
                HostileEntry(
                    entry,
                    "duplicate-name",
                    f"the product name 'Duplicate Phone' also appears in another document (page {side})",
                    "indexed",
                    products=("Duplicate Phone",),
                )
            )

    def directory_kinds(self) -> None:
        (self.root / "file-empty").mkdir()
        self.add(HostileEntry("file-empty", "empty-dir", "a document directory with nothing in it", "ignored"))
        self.write_bytes("file-md-only/part-md-only.md", b"# Orphan page\n\nNo metadata names this page.\n")
        # a document directory that lost its metadata is a broken document, not a stray entry
        self.add(HostileEntry("file-md-only", "markdown-only", "a markdown page without metadata", "quarantined"))
        self.write_bytes("README.txt", b"Notes left at the dataset root.\n")
        self.add(HostileEntry("README.txt", "stray-file", "a stray file at the dataset root", "ignored"))
        self.document("notes", products=["Notes Dir Phone"])
        self.add(
            HostileEntry(
                "notes",
                "not-file-dir",
                "a directory not named file-* (holding document-like files)",
                "ignored",
                absent_products=("Notes Dir Phone",),
            )
        )
        # names that must stay apart: case and normalisation are not identity on a POSIX filesystem
        twins = [
            ("file-Case", "case-twin", "differs from file-case only in case", "Case Upper Phone"),
            ("file-case", "case-twin", "differs from file-Case only in case", "Case Lower Phone"),
            ("file-caf\u00e9", "nfc-twin", "NFC spelling of file-café", "Cafe Composed Phone"),
            ("file-cafe\u0301", "nfc-twin", "NFD spelling of file-café", "Cafe Decomposed Phone"),
        ]
        for entry, kind, description, product in twins:
            self.document(entry, products=[product])
            self.add(HostileEntry(entry, kind, description, "indexed", products=(product,)))


def write_hostile_dataset(
    root: str | os.PathLike, *, good: int = 20, seed: int = 0, limits: HostileLimits | None = None
) -> HostileManifest:
    """Write the hostile dataset under ``root`` (a few files go next to it: ``outside_paths``).

    The same ``root``, ``good``, ``seed`` and ``limits`` always give the same bytes. ``root``
    must be empty or absent, and its filesystem case-sensitive (as on Linux).
    """
    root_path = Path(root)
    root_path.mkdir(parents=True, exist_ok=True)
    if any(root_path.iterdir()):
        raise FileExistsError(f"{root_path} is not empty")
    if not _case_sensitive(root_path):
        raise OSError(f"{root_path}: the filesystem is not case-sensitive; the case twins would collide")
    limits = limits or HostileLimits()
    rng = random.Random(seed)
    marker = "Outsidemark" + "".join(rng.choice("bcdfghjkmnpqrstvwxz") for _ in range(8))
    w = _Writer(root_path, rng, limits, marker)
    w.good(good)
    w.metadata_kinds()
    w.bom()
    w.reference_kinds()
    w.rawspecs_kinds()
    w.directory_kinds()
    return HostileManifest(str(root_path), seed, marker, limits, tuple(w.outside), tuple(w.entries))


def _case_sensitive(root: Path) -> bool:
    probe = root / "file-probe"
    probe.write_bytes(b"")
    try:
        return not (root / "FILE-PROBE").exists()
    finally:
        probe.unlink()


# ---------------------------------------------------------------------------------------------
# checking


@dataclass
class EntryCheck:
    name: str
    kind: str
    expected: str
    observed: str  # "indexed", "quarantined", "ignored", "partial" or "missing"
    ok: bool
    records: int = 0
    detail: str = ""


@dataclass
class CheckResult:
    expected_products: int
    found_products: int
    lost: list[str] = field(default_factory=list)  # expected products missing from the store
    unaccounted: list[str] = field(default_factory=list)  # broken entries neither quarantined nor ignored
    wrong: list[str] = field(default_factory=list)  # entries handled otherwise than expected
    leaks: list[str] = field(default_factory=list)  # outside text found in the index
    zombies: list[str] = field(default_factory=list)  # products that must not be stored, stored
    unsafe_names: list[str] = field(default_factory=list)  # stored product names with control characters
    entries: list[EntryCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.unaccounted or self.wrong or self.leaks or self.zombies or self.unsafe_names)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}

    def table(self) -> str:
        rows = [("entry", "kind", "expected", "observed", "records", "ok", "detail")]
        rows += [
            (ascii(e.name)[1:-1], e.kind, e.expected, e.observed, str(e.records), "yes" if e.ok else "NO", e.detail)
            for e in self.entries
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(6)]
        return "\n".join(
            "  ".join(c.ljust(widths[i]) for i, c in enumerate(r[:6])) + "  " + r[6] for r in rows
        ).rstrip()


def _unsafe(name: str) -> bool:
    # format characters stay legal (ZWJ in emoji, ZWNJ in Persian) except those that reorder or hide text
    return any(
        unicodedata.category(ch) in ("Cc", "Cs") or ch in "\u200b\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
        for ch in name
    )


def _entry_of(path: str, roots: list[str]) -> str | None:
    """The top-level entry a path lies in, read lexically: ``..`` is never resolved into the root."""
    if not os.path.isabs(path):
        parts = Path(path).parts
        return parts[0] if parts and parts[0] not in ("..", ".") else None
    for root in roots:
        prefix = root.rstrip(os.sep) + os.sep
        if path.startswith(prefix):
            first = path[len(prefix) :].split(os.sep, 1)[0]
            return first if first not in ("", "..", ".") else None
    return None


def check_index(
    manifest_json: Mapping[str, Any],
    quarantine_records: list[dict[str, Any]],
    store_product_names: set[str],
    hostile: HostileManifest,
    *,
    store_text: Iterable[str] = (),
) -> CheckResult:
    """What the index did with each hostile entry, against what it should have done.

    ``store_text`` is any text the index holds besides product names (literals, chunks):
    it is searched for the outside marker word and the outside files' lines.
    """
    roots = list(
        dict.fromkeys([hostile.root, str(Path(hostile.root).resolve()), str(manifest_json.get("dataset", ""))])
    )
    roots = [r for r in roots if r]
    records: dict[str, int] = {}
    for rec in quarantine_records:
        owner = _entry_of(str(rec.get("file", "")), roots)
        if owner is not None:
            records[owner] = records.get(owner, 0) + 1
    ignored: dict[str, str] = {}
    for item in manifest_json.get("ignored", []) or []:
        if isinstance(item, Mapping) and isinstance(item.get("path"), str):
            owner = _entry_of(item["path"].rstrip("/"), roots)
            if owner is not None:
                ignored[owner] = str(item.get("reason", ""))

    expected = hostile.expected_products()
    result = CheckResult(expected_products=len(expected), found_products=len(expected & store_product_names))
    result.lost = sorted(expected - store_product_names)
    result.unsafe_names = sorted(ascii(n) for n in store_product_names if _unsafe(n))

    for e in hostile.entries:
        n_rec = records.get(e.name, 0)
        found = [p for p in e.products if p in store_product_names]
        zombies = [p for p in e.absent_products if p in store_product_names]
        result.zombies += [f"{e.name}: {p!a}" for p in zombies]
        sanitised = sum(1 for p in e.sanitised if p in store_product_names)
        if e.name in ignored:
            observed = "ignored"
        elif e.products and len(found) == len(e.products):
            observed = "indexed"
        elif n_rec:
            observed = "quarantined" if not found else "partial"
        else:
            observed = "partial" if found else "missing"
        details = []
        if e.expected == "indexed":
            missing = [p for p in e.products if p not in store_product_names]
            short = max(0, e.min_records - sanitised - n_rec)
            ok = not missing and not short and e.name not in ignored
            if missing:
                details.append(f"missing products {[ascii(p) for p in missing]}")
            if short:
                details.append(f"{short} bad record(s) neither quarantined nor sanitised")
        elif e.expected == "quarantined":
            ok = n_rec > 0 and not found
            if not n_rec:
                details.append("no quarantine record names a file inside it")
        else:
            ok = e.name in ignored
            if not ok:
                details.append("not listed in manifest['ignored']")
        if zombies:
            ok = False
            details.append(f"stored products that must not be: {[ascii(p) for p in zombies]}")
        if e.name in ignored:
            details.append(f"ignored: {ignored[e.name]}")
        result.entries.append(EntryCheck(e.name, e.kind, e.expected, observed, ok, n_rec, "; ".join(details)))
        if e.broken and not ok:
            # silence is worse than a wrong call: nothing in the index says what became of it
            (result.unaccounted if not n_rec and e.name not in ignored else result.wrong).append(e.name)

    needles = [hostile.marker.casefold()]
    for p in hostile.outside_paths:
        try:
            text = Path(p).read_text("utf-8", errors="replace")
        except OSError:
            continue
        needles += [line.strip().casefold() for line in text.splitlines() if len(line.strip()) >= 12]
    needles = list(dict.fromkeys(needles))
    for text in [*store_product_names, *store_text]:
        folded = text.casefold()
        result.leaks += [f"{n!r} in {text[:80]!r}" for n in needles if n in folded]
    return result


def collect_index_evidence(index_dir: str | os.PathLike, marker: str) -> dict[str, Any]:
    """Read an index back for ``check_index``: manifest, quarantine records, product names, marker hits.

    ``store_text`` holds only the texts that contain the marker (found by the store itself),
    plus every file of the index outside the store that mentions it.
    """
    from contextlib import closing

    from dualgraph.pipeline.generations import resolve
    from dualgraph.pipeline.index_store import index_store_config, open_store
    from dualgraph.pipeline.layout import IndexLayout

    layout = IndexLayout(resolve(index_dir))  # the generation readers see, every file of it once
    manifest = json.loads(layout.manifest.read_text("utf-8")) if layout.manifest.is_file() else {}
    quarantine = (
        [json.loads(line) for line in layout.quarantine.read_text("utf-8").splitlines() if line.strip()]
        if layout.quarantine.is_file()
        else []
    )
    needle = marker.casefold()
    # through the readers' check: a store.json naming a server nobody named gets no password
    with closing(open_store(index_store_config(layout.root), layout.root, read_only=True)) as store:
        res = store.select("SELECT DISTINCT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n }")
        names = {b["n"]["value"] for b in res["results"]["bindings"]}
        hits = store.select(
            "SELECT DISTINCT ?o WHERE { GRAPH ?g { ?s ?p ?o } FILTER(isLiteral(?o) && CONTAINS(LCASE(STR(?o)), "
            + json.dumps(needle)
            + ")) }"
        )
        texts = [b["o"]["value"] for b in hits["results"]["bindings"]]
    shared_cache = layout.root / "cache"  # a link to the index's cache in a generation: not walked by rglob
    extra = sorted(shared_cache.rglob("*")) if shared_cache.is_symlink() else []
    for path in sorted(layout.root.rglob("*")) + extra:
        if not path.is_file() or layout.store in path.parents:
            continue
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            table = pq.read_table(path)
            for col in table.column_names:
                texts += [v for v in table.column(col).to_pylist() if isinstance(v, str) and needle in v.casefold()]
        elif needle.encode() in path.read_bytes().lower():
            texts.append(f"file {path.relative_to(layout.root)} mentions the marker")
    return {"manifest": manifest, "quarantine": quarantine, "product_names": names, "store_text": texts}
