"""Spark jobs over catalogs and the SKG: a parallel ``import-table`` and graph analytics.

This is the only package that imports ``pyspark`` (the ``[spark]`` extra), and it does so
inside the modules that need it, so the rest of the library runs without it:

- :mod:`dualgraph.spark.etl` — table dumps (one or many markets) to dataset directories,
  row for row what ``dualgraph import-table`` writes;
- :mod:`dualgraph.spark.triples` — the store's quads as a Parquet table (no Spark needed);
- :mod:`dualgraph.spark.graph` — components, hubs and cross-market duplicates over that table;
- :mod:`dualgraph.spark.session` — one way to start a session, and GraphFrames detection;
- :mod:`dualgraph.spark.options` — the jobs' options (pydantic, one description per field).
"""
