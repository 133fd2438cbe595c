"""Alignment between the two graphs: SKG nodes (node2vec space) and TKG entities (text space)
projected into one space and trained contrastively (issue 14). Built piece by piece: the loss first."""
