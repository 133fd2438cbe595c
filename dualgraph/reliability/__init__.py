"""Reliability tooling: hostile inputs, store faults, kill points."""
