"""Live model checks: a request put to a real model the way each agent asks it (docs/live.md)."""
