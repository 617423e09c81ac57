"""Changing skill files without losing a byte: round-trip edits, saves, archives, recovery."""
