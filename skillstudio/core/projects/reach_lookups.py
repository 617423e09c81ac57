"""What the agents' root rules ask of a skill's path and of the file system, asked once
per run (core/projects/agent_reach.py).

`lint --profile all` answers every agent for every skill: each agent's every root rule
walks the same folders above a skill, and asks the same `isfile` / `isdir` of them
(a plugin manifest, a marketplace, an agent's root). Skills of one folder share all
of it, so a `Lookups` that lives for one run (one `lint`, one `show`) answers each
question once: a folder's ancestors are walked once per folder, not per skill and
agent; a path is stat'ed once. Files may change between runs, not within one: a new
run starts with a new `Lookups`. Nothing is opened here but the marketplaces the
rules read (core/profiles/claude_code/plugins.py), each once.
"""

from __future__ import annotations

import os
from functools import lru_cache

from ..model.paths import is_within
from ..profiles.agents import ENV_DEFAULTS, RootRule
from ..profiles.claude_code import plugins

LEVELS = 40  # ancestors looked at for a root


def user_root(rule: RootRule) -> str | None:
    """A user, admin or system root as a path on this machine (None: a variable unset
    with no default)."""
    path = rule.path
    for name, default in ENV_DEFAULTS.items():
        token = f"${name}"
        if token in path:
            path = path.replace(token, os.environ.get(name) or default)
    path = os.path.expandvars(os.path.expanduser(path))
    return None if "$" in path else os.path.normpath(os.path.abspath(path))


def walk_up(folder: str) -> tuple[str, ...]:
    """`folder` and the folders above it, nearest first (at most LEVELS)."""
    out: list[str] = []
    folder = os.path.normpath(folder)
    for _ in range(LEVELS):
        out.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return tuple(out)


@lru_cache(maxsize=4_096)
def path_parts(path: str) -> tuple[str, ...]:
    """The names of a path (a string function, kept: every agent's every root rule asks
    about the same few folders of each skill)."""
    return tuple(p for p in os.path.normpath(path).split(os.sep) if p)


def ends_with(folder: str, rule_path: str) -> bool:
    """`folder` ends with the components of the relative `rule_path`."""
    tail = path_parts(rule_path)
    return path_parts(folder)[-len(tail) :] == tail if tail else False


class Lookups:
    """One run's answers: ancestors and rule matches by folder, stat results by path,
    user roots by rule, marketplaces by folder."""

    def __init__(self) -> None:
        self._up: dict[str, tuple[str, ...]] = {}
        self._ending: dict[tuple[str, str], tuple[str, ...]] = {}
        self._stat: dict[tuple[str, str], bool] = {}
        self._homes: dict[str, str | None] = {}
        self._markets: dict[str, plugins.Marketplace | None] = {}
        self._base: dict[str, str] = {}
        self._inside: dict[tuple[str, str], str] = {}
        self._kinds: dict[tuple[str, str], str] = {}
        self._related: dict[tuple[str, str, bool], bool] = {}

    def ancestors(self, folder: str) -> tuple[str, ...]:
        """`walk_up(folder)`, walked once per folder and run."""
        found = self._up.get(folder)
        if found is None:
            found = self._up[folder] = walk_up(folder)
        return found

    def ending_with(self, folder: str, rule_path: str) -> tuple[str, ...]:
        """The ancestors of `folder` whose last names are those of the relative
        `rule_path` (`/repo/.gemini/skills` for `.gemini/skills`), nearest first."""
        key = (folder, rule_path)
        found = self._ending.get(key)
        if found is None:
            found = self._ending[key] = tuple(
                a for a in self.ancestors(folder) if ends_with(a, rule_path)
            )
        return found

    def _ask(self, kind: str, path: str) -> bool:
        key = (kind, path)
        found = self._stat.get(key)
        if found is None:
            test = {
                "file": os.path.isfile,
                "dir": os.path.isdir,
                "exists": os.path.lexists,
                "link": os.path.islink,
            }[kind]
            found = self._stat[key] = test(path)
        return found

    def isfile(self, path: str) -> bool:
        return self._ask("file", path)

    def isdir(self, path: str) -> bool:
        return self._ask("dir", path)

    def lexists(self, path: str) -> bool:
        return self._ask("exists", path)

    def islink(self, path: str) -> bool:
        return self._ask("link", path)

    def user_root(self, rule: RootRule) -> str | None:
        """`user_root(rule)`, the environment read once per rule and run."""
        if rule.path not in self._homes:
            self._homes[rule.path] = user_root(rule)
        return self._homes[rule.path]

    def marketplace(self, folder: str) -> plugins.Marketplace | None:
        """The marketplace of `folder`, read once per run."""
        if folder not in self._markets:
            self._markets[folder] = plugins.read_marketplace(folder)
        return self._markets[folder]

    def inside(self, base: str, rule_path: str) -> str:
        """The project root `rule_path` of the folder opened (`base`), normalised."""
        key = (base, rule_path)
        found = self._inside.get(key)
        if found is None:
            found = self._inside[key] = os.path.normpath(os.path.join(base, rule_path))
        return found

    def manifest_kind(self, folder: str, mark: str) -> str:
        """What `folder/mark` (`.claude-plugin`, ...) is: "plugin" (it holds a
        plugin.json), "folder" (a folder of no marketplace: a plugin without its
        manifest), "" (neither)."""
        key = (folder, mark)
        found = self._kinds.get(key)
        if found is None:
            manifest = os.path.join(folder, mark)
            if self.isfile(os.path.join(manifest, "plugin.json")):
                found = "plugin"
            elif self.isdir(manifest) and not self.lexists(
                os.path.join(manifest, "marketplace.json")
            ):
                found = "folder"
            else:
                found = ""
            self._kinds[key] = found
        return found

    def has_marketplace(self, folder: str, mark: str) -> bool:
        """Whether `folder/mark/marketplace.json` is a file."""
        return self.isfile(os.path.join(folder, mark, "marketplace.json"))

    def related(self, folder: str, base: str, below: bool = False) -> bool:
        """Whether `folder` is `base` or below it, or (unless `below`) above it."""
        key = (folder, base, below)
        found = self._related.get(key)
        if found is None:
            found = is_within(folder, base) or (not below and is_within(base, folder))
            self._related[key] = found
        return found

    def base(self, base: str) -> str:
        """The folder opened, absolute and normalised."""
        found = self._base.get(base)
        if found is None:
            found = self._base[base] = os.path.normpath(os.path.abspath(base))
        return found
