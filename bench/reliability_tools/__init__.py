"""Reliability tooling for tests and `bench/reliability.py`: hostile inputs, store faults, kill points.

Kept out of the installed package: nothing a user runs imports it. Importers put `bench/` on `sys.path`."""
