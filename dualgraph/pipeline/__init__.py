"""Batch pipelines (Ray Data): indexing a catalog, later bulk answering."""
