"""Conformance with skills-ref 0.1.1: the corpus comparison and its own test suite."""
