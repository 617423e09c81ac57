"""Which skill a request selects, which the model would probably pick, and why."""
