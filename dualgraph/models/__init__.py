"""Model backends behind small batch protocols: embedders and LLMs, metered and cached."""
