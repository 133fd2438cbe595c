"""Reading a question: its intent and every mention (scope nouns, names, attributes with their
comparison and quantity, features, dates, superlatives, comparisons), each with its span. The
catalog's vocabulary is passed in; nothing here queries the store."""
