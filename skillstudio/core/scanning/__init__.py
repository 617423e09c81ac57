"""A scan: every skill under a profile's roots read (in processes when many), checked, resolved."""
