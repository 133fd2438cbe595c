"""How much of one input the readers accept: per file, per value, per list, per nesting level.

A catalog someone else wrote can hold a 10 MB spec value or a metadata file that is one
deep bracket; these limits turn both into a quarantine record that says which limit was
hit, instead of a stalled worker or a process killed for memory.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from dualgraph.corpus.model import MAX_VALUE_CHARS


class ReadLimits(BaseModel):
    """Size limits applied while reading a dataset; every limit hit is reported, never silent."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_metadata_bytes: int = Field(
        1_000_000, ge=1, description="Largest metadata file (file-<id>.json) read; larger ones are quarantined."
    )
    max_file_bytes: int = Field(
        64_000_000,
        ge=1,
        description="Largest markdown or rawspecs file read; a larger one is quarantined as that document's part.",
    )
    max_value_chars: int = Field(
        MAX_VALUE_CHARS,
        ge=1,
        description="Longest spec value, name or key kept; a longer spec is left out with a quarantine record.",
    )
    max_variants_per_file: int = Field(
        20_000, ge=1, description="Most variant records read from one rawspecs file; the rest are reported."
    )
