"""Answers: records, strategies (SKG, TKG, fallback, router, agentic), text rendering."""
