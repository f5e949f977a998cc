//! Code intelligence (tree-sitter): syntax trees, symbols, analysis.
