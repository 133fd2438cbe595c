"""The reader's fitted settings: one typed config read from ``reader_config.yaml``.

The thresholds that decide between readings (how far the beam looks, when a weak mention may be
read as no constraint, when the symbolic answer is doubtful enough for the text to be consulted)
are not set by hand on the dev catalogues: ``bench/fit_reader.py`` fits them on question sets of
several catalogues and checks them on catalogues it did not fit on, then writes the file with a
record of what it was fitted and checked on. The file is versioned with the code; a change to it is
a change of behaviour, reviewed like one.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml
from pydantic import BaseModel, ConfigDict, Field

from dualgraph.query.interpret.beam import BeamConfig

__all__ = ["FitRecord", "ReaderConfig", "reader_config"]


class FitRecord(BaseModel):
    """How the settings were chosen: by whom, on which sets, with which scores."""

    model_config = ConfigDict(extra="forbid")

    by: str = Field(..., description="The script (and its arguments) that chose the settings.")
    date: str = Field(..., description="When (ISO date).")
    fitted_on: dict[str, float] = Field(..., description="Set → overall score with these settings.")
    checked_on: dict[str, float] = Field(
        default_factory=dict, description="Held-out set → overall score (sets not used in fitting)."
    )
    baseline: dict[str, float] = Field(
        default_factory=dict, description="Set → overall score with the settings before this fit."
    )


class ReaderConfig(BaseModel):
    """Every threshold of the reader that was fitted rather than reasoned out."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    beam: BeamConfig = Field(default_factory=BeamConfig, description="The beam over readings.")
    min_confidence: float = Field(
        0.6, ge=0, le=1, description="A symbolic answer less confident than this consults the text."
    )
    empty_min_confidence: float = Field(
        0.8, ge=0, le=1, description="An empty symbolic answer is trusted only at this confidence or more."
    )
    fit: FitRecord | None = Field(None, description="How these values were chosen (None: defaults, not fitted).")


@cache
def reader_config() -> ReaderConfig:
    """The packaged ``reader_config.yaml`` (its defaults when it is absent)."""
    path = resources.files("dualgraph.query.interpret").joinpath("reader_config.yaml")
    if not path.is_file():
        return ReaderConfig()
    return ReaderConfig.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")) or {})
