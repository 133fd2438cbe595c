"""Question answering over the two graphs: question parsing, graph patterns, SPARQL compilation."""
