"""Session state some profiles keep between requests (workspace consent, toolsets recency)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Session:
    """One agent task session, as the seeds describe it: in memory, reset at the end."""

    consented: set[str] = field(default_factory=set)  # workspace: risky once, then safe
    recent: list[str] = field(default_factory=list)  # toolsets: most recent use first
    history: list[str] = field(default_factory=list)  # requests seen, for the app

    def record_use(self, name: str) -> None:
        if name in self.recent:
            self.recent.remove(name)
        self.recent.insert(0, name)

    def copy(self) -> Session:
        """An independent copy: previews work on it and leave the session as it was."""
        return Session(set(self.consented), list(self.recent), list(self.history))

    def reset(self) -> None:
        self.consented.clear()
        self.recent.clear()
        self.history.clear()
