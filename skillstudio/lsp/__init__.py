"""`skillstudio lsp`: the language server (docs/lsp.md). It uses only the core, never Qt."""
