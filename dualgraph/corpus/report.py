"""What an import read, wrote and set aside; shared by the HTML and table importers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from dualgraph.corpus.model import Quarantine

__all__ = ["QUARANTINE_FILE", "ImportReport"]

QUARANTINE_FILE = "_import_quarantine.jsonl"


@dataclass(slots=True)
class ImportReport:
    """What an import read, wrote and set aside (shared by the HTML and table importers)."""

    source: str
    out_dir: str
    records: int = 0
    variants: int = 0
    pages: int = 0
    pruned: int = 0
    """Pages of an earlier import removed because their rows are gone from the table."""
    quarantined: list[Quarantine] = field(default_factory=list)
    quarantine_path: str | None = None

    def add(self, file: str | Path, record: str, stage: str, reason: str) -> None:
        self.quarantined.append(Quarantine(file=str(file), record=record, stage=stage, reason=reason))

    @property
    def counts(self) -> dict[str, int]:
        """Figures for logs and the CLI; ``quarantined:<stage>`` counts entries per stage."""
        out = {
            "records": self.records,
            "variants": self.variants,
            "pages": self.pages,
            "pruned": self.pruned,
            "quarantined": len(self.quarantined),
        }
        for q in self.quarantined:
            out[f"quarantined:{q.stage}"] = out.get(f"quarantined:{q.stage}", 0) + 1
        return out

    def write_quarantine(self, out_dir: str | Path) -> Path:
        """Write ``<out>/_import_quarantine.jsonl``, empty when nothing was set aside, so a
        re-import never leaves an earlier run's entries behind."""
        path = Path(out_dir) / QUARANTINE_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as f:
            for q in self.quarantined:
                f.write(json.dumps(q.to_dict(), ensure_ascii=False) + "\n")
        self.quarantine_path = str(path)
        return path
