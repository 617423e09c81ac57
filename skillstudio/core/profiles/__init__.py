"""The profiles, by name: the one place that knows which skill systems exist.

A new skill system is one module with a `Profile` subclass, added to
`PROFILE_CLASSES` here (or registered at run time with `register_profile`).
"""

from __future__ import annotations

from ..profile import PanelOption, Profile, RootSpec
from .agentskills import AgentSkills
from .claude_code.profile import ClaudeCode
from .codex.profile import Codex
from .mvp import Mvp
from .oasis import Oasis
from .pegasus import Pegasus
from .toolsets import Toolsets
from .workspace import Workspace

PROFILE_CLASSES: dict[str, type[Profile]] = {
    cls.name: cls
    for cls in (Oasis, Pegasus, Toolsets, Mvp, Workspace, AgentSkills, ClaudeCode, Codex)
}
# A list, updated in place, so that argparse choices and messages see registered ones.
PROFILE_NAMES: list[str] = list(PROFILE_CLASSES)
DEFAULT_PROFILE = "agentskills"  # a folder with no profile's marks


def detection_order() -> list[str]:
    """The profiles whose marks detection looks for, in order: every registered one (so
    a new profile's marks count at once), the default last."""
    return [n for n in PROFILE_NAMES if n != DEFAULT_PROFILE] + [DEFAULT_PROFILE]


def get_profile(name: str) -> Profile:
    """A profile instance by name; KeyError names the known ones."""
    try:
        return PROFILE_CLASSES[name]()
    except KeyError:
        raise KeyError(f"unknown profile '{name}' (known: {', '.join(PROFILE_NAMES)})") from None


def register_profile(cls: type[Profile]) -> type[Profile]:
    """Make a profile known by its name (commands, detection, the app) from now on."""
    PROFILE_CLASSES[cls.name] = cls
    if cls.name not in PROFILE_NAMES:
        PROFILE_NAMES.append(cls.name)
    return cls


def unregister_profile(name: str) -> None:
    """Forget a profile registered with `register_profile`."""
    PROFILE_CLASSES.pop(name, None)
    if name in PROFILE_NAMES:
        PROFILE_NAMES.remove(name)


__all__ = [
    "DEFAULT_PROFILE",
    "PROFILE_CLASSES",
    "PROFILE_NAMES",
    "PanelOption",
    "Profile",
    "RootSpec",
    "detection_order",
    "get_profile",
    "register_profile",
    "unregister_profile",
]
