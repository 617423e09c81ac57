"""Codex CLI: its files and settings, the listing, `$name` mentions."""
