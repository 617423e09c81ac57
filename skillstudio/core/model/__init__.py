"""Data every layer shares: skills and roots, diagnostics, declared fields, text, matches."""
