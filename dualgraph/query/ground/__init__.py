"""Grounding mentions on one catalog: each gets its best grounding, its runner-ups and the
"no constraint" reading, scored from the catalog's own evidence (names, meanings, units, values,
how many products state them, the prose facts of the pages)."""
