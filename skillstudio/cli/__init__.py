"""The command line: thin commands over skillstudio.core."""
