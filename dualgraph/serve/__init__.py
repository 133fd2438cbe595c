"""Serving answers over HTTP with Ray Serve (the ``serve`` extra)."""
