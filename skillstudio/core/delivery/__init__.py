"""What an agent is shown (the four tiers) and what invoking a skill delivers."""
