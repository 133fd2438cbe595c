"""Options of the Spark jobs: one pydantic model per job, every field described (``--help`` reads them)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["EtlOptions", "GraphOptions"]


class _Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EtlOptions(_Options):
    """How :func:`dualgraph.spark.etl.import_tables` splits and writes a table dump."""

    market_column: str | None = Field(
        None,
        description="Column holding each row's market code (uk, de, ...): every market is written to "
        "OUT/<market>/, a dataset directory for `dualgraph index --market <market>`. Without it, OUT "
        "is one dataset directory, the same as `dualgraph import-table` writes.",
    )
    chunk_chars: int = Field(5000, gt=0, description="Markdown chunk size cap, as `import-table --chunk-chars`.")
    partitions: int | None = Field(
        None,
        gt=0,
        description="Partitions for converting rows and for writing pages; default: the session's "
        "default parallelism. More partitions spread one large file's rows over more cores.",
    )
    spill_dir: str | None = Field(
        None,
        description="Local directory where each page-writing task keeps its rows (SQLite) while it "
        "groups them into pages; default: the system temp dir of the executor.",
    )
    progress: bool = Field(True, description="Log each step with its counts and time on stderr.")


class GraphOptions(_Options):
    """What :func:`dualgraph.spark.graph.analyse` computes over a triple table."""

    top: int = Field(20, gt=0, description="How many hub entries and hub values to report.")
    ignore_entries: list[str] = Field(
        default_factory=lambda: ["Price"],
        description="Entry names (case-insensitive) left out of components and duplicate signatures: "
        "prices differ between markets by design.",
    )
    max_value_products: int | None = Field(
        None,
        gt=1,
        description="Values held by more products than this do not link them into one component "
        "(a 'Yes' under '5G' would join most phones); default: every shared value links.",
    )
    max_iterations: int = Field(
        50,
        gt=0,
        description="Label-propagation rounds before giving up (the fallback without GraphFrames); "
        "a round per hop of the longest shortest path between two products of a component.",
    )
    use_graphframes: bool = Field(
        True,
        description="Use GraphFrames' connected components when its jar is on the classpath; "
        "False always takes the DataFrame fallback.",
    )
    checkpoint_dir: str | None = Field(
        None,
        description="Checkpoint directory for GraphFrames (required by its algorithm) and for cutting "
        "the lineage of long label-propagation runs; default: a temp dir (local mode only).",
    )
    progress: bool = Field(True, description="Log each step with its counts and time on stderr.")
