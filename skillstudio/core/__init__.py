"""The registry core: discovery, parsing, profiles, validation. Imports no Qt."""
