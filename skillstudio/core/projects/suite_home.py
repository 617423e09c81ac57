"""Where a suite may be read from, and the folders it may name (docs/commands.md,
"Where a suite may reach"; PRODUCT.md section 11).

A suite is untrusted input, as a skill is: a repository's skillstudio.yaml names it,
and the suite names the folders it runs against (`roots:`, a request set's
`corpus:`). Each is confined to the suite's home, the repository it belongs to:

- a suite listed under `suites:` in skillstudio.yaml: the folder of that file
  (config.py refuses an entry that resolves outside it);
- a suite named on the command line or opened in the app: the project or repository
  it lies in (confinement.project_folder: the nearest folder above it that holds a
  `.git`, a skillstudio.yaml or an agent's folder), else the folder the command runs
  in (or the open project) when it lies there, else its own folder.

The file itself is read through safefs (resolved, inside its home, a regular file
opened non-blocking, checked again after the open, at most yaml_io.SUITE bytes).
Which file to read is the user's choice when typed on the command line; what a file
names is not, so a `roots:` or `corpus:` outside the home is refused with its place
unless the command line names the skills itself (suite_scope.py).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..model.confinement import outside, project_folder
from ..model.paths import is_within
from .config import Config


def suite_home(path: str, folders: Sequence[str] = (), listed_by: Sequence[Config] = ()) -> str:
    """The folder a suite at `path`, and what it names, must resolve inside: the
    folder of the skillstudio.yaml of `listed_by` that lists it, else its project or
    repository, else the first of `folders` (the current folder, the open projects)
    that holds it, else the suite's own folder."""
    absolute = os.path.abspath(path)
    for config in listed_by:
        if absolute in config.suites:
            return os.path.dirname(config.path)
    owner = project_folder(absolute)
    if owner is not None:
        return owner
    for folder in folders:
        if is_within(absolute, os.path.abspath(folder)):
            return os.path.abspath(folder)
    return os.path.dirname(absolute)


def named_outside(place: str, key: str, path: str, home: str) -> str | None:
    """Why the folder `path` that a suite's `key` (`roots`, `corpus`) names at `place`
    (file:line:column) is not used, or None when it resolves inside `home`."""
    real = outside(path, home)
    if real is None:
        return None
    where = path if real == path else f"{path} (which is {real})"
    return (
        f"{place}: the suite's '{key}' names {where}, outside {home}, the repository "
        "the suite belongs to; nothing there was read. Name the skills on the command "
        "line instead (a PATH, --root or --project)."
    )
