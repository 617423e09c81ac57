"""The profiles, by name: the one place that knows which skill systems exist.

A new skill system is one module (or package) in this folder with a `Profile`
subclass that sets `name`: it is found here, in the order of its `order` (a
subclass of another profile, such as ClaudeCode of Pegasus, is found in its own
module). Profiles built from data are found in a module's `PROFILES` tuple (the
agents of core/profiles/agents.py: agent_profiles.py). Nothing else names them:
commands, detection, the app and the goldens ask this registry. A profile can also
be registered at run time (`register_profile`).
"""

from __future__ import annotations

import importlib
import pkgutil

from ..profile import Profile


def _shipped() -> list[type[Profile]]:
    """Every concrete profile defined in a module of this package, by `order`."""
    found: list[type[Profile]] = []
    for info in pkgutil.walk_packages(__path__, __name__ + "."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Profile)
                and value.__module__ == module.__name__
                and "name" in value.__dict__
            ):
                found.append(value)
        found += [cls for cls in getattr(module, "PROFILES", ()) if cls not in found]
    return sorted(found, key=lambda cls: (cls.order, cls.name))


PROFILE_CLASSES: dict[str, type[Profile]] = {cls.name: cls for cls in _shipped()}
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
