"""The six profiles, by name."""

from __future__ import annotations

from .agentskills import AgentSkills
from .base import Profile, RootSpec
from .mvp import Mvp
from .oasis import Oasis
from .pegasus import Pegasus
from .toolsets import Toolsets
from .workspace import Workspace

PROFILE_CLASSES: dict[str, type[Profile]] = {
    cls.name: cls for cls in (Oasis, Pegasus, Toolsets, Mvp, Workspace, AgentSkills)
}
PROFILE_NAMES: tuple[str, ...] = tuple(PROFILE_CLASSES)


def get_profile(name: str) -> Profile:
    """A profile instance by name; KeyError names the known ones."""
    try:
        return PROFILE_CLASSES[name]()
    except KeyError:
        raise KeyError(f"unknown profile '{name}' (known: {', '.join(PROFILE_NAMES)})") from None


__all__ = ["PROFILE_CLASSES", "PROFILE_NAMES", "Profile", "RootSpec", "get_profile"]
