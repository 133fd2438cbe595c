"""What one catalog's words can name, built at index time from its graph: the searchable graph
patterns, the words and names of the catalog, the synonyms mined from its own data, and the general
English every catalog shares (in data files)."""
