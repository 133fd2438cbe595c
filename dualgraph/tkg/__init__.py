"""The Textual KG: chunks, entities extracted from them, merged and embedded, and retrieval."""
