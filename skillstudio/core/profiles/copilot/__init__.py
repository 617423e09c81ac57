"""GitHub Copilot's own listing (listing.py)."""
