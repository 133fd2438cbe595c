"""One typed configuration, loaded once (defaults < YAML file < CLI flags) and passed down.

No module reads environment variables on its own; the CLI builds an
:class:`IndexConfig` and hands it to the pipeline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field


class IndexConfig(BaseModel):
    """How ``dualgraph index`` builds an index."""

    model_config = ConfigDict(extra="forbid")

    runner: Literal["ray", "inline"] = Field(
        "ray",
        description="'ray' runs the stages on Ray Data (local Ray unless ray_address is set); "
        "'inline' runs them in this process (tests, debugging, tiny catalogs).",
    )
    ray_address: str | None = Field(
        None,
        description="Address of an existing Ray cluster ('auto', 'ray://host:10001'); None starts local Ray. "
        "On a cluster the dataset and index directories must be on storage every worker sees.",
    )
    batch_size: int = Field(
        256, ge=1, description="Documents per batch; one shard file is written per batch (small batches cost Ray overhead)."
    )
    load_group_quads: int = Field(
        2_000_000,
        ge=1,
        description="Quads per bulk-load pass: shard files are loaded together up to this size "
        "(fewer passes are faster; progress is saved after each pass).",
    )
    rules_path: Path | None = Field(None, description="A rules YAML file replacing the built-in derivation rules.")
    progress: bool = Field(True, description="Show progress bars on long steps.")

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides) -> "IndexConfig":
        """Defaults, then the YAML file (if any), then the non-None overrides."""
        data: dict = {}
        if path is not None:
            loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
            data.update(loaded.get("index", loaded))
        data.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**data)
