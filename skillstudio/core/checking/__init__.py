"""Checking one skill against its profile's rules: fields, links, patterns."""
