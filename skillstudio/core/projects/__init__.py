"""Folders, repositories and projects; suites and evaluation sets; reports across profiles."""
